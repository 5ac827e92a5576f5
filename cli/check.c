/*
 * check.c - bankscope check: measured datasets against the predictions.
 *
 * Every row with counters (wavefronts_measured) is predicted again from
 * its own addresses under the architecture: --arch (a built-in name or
 * an arch file), else the file's "# arch:" metadata ("# profile:" in
 * older files), else sm_90.  A file measured on a GPU no architecture
 * covers says "# arch: none (sm_89)": without --arch it is not judged,
 * only reported as such, and the exit status says nothing of it unless
 * --strict asks.  The row disagrees when the measured wavefronts, or the
 * measured conflicts where there are some (a remote kind, distributed
 * shared memory: the measured sectors), differ from the prediction by
 * more than 1e-6, or when a prediction stored in the row differs from
 * what the architecture that wrote it (the file's) gives today: a stale
 * prediction.  Rows with a note are skipped, rows of a kind and width
 * the architecture has no rule for are counted as not modeled (measured,
 * not judged), and rows without counters are timing only and, like
 * measured rows, feed the fit of cycles_per_access_median against
 * wavefronts (remote kinds: sectors; measured, else predicted) per width,
 * kind and packing, a table of their own for the remote kinds, and the
 * latency model's deviation.  bankscope-dsmem's files read as datasets
 * (bs_input.h).
 *
 * Output, --format text (default): one line per disagreeing row as found
 * (names escaped for the terminal), then (unless --quiet) the fit table
 * and the latency line, then the verdict.  csv: a header, one row per
 * disagreeing column (file, line, name, probe, width, op, kind: measured
 * or stale, the column, its value, the prediction, the architecture in
 * a column still named profile, for scripts), then
 * the verdict as a "# verdict: ..." line.  json: one object holding the
 * same disagreements, the fits and the latency deviation (unless --quiet)
 * and the verdict.  Exit status 0: every measured row agrees (or none was
 * measured); 1: some disagree; 2: bad input, reported as one message on
 * stderr, and nothing of the file that holds it printed: each file's
 * output is held until it has been read to the end (in memory up to
 * HOLD_MEMORY bytes, then in an unlinked temporary file, so that memory
 * stays flat however many rows disagree), and a bad file stops the run.
 * Nothing is printed before the first file has been read.  The datasets
 * are streamed: the fits keep running sums, not rows.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define MAX_ARCHS 8
#define HOLD_MEMORY (1 << 20)

static const char check_usage[] =
	"usage: bankscope check [--arch NAME|FILE] [--format text|csv|json]\n"
	"                       [--quiet] [--strict] FILE.csv...\n"
	"\n"
	"Compare datasets measured on a GPU (bankscope-probe, or\n"
	"bankscope-dsmem's own CSV) with the predictions.  Each row's access\n"
	"is predicted again from its addresses; a row disagrees when its\n"
	"measured wavefronts or bank conflicts per instruction (a remote\n"
	"dsmem.* kind: dshared wavefronts or sectors) differ from the\n"
	"prediction, or when a prediction stored in the row is stale.  Then\n"
	"the median cycles per access are fitted against wavefronts (remote\n"
	"kinds: sectors) per width, kind and packing, and the latency model's\n"
	"largest deviation is shown.\n"
	"\n"
	"  --arch NAME|FILE  predict with this architecture, built-in or an\n"
	"                arch file (default: the file's '# arch:' metadata,\n"
	"                else sm_90)\n"
	"  --format FMT  text (default); csv: one row per disagreeing column\n"
	"                (file,line,name,probe,width,op,kind,column,value,\n"
	"                predicted,profile: the architecture), then\n"
	"                '# verdict: ...'; json: one object: disagreements,\n"
	"                fits, latency, verdict\n"
	"  --quiet       print only the disagreements and the verdict\n"
	"  --strict      exit 1 when a file cannot be judged because no\n"
	"                architecture covers its GPU ('# arch: none (sm_89)')\n"
	"\n"
	"FILE '-' reads stdin.  Rows with a note are skipped\n"
	"(bankscope-dsmem's self rows, its control, among them); rows\n"
	"without counters are timing only.\n"
	"\n"
	"A file whose GPU no architecture covers is reported with what to run\n"
	"(bankscope calibrate) and not judged, unless --arch names one.\n"
	"\n"
	"Exit status: 0 every measured row agrees (or nothing was measured),\n"
	"1 some disagree (or, with --strict, a file could not be judged), 2\n"
	"bad input (message names file, line and column).\n";

static const char csv_header[] =
	"file,line,name,probe,width,op,kind,column,value,predicted,profile";

enum { FMT_TEXT, FMT_CSV, FMT_JSON };

/* One file's output until it has been read to the end. */
typedef struct {
	FILE *f;
	char *text;         /* the memory stream's buffer */
	size_t len;
	int spilled;        /* f is a temporary file */
} hold;

