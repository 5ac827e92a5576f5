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
static int fast_line(const char *p, size_t len, bs_access *out);

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
		rc = bs_parse_lines_text(text, len, r->name, r->lines.line,
					 out, err);
		if (rc != 0)
			return rc;
	}
}

int bs_parse_lines_text(const char *text, size_t len, const char *source,
			long lineno, bs_access *out, bs_error *err)
{
	if (fast_line(text, len, out))
		return 1;
	return parse_line(text, len, BS_LINES_PAD, source, lineno, out, err);
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
/*
 * The common line at once: fewer than FAST_BYTES bytes, a name of at most
 * 63 bytes and no '#', WIDTH one of 1 2 4 8 16 as written here, a known
 * KIND that takes it, then exactly 32 lane fields, each '-' or a decimal
 * address of 1 to 7 digits, aligned, in a lane the kind takes addresses
 * from, and nothing else.  Any other line (hex, a comment, an error, a
 * width with a leading zero) goes to the general code from its start, so
 * every message is the general code's.
 *
 * The line becomes bit masks, 64 bytes a word (SSE2, 16 bytes at a time):
 * blanks, and bytes that are neither blanks nor digits.  A token starts
 * at a non-blank after a blank, so every field is found without reading
 * the one before it.  In the lane fields, each non-digit must be a token
 * of its own (a start, a blank after it), and is then checked to be '-'
 * with the others at the end.  Each field is 8 bytes read from its start:
 * its digits end at the first byte without bit 4 (a digit has it; a
 * blank, a tab, '-' and the NUL do not), and are shifted to the top
 * ('-' gives 0); then the values of two fields at a time are summed by
 * three multiplies (SSE2: pairs of digits, fours, eights).  No branch
 * depends on the addresses.
 */
#define FAST_WORDS 4
#define FAST_BYTES (64 * FAST_WORDS)

typedef struct {
	uint64_t blank[FAST_WORDS];  /* ' ', '\t'; every byte from the NUL on */
	uint64_t other[FAST_WORDS];  /* neither a blank nor a digit */
	uint64_t start[FAST_WORDS];  /* a token's first byte */
} line_bits;

/* The masks of the len bytes at p (64 more readable); the word count. */
static unsigned classify(const char *p, size_t len, line_bits *b)
{
	const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
	/* c + 0x50 is below -0x76 (signed) for '0'..'9' only */
	const __m128i up = _mm_set1_epi8(0x50), top = _mm_set1_epi8(-0x76);
	unsigned nw = (unsigned)(len / 64) + 1, w;
	uint64_t end = ~(uint64_t)0 << (len % 64), before = 1;

	for (w = 0; w < nw; w++) {
		uint64_t bl = 0, known = 0;

#pragma GCC unroll 4
		for (unsigned k = 0; k < 4; k++) {
			__m128i c = _mm_loadu_si128((const __m128i *)
						    (p + 64 * w + 16 * k));
			__m128i isb = _mm_or_si128(_mm_cmpeq_epi8(c, sp),
						   _mm_cmpeq_epi8(c, tab));
			__m128i isg = _mm_cmpgt_epi8(top, _mm_add_epi8(c, up));

			bl |= (uint64_t)(unsigned)_mm_movemask_epi8(isb)
			      << 16 * k;
			known |= (uint64_t)(unsigned)_mm_movemask_epi8(
					_mm_or_si128(isb, isg)) << 16 * k;
		}
		if (w == nw - 1) {      /* the NUL and what follows it */
			bl |= end;
			known |= end;
		}
		b->blank[w] = bl;
		b->other[w] = ~known;
		b->start[w] = ~bl & (bl << 1 | before);
		before = bl >> 63;
	}
	return nw;
}

/*
 * The name, width and kind tokens: the first three of word 0, each ended
 * within it, from tok[i] to end[i], and taken off b->start.  0 when one
 * is missing, longer, or not as fast_line takes it; else 1, with a's
 * width and kind set and *lane_ok the kind's address lanes.
 */
static int head_tokens(const char *p, line_bits *b, bs_access *a,
		       unsigned tok[3], unsigned end[3], uint32_t *lane_ok)
{
	uint64_t s = b->start[0];
	const bs_kind_info *ki;
	const char *k;
	size_t klen;

	for (unsigned i = 0; i < 3; i++) {
		uint64_t e;

		if (!s)
			return 0;
		tok[i] = (unsigned)__builtin_ctzll(s);
		s &= s - 1;
		e = b->blank[0] & (~(uint64_t)0 << tok[i]);
		if (!e)
			return 0;
		end[i] = (unsigned)__builtin_ctzll(e);
	}
	b->start[0] = s;

	if (end[1] - tok[1] == 1 && p[tok[1]] >= '1' && p[tok[1]] <= '8')
		a->width = (unsigned)(p[tok[1]] - '0');
	else if (end[1] - tok[1] == 2 && p[tok[1]] == '1' &&
		 p[tok[1] + 1] == '6')
		a->width = 16;
	else
		return 0;
	if (a->width & (a->width - 1))
		return 0;

	/* ld and st are rows 0 and 1 of the kinds table (bs_model.h) */
	k = p + tok[2];
	klen = end[2] - tok[2];
	if (klen == 2 && k[0] == 'l' && k[1] == 'd') {
		a->kind = BS_KIND_LD;
	} else if (klen == 2 && k[0] == 's' && k[1] == 't') {
		a->kind = BS_KIND_ST;
	} else {
		char word[32];

		if (klen >= sizeof word)
			return 0;
		memcpy(word, k, klen);
		word[klen] = '\0';
		if (bs_kind_find(word, &a->kind) < 0)
			return 0;
	}
	ki = bs_kind_get(a->kind);
	if (!ki || !(ki->widths >> __builtin_ctz(a->width) & 1))
		return 0;
	*lane_ok = ki->addr_lanes;
	return 1;
}

/* 0 when, from byte from on, a non-digit is not a token of its own. */
static int lone_others(const line_bits *b, unsigned nw, unsigned from)
{
	uint64_t bad = 0, after = 0;

	for (unsigned w = 0; w < nw; w++) {
		uint64_t o = b->other[w] & (w ? ~(uint64_t)0
					      : ~(uint64_t)0 << from);

		bad |= o & ~b->start[w];
		bad |= (o << 1 | after) & ~b->blank[w];
		after = o >> 63;
	}
	return !bad;
}

/*
 * The 1 to 7 digits that x starts with (ended by a byte without bit 4),
 * shifted up to its top bytes (n digits by 8 (8 - n) bytes), the bytes
 * below them 0; 0 when its first byte is not a digit.  *longer gets its
 * top bit set when all 8 bytes are digits.
 */
static inline __attribute__((always_inline))
uint64_t field_digits(uint64_t x, uint64_t *longer)
{
	uint64_t m = ~x & 0x1010101010101010u;   /* the digits' ends */

	*longer |= m - 1;
	return x << ((unsigned)__builtin_ctzll(m | (uint64_t)1 << 60) ^ 60)
		 << 8;
}

/*
 * The values of two fields' digits (field_digits, in ASCII) in the low
 * 32 bits of each 64: pairs of digits, then fours, then eights, each the
 * one before times 10, 100 or 10000 plus the one after (SSE2).
 */
static inline __attribute__((always_inline)) __m128i two_values(__m128i v)
{
	v = _mm_and_si128(v, _mm_set1_epi8(0x0f));
	v = _mm_add_epi16(_mm_mullo_epi16(_mm_and_si128(v, _mm_set1_epi16(
		0xff)), _mm_set1_epi16(10)), _mm_srli_epi16(v, 8));
	v = _mm_madd_epi16(v, _mm_set1_epi32(1 << 16 | 100));
	return _mm_add_epi64(_mm_mul_epu32(v, _mm_set1_epi32(10000)),
			     _mm_srli_epi64(v, 32));
}

/* The values of the 32 fields' digits into addr; the OR of them. */
static uint32_t field_values(const uint64_t *digits, uint32_t *addr)
{
	__m128i any = _mm_setzero_si128();

	for (unsigned i = 0; i < BS_LANES; i += 4) {
		__m128i a = two_values(_mm_load_si128(
				(const __m128i *)&digits[i]));
		__m128i b = two_values(_mm_load_si128(
				(const __m128i *)&digits[i + 2]));
		__m128i v = _mm_castps_si128(_mm_shuffle_ps(
				_mm_castsi128_ps(a), _mm_castsi128_ps(b),
				_MM_SHUFFLE(2, 0, 2, 0)));

		_mm_store_si128((__m128i *)&addr[i], v);
		any = _mm_or_si128(any, v);
	}
	any = _mm_or_si128(any, _mm_shuffle_epi32(any, 0x4e));
	any = _mm_or_si128(any, _mm_shuffle_epi32(any, 0xb1));
	return (uint32_t)_mm_cvtsi128_si32(any);
}

/* The bits of the bytes at f[0..31] that are digits (and of the others,
 * in *dash, whether all of them are '-'). */
static uint32_t digit_bytes(const uint8_t *f, int *dash)
{
	uint32_t dig = 0, minus = 0;

	for (unsigned h = 0; h < 2; h++) {
		__m128i c = _mm_load_si128((const __m128i *)(f + 16 * h));
		__m128i d = _mm_sub_epi8(c, _mm_set1_epi8('0'));

		dig |= (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_min_epu8(d, _mm_set1_epi8(9)), d)) << 16 * h;
		minus |= (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
			c, _mm_set1_epi8('-'))) << 16 * h;
	}
	*dash = (dig | minus) == UINT32_MAX;
	return dig;
}

