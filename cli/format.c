/*
 * format.c - the predict command's three output formats.
 *
 * text: per access, its phases and a bank map a student can read (one row
 *       per wavefront, one column per bank; a cell shows the lowest lane
 *       served, '+' when other lanes share that word, '.' for an idle
 *       bank), the shared words spelled out, then the totals.  The name
 *       is escaped for the terminal (bs_escape_text).
 * csv:  a header, then one row per access.  csv and map write a name
 *       that holds a control byte or bytes that are no UTF-8 escaped as
 *       text does (name_shown), so neither carries them raw.  A run that
 *       may predict a remote (dsmem.*) access has one column more, last:
 *       sectors, the 32-byte sectors it moves (empty for a bank kind).
 * json: an array with one object per access carrying everything the text
 *       shows.
 * map:  per access, a comment line, a header and one row per cell
 *       (wavefront counted over all phases, phase, bank, word, first lane,
 *       lane count, lanes): what plots/bankmap.gp draws; accesses are
 *       separated by two blank lines (gnuplot's index).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "cli.h"

const char *const predict_csv_header =
	"name,width,op,active_lanes,phases,packed,wavefronts,"
	"ideal_wavefronts,bank_conflicts,max_way,latency_cycles";
const char *const predict_csv_sectors = ",sectors";

/* "0-15,17,20-23" for a lane mask; "none" for 0. */
void lane_list(uint32_t m, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	if (!m) {
		snprintf(buf, size, "none");
		return;
	}
	for (unsigned l = 0; l < BS_LANES && n < size; l++) {
		unsigned e = l;

		if (!(m >> l & 1))
			continue;
		while (e + 1 < BS_LANES && (m >> (e + 1) & 1))
			e++;
		if (e == l)
			n += (size_t)snprintf(buf + n, size - n, "%s%u",
					      n ? "," : "", l);
		else
			n += (size_t)snprintf(buf + n, size - n, "%s%u-%u",
					      n ? "," : "", l, e);
		l = e;
	}
}

/* A CSV field, quoted by the library's one rule (bs_csv_field). */
void csv_field(FILE *out, const char *s)
{
	bs_csv_field(out, s);
}

/*
 * A JSON string.  JSON text is UTF-8, and names come from files and
 * options as raw bytes: a byte that starts no valid UTF-8 character is
 * replaced by U+FFFD (one per byte, as the REPLACEMENT CHARACTER is
 * meant), so the output stays valid JSON; control characters are \u
 * escapes.
 */
void json_string(FILE *out, const char *s)
{
	putc('"', out);
	while (*s) {
		unsigned char c = (unsigned char)*s;
		int k = bs_utf8_next(s);

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else if (k == 0)
			fputs("\\ufffd", out);
		else
			fwrite(s, 1, (size_t)k, out);
		s += k ? k : 1;
	}
	putc('"', out);
}

static void json_lanes(FILE *out, uint32_t m)
{
	int first = 1;

	putc('[', out);
	for (unsigned l = 0; l < BS_LANES; l++)
		if (m >> l & 1) {
			fprintf(out, "%s%u", first ? "" : ",", l);
			first = 0;
		}
	putc(']', out);
}

/* "load" and "store" for ld and st; other kinds by their names. */
static const char *kind_word(bs_kind kind)
{
	return kind == BS_KIND_LD ? "load" : kind == BS_KIND_ST
		? "store" : bs_kind_name(kind);
}

/* One row of a bank map, its trailing blanks dropped. */
static void put_row(FILE *out, const char *row, size_t n)
{
	while (n && row[n - 1] == ' ')
		n--;
	fprintf(out, "%.*s\n", (int)n, row);
}