typedef struct {
	const bs_arch *arch;
	int quiet, format;
	unsigned long rows, measured, agree, disagree, skipped, timing;
	unsigned long items;        /* disagreeing columns written */
	int started;                /* the CSV header or JSON head is out */
	latency_fits fits;
	char lat_file[1024];        /* the worst latency row */
	long lat_line;
	char lat_name[BS_NAME_MAX];
	const bs_arch *used[MAX_ARCHS];
	int nused;
	int strict;
	unsigned long unjudged;     /* files without an architecture */
	unsigned long not_modeled;  /* rows of a kind and width without a rule */
	hold h;
} check;

static void note_arch(check *c, const bs_arch *p)
{
	for (int i = 0; i < c->nused; i++)
		if (c->used[i] == p)
			return;
	if (c->nused < MAX_ARCHS)
		c->used[c->nused++] = p;
}

/* ---- holding a file's output -------------------------------------------- */

static int hold_open(hold *h)
{
	memset(h, 0, sizeof *h);
	h->f = open_memstream(&h->text, &h->len);
	return h->f ? 0 : usage_error("out of memory");
}

/* After each row: past HOLD_MEMORY, move what is held to a temporary file. */
static int hold_check(hold *h)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *t;
	int fd;

	if (h->spilled || fflush(h->f) || h->len <= HOLD_MEMORY)
		return 0;
	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof path, "%s/bankscope-check-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		return usage_error("%s: cannot create a temporary file to "
				   "hold the disagreements: %s", dir,
				   strerror(errno));
	unlink(path);
	t = fdopen(fd, "w+");
	if (!t) {
		close(fd);
		return usage_error("out of memory");
	}
	if (fwrite(h->text, 1, h->len, t) != h->len) {
		fclose(t);
		return usage_error("cannot write a temporary file: %s",
				   strerror(errno));
	}
	fclose(h->f);
	free(h->text);
	h->text = NULL;
	h->f = t;
	h->spilled = 1;
	return 0;
}

/* Copy what is held to stdout (print 0) or drop it; either way close it. */
static int hold_close(hold *h, int print)
{
	int rc = 0;

	if (!h->f)
		return 0;
	if (!h->spilled) {
		fclose(h->f);
		if (print)
			fwrite(h->text, 1, h->len, stdout);
	} else if (print) {
		char buf[1 << 16];
		size_t n;

		fflush(h->f);
		rewind(h->f);
		while ((n = fread(buf, 1, sizeof buf, h->f)) > 0)
			fwrite(buf, 1, n, stdout);
		if (ferror(h->f))
			rc = usage_error("cannot read back a temporary file");
		fclose(h->f);
	} else {
		fclose(h->f);
	}
	free(h->text);
	memset(h, 0, sizeof *h);
	return rc;
}

/* ---- one disagreement, in each format ------------------------------------ */

/* The CSV header or the JSON head, before the first output. */
static void start(check *c)
{
	if (c->started)
		return;
	c->started = 1;
	if (c->format == FMT_CSV)
		printf("%s\n", csv_header);
	else if (c->format == FMT_JSON)
		printf("{\"disagreements\":[");
}

static void row_label(FILE *out, const char *file, long line,
		      const bs_row *r)
{
	char f[4096], n[4 * BS_NAME_MAX], p[4 * sizeof r->probe];

	bs_escape_text(f, sizeof f, file);
	bs_escape_text(n, sizeof n, r->access.name);
	bs_escape_text(p, sizeof p, r->probe);
	fprintf(out, "%s:%ld: %s (probe %s, %u-byte %s): ", f, line, n, p,
		r->access.width, bs_kind_name(r->access.kind));
}

/* A value as verdict_num writes it; NaN (not modeled) as empty. */
static void value(char *buf, size_t size, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		verdict_num(buf, size, v);
}

