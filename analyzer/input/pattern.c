/*
 * pattern.c - the pattern-file format, read one line at a time.
 *
 *   NAME WIDTH KIND A0 A1 ... A31     # comment
 *
 * NAME is any token (at most 63 bytes); WIDTH 1, 2, 4, 8 or 16; KIND a
 * name from the kinds table (ld, st, ldsm.x4, ...; load and store too),
 * which must allow that width; then exactly 32 lane fields, each a byte
 * address in decimal or 0x hex, or '-' for an inactive lane.  Lanes that
 * do not supply an address for the kind (lanes 8-31 of ldsm.x1) must be
 * '-'.  Tokens are separated by
 * blanks or tabs; '#' starts a comment; blank lines are skipped; a line
 * holds at most 64 KiB besides its LF or CRLF end, and a NUL byte or a
 * longer line is an error as soon as it is read (lines.c).  A UTF-8
 * byte-order mark before line 1 is dropped, as in datasets.  Every error
 * names the line and the column of the offending token.
 *
 * The last line may lack its newline, unlike a dataset's (dataset.c):
 * pattern files are written by hand, and editors and `printf` often leave
 * it off, while a dataset is written by a program and a missing newline
 * there means the file was cut.  A pattern line cut short still fails
 * when the cut leaves fewer than 32 lane fields or a broken token; only a
 * cut inside the last address that leaves a valid, aligned number goes
 * unseen.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "bs_input.h"

struct bs_reader {
	char *name;
	bs_lines lines;
};

static int parse_line(const char *line, size_t size, size_t pad,
		      const char *source, long lineno, bs_access *out,
		      bs_error *err);

bs_reader *bs_reader_new(FILE *f, const char *name)
{
	bs_reader *r = calloc(1, sizeof *r);

	if (!r)
		return NULL;
	r->name = strdup(name ? name : "<stdin>");
	if (!r->name || bs_lines_open(&r->lines, f, r->name) < 0) {
		bs_reader_free(r);
		return NULL;
	}
	return r;
}

void bs_reader_free(bs_reader *r)
{
	if (!r)
		return;
	free(r->name);
	bs_lines_close(&r->lines);
	free(r);
}

long bs_reader_line(const bs_reader *r)
{
	return r->lines.line;
}

int bs_reader_next(bs_reader *r, bs_access *out, bs_error *err)
{
	for (;;) {
		const char *text;
		size_t len;
		int rc = bs_lines_next(&r->lines, &text, &len, err);

		if (rc <= 0)
			return rc;
		rc = parse_line(text, len, BS_LINES_PAD, r->name,
				r->lines.line, out, err);
		if (rc != 0)
			return rc;
	}
}

/* The next blank-separated token of *p, or NULL at the end or a comment. */
static const char *next_token(const char **p, size_t *len)
{
	const char *s = *p;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '#') {
		*p = s;
		return NULL;
	}
	*p = s;
	while (**p && **p != ' ' && **p != '\t' && **p != '#')
		(*p)++;
	*len = (size_t)(*p - s);
	return s;
}

/* The token as a string, cut to size - 1 bytes (errors quote no more). */
static void copy_token(char *word, size_t size, const char *tok, size_t len)
{
	if (len > size - 1)
		len = size - 1;
	memcpy(word, tok, len);
	word[len] = '\0';
}

/*
 * A lane field too long to copy: its leading zeros dropped, what is left
 * parsed (an address of 40 zeros is 0); -1 when junk, -2 when a number
 * over 32 bits.
 */
static int long_field(const char *tok, size_t len, uint64_t *v)
{
	int hex = tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X');
	size_t i = hex ? 2 : 0, z;
	char digits[24];

	for (; i < len; i++)
		if (!(hex ? isxdigit((unsigned char)tok[i])
			  : isdigit((unsigned char)tok[i])))
			return -1;
	for (z = hex ? 2 : 0; z + 1 < len && tok[z] == '0'; z++)
		;
	if (len - z > 16)
		return -2;
	snprintf(digits, sizeof digits, "%s%.*s", hex ? "0x" : "",
		 (int)(len - z), tok + z);
	return bs_parse_u64(digits, UINT32_MAX, v);
}

