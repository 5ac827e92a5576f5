/*
 * report.c - bankscope report: one page on a measured dataset.
 *
 *   bankscope report [--charts DIR] [--out DIR] [--note TEXT] DATA.csv
 *
 * Reads the dataset once ('-' is stdin) and writes OUT/index.html (one
 * page, its style inline, nothing fetched from elsewhere, so it reads
 * offline) and OUT/report.md (the same content in GitHub Markdown), each
 * through a temporary file renamed at the end.  OUT (default build/report)
 * is made like mkdir -p.  The page holds, in order: the --note line; the
 * dataset and its "# key: value" metadata; the measured rules (bank count
 * and width, phases per width, packing, multicast, stores), each derived
 * from named rows and set beside what the file's profile predicts for the
 * same rows; the least-squares fit (bs_fit_line) of
 * cycles_per_access_median against wavefronts per width, op and packing,
 * over the very points `bankscope check` fits, and the latency model's
 * largest deviation; throughput per width and op; the verdict of
 * predicted against measured and every disagreement, by check's rule
 * (measured wavefronts, or measured conflicts where there are some, off
 * the prediction by more than 1e-6, or a prediction stored in the row
 * stale); the charts.  The profile is the file's "# profile:", else sm_90.
 *
 * Charts: --charts DIR is the folder `make plots` draws into, NAME.png and
 * NAME.svg for each NAME of the charts table below.  Those present are
 * copied into OUT (unless DIR is OUT) and shown, the PNG in the page
 * linking to the SVG, each with one sentence; those absent are named as
 * not drawn.  Without --charts the page says no chart was drawn.
 *
 * Every text that comes from the dataset or --note is escaped: for HTML
 * & < > " ', for Markdown a backslash before \ ` * _ [ ] < > | & ~ #, and
 * line breaks become blanks, so no field can add markup.
 *
 * Exit status: 0 written, whatever the agreement; 2 bad input or usage,
 * or OUT not writable (one message on stderr, naming file, line and
 * column for a malformed dataset).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define DEFAULT_OUT "build/report"
#define PATH_BYTES 4096

static const char report_usage[] =
	"usage: bankscope report [--charts DIR] [--out DIR] [--note TEXT] "
	"DATA.csv\n"
	"\n"
	"Write a report on a measured dataset: OUT/index.html (one page that\n"
	"reads offline) and OUT/report.md (the same in Markdown).  It shows\n"
	"the run's metadata, the rules the rows measure (banks, phases per\n"
	"width, packing, multicast, stores) beside the profile's prediction,\n"
	"the latency fit and throughput per width, every row where measured\n"
	"and predicted disagree, and the charts.\n"
	"\n"
	"  --charts DIR   the charts drawn by make plots (stride.png, .svg,\n"
	"                 ...): copied into OUT and shown (default: none)\n"
	"  --out DIR      where the report goes (default build/report)\n"
	"  --note TEXT    a line at the top of the page\n"
	"\n"
	"DATA '-' reads stdin.  The profile is the file's '# profile:'\n"
	"metadata, else sm_90.\n"
	"\n"
	"Exit status: 0 written (whatever the agreement), 2 bad input or an\n"
	"output that cannot be written.\n";

static const char *const type_name[BS_NWIDTHS] = { "u8", "u16", "f32",
						    "u64", "v4" };
static const unsigned widths[BS_NWIDTHS] = { 1, 2, 4, 8, 16 };
static const char *const op_names[2] = { "ld", "st" };

static const struct chart {
	const char *name, *title, *what;
} charts[] = {
	{ "stride", "Wavefronts and cycles by element stride",
	  "Measured (points) and predicted (steps) wavefronts per load "
	  "against the element stride, one panel per width, with the median "
	  "cycles per access on the right axis." },
	{ "latency", "Latency against wavefronts",
	  "Dependent-chain cycles per load against wavefronts for every "
	  "width and packing, with each group's least-squares line and its "
	  "slope in the key." },
	{ "throughput", "Throughput against conflict degree",
	  "Requested bytes per clock per SM of strided loads and stores "
	  "against the conflict degree, under the 128 B/clk/SM roof of 32 "
	  "banks of 4 bytes (multicast rows left out)." },
	{ "padding", "Padding: structs and tiles",
	  "Wavefronts and cycles of struct-array loads against the padding "
	  "words, one line per struct size, and of 2-D tile rows and columns "
	  "(plain, padded, swizzled) as bars." },
	{ "wide", "Wide accesses",
	  "Measured against predicted wavefronts of every 8- and 16-byte "
	  "case, loads and stores side by side." },
	{ "bankmap-lane2", "Bank map: element stride 2",
	  "Which bank serves which lanes in which wavefront for the 4-byte "
	  "load of index lane*2, as the profile predicts it." },
	{ "bankmap-tile", "Bank map: a tile column",
	  "The same for reading column 0 of a 4-byte tile[32][32]." },
};
#define NCHARTS (sizeof charts / sizeof *charts)

/* ---- the dataset in memory ----------------------------------------------- */