/* csv and json: one item per disagreeing column. */
static void put_items(check *c, const char *file, long line,
		      const bs_row *r, const char *kind,
		      const verdict_field *f, size_t n, const bs_arch *p)
{
	FILE *out = c->h.f;

	for (size_t i = 0; i < n; i++) {
		char a[32], b[32];

		value(a, sizeof a, f[i].stored);
		value(b, sizeof b, f[i].now);
		if (c->format == FMT_CSV) {
			bs_csv_field(out, file);
			fprintf(out, ",%ld,", line);
			bs_csv_field(out, r->access.name);
			putc(',', out);
			bs_csv_field(out, r->probe);
			fprintf(out, ",%u,%s,%s,%s,%s,%s,%s\n",
				r->access.width, bs_kind_name(r->access.kind),
				kind, f[i].name, a, b, p->name);
			continue;
		}
		fputs(c->items ? ",\n{\"file\":" : "\n{\"file\":", out);
		json_string(out, file);
		fprintf(out, ",\"line\":%ld,\"name\":", line);
		json_string(out, r->access.name);
		fputs(",\"probe\":", out);
		json_string(out, r->probe);
		fprintf(out, ",\"width\":%u,\"op\":\"%s\",\"kind\":\"%s\","
			"\"column\":\"%s\",\"value\":%s,\"predicted\":%s,"
			"\"profile\":\"%s\"}", r->access.width,
			bs_kind_name(r->access.kind), kind, f[i].name, a,
			b[0] ? b : "null", p->name);
		c->items++;
	}
}

/* Measured counters against the prediction; 1 when they disagree. */
static int check_counters(check *c, const char *file, long line,
			  const bs_row *r, const bs_summary *s,
			  const bs_arch *p)
{
	FILE *out = c->h.f;
	double wm = r->wavefronts_measured, cm = r->bank_conflicts_measured;
	const bs_kind_info *k = bs_kind_get(r->access.kind);
	verdict_field f[VERDICT_COUNTERS];
	size_t n = verdict_counters(r, s, f);
	char a[32], b[32];

	if (!n)
		return 0;
	if (c->format != FMT_TEXT) {
		put_items(c, file, line, r, "measured", f, n, p);
		return 1;
	}
	/* Each count measured, then each prediction in that order: the
	 * wavefronts, the conflicts, and a remote kind's sectors. */
	row_label(out, file, line, r);
	verdict_num(a, sizeof a, wm);
	fprintf(out, "measured %s wavefront%s", a, wm == 1 ? "" : "s");
	if (!isnan(cm)) {
		verdict_num(b, sizeof b, cm);
		fprintf(out, ", %s conflict%s", b, cm == 1 ? "" : "s");
	}
	if (k->remote && !isnan(r->sectors_measured)) {
		verdict_num(b, sizeof b, r->sectors_measured);
		fprintf(out, ", %s sector%s", b,
			r->sectors_measured == 1 ? "" : "s");
	}
	fprintf(out, "; predicted %u", s->wavefronts);
	if (!isnan(cm))
		fprintf(out, ", %u", s->bank_conflicts);
	if (k->remote && !isnan(r->sectors_measured))
		fprintf(out, ", %u", s->sectors);
	fprintf(out, " (%s)\n", p->name);
	return 1;
}

/* Stored predictions against today's under the file's architecture. */
static int check_stale(check *c, const char *file, long line,
		       const bs_row *r, const bs_summary *s,
		       const bs_arch *p)
{
	FILE *out = c->h.f;
	verdict_field f[VERDICT_FIELDS];
	size_t n = verdict_stale(r, s, f);

	if (n && c->format != FMT_TEXT) {
		put_items(c, file, line, r, "stale", f, n, p);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		char a[32], b[32];

		if (!i) {
			row_label(out, file, line, r);
			fprintf(out, "stale prediction (%s):", p->name);
		}
		verdict_num(a, sizeof a, f[i].stored);
		if (isnan(f[i].now))
			snprintf(b, sizeof b, "not modeled");
		else
			verdict_num(b, sizeof b, f[i].now);
		fprintf(out, "%s %s %s, recomputed %s", i ? ";" : "",
			f[i].name, a, b);
	}
	if (n)
		putc('\n', out);
	return n > 0;
}

