/*
 * arch.c - architectures: rule tables read from text (*.arch files).
 *
 * An arch file, one statement a line (docs/model.md, "Architecture
 * files"):
 *
 *   # a comment (a line whose first non-blank is '#')
 *   arch NAME                    letters, digits, '_', '-', '.'; the old
 *                                spelling 'profile NAME' is read too
 *   description TEXT             the rest of the line
 *   compute_capability CC...     the GPUs it is for: 9.0, 8.9, ...
 *   banks N                      a power of two, at most 64
 *   bank_bytes N                 1, 2, 4, 8 or 16
 *   source TAG TEXT              where rules come from
 *   rule KIND WIDTH KEY=VALUE... one (kind, width); '#' ends it early
 *
 * Rule keys: phase=LANES (required), packed=LANES and partners=M,M...
 * (together), same_word=share|serial, ideal=words|lanes, slot_waves=N
 * (wavefronts a bank slot costs, 1 to 4), loop=none|cas (an atomic
 * that runs as a retry loop of loads and compare-and-stores: it needs
 * the arch's ld rule of the same width), copy=none|lines|words (lines:
 * a 16-byte copy from global memory counted by 128-byte lines,
 * cp.async.cg; words: a copy whose lanes on one source word wait for one
 * another, cp.async.ca; bs_model.h), lat_base=, lat_packed=, lat_slope= (cycles), tp=BYTES
 * (per clock per SM) and source=TAG (required, a declared source).  A
 * remote kind (dsmem.*) takes remote=sectors|rmw|writes instead of phase= and
 * none of the bank keys (bs_model.h, bs_remote_cost).  Every error names the file,
 * the line and the column of the token; checks that need the whole file
 * (a missing banks line, an undeclared source) name the line that needs
 * it.
 *
 * The built-in architectures are the files in analyzer/archs/, compiled
 * in as text (the build's gen/archs.c) and parsed on first use.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bs_model.h"

/* From the build: the text of each analyzer/archs/ *.arch file. */
extern const char *const bs_builtin_arch_text[];
extern const char *const bs_builtin_arch_file[];

#define MAX_BUILTIN 16

/* ---- lookup ------------------------------------------------------------ */

void bs_arch_init(bs_arch *p)
{
	memset(p, 0, sizeof *p);
	memset(p->rule_of, 0xff, sizeof p->rule_of);
}

const bs_rule *bs_arch_rule(const bs_arch *p, bs_kind kind,
			       unsigned width)
{
	int wi = bs_width_index(width);
	int r;

	if (kind >= BS_MAX_KINDS || wi < 0)
		return NULL;
	r = p->rule_of[kind][wi];
	return r < 0 ? NULL : &p->rule[r];
}

int bs_arch_set_rule(bs_arch *p, const bs_rule *r, bs_error *err)
{
	int wi = bs_width_index(r->width);
	int16_t *slot;

	if (!bs_kind_allows_width(r->kind, r->width) || wi < 0)
		return bs_error_set(err, p->name, 0, 0, "a rule for an unknown "
				    "kind or a width it does not allow");
	slot = &p->rule_of[r->kind][wi];
	if (*slot < 0) {
		if (p->nrules == BS_MAX_RULES)
			return bs_error_set(err, p->name, 0, 0, "more than %d "
					    "rules", BS_MAX_RULES);
		*slot = (int16_t)p->nrules++;
	}
	p->rule[*slot] = *r;
	return 0;
}

const char *bs_same_word_name(unsigned v)
{
	return v == BS_SAME_WORD_SERIAL ? "serial" : "share";
}

const char *bs_ideal_name(unsigned v)
{
	return v == BS_IDEAL_LANES ? "lanes" : "words";
}

const char *bs_loop_name(unsigned v)
{
	return v == BS_LOOP_CAS ? "cas" : "none";
}

const char *bs_copy_name(unsigned v)
{
	return v == BS_COPY_LINES ? "lines" : v == BS_COPY_WORDS ? "words"
	       : "none";
}

const char *bs_remote_name(unsigned v)
{
	return v == BS_REMOTE_SECTORS ? "sectors"
	       : v == BS_REMOTE_RMW  ? "rmw"
	       : v == BS_REMOTE_WRITES ? "writes" : "none";
}

const char *bs_partners_text(uint32_t partners,
			     char buf[BS_PARTNERS_TEXT_MAX])
{
	size_t n = 0;

	for (unsigned m = 1; m < 32; m++)
		if (partners >> m & 1)
			n += (size_t)snprintf(buf + n, BS_PARTNERS_TEXT_MAX - n,
					      "%s%u", n ? "," : "", m);
	if (!n)
		snprintf(buf, BS_PARTNERS_TEXT_MAX, "-");
	return buf;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct {
	const char *name;
	long line;
	const char *text;        /* the line */
	bs_error *err;
	bs_arch *p;
	long line_of[6];         /* where each header statement was seen */
	/* per rule: the line and column of its source tag, resolved last */
	long rule_line[BS_MAX_RULES], rule_col[BS_MAX_RULES];
	char rule_tag[BS_MAX_RULES][16];
	/* the same for the gmma lines */
	long gmma_line[BS_MAX_GMMA_RULES], gmma_col[BS_MAX_GMMA_RULES];
	char gmma_tag[BS_MAX_GMMA_RULES][16];
} reader;

enum { SEEN_NAME, SEEN_DESCRIPTION, SEEN_CC, SEEN_BANKS, SEEN_BANK_BYTES,
       SEEN_ANY_RULE };

#define FAIL(at, ...) bs_error_set(rd->err, rd->name, rd->line, \
				   (long)((at) - rd->text) + 1, __VA_ARGS__)