typedef struct {
	bs_row r;
	long line;
	bs_summary s;   /* predicted now under the file's profile */
} item;

typedef struct {
	const char *name;
	const bs_profile *p;
	item *v;
	size_t n, cap;
	bs_meta meta[BS_META_MAX];
	int nmeta;
} data;

static const char *meta(const data *D, const char *key)
{
	for (int i = 0; i < D->nmeta; i++)
		if (!strcmp(D->meta[i].key, key))
			return D->meta[i].value;
	return NULL;
}

static int read_data(data *D, FILE *f, const char *name)
{
	bs_error err;
	bs_dataset *d = bs_dataset_open(f, name, &err);
	const char *prof;
	int rc;

	if (!d)
		return report_error(&err);
	D->name = name;
	for (int i = 0; i < bs_dataset_nmeta(d) && i < BS_META_MAX; i++)
		D->meta[D->nmeta++] = *bs_dataset_meta_at(d, i);
	prof = bs_dataset_meta(d, "profile");
	D->p = prof ? bs_profile_find(prof) : bs_profile_default();
	if (!D->p) {
		bs_error_set(&err, name, 0, 0, "metadata 'profile: %s' names "
			     "no known profile", prof);
		bs_dataset_close(d);
		return report_error(&err);
	}
	for (;;) {
		item *it;

		if (D->n == D->cap) {
			size_t cap = D->cap ? D->cap * 2 : 1024;
			item *nv = realloc(D->v, cap * sizeof *nv);

			if (!nv) {
				bs_dataset_close(d);
				return usage_error("out of memory");
			}
			D->v = nv;
			D->cap = cap;
		}
		it = &D->v[D->n];
		rc = bs_dataset_next(d, &it->r, &err);
		if (rc <= 0)
			break;
		it->line = bs_dataset_line(d);
		if (bs_predict(D->p, &it->r.access, &it->s, &err) < 0) {
			rc = -1;
			break;
		}
		D->n++;
	}
	bs_dataset_close(d);
	return rc < 0 ? report_error(&err) : 0;
}

/* The row named name, of probe `probe` if there is one, else of any. */
static const item *find(const data *D, const char *probe, const char *name)
{
	const item *any = NULL;

	for (size_t i = 0; i < D->n; i++)
		if (!strcmp(D->v[i].r.access.name, name)) {
			if (!strcmp(D->v[i].r.probe, probe))
				return &D->v[i];
			if (!any)
				any = &D->v[i];
		}
	return any;
}

/* Up to 4 decimals, trailing zeros dropped. */
/* ---- writing HTML and Markdown at once ----------------------------------- */

typedef struct {
	FILE *h, *m;
	int cell;       /* inside a table cell */
} doc;

static void html_put(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\n': case '\r': case '\t': putc(' ', f); break;
		default: putc(*s, f);
		}
}

static void md_put(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r' || *s == '\t') {
			putc(' ', f);
			continue;
		}
		if (strchr("\\`*_[]<>|&~#", *s))
			putc('\\', f);
		putc(*s, f);
	}
}

static char *vformat(const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	char *s;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || !(s = malloc((size_t)n + 1)))
		return NULL;
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

/* Literal structure: HTML and Markdown. */
static void raw(doc *d, const char *html, const char *md)
{
	fputs(html, d->h);
	fputs(md, d->m);
}

/* Formatted plain text, escaped for both. */
static void text(doc *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void text(doc *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vformat(fmt, ap);
	va_end(ap);
	if (!s)
		return;
	html_put(d->h, s);
	md_put(d->m, s);
	free(s);
}

/* A code span; in Markdown fenced by one backtick more than s holds. */
static void code(doc *d, const char *s)
{
	int run = 0, most = 0;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > most)
			most = run;
	}
	fputs("<code>", d->h);
	html_put(d->h, s);
	fputs("</code>", d->h);
	for (int i = 0; i <= most; i++)
		putc('`', d->m);
	if (most)
		putc(' ', d->m);
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r' || *s == '\t')
			putc(' ', d->m);
		else if (*s == '|' && d->cell)
			fputs("\\|", d->m);
		else
			putc(*s, d->m);
	}
	if (most)
		putc(' ', d->m);
	for (int i = 0; i <= most; i++)
		putc('`', d->m);
}

static void heading(doc *d, int level, const char *s)
{
	fprintf(d->h, "<h%d>", level);
	html_put(d->h, s);
	fprintf(d->h, "</h%d>\n", level);
	for (int i = 0; i < level; i++)
		putc('#', d->m);
	putc(' ', d->m);
	md_put(d->m, s);
	fputs("\n\n", d->m);
}

static void para_begin(doc *d)
{
	fputs("<p>", d->h);
}

static void para_end(doc *d)
{
	raw(d, "</p>\n", "\n\n");
}

static void table_begin(doc *d, int ncols, const char *const *head)
{
	fputs("<table>\n<thead><tr>", d->h);
	putc('|', d->m);
	for (int i = 0; i < ncols; i++) {
		fputs("<th>", d->h);
		html_put(d->h, head[i]);
		fputs("</th>", d->h);
		putc(' ', d->m);
		md_put(d->m, head[i]);
		fputs(" |", d->m);
	}
	fputs("</tr></thead>\n<tbody>\n", d->h);
	fputs("\n|", d->m);
	for (int i = 0; i < ncols; i++)
		fputs(" --- |", d->m);
	putc('\n', d->m);
}