/*
 * The name's n bytes at p into name, zero after them; 0 when it holds a
 * '#' (a comment: the general code's).  64 bytes at p can be read.
 */
static int copy_name(const char *p, unsigned n, __m128i name[4])
{
	const __m128i idx = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					  11, 12, 13, 14, 15);
	int hash = 0;

	for (unsigned i = 0; i < BS_NAME_MAX / 16; i++) {
		__m128i c = _mm_loadu_si128((const __m128i *)(p + 16 * i));
		__m128i in = _mm_cmplt_epi8(idx, _mm_set1_epi8(
			(char)((int)n - 16 * (int)i)));

		hash |= _mm_movemask_epi8(_mm_and_si128(in, _mm_cmpeq_epi8(
			c, _mm_set1_epi8('#'))));
		name[i] = _mm_and_si128(c, in);
	}
	return !hash;
}

/*
 * 1 when the len bytes at p (BS_LINES_PAD more readable) are a line
 * fast_line takes, with *out set; 0 with *out untouched otherwise.
 */
static int fast_line(const char *p, size_t len, bs_access *out)
{
	_Alignas(16) uint64_t digits[2 * BS_LANES];
	_Alignas(16) uint32_t addr[BS_LANES];
	_Alignas(16) uint8_t first[2 * BS_LANES];
	__m128i name[BS_NAME_MAX / 16];
	uint64_t longer = 0;
	unsigned tok[3], end[3], nw, l = 0;
	uint32_t lane_ok, active;
	int dash;
	bs_access a;
	line_bits b;

	if (len >= FAST_BYTES)
		return 0;
	nw = classify(p, len, &b);
	if (!head_tokens(p, &b, &a, tok, end, &lane_ok) ||
	    !lone_others(&b, nw, end[2]))
		return 0;
	for (unsigned w = 0; w < nw; w++) {
		const char *word = p + 64 * w;

		if (l > BS_LANES)       /* a word holds at most 32 starts */
			return 0;
		for (uint64_t s = b.start[w]; s; s &= s - 1, l++) {
			uint64_t x;

			memcpy(&x, word + (size_t)__builtin_ctzll(s), 8);
			first[l] = (uint8_t)x;
			digits[l] = field_digits(x, &longer);
		}
	}
	if (l != BS_LANES || longer >> 63)
		return 0;
	active = digit_bytes(first, &dash);
	if (!dash || (active & ~lane_ok) ||
	    (field_values(digits, addr) & (a.width - 1)) ||
	    !copy_name(p + tok[0], end[0] - tok[0], name))
		return 0;
	memcpy(out->name, name, sizeof name);
	out->width = a.width;
	out->kind = a.kind;
	out->active = active;
	memcpy(out->addr, addr, sizeof out->addr);
	out->src = NULL;
	return 1;
}
#else
static int fast_line(const char *p, size_t len, bs_access *out)
{
	(void)p;
	(void)len;
	(void)out;
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
	 * Short decimal fields and '-' first, while 8 bytes can be read:
	 * those the loop below would take as they are.  Anything else, and
	 * the last few fields, go to that loop, which says what is wrong.
	 */
	while (*p == ' ' || *p == '\t')
		p++;
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
