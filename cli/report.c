/*
 * report.c - bankscope report: one page on a measured dataset.
 *
 *   bankscope report [--arch NAME|FILE] [--charts DIR] [--out DIR]
 *                    [--note TEXT] DATA.csv
 *   bankscope report [--arch NAME|FILE] --plot-data FILE DATA.csv
 *   bankscope report [--arch NAME|FILE] DATA1.csv DATA2.csv...  (compare.c)
 *
 * Reads the dataset once, streamed ('-' is stdin), and writes OUT/index.html
 * (one page, its style inline, nothing fetched from elsewhere, so it reads
 * offline) and OUT/report.md (the same content in GitHub Markdown).  The
 * page holds, in order: the --note line; the dataset and its "# key:
 * value" metadata; the measured rules (bank count and width, phases per
 * width, packing, multicast, stores), each derived from named rows and set
 * beside what the file's profile predicts for the same rows; the
 * least-squares fit (fits.c) of cycles_per_access_median against
 * wavefronts per width, op and packing, over the very points `bankscope
 * check` fits: for loads the latency of a dependent chain, for stores the
 * interval between back-to-back stores (nothing waits for a store); the
 * latency model's largest deviation; throughput per width and op; then,
 * for each group of the other kinds the dataset has rows of (ldmatrix
 * and stmatrix, the shared atomics, cp.async: groups[] below, by the
 * kinds table), a section with, per kind and width, its rows, measured,
 * agreeing, disagreeing and not modeled, the profile's rule beside them,
 * the fit of cycles against wavefronts (a latency for a kind that returns
 * a value, else the interval), the conflict-free throughput with the row
 * it comes from, and, for the kinds the profile has no rule for, their
 * measured ranges; the
 * verdict of predicted against measured and the disagreements, by check's
 * rule (measured wavefronts, or measured conflicts where there are some,
 * off the prediction by more than 1e-6, or a prediction stored in the row
 * stale), the first MAX_LISTED of them listed; the charts.  The profile is
 * the file's "# profile:", else sm_90.  Old datasets wrote the CUDA driver
 * API version as driver_version: without cuda_driver_api_version beside
 * it, the page says the driver was not recorded and shows that value as
 * the API version.
 *
 * Memory does not grow with the dataset: the rows the rules read by name
 * are kept (about 90), the fits are running sums, a throughput median
 * counts distinct values (a kind's conflict-free one keeps the first row
 * of each value), and the disagreements beyond MAX_LISTED are only
 * counted.
 *
 * --plot-data FILE writes no report but FILE, a CSV the kind charts
 * (plots/kinds.gp) read: one row per dataset row with its line, kind,
 * label, group, series (the kind and width's place in its group),
 * whether the kind returns a value and whether the profile models it,
 * the measured figures and the profile's prediction (empty where it has
 * no rule), the profile's name, and the row's name last (a comma in it
 * cannot shift the other columns for gnuplot, which does not read CSV
 * quotes).  It is written beside FILE and renamed over it when whole
 * (bs_output: FILE keeps its mode, a new one gets 0666 less the umask);
 * a device, a FIFO or a symbolic link is written through, never
 * replaced.  A signal removes the temporary.
 *
 * The output folder is replaced whole, never written into: the report is
 * built in a new folder made by mkdtemp beside OUT (".NAME.new-XXXXXX", in
 * OUT's parent), each file created there with O_EXCL|O_NOFOLLOW, and put in
 * OUT's place by renameat2(): RENAME_NOREPLACE when there is no OUT,
 * RENAME_EXCHANGE when there is, after which the previous report (now
 * under the temporary name) is removed.  A reader therefore sees the old
 * report or the new one, never a mix, and two reports into one OUT at
 * once leave one of them whole.  No symbolic link is followed: OUT itself
 * may not be one, and links planted in it are removed with the old folder,
 * never written through.  OUT must be new, empty, or hold only what a
 * report writes (index.html, report.md, the charts' PNG and SVG, and the
 * index.html.tmp and report.md.tmp of earlier versions); anything else is
 * refused with its name, so that --out never deletes a user's files.
 * SIGINT, SIGTERM and SIGHUP remove the temporary folder (then the signal
 * ends the program as it would have); on a file system without
 * renameat2() flags the old folder is moved aside and the new one renamed
 * in, with the same cleanup.
 *
 * Charts: --charts DIR is the folder `make plots` draws into, NAME.png and
 * NAME.svg for each NAME of the charts table below, and not-drawn.txt
 * with a line "NAME: reason" for each chart the data could not support.
 * Those present are copied into the report (regular files only: a
 * symbolic link there is refused) and shown, the PNG in the page linking to
 * the SVG, each with one sentence; the others are named as not drawn, with
 * the reason when not-drawn.txt gives one.  Without --charts the page says
 * no chart was drawn.
 *
 * Every text that comes from the dataset or --note is escaped: for HTML
 * & < > " ', for Markdown a backslash before \ ` * _ [ ] < > | & ~ #, and
 * line breaks become blanks, so no field can add markup.
 *
 * Exit status: 0 written, whatever the agreement; 2 bad input or usage,
 * or OUT not writable (one message on stderr, naming file, line and
 * column for a malformed dataset); killed by the signal that interrupted
 * it.
 */
#define _GNU_SOURCE     /* renameat2 and its flags */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define DEFAULT_OUT "build/report"
#define PATH_BYTES 4096
#define MAX_LISTED 1000         /* disagreeing rows listed on the page */
#define NOT_DRAWN "not-drawn.txt"
#define REASON_BYTES 400

static const char report_usage[] =
	"usage: bankscope report [--arch NAME|FILE] [--charts DIR] [--out DIR]\n"
	"                        [--note TEXT] DATA.csv\n"
	"       bankscope report [--arch NAME|FILE] --plot-data FILE DATA.csv\n"
	"       bankscope report [--arch NAME|FILE] DATA1.csv DATA2.csv...\n"
	"\n"
	"Write a report on a measured dataset: OUT/index.html (one page that\n"
	"reads offline) and OUT/report.md (the same in Markdown).  It shows\n"
	"the run's metadata, the rules the rows measure (banks, phases per\n"
	"width, packing, multicast, stores) beside the profile's prediction,\n"
	"the latency fit and throughput per width, a section for each group\n"
	"of other kinds with rows (ldmatrix and stmatrix, shared atomics,\n"
	"cp.async: agreement, the profile's rule, cycles against wavefronts,\n"
	"conflict-free throughput, and the ranges of kinds it does not\n"
	"model), every row where measured and predicted disagree, and the\n"
	"charts.  Two or more datasets are compared instead, GPU beside GPU,\n"
	"in Markdown on standard output: the rows whose wavefronts differ,\n"
	"and latency and throughput per kind and width (as the browser lab,\n"
	"make web, shows them).\n"
	"\n"
	"  --charts DIR   the charts drawn by make plots (stride.png, .svg,\n"
	"                 ..., and not-drawn.txt): copied into OUT and shown\n"
	"                 (default: none)\n"
	"  --out DIR      where the report goes (default build/report); it is\n"
	"                 replaced as a whole, so it must be new, empty or an\n"
	"                 earlier report\n"
	"  --note TEXT    a line at the top of the page\n"
	"  --plot-data FILE  write no report but FILE: every row with its\n"
	"                 kind's group and the profile's prediction, the CSV\n"
	"                 the kind charts read (make plots writes it)\n"
	"  --arch NAME|FILE  the profile to compare with: a built-in name or a\n"
	"                 profile file (bankscope calibrate makes one)\n"
	"\n"
	"DATA '-' reads stdin.  The profile is --arch, else the file's\n"
	"'# profile:' metadata, else sm_90; a dataset whose GPU has no\n"
	"profile ('# profile: none (sm_89)') needs --arch.\n"
	"\n"
	"Exit status: 0 written (whatever the agreement), 2 bad input or an\n"
	"output that cannot be written.\n";

/*
 * Kinds in groups.  A kind's group is the SASS opcode of its row in the
 * kinds table (kinds.c): LDS and STS are the loads and stores the rules,
 * latency, store and throughput sections read; LDSM and STSM the matrix
 * loads and stores; ATOMS the shared atomics; LDGSTS cp.async.  Each group
 * but the first has a section of its own and a chart (kinds.gp); a kind
 * of an opcode no group names goes to the last, so a new row of the table
 * is reported before anyone writes a section for it.  Within a group, a
 * store is a kind that writes (bs_direction), and cycles are a latency for
 * a kind that returns a value, else an interval.
 */
enum { G_LDST, G_MATRIX, G_ATOMICS, G_CPASYNC, G_OTHER, NGROUPS };

static const struct kind_group {
	const char *id;          /* in the plot data and the chart's name */
	const char *opcode[2];   /* SASS opcodes of its kinds */
	const char *title;       /* its section's heading */
	const char *rows;        /* "ldmatrix or stmatrix rows" */
	const char *model;       /* the section of docs/model.md */
	const char *intro;
} groups[NGROUPS] = {
	{ "ldst", { "LDS", "STS" }, "Loads and stores", "ld or st rows",
	  "Rule 1", NULL },
	{ "matrix", { "LDSM", "STSM" }, "ldmatrix and stmatrix",
	  "ldmatrix or stmatrix rows",
	  "ldmatrix and stmatrix: one phase per matrix",
	  "ldmatrix (LDSM) and stmatrix (STSM) move one 16-byte row per "
	  "address lane: lanes 0-7 give matrix 0's eight rows, 8-15 matrix "
	  "1's, and so on (x1 uses lanes 0-7, x2 lanes 0-15)." },
	{ "atomics", { "ATOMS", NULL }, "Shared atomics",
	  "shared atomic rows",
	  "Shared atomics: every lane's word on its own",
	  "Shared-memory atomics (ATOMS), one 4- or 8-byte word per lane; "
	  "atom.* return the old value, red.* do not." },
	{ "cpasync", { "LDGSTS", NULL }, "cp.async", "cp.async rows",
	  "cp.async: .ca in STS's phases, .cg by lines",
	  "cp.async (LDGSTS) copies from global memory into shared memory; "
	  "the address of a row is the lane's shared destination, and "
	  "nothing comes back to wait for." },
	{ "other", { NULL, NULL }, "Other kinds", "rows of other kinds",
	  "Access kinds",
	  "Kinds of the kinds table that no section above covers." },
};