/* A byte that ends a token: a blank, a tab, '#' or the line's end. */
static int is_end(unsigned char c)
{
	return c <= '#' && (((uint64_t)1 << ' ' | 1u << '\t' | 1u << '\0' |
			     (uint64_t)1 << '#') >> c & 1);
}

/*
 * The common lane field at once, from the 8 bytes at p (all readable): a
 * decimal address of 1 to 7 digits (SWAR: the digits found by a carry
 * test on every byte, then combined by three multiplies), or '-'.  Its
 * length, with *v its value or UINT64_MAX for '-'; 0 for anything else
 * (hex, longer numbers, junk), which the general code then reads.
 */
static size_t short_field(const char *p, uint64_t *v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t x, t, m;
	size_t n;

	memcpy(&x, p, 8);
	t = x ^ 0x3030303030303030u;          /* a digit byte: 0..9 */
	m = ((t + 0x7676767676767676u) | t) & 0x8080808080808080u;
	if (!m)
		return 0;
	n = (size_t)__builtin_ctzll(m) >> 3;
	if (n == 0) {
		if ((x & 0xff) != '-' || !is_end((unsigned char)(x >> 8)))
			return 0;
		*v = UINT64_MAX;
		return 1;
	}
	if (!is_end((unsigned char)(x >> 8 * n)))
		return 0;
	t <<= 8 * (8 - n);                    /* leading zero digits */
	t = t * 10 + (t >> 8);
	t = ((t & 0x000000ff000000ffu) * 0x000f424000000064u +
	     ((t >> 16) & 0x000000ff000000ffu) * 0x0000271000000001u) >> 32;
	*v = t;
	return n;
#else
	(void)p;
	(void)v;
	return 0;
#endif
}

#if defined(__SSE2__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FIELDS_MAX 256

/*
 * All 32 lane fields of a line at once, where 16 bytes can be read past
 * its NUL (the reader's padding): the len bytes at p as masks of blanks,
 * dashes and other bytes (SSE2), every field's start and end from those,
 * then each field read 8 bytes at a time, no load waiting on the one
 * before (the loop above finds a field's start only once it has read the
 * field before).  1 when the fields were exactly 32 '-' and decimal
 * addresses of 1 to 7 digits that the general code takes as they are
 * (a->addr and a->active set); 0 for anything else, which the general
 * code then reads from the first field.
 */
