/*
 * check.c - bankscope check: measured datasets against the predictions.
 *
 * Every row with counters (wavefronts_measured) is predicted again from
 * its own addresses under the profile: --arch, else the file's
 * "# profile:" metadata, else sm_90.  The row disagrees when the measured
 * wavefronts, or the measured conflicts where there are some, differ from
 * the prediction by more than 1e-6, or when a prediction stored in the row
 * differs from what the profile that wrote it (the file's) gives today: a
 * stale prediction.  Rows with a note are skipped; rows without counters
 * are timing only and, like measured rows, feed the fit of
 * cycles_per_access_median against wavefronts (measured, else predicted)
 * per width, op and packing, and the latency model's deviation.
 *
 * Output: one line per disagreement as found, then (unless --quiet) the fit
 * table and the latency line, then the verdict.  Exit status 0: every
 * measured row agrees (or none was measured); 1: some disagree; 2: bad
 * input, reported as one message on stderr, and nothing of the file that
 * holds it printed: each file's lines are held until it has been read to
 * the end, and a bad file stops the run.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_PROFILES 8

static const char check_usage[] =
	"usage: bankscope check [--arch NAME] [--quiet] FILE.csv...\n"
	"\n"
	"Compare datasets measured on a GPU (bankscope-probe) with the\n"
	"predictions.  Each row's access is predicted again from its\n"
	"addresses; a row disagrees when its measured wavefronts or bank\n"
	"conflicts per instruction differ from the prediction, or when a\n"
	"prediction stored in the row is stale.  Then the median cycles per\n"
	"access are fitted against wavefronts per width, op and packing, and\n"
	"the latency model's largest deviation is shown.\n"
	"\n"
	"  --arch NAME   predict with this profile (default: the file's\n"
	"                '# profile:' metadata, else sm_90)\n"
	"  --quiet       print only the disagreements and the verdict\n"
	"\n"
	"FILE '-' reads stdin.  Rows with a note are skipped; rows without\n"
	"counters are timing only.\n"
	"\n"
	"Exit status: 0 every measured row agrees (or nothing was measured),\n"
	"1 some disagree, 2 bad input (message names file, line and column).\n";

typedef struct {
	const bs_profile *arch;
	int quiet;
	unsigned long rows, measured, agree, disagree, skipped, timing;
	latency_fits fits;
	char lat_where[320];
	const bs_profile *used[MAX_PROFILES];
	int nused;
} check;

/* Up to 4 decimals, trailing zeros dropped. */
static void known_profiles(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const bs_profile *const *p = bs_profiles(); *p && n < size; p++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
				      (*p)->name);
}

static void note_profile(check *c, const bs_profile *p)
{
	for (int i = 0; i < c->nused; i++)
		if (c->used[i] == p)
			return;
	if (c->nused < MAX_PROFILES)
		c->used[c->nused++] = p;
}

static void row_label(FILE *out, const char *file, long line,
		      const bs_row *r)
{
	fprintf(out, "%s:%ld: %s (probe %s, %u-byte %s): ", file, line,
		r->access.name, r->probe, r->access.width,
		bs_op_name(r->access.op));
}

/* Measured counters against the prediction; 1 when they disagree. */
static int check_counters(FILE *out, const char *file, long line,
			  const bs_row *r, const bs_summary *s,
			  const bs_profile *p)
{
	double wm = r->wavefronts_measured, cm = r->bank_conflicts_measured;
	char a[32], b[32];

	if (verdict_counters_agree(r, s))
		return 0;
	row_label(out, file, line, r);
	verdict_num(a, sizeof a, wm);
	fprintf(out, "measured %s wavefront%s", a, wm == 1 ? "" : "s");
	if (!isnan(cm)) {
		verdict_num(b, sizeof b, cm);
		fprintf(out, ", %s conflict%s; predicted %u, %u (%s)\n", b,
			cm == 1 ? "" : "s", s->wavefronts, s->bank_conflicts,
			p->name);
	} else {
		fprintf(out, "; predicted %u (%s)\n", s->wavefronts, p->name);
	}
	return 1;
}