static void row_begin(doc *d)
{
	raw(d, "<tr>", "|");
}

static void cell_begin(doc *d)
{
	raw(d, "<td>", " ");
	d->cell = 1;
}

static void cell_end(doc *d)
{
	raw(d, "</td>", " |");
	d->cell = 0;
}

static void row_end(doc *d)
{
	raw(d, "</tr>\n", "\n");
}

/* A whole cell of formatted text. */
static void cell(doc *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void cell(doc *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vformat(fmt, ap);
	va_end(ap);
	cell_begin(d);
	if (s) {
		html_put(d->h, s);
		md_put(d->m, s);
		free(s);
	}
	cell_end(d);
}

static void code_cell(doc *d, const char *s)
{
	cell_begin(d);
	code(d, s);
	cell_end(d);
}

static void table_end(doc *d)
{
	raw(d, "</tbody>\n</table>\n", "\n");
}

/* ---- the rules ----------------------------------------------------------- */

/*
 * Wavefronts of the row named name (probe preferred) into *v: measured
 * (m) or predicted.  -1 with the reason in buf when there is no such row
 * or it has no counters.
 */
static int wf(const data *D, const char *probe, const char *name, int m,
	      double *v, char *buf, size_t size)
{
	const item *it = find(D, probe, name);

	if (!it) {
		snprintf(buf, size, "no row %s", name);
		return -1;
	}
	*v = m ? it->r.wavefronts_measured : it->s.wavefronts;
	if (isnan(*v)) {
		snprintf(buf, size, "not measured (%s has no counters)", name);
		return -1;
	}
	return 0;
}

/* The stride at which 4-byte loads first take 32 wavefronts. */
static int banks_of(const data *D, int m, int *banks, char *buf, size_t size)
{
	char name[32];
	double v;

	for (int k = 1; k <= 64; k++) {
		snprintf(name, sizeof name, "f32_ld_s%d", k);
		if (wf(D, "stride", name, m, &v, buf, size) < 0)
			return -1;
		if (v >= BS_LANES) {
			*banks = k;
			return 0;
		}
	}
	snprintf(buf, size, "no 4-byte load up to stride 64 takes 32 "
		 "wavefronts");
	return -1;
}

static void rule_banks(const data *D, int m, char *buf, size_t size)
{
	int banks;

	if (banks_of(D, m, &banks, buf, size) == 0)
		snprintf(buf, size, "%d", banks);
}

static void rule_bank_width(const data *D, int m, char *buf, size_t size)
{
	const item *it = find(D, "stride", "f32_ld_s1");
	double v, bytes;
	char a[32], b[32];
	int banks, lanes = 0;

	if (banks_of(D, m, &banks, buf, size) < 0 ||
	    wf(D, "stride", "f32_ld_s1", m, &v, buf, size) < 0)
		return;
	for (uint32_t rest = it->r.access.active; rest; rest &= rest - 1)
		lanes++;
	bytes = (double)lanes * it->r.access.width / v;
	verdict_num(a, sizeof a, bytes / banks);
	verdict_num(b, sizeof b, bytes);
	snprintf(buf, size, "%s bytes (%s bytes per wavefront)", a, b);
}

static void rule_phases(const data *D, int m, char *buf, size_t size)
{
	char list[128] = "", lanes[128] = "", name[32], a[32];
	size_t nl = 0, nn = 0;
	double v;

	for (int w = 0; w < BS_NWIDTHS; w++) {
		snprintf(name, sizeof name, "%s_ld_s1", type_name[w]);
		if (wf(D, "stride", name, m, &v, buf, size) < 0)
			return;
		verdict_num(a, sizeof a, v);
		nl += (size_t)snprintf(list + nl, sizeof list - nl, "%s%s",
				       w ? ", " : "", a);
		verdict_num(a, sizeof a, BS_LANES / v);
		nn += (size_t)snprintf(lanes + nn, sizeof lanes - nn, "%s%s",
				       w ? ", " : "", a);
	}
	snprintf(buf, size, "%s (%s lanes per phase)", list, lanes);
}

static void rule_packing(const data *D, int m, char *buf, size_t size)
{
	char name[32], a[32], b[32], part[2][96];
	int pack = 0;

	for (int w = 3; w < BS_NWIDTHS; w++) {
		double ld, st;

		snprintf(name, sizeof name, "%s_ld_s0", type_name[w]);
		if (wf(D, "stride", name, m, &ld, buf, size) < 0)
			return;
		snprintf(name, sizeof name, "%s_st_s0", type_name[w]);
		if (wf(D, "stride", name, m, &st, buf, size) < 0)
			return;
		verdict_num(a, sizeof a, ld);
		verdict_num(b, sizeof b, st);
		snprintf(part[w - 3], sizeof part[w - 3],
			 "%u-byte load %s, store %s", widths[w], a, b);
		pack += ld < st;
	}
	snprintf(buf, size, "%s; %s wavefronts: %s", part[0], part[1],
		 pack == 2 ? "loads pack two phases into one, stores do not"
		 : pack ? "only some loads pack" : "no packing");
}

static void rule_multicast(const data *D, int m, char *buf, size_t size)
{
	static const int ks[] = { 2, 4, 8, 16, 32 };
	char name[64], a[32], spread[96] = "", bank[96] = "";
	size_t ns = 0, nb = 0;
	double one, v;
	int shared = 1;

	if (wf(D, "broadcast", "bc_f32_ld_k1", m, &one, buf, size) < 0)
		return;
	shared = one == 1;
	for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
		snprintf(name, sizeof name, "bc_f32_ld_k%d_interleaved_spread",
			 ks[i]);
		if (wf(D, "broadcast", name, m, &v, buf, size) < 0)
			return;
		verdict_num(a, sizeof a, v);
		ns += (size_t)snprintf(spread + ns, sizeof spread - ns, "%s%s",
				       i ? ", " : "", a);
		shared &= v == 1;
		snprintf(name, sizeof name, "bc_f32_ld_k%d_interleaved_bank",
			 ks[i]);
		if (wf(D, "broadcast", name, m, &v, buf, size) < 0)
			return;
		verdict_num(a, sizeof a, v);
		nb += (size_t)snprintf(bank + nb, sizeof bank - nb, "%s%s",
				       i ? ", " : "", a);
		shared &= v == ks[i];
	}
	verdict_num(a, sizeof a, one);
	snprintf(buf, size, "one word for all 32 lanes: %s; k words in k banks "
		 "(k = 2, 4, 8, 16, 32): %s; k words in one bank: %s "
		 "wavefronts: %s", a, spread, bank,
		 shared ? "lanes that read one word share its access, the "
		 "cost is the most distinct words in one bank"
		 : "lanes reading one word do not simply share it");
}