static int all_fields(const char *p, size_t len, unsigned width,
		      uint32_t lane_ok, bs_access *a)
{
	uint64_t blank[FIELDS_MAX / 64] = { 0 }, dash[FIELDS_MAX / 64] = { 0 };
	uint64_t other = 0, carry = 0;
	unsigned st[BS_LANES], en[BS_LANES], ns = 0, ne = 0;
	uint32_t active = 0;

	if (len >= FIELDS_MAX)
		return 0;
	for (size_t i = 0; i < len; i += 16) {
		__m128i c = _mm_loadu_si128((const __m128i *)(p + i));
		__m128i d = _mm_sub_epi8(c, _mm_set1_epi8('0'));
		__m128i dg = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)),
					    d);
		__m128i bl = _mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8(' ')),
					  _mm_cmpeq_epi8(c, _mm_set1_epi8('\t')));
		__m128i ds = _mm_cmpeq_epi8(c, _mm_set1_epi8('-'));
		uint64_t b = (unsigned)_mm_movemask_epi8(bl);
		uint64_t s = (unsigned)_mm_movemask_epi8(ds);
		uint64_t g = (unsigned)_mm_movemask_epi8(dg);
		uint64_t keep = len - i >= 16 ? 0xffff
				: ((uint64_t)1 << (len - i)) - 1;

		/* the NUL and what follows it: blanks */
		other |= ~(b | s | g) & keep;
		blank[i / 64] |= (b | (~keep & 0xffff)) << (i % 64);
		dash[i / 64] |= (s & keep) << (i % 64);
	}
	if (other)
		return 0;
	for (size_t i = (len + 15) / 16 * 16; i < FIELDS_MAX; i += 16)
		blank[i / 64] |= (uint64_t)0xffff << (i % 64);
	for (unsigned w = 0; w < FIELDS_MAX / 64; w++) {
		uint64_t nb = ~blank[w], prev = nb << 1 | carry;
		uint64_t s = nb & ~prev, e = ~nb & prev;

		carry = nb >> 63;
		for (; s; s &= s - 1) {
			if (ns == BS_LANES)
				return 0;
			st[ns++] = w * 64 + (unsigned)__builtin_ctzll(s);
		}
		for (; e && ne < BS_LANES; e &= e - 1)
			en[ne++] = w * 64 + (unsigned)__builtin_ctzll(e);
	}
	if (ns != BS_LANES || ne != BS_LANES)
		return 0;
	for (unsigned l = 0; l < BS_LANES; l++) {
		unsigned s = st[l], n = en[l] - s;
		uint64_t x, t, m;

		if (dash[s / 64] >> (s % 64) & 1) {
			if (n != 1)
				return 0;
			continue;
		}
		if (n > 7 || !(lane_ok >> l & 1))
			return 0;
		memcpy(&x, p + s, 8);
		t = x ^ 0x3030303030303030u;
		m = ((t + 0x7676767676767676u) | t) & 0x8080808080808080u;
		if (m & (((uint64_t)1 << 8 * n) - 1))
			return 0;               /* a '-' amid digits */
		t <<= 8 * (8 - n);
		t = t * 10 + (t >> 8);
		t = ((t & 0x000000ff000000ffu) * 0x000f424000000064u +
		     ((t >> 16) & 0x000000ff000000ffu) *
		     0x0000271000000001u) >> 32;
		if (t & (width - 1))
			return 0;
		a->addr[l] = (uint32_t)t;
		active |= 1u << l;
	}
	a->active = active;
	return 1;
}
#else
static int all_fields(const char *p, size_t len, unsigned width,
		      uint32_t lane_ok, bs_access *a)
{
	(void)p;
	(void)len;
	(void)width;
	(void)lane_ok;
	(void)a;
	return 0;
}
#endif

int bs_parse_line(const char *line, const char *source, long lineno,
		  bs_access *out, bs_error *err)
{
	return parse_line(line, strlen(line), 0, source, lineno, out, err);
}

/*
 * bs_parse_line of the size bytes at line; line[size] is its NUL, and
 * pad more bytes after it can be read.
 */