/* A whole decimal number from min to max (no hex: bs_parse_decimal's
 * grammar, datasets' too). */
static int parse_uint(reader *rd, const char *at, size_t n, unsigned min,
		      unsigned max, unsigned *out, const char *what)
{
	char word[24];
	uint64_t v;

	bs_copy_token(word, sizeof word, at, n);
	if (n >= sizeof word || !n || strspn(word, "0123456789") != n ||
	    bs_parse_u64(word, max, &v) < 0 || v < min)
		return FAIL(at, "%s: '%s' is not a whole number from %u to %u",
			    what, word, min, max);
	*out = (unsigned)v;
	return 0;
}

static int is_pow2(unsigned x)
{
	return x && !(x & (x - 1));
}

/* Cycles and throughput: a decimal (bs_parse_decimal) from 0 to
 * CYCLES_MAX; a sign, "-0" too, is refused. */
#define CYCLES_MAX 1e9
#define STR_(x) #x
#define STR(x) STR_(x)

static int parse_cycles(reader *rd, const char *at, size_t n, double *out,
			const char *what)
{
	double v;

	if (bs_parse_decimal(at, n, &v) < 0 || signbit(v) || v > CYCLES_MAX)
		return FAIL(at, "%s: '%.*s' is not a number from 0 to "
			    STR(CYCLES_MAX), what, n > 40 ? 40 : (int)n, at);
	*out = v;
	return 0;
}

/* The rest of the line after a keyword, trailing blanks cut. */
static int rest_of_line(reader *rd, const char *at, char *dst, size_t size,
			const char *what)
{
	size_t n = strlen(at);

	while (n && (at[n - 1] == ' ' || at[n - 1] == '\t'))
		n--;
	if (!n)
		return FAIL(at, "%s needs a value", what);
	if (n >= size)
		return FAIL(at, "%s is longer than %zu bytes", what, size - 1);
	memcpy(dst, at, n);
	dst[n] = '\0';
	return 0;
}

/* arch NAME (or the old 'profile NAME': word is the one written). */
static int parse_name(reader *rd, const char *word, const char *at)
{
	size_t n = bs_token_len(at);

	if (!n)
		return FAIL(at, "%s needs a name", word);
	if (n >= BS_ARCH_NAME_MAX)
		return FAIL(at, "%s name longer than %d bytes", word,
			    BS_ARCH_NAME_MAX - 1);
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)at[i]) && !strchr("_-.", at[i]))
			return FAIL(at + i, "an architecture name takes "
				    "letters, digits, '_', '-' and '.'");
	if (*bs_skip_blanks(at + n) && *bs_skip_blanks(at + n) != '#')
		return FAIL(bs_skip_blanks(at + n), "one name after '%s'",
			    word);
	bs_copy_token(rd->p->name, sizeof rd->p->name, at, n);
	return 0;
}

/* compute_capability 9.0 [8.9 ...]: MAJOR.MINOR each. */
static int parse_cc(reader *rd, const char *at)
{
	char *dst = rd->p->compute_capability;
	size_t len = 0;

	if (!*at || *at == '#')
		return FAIL(at, "compute_capability needs at least one value "
			    "such as 9.0");
	while (*at && *at != '#') {
		size_t n = bs_token_len(at);
		size_t i = 0;

		while (i < n && isdigit((unsigned char)at[i]))
			i++;
		if (!i || i > 2 || i + 2 > n || at[i] != '.' ||
		    !isdigit((unsigned char)at[i + 1]) ||
		    (i + 2 < n && !(i + 3 == n && at[i + 2] == 'a')))
			return FAIL(at, "'%.*s' is not a compute capability "
				    "such as 9.0", (int)(n > 16 ? 16 : n), at);
		if (len + n + 2 > sizeof rd->p->compute_capability)
			return FAIL(at, "too many compute capabilities");
		if (len)
			dst[len++] = ' ';
		memcpy(dst + len, at, n);
		len += n;
		dst[len] = '\0';
		at = bs_skip_blanks(at + n);
	}
	return 0;
}

static int parse_source(reader *rd, const char *at)
{
	size_t n = bs_token_len(at);
	bs_source *s;

	if (!n)
		return FAIL(at, "source needs a tag and a text");
	if (n >= sizeof s->tag)
		return FAIL(at, "source tag longer than %zu bytes",
			    sizeof s->tag - 1);
	for (unsigned i = 0; i < rd->p->nsources; i++)
		if (strlen(rd->p->source[i].tag) == n &&
		    !memcmp(rd->p->source[i].tag, at, n))
			return FAIL(at, "source '%.*s' declared twice", (int)n,
				    at);
	if (rd->p->nsources == BS_MAX_SOURCES)
		return FAIL(at, "more than %d sources", BS_MAX_SOURCES);
	s = &rd->p->source[rd->p->nsources];
	bs_copy_token(s->tag, sizeof s->tag, at, n);
	if (rest_of_line(rd, bs_skip_blanks(at + n), s->text, sizeof s->text,
			 "source") < 0)
		return -1;
	rd->p->nsources++;
	return 0;
}