static void text_phase(FILE *out, const bs_arch *p, const bs_detail *d,
		       unsigned ph)
{
	const bs_phase *f = &d->phase[ph];
	const bs_cell *c = &d->cell[f->first_cell];
	char lanes[160], row[12 + 4 * BS_MAX_BANKS];
	size_t n;

	lane_list(f->lanes, lanes, sizeof lanes);
	fprintf(out, "  phase %u (lanes %s): ", ph, lanes);
	if (!f->active) {
		fprintf(out, "no active lane, 0 wavefronts\n");
		return;
	}
	if (d->copy)
		fprintf(out, "%u wavefront%s, %u word%s\n", f->wavefronts,
			f->wavefronts == 1 ? "" : "s", f->words,
			f->words == 1 ? "" : "s");
	else
		fprintf(out, "%u wavefront%s, %u-way, %u %s%s%s\n",
			f->wavefronts, f->wavefronts == 1 ? "" : "s", f->slots,
			f->words, d->serial ? "word" : "distinct word",
			f->words == 1 ? "" : d->serial ? "s, one a lane, served "
							 "one by one" : "s",
			f->waits ? "; lanes on one source word wait for one "
				   "another (copy=words)" : "");
	n = (size_t)snprintf(row, sizeof row, "    bank   ");
	for (unsigned b = 0; b < p->banks; b++)
		n += (size_t)snprintf(row + n, sizeof row - n, " %2u ", b);
	put_row(out, row, n);
	for (unsigned w = 0, i = 0; w < f->slots; w++) {
		n = (size_t)snprintf(row, sizeof row, "    wave %-2u", w);
		for (unsigned b = 0; b < p->banks; b++) {
			if (i < f->ncells && c[i].wave == w && c[i].bank == b) {
				uint32_t m = c[i].lanes;

				n += (size_t)snprintf(row + n, sizeof row - n,
					" %2u%c", (unsigned)__builtin_ctz(m),
					(m & (m - 1)) ? '+' : ' ');
				i++;
			} else {
				n += (size_t)snprintf(row + n, sizeof row - n,
						      "  . ");
			}
		}
		put_row(out, row, n);
	}
	for (unsigned i = 0; i < f->ncells; i++) {
		if (!(c[i].lanes & (c[i].lanes - 1)))
			continue;
		lane_list(c[i].lanes, lanes, sizeof lanes);
		fprintf(out, "    shared: word %u (bank %u, wave %u) -> lanes %s\n",
			(unsigned)c[i].word, c[i].bank, c[i].wave, lanes);
	}
}

/*
 * A retry loop (a rule with loop=cas): the first pass's load as a bank
 * map, then a row per pass, then the totals split into loads and
 * compare-and-stores.
 */
static void text_loop(FILE *out, const bs_arch *p, const bs_access *a,
		      const bs_detail *d, const char *name)
{
	const bs_summary *s = &d->sum;
	char pending[160], done[160];

	fprintf(out, "%s: %u-byte %s, %u of 32 lanes active, arch %s, a "
		"retry loop of %u pass%s\n", name, a->width,
		kind_word(a->kind), s->active_lanes, p->name, s->passes,
		s->passes == 1 ? "" : "es");
	fprintf(out, "  each pass: the pending lanes load their words (LDS, "
		"rule ld %u); then, in each\n  phase, the lowest pending lane "
		"of every %s tries its compare-and-store\n  (ATOMS.CAST.SPIN), "
		"which fails when a lower phase stored to its word\n",
		a->width, a->width > p->bank_bytes ? "bank group" : "bank");
	fprintf(out, "  the load of pass 1%s:\n", s->packed
		? ", pairwise uniform: packed phases" : "");
	for (unsigned ph = 0; ph < d->nphases; ph++)
		text_phase(out, p, d, ph);
	fprintf(out, "  pass  load_wf  cas_phases  cas_wf  pending lanes -> "
		"lanes done\n");
	for (unsigned i = 0; i < d->npasses; i++) {
		const bs_pass *x = &d->pass[i];

		lane_list(x->pending, pending, sizeof pending);
		lane_list(x->done, done, sizeof done);
		fprintf(out, "  %4u %8u %11u %7u  %s -> %s\n", i + 1,
			x->load_wavefronts, x->cas_phases, x->cas_wavefronts,
			pending, done);
	}
	fprintf(out, "  wavefronts %u (loads %u, compare-and-stores %u), "
		"ideal %u, bank conflicts %u, worst %u-way", s->wavefronts,
		s->load_wavefronts, s->cas_wavefronts, s->ideal_wavefronts,
		s->bank_conflicts, s->max_way);
	if (isnan(s->latency_cycles))
		fprintf(out, ", latency not modeled\n\n");
	else
		fprintf(out, ", latency %.2f cycles\n\n", s->latency_cycles);
}

/*
 * A remote rule's access (another CTA's shared memory): what it moves,
 * and why the bank fixes do not apply.
 */