static void rule_stores(const data *D, int m, char *buf, size_t size)
{
	char list[96] = "", name[32], a[32], b[32], c[32];
	size_t nl = 0;
	double v, s32, s0[2], s1[2] = { 0, 0 };

	for (int w = 0; w < BS_NWIDTHS; w++) {
		snprintf(name, sizeof name, "%s_st_s1", type_name[w]);
		if (wf(D, "stride", name, m, &v, buf, size) < 0)
			return;
		if (w >= 3)
			s1[w - 3] = v;
		verdict_num(a, sizeof a, v);
		nl += (size_t)snprintf(list + nl, sizeof list - nl, "%s%s",
				       w ? ", " : "", a);
	}
	if (wf(D, "stride", "f32_st_s32", m, &s32, buf, size) < 0 ||
	    wf(D, "stride", "u64_st_s0", m, &s0[0], buf, size) < 0 ||
	    wf(D, "stride", "v4_st_s0", m, &s0[1], buf, size) < 0)
		return;
	verdict_num(a, sizeof a, s32);
	verdict_num(b, sizeof b, s0[0]);
	verdict_num(c, sizeof c, s0[1]);
	snprintf(buf, size, "phases per width %s; 4-byte stride 32: %s "
		 "wavefronts; one address for all lanes: 8-byte %s, 16-byte "
		 "%s: %s", list, a, b, c,
		 s0[0] == s1[0] && s0[1] == s1[1] ? "stores never pack"
		 : "stores of one address take fewer wavefronts");
}

static const struct rule {
	const char *name;
	void (*eval)(const data *D, int measured, char *buf, size_t size);
	const char *from;
} rules[] = {
	{ "Bank count", rule_banks,
	  "f32_ld_s1 ... f32_ld_s64 (probe stride): the smallest element "
	  "stride at which a 4-byte load takes 32 wavefronts" },
	{ "Bank width", rule_bank_width,
	  "f32_ld_s1: 32 lanes x 4 bytes over the wavefronts it takes, "
	  "divided by the bank count" },
	{ "Phases per width (1, 2, 4, 8, 16 bytes)", rule_phases,
	  "u8_ld_s1, u16_ld_s1, f32_ld_s1, u64_ld_s1, v4_ld_s1: the "
	  "wavefronts of the conflict-free stride-1 load" },
	{ "Packing", rule_packing,
	  "u64_ld_s0 and v4_ld_s0 (every lane one address) against the "
	  "stores u64_st_s0 and v4_st_s0" },
	{ "Multicast", rule_multicast,
	  "bc_f32_ld_k1; bc_f32_ld_k{2,4,8,16,32}_interleaved_spread; "
	  "bc_f32_ld_k{2,4,8,16,32}_interleaved_bank (probe broadcast)" },
	{ "Stores", rule_stores,
	  "u8_st_s1 ... v4_st_s1, f32_st_s32, u64_st_s0, v4_st_s0" },
};