static int group_of(bs_kind k)
{
	const bs_kind_info *ki = bs_kind_get(k);
	size_t n;

	if (!ki)
		return G_OTHER;
	n = strcspn(ki->sass, ".");
	for (int g = 0; g < G_OTHER; g++)
		for (int i = 0; i < 2; i++)
			if (groups[g].opcode[i] &&
			    strlen(groups[g].opcode[i]) == n &&
			    !strncmp(groups[g].opcode[i], ki->sass, n))
				return g;
	return G_OTHER;
}

static int is_store(bs_kind k)
{
	return bs_kind_get(k)->direction == BS_WRITES;
}

static int returns_value(bs_kind k)
{
	return bs_kind_get(k)->returns;
}

static const struct chart {
	const char *name, *title, *what;
} charts[] = {
	{ "stride", "Wavefronts and cycles by element stride",
	  "Top row: measured (points) and predicted (steps) wavefronts per "
	  "load against the element stride, one panel per width.  Bottom "
	  "row: the median cycles per load of a dependent chain at the same "
	  "strides." },
	{ "latency", "Latency against wavefronts",
	  "Dependent-chain cycles per load against wavefronts for every "
	  "width and packing, with each group's least-squares line and its "
	  "slope in the key." },
	{ "throughput", "Throughput against conflict degree",
	  "Requested bytes per clock per SM of strided loads (left) and "
	  "stores (right) against the conflict degree, under the 128 "
	  "B/clk/SM roof of 32 banks of 4 bytes (multicast rows left out); "
	  "points of different widths that coincide are drawn as nested "
	  "markers." },
	{ "padding", "Padding: structs and tiles",
	  "Wavefronts and cycles of struct-array loads against the padding "
	  "words, one line per struct size (each with its own marker and "
	  "dashes, so that lines that coincide stay visible), and of 2-D "
	  "tile rows and columns (plain, padded, swizzled): their "
	  "wavefronts as bars, their cycles per load below, on their own "
	  "axis." },
	{ "wide", "Wide accesses",
	  "Measured against predicted wavefronts of every 8- and 16-byte "
	  "case, loads and stores side by side; the cases are listed "
	  "below." },
	{ "bankmap-lane2", "Bank map: element stride 2",
	  "Which bank serves which lanes in which wavefront for the 4-byte "
	  "load of index lane*2, as the profile predicts it (a prediction, "
	  "not a measurement)." },
	{ "bankmap-tile", "Bank map: a tile column",
	  "The same for reading column 0 of a 4-byte tile[32][32], "
	  "predicted." },
	{ "kinds-matrix", "ldmatrix and stmatrix",
	  "A row of panels for ldmatrix, which returns the matrix, and one "
	  "for stmatrix, which returns nothing.  Left: the measured "
	  "wavefronts per warp instruction of every row against the "
	  "profile's prediction (on the dashed diagonal where they agree; "
	  "kinds whose points coincide are drawn as nested markers).  Right: "
	  "the median cycles against the wavefronts with each kind's "
	  "least-squares line: the latency of a dependent chain for "
	  "ldmatrix, the interval between back-to-back instructions for "
	  "stmatrix.  The legend under each row gives each kind's rows, how "
	  "many lie on the diagonal, and its line." },
	{ "kinds-atomics", "Shared atomics",
	  "The same for the shared atomics: a row for atom.*, which return "
	  "the old value (latency), one for red.*, which return nothing "
	  "(interval), and, apart at the bottom, the kinds the profile does "
	  "not model: their cycles against their measured wavefronts, with "
	  "no line, since no rule predicts them." },
	{ "kinds-cpasync", "cp.async",
	  "The same for cp.async, one marker per kind and width; its cycles "
	  "are the interval between back-to-back copies, since nothing comes "
	  "back.  The kinds the profile does not model are drawn apart at "
	  "the bottom." },
};
#define NCHARTS (sizeof charts / sizeof *charts)


/* ---- what the report keeps of the dataset -------------------------------- */

typedef struct {
	bs_row r;
	long line;
	bs_summary s;   /* predicted now under the file's profile */
} item;

/*
 * The rows the rules and the throughput table read by name: the first row
 * of that name in the preferred probe, else the first of any probe.
 */
#define NWANT_MAX 128
typedef struct {
	char name[BS_NAME_MAX];
	const char *probe;
	int have_probe, have_any;
	item probe_row, any_row;
} wanted;

/* Distinct values with their counts, hashed: an exact median in memory
 * that grows with the distinct values, not with the rows.  A named tally
 * keeps, for each value, the first row that had it. */
typedef struct {
	double *v;
	size_t *count;          /* 0: an empty slot */
	size_t used, cap, total;
	int named;
	char (*name)[BS_NAME_MAX];
	long *line;
} tally;

/* One disagreeing row, as listed. */
typedef struct {
	long line;
	char name[BS_NAME_MAX];
	char probe[32];
	unsigned width;
	const char *op;
	double wf_measured, conflicts_measured;
	unsigned wf_predicted, conflicts_predicted;
	char *why;
} listed;

typedef struct {
	size_t n;                       /* rows with a throughput, no note */
	char top_name[BS_NAME_MAX];
	double top;
	tally wf;                       /* tp_wavefronts_per_clk_per_sm */
} tp_group;

/* The smallest and largest of the values seen (n of them). */
typedef struct {
	size_t n;
	double lo, hi;
} range;

/* What the kind sections show of one (kind, width). */
typedef struct {
	unsigned long rows, measured, agree, disagree, not_modeled;
	range wf, bc, cycles, tp;       /* measured, rows without a note */
	tally free_tp;                  /* tp of the conflict-free rows */
} kind_stats;

typedef struct {
	const char *name;
	const bs_arch *p;
	bs_meta meta[BS_META_MAX];
	int nmeta;
	size_t n;                       /* rows */
	unsigned long with_counters, measured, agree, skipped, timing;
	wanted want[NWANT_MAX];
	int nwant;
	latency_fits fits;
	long worst_line;
	char worst_name[BS_NAME_MAX];
	tp_group tp[BS_NWIDTHS][BS_MAX_KINDS];
	kind_stats ks[BS_MAX_KINDS][BS_NWIDTHS];
	unsigned groups_seen;           /* bit g: rows of groups[g] */
	FILE *plot;                     /* --plot-data, or NULL */
	listed *list;
	size_t nlisted;
	unsigned long not_modeled;      /* rows of kinds without a rule */
	uint32_t not_modeled_kinds;     /* bit k: kind k had such rows */
} data;

static const char *meta(const data *D, const char *key)
{
	for (int i = 0; i < D->nmeta; i++)
		if (!strcmp(D->meta[i].key, key))
			return D->meta[i].value;
	return NULL;
}

static void want(data *D, const char *probe, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void want(data *D, const char *probe, const char *fmt, ...)
{
	va_list ap;
	wanted *w;

	if (D->nwant == NWANT_MAX)
		return;
	w = &D->want[D->nwant++];
	va_start(ap, fmt);
	vsnprintf(w->name, sizeof w->name, fmt, ap);
	va_end(ap);
	w->probe = probe;
}

/* Every row name the rules (below) and the throughput table read. */
static void want_all(data *D)
{
	static const int ks[] = { 2, 4, 8, 16, 32 };

	for (int k = 1; k <= 64; k++)
		want(D, "stride", "f32_ld_s%d", k);
	for (int w = 0; w < BS_NWIDTHS; w++)
		for (bs_kind o = 0; o < bs_kind_count(); o++)
			if (group_of(o) == G_LDST && (w != 2 || o != BS_KIND_LD))
				want(D, "stride", "%s_%s_s1", bs_type_name[w],
				     bs_kind_name(o));
	for (int w = 3; w < BS_NWIDTHS; w++)
		for (bs_kind o = 0; o < bs_kind_count(); o++)
			if (group_of(o) == G_LDST)
				want(D, "stride", "%s_%s_s0", bs_type_name[w],
				     bs_kind_name(o));
	want(D, "stride", "f32_st_s32");
	want(D, "broadcast", "bc_f32_ld_k1");
	for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
		want(D, "broadcast", "bc_f32_ld_k%d_interleaved_spread", ks[i]);
		want(D, "broadcast", "bc_f32_ld_k%d_interleaved_bank", ks[i]);
	}
}

static void keep_wanted(data *D, const item *it)
{
	for (int i = 0; i < D->nwant; i++) {
		wanted *w = &D->want[i];

		if (strcmp(w->name, it->r.access.name))
			continue;
		if (!w->have_probe && !strcmp(it->r.probe, w->probe)) {
			w->probe_row = *it;
			w->have_probe = 1;
		}
		if (!w->have_any) {
			w->any_row = *it;
			w->have_any = 1;
		}
		return;
	}
}

