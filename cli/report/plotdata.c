/*
 * plotdata.c - --plot-data FILE: no report but FILE, a CSV the kind charts
 * (plots/kinds.gp) read: one row per dataset row with its line, kind,
 * label, group, series (the kind and width's place in its group),
 * whether the kind returns a value and whether the architecture models it,
 * the measured figures and the architecture's prediction (empty where it has
 * no rule), the architecture's name, and the row's name last (a comma in it
 * cannot shift the other columns for gnuplot, which does not read CSV
 * quotes).  It is written beside FILE and renamed over it when whole
 * (bs_output: FILE keeps its mode, a new one gets 0666 less the umask;
 * through a symbolic link, the file it leads to is replaced so); a
 * device or a FIFO is written through, never replaced (a FIFO is waited
 * on for its reader, and SIGINT, SIGTERM or SIGHUP end the wait).  FILE
 * may not be the dataset itself (a
 * link to it, or the same file): that is refused before anything is
 * written.  A signal removes the temporary.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report.h"

/*
 * A (kind, width)'s place in its group, 1-based: the kinds of the group
 * in table order, each with the widths it allows in increasing order.
 * Charts give each its marker by it, so a kind keeps its marker from one
 * dataset to the next.
 */
static unsigned series_of(bs_kind kind, unsigned width)
{
	unsigned n = 0;
	int g = kind_group(kind);

	for (bs_kind k = 0; k < bs_kind_count(); k++) {
		if (kind_group(k) != g)
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

void plot_num(FILE *f, double v)
{
	if (isnan(v))
		fputs(",", f);
	else
		fprintf(f, ",%.10g", v);
}

void plot_begin(data *D)
{
	const char *gpu = data_meta(D, "gpu");

	fprintf(D->plot, "# what: the rows of %s, each with its kind's group "
		"and the prediction of arch %s (empty where it has no rule); "
		"bankscope report --plot-data wrote it for make plots\n",
		D->name, D->p->name);
	fprintf(D->plot, "# arch: %s\n", D->p->name);
	if (gpu && !strchr(gpu, '\n'))
		fprintf(D->plot, "# gpu: %s\n", gpu);
	fputs(plot_header, D->plot);
}

void plot_row(data *D, const item *it, int modeled)
{
	const bs_row *r = &it->r;
	bs_kind k = r->access.kind;
	char label[BS_NAME_MAX];

	kind_label(label, sizeof label, k, r->access.width);
	fprintf(D->plot, "%ld,%s,%s,%s,%u,%u,%u,%d,%d,%u", it->line,
		bs_kind_name(k), label, kind_groups[kind_group(k)].id,
		series_of(k, r->access.width), r->access.width,
		(unsigned)kind_returns(k), modeled, r->note[0] != '\0',
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

/*
 * --plot-data PATH: the rows with their groups and predictions, for the
 * kind charts, and no report (--dsmem-plot-data PATH: the points of the
 * dsmem chart, dsmem.c).  Written as bs_output writes a file: to a
 * temporary beside PATH (or the file a link leads to), renamed over it
 * when whole, a device or FIFO written through.  A signal removes the temporary (it is armed
 * with the signals held, so none comes between its making and its arming).
 */
int plot_data(FILE *f, const char *name, const char *path,
	      const bs_arch *arch, int dsmem)
{
	bs_dataset *ds = NULL;
	bs_output out;
	bs_error err;
	sigset_t old;
	struct stat st;
	data *D = calloc(1, sizeof *D);
	int rc = 0, fifo;

	if (!D)
		return usage_error("out of memory");
	if (bs_same_file(fileno(f), path)) {
		free(D);
		return usage_error("%s: is the dataset %s itself: --%s would "
				   "replace it; give another file", path, name,
				   dsmem ? "dsmem-plot-data" : "plot-data");
	}
	signals_catch();
	/* A FIFO's open waits for its reader, and a signal must end that
	 * wait: the signals are held back only where a temporary is made,
	 * so that none comes between its making and its arming. */
	fifo = stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
	if (!fifo)
		signals_block(&old);
	if (bs_output_open(&out, path, &err) < 0) {
		rc = report_error(&err);
	} else if (out.tmp[0]) {
		signals_arm_file(out.tmp);
	}
	if (!fifo)
		sigprocmask(SIG_SETMASK, &old, NULL);
	D->plot = rc ? NULL : out.f;
	D->plot_dsmem = dsmem;
	if (!rc && !(ds = bs_dataset_open(f, name, &err)))
		rc = report_error(&err);
	if (!rc)
		rc = data_read(D, ds, name, arch);
	if (D->plot) {
		signals_block(&old);
		if (rc)
			bs_output_abort(&out);
		else if (bs_output_commit(&out, &err) < 0)
			rc = report_error(&err);
		signals_disarm();
		sigprocmask(SIG_SETMASK, &old, NULL);
		D->plot = NULL;
	}
	if (ds)
		bs_dataset_close(ds);
	data_free(D);
	free(D);
	return rc;
}