static void write_rules(doc *d, const data *D)
{
	char prof[64];
	const char *head[4] = { "Rule", "Measured", prof, "From rows" };

	snprintf(prof, sizeof prof, "Profile %s predicts", D->p->name);
	heading(d, 2, "Measured rules");
	para_begin(d);
	text(d, "Each rule is read off named rows of the dataset, from their "
	     "measured wavefronts per warp instruction, and derived the same "
	     "way from the wavefronts profile %s predicts for those rows "
	     "(\"same\" where the two agree).", D->p->name);
	para_end(d);
	table_begin(d, 4, head);
	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
		char mv[512], pv[512];

		rules[i].eval(D, 1, mv, sizeof mv);
		rules[i].eval(D, 0, pv, sizeof pv);
		row_begin(d);
		cell(d, "%s", rules[i].name);
		cell(d, "%s", mv);
		cell(d, "%s", strcmp(mv, pv) ? pv : "same");
		cell(d, "%s", rules[i].from);
		row_end(d);
	}
	table_end(d);
}

/* ---- latency and throughput ---------------------------------------------- */

static int write_latency(doc *d, const data *D)
{
	static const char *const head[7] = {
		"Width (bytes)", "Op", "Packed", "n",
		"Slope (cycles per wavefront)", "Intercept (cycles)", "r2" };
	latency_fits fits;
	const item *worst = NULL;
	int any = 0, rc = 0;

	memset(&fits, 0, sizeof fits);
	for (size_t i = 0; i < D->n && !rc; i++) {
		const item *it = &D->v[i];
		int got;

		if (it->r.note[0])
			continue;
		if ((got = fits_add(&fits, &it->r, &it->s)) < 0)
			rc = usage_error("out of memory");
		else if (got)
			worst = it;
	}
	heading(d, 2, "Latency");
	para_begin(d);
	text(d, "Median cycles per access of a dependent chain against "
	     "wavefronts per warp instruction (measured; predicted in rows "
	     "without counters), fitted by least squares per width, op and "
	     "packing (groups of 2 or more timed rows).");
	para_end(d);
	for (int w = 0; w < BS_NWIDTHS && !rc; w++)
		for (int o = 0; o < 2; o++)
			for (int k = 0; k < 2; k++) {
				const fit_series *s = fits_group(&fits, w, o, k);
				bs_fit f;

				if (s->n < 2)
					continue;
				if (!any++)
					table_begin(d, 7, head);
				row_begin(d);
				cell(d, "%u", widths[w]);
				cell(d, "%s", op_names[o]);
				cell(d, "%s", k ? "yes" : "no");
				cell(d, "%zu", s->n);
				if (fits_line(s, &f) < 0) {
					cell(d, "-");
					cell(d, "-");
					cell(d, "-");
				} else {
					cell(d, "%.3f", f.slope);
					cell(d, "%.2f", f.intercept);
					cell(d, "%.4f", f.r2);
				}
				row_end(d);
			}
	if (any)
		table_end(d);
	else if (!rc) {
		para_begin(d);
		text(d, "No width, op and packing has 2 or more timed rows.");
		para_end(d);
	}
	para_begin(d);
	if (worst)
		text(d, "Latency model of profile %s: largest deviation %.2f "
		     "cycles over %zu row%s (worst: line %ld, %s).",
		     D->p->name, fits.lat_max, fits.lat_n,
		     fits.lat_n == 1 ? "" : "s",
		     worst->line, worst->r.access.name);
	else
		text(d, "Latency model: no row has both "
		     "cycles_per_access_median and a latency prediction.");
	para_end(d);
	fits_free(&fits);
	return rc;
}

static int write_throughput(doc *d, const data *D)
{
	static const char *const head[7] = {
		"Width (bytes)", "Op", "n",
		"Stride 1 (bytes per clock per SM)",
		"Wavefronts per clock per SM (median)",
		"Highest (bytes per clock per SM)", "Highest in row" };
	double *v = malloc((D->n ? D->n : 1) * sizeof *v);
	int any = 0;

	if (!v)
		return usage_error("out of memory");
	heading(d, 2, "Throughput");
	para_begin(d);
	text(d, "Every SM running its warps flat out on one access "
	     "(tp_bytes_per_clk_per_sm counts the bytes the lanes request, "
	     "so multicast rows can exceed the 128 bytes 32 banks of 4 bytes "
	     "deliver per clock); stride 1 is the conflict-free load or "
	     "store of probe stride.");
	para_end(d);
	for (int w = 0; w < BS_NWIDTHS; w++)
		for (int o = 0; o < 2; o++) {
			const item *top = NULL, *s1;
			char name[32], a[32];
			size_t n = 0, nwf = 0;
			double med;

			for (size_t i = 0; i < D->n; i++) {
				const bs_row *r = &D->v[i].r;
				double tp = r->tp_bytes_per_clk_per_sm;
				double twf = r->tp_wavefronts_per_clk_per_sm;

				if (r->note[0] || isnan(tp) ||
				    r->access.width != widths[w] ||
				    (int)r->access.op != o)
					continue;
				n++;
				if (!top || tp > top->r.tp_bytes_per_clk_per_sm)
					top = &D->v[i];
				if (!isnan(twf))
					v[nwf++] = twf;
			}
			if (!n)
				continue;
			if (!any++)
				table_begin(d, 7, head);
			snprintf(name, sizeof name, "%s_%s_s1", type_name[w],
				 op_names[o]);
			s1 = find(D, "stride", name);
			row_begin(d);
			cell(d, "%u", widths[w]);
			cell(d, "%s", op_names[o]);
			cell(d, "%zu", n);
			if (s1 && !isnan(s1->r.tp_bytes_per_clk_per_sm))
				cell(d, "%.3f", s1->r.tp_bytes_per_clk_per_sm);
			else
				cell(d, "-");
			if (bs_min_median(v, nwf, NULL, &med) == 0) {
				verdict_num(a, sizeof a, med);
				cell(d, "%s", a);
			} else {
				cell(d, "-");
			}
			cell(d, "%.3f", top->r.tp_bytes_per_clk_per_sm);
			code_cell(d, top->r.access.name);
			row_end(d);
		}
	if (any) {
		table_end(d);
	} else {
		para_begin(d);
		text(d, "No row has a throughput measurement.");
		para_end(d);
	}
	free(v);
	return 0;
}

