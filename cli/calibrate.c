/*
 * calibrate.c - bankscope calibrate: the architecture that explains a
 * probe run.  The arch file goes to standard output; every measured row it
 * cannot explain, and every rule the rows leave open, to standard error,
 * with the latency tolerance used.  On a terminal, a run that has lasted
 * a second shows its progress on standard error, one line rewritten as
 * rows are read and rules derived, ended before the findings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static const char calibrate_usage[] =
	"usage: bankscope calibrate [--name NAME] [--description TEXT]\n"
	"                           DATASET.csv...\n"
	"\n"
	"Derive the architecture that explains the datasets of a\n"
	"probe run on one GPU (make probe-all): the bank geometry and, for\n"
	"each access kind and width measured, the phases, packing, whether\n"
	"lanes share a word, the ideal, the latency line and the conflict-\n"
	"free throughput (a remote dsmem.* kind, from bankscope-dsmem's\n"
	"files: the sectors it moves, remote=sectors or remote=rmw, and its\n"
	"latency line against them), searched over the rule space\n"
	"(docs/model.md, \"Calibration\"), not looked up.  The arch file\n"
	"goes to stdout: save it and give it to --arch.  On stderr: every\n"
	"measured row the architecture cannot explain, with the nearest\n"
	"rule, and every rule the rows leave open, with the probe family\n"
	"that would settle it, and the latency tolerance used (from the\n"
	"rows' own noise; the remote rows' apart).  Rows of one access\n"
	"are judged once: a finding names the first and counts the rest.\n"
	"\n"
	"  --name NAME          the architecture's name (default sm_XY from\n"
	"                       the datasets' compute capability;\n"
	"                       sm_XY-calibrated where a built-in\n"
	"                       architecture is sm_XY)\n"
	"  --description TEXT   its description\n"
	"\n"
	"Exit status: 0 every row explained and no rule open, 1 some row\n"
	"unexplained or some rule open, 2 bad input.\n";

/* The progress line: when the run began, whether the line is open. */
typedef struct {
	double start, shown;
	int open;
} progress_line;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* On a terminal, from a second into the run: one line, rewritten at
 * most ten times a second. */
static void progress(void *ctx, const char *what, size_t done, size_t total)
{
	progress_line *p = ctx;
	double t = now();

	if (t - p->start < 1 || t - p->shown < 0.1)
		return;
	p->shown = t;
	p->open = 1;
	if (total)
		fprintf(stderr, "\rcalibrate: %s: %zu of %zu        ", what,
			done, total);
	else
		fprintf(stderr, "\rcalibrate: %s: %zu        ", what, done);
	fflush(stderr);
}

/* What follows the progress line starts a line of its own. */
static void end_progress(progress_line *p)
{
	if (p->open)
		fputc('\n', stderr);
	p->open = 0;
}

static int add_file(bs_calib *c, const char *path, progress_line *line)
{
	const char *name;
	FILE *f;
	bs_dataset *d;
	bs_error err;
	int rc;

	if (input_open(path, &f, &name)) {
		end_progress(line);
		return EXIT_BADINPUT;
	}
	d = bs_dataset_open(f, name, &err);
	rc = d ? bs_calib_add_dataset(c, d, name, &err) : -1;
	bs_dataset_close(d);
	input_close(f);
	if (rc < 0)
		end_progress(line);
	return rc < 0 ? report_error(&err) : 0;
}

