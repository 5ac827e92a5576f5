/*
 * fuzz_tile.c - libFuzzer target for the tile options: the --swizzle
 * parser, the --access modes and the tiles they build, and the fix
 * advisor's byte-layout search over them.
 *
 * The input is "SWIZZLE MODE" (up to the first newline; the mode is the
 * text after the first blank) followed by bytes that choose the tile:
 * rows, columns, padding, element and access widths, the kind, index,
 * column and base.  A swizzle that parses must write back the same name
 * and be an involution (applied twice, every address comes back).  A tile
 * that builds must pass bs_access_check and use only the kind's address
 * lanes; one that does not must name its option.  The warning must fit
 * any buffer.  Tiles of up to 64 rows are then fixed under an arch of
 * 16-byte rows in phases of 8: a change said to reach the ideal must have
 * no bank conflict when predicted again.  Crashes, sanitizer reports and
 * broken invariants (abort) are findings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char profile_text[] =
	"profile fuzz\n"
	"banks 32\n"
	"bank_bytes 4\n"
	"source f chosen for fuzzing, not measured\n"
	"rule ld 1 phase=32 source=f\n"
	"rule ld 2 phase=32 source=f\n"
	"rule ld 4 phase=32 source=f\n"
	"rule ld 8 phase=16 source=f\n"
	"rule ld 16 phase=8 source=f\n"
	"rule ldsm.x1 16 phase=8 source=f\n"
	"rule ldsm.x2 16 phase=8 source=f\n"
	"rule ldsm.x4 16 phase=8 source=f\n"
	"rule stsm.x4 16 phase=8 source=f\n"
	"rule cp.async.ca 4 phase=32 source=f\n"
	"rule cp.async.ca 16 phase=8 source=f\n"
	"rule cp.async.cg 16 phase=8 source=f\n";

static void check_swizzle(bs_swizzle sw, bs_cute c)
{
	static const uint32_t xs[] = { 0, 0x80, 0x3a0, 0x2c5, 0x12345,
				       0x3ffff, 0xfffffff0u };
	bs_swizzle again;
	bs_cute c2, bytes;
	char name[32];

	bs_swizzle_name(sw, c, name, sizeof name);
	if (bs_swizzle_parse(name, "fuzz", &again, &c2, NULL) < 0 ||
	    again != sw || (sw == BS_SWIZZLE_CUTE && memcmp(&c, &c2, sizeof c)))
		abort();
	if (!bs_swizzle_bytes(sw, c, &bytes))
		return;
	for (size_t i = 0; i < sizeof xs / sizeof *xs; i++)
		if (bs_cute_apply(bytes, bs_cute_apply(bytes, xs[i])) != xs[i])
			abort();
}

static unsigned pick(const uint8_t **p, const uint8_t *end, unsigned mod)
{
	unsigned v = *p < end ? **p : 0;

	if (*p < end)
		(*p)++;
	return v % mod;
}

static void check_fix(const bs_arch *prof, const bs_tile_spec *t)
{
	static bs_fix f;
	bs_fix_input in = { .source = BS_FIX_FROM_TILE, .tile = *t,
			    .max_pad = -1 };
	bs_summary s;

	if (t->rows > 64 || t->cols > 256 ||
	    bs_fix_search(prof, &in, &f, NULL) < 0)
		return;
	if (f.reaches_ideal && !f.already_ideal &&
	    (bs_predict(prof, &f.best.access, &s, NULL) < 0 ||
	     s.bank_conflicts != 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned widths[] = { 1, 2, 4, 8, 16 };
	static bs_arch prof;
	static int loaded;
	const uint8_t *nl = memchr(data, '\n', size), *p, *end = data + size;
	char text[128], *mode, warn[700];
	bs_tile_spec t;
	bs_swizzle sw;
	bs_cute c;
	bs_access a;
	bs_error err;
	size_t n = nl ? (size_t)(nl - data) : size;

	if (!loaded) {
		if (bs_arch_parse(profile_text, "fuzz", &prof, NULL) < 0)
			abort();
		loaded = 1;
	}
	if (n >= sizeof text)
		n = sizeof text - 1;
	memcpy(text, data, n);
	text[n] = '\0';
	if (memchr(text, '\0', n))
		return 0;
	mode = strchr(text, ' ');
	if (mode)
		*mode++ = '\0';

	memset(&t, 0, sizeof t);
	if (bs_swizzle_parse(text, "--swizzle", &sw, &c, &err) < 0) {
		if (strcmp(err.source, "--swizzle") || !*err.text)
			abort();
		return 0;
	}
	check_swizzle(sw, c);
	t.swizzle = sw;
	t.cute = c;
	t.dir = BS_BY_COL;
	if (mode && bs_tile_dir_find(mode, &t.dir) < 0)
		return 0;
	if (mode && strcmp(bs_tile_dir_name(t.dir), mode))
		abort();

	p = nl ? nl + 1 : end;
	t.rows = 1 + pick(&p, end, 128);
	t.cols = 1 + pick(&p, end, 256);
	t.pad = pick(&p, end, 72);
	t.elem = pick(&p, end, 6);
	t.elem = t.elem ? widths[t.elem - 1] : 0;
	t.width = widths[pick(&p, end, 5)];
	t.kind = (bs_kind)pick(&p, end, bs_kind_count());
	t.index = pick(&p, end, 80);
	t.column = pick(&p, end, 4) ? 0 : pick(&p, end, 128);
	t.base = (uint64_t)pick(&p, end, 256) * 16;

	if (bs_tile_access(&t, &a, &err) < 0) {
		if (strncmp(err.source, "--", 2) || !*err.text)
			abort();
		return 0;
	}
	if (bs_access_check(&a, &err) < 0 ||
	    a.active & ~bs_kind_get(t.kind)->addr_lanes)
		abort();
	for (size_t sz = 1; sz <= sizeof warn; sz += 97) {
		size_t w = bs_tile_warning(&t, warn, sz);

		if (w >= sz || strlen(warn) != w)
			abort();
	}
	check_fix(&prof, &t);
	return 0;
}