/* ---- predicted against measured ------------------------------------------ */

/* Why a measured row disagrees, in buf; 0 when it agrees. */
static int disagreement(const item *it, char *buf, size_t size)
{
	const bs_row *r = &it->r;
	const bs_summary *s = &it->s;
	verdict_field f[VERDICT_FIELDS];
	size_t nf = verdict_stale(r, s, f), n = 0;
	int bad = 0;

	buf[0] = '\0';
	if (!verdict_counters_agree(r, s)) {
		n += (size_t)snprintf(buf, size, "counters off the prediction");
		bad = 1;
	}
	for (size_t i = 0; i < nf && n < size; i++) {
		char a[32], b[32];

		verdict_num(a, sizeof a, f[i].stored);
		if (isnan(f[i].now))
			snprintf(b, sizeof b, "not modeled");
		else
			verdict_num(b, sizeof b, f[i].now);
		n += (size_t)snprintf(buf + n, size - n, "%s%s %s stored, "
				      "%s recomputed", n ? "; " : "stale: ",
				      f[i].name, a, b);
		bad = 1;
	}
	return bad;
}

static void write_agreement(doc *d, const data *D)
{
	static const char *const head[6] = {
		"Line", "Row", "Probe, width, op",
		"Measured wavefronts, conflicts",
		"Predicted wavefronts, conflicts", "Why" };
	unsigned long measured = 0, agree = 0, skipped = 0, timing = 0;
	char why[512];

	for (size_t i = 0; i < D->n; i++) {
		const item *it = &D->v[i];

		if (it->r.note[0]) {
			skipped++;
		} else if (isnan(it->r.wavefronts_measured)) {
			timing++;
		} else {
			measured++;
			agree += !disagreement(it, why, sizeof why);
		}
	}
	heading(d, 2, "Predicted against measured");
	para_begin(d);
	text(d, "Every row with counters is predicted again from its own "
	     "addresses under profile %s; it disagrees when its measured "
	     "wavefronts, or its measured bank conflicts, differ from the "
	     "prediction, or when a prediction stored in the row is stale "
	     "(what bankscope check does).", D->p->name);
	para_end(d);
	para_begin(d);
	raw(d, "<strong>", "**");
	if (!measured)
		text(d, "NOT CHECKED: %zu rows, no counters in this dataset",
		     D->n);
	else
		text(d, "%s: %zu rows, %lu agree, %lu disagree",
		     agree == measured ? "AGREES" : "DISAGREES", D->n, agree,
		     measured - agree);
	raw(d, "</strong>", "**");
	text(d, " (%lu measured, %lu skipped for a note, %lu timing only; "
	     "profile %s).", measured, skipped, timing, D->p->name);
	para_end(d);
	if (agree == measured)
		return;
	table_begin(d, 6, head);
	for (size_t i = 0; i < D->n; i++) {
		const item *it = &D->v[i];
		const bs_row *r = &it->r;
		char a[32], b[32];

		if (r->note[0] || isnan(r->wavefronts_measured) ||
		    !disagreement(it, why, sizeof why))
			continue;
		row_begin(d);
		cell(d, "%ld", it->line);
		code_cell(d, r->access.name);
		cell(d, "%s, %u, %s", r->probe, r->access.width,
		     bs_op_name(r->access.op));
		verdict_num(a, sizeof a, r->wavefronts_measured);
		verdict_num(b, sizeof b, r->bank_conflicts_measured);
		cell(d, "%s, %s", a,
		     isnan(r->bank_conflicts_measured) ? "-" : b);
		cell(d, "%u, %u", it->s.wavefronts, it->s.bank_conflicts);
		cell(d, "%s", why);
		row_end(d);
	}
	table_end(d);
}