static int parse_line(const char *line, size_t size, size_t pad,
		      const char *source, long lineno, bs_access *out,
		      bs_error *err)
{
	const char *p = line, *tok, *width_tok;
	const char *stop = line + size + 1 + pad;   /* what can be read */
	char word[32];
	uint32_t lane_ok;
	size_t len;
	uint64_t v;
	unsigned lanes = 0;
	bs_access a;
	int rc;

#define COL(t) ((long)((t) - line) + 1)
#define FAIL(t, ...) return bs_error_set(err, source, lineno, COL(t), __VA_ARGS__)

	memset(&a, 0, sizeof a);
	tok = next_token(&p, &len);
	if (!tok)
		return 0;
	if (len >= BS_NAME_MAX)
		FAIL(tok, "access name longer than %d bytes", BS_NAME_MAX - 1);
	memcpy(a.name, tok, len);

	tok = next_token(&p, &len);
	if (!tok)
		FAIL(p, "expected WIDTH KIND and 32 lane addresses after the "
		     "name");
	copy_token(word, sizeof word, tok, len);
	if (len == 1 && tok[0] >= '1' && tok[0] <= '8')
		v = (uint64_t)(tok[0] - '0');
	else if (len > 3 || bs_parse_u64(word, 16, &v) < 0)
		v = 3;
	if (bs_width_index((unsigned)v) < 0)
		FAIL(tok, "unknown width '%s': expected 1, 2, 4, 8 or 16 bytes",
		     word);
	a.width = (unsigned)v;
	width_tok = tok;

	tok = next_token(&p, &len);
	if (!tok)
		FAIL(p, "expected KIND (ld, st, ...) after the width");
	copy_token(word, sizeof word, tok, len);
	if (len >= sizeof word || bs_kind_find(word, &a.kind) < 0)
		FAIL(tok, "unknown kind '%s': expected ld, st or another kind "
		     "of 'bankscope archs --kinds'", word);
	if (!bs_kind_allows_width(a.kind, a.width)) {
		char allowed[32];

		bs_kind_widths_text(a.kind, allowed, sizeof allowed);
		FAIL(width_tok, "%s takes a width of %s bytes, not %u", word,
		     allowed, a.width);
	}
	lane_ok = bs_kind_get(a.kind)->addr_lanes;

	/*
	 * The common fields first, while 8 bytes can be read: '-' and
	 * short decimal addresses the general loop below would take as they
	 * are.  Anything else, and the last few fields, go to that loop,
	 * which says what is wrong.
	 */
	while (*p == ' ' || *p == '\t')
		p++;
	if (pad >= 16 && all_fields(p, (size_t)(line + size - p), a.width,
				    lane_ok, &a)) {
		lanes = BS_LANES;
		p = line + size;
	}
	while (lanes < BS_LANES && stop - p >= 8) {
		size_t n = short_field(p, &v);

		if (!n)
			break;
		if (v != UINT64_MAX) {
			if (!(lane_ok >> lanes & 1) || (v & (a.width - 1)))
				break;
			a.addr[lanes] = (uint32_t)v;
			a.active |= 1u << lanes;
		}
		lanes++;
		p += n;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	while ((tok = next_token(&p, &len))) {
		if (lanes == BS_LANES)
			FAIL(tok, "more than 32 lane fields");
		copy_token(word, sizeof word, tok, len);
		if (len == 1 && tok[0] == '-') {
			lanes++;
			continue;
		}
		if (!(lane_ok >> lanes & 1))
			FAIL(tok, "lane %u: %s takes addresses from lanes 0-%d "
			     "only ('-' for the others)", lanes,
			     bs_kind_name(a.kind), 31 - __builtin_clz(lane_ok));
		rc = len < sizeof word ? bs_parse_u64(word, UINT32_MAX, &v)
				       : long_field(tok, len, &v);
		if (rc == -1)
			FAIL(tok, "lane %u: '%s' is not an address "
			     "(decimal, 0x hex, or - for inactive)", lanes, word);
		if (rc == -2)
			FAIL(tok, "lane %u: address '%s' overflows 32 bits",
			     lanes, word);
		if (v % a.width)
			FAIL(tok, "lane %u: address %s is not aligned to the "
			     "%u-byte width", lanes, word, a.width);
		if (v + a.width - 1 > UINT32_MAX)
			FAIL(tok, "lane %u: access at %s runs past the 32-bit "
			     "shared window", lanes, word);
		a.addr[lanes] = (uint32_t)v;
		a.active |= 1u << lanes;
		lanes++;
	}
	if (lanes != BS_LANES)
		FAIL(p, "%u lane fields, expected 32", lanes);
#undef FAIL
#undef COL
	*out = a;
	return 1;
}

int bs_format_pattern(const bs_access *a, char *buf, size_t size)
{
	size_t n;
	int k = snprintf(buf, size, "%s %u %s", a->name, a->width,
			 bs_kind_name(a->kind));

	if (k < 0 || (size_t)k >= size)
		return -1;
	n = (size_t)k;
	for (unsigned l = 0; l < BS_LANES; l++) {
		if (a->active >> l & 1)
			k = snprintf(buf + n, size - n, " %u",
				     (unsigned)a->addr[l]);
		else
			k = snprintf(buf + n, size - n, " -");
		if (k < 0 || (size_t)k >= size - n)
			return -1;
		n += (size_t)k;
	}
	if (n + 2 > size)
		return -1;
	buf[n++] = '\n';
	buf[n] = '\0';
	return (int)n;
}