/* Stored predictions against today's under the file's profile. */
static int check_stale(FILE *out, const char *file, long line,
		       const bs_row *r, const bs_summary *s,
		       const bs_profile *p)
{
	verdict_field f[VERDICT_FIELDS];
	size_t n = verdict_stale(r, s, f);

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

/* The profiles a file is checked with (p) and was written with (fp). */
static int file_profiles(check *c, const bs_dataset *d, const char *name,
			 const bs_profile **p, const bs_profile **fp)
{
	const char *meta = bs_dataset_meta(d, "profile");
	char known[128];
	bs_error err;

	*fp = meta ? bs_profile_find(meta) : bs_profile_default();
	*p = c->arch ? c->arch : *fp;
	if (*p)
		return 0;
	known_profiles(known, sizeof known);
	bs_error_set(&err, name, 0, 0, "metadata 'profile: %s' names no known "
		     "profile (%s; or give --arch)", meta, known);
	return report_error(&err);
}

/* One row; -1 with err on a prediction error. */
static int check_row(check *c, FILE *out, const char *name, long line,
		     const bs_row *r, const bs_profile *p,
		     const bs_profile *fp, bs_error *err)
{
	bs_summary s, fs;
	int bad, rc;

	c->rows++;
	if (r->note[0]) {
		c->skipped++;
		return 0;
	}
	if (bs_predict(p, &r->access, &s, err) < 0)
		return -1;
	if (!isnan(r->wavefronts_measured)) {
		c->measured++;
		bad = check_counters(out, name, line, r, &s, p);
		if (fp && fp != p && bs_predict(fp, &r->access, &fs, err) < 0)
			return -1;
		if (fp)
			bad |= check_stale(out, name, line, r,
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
	if (rc)
		snprintf(c->lat_where, sizeof c->lat_where, "%s:%ld %s", name,
			 line, r->access.name);
	return 0;
}

static int check_file(check *c, const char *path)
{
	int is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "<stdin>" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "r"), *out;
	const bs_profile *p, *fp;
	char *text = NULL;
	size_t len = 0;
	bs_dataset *d;
	bs_row r;
	bs_error err;
	int rc;

	if (!f)
		return usage_error("%s: cannot open: %s", path,
				   strerror(errno));
	d = bs_dataset_open(f, name, &err);
	if (!d) {
		if (!is_stdin)
			fclose(f);
		return report_error(&err);
	}
	rc = file_profiles(c, d, name, &p, &fp);
	out = rc ? NULL : open_memstream(&text, &len);
	if (!rc && !out)
		rc = usage_error("out of memory");
	if (!rc) {
		note_profile(c, p);
		while ((rc = bs_dataset_next(d, &r, &err)) > 0)
			if (check_row(c, out, name, bs_dataset_line(d), &r, p,
				      fp, &err) < 0) {
				rc = -1;
				break;
			}
		fclose(out);
		if (rc < 0)
			rc = report_error(&err);
		else
			fwrite(text, 1, len, stdout);
		free(text);
	}
	bs_dataset_close(d);
	if (!is_stdin)
		fclose(f);
	return rc;
}


static void print_fits(const check *c)
{
	int any = 0;

	for (int w = 0; w < BS_NWIDTHS; w++)
		for (int o = 0; o < 2; o++)
			for (int k = 0; k < 2; k++) {
				const fit_series *s = fits_group(&c->fits, w, o, k);
				bs_fit fit;

				if (s->n < 2)
					continue;
				if (!any++)
					printf("%11s %2s %6s %6s %26s %16s "
					       "%6s\n", "width_bytes", "op",
					       "packed", "n",
					       "slope_cycles_per_wavefront",
					       "intercept_cycles", "r2");
				printf("%11u %2s %6d %6zu ", fit_widths[w],
				       fit_ops[o], k, s->n);
				if (fits_line(s, &fit) < 0)
					printf("%26s %16s %6s\n",
					       "-", "-", "-");
				else
					printf("%26.3f %16.2f %6.4f\n",
					       fit.slope, fit.intercept,
					       fit.r2);
			}
	if (!any)
		puts("fit: no width, op and packing with 2 or more timed "
		     "rows");
	if (c->fits.lat_n)
		printf("latency model: max deviation %.2f cycles over %lu "
		       "row%s (worst: %s)\n", c->fits.lat_max, c->fits.lat_n,
		       c->fits.lat_n == 1 ? "" : "s", c->lat_where);
	else
		puts("latency model: no row has both "
		     "cycles_per_access_median and a latency prediction");
}

static void print_verdict(const check *c)
{
	if (!c->measured) {
		puts("verdict: NOT CHECKED: no counters in these files");
		return;
	}
	printf("verdict: %s: %lu rows, %lu measured, %lu agree, %lu disagree, "
	       "%lu skipped, %lu timing only (profile%s ",
	       c->disagree ? "DISAGREES" : "AGREES", c->rows, c->measured,
	       c->agree, c->disagree, c->skipped, c->timing,
	       c->nused > 1 ? "s" : "");
	for (int i = 0; i < c->nused; i++)
		printf("%s%s", i ? ", " : "", c->used[i]->name);
	puts(")");
}

static void check_free(check *c)
{
	fits_free(&c->fits);
}

int cmd_check(int argc, char **argv)
{
	static check c;
	const char *arch = NULL;
	char **files = calloc((size_t)argc + 1, sizeof *files);
	int nfiles = 0, rc = 0, opts = 1;

	if (!files)
		return usage_error("out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int k;

		if (opts && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			fputs(check_usage, stdout);
			free(files);
			return 0;
		}
		if (opts && !strcmp(a, "--")) {
			opts = 0;
			continue;
		}
		if (opts && !strcmp(a, "--quiet")) {
			c.quiet = 1;
			continue;
		}
		k = opts ? opt_value(argc, argv, &i, "--arch", &arch) : 0;
		if (k < 0) {
			free(files);
			return EXIT_BADINPUT;
		}
		if (k)
			continue;
		if (opts && a[0] == '-' && a[1]) {
			free(files);
			return usage_error("check: unknown option '%s' (try "
					   "bankscope check --help)", a);
		}
		files[nfiles++] = argv[i];
	}
	if (arch && !(c.arch = bs_profile_find(arch))) {
		char known[128];

		known_profiles(known, sizeof known);
		free(files);
		return usage_error("--arch: unknown profile '%s' (%s)", arch,
				   known);
	}
	if (!nfiles) {
		free(files);
		return usage_error("check: no dataset given (try bankscope "
				   "check --help)");
	}
	for (int i = 0; i < nfiles && !rc; i++)
		rc = check_file(&c, files[i]);
	if (!rc) {
		if (!c.quiet)
			print_fits(&c);
		print_verdict(&c);
		rc = c.disagree ? EXIT_DISAGREE : 0;
	}
	check_free(&c);
	free(files);
	return rc;
}