static void text_remote(FILE *out, const bs_arch *p, const bs_access *a,
			const bs_summary *s, const char *name)
{
	fprintf(out, "%s: %u-byte %s, %u of 32 lanes active, arch %s\n",
		name, a->width, kind_word(a->kind), s->active_lanes, p->name);
	fprintf(out, "  another CTA's shared memory: %u sector%s of 32 bytes "
		"moved", s->sectors, s->sectors == 1 ? "" : "s");
	const bs_rule *r = bs_arch_rule(p, a->kind, a->width);
	bs_remote g;

	if (s->passes)
		fprintf(out, " (%u pass%s, a read and a write each)",
			s->passes, s->passes == 1 ? "" : "es");
	else if (r && r->remote == BS_REMOTE_WRITES &&
		 bs_remote_geometry(a, &g) == 0 && g.sectors != s->sectors)
		fprintf(out, " (%u distinct: a line whose one sector is written "
			"in both 16-byte halves moves 2)", g.sectors);
	fprintf(out, ", %u line%s of 128 bytes\n  dshared wavefronts %u",
		s->lines, s->lines == 1 ? "" : "s", s->wavefronts);
	if (isnan(s->latency_cycles))
		fprintf(out, ", latency not modeled");
	else
		fprintf(out, ", latency %.2f cycles", s->latency_cycles);
	fprintf(out, "\n  no bank is paid for remotely: padding or a swizzle "
		"cannot lower this, fewer sectors can\n\n");
}

void print_text(FILE *out, const bs_arch *p, const bs_access *a,
		const bs_detail *d)
{
	const bs_summary *s = &d->sum;
	char name[4 * BS_NAME_MAX];

	bs_escape_text(name, sizeof name, a->name);
	if (d->npasses) {
		text_loop(out, p, a, d, name);
		return;
	}
	if (s->sectors) {
		text_remote(out, p, a, s, name);
		return;
	}
	fprintf(out, "%s: %u-byte %s, %u of 32 lanes active, arch %s%s\n",
		name, a->width, kind_word(a->kind), s->active_lanes, p->name,
		s->packed ? ", pairwise uniform: packed phases" : "");
	if (d->copy)
		fprintf(out, "  by lines (copy=lines): a phase per source line, "
			"%s;\n  a wavefront for "
			"each shared line, chunk XOR and half mask; a lane that "
			"repeats\n  an earlier lane's destination rides along "
			"(docs/model.md, \"cp.async\")\n", a->src ?
			"the lanes' recorded sources" :
			"lane l copying from base + 16 l");
	for (unsigned ph = 0; ph < d->nphases; ph++)
		text_phase(out, p, d, ph);
	fprintf(out, "  wavefronts %u, ideal %u, bank conflicts %u, worst %u-way",
		s->wavefronts, s->ideal_wavefronts, s->bank_conflicts,
		s->max_way);
	if (isnan(s->latency_cycles))
		fprintf(out, ", latency not modeled\n\n");
	else
		fprintf(out, ", latency %.2f cycles\n\n", s->latency_cycles);
}

/*
 * The CSV row is built in memory and written at once: predict --format
 * csv streams millions of them, and printf's parsing of its format was
 * most of the cost.  The bytes are those printf would write: numbers in
 * plain decimal, and the latency through printf's own "%.2f", kept for
 * the few distinct latencies a run has (keyed by the double's bits).
 * Short fields are copied 16 bytes at a time into the row's room and the
 * row's length advanced by their own: a name of up to 15 bytes, a kind
 * name (kept padded), the latency text.
 */
