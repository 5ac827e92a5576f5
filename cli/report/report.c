/*
 * report.c - bankscope report: one page on a measured dataset.
 *
 *   bankscope report [--arch NAME|FILE] [--charts DIR] [--out DIR]
 *                    [--note TEXT] [--dsmem DSMEM.csv] DATA.csv
 *   bankscope report [--arch NAME|FILE] --plot-data FILE DATA.csv
 *   bankscope report [--arch NAME|FILE] --dsmem-plot-data FILE DATA.csv
 *   bankscope report [--arch NAME|FILE] DATA1.csv DATA2.csv...  (compare.c)
 *
 * Reads the dataset once, streamed ('-' is stdin), and writes OUT/index.html
 * (one page, its style inline, nothing fetched from elsewhere, so it reads
 * offline) and OUT/report.md (the same content in GitHub Markdown).  The
 * page holds, in order: the --note line; the dataset and its "# key:
 * value" metadata; the measured rules (bank count and width, phases per
 * width, packing, multicast, stores), each derived from named rows and set
 * beside what the file's architecture predicts for the same rows; the
 * least-squares fit (fits.c) of cycles_per_access_median against
 * wavefronts per width, op and packing, over the very points `bankscope
 * check` fits: for loads the latency of a dependent chain, for stores the
 * interval between back-to-back stores (nothing waits for a store); the
 * latency model's largest deviation; throughput per width and op; then,
 * for each group of the other kinds the dataset has rows of (ldmatrix
 * and stmatrix, the shared atomics, cp.async: kind_groups[] in kinds.c, by
 * the kinds table), a section with, per kind and width, its rows, measured,
 * agreeing, disagreeing and not modeled, the architecture's rule beside them,
 * the fit of cycles against wavefronts (a latency for a kind that returns
 * a value, else the interval), the conflict-free throughput with the row
 * it comes from, and, for the kinds the architecture has no rule for, their
 * measured ranges; when there are remote rows (dsmem.*, another CTA's
 * shared memory: DATA's, or DSMEM.csv's with --dsmem), the distributed
 * shared memory section (dsmem.c); the
 * verdict of predicted against measured and the disagreements, by check's
 * rule (measured wavefronts, or measured conflicts where there are some,
 * off the prediction by more than 1e-6, or a prediction stored in the row
 * stale), the first MAX_LISTED of them listed; the charts.  The
 * architecture is the file's "# arch:" ("# profile:" in older files),
 * else sm_90.  Old datasets wrote the CUDA driver
 * API version as driver_version: without cuda_driver_api_version beside
 * it, the page says the driver was not recorded and shows that value as
 * the API version.
 *
 * --plot-data FILE writes no report but the rows the kind charts read
 * (plotdata.c); --dsmem-plot-data FILE the points of the dsmem chart.  --list-charts, for make plots and the report test, not
 * in the usage, prints the names of the charts the report shows, a line
 * each (charts.c).  The output folder is replaced whole (outdir.c); the
 * charts are copied in from --charts DIR (chartfiles.c) and shown, the
 * PNG in the page linking to the SVG, each with one sentence; without
 * --charts the page says no chart was drawn.  Every text from the
 * dataset or --note is escaped (emit.c).  report.h lists the files.
 *
 * Exit status: 0 written, whatever the agreement; 2 bad input or usage,
 * or OUT not writable (one message on stderr, naming file, line and
 * column for a malformed dataset); killed by the signal that interrupted
 * it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define DEFAULT_OUT "build/report"
static const char report_usage[] =
	"usage: bankscope report [--arch NAME|FILE] [--charts DIR] [--out DIR]\n"
	"                        [--note TEXT] [--dsmem DSMEM.csv] DATA.csv\n"
	"       bankscope report [--arch NAME|FILE] --plot-data FILE DATA.csv\n"
	"       bankscope report [--arch NAME|FILE] --dsmem-plot-data FILE DATA.csv\n"
	"       bankscope report [--arch NAME|FILE] DATA1.csv DATA2.csv...\n"
	"\n"
	"Write a report on a measured dataset: OUT/index.html (one page that\n"
	"reads offline) and OUT/report.md (the same in Markdown).  It shows\n"
	"the run's metadata, the rules the rows measure (banks, phases per\n"
	"width, packing, multicast, stores) beside the architecture's prediction,\n"
	"the latency fit and throughput per width, a section for each group\n"
	"of other kinds with rows (ldmatrix and stmatrix, shared atomics,\n"
	"cp.async: agreement, the architecture's rule, cycles against wavefronts,\n"
	"conflict-free throughput, and the ranges of kinds it does not\n"
	"model), distributed shared memory when there are remote (dsmem.*)\n"
	"rows (the remote rules, agreement on sectors and dshared wavefronts,\n"
	"remote against local cycles), every row where measured and predicted\n"
	"disagree, and the charts.  Two or more datasets are compared instead, GPU beside GPU,\n"
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
	"                 kind's group and the architecture's prediction, the\n"
	"                 CSV the kind charts read (make plots writes it)\n"
	"  --dsmem DSMEM.csv  the distributed shared memory section from\n"
	"                 DSMEM.csv's rows (bankscope-dsmem's file) instead of\n"
	"                 DATA's\n"
	"  --dsmem-plot-data FILE  write no report but FILE: DATA's remote rows\n"
	"                 and local rows of probe dsmem with the sectors they\n"
	"                 move, the CSV the dsmem chart reads\n"
	"  --arch NAME|FILE  the architecture to compare with: a built-in name\n"
	"                 or an arch file (bankscope calibrate makes one)\n"
	"\n"
	"DATA '-' reads stdin.  The architecture is --arch, else the file's\n"
	"'# arch:' metadata, else sm_90; a dataset whose GPU has no\n"
	"architecture ('# arch: none (sm_89)') needs --arch.\n"
	"\n"
	"Exit status: 0 written (whatever the agreement), 2 bad input or an\n"
	"output that cannot be written.\n";

static int report(FILE *f, const char *name, const char *out,
		  const char *note, const char *charts_dir,
		  const char *dsmem, const bs_arch *arch)
{
	chart_set cs = { charts_dir, 0, 0, { NULL } };
	bs_dataset *ds = NULL;
	outdir o;
	bs_error err;
	data *D = calloc(1, sizeof *D);
	int rc;

	if (!D)
		return usage_error("out of memory");
	signals_catch();
	rc = out_begin(&o, out);
	if (!rc && charts_dir)
		rc = charts_gather(&o, &cs);
	if (!rc && !(ds = bs_dataset_open(f, name, &err)))
		rc = report_error(&err);
	D->ds_elsewhere = dsmem != NULL;
	if (!rc)
		rc = data_read(D, ds, name, arch);
	if (!rc && dsmem)
		rc = dsmem_read(D, dsmem);
	if (!rc)
		rc = page_write(&o, D, note, &cs);
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

int cmd_report(int argc, char **argv)
{
	const char *charts_dir = NULL, *out = DEFAULT_OUT, *note = NULL;
	const char *file = NULL, *arch_name = NULL, *plot = NULL;
	const char *dsmem = NULL, *dsplot = NULL, *name;
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
		if (opts && !strcmp(a, "--list-charts")) {
			charts_list(stdout);
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
			k = opt_value(argc, argv, &i, "--dsmem", &dsmem);
		if (opts && !k)
			k = opt_value(argc, argv, &i, "--dsmem-plot-data",
				      &dsplot);
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
	if (dsplot && !*dsplot)
		return usage_error("option --dsmem-plot-data: empty file name");
	if (dsmem && !*dsmem)
		return usage_error("option --dsmem: empty file name");
	if (plot && dsplot)
		return usage_error("report: --plot-data and --dsmem-plot-data "
				   "are two runs, not one");
	if (dsplot && !plot)
		plot = dsplot;
	if (plot && (out_given || charts_dir || note || dsmem))
		return usage_error("report: --%s writes the plot data and no "
				   "report: --%s does not go with it",
				   dsplot ? "dsmem-plot-data" : "plot-data",
				   out_given ? "out" : charts_dir ? "charts"
				   : note ? "note" : "dsmem");
	if (arch_name && arch_option(arch_name, &arch))
		return EXIT_BADINPUT;
	if (nmore)
		return report_several(file, nmore, argv, out_given ||
				      charts_dir || note || plot || dsmem, arch);
	if (input_open(file, &f, &name))
		return EXIT_BADINPUT;
	if (plot)
		rc = plot_data(f, name, plot, arch, dsplot != NULL);
	else
		rc = report(f, name, out, note, charts_dir, dsmem, arch);
	input_close(f);
	return rc;
}