/* partners=1,2: each 1..31, no repeats. */
static int parse_partners(reader *rd, const char *at, size_t n,
			  uint32_t *out)
{
	const char *end = at + n;

	*out = 0;
	while (at < end) {
		const char *comma = memchr(at, ',', (size_t)(end - at));
		size_t k = comma ? (size_t)(comma - at) : (size_t)(end - at);
		unsigned m;

		if (parse_uint(rd, at, k, 1, 31, &m, "partners") < 0)
			return -1;
		if (*out >> m & 1)
			return FAIL(at, "partners: %u given twice", m);
		*out |= 1u << m;
		at += k + (comma ? 1 : 0);
		if (comma && at == end)
			return FAIL(at, "partners: a number after ','");
	}
	if (!*out)
		return FAIL(at, "partners needs at least one lane partner");
	return 0;
}

enum { K_PHASE, K_PACKED, K_PARTNERS, K_SAME, K_IDEAL, K_SLOT, K_LOOP,
       K_COPY, K_REMOTE, K_LAT_BASE, K_LAT_PACKED, K_LAT_SLOPE, K_TP,
       K_SOURCE, NKEYS };

/* The keys the parser knows: an unknown key's message lists them all. */
static const char *const key_names[NKEYS] = {
	"phase", "packed", "partners", "same_word", "ideal", "slot_waves",
	"loop", "copy", "remote", "lat_base", "lat_packed", "lat_slope", "tp",
	"source",
};

/* The keys that take one of a few words, value 0, 1, ... (bs_model.h). */
static const char *const choices[NKEYS][3] = {
	[K_SAME] = { "share", "serial" }, [K_IDEAL] = { "words", "lanes" },
	[K_LOOP] = { "none", "cas" },
	[K_COPY] = { "none", "lines", "words" },
};

/* A rule as it is read: where each key was, for the checks after them. */
typedef struct {
	bs_rule r;
	const char *kind_at, *width_at;
	const char *seen[NKEYS];
} rule_read;

/* KIND WIDTH at *at into t->r, *at moved to the first key; 0 or -1. */
static int parse_kind_width(reader *rd, const char **at, rule_read *t)
{
	bs_rule *r = &t->r;
	const char *s = *at;
	char word[32];
	size_t n = bs_token_len(s);
	unsigned v;

	t->kind_at = s;
	if (!n)
		return FAIL(s, "rule needs KIND WIDTH and its keys");
	bs_copy_token(word, sizeof word, s, n);
	if (n >= sizeof word || bs_kind_find(word, &r->kind) < 0)
		return FAIL(s, "unknown kind '%s' (bankscope archs --kinds "
			    "lists them)", word);
	s = bs_skip_blanks(s + n);
	t->width_at = s;
	n = bs_token_len(s);
	if (!n)
		return FAIL(s, "rule needs a width after the kind");
	if (parse_uint(rd, s, n, 1, 16, &v, "width") < 0)
		return -1;
	if (!bs_kind_allows_width(r->kind, v)) {
		char allowed[32];

		bs_kind_widths_text(r->kind, allowed, sizeof allowed);
		return FAIL(s, "%s takes a width of %s bytes, not %u",
			    bs_kind_name(r->kind), allowed, v);
	}
	r->width = (uint8_t)v;
	if (bs_arch_rule(rd->p, r->kind, r->width))
		return FAIL(t->kind_at, "a second rule for %s %u",
			    bs_kind_name(r->kind), v);
	*at = bs_skip_blanks(s + n);
	return 0;
}

/* The key of KEY=VALUE at `at` (n bytes): its index, or -1 with the
 * error, which names every key the parser knows. */
static int find_key(reader *rd, const char *at, size_t n)
{
	const char *eq = memchr(at, '=', n);
	char keys[192];
	size_t kn = 0;

	if (!eq)
		return FAIL(at, "expected KEY=VALUE, not '%.*s'",
			    (int)(n > 24 ? 24 : n), at);
	for (int k = 0; k < NKEYS; k++)
		if (strlen(key_names[k]) == (size_t)(eq - at) &&
		    !memcmp(key_names[k], at, (size_t)(eq - at)))
			return k;
	for (int i = 0; i < NKEYS; i++)
		kn += (size_t)snprintf(keys + kn, sizeof keys - kn, "%s%s",
				       i ? ", " : "", key_names[i]);
	return FAIL(at, "unknown key '%.*s' (%s)",
		    (int)(eq - at > 24 ? 24 : eq - at), at, keys);
}

/* The value of a key of words k: its index into *out, or -1. */
static int parse_choice(reader *rd, int k, const char *val, size_t vn,
			uint8_t *out)
{
	for (int i = 0; i < 3 && choices[k][i]; i++)
		if (strlen(choices[k][i]) == vn &&
		    !memcmp(choices[k][i], val, vn)) {
			*out = (uint8_t)i;
			return 0;
		}
	if (choices[k][2])
		return FAIL(val, "%s is %s, %s or %s", key_names[k],
			    choices[k][0], choices[k][1], choices[k][2]);
	return FAIL(val, "%s is %s or %s", key_names[k], choices[k][0],
		    choices[k][1]);
}