static inline __attribute__((always_inline))
size_t put_uint(char *b, unsigned v)
{
	char t[10];
	size_t n = 0;

	if (v < 10) {
		b[0] = (char)('0' + v);
		return 1;
	}
	if (v < 100) {
		b[0] = (char)('0' + v / 10);
		b[1] = (char)('0' + v % 10);
		return 2;
	}
	do
		t[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	for (size_t i = 0; i < n; i++)
		b[i] = t[n - 1 - i];
	return n;
}

/* A text of up to 16 bytes, kept padded to 16 so that it copies as one. */
typedef struct {
	char text[24];
	size_t len;
} short_text;

static size_t put_short(char *b, const short_text *t)
{
	memcpy(b, t->text, 16);
	return t->len;
}

static size_t put_latency(char *b, double v)
{
	/* per thread: predict's threads each write rows (stream.c) */
	static _Thread_local struct {
		uint64_t bits;
		short_text t;
	} cache[64];
	uint64_t bits;
	unsigned slot;

	memcpy(&bits, &v, sizeof bits);
	slot = (unsigned)((bits * 0x9e3779b97f4a7c15u) >> 58);
	if (!cache[slot].t.len || cache[slot].bits != bits) {
		int n = snprintf(cache[slot].t.text, sizeof cache[slot].t.text,
				 "%.2f", v);

		if (n < 0 || n > 16) {
			cache[slot].t.len = 0;
			return (size_t)snprintf(b, 32, "%.2f", v);
		}
		cache[slot].bits = bits;
		cache[slot].t.len = (size_t)n;
	}
	return put_short(b, &cache[slot].t);
}

/* The kind's name; "?" (bs_kind_name's) past the table. */
static size_t put_kind(char *b, bs_kind k)
{
	static _Thread_local short_text name[BS_MAX_KINDS + 1];
	short_text *t = &name[k < BS_MAX_KINDS ? k : BS_MAX_KINDS];
	size_t n;

	if (!t->len) {
		const char *s = bs_kind_name(k);

		n = strlen(s);
		if (n > 16) {
			memcpy(b, s, n);
			return n;
		}
		memcpy(t->text, s, n);
		t->len = n;
	}
	return put_short(b, t);
}

/*
 * The name as it is, when it is shorter than 16 bytes and holds none of
 * the bytes the quoting rule looks at (',', '"', CR, LF, blanks and '#':
 * those of the rule and more), no other control byte and nothing but
 * ASCII; else 0.  Its 64 bytes can be read.
 */
static size_t put_plain_name(char *b, const char *name)
{
#ifdef __SSE2__
	__m128i c = _mm_loadu_si128((const __m128i *)name), x;
	unsigned end = (unsigned)_mm_movemask_epi8(
		_mm_cmpeq_epi8(c, _mm_setzero_si128()));
	size_t n = (size_t)__builtin_ctz(end | 1u << 16);

	x = _mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8(',')),
			 _mm_cmpeq_epi8(c, _mm_set1_epi8('"')));
	x = _mm_or_si128(x, _mm_cmpeq_epi8(c, _mm_set1_epi8('\r')));
	x = _mm_or_si128(x, _mm_cmpeq_epi8(c, _mm_set1_epi8('\n')));
	x = _mm_or_si128(x, _mm_cmpeq_epi8(c, _mm_set1_epi8(' ')));
	x = _mm_or_si128(x, _mm_cmpeq_epi8(c, _mm_set1_epi8('\t')));
	x = _mm_or_si128(x, _mm_cmpeq_epi8(c, _mm_set1_epi8('#')));
	/* control bytes, DEL and every non-ASCII byte: the slow path's */
	x = _mm_or_si128(x, _mm_cmplt_epi8(c, _mm_set1_epi8(0x20)));
	x = _mm_or_si128(x, _mm_cmpeq_epi8(c, _mm_set1_epi8(0x7f)));
	if (n == 16 || ((unsigned)_mm_movemask_epi8(x) & (end - 1) & ~end))
		return 0;
	_mm_storeu_si128((__m128i *)b, c);
	return n;
#else
	const uint64_t one = 1, special = one << ',' | one << '"' |
		one << '\r' | one << '\n' | one << ' ' | one << '\t' |
		one << '#';
	size_t n = 0;

	for (; name[n]; n++) {
		unsigned char c = (unsigned char)name[n];

		if (n == 15 || (c < 64 && (special >> c & 1)) || c < 0x20 ||
		    c >= 0x7f)
			return 0;
	}
	memcpy(b, name, 16);
	return n;
#endif
}

/* put_uint, then a comma. */
static inline __attribute__((always_inline))
size_t put_field(char *b, unsigned v)
{
	size_t n = put_uint(b, v);

	b[n] = ',';
	return n + 1;
}