static void print_result(const bs_calib_result *res)
{
	size_t latency = 0;

	for (size_t i = 0; i < res->nmiss; i++) {
		const bs_calib_miss *m = &res->miss[i];

		latency += (size_t)m->latency;
		fprintf(stderr, "bankscope: %s:%ld: %s (%u-byte %s): %s; "
			"nearest rule: %s", m->file, m->line, m->name,
			m->width, bs_kind_name(m->kind), m->what, m->rule);
		if (m->rows > 1)
			fprintf(stderr, " (and %zu more row%s like it)",
				m->rows - 1, m->rows == 2 ? "" : "s");
		fputc('\n', stderr);
	}
	for (size_t i = 0; i < res->nopen; i++) {
		const bs_calib_open *o = &res->open[i];

		fprintf(stderr, "bankscope: undetermined: %s", o->what);
		if (o->family[0])
			fprintf(stderr, "; probe-%s would settle it (its point "
				"%s tells them apart)", o->family, o->example);
		fputc('\n', stderr);
	}
	fprintf(stderr, "calibrate: latency tolerance %.2f cycles: the "
		"largest of %.2f, twice the rows' spread (%.2f, 90th "
		"percentile) and 3 robust deviations about the lines "
		"(%.2f)\n", res->cycles_tol, BS_CALIB_CYCLES_TOL, res->spread,
		res->sigma);
	if (res->remote_rows)
		fprintf(stderr, "calibrate: remote latency tolerance %.2f "
			"cycles, from the %zu remote rows' own noise: the "
			"largest of %.2f, twice their spread (%.2f, 90th "
			"percentile) and 3 robust deviations about their "
			"lines (%.2f)\n", res->remote.cycles,
			res->remote_rows, BS_CALIB_CYCLES_TOL,
			res->remote.spread, res->remote.sigma);
	fprintf(stderr, "calibrate: %zu measured rows (%zu distinct "
		"accesses), %zu skipped, %zu unexplained (%zu finding%s: %zu "
		"of counters, %zu of cycles), %zu rule%s undetermined\n",
		res->rows, res->distinct, res->skipped, res->miss_rows,
		res->nmiss, res->nmiss == 1 ? "" : "s", res->nmiss - latency,
		latency, res->nopen, res->nopen == 1 ? "" : "s");
}

int cmd_calibrate(int argc, char **argv)
{
	const char *name = NULL, *description = NULL;
	const cli_option own[] = {
		{ "--name", &name, NULL },
		{ "--description", &description, NULL },
	};
	static bs_arch out;
	bs_calib_options o = { 0 };
	bs_calib_result res;
	bs_calib *c = NULL;
	progress_line line = { now(), 0, 0 };
	bs_error err;
	char **files;
	int nfiles, rc;

	rc = cli_parse("calibrate", calibrate_usage, argc, argv, own,
		       sizeof own / sizeof *own, NULL, &files, &nfiles);
	if (!rc && !nfiles)
		rc = usage_error("calibrate: no dataset given (try bankscope "
				 "calibrate --help)");
	if (!rc && name && (!*name || strlen(name) >= BS_ARCH_NAME_MAX ||
			    strspn(name, "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")
				    != strlen(name)))
		rc = usage_error("option --name: '%s' is not an architecture "
				 "name (letters, digits, '_', '-', '.'; at "
				 "most %d)",
				 name, BS_ARCH_NAME_MAX - 1);
	if (!rc && description && (strchr(description, '\n') ||
				   strlen(description) >=
					   sizeof out.description))
		rc = usage_error("option --description: one line of at most "
				 "%zu bytes", sizeof out.description - 1);
	if (!rc && !(c = bs_calib_new()))
		rc = usage_error("out of memory");
	if (!rc && isatty(STDERR_FILENO))
		bs_calib_set_progress(c, progress, &line);
	for (int i = 0; !rc && i < nfiles; i++)
		rc = add_file(c, files[i], &line);
	if (!rc) {
		o.name = name;
		o.description = description;
		rc = bs_calib_run(c, &o, &out, &res, &err);
		end_progress(&line);
		if (rc < 0) {
			rc = report_error(&err);
		} else {
			bs_arch_write(stdout, &out);
			print_result(&res);
			rc = res.nmiss || res.nopen ? EXIT_DISAGREE : 0;
			bs_calib_result_free(&res);
		}
	}
	bs_calib_free(c);
	free(files);
	return rc == CLI_HELP ? 0 : rc;
}