/* The value of key k (vn bytes at val, at least one) into t->r. */
static int parse_value(reader *rd, int k, const char *val, size_t vn,
		       rule_read *t)
{
	bs_rule *r = &t->r;
	unsigned v;

	switch (k) {
	case K_PHASE:
	case K_PACKED:
		if (parse_uint(rd, val, vn, 1, 32, &v, key_names[k]) < 0)
			return -1;
		if (!is_pow2(v))
			return FAIL(val, "%s: %u is not 1, 2, 4, 8, 16 or 32 "
				    "lanes", key_names[k], v);
		if (k == K_PHASE)
			r->phase_lanes = (uint8_t)v;
		else
			r->packed_lanes = (uint8_t)v;
		return 0;
	case K_PARTNERS:
		return parse_partners(rd, val, vn, &r->pack_partners);
	case K_SAME:
		return parse_choice(rd, k, val, vn, &r->same_word);
	case K_IDEAL:
		return parse_choice(rd, k, val, vn, &r->ideal);
	case K_SLOT:
		if (parse_uint(rd, val, vn, 1, 4, &v, "slot_waves") < 0)
			return -1;
		r->slot_waves = (uint8_t)v;
		return 0;
	case K_LOOP:
		if (parse_choice(rd, k, val, vn, &r->loop) < 0)
			return -1;
		if (r->loop && bs_kind_get(r->kind)->direction != BS_UPDATES)
			return FAIL(val, "loop=cas is for atomics: %s is not "
				    "one", bs_kind_name(r->kind));
		return 0;
	case K_COPY:
		if (parse_choice(rd, k, val, vn, &r->copy) < 0)
			return -1;
		if (r->copy == BS_COPY_LINES &&
		    (bs_kind_get(r->kind)->direction != BS_WRITES ||
		     r->width != 16))
			return FAIL(val, "copy=lines is for 16-byte writes "
				    "(cp.async.cg): %s %u is not one",
				    bs_kind_name(r->kind), r->width);
		if (r->copy == BS_COPY_WORDS &&
		    (bs_kind_get(r->kind)->direction != BS_WRITES ||
		     r->width < 4))
			return FAIL(val, "copy=words is for copies of 4 to 16 "
				    "bytes (cp.async.ca): %s %u is not one",
				    bs_kind_name(r->kind), r->width);
		return 0;
	case K_REMOTE:
		if (!bs_kind_get(r->kind)->remote)
			return FAIL(val, "remote= is for the distributed "
				    "shared memory kinds (dsmem.*): %s is not "
				    "one", bs_kind_name(r->kind));
		for (unsigned i = BS_REMOTE_SECTORS; i <= BS_REMOTE_WRITES;
		     i++)
			if (strlen(bs_remote_name(i)) == vn &&
			    !memcmp(bs_remote_name(i), val, vn)) {
				r->remote = (uint8_t)i;
				return 0;
			}
		return FAIL(val, "remote is sectors, rmw or writes");
	case K_LAT_BASE:
		return parse_cycles(rd, val, vn, &r->lat_base, "lat_base");
	case K_LAT_PACKED:
		return parse_cycles(rd, val, vn, &r->lat_packed, "lat_packed");
	case K_LAT_SLOPE:
		return parse_cycles(rd, val, vn, &r->lat_slope, "lat_slope");
	case K_TP:
		return parse_cycles(rd, val, vn, &r->tp_bytes_per_clk, "tp");
	case K_SOURCE:
		if (vn >= sizeof rd->rule_tag[0])
			return FAIL(val, "source tag longer than %zu bytes",
				    sizeof rd->rule_tag[0] - 1);
		return 0;
	}
	return 0;
}

/* The checks that need every key of the rule. */
/*
 * A remote kind's rule: remote= and source= and, at most, a latency line
 * and a throughput; the bank keys do not apply to sectors.
 */
static int check_remote_keys(reader *rd, const rule_read *t)
{
	static const int bank_keys[] = { K_PHASE, K_PACKED, K_PARTNERS,
					 K_SAME, K_IDEAL, K_SLOT, K_LOOP,
					 K_COPY, K_LAT_PACKED };
	const bs_rule *r = &t->r;

	if (!t->seen[K_REMOTE])
		return FAIL(t->width_at, "rule %s %u needs remote=sectors, "
			    "rmw or writes: another CTA's shared memory is "
			    "paid by sectors, not banks", bs_kind_name(r->kind),
			    r->width);
	if (!t->seen[K_SOURCE])
		return FAIL(t->width_at, "rule %s %u needs source=TAG",
			    bs_kind_name(r->kind), r->width);
	for (size_t i = 0; i < sizeof bank_keys / sizeof *bank_keys; i++)
		if (t->seen[bank_keys[i]])
			return FAIL(t->seen[bank_keys[i]], "%s= does not apply "
				    "with remote=: a remote access moves "
				    "sectors, it takes no bank slot",
				    key_names[bank_keys[i]]);
	if (!!t->seen[K_LAT_BASE] != !!t->seen[K_LAT_SLOPE])
		return FAIL(t->seen[K_LAT_BASE] ? t->seen[K_LAT_BASE]
						: t->seen[K_LAT_SLOPE],
			    "lat_base= and lat_slope= go together");
	return 0;
}