size_t csv_row(char *row, const bs_access *a, const bs_summary *s,
	       int sectors)
{
	size_t n = put_plain_name(row, a->name);

	if (!n && a->name[0])
		return 0;
	row[n++] = ',';
	n += put_field(row + n, a->width);
	n += put_kind(row + n, a->kind);
	row[n++] = ',';
	n += put_field(row + n, s->active_lanes);
	n += put_field(row + n, s->phases);
	if (s->packed < 0)      /* packed, an int */
		row[n++] = '-';
	n += put_field(row + n, s->packed < 0 ? 0u - (unsigned)s->packed
					      : (unsigned)s->packed);
	n += put_field(row + n, s->wavefronts);
	n += put_field(row + n, s->ideal_wavefronts);
	n += put_field(row + n, s->bank_conflicts);
	n += put_field(row + n, s->max_way);
	if (!isnan(s->latency_cycles))
		n += put_latency(row + n, s->latency_cycles);
	if (sectors) {
		row[n++] = ',';
		if (bs_kind_get(a->kind)->remote)
			n += put_uint(row + n, s->sectors);
	}
	row[n++] = '\n';
	return n;
}

/* The name by bs_csv_field's rule: as is, or quoted, quotes doubled. */
static size_t put_csv_name(char *b, const char *name)
{
	size_t n = 0;

	if (bs_csv_plain(name)) {
		n = strlen(name);
		memcpy(b, name, n);
		return n;
	}
	b[n++] = '"';
	for (; *name; name++) {
		if (*name == '"')
			b[n++] = '"';
		b[n++] = *name;
	}
	b[n++] = '"';
	return n;
}

const char *name_shown(const char *name, char *buf, size_t size)
{
	for (const char *p = name; *p;) {
		unsigned char c = (unsigned char)*p;
		int k = bs_utf8_next(p);

		if (k == 0 || (k == 1 && (c < 0x20 || c == 0x7f)) ||
		    (c == 0xc2 && (unsigned char)p[1] < 0xa0)) {
			bs_escape_text(buf, size, name);
			return buf;
		}
		p += k;
	}
	return name;
}

size_t csv_row_any(char *row, const bs_access *a, const bs_summary *s,
		   int sectors)
{
	size_t n = csv_row(row, a, s, sectors);
	char esc[BS_NAME_MAX];
	bs_access plain;

	if (n)
		return n;
	/* the name, escaped where it must be, through the quoting rule,
	 * then the rest */
	n = put_csv_name(row, name_shown(a->name, esc, sizeof esc));
	plain = *a;
	plain.name[0] = '\0';
	return n + csv_row(row + n, &plain, s, sectors);
}

void print_csv(FILE *out, const bs_access *a, const bs_summary *s,
	       int sectors)
{
	char row[CSV_ROW_ANY_MAX];

	fwrite(row, 1, csv_row_any(row, a, s, sectors), out);
}

void print_json(FILE *out, const bs_arch *p, const bs_access *a,
		const bs_detail *d, int first)
{
	const bs_summary *s = &d->sum;

	fprintf(out, "%s{\"name\":", first ? "" : ",\n");
	json_string(out, a->name);
	fprintf(out, ",\"profile\":\"%s\",\"width\":%u,\"op\":\"%s\","
		"\"active_lanes\":%u,\"packed\":%s,\"wavefronts\":%u,"
		"\"ideal_wavefronts\":%u,\"bank_conflicts\":%u,\"max_way\":%u,"
		"\"latency_cycles\":",
		p->name, a->width, bs_kind_name(a->kind), s->active_lanes,
		s->packed ? "true" : "false", s->wavefronts,
		s->ideal_wavefronts, s->bank_conflicts, s->max_way);
	if (isnan(s->latency_cycles))
		fprintf(out, "null");
	else
		fprintf(out, "%.2f", s->latency_cycles);
	if (s->sectors)
		fprintf(out, ",\"sectors\":%u,\"lines\":%u,\"passes\":%u",
			s->sectors, s->lines, s->passes);
	if (d->npasses) {
		fprintf(out, ",\"passes\":%u,\"load_wavefronts\":%u,"
			"\"cas_wavefronts\":%u,\"pass\":[", s->passes,
			s->load_wavefronts, s->cas_wavefronts);
		for (unsigned i = 0; i < d->npasses; i++) {
			const bs_pass *x = &d->pass[i];

			fprintf(out, "%s{\"pending\":", i ? "," : "");
			json_lanes(out, x->pending);
			fprintf(out, ",\"done\":");
			json_lanes(out, x->done);
			fprintf(out, ",\"load_wavefronts\":%u,\"cas_phases\":%u,"
				"\"cas_wavefronts\":%u}", x->load_wavefronts,
				x->cas_phases, x->cas_wavefronts);
		}
		putc(']', out);
	}
	fprintf(out, ",\"addresses\":[");
	for (unsigned l = 0; l < BS_LANES; l++) {
		if (a->active >> l & 1)
			fprintf(out, "%s%u", l ? "," : "", (unsigned)a->addr[l]);
		else
			fprintf(out, "%snull", l ? "," : "");
	}
	fprintf(out, "],\"phases\":[");
	for (unsigned ph = 0; ph < d->nphases; ph++) {
		const bs_phase *f = &d->phase[ph];

		fprintf(out, "%s{\"lanes\":", ph ? "," : "");
		json_lanes(out, f->lanes);
		fprintf(out, ",\"active\":");
		json_lanes(out, f->active);
		fprintf(out, ",\"wavefronts\":%u,\"words\":%u,\"cells\":[",
			f->wavefronts, f->words);
		for (unsigned i = 0; i < f->ncells; i++) {
			const bs_cell *c = &d->cell[f->first_cell + i];

			fprintf(out, "%s{\"wave\":%u,\"bank\":%u,\"word\":%u,"
				"\"lanes\":", i ? "," : "", c->wave, c->bank,
				(unsigned)c->word);
			json_lanes(out, c->lanes);
			putc('}', out);
		}
		fprintf(out, "]}");
	}
	fprintf(out, "]}");
}