/*
 * The architectures a file is checked with (p) and was written with (fp,
 * NULL when it says "none (...)").  *p is NULL when the file cannot be
 * judged: no architecture covers its GPU and --arch gave none.
 */
static int file_archs(check *c, const bs_dataset *d, const char *name,
			 const bs_arch **p, const bs_arch **fp)
{
	const char *key, *meta = bs_dataset_arch(d, &key);
	char known[128];
	bs_error err;

	if (meta && !strncmp(meta, "none", 4)) {
		*fp = NULL;
		*p = c->arch;
		return 0;
	}
	*fp = meta ? bs_arch_find(meta) : bs_arch_default();
	*p = c->arch ? c->arch : *fp;
	if (*p)
		return 0;
	builtin_names(known, sizeof known);
	bs_error_set(&err, name, 0, 0, "metadata '%s: %s' names no known "
		     "architecture (%s; or give --arch with an arch file)",
		     key, meta, known);
	return report_error(&err);
}

/*
 * A file no architecture covers, and what to do about it: a line in text, a
 * comment line in csv, counted in json's verdict.
 */
static void no_arch(check *c, const bs_dataset *d, const char *name)
{
	const char *cc = bs_dataset_meta(d, "compute_capability");
	char sm[16] = "its GPU", f[4096];

	c->unjudged++;
	if (c->format == FMT_JSON)
		return;
	if (cc && strlen(cc) < 6 && strchr(cc, '.'))
		snprintf(sm, sizeof sm, "sm_%.*s%s", (int)strcspn(cc, "."), cc,
			 strchr(cc, '.') + 1);
	bs_escape_text(f, sizeof f, name);
	printf("%s%s: no architecture for %s; run bankscope calibrate %s > "
	       "%s.arch, then bankscope check --arch %s.arch %s\n",
	       c->format == FMT_CSV ? "# " : "", f, sm, f, sm, sm, f);
}

/* One row; -1 with err on a prediction error. */
static int check_row(check *c, const char *name, long line,
		     const bs_row *r, const bs_arch *p,
		     const bs_arch *fp, bs_error *err)
{
	bs_summary s, fs;
	int bad, rc;

	c->rows++;
	if (r->note[0]) {
		c->skipped++;
		return 0;
	}
	if (!bs_arch_rule(p, r->access.kind, r->access.width)) {
		/* measured, but of a kind the architecture has no rule for */
		c->not_modeled++;
		return 0;
	}
	if (bs_predict(p, &r->access, &s, err) < 0)
		return -1;
	if (!isnan(r->wavefronts_measured)) {
		c->measured++;
		bad = check_counters(c, name, line, r, &s, p);
		if (fp && fp != p && bs_predict(fp, &r->access, &fs, err) < 0)
			return -1;
		if (fp)
			bad |= check_stale(c, name, line, r,
					   fp == p ? &s : &fs, fp);
		if (bad)
			c->disagree++;
		else
			c->agree++;
	} else {
		c->timing++;
	}
	if ((rc = fits_add(&c->fits, r, &s)) < 0)
		return bs_error_set(err, name, line, 0, "out of memory");
	if (rc) {
		snprintf(c->lat_file, sizeof c->lat_file, "%s", name);
		c->lat_line = line;
		snprintf(c->lat_name, sizeof c->lat_name, "%s",
			 r->access.name);
	}
	return 0;
}

static int check_file(check *c, const char *path)
{
	const char *name;
	FILE *f;
	const bs_arch *p, *fp;
	bs_dataset *d;
	bs_row r;
	bs_error err;
	int rc;

	if (input_open(path, &f, &name))
		return EXIT_BADINPUT;
	d = bs_dataset_open(f, name, &err);
	if (!d) {
		input_close(f);
		return report_error(&err);
	}
	rc = file_archs(c, d, name, &p, &fp);
	if (!rc && !p) {
		/* not judged, but read whole: bad input is still bad */
		while ((rc = bs_dataset_next(d, &r, &err)) > 0)
			;
		if (rc < 0) {
			rc = report_error(&err);
		} else {
			start(c);
			no_arch(c, d, name);
		}
		bs_dataset_close(d);
		input_close(f);
		return rc;
	}
	if (!rc)
		rc = hold_open(&c->h);
	if (!rc) {
		note_arch(c, p);
		while ((rc = bs_dataset_next(d, &r, &err)) > 0) {
			if (check_row(c, name, bs_dataset_line(d), &r, p, fp,
				      &err) < 0) {
				rc = report_error(&err);
				break;
			}
			if ((rc = hold_check(&c->h)) != 0)
				break;
		}
		if (rc < 0)
			rc = report_error(&err);
		if (!rc)
			start(c);
		if (hold_close(&c->h, !rc) && !rc)
			rc = EXIT_BADINPUT;
	}
	bs_dataset_close(d);
	input_close(f);
	return rc;
}