/* The row named name, of probe `probe` if there is one, else of any. */
static const item *find(const data *D, const char *probe, const char *name)
{
	for (int i = 0; i < D->nwant; i++) {
		const wanted *w = &D->want[i];

		if (strcmp(w->name, name))
			continue;
		if (w->have_probe && !strcmp(w->probe, probe))
			return &w->probe_row;
		return w->have_any ? &w->any_row : NULL;
	}
	return NULL;
}

static size_t tally_slot(const tally *t, double v)
{
	uint64_t h;

	memcpy(&h, &v, sizeof h);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1))
		if (!t->count[i] || t->v[i] == v)
			return i;
}

static void tally_free(tally *t)
{
	free(t->v);
	free(t->count);
	free(t->name);
	free(t->line);
	memset(t, 0, sizeof *t);
}

/* Add v (seen in row `name` at line `line` of the dataset: a named
 * tally keeps the first); -1 out of memory. */
static int tally_add_row(tally *t, double v, const char *name, long line)
{
	size_t i;

	if (v == 0)
		v = 0;          /* -0 and 0 are one value */
	if (2 * (t->used + 1) > t->cap) {
		tally g = { NULL, NULL, 0, t->cap ? 2 * t->cap : 64, t->total,
			    t->named, NULL, NULL };

		g.v = malloc(g.cap * sizeof *g.v);
		g.count = calloc(g.cap, sizeof *g.count);
		if (g.named) {
			g.name = malloc(g.cap * sizeof *g.name);
			g.line = malloc(g.cap * sizeof *g.line);
		}
		if (!g.v || !g.count || (g.named && (!g.name || !g.line))) {
			tally_free(&g);
			return -1;
		}
		for (size_t k = 0; k < t->cap; k++)
			if (t->count[k]) {
				i = tally_slot(&g, t->v[k]);
				g.v[i] = t->v[k];
				g.count[i] = t->count[k];
				if (g.named) {
					memcpy(g.name[i], t->name[k],
					       sizeof g.name[i]);
					g.line[i] = t->line[k];
				}
				g.used++;
			}
		tally_free(t);
		*t = g;
	}
	i = tally_slot(t, v);
	if (!t->count[i]) {
		t->v[i] = v;
		t->used++;
		if (t->named) {
			snprintf(t->name[i], sizeof t->name[i], "%s",
				 name ? name : "");
			t->line[i] = line;
		}
	}
	t->count[i]++;
	t->total++;
	return 0;
}

static int tally_add(tally *t, double v)
{
	return tally_add_row(t, v, NULL, 0);
}

typedef struct {
	double v;
	size_t count, slot;
} tally_entry;

static int cmp_entry(const void *pa, const void *pb)
{
	double a = ((const tally_entry *)pa)->v, b = ((const tally_entry *)pb)->v;

	return (a > b) - (a < b);
}

/*
 * The median as bs_min_median() gives it (the mean of the middle two for
 * an even count), and the slots of the values it comes from (*lo_slot ==
 * *hi_slot for an odd count, or when the middle two are one value); -1
 * when there is no value or no memory.
 */
static int tally_middle(const tally *t, double *median, size_t *lo_slot,
			size_t *hi_slot)
{
	tally_entry *e;
	size_t n = 0, k = t->total / 2, below = 0, ls = 0, hs = 0;
	double lo = NAN, hi = NAN;

	if (!t->total || !(e = malloc(t->used * sizeof *e)))
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->count[i])
			e[n++] = (tally_entry){ t->v[i], t->count[i], i };
	qsort(e, n, sizeof *e, cmp_entry);
	/* hi: the value at rank k (0-based); lo: the one at rank k - 1. */
	for (size_t i = 0; i < n; i++) {
		if (k >= 1 && below <= k - 1 && k - 1 < below + e[i].count) {
			lo = e[i].v;
			ls = e[i].slot;
		}
		if (below <= k && k < below + e[i].count) {
			hi = e[i].v;
			hs = e[i].slot;
			break;
		}
		below += e[i].count;
	}
	free(e);
	*median = t->total % 2 ? hi : (lo + hi) / 2;
	if (lo_slot)
		*lo_slot = t->total % 2 ? hs : ls;
	if (hi_slot)
		*hi_slot = hs;
	return 0;
}

static int tally_median(const tally *t, double *median)
{
	return tally_middle(t, median, NULL, NULL);
}

static int disagreement(const item *it, char *buf, size_t size);

static void range_add(range *g, double v)
{
	if (isnan(v))
		return;
	if (!g->n++) {
		g->lo = g->hi = v;
		return;
	}
	if (v < g->lo)
		g->lo = v;
	if (v > g->hi)
		g->hi = v;
}

/* Every address lane of the kind active, each at an address of its own. */
static int full_distinct(const bs_access *a)
{
	uint32_t lanes = bs_kind_get(a->kind)->addr_lanes;

	if (a->active != lanes)
		return 0;
	for (unsigned l = 0; l < BS_LANES; l++)
		for (unsigned m = l + 1; (lanes >> l & 1) && m < BS_LANES; m++)
			if ((lanes >> m & 1) && a->addr[l] == a->addr[m])
				return 0;
	return 1;
}

/*
 * One row into its (kind, width)'s figures.  judged: 1 the row agrees
 * with the profile, 0 it disagrees, -1 it was not judged (a note, no
 * counters, or no rule: modeled 0).  The conflict-free rows, whose
 * throughput the kind sections give, have every address lane of the
 * kind active at distinct addresses and measured wavefronts equal to the
 * profile's ideal (and no measured conflict).
 */
static int take_kind(data *D, const item *it, int modeled, int judged)
{
	const bs_row *r = &it->r;
	kind_stats *k = &D->ks[r->access.kind][bs_width_index(r->access.width)];

	D->groups_seen |= 1u << group_of(r->access.kind);
	k->rows++;
	if (!modeled)
		k->not_modeled++;
	if (r->note[0])
		return 0;
	k->measured += !isnan(r->wavefronts_measured);
	k->agree += judged == 1;
	k->disagree += judged == 0;
	range_add(&k->wf, r->wavefronts_measured);
	range_add(&k->bc, r->bank_conflicts_measured);
	range_add(&k->cycles, r->cycles_per_access_median);
	range_add(&k->tp, r->tp_bytes_per_clk_per_sm);
	if (!modeled || isnan(r->tp_bytes_per_clk_per_sm) ||
	    r->wavefronts_measured != it->s.ideal_wavefronts ||
	    !(isnan(r->bank_conflicts_measured) ||
	      r->bank_conflicts_measured == 0) || !full_distinct(&r->access))
		return 0;
	k->free_tp.named = 1;
	return tally_add_row(&k->free_tp, r->tp_bytes_per_clk_per_sm,
			     r->access.name, it->line);
}

/* One row into the running figures; *judged as take_kind() takes it;
 * -1 out of memory. */
static int take_row(data *D, const item *it, int *judged)
{
	const bs_row *r = &it->r;
	char why[512];
	int got;

	*judged = -1;
	D->n++;
	D->with_counters += !isnan(r->wavefronts_measured);
	keep_wanted(D, it);
	if (r->note[0]) {
		D->skipped++;
		return 0;
	}
	if (isnan(r->wavefronts_measured)) {
		D->timing++;
	} else {
		D->measured++;
		*judged = !disagreement(it, why, sizeof why);
		if (*judged) {
			D->agree++;
		} else if (D->nlisted < MAX_LISTED) {
			listed *l;

			if (!D->list && !(D->list = calloc(MAX_LISTED,
							   sizeof *D->list)))
				return -1;
			l = &D->list[D->nlisted];
			l->line = it->line;
			snprintf(l->name, sizeof l->name, "%s", r->access.name);
			snprintf(l->probe, sizeof l->probe, "%s", r->probe);
			l->width = r->access.width;
			l->op = bs_kind_name(r->access.kind);
			l->wf_measured = r->wavefronts_measured;
			l->conflicts_measured = r->bank_conflicts_measured;
			l->wf_predicted = it->s.wavefronts;
			l->conflicts_predicted = it->s.bank_conflicts;
			if (!(l->why = strdup(why)))
				return -1;
			D->nlisted++;
		}
	}
	if ((got = fits_add(&D->fits, r, &it->s)) < 0)
		return -1;
	if (got) {
		D->worst_line = it->line;
		snprintf(D->worst_name, sizeof D->worst_name, "%s",
			 r->access.name);
	}
	if (!isnan(r->tp_bytes_per_clk_per_sm)) {
		int w = bs_width_index(r->access.width);
		tp_group *g = &D->tp[w][r->access.kind];

		if (!g->n++ || r->tp_bytes_per_clk_per_sm > g->top) {
			g->top = r->tp_bytes_per_clk_per_sm;
			snprintf(g->top_name, sizeof g->top_name, "%s",
				 r->access.name);
		}
		if (!isnan(r->tp_wavefronts_per_clk_per_sm) &&
		    tally_add(&g->wf, r->tp_wavefronts_per_clk_per_sm) < 0)
			return -1;
	}
	return 0;
}

/* ---- the plot data (--plot-data) ----------------------------------------- */

/*
 * A (kind, width)'s place in its group, 1-based: the kinds of the group
 * in table order, each with the widths it allows in increasing order.
 * Charts give each its marker by it, so a kind keeps its marker from one
 * dataset to the next.
 */