/*
 * The map of a remote access: one row per 32-byte sector it touches, the
 * 128-byte line it lies in and the lanes whose bytes fall in it, lowest
 * sector first, as bs_remote_geometry lists them.
 */
static void map_remote(FILE *out, const bs_arch *p, const bs_access *a,
		       const bs_summary *s, int first)
{
	bs_remote g;
	char list[160], esc[BS_NAME_MAX];

	fprintf(out, "%s# access: %s, %u-byte %s, arch %s, another CTA's "
		"shared memory: %u sector%s moved, %u line%s\n",
		first ? "" : "\n\n", name_shown(a->name, esc, sizeof esc),
		a->width, kind_word(a->kind),
		p->name, s->sectors, s->sectors == 1 ? "" : "s", s->lines,
		s->lines == 1 ? "" : "s");
	fprintf(out, "sector,line,byte,first_lane,lane_count,lanes\n");
	if (bs_remote_geometry(a, &g) < 0)
		return;
	for (unsigned i = 0; i < g.sectors; i++) {
		uint32_t lanes = g.sector_lanes[i];

		lane_list(lanes, list, sizeof list);
		fprintf(out, "%u,%u,%u,%u,%u,", (unsigned)g.sector[i],
			(unsigned)g.sector[i] / 4, (unsigned)g.sector[i] * 32,
			(unsigned)__builtin_ctz(lanes),
			(unsigned)__builtin_popcount(lanes));
		csv_field(out, list);
		putc('\n', out);
	}
}

void print_map(FILE *out, const bs_arch *p, const bs_access *a,
	       const bs_detail *d, int first)
{
	const bs_summary *s = &d->sum;
	unsigned base = 0;
	char lanes[160], esc[BS_NAME_MAX];

	if (s->sectors) {
		map_remote(out, p, a, s, first);
		return;
	}
	fprintf(out, "%s# access: %s, %u-byte %s, arch %s, %u wavefront%s, "
		"ideal %u, %u bank conflict%s\n", first ? "" : "\n\n",
		name_shown(a->name, esc, sizeof esc),
		a->width, kind_word(a->kind), p->name, s->wavefronts,
		s->wavefronts == 1 ? "" : "s", s->ideal_wavefronts,
		s->bank_conflicts, s->bank_conflicts == 1 ? "" : "s");
	fprintf(out, "wavefront,phase,bank,word,first_lane,lane_count,lanes\n");
	for (unsigned ph = 0; ph < d->nphases; ph++) {
		const bs_phase *f = &d->phase[ph];

		for (unsigned i = 0; i < f->ncells; i++) {
			const bs_cell *c = &d->cell[f->first_cell + i];

			lane_list(c->lanes, lanes, sizeof lanes);
			fprintf(out, "%u,%u,%u,%u,%u,%u,", base + c->wave, ph,
				c->bank, (unsigned)c->word,
				(unsigned)__builtin_ctz(c->lanes),
				(unsigned)__builtin_popcount(c->lanes));
			csv_field(out, lanes);
			putc('\n', out);
		}
		base += f->slots;
	}
}
