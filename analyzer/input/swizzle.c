/*
 * swizzle.c - the swizzles a tile's layout can carry: their names, the
 * parser of --swizzle values, and the byte-address swizzle itself.
 *
 * CuTe defines Swizzle<BBits, MBase, SShift> (include/cute/swizzle.hpp in
 * NVIDIA/cutlass) as offset ^ shiftr(offset & yyy_msk, SShift), with
 * yyy_msk = ((1 << B) - 1) << (M + max(0, S)): for S >= 0, the B bits
 * from M+S are XORed into the B bits from M; a negative S shifts the
 * other way, from the bits at M into the bits at M-S.  Its own static
 * assertions ask for M >= 0, B >= 0 and abs(S) >= B.  TMA's swizzle
 * modes are the M = 4, S = 3 members (CUTLASS's get_tma_swizzle_bits in
 * include/cute/atom/copy_traits_sm90_tma_swizzle.hpp maps B = 1, 2, 3 to
 * SWIZZLE_32B, 64B, 128B): 16-byte units permuted within a 32-, 64- or
 * 128-byte span by the row bits above it.
 *
 * Here a swizzle acts on byte addresses, as TMA writes a tile and as
 * CuTe's swizzled shared-memory pointers address it.  Address bits at 18
 * and above are outside any shared memory a block has (256 KB), so a cute
 * swizzle that reaches them is refused: it would read bits that are
 * always zero, or write addresses past the window.
 */
#include <string.h>

#include "bs_input.h"

#define SMEM_BITS 18

static const struct {
	const char *name;
	bs_swizzle sw;
} names[] = {
	{ "none", BS_SWIZZLE_NONE }, { "xor", BS_SWIZZLE_XOR },
	{ "tma32", BS_SWIZZLE_TMA32 }, { "tma64", BS_SWIZZLE_TMA64 },
	{ "tma128", BS_SWIZZLE_TMA128 },
};

static int check_bms(long b, long m, long s, const char *source,
		     bs_error *err)
{
	long abs_s = s < 0 ? -s : s;

	if (b < 0 || m < 0)
		return bs_error_set(err, source, 0, 0, "cute:%ld,%ld,%ld: B "
				    "and M must be 0 or more", b, m, s);
	if (abs_s < b)
		return bs_error_set(err, source, 0, 0, "cute:%ld,%ld,%ld: |S| "
				    "= %ld is less than B = %ld, so the bits it "
				    "reads overlap the bits it writes (CuTe "
				    "requires abs(S) >= B)", b, m, s, abs_s, b);
	if (m + abs_s + b > SMEM_BITS)
		return bs_error_set(err, source, 0, 0, "cute:%ld,%ld,%ld "
				    "reaches address bit %ld: shared memory "
				    "ends below bit %d (256 KB), so M + |S| + B "
				    "must be at most %d", b, m, s,
				    m + abs_s + b - 1, SMEM_BITS, SMEM_BITS);
	return 0;
}

int bs_cute_check(bs_cute c, const char *source, bs_error *err)
{
	return check_bms(c.bits, c.base, c.shift, source, err);
}

int bs_swizzle_parse(const char *text, const char *source, bs_swizzle *sw,
		     bs_cute *cute, bs_error *err)
{
	static const char *const field[3] = { "B (bits)", "M (base)",
					      "S (shift)" };
	const char *p = text + 5;
	long v[3];

	memset(cute, 0, sizeof *cute);
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(text, names[i].name)) {
			*sw = names[i].sw;
			return 0;
		}
	if (strncmp(text, "cute:", 5))
		return bs_error_set(err, source, 0, 0, "'%s' is not none, xor, "
				    "tma32, tma64, tma128 or cute:B,M,S", text);
	for (int i = 0; i < 3; i++) {
		const char *start = p;
		int neg = 0, digits = 0;
		long n = 0;

		if (i == 2 && *p == '-') {
			neg = 1;
			p++;
		}
		for (; *p >= '0' && *p <= '9'; p++, digits++)
			if (n < 1000)
				n = n * 10 + (*p - '0');
		if (!digits)
			return bs_error_set(err, source, 0, start - text + 1,
					    "expected %s, a number%s", field[i],
					    i == 2 ? " (may be negative)" : "");
		if (n > SMEM_BITS)
			return bs_error_set(err, source, 0, start - text + 1,
					    "%s is larger than %d: shared memory "
					    "addresses have %d bits", field[i],
					    SMEM_BITS, SMEM_BITS);
		v[i] = neg ? -n : n;
		if (i < 2 && *p != ',')
			return bs_error_set(err, source, 0, p - text + 1,
					    "expected ',' after %s: cute:B,M,S "
					    "takes three numbers", field[i]);
		if (i < 2)
			p++;
	}
	if (*p)
		return bs_error_set(err, source, 0, p - text + 1, "unexpected "
				    "text after S: cute:B,M,S takes three "
				    "numbers");
	if (check_bms(v[0], v[1], v[2], source, err) < 0)
		return -1;
	*sw = BS_SWIZZLE_CUTE;
	cute->bits = (int8_t)v[0];
	cute->base = (int8_t)v[1];
	cute->shift = (int8_t)v[2];
	return 0;
}

void bs_swizzle_name(bs_swizzle sw, bs_cute cute, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (names[i].sw == sw) {
			snprintf(buf, size, "%s", names[i].name);
			return;
		}
	if (sw == BS_SWIZZLE_CUTE)
		snprintf(buf, size, "cute:%d,%d,%d", cute.bits, cute.base,
			 cute.shift);
	else
		snprintf(buf, size, "?");
}

int bs_swizzle_bytes(bs_swizzle sw, bs_cute cute, bs_cute *out)
{
	switch (sw) {
	case BS_SWIZZLE_TMA32:
		*out = (bs_cute){ 1, 4, 3 };
		return 1;
	case BS_SWIZZLE_TMA64:
		*out = (bs_cute){ 2, 4, 3 };
		return 1;
	case BS_SWIZZLE_TMA128:
		*out = (bs_cute){ 3, 4, 3 };
		return 1;
	case BS_SWIZZLE_CUTE:
		*out = cute;
		return 1;
	default:
		return 0;
	}
}

uint32_t bs_cute_apply(bs_cute c, uint32_t x)
{
	uint32_t ones = (1u << c.bits) - 1;

	if (c.shift >= 0)
		return x ^ ((x & ones << (c.base + c.shift)) >> c.shift);
	return x ^ ((x & ones << c.base) << -c.shift);
}