static unsigned series_of(bs_kind kind, unsigned width)
{
	unsigned n = 0;
	int g = group_of(kind);

	for (bs_kind k = 0; k < bs_kind_count(); k++) {
		if (group_of(k) != g)
			continue;
		for (int w = 0; w < BS_NWIDTHS; w++)
			if (bs_kind_allows_width(k, bs_widths[w])) {
				n++;
				if (k == kind && bs_widths[w] == width)
					return n;
			}
	}
	return 0;
}

/* "ldsm.x4"; "cp.async.ca 16 B" for a kind of several widths. */
static void kind_label(char *buf, size_t size, bs_kind k, unsigned width)
{
	if (__builtin_popcount(bs_kind_get(k)->widths) > 1)
		snprintf(buf, size, "%s %u B", bs_kind_name(k), width);
	else
		snprintf(buf, size, "%s", bs_kind_name(k));
}

static const char plot_header[] =
	"line,kind,label,group,series,width,returns,modeled,noted,"
	"active_lanes,wavefronts_measured,bank_conflicts_measured,"
	"wavefronts_predicted,ideal_wavefronts_predicted,packed_predicted,"
	"cycles_per_access_median,latency_cycles_predicted,"
	"tp_bytes_per_clk_per_sm,profile,name\n";

static void plot_num(FILE *f, double v)
{
	if (isnan(v))
		fputs(",", f);
	else
		fprintf(f, ",%.10g", v);
}

static void plot_begin(data *D)
{
	const char *gpu = meta(D, "gpu");

	fprintf(D->plot, "# what: the rows of %s, each with its kind's group "
		"and the prediction of profile %s (empty where it has no rule); "
		"bankscope report --plot-data wrote it for make plots\n",
		D->name, D->p->name);
	fprintf(D->plot, "# profile: %s\n", D->p->name);
	if (gpu && !strchr(gpu, '\n'))
		fprintf(D->plot, "# gpu: %s\n", gpu);
	fputs(plot_header, D->plot);
}

static void plot_row(data *D, const item *it, int modeled)
{
	const bs_row *r = &it->r;
	bs_kind k = r->access.kind;
	char label[BS_NAME_MAX];

	kind_label(label, sizeof label, k, r->access.width);
	fprintf(D->plot, "%ld,%s,%s,%s,%u,%u,%u,%d,%d,%u", it->line,
		bs_kind_name(k), label, groups[group_of(k)].id,
		series_of(k, r->access.width), r->access.width,
		(unsigned)returns_value(k), modeled, r->note[0] != '\0',
		(unsigned)__builtin_popcount(r->access.active));
	plot_num(D->plot, r->wavefronts_measured);
	plot_num(D->plot, r->bank_conflicts_measured);
	plot_num(D->plot, modeled ? it->s.wavefronts : NAN);
	plot_num(D->plot, modeled ? it->s.ideal_wavefronts : NAN);
	plot_num(D->plot, modeled ? it->s.packed : NAN);
	plot_num(D->plot, r->cycles_per_access_median);
	plot_num(D->plot, modeled ? it->s.latency_cycles : NAN);
	plot_num(D->plot, r->tp_bytes_per_clk_per_sm);
	fprintf(D->plot, ",%s,", D->p->name);
	bs_csv_field(D->plot, r->access.name);
	fputc('\n', D->plot);
}

/* Stream the dataset d into D, under arch or the file's profile. */
static int read_data(data *D, bs_dataset *d, const char *name,
		     const bs_arch *arch)
{
	bs_error err;
	const char *prof;
	item it;
	int rc;

	D->name = name;
	for (int i = 0; i < bs_dataset_nmeta(d) && i < BS_META_MAX; i++)
		D->meta[D->nmeta++] = *bs_dataset_meta_at(d, i);
	prof = bs_dataset_meta(d, "profile");
	D->p = arch ? arch : prof ? bs_arch_find(prof)
				  : bs_arch_default();
	if (!D->p && !strncmp(prof, "none", 4)) {
		bs_error_set(&err, name, 0, 0, "metadata 'profile: %s': no "
			     "profile covers this GPU; derive one with "
			     "bankscope calibrate and give it with --arch",
			     prof);
		return report_error(&err);
	}
	if (!D->p) {
		bs_error_set(&err, name, 0, 0, "metadata 'profile: %s' names "
			     "no known profile (give --arch)", prof);
		return report_error(&err);
	}
	want_all(D);
	if (D->plot)
		plot_begin(D);
	while ((rc = bs_dataset_next(d, &it.r, &err)) > 0) {
		int modeled = bs_arch_rule(D->p, it.r.access.kind,
					      it.r.access.width) != NULL;
		int judged = -1;

		it.line = bs_dataset_line(d);
		memset(&it.s, 0, sizeof it.s);
		if (!modeled) {
			/* measured, not judged: the profile has no rule */
			D->n++;
			D->not_modeled++;
			D->not_modeled_kinds |= 1u << it.r.access.kind;
		} else if (bs_predict(D->p, &it.r.access, &it.s, &err) < 0) {
			rc = -1;
			break;
		} else if (take_row(D, &it, &judged) < 0) {
			return usage_error("out of memory");
		}
		if (take_kind(D, &it, modeled, judged) < 0)
			return usage_error("out of memory");
		if (D->plot)
			plot_row(D, &it, modeled);
	}
	return rc < 0 ? report_error(&err) : 0;
}

static void data_free(data *D)
{
	for (size_t i = 0; i < D->nlisted; i++)
		free(D->list[i].why);
	free(D->list);
	for (int w = 0; w < BS_NWIDTHS; w++)
		for (int k = 0; k < BS_MAX_KINDS; k++) {
			tally_free(&D->tp[w][k].wf);
			tally_free(&D->ks[k][w].free_tp);
		}
	fits_free(&D->fits);
}

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
		snprintf(name, sizeof name, "%s_ld_s1", bs_type_name[w]);
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

		snprintf(name, sizeof name, "%s_ld_s0", bs_type_name[w]);
		if (wf(D, "stride", name, m, &ld, buf, size) < 0)
			return;
		snprintf(name, sizeof name, "%s_st_s0", bs_type_name[w]);
		if (wf(D, "stride", name, m, &st, buf, size) < 0)
			return;
		verdict_num(a, sizeof a, ld);
		verdict_num(b, sizeof b, st);
		snprintf(part[w - 3], sizeof part[w - 3],
			 "%u-byte load %s, store %s", bs_widths[w], a, b);
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
		snprintf(name, sizeof name, "%s_st_s1", bs_type_name[w]);
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