/* The worst latency row: "file:line name", escaped for the terminal. */
static void worst_text(const check *c, char *buf, size_t size)
{
	char where[sizeof c->lat_file + sizeof c->lat_name + 32];

	snprintf(where, sizeof where, "%s:%ld %s", c->lat_file, c->lat_line,
		 c->lat_name);
	bs_escape_text(buf, size, where);
}

/* One fit group as a row of the text table, its header before the first. */
static void text_group(int w, int o, int k, const fit_series *s, int first,
		       int remote)
{
	bs_fit fit;

	if (first)
		printf("%11s %2s %6s %6s %26s %16s %6s\n", "width_bytes", "op",
		       "packed", "n", remote ? "slope_cycles_per_sector"
					     : "slope_cycles_per_wavefront",
		       "intercept_cycles", "r2");
	printf("%11u %2s %6d %6zu ", bs_widths[w], bs_kind_name((bs_kind)o),
	       k, s->n);
	if (fits_line(s, &fit) < 0)
		printf("%26s %16s %6s\n", "-", "-", "-");
	else
		printf("%26.3f %16.2f %6.4f\n", fit.slope, fit.intercept,
		       fit.r2);
}

/* The same as a JSON object; a remote kind's slope is per sector. */
static void json_group(int w, int o, int k, const fit_series *s, int first,
		       int remote)
{
	const char *per = remote ? "sector" : "wavefront";
	bs_fit fit;

	printf("%s\n{\"width\":%u,\"op\":\"%s\",\"packed\":%s,\"n\":%zu,",
	       first ? "" : ",", bs_widths[w], bs_kind_name((bs_kind)o),
	       k ? "true" : "false", s->n);
	if (fits_line(s, &fit) < 0)
		printf("\"slope_cycles_per_%s\":null,\"intercept_cycles\":"
		       "null,\"r2\":null}", per);
	else
		printf("\"slope_cycles_per_%s\":%.3f,\"intercept_cycles\":"
		       "%.2f,\"r2\":%.4f}", per, fit.slope, fit.intercept,
		       fit.r2);
}

/*
 * The groups of 2 or more timed rows of bank kinds (remote 0: against
 * wavefronts) or of remote kinds (1: against sectors), in text (a table
 * of their own) or JSON after any objects already out; how many now.
 */
static int fit_groups(const check *c, int remote, int json, int any)
{
	int first = 1;

	for (int w = 0; w < BS_NWIDTHS; w++)
		for (int o = 0; o < (int)bs_kind_count(); o++)
			for (int k = 0; k < 2; k++) {
				const fit_series *s = fits_group(&c->fits, w,
								 o, k);

				if (s->n < 2 || fits_remote(o) != remote)
					continue;
				if (json)
					json_group(w, o, k, s, !any, remote);
				else
					text_group(w, o, k, s, first, remote);
				first = 0;
				any++;
			}
	return any;
}

static void print_fits(const check *c)
{
	if (!fit_groups(c, 1, 0, fit_groups(c, 0, 0, 0)))
		puts("fit: no width, op and packing with 2 or more timed "
		     "rows");
	if (c->fits.lat_n) {
		char where[4 * sizeof c->lat_file];

		worst_text(c, where, sizeof where);
		printf("latency model: max deviation %.2f cycles over %lu "
		       "row%s (worst: %s)\n", c->fits.lat_max, c->fits.lat_n,
		       c->fits.lat_n == 1 ? "" : "s", where);
	} else {
		puts("latency model: no row has both "
		     "cycles_per_access_median and a latency prediction");
	}
}