static int check_keys(reader *rd, const rule_read *t)
{
	const bs_rule *r = &t->r;
	const char *const *seen = t->seen;

	if (bs_kind_get(r->kind)->remote)
		return check_remote_keys(rd, t);
	if (!seen[K_PHASE])
		return FAIL(t->width_at, "rule %s %u needs phase=LANES",
			    bs_kind_name(r->kind), r->width);
	if (!seen[K_SOURCE])
		return FAIL(t->width_at, "rule %s %u needs source=TAG",
			    bs_kind_name(r->kind), r->width);
	if (!!seen[K_PACKED] != !!seen[K_PARTNERS])
		return FAIL(seen[K_PACKED] ? seen[K_PACKED] : seen[K_PARTNERS],
			    "packed= and partners= go together");
	if (r->packed_lanes && r->packed_lanes <= r->phase_lanes)
		return FAIL(seen[K_PACKED], "packed=%u is not wider than "
			    "phase=%u", r->packed_lanes, r->phase_lanes);
	if (!!seen[K_LAT_BASE] != !!seen[K_LAT_SLOPE])
		return FAIL(seen[K_LAT_BASE] ? seen[K_LAT_BASE]
					     : seen[K_LAT_SLOPE],
			    "lat_base= and lat_slope= go together");
	if (seen[K_LAT_PACKED] && (!r->packed_lanes || !seen[K_LAT_BASE]))
		return FAIL(seen[K_LAT_PACKED], "lat_packed= needs packed= "
			    "and lat_base=");
	if (r->loop && r->packed_lanes)
		return FAIL(seen[K_PACKED], "packed= does not apply with "
			    "loop=cas: the loop's loads pack by the ld rule");
	if (r->copy == BS_COPY_LINES &&
	    (r->packed_lanes || r->loop || r->same_word ||
	     r->slot_waves > 1 || r->ideal))
		return FAIL(seen[K_COPY], "copy=lines counts lines: "
			    "packed=, loop=, same_word=, slot_waves= and "
			    "ideal= do not apply with it");
	return 0;
}

/* rule KIND WIDTH KEY=VALUE...: the rule into the architecture, its source
 * tag kept to resolve once every source is declared. */
static int parse_rule(reader *rd, const char *at)
{
	rule_read t;
	const char *val;
	size_t n;
	unsigned ri;

	memset(&t, 0, sizeof t);
	t.r.slot_waves = 1;
	t.r.lat_base = t.r.lat_packed = t.r.lat_slope = NAN;
	t.r.tp_bytes_per_clk = NAN;
	if (parse_kind_width(rd, &at, &t) < 0)
		return -1;
	for (; *at && *at != '#'; at = bs_skip_blanks(at + n)) {
		int k;

		n = bs_token_len(at);
		if ((k = find_key(rd, at, n)) < 0)
			return -1;
		if (t.seen[k])
			return FAIL(at, "%s given twice", key_names[k]);
		t.seen[k] = at;
		val = at + strlen(key_names[k]) + 1;
		if (val == at + n)
			return FAIL(val, "%s needs a value", key_names[k]);
		if (parse_value(rd, k, val, (size_t)(at + n - val), &t) < 0)
			return -1;
	}
	if (check_keys(rd, &t) < 0)
		return -1;
	ri = rd->p->nrules;
	if (bs_arch_set_rule(rd->p, &t.r, rd->err) < 0)
		return FAIL(t.kind_at, "more than %d rules", BS_MAX_RULES);
	val = strchr(t.seen[K_SOURCE], '=') + 1;
	bs_copy_token(rd->rule_tag[ri], sizeof rd->rule_tag[ri], val,
		      bs_token_len(val));
	rd->rule_line[ri] = rd->line;
	rd->rule_col[ri] = (long)(val - rd->text) + 1;
	return 0;
}

/*
 * gmma FAMILY ss|rs wave_bytes=B [a_copies=N] [b_copies=N] measured=yes|no
 * source=TAG: how one wgmma family's operand reads become wavefronts
 * (bs_gmma_rule).
 */