/* The fit table of loads (stores 0) or stores (1); whether it had a row. */
static int write_fits(doc *d, const data *D, int stores)
{
	static const char *const load_head[7] = {
		"Width (bytes)", "Op", "Packed", "n",
		"Slope (cycles per wavefront)", "Intercept (cycles)", "r2" };
	static const char *const store_head[7] = {
		"Width (bytes)", "Op", "Packed", "n",
		"Slope (cycles of interval per wavefront)",
		"Intercept (cycles, extrapolated to 0 wavefronts)", "r2" };
	int any = 0;

	for (int w = 0; w < BS_NWIDTHS; w++)
		for (bs_kind o = 0; o < bs_kind_count(); o++)
			for (int k = 0; k < 2; k++) {
				const fit_series *s = fits_group(&D->fits, w,
								 o, k);
				bs_fit f;

				if (s->n < 2 || group_of(o) != G_LDST ||
				    is_store(o) != stores)
					continue;
				if (!any++)
					table_begin(d, 7, stores ? store_head
								 : load_head);
				row_begin(d);
				cell(d, "%u", bs_widths[w]);
				cell(d, "%s", bs_kind_name(o));
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
	return any;
}

static void write_latency(doc *d, const data *D)
{
	heading(d, 2, "Latency of loads");
	para_begin(d);
	text(d, "Median cycles per load of a dependent chain (each load waits "
	     "for the one before it) against wavefronts per warp instruction "
	     "(measured; predicted in rows without counters), fitted by least "
	     "squares per width and packing (groups of 2 or more timed "
	     "rows).");
	para_end(d);
	if (!write_fits(d, D, 0)) {
		para_begin(d);
		text(d, "No width and packing has 2 or more timed loads.");
		para_end(d);
	}
	para_begin(d);
	if (D->fits.lat_n)
		text(d, "Latency model of profile %s: largest deviation %.2f "
		     "cycles over %zu row%s (worst: line %ld, %s).",
		     D->p->name, D->fits.lat_max, D->fits.lat_n,
		     D->fits.lat_n == 1 ? "" : "s", D->worst_line,
		     D->worst_name);
	else
		text(d, "Latency model: no row has both "
		     "cycles_per_access_median and a latency prediction.");
	para_end(d);

	heading(d, 2, "Stores: interval between back-to-back stores");
	para_begin(d);
	text(d, "Nothing waits for a store, so a store has no latency to "
	     "measure: the cycles per access of a store row are the interval "
	     "at which one warp issues back-to-back stores to the same "
	     "address.  The same least-squares fit against wavefronts, per "
	     "width; the profile predicts no store timing.");
	para_end(d);
	if (!write_fits(d, D, 1)) {
		para_begin(d);
		text(d, "No width has 2 or more timed stores.");
		para_end(d);
	}
}

static int write_throughput(doc *d, const data *D)
{
	static const char *const head[7] = {
		"Width (bytes)", "Op", "n",
		"Stride 1 (bytes per clock per SM)",
		"Wavefronts per clock per SM (median)",
		"Highest (bytes per clock per SM)", "Highest in row" };
	int any = 0;

	heading(d, 2, "Throughput");
	para_begin(d);
	text(d, "Every SM running its warps flat out on one access "
	     "(tp_bytes_per_clk_per_sm counts the bytes the lanes request, "
	     "so multicast rows can exceed the 128 bytes 32 banks of 4 bytes "
	     "deliver per clock); stride 1 is the conflict-free load or "
	     "store of probe stride.");
	para_end(d);
	for (int w = 0; w < BS_NWIDTHS; w++)
		for (bs_kind o = 0; o < bs_kind_count(); o++) {
			const tp_group *g = &D->tp[w][o];
			const item *s1;
			char name[32], a[32];
			double med;

			if (!g->n || group_of(o) != G_LDST)
				continue;
			if (!any++)
				table_begin(d, 7, head);
			snprintf(name, sizeof name, "%s_%s_s1", bs_type_name[w],
				 bs_kind_name(o));
			s1 = find(D, "stride", name);
			row_begin(d);
			cell(d, "%u", bs_widths[w]);
			cell(d, "%s", bs_kind_name(o));
			cell(d, "%zu", g->n);
			if (s1 && !isnan(s1->r.tp_bytes_per_clk_per_sm))
				cell(d, "%.3f", s1->r.tp_bytes_per_clk_per_sm);
			else
				cell(d, "-");
			if (g->wf.total && tally_median(&g->wf, &med) < 0)
				return usage_error("out of memory");
			if (g->wf.total) {
				verdict_num(a, sizeof a, med);
				cell(d, "%s", a);
			} else {
				cell(d, "-");
			}
			cell(d, "%.3f", g->top);
			code_cell(d, g->top_name);
			row_end(d);
		}
	if (any) {
		table_end(d);
	} else {
		para_begin(d);
		text(d, "No row has a throughput measurement.");
		para_end(d);
	}
	return 0;
}

/* ---- the kind sections ---------------------------------------------------- */

/* "3 - 592", "3" when every value was one, "-" when there was none. */
static void range_text(char *buf, size_t size, const range *g)
{
	char a[32], b[32];

	if (!g->n) {
		snprintf(buf, size, "-");
		return;
	}
	verdict_num(a, sizeof a, g->lo);
	verdict_num(b, sizeof b, g->hi);
	if (g->lo == g->hi)
		snprintf(buf, size, "%s", a);
	else
		snprintf(buf, size, "%s - %s", a, b);
}

void report_rule_text(char *buf, size_t size, const bs_arch *p,
		      const bs_rule *r)
{
	size_t n = (size_t)snprintf(buf, size, "phase=%u", r->phase_lanes);

	if (r->packed_lanes && n < size) {
		char pt[BS_PARTNERS_TEXT_MAX];

		n += (size_t)snprintf(buf + n, size - n, " packed=%u partners=%s",
				      r->packed_lanes,
				      bs_partners_text(r->pack_partners, pt));
	}
	if (n < size)
		snprintf(buf + n, size - n, " same_word=%s slot_waves=%u "
			 "ideal=%s%s%s source=%s",
			 bs_same_word_name(r->same_word),
			 r->slot_waves ? r->slot_waves : 1,
			 bs_ideal_name(r->ideal), r->loop ? " loop=cas" : "",
			 r->copy ? " copy=lines" : "",
			 r->source < p->nsources ? p->source[r->source].tag
						 : "?");
}

/* The (kind, width)s of group g with rows, in table order; k < 0 ends. */
static int next_kind(const data *D, int g, int *k, int *w)
{
	for (;;) {
		if (++*w == BS_NWIDTHS) {
			*w = 0;
			++*k;
		}
		if ((unsigned)*k >= bs_kind_count())
			return 0;
		if (group_of((bs_kind)*k) == g && D->ks[*k][*w].rows)
			return 1;
	}
}

#define EACH_KIND(D, g, k, w) \
	for (int k = 0, w = -1; next_kind(D, g, &k, &w);)

static void write_kind_rules(doc *d, const data *D, int g)
{
	char prof[96];
	const char *head[8] = { "Kind", "Width (bytes)", "Rows", "Measured",
				"Agree", "Disagree", "Not modeled", prof };
	unsigned used = 0;

	snprintf(prof, sizeof prof, "Rule of profile %s", D->p->name);
	table_begin(d, 8, head);
	EACH_KIND(D, g, k, w) {
		const kind_stats *ks = &D->ks[k][w];
		const bs_rule *r = bs_arch_rule(D->p, (bs_kind)k,
						   bs_widths[w]);
		char rule[REPORT_RULE_TEXT_MAX];

		row_begin(d);
		code_cell(d, bs_kind_name((bs_kind)k));
		cell(d, "%u", bs_widths[w]);
		cell(d, "%lu", ks->rows);
		cell(d, "%lu", ks->measured);
		if (r) {
			cell(d, "%lu", ks->agree);
			cell(d, "%lu", ks->disagree);
			cell(d, "0");
			report_rule_text(rule, sizeof rule, D->p, r);
			code_cell(d, rule);
			if (r->source < 32)
				used |= 1u << r->source;
		} else {
			cell(d, "-");
			cell(d, "-");
			cell(d, "%lu", ks->not_modeled);
			cell(d, "none: not modeled");
		}
		row_end(d);
	}
	table_end(d);
	for (unsigned i = 0; i < D->p->nsources && i < 32; i++)
		if (used >> i & 1) {
			para_begin(d);
			text(d, "Source ");
			code(d, D->p->source[i].tag);
			text(d, ": %s.", D->p->source[i].text);
			para_end(d);
		}
}

static void write_kind_timing(doc *d, const data *D, int g)
{
	char prof[96];
	const char *head[8] = { "Kind", "Width (bytes)", "Cycles are", "n",
				"Slope (cycles per wavefront)",
				"Intercept (cycles)", "r2", prof };
	int any = 0;

	snprintf(prof, sizeof prof, "Profile %s predicts", D->p->name);
	EACH_KIND(D, g, k, w) {
		const bs_rule *r = bs_arch_rule(D->p, (bs_kind)k,
						   bs_widths[w]);
		int ret = returns_value((bs_kind)k);

		for (int pk = 0; r && pk < 2; pk++) {
			const fit_series *s = fits_group(&D->fits, w, k, pk);
			char a[32], b[32], c[96];
			bs_fit f;

			if (!s->n || (pk && !r->packed_lanes))
				continue;
			if (!any++)
				table_begin(d, 8, head);
			row_begin(d);
			cell_begin(d);
			code(d, bs_kind_name((bs_kind)k));
			if (pk)
				text(d, ", packed");
			cell_end(d);
			cell(d, "%u", bs_widths[w]);
			cell(d, "%s", ret ? "latency (dependent chain)"
			     : "interval (back to back)");
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
			if (!ret || isnan(r->lat_slope)) {
				cell(d, "%s", !ret ? "no timing: nothing waits "
				     "for it" : r->loop ? "no latency line: a "
				     "retry loop's cycles follow its passes"
				     : "no latency model");
			} else {
				verdict_num(a, sizeof a, pk ? r->lat_packed
							    : r->lat_base);
				verdict_num(b, sizeof b, r->lat_slope);
				snprintf(c, sizeof c, "%s + %s x wavefronts",
					 a, b);
				cell(d, "%s", c);
			}
			row_end(d);
		}
	}
	if (any) {
		table_end(d);
		return;
	}
	para_begin(d);
	text(d, "No kind the profile models has timed rows.");
	para_end(d);
}

static int write_kind_throughput(doc *d, const data *D, int g)
{
	char prof[96];
	const char *head[6] = {
		"Kind", "Width (bytes)", "Conflict-free rows",
		"Throughput (bytes per clock per SM, median)", "From row",
		prof };
	int any = 0;

	snprintf(prof, sizeof prof, "Profile %s (bytes per clock per SM)",
		 D->p->name);
	EACH_KIND(D, g, k, w) {
		const kind_stats *ks = &D->ks[k][w];
		const bs_rule *r = bs_arch_rule(D->p, (bs_kind)k,
						   bs_widths[w]);
		const tally *t = &ks->free_tp;
		size_t lo, hi;
		double med;

		if (!r || !ks->tp.n)
			continue;
		if (!any++)
			table_begin(d, 6, head);
		row_begin(d);
		code_cell(d, bs_kind_name((bs_kind)k));
		cell(d, "%u", bs_widths[w]);
		cell(d, "%zu", t->total);
		if (!t->total) {
			cell(d, "-");
			cell(d, "no row runs every address lane of the kind at "
			     "its own address without a conflict");
		} else if (tally_middle(t, &med, &lo, &hi) < 0) {
			return usage_error("out of memory");
		} else {
			cell(d, "%.3f", med);
			cell_begin(d);
			code(d, t->name[lo]);
			text(d, " (line %ld)", t->line[lo]);
			if (hi != lo) {
				text(d, " and ");
				code(d, t->name[hi]);
				text(d, " (line %ld), the middle two",
				     t->line[hi]);
			}
			cell_end(d);
		}
		if (isnan(r->tp_bytes_per_clk))
			cell(d, "not measured");
		else
			cell(d, "%.2f", r->tp_bytes_per_clk);
		row_end(d);
	}
	if (any) {
		table_end(d);
	} else {
		para_begin(d);
		text(d, "No row of a kind the profile models has a throughput "
		     "measurement.");
		para_end(d);
	}
	return 0;
}

static void write_not_modeled(doc *d, const data *D, int g)
{
	static const char *const head[8] = {
		"Kind", "Width (bytes)", "Rows", "Measured",
		"Wavefronts (min - max)", "Bank conflicts (min - max)",
		"Cycles (min - max)", "Throughput (bytes per clock per SM, "
		"min - max)" };
	int any = 0;

	EACH_KIND(D, g, k, w) {
		const kind_stats *ks = &D->ks[k][w];
		char v[96];

		if (!ks->not_modeled)
			continue;
		if (!any++) {
			para_begin(d);
			text(d, "Not modeled: profile %s has no rule for the "
			     "kinds below, so their rows are measured but not "
			     "judged (docs/model.md, section \"%s\", says "
			     "why).  Their measured ranges:", D->p->name,
			     groups[g].model);
			para_end(d);
			table_begin(d, 8, head);
		}
		row_begin(d);
		code_cell(d, bs_kind_name((bs_kind)k));
		cell(d, "%u", bs_widths[w]);
		cell(d, "%lu", ks->rows);
		cell(d, "%lu", ks->measured);
		range_text(v, sizeof v, &ks->wf);
		cell(d, "%s", v);
		range_text(v, sizeof v, &ks->bc);
		cell(d, "%s", v);
		range_text(v, sizeof v, &ks->cycles);
		if (ks->cycles.n)
			cell(d, "%s (%s)", v, returns_value((bs_kind)k)
			     ? "latency" : "interval");
		else
			cell(d, "%s", v);
		range_text(v, sizeof v, &ks->tp);
		cell(d, "%s", v);
		row_end(d);
	}
	if (any)
		table_end(d);
}

/* One section per group other than the loads and stores, with rows. */
static int write_kinds(doc *d, const data *D)
{
	for (int g = G_LDST + 1; g < NGROUPS; g++) {
		unsigned long rows = 0, agree = 0, disagree = 0, nm = 0;
		unsigned kinds = 0;
		char sub[128];
		int rc;

		if (!(D->groups_seen >> g & 1))
			continue;
		EACH_KIND(D, g, k, w) {
			const kind_stats *ks = &D->ks[k][w];

			kinds++;
			rows += ks->rows;
			agree += ks->agree;
			disagree += ks->disagree;
			nm += ks->not_modeled;
		}
		heading(d, 2, groups[g].title);
		para_begin(d);
		text(d, "%s  %lu rows of %u kinds and widths: %lu agree with "
		     "profile %s, %lu disagree, %lu not modeled; the rule of "
		     "each kind is in docs/model.md, section \"%s\".",
		     groups[g].intro, rows, kinds, agree, D->p->name, disagree,
		     nm, groups[g].model);
		para_end(d);
		snprintf(sub, sizeof sub, "Measured against profile %s, and its "
			 "rule", D->p->name);
		heading(d, 3, sub);
		write_kind_rules(d, D, g);
		heading(d, 3, "Cycles against wavefronts");
		para_begin(d);
		text(d, "The median cycles per instruction fitted by least "
		     "squares against the wavefronts per warp instruction "
		     "(measured; predicted in rows without counters), per kind "
		     "and width: the latency of a dependent chain for a kind "
		     "that returns a value, else the interval at which one "
		     "warp issues the instruction back to back, which no "
		     "profile predicts.");
		para_end(d);
		write_kind_timing(d, D, g);
		heading(d, 3, "Conflict-free throughput");
		para_begin(d);
		text(d, "Every SM running its warps flat out on one access; "
		     "the median over the rows whose every address lane (of "
		     "the kind) is active at its own address and whose "
		     "measured wavefronts are the profile's ideal, with the "
		     "row it comes from.");
		para_end(d);
		if ((rc = write_kind_throughput(d, D, g)) != 0)
			return rc;
		write_not_modeled(d, D, g);
	}
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
	unsigned long disagree = D->measured - D->agree;

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
	if (!D->measured)
		text(d, "NOT CHECKED: %zu rows, no counters in this dataset",
		     D->n);
	else
		text(d, "%s: %zu rows, %lu agree, %lu disagree",
		     disagree ? "DISAGREES" : "AGREES", D->n, D->agree,
		     disagree);
	raw(d, "</strong>", "**");
	text(d, " (%lu measured, %lu skipped for a note, %lu timing only; "
	     "profile %s).", D->measured, D->skipped, D->timing, D->p->name);
	para_end(d);
	if (D->not_modeled) {
		para_begin(d);
		text(d, "%lu rows of kinds profile %s has no rule for were "
		     "measured but not judged:", D->not_modeled, D->p->name);
		for (unsigned k = 0, n = 0; k < bs_kind_count(); k++)
			if (D->not_modeled_kinds >> k & 1)
				text(d, "%s %s", n++ ? "," : "",
				     bs_kind_name((bs_kind)k));
		text(d, ".");
		para_end(d);
	}
	if (!disagree)
		return;
	table_begin(d, 6, head);
	for (size_t i = 0; i < D->nlisted; i++) {
		const listed *l = &D->list[i];
		char a[32], b[32];

		row_begin(d);
		cell(d, "%ld", l->line);
		code_cell(d, l->name);
		cell(d, "%s, %u, %s", l->probe, l->width, l->op);
		verdict_num(a, sizeof a, l->wf_measured);
		verdict_num(b, sizeof b, l->conflicts_measured);
		cell(d, "%s, %s", a, isnan(l->conflicts_measured) ? "-" : b);
		cell(d, "%u, %u", l->wf_predicted, l->conflicts_predicted);
		cell(d, "%s", l->why);
		row_end(d);
	}
	table_end(d);
	if (disagree > D->nlisted) {
		para_begin(d);
		text(d, "The first %zu disagreeing rows are listed; %lu more "
		     "are not (bankscope check ", D->nlisted,
		     disagree - D->nlisted);
		code(d, D->name);
		text(d, " names every one).");
		para_end(d);
	}
}

/* ---- charts -------------------------------------------------------------- */

typedef struct {
	const char *dir;                /* --charts, or NULL */
	unsigned have, svg;             /* bit i: charts[i] copied */
	char *reason[NCHARTS];          /* from not-drawn.txt, or NULL */
} chart_set;

static void write_wide_cases(doc *d)
{
	static const char *const head[4] = { "Case", "Active lanes",
					     "Element of lane l",
					     "What it tests" };

	para_begin(d);
	text(d, "The cases of the wide chart: the rows are named "
	     "u64_ld_CASE, u64_st_CASE (8 bytes) and v4_ld_CASE, v4_st_CASE "
	     "(16 bytes); lane l reads or writes element ELEMENT, of 8 or 16 "
	     "bytes.  A load packs when every active lane has the address of "
	     "lane l^1 (or every one that of l^2).");
	para_end(d);
	table_begin(d, 4, head);
	for (size_t i = 0; bs_wide_cases[i].name; i++) {
		row_begin(d);
		code_cell(d, bs_wide_cases[i].name);
		cell(d, "%s", bs_wide_cases[i].lanes);
		code_cell(d, bs_wide_cases[i].element);
		cell(d, "%s", bs_wide_cases[i].what);
		row_end(d);
	}
	table_end(d);
}

static void write_charts(doc *d, const chart_set *cs)
{
	unsigned all = (1u << NCHARTS) - 1;
	int first = 1;

	heading(d, 2, "Charts");
	if (!cs->dir) {
		para_begin(d);
		text(d, "No chart was drawn for this report.");
		para_end(d);
		return;
	}
	for (size_t i = 0; i < NCHARTS; i++) {
		const struct chart *c = &charts[i];
		int svg = cs->svg >> i & 1;

		if (!(cs->have >> i & 1))
			continue;
		fprintf(d->h, "<figure id=\"chart-%s\">", c->name);
		if (svg)
			fprintf(d->h, "<a href=\"%s.svg\">", c->name);
		fprintf(d->h, "<img src=\"%s.png\" alt=\"", c->name);
		html_put(d->h, c->title);
		fputs("\">", d->h);
		if (svg)
			fputs("</a>", d->h);
		fputs("<figcaption><strong>", d->h);
		html_put(d->h, c->title);
		fputs(".</strong> ", d->h);
		html_put(d->h, c->what);
		if (svg)
			fprintf(d->h, " (<a href=\"%s.svg\">SVG</a>)",
				c->name);
		fputs("</figcaption></figure>\n", d->h);

		fputs("### ", d->m);
		md_put(d->m, c->title);
		fputs("\n\n", d->m);
		if (svg)
			fprintf(d->m, "[![%s](%s.png)](%s.svg)\n\n", c->title,
				c->name, c->name);
		else
			fprintf(d->m, "![%s](%s.png)\n\n", c->title, c->name);
		md_put(d->m, c->what);
		fputs("\n\n", d->m);
		if (!strcmp(c->name, "wide"))
			write_wide_cases(d);
	}
	if (cs->have == all)
		return;
	para_begin(d);
	text(d, "Not drawn: ");
	for (size_t i = 0; i < NCHARTS; i++) {
		if (cs->have >> i & 1)
			continue;
		if (!first)
			text(d, "; ");
		first = 0;
		code(d, charts[i].name);
		if (cs->reason[i])
			text(d, " (%s)", cs->reason[i]);
		else
			text(d, " (no PNG in %s)", cs->dir);
	}
	text(d, ".");
	para_end(d);
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

/*
 * The metadata table.  A dataset without cuda_driver_api_version comes
 * from a probe runner that wrote the CUDA driver API version (13.0) as
 * driver_version: shown as what it is, and the driver as not recorded.
 */
static void write_meta(doc *d, const data *D)
{
	static const char *const mhead[2] = { "Key", "Value" };
	const char *old_api = meta(D, "cuda_driver_api_version") ? NULL
			      : meta(D, "driver_version");

	heading(d, 2, "Device and run");
	if (!D->nmeta) {
		para_begin(d);
		text(d, "The dataset has no metadata lines.");
		para_end(d);
		return;
	}
	table_begin(d, 2, mhead);
	for (int i = 0; i < D->nmeta; i++) {
		const bs_meta *m = &D->meta[i];

		row_begin(d);
		code_cell(d, m->key);
		if (old_api && !strcmp(m->key, "driver_version")) {
			cell(d, "not recorded (this dataset's driver_version, "
			     "%s, is the CUDA driver API version)", m->value);
			row_end(d);
			row_begin(d);
			code_cell(d, "cuda_driver_api_version");
			cell(d, "%s (written as driver_version)", m->value);
		} else {
			cell(d, "%s", m->value);
		}
		row_end(d);
	}
	table_end(d);
}

static int write_doc(doc *d, const data *D, const char *note,
		     const chart_set *cs)
{
	const char *gpu = meta(D, "gpu");
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
	para_begin(d);
	text(d, "Dataset ");
	code(d, D->name);
	text(d, ": %zu rows, %lu with counters; predictions by profile %s "
	     "(%s).", D->n, D->with_counters, D->p->name, D->p->description);
	para_end(d);
	write_meta(d, D);
	write_rules(d, D);
	write_latency(d, D);
	if ((rc = write_throughput(d, D)) != 0)
		return rc;
	if ((rc = write_kinds(d, D)) != 0)
		return rc;
	write_agreement(d, D);
	write_charts(d, cs);
	fputs("</body>\n</html>\n", d->h);
	return 0;
}

/* ---- the output folder --------------------------------------------------- */

/*
 * The names a report folder may hold: what this program writes and what
 * earlier versions left.  Filled by report_names() before any signal
 * handler can run; the handler only reads them.
 */
#define NNAMES (2 + 2 * NCHARTS + 2)
static char names_buf[NNAMES][64];
static const char *report_name[NNAMES];

static void report_names(void)
{
	int n = 0;

	report_name[n++] = "index.html";
	report_name[n++] = "report.md";
	for (size_t i = 0; i < NCHARTS; i++)
		for (int k = 0; k < 2; k++) {
			snprintf(names_buf[n], sizeof names_buf[n], "%s.%s",
				 charts[i].name, k ? "svg" : "png");
			report_name[n] = names_buf[n];
			n++;
		}
	report_name[n++] = "index.html.tmp";
	report_name[n++] = "report.md.tmp";
}

static int is_report_name(const char *name)
{
	for (size_t i = 0; i < NNAMES; i++)
		if (!strcmp(report_name[i], name))
			return 1;
	return 0;
}

/*
 * Remove the report folder at path: its report names, then the folder.
 * Async-signal-safe (open, unlinkat, close, rmdir); 0 when the folder is
 * gone or was never there.
 */
static int remove_report_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0) {
		for (size_t i = 0; i < NNAMES; i++)
			unlinkat(fd, report_name[i], 0);
		close(fd);
	}
	return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* What a signal must remove: the new report's folder while it is built,
 * the old one once swapped out (CLEANUP_DIR), or --plot-data's temporary
 * file (CLEANUP_FILE). */
enum { CLEANUP_DIR = 1, CLEANUP_FILE = 2 };
static char cleanup_path[PATH_BYTES];
static volatile sig_atomic_t cleanup_armed;
static const int caught[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	int saved = errno;

	if (cleanup_armed == CLEANUP_FILE)
		unlink(cleanup_path);
	else if (cleanup_armed)
		remove_report_dir(cleanup_path);
	errno = saved;
	/* SA_RESETHAND restored the default action; delivered on return. */
	raise(sig);
}

static void block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof caught / sizeof *caught; i++)
		sigaddset(&set, caught[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof caught / sizeof *caught; i++) {
		struct sigaction old;

		/* A signal ignored by whoever started us stays ignored. */
		if (sigaction(caught[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(caught[i], &sa, NULL);
	}
}

typedef struct {
	char path[PATH_BYTES];          /* OUT, trailing slashes dropped */
	char parent[PATH_BYTES];
	char tmp[PATH_BYTES];           /* the new report while built */
	int fd;                         /* tmp, open; -1 when none */
} outdir;

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

/* OUT is new, or a folder holding nothing but a report's files. */
static int check_old(const outdir *o)
{
	struct stat st;
	struct dirent *e;
	DIR *dir;
	int fd, rc = 0;

	if (lstat(o->path, &st) < 0)
		return errno == ENOENT ? 0
		       : usage_error("%s: %s", o->path, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return usage_error("%s is a symbolic link: give --out the "
				   "folder itself", o->path);
	if (!S_ISDIR(st.st_mode))
		return usage_error("%s is not a folder", o->path);
	fd = open(o->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(dir = fdopendir(fd))) {
		rc = usage_error("%s: cannot read the folder: %s", o->path,
				 strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	while (!rc && (e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!is_report_name(e->d_name) ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
			rc = usage_error("%s holds %s, which a report does not "
					 "write: the report replaces the whole "
					 "folder, so give --out a new or empty "
					 "folder, or one a report wrote",
					 o->path, e->d_name);
	}
	closedir(dir);
	return rc;
}

/*
 * Check OUT, make its parent, make the temporary folder beside it and
 * arm the cleanup.  EXIT_BADINPUT after a message.
 */
static int out_begin(outdir *o, const char *out)
{
	size_t n = strlen(out);
	const char *base;
	sigset_t old;
	int rc, err;

	o->fd = -1;
	while (n > 1 && out[n - 1] == '/')
		n--;
	if (n >= sizeof o->path)
		return usage_error("option --out: the path is too long");
	memcpy(o->path, out, n);
	o->path[n] = '\0';
	base = strrchr(o->path, '/');
	base = base ? base + 1 : o->path;
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return usage_error("option --out: '%s' names no folder that can "
				   "be replaced: give a folder name", out);
	snprintf(o->parent, sizeof o->parent, "%.*s",
		 base == o->path ? 1 : (int)(base - o->path - 1),
		 base == o->path ? "." : o->path);
	if (!o->parent[0])
		snprintf(o->parent, sizeof o->parent, "/");
	if ((rc = check_old(o)) != 0)
		return rc;
	if (make_dirs(o->parent) < 0)
		return usage_error("%s: cannot make the folder: %s", o->parent,
				   strerror(errno));
	if ((size_t)snprintf(o->tmp, sizeof o->tmp, "%s/.%s.new-XXXXXX",
			     o->parent, base) >= sizeof o->tmp)
		return usage_error("option --out: the path is too long");
	block_signals(&old);
	if (mkdtemp(o->tmp)) {
		snprintf(cleanup_path, sizeof cleanup_path, "%s", o->tmp);
		cleanup_armed = CLEANUP_DIR;
	}
	err = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!cleanup_armed)
		return usage_error("%s: cannot make a folder there: %s",
				   o->parent, strerror(err));
	o->fd = open(o->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (o->fd < 0)
		return usage_error("%s: %s", o->tmp, strerror(errno));
	return 0;
}

/* Give up: remove the temporary folder. */
static void out_abort(outdir *o)
{
	sigset_t old;

	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	block_signals(&old);
	if (cleanup_armed)
		remove_report_dir(cleanup_path);
	cleanup_armed = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* A new file in the temporary folder, never through a link. */
static FILE *out_create(outdir *o, const char *name)
{
	int fd = openat(o->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			O_CLOEXEC, 0666);
	FILE *f;

	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		usage_error("%s/%s: cannot write: %s", o->tmp, name,
			    strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	return f;
}

static int out_close(outdir *o, FILE *f, const char *name)
{
	int bad = ferror(f);

	if (fclose(f) != 0 || bad)
		return usage_error("%s/%s: cannot write: %s", o->tmp, name,
				   strerror(errno ? errno : EIO));
	return 0;
}

/*
 * Put the temporary folder in OUT's place, then remove the old report.
 * Signals wait while the names change, so the handler always finds
 * cleanup_path naming the folder to remove.
 */
static int out_commit(outdir *o)
{
	mode_t mask = umask(0);
	char aside[PATH_BYTES];
	sigset_t old;
	int rc = 0, had_old = 0, err = 0;

	umask(mask);
	if (fchmod(o->fd, 0777 & ~mask) < 0) {
		rc = usage_error("%s: %s", o->tmp, strerror(errno));
		out_abort(o);
		return rc;
	}
	close(o->fd);
	o->fd = -1;
	block_signals(&old);
	if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path,
		      RENAME_NOREPLACE) == 0) {
		cleanup_armed = 0;
	} else if (errno == EEXIST) {
		if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path,
			      RENAME_EXCHANGE) == 0)
			had_old = 1;    /* the old report is at o->tmp now */
		else
			err = errno;
	} else if (errno == EINVAL || errno == ENOSYS) {
		/* No flags here: move the old folder aside, then rename. */
		snprintf(aside, sizeof aside, "%s", o->tmp);
		memcpy(aside + strlen(aside) - 10, "old-XXXXXX", 10);
		if (!mkdtemp(aside)) {
			err = errno;
		} else if (rename(o->path, aside) < 0 && errno != ENOENT) {
			err = errno;
			rmdir(aside);
		} else if (rename(o->tmp, o->path) < 0) {
			err = errno;
			rename(aside, o->path);
		} else {
			snprintf(cleanup_path, sizeof cleanup_path, "%s",
				 aside);
			snprintf(o->tmp, sizeof o->tmp, "%s", aside);
			had_old = 1;
		}
	} else {
		err = errno;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (err) {
		rc = usage_error("%s: cannot put the report in place: %s",
				 o->path, strerror(err));
		out_abort(o);
		return rc;
	}
	if (had_old) {
		block_signals(&old);
		if (remove_report_dir(o->tmp) < 0)
			fprintf(stderr, "bankscope: the previous report is left "
				"in %s: files a report does not write appeared "
				"in it\n", o->tmp);
		cleanup_armed = 0;
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	return 0;
}

/* ---- the charts into the report ------------------------------------------ */

/* Open dir/name for reading, a regular file, not a link; -1 with errno
 * (ENOENT when absent, ELOOP for a link, EINVAL not a regular file). */
static int open_regular(const char *dir, const char *name)
{
	char path[PATH_BYTES];
	struct stat st;
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

static int copy_chart(outdir *o, const char *dir, const char *name,
		      int *copied)
{
	char buf[65536];
	ssize_t n = 0;
	FILE *out;
	int in = open_regular(dir, name), rc = 0;

	*copied = 0;
	if (in < 0 && errno == ENOENT)
		return 0;
	if (in < 0)
		return usage_error("%s/%s: %s: not copied into the report", dir,
				   name, errno == ELOOP ? "a symbolic link"
				   : errno == EINVAL ? "not a regular file"
				   : strerror(errno));
	if (!(out = out_create(o, name))) {
		close(in);
		return EXIT_BADINPUT;
	}
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (fwrite(buf, 1, (size_t)n, out) != (size_t)n)
			break;
	if (n < 0)
		rc = usage_error("%s/%s: cannot read: %s", dir, name,
				 strerror(errno));
	close(in);
	if (out_close(o, out, name) != 0 && !rc)
		rc = EXIT_BADINPUT;
	*copied = !rc;
	return rc;
}

/* not-drawn.txt: "NAME: reason" a line, NAME one of the charts. */
static int read_not_drawn(chart_set *cs)
{
	char line[REASON_BYTES + 64], path[PATH_BYTES];
	long no = 0;
	FILE *f;
	int fd = open_regular(cs->dir, NOT_DRAWN);

	snprintf(path, sizeof path, "%s/%s", cs->dir, NOT_DRAWN);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		if (fd >= 0)
			close(fd);
		return usage_error("%s: cannot read: %s", path,
				   errno == ELOOP ? "a symbolic link"
				   : strerror(errno));
	}
	while (fgets(line, sizeof line, f)) {
		size_t len = strlen(line), i;
		char *colon = strchr(line, ':');

		no++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		else if (!feof(f)) {
			fclose(f);
			return usage_error("%s:%ld: a line over %d bytes", path,
					   no, REASON_BYTES + 62);
		}
		if (!colon || colon[1] != ' ') {
			fclose(f);
			return usage_error("%s:%ld:1: expected 'CHART: reason'",
					   path, no);
		}
		*colon = '\0';
		for (i = 0; i < NCHARTS && strcmp(charts[i].name, line); i++)
			;
		if (i == NCHARTS) {
			fclose(f);
			return usage_error("%s:%ld:1: '%s' is not a chart of the "
					   "report", path, no, line);
		}
		free(cs->reason[i]);
		if (!(cs->reason[i] = strdup(colon + 2))) {
			fclose(f);
			return usage_error("out of memory");
		}
	}
	fclose(f);
	return 0;
}

static int gather_charts(outdir *o, chart_set *cs)
{
	int rc;

	if ((rc = read_not_drawn(cs)) != 0)
		return rc;
	for (size_t i = 0; i < NCHARTS; i++)
		for (int k = 0; k < 2; k++) {
			char name[80];
			int copied;

			snprintf(name, sizeof name, "%s.%s", charts[i].name,
				 k ? "svg" : "png");
			if ((rc = copy_chart(o, cs->dir, name, &copied)) != 0)
				return rc;
			*(k ? &cs->svg : &cs->have) |= (unsigned)copied << i;
		}
	cs->svg &= cs->have;
	return 0;
}

/* ---- the command --------------------------------------------------------- */

static int write_pages(outdir *o, const data *D, const char *note,
		       const chart_set *cs)
{
	doc d = { NULL, NULL, 0 };
	int rc;

	if (!(d.h = out_create(o, "index.html")))
		return EXIT_BADINPUT;
	if (!(d.m = out_create(o, "report.md"))) {
		fclose(d.h);
		return EXIT_BADINPUT;
	}
	rc = write_doc(&d, D, note, cs);
	if (out_close(o, d.h, "index.html") != 0 && !rc)
		rc = EXIT_BADINPUT;
	if (out_close(o, d.m, "report.md") != 0 && !rc)
		rc = EXIT_BADINPUT;
	return rc;
}

static int report(FILE *f, const char *name, const char *out,
		  const char *note, const char *charts_dir,
		  const bs_arch *arch)
{
	chart_set cs = { charts_dir, 0, 0, { NULL } };
	bs_dataset *ds = NULL;
	outdir o;
	bs_error err;
	data *D = calloc(1, sizeof *D);
	int rc;

	if (!D)
		return usage_error("out of memory");
	report_names();
	catch_signals();
	rc = out_begin(&o, out);
	if (!rc && charts_dir)
		rc = gather_charts(&o, &cs);
	if (!rc && !(ds = bs_dataset_open(f, name, &err)))
		rc = report_error(&err);
	if (!rc)
		rc = read_data(D, ds, name, arch);
	if (!rc)
		rc = write_pages(&o, D, note, &cs);
	if (!rc)
		rc = out_commit(&o);
	else
		out_abort(&o);
	if (ds)
		bs_dataset_close(ds);
	for (size_t i = 0; i < NCHARTS; i++)
		free(cs.reason[i]);
	data_free(D);
	free(D);
	return rc;
}

/*
 * --plot-data PATH: the rows with their groups and predictions, for the
 * kind charts, and no report.  Written as bs_output writes a file: to a
 * temporary beside PATH, renamed over it when whole, a device, FIFO or
 * link written through.  A signal removes the temporary (it is armed
 * with the signals held, so none comes between its making and its arming).
 */
static int plot_data(FILE *f, const char *name, const char *path,
		     const bs_arch *arch)
{
	bs_dataset *ds = NULL;
	bs_output out;
	bs_error err;
	sigset_t old;
	data *D = calloc(1, sizeof *D);
	int rc = 0;

	if (!D)
		return usage_error("out of memory");
	catch_signals();
	block_signals(&old);
	if (bs_output_open(&out, path, &err) < 0) {
		rc = report_error(&err);
	} else if (out.tmp[0]) {
		snprintf(cleanup_path, sizeof cleanup_path, "%s", out.tmp);
		cleanup_armed = CLEANUP_FILE;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	D->plot = rc ? NULL : out.f;
	if (!rc && !(ds = bs_dataset_open(f, name, &err)))
		rc = report_error(&err);
	if (!rc)
		rc = read_data(D, ds, name, arch);
	if (D->plot) {
		block_signals(&old);
		if (rc)
			bs_output_abort(&out);
		else if (bs_output_commit(&out, &err) < 0)
			rc = report_error(&err);
		cleanup_armed = 0;
		sigprocmask(SIG_SETMASK, &old, NULL);
		D->plot = NULL;
	}
	if (ds)
		bs_dataset_close(ds);
	data_free(D);
	free(D);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	const char *charts_dir = NULL, *out = DEFAULT_OUT, *note = NULL;
	const char *file = NULL, *arch_name = NULL, *plot = NULL;
	int out_given = 0, nmore = 0;
	const bs_arch *arch = NULL;
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
		if (opts && !k && (k = opt_value(argc, argv, &i, "--out",
						 &out)) > 0)
			out_given = 1;
		if (opts && !k)
			k = opt_value(argc, argv, &i, "--plot-data", &plot);
		if (opts && !k)
			k = opt_value(argc, argv, &i, "--note", &note);
		if (opts && !k)
			k = opt_value(argc, argv, &i, "--arch", &arch_name);
		if (k < 0)
			return EXIT_BADINPUT;
		if (k)
			continue;
		if (opts && a[0] == '-' && a[1])
			return usage_error("report: unknown option '%s' (try "
					   "bankscope report --help)", a);
		if (file)       /* more datasets: gathered in argv's read part */
			argv[nmore++] = argv[i];
		else
			file = a;
	}
	if (!file)
		return usage_error("report: no dataset given (try bankscope "
				   "report --help)");
	if (!*out)
		return usage_error("option --out: empty folder name");
	if (charts_dir && !*charts_dir)
		return usage_error("option --charts: empty folder name");
	if (plot && !*plot)
		return usage_error("option --plot-data: empty file name");
	if (plot && (out_given || charts_dir || note))
		return usage_error("report: --plot-data writes the plot data "
				   "and no report: --%s does not go with it",
				   out_given ? "out" : charts_dir ? "charts"
				   : "note");
	if (arch_name && arch_option(arch_name, &arch))
		return EXIT_BADINPUT;
	if (nmore)
		return report_several(file, nmore, argv, out_given ||
				      charts_dir || note || plot, arch);
	if (!strcmp(file, "-"))
		f = stdin;
	else if (!(f = fopen(file, "r")))
		return usage_error("%s: cannot open: %s", file,
				   strerror(errno));
	if (plot)
		rc = plot_data(f, f == stdin ? "<stdin>" : file, plot, arch);
	else
		rc = report(f, f == stdin ? "<stdin>" : file, out, note,
			    charts_dir, arch);
	if (f != stdin)
		fclose(f);
	return rc;
}