/* ---- charts -------------------------------------------------------------- */

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out;
	char buf[65536];
	size_t n;
	int rc = 0, werr = 0;

	if (!in)
		return usage_error("%s: cannot open: %s", from,
				   strerror(errno));
	out = fopen(to, "wb");
	if (!out) {
		rc = usage_error("%s: cannot write: %s", to, strerror(errno));
		fclose(in);
		return rc;
	}
	while (!werr && (n = fread(buf, 1, sizeof buf, in)) > 0)
		werr = fwrite(buf, 1, n, out) != n;
	if (ferror(in))
		rc = usage_error("%s: cannot read: %s", from, strerror(errno));
	werr |= ferror(out);
	if ((fclose(out) != 0 || werr) && !rc)
		rc = usage_error("%s: cannot write: %s", to, strerror(errno));
	fclose(in);
	return rc;
}

/* Which charts are there (bit i: charts[i]); copies them into out. */
static int gather_charts(const char *dir, const char *out, unsigned *have,
			 unsigned *svg)
{
	int copy = !same_dir(dir, out);

	*have = *svg = 0;
	for (size_t i = 0; i < NCHARTS; i++)
		for (int k = 0; k < 2; k++) {
			char from[PATH_BYTES], to[PATH_BYTES];
			const char *ext = k ? "svg" : "png";

			snprintf(from, sizeof from, "%s/%s.%s", dir,
				 charts[i].name, ext);
			if (!exists(from))
				continue;
			snprintf(to, sizeof to, "%s/%s.%s", out,
				 charts[i].name, ext);
			if (copy && copy_file(from, to))
				return EXIT_BADINPUT;
			*(k ? svg : have) |= 1u << i;
		}
	*svg &= *have;
	return 0;
}

static void write_charts(doc *d, const char *dir, unsigned have,
			 unsigned svg)
{
	heading(d, 2, "Charts");
	if (!dir) {
		para_begin(d);
		text(d, "No chart was drawn for this report.");
		para_end(d);
		return;
	}
	for (size_t i = 0; i < NCHARTS; i++) {
		const struct chart *c = &charts[i];

		if (!(have >> i & 1))
			continue;
		fprintf(d->h, "<figure id=\"chart-%s\">", c->name);
		if (svg >> i & 1)
			fprintf(d->h, "<a href=\"%s.svg\">", c->name);
		fprintf(d->h, "<img src=\"%s.png\" alt=\"", c->name);
		html_put(d->h, c->title);
		fputs("\">", d->h);
		if (svg >> i & 1)
			fputs("</a>", d->h);
		fputs("<figcaption><strong>", d->h);
		html_put(d->h, c->title);
		fputs(".</strong> ", d->h);
		html_put(d->h, c->what);
		if (svg >> i & 1)
			fprintf(d->h, " (<a href=\"%s.svg\">SVG</a>)",
				c->name);
		fputs("</figcaption></figure>\n", d->h);

		fputs("### ", d->m);
		md_put(d->m, c->title);
		fputs("\n\n", d->m);
		if (svg >> i & 1)
			fprintf(d->m, "[![%s](%s.png)](%s.svg)\n\n", c->title,
				c->name, c->name);
		else
			fprintf(d->m, "![%s](%s.png)\n\n", c->title, c->name);
		md_put(d->m, c->what);
		fputs("\n\n", d->m);
	}
	if (have != (1u << NCHARTS) - 1) {
		int first = 1;

		para_begin(d);
		text(d, "Not drawn (no PNG in %s): ", dir);
		for (size_t i = 0; i < NCHARTS; i++)
			if (!(have >> i & 1)) {
				if (!first)
					text(d, ", ");
				first = 0;
				code(d, charts[i].name);
			}
		text(d, ".");
		para_end(d);
	}
}

/* ---- the page ------------------------------------------------------------ */

static const char style[] =
	"<style>\n"
	"body{font-family:system-ui,sans-serif;max-width:75rem;margin:1rem "
	"auto;padding:0 1rem;line-height:1.45;color:#222}\n"
	"table{border-collapse:collapse;margin:0.5rem 0 1rem}\n"
	"th,td{border:1px solid #bbb;padding:0.2rem 0.5rem;text-align:left;"
	"vertical-align:top}\n"
	"th{background:#eee}\n"
	"code{font-family:monospace,monospace;font-size:90%}\n"
	".note{background:#fff3cd;border:1px solid #e0c36c;padding:0.5rem}\n"
	"figure{margin:1.5rem 0}\n"
	"img{max-width:100%;height:auto;border:1px solid #ddd}\n"
	"</style>\n";