static int parse_gmma(reader *rd, const char *at)
{
	static const char *const gkeys[] = { "wave_bytes", "a_copies",
					     "b_copies", "measured", "source" };
	const char *seen[5] = { NULL };
	bs_gmma_rule g;
	char word[24];
	size_t n = bs_token_len(at);
	unsigned op, v, gi = rd->p->ngmma;

	memset(&g, 0, sizeof g);
	g.a_copies = g.b_copies = 1;
	bs_copy_token(word, sizeof word, at, n);
	if (!n || n >= sizeof word || bs_gmma_op_find(word, &op) < 0)
		return FAIL(at, "gmma needs a wgmma family: hgmma, hgmma.tf32, "
			    "igmma or qgmma, not '%s'", n ? word : "");
	g.op = (uint8_t)op;
	at = bs_skip_blanks(at + n);
	n = bs_token_len(at);
	if (n == 2 && (!memcmp(at, "ss", 2) || !memcmp(at, "rs", 2)))
		g.a_regs = *at == 'r';
	else
		return FAIL(at, "gmma %s needs ss (A and B in shared memory) "
			    "or rs (A in registers)", word);
	if (bs_arch_gmma_rule(rd->p, g.op, g.a_regs))
		return FAIL(at, "a second gmma rule for %s %.2s", word, at);
	if (gi == BS_MAX_GMMA_RULES)
		return FAIL(at, "more than %d gmma rules", BS_MAX_GMMA_RULES);
	for (at = bs_skip_blanks(at + n); *at && *at != '#';
	     at = bs_skip_blanks(at + n)) {
		const char *eq, *val;
		int k;

		n = bs_token_len(at);
		if (!(eq = memchr(at, '=', n)))
			return FAIL(at, "expected KEY=VALUE, not '%.*s'",
				    (int)(n > 24 ? 24 : n), at);
		for (k = 0; k < 5; k++)
			if (strlen(gkeys[k]) == (size_t)(eq - at) &&
			    !memcmp(gkeys[k], at, (size_t)(eq - at)))
				break;
		if (k == 5)
			return FAIL(at, "unknown gmma key '%.*s' (wave_bytes, "
				    "a_copies, b_copies, measured, source)",
				    (int)(eq - at > 24 ? 24 : eq - at), at);
		if (seen[k])
			return FAIL(at, "%s given twice", gkeys[k]);
		seen[k] = at;
		val = eq + 1;
		if (val == at + n)
			return FAIL(val, "%s needs a value", gkeys[k]);
		switch (k) {
		case 0:
			if (parse_uint(rd, val, (size_t)(at + n - val), 1, 4096,
				       &v, "wave_bytes") < 0)
				return -1;
			g.wave_bytes = (uint16_t)v;
			break;
		case 1:
		case 2:
			if (parse_uint(rd, val, (size_t)(at + n - val), 0, 8,
				       &v, gkeys[k]) < 0)
				return -1;
			if (k == 1)
				g.a_copies = (uint8_t)v;
			else
				g.b_copies = (uint8_t)v;
			break;
		case 3:
			if (at + n - val == 3 && !memcmp(val, "yes", 3))
				g.measured = 1;
			else if (at + n - val == 2 && !memcmp(val, "no", 2))
				g.measured = 0;
			else
				return FAIL(val, "measured is yes or no");
			break;
		case 4:
			if ((size_t)(at + n - val) >= sizeof rd->gmma_tag[0])
				return FAIL(val, "source tag longer than %zu "
					    "bytes", sizeof rd->gmma_tag[0] - 1);
			bs_copy_token(rd->gmma_tag[gi], sizeof rd->gmma_tag[gi],
				      val, (size_t)(at + n - val));
			rd->gmma_line[gi] = rd->line;
			rd->gmma_col[gi] = (long)(val - rd->text) + 1;
			break;
		}
	}
	for (int k = 0; k < 5; k++)
		if (k != 1 && k != 2 && !seen[k])
			return FAIL(at, "gmma %s %s needs %s=", word,
				    g.a_regs ? "rs" : "ss", gkeys[k]);
	rd->p->gmma[gi] = g;
	rd->p->ngmma++;
	return 0;
}

/* One statement; 0 or -1. */
static int parse_statement(reader *rd, const char *s)
{
	static const char *const header[] = { "arch", "description",
					      "compute_capability", "banks",
					      "bank_bytes" };
	size_t n = bs_token_len(s);
	const char *at = bs_skip_blanks(s + n);
	unsigned v;
	int h;

	if (n == 4 && !memcmp(s, "rule", 4)) {
		rd->line_of[SEEN_ANY_RULE] = rd->line;
		return parse_rule(rd, at);
	}
	if (n == 6 && !memcmp(s, "source", 6))
		return parse_source(rd, at);
	if (n == 4 && !memcmp(s, "gmma", 4)) {
		rd->line_of[SEEN_ANY_RULE] = rd->line;
		return parse_gmma(rd, at);
	}
	for (h = 0; h < 5; h++)
		if (strlen(header[h]) == n && !memcmp(header[h], s, n))
			break;
	if (h == 5 && n == 7 && !memcmp(s, "profile", 7))
		h = SEEN_NAME;  /* the old spelling of 'arch' */
	if (h == 5)
		return FAIL(s, "unknown statement '%.*s' (arch, "
			    "description, compute_capability, banks, "
			    "bank_bytes, source, rule, gmma)",
			    (int)(n > 24 ? 24 : n), s);
	if (rd->line_of[h])
		return FAIL(s, "%.*s given twice (first on line %ld)", (int)n,
			    s, rd->line_of[h]);
	rd->line_of[h] = rd->line;
	switch (h) {
	case SEEN_NAME:
		return parse_name(rd, *s == 'p' ? "profile" : "arch", at);
	case SEEN_DESCRIPTION:
		return rest_of_line(rd, at, rd->p->description,
				    sizeof rd->p->description, "description");
	case SEEN_CC:
		return parse_cc(rd, at);
	case SEEN_BANKS:
		if (parse_uint(rd, at, bs_token_len(at), 2, BS_MAX_BANKS, &v,
			       "banks") < 0)
			return -1;
		if (!is_pow2(v))
			return FAIL(at, "banks: %u is not a power of two from "
				    "2 to %d", v, BS_MAX_BANKS);
		rd->p->banks = v;
		break;
	case SEEN_BANK_BYTES:
		if (parse_uint(rd, at, bs_token_len(at), 1, 16, &v,
			       "bank_bytes") < 0)
			return -1;
		if (bs_width_index(v) < 0)
			return FAIL(at, "bank_bytes: %u is not 1, 2, 4, 8 or "
				    "16", v);
		rd->p->bank_bytes = v;
		break;
	}
	at = bs_skip_blanks(at + bs_token_len(at));
	if (h >= SEEN_BANKS && *at && *at != '#')
		return FAIL(at, "one value after '%s'", header[h]);
	return 0;
}