/* The same as JSON members: "fits":[...],"latency":{...} or null. */
static void json_fits(const check *c)
{
	printf("\"fits\":[");
	fit_groups(c, 1, 1, fit_groups(c, 0, 1, 0));
	printf("],\n\"latency\":");
	if (!c->fits.lat_n) {
		printf("null,\n");
		return;
	}
	printf("{\"rows\":%zu,\"max_deviation_cycles\":%.2f,\"worst\":"
	       "{\"file\":", c->fits.lat_n, c->fits.lat_max);
	json_string(stdout, c->lat_file);
	printf(",\"line\":%ld,\"name\":", c->lat_line);
	json_string(stdout, c->lat_name);
	printf("}},\n");
}

static const char *verdict_word(const check *c)
{
	return !c->measured ? "NOT CHECKED"
	       : c->disagree ? "DISAGREES" : "AGREES";
}

static void print_verdict(const check *c)
{
	if (c->format == FMT_JSON) {
		printf("\"verdict\":{\"result\":\"%s\",\"rows\":%lu,"
		       "\"measured\":%lu,\"agree\":%lu,\"disagree\":%lu,"
		       "\"skipped\":%lu,\"timing_only\":%lu,"
		       "\"not_modeled\":%lu,\"files_without_profile\":%lu,"
		       "\"profiles\":[", verdict_word(c), c->rows,
		       c->measured, c->agree, c->disagree, c->skipped,
		       c->timing, c->not_modeled, c->unjudged);
		for (int i = 0; i < c->nused; i++)
			printf("%s\"%s\"", i ? "," : "", c->used[i]->name);
		printf("]}}\n");
		return;
	}
	if (c->format == FMT_CSV)
		printf("# ");
	if (!c->measured) {
		puts(c->unjudged ? "verdict: NOT CHECKED: no architecture to "
				   "judge these files by"
		     : c->not_modeled ? "verdict: NOT CHECKED: the "
					"architecture models none of these "
					"rows' kinds"
				      : "verdict: NOT CHECKED: no counters in "
					"these files");
		return;
	}
	printf("verdict: %s: %lu rows, %lu measured, %lu agree, %lu disagree, "
	       "%lu skipped, %lu timing only", verdict_word(c), c->rows,
	       c->measured, c->agree, c->disagree, c->skipped, c->timing);
	if (c->not_modeled)
		printf(", %lu not modeled", c->not_modeled);
	printf(" (arch%s ", c->nused > 1 ? "s" : "");
	for (int i = 0; i < c->nused; i++)
		printf("%s%s", i ? ", " : "", c->used[i]->name);
	puts(")");
}

static void check_free(check *c)
{
	hold_close(&c->h, 0);
	fits_free(&c->fits);
}

int cmd_check(int argc, char **argv)
{
	static check c;
	const char *arch = NULL, *format = NULL;
	const cli_option own[] = {
		{ "--arch", &arch, NULL }, { "--format", &format, NULL },
		{ "--quiet", NULL, &c.quiet }, { "--strict", NULL, &c.strict },
	};
	char **files;
	int nfiles, rc;

	rc = cli_parse("check", check_usage, argc, argv, own,
		       sizeof own / sizeof *own, NULL, &files, &nfiles);
	if (!rc && arch)
		rc = arch_option(arch, &c.arch);
	if (rc)
		;
	else if (format && !strcmp(format, "csv"))
		c.format = FMT_CSV;
	else if (format && !strcmp(format, "json"))
		c.format = FMT_JSON;
	else if (format && strcmp(format, "text"))
		rc = usage_error("option --format: '%s' is not text, csv or "
				 "json", format);
	if (!rc && !nfiles)
		rc = usage_error("check: no dataset given (try bankscope "
				 "check --help)");
	if (rc) {
		free(files);
		return rc == CLI_HELP ? 0 : rc;
	}
	for (int i = 0; i < nfiles && !rc; i++)
		rc = check_file(&c, files[i]);
	if (!rc) {
		if (c.format == FMT_JSON) {
			printf("\n],\n");
			if (!c.quiet)
				json_fits(&c);
		} else if (c.format == FMT_TEXT && !c.quiet &&
			   (c.rows || !c.unjudged)) {
			print_fits(&c);
		}
		print_verdict(&c);
		rc = c.disagree || (c.strict && c.unjudged) ? EXIT_DISAGREE : 0;
	}
	check_free(&c);
	free(files);
	return rc;
}