static int write_doc(doc *d, const data *D, const char *note,
		     const char *charts_dir, unsigned have, unsigned svg)
{
	static const char *const mhead[2] = { "Key", "Value" };
	const char *gpu = meta(D, "gpu");
	unsigned long measured = 0;
	char title[600];
	int rc;

	snprintf(title, sizeof title, "bankscope report: %s",
		 gpu ? gpu : "unknown GPU");
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>", d->h);
	html_put(d->h, title);
	fprintf(d->h, "</title>\n%s</head>\n<body>\n", style);
	if (note) {
		raw(d, "<p class=\"note\">", "> ");
		text(d, "%s", note);
		raw(d, "</p>\n", "\n\n");
	}
	heading(d, 1, title);
	for (size_t i = 0; i < D->n; i++)
		measured += !isnan(D->v[i].r.wavefronts_measured);
	para_begin(d);
	text(d, "Dataset ");
	code(d, D->name);
	text(d, ": %zu rows, %lu with counters; predictions by profile %s "
	     "(%s).", D->n, measured, D->p->name, D->p->description);
	para_end(d);

	heading(d, 2, "Device and run");
	if (D->nmeta) {
		table_begin(d, 2, mhead);
		for (int i = 0; i < D->nmeta; i++) {
			row_begin(d);
			code_cell(d, D->meta[i].key);
			cell(d, "%s", D->meta[i].value);
			row_end(d);
		}
		table_end(d);
	} else {
		para_begin(d);
		text(d, "The dataset has no metadata lines.");
		para_end(d);
	}
	write_rules(d, D);
	if ((rc = write_latency(d, D)) != 0 ||
	    (rc = write_throughput(d, D)) != 0)
		return rc;
	write_agreement(d, D);
	write_charts(d, charts_dir, have, svg);
	fputs("</body>\n</html>\n", d->h);
	return 0;
}

static int make_dirs(const char *path)
{
	char buf[PATH_BYTES];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

static FILE *open_tmp(const char *out, const char *file, char *tmp,
		      size_t size)
{
	FILE *f;

	snprintf(tmp, size, "%s/%s.tmp", out, file);
	if (!(f = fopen(tmp, "w")))
		usage_error("%s: cannot write: %s", tmp, strerror(errno));
	return f;
}

/* Close f and rename tmp to out/file; EXIT_BADINPUT after a message. */
static int finish(FILE *f, const char *tmp, const char *out,
		  const char *file)
{
	char path[PATH_BYTES];
	int bad = ferror(f);

	if (fclose(f) != 0 || bad) {
		remove(tmp);
		return usage_error("%s: cannot write: %s", tmp,
				   strerror(errno));
	}
	snprintf(path, sizeof path, "%s/%s", out, file);
	if (rename(tmp, path) != 0) {
		remove(tmp);
		return usage_error("%s: cannot write: %s", path,
				   strerror(errno));
	}
	return 0;
}

static int write_report(const data *D, const char *out, const char *note,
			const char *charts_dir)
{
	char th[PATH_BYTES], tm[PATH_BYTES];
	unsigned have = 0, svg = 0;
	doc d = { NULL, NULL, 0 };
	int rc;

	if (make_dirs(out) < 0)
		return usage_error("%s: cannot make the folder: %s", out,
				   strerror(errno));
	if (charts_dir && (rc = gather_charts(charts_dir, out, &have, &svg)))
		return rc;
	if (!(d.h = open_tmp(out, "index.html", th, sizeof th)))
		return EXIT_BADINPUT;
	if (!(d.m = open_tmp(out, "report.md", tm, sizeof tm))) {
		fclose(d.h);
		remove(th);
		return EXIT_BADINPUT;
	}
	rc = write_doc(&d, D, note, charts_dir, have, svg);
	if (rc) {
		fclose(d.h);
		fclose(d.m);
		remove(th);
		remove(tm);
		return rc;
	}
	rc = finish(d.h, th, out, "index.html");
	if (rc) {
		fclose(d.m);
		remove(tm);
		return rc;
	}
	return finish(d.m, tm, out, "report.md");
}

int cmd_report(int argc, char **argv)
{
	const char *charts_dir = NULL, *out = DEFAULT_OUT, *note = NULL;
	const char *file = NULL;
	data D;
	FILE *f;
	int opts = 1, rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int k = 0;

		if (opts && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			fputs(report_usage, stdout);
			return 0;
		}
		if (opts && !strcmp(a, "--")) {
			opts = 0;
			continue;
		}
		if (opts)
			k = opt_value(argc, argv, &i, "--charts", &charts_dir);
		if (opts && !k)
			k = opt_value(argc, argv, &i, "--out", &out);
		if (opts && !k)
			k = opt_value(argc, argv, &i, "--note", &note);
		if (k < 0)
			return EXIT_BADINPUT;
		if (k)
			continue;
		if (opts && a[0] == '-' && a[1])
			return usage_error("report: unknown option '%s' (try "
					   "bankscope report --help)", a);
		if (file)
			return usage_error("report: one dataset only ('%s' "
					   "and '%s')", file, a);
		file = a;
	}
	if (!file)
		return usage_error("report: no dataset given (try bankscope "
				   "report --help)");
	if (!*out)
		return usage_error("option --out: empty folder name");
	if (charts_dir && !*charts_dir)
		return usage_error("option --charts: empty folder name");
	if (!strcmp(file, "-"))
		f = stdin;
	else if (!(f = fopen(file, "r")))
		return usage_error("%s: cannot open: %s", file,
				   strerror(errno));
	memset(&D, 0, sizeof D);
	rc = read_data(&D, f, f == stdin ? "<stdin>" : file);
	if (f != stdin)
		fclose(f);
	if (!rc)
		rc = write_report(&D, out, note, charts_dir);
	free(D.v);
	return rc;
}