/* The checks that need the whole file. */
static int finish(reader *rd)
{
	static const char *const need[] = { "arch NAME", NULL, NULL,
					    "banks N", "bank_bytes N" };
	bs_arch *p = rd->p;

	for (int h = 0; h < 5; h++)
		if (need[h] && !rd->line_of[h])
			return bs_error_set(rd->err, rd->name, 0, 0,
					    "no '%s' line", need[h]);
	for (unsigned i = 0; i < p->ngmma; i++) {
		unsigned s;

		for (s = 0; s < p->nsources; s++)
			if (!strcmp(p->source[s].tag, rd->gmma_tag[i]))
				break;
		if (s == p->nsources)
			return bs_error_set(rd->err, rd->name, rd->gmma_line[i],
					    rd->gmma_col[i], "source '%s' is "
					    "not declared by a 'source %s ...' "
					    "line", rd->gmma_tag[i],
					    rd->gmma_tag[i]);
		p->gmma[i].source = (uint8_t)s;
	}
	for (unsigned i = 0; i < p->nrules; i++) {
		unsigned s;

		for (s = 0; s < p->nsources; s++)
			if (!strcmp(p->source[s].tag, rd->rule_tag[i]))
				break;
		if (s == p->nsources)
			return bs_error_set(rd->err, rd->name, rd->rule_line[i],
					    rd->rule_col[i], "source '%s' is "
					    "not declared by a 'source %s ...' "
					    "line", rd->rule_tag[i],
					    rd->rule_tag[i]);
		p->rule[i].source = (uint8_t)s;
		if (p->rule[i].loop &&
		    !bs_arch_rule(p, BS_KIND_LD, p->rule[i].width))
			return bs_error_set(rd->err, rd->name, rd->rule_line[i],
					    0, "rule %s %u has loop=cas, whose "
					    "loads need a rule for ld %u",
					    bs_kind_name(p->rule[i].kind),
					    p->rule[i].width, p->rule[i].width);
		if (p->rule[i].copy &&
		    p->bank_bytes * p->banks != 128)
			return bs_error_set(rd->err, rd->name, rd->rule_line[i],
					    0, "rule %s %u has copy=%s, "
					    "which needs 128-byte lines (banks "
					    "x bank_bytes), not %u",
					    bs_kind_name(p->rule[i].kind),
					    p->rule[i].width,
					    bs_copy_name(p->rule[i].copy),
					    p->bank_bytes * p->banks);
		if (p->rule[i].width > p->bank_bytes * p->banks)
			return bs_error_set(rd->err, rd->name, rd->rule_line[i],
					    0, "a %u-byte access is wider than "
					    "the %u bytes all banks deliver "
					    "together",
					    p->rule[i].width,
					    p->banks * p->bank_bytes);
	}
	return 0;
}

static void reader_init(reader *rd, const char *name, bs_arch *out,
			bs_error *err)
{
	memset(rd, 0, sizeof *rd);
	rd->name = name ? name : "<arch>";
	rd->err = err;
	rd->p = out;
	bs_arch_init(out);
}

static int one_line(reader *rd, const char *line)
{
	const char *s = bs_skip_blanks(line);

	rd->text = line;
	if (!*s || *s == '#')
		return 0;
	return parse_statement(rd, s);
}

int bs_arch_read(FILE *f, const char *name, bs_arch *out, bs_error *err)
{
	reader rd;
	size_t cap = 256, len;
	char *buf = malloc(cap);
	int rc, skip = 0;

	reader_init(&rd, name, out, err);
	if (!buf)
		return bs_error_set(err, rd.name, 0, 0, "out of memory");
	/* a hand-written file may lack its final newline (rc 2) */
	while ((rc = bs_read_line(f, rd.name, &rd.line, &skip, &buf, &cap,
				  &len, err)) > 0)
		if (one_line(&rd, buf) < 0) {
			rc = -1;
			break;
		}
	free(buf);
	if (rc < 0)
		return -1;
	return finish(&rd);
}

int bs_arch_parse(const char *text, const char *name, bs_arch *out,
		     bs_error *err)
{
	reader rd;
	char line[1024];

	reader_init(&rd, name, out, err);
	while (*text) {
		size_t n = strcspn(text, "\n");

		rd.line++;
		if (n >= sizeof line)
			return bs_error_set(err, rd.name, rd.line, 0, "line "
					    "longer than %zu bytes",
					    sizeof line - 1);
		memcpy(line, text, n);
		line[n] = '\0';
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		if (one_line(&rd, line) < 0)
			return -1;
		text += n + (text[n] == '\n');
	}
	return finish(&rd);
}

/* ---- writing ----------------------------------------------------------- */

/* " KEY=V", V the shortest decimal that reads back as v; nothing for NaN
 * (not modeled). */
static void put_number(FILE *f, const char *key, double v)
{
	char num[32];

	if (isnan(v))
		return;
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(num, sizeof num, "%.*g", prec, v);
		if (strtod(num, NULL) == v)
			break;
	}
	fprintf(f, " %s=%s", key, num);
}

/* One rule's line. */
static void put_rule(FILE *f, const bs_arch *p, const bs_rule *r)
{
	char pt[BS_PARTNERS_TEXT_MAX];

	if (r->remote)
		fprintf(f, "rule %s %u remote=%s", bs_kind_name(r->kind),
			r->width, bs_remote_name(r->remote));
	else
		fprintf(f, "rule %s %u phase=%u", bs_kind_name(r->kind),
			r->width, r->phase_lanes);
	if (r->packed_lanes)
		fprintf(f, " packed=%u partners=%s", r->packed_lanes,
			bs_partners_text(r->pack_partners, pt));
	if (r->same_word != BS_SAME_WORD_SHARE)
		fprintf(f, " same_word=%s", bs_same_word_name(r->same_word));
	if (r->ideal != BS_IDEAL_WORDS)
		fprintf(f, " ideal=%s", bs_ideal_name(r->ideal));
	if (r->slot_waves > 1)
		fprintf(f, " slot_waves=%u", r->slot_waves);
	if (r->loop)
		fprintf(f, " loop=%s", bs_loop_name(r->loop));
	if (r->copy)
		fprintf(f, " copy=%s", bs_copy_name(r->copy));
	put_number(f, "lat_base", r->lat_base);
	put_number(f, "lat_packed", r->lat_packed);
	put_number(f, "lat_slope", r->lat_slope);
	put_number(f, "tp", r->tp_bytes_per_clk);
	fprintf(f, " source=%s\n", r->source < p->nsources
		? p->source[r->source].tag : "?");
}

int bs_arch_write(FILE *f, const bs_arch *p)
{
	fprintf(f, "# bankscope architecture file (format: docs/model.md, "
		"\"Architecture files\")\narch %s\n", p->name);
	if (p->description[0])
		fprintf(f, "description %s\n", p->description);
	if (p->compute_capability[0])
		fprintf(f, "compute_capability %s\n", p->compute_capability);
	fprintf(f, "banks %u\nbank_bytes %u\n", p->banks, p->bank_bytes);
	for (unsigned s = 0; s < p->nsources; s++)
		fprintf(f, "source %s %s\n", p->source[s].tag,
			p->source[s].text);
	for (unsigned k = 0; k < BS_MAX_KINDS; k++)
		for (int w = 0; w < BS_NWIDTHS; w++) {
			const bs_rule *r = bs_arch_rule(p, (bs_kind)k,
							   bs_widths[w]);

			if (r)
				put_rule(f, p, r);
		}
	for (unsigned i = 0; i < p->ngmma && i < BS_MAX_GMMA_RULES; i++) {
		const bs_gmma_rule *g = &p->gmma[i];

		fprintf(f, "gmma %s %s wave_bytes=%u a_copies=%u b_copies=%u "
			"measured=%s source=%s\n", bs_gmma_op_name(g->op),
			g->a_regs ? "rs" : "ss", g->wave_bytes, g->a_copies,
			g->b_copies, g->measured ? "yes" : "no",
			g->source < p->nsources ? p->source[g->source].tag
						: "?");
	}
	return ferror(f) ? -1 : 0;
}

/* ---- the built-in architectures ----------------------------------------- */

static bs_arch builtin[MAX_BUILTIN];
static const bs_arch *builtin_list[MAX_BUILTIN + 1];

/*
 * Parsed on first use (not thread-safe before that).  A built-in that
 * does not parse is left out; tests/check_archfile.c holds every file
 * in analyzer/archs/ to parsing.
 */
const bs_arch *const *bs_archs(void)
{
	static int done;
	unsigned n = 0;

	if (done)
		return builtin_list;
	done = 1;
	for (unsigned i = 0; bs_builtin_arch_text[i] && n < MAX_BUILTIN;
	     i++)
		if (bs_arch_parse(bs_builtin_arch_text[i],
				     bs_builtin_arch_file[i], &builtin[n],
				     NULL) == 0) {
			builtin_list[n] = &builtin[n];
			n++;
		}
	builtin_list[n] = NULL;
	return builtin_list;
}

const bs_arch *bs_arch_find(const char *name)
{
	for (const bs_arch *const *p = bs_archs(); *p; p++)
		if (strcmp((*p)->name, name) == 0)
			return *p;
	return NULL;
}

const bs_arch *bs_arch_default(void)
{
	return bs_arch_find("sm_90");
}

const bs_arch *bs_arch_for_cc(const char *cc)
{
	size_t n = strlen(cc);

	for (const bs_arch *const *p = bs_archs(); *p; p++) {
		const char *s = (*p)->compute_capability;

		while (*s) {
			size_t k = strcspn(s, " ");

			if (k == n && !memcmp(s, cc, n))
				return *p;
			s += k + (s[k] == ' ');
		}
	}
	return NULL;
}
