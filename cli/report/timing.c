/*
 * timing.c - the loads' and stores' timing: the least-squares fit (fits.c)
 * of cycles_per_access_median against wavefronts per width, op and
 * packing, over the very points `bankscope check` fits (for loads the
 * latency of a dependent chain, for stores the interval between
 * back-to-back stores: nothing waits for a store), the latency model's
 * largest deviation, and throughput per width and op.
 */
#include <math.h>
#include <stdio.h>

#include "report.h"

void fit_cells(doc *d, const fit_series *s)
{
	bs_fit f;

	if (fits_line(s, &f) < 0) {
		doc_cell(d, "-");
		doc_cell(d, "-");
		doc_cell(d, "-");
	} else {
		doc_cell(d, "%.3f", f.slope);
		doc_cell(d, "%.2f", f.intercept);
		doc_cell(d, "%.4f", f.r2);
	}
}

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

				if (s->n < 2 || kind_group(o) != G_LDST ||
				    kind_is_store(o) != stores)
					continue;
				if (!any++)
					doc_table_begin(d, 7, stores
							? store_head
							: load_head);
				doc_row_begin(d);
				doc_cell(d, "%u", bs_widths[w]);
				doc_cell(d, "%s", bs_kind_name(o));
				doc_cell(d, "%s", k ? "yes" : "no");
				doc_cell(d, "%zu", s->n);
				fit_cells(d, s);
				doc_row_end(d);
			}
	if (any)
		doc_table_end(d);
	return any;
}

void page_latency(doc *d, const data *D)
{
	doc_heading(d, 2, "Latency of loads");
	doc_para_begin(d);
	doc_text(d, "Median cycles per load of a dependent chain (each load "
		 "waits for the one before it) against wavefronts per warp "
		 "instruction (measured; predicted in rows without counters), "
		 "fitted by least squares per width and packing (groups of 2 "
		 "or more timed rows).");
	doc_para_end(d);
	if (!write_fits(d, D, 0)) {
		doc_para_begin(d);
		doc_text(d, "No width and packing has 2 or more timed loads.");
		doc_para_end(d);
	}
	doc_para_begin(d);
	if (D->fits.lat_n)
		doc_text(d, "Latency model of arch %s: largest deviation "
			 "%.2f cycles over %zu row%s (worst: line %ld, %s).",
			 D->p->name, D->fits.lat_max, D->fits.lat_n,
			 D->fits.lat_n == 1 ? "" : "s", D->worst_line,
			 D->worst_name);
	else
		doc_text(d, "Latency model: no row has both "
			 "cycles_per_access_median and a latency prediction.");
	doc_para_end(d);

	doc_heading(d, 2, "Stores: interval between back-to-back stores");
	doc_para_begin(d);
	doc_text(d, "Nothing waits for a store, so a store has no latency to "
		 "measure: the cycles per access of a store row are the "
		 "interval at which one warp issues back-to-back stores to the "
		 "same address.  The same least-squares fit against "
		 "wavefronts, per width; the architecture predicts no store "
		 "timing.");
	doc_para_end(d);
	if (!write_fits(d, D, 1)) {
		doc_para_begin(d);
		doc_text(d, "No width has 2 or more timed stores.");
		doc_para_end(d);
	}
}

int page_throughput(doc *d, const data *D)
{
	static const char *const head[7] = {
		"Width (bytes)", "Op", "n",
		"Stride 1 (bytes per clock per SM)",
		"Wavefronts per clock per SM (median)",
		"Highest (bytes per clock per SM)", "Highest in row" };
	int any = 0;

	doc_heading(d, 2, "Throughput");
	doc_para_begin(d);
	doc_text(d, "Every SM running its warps flat out on one access "
		 "(tp_bytes_per_clk_per_sm counts the bytes the lanes request, "
		 "so multicast rows can exceed the 128 bytes 32 banks of 4 "
		 "bytes deliver per clock); stride 1 is the conflict-free load "
		 "or store of probe stride.");
	doc_para_end(d);
	for (int w = 0; w < BS_NWIDTHS; w++)
		for (bs_kind o = 0; o < bs_kind_count(); o++) {
			const tp_group *g = &D->tp[w][o];
			const item *s1;
			char name[BS_NAME_MAX], a[32];
			double med;

			if (!g->n || kind_group(o) != G_LDST)
				continue;
			if (!any++)
				doc_table_begin(d, 7, head);
			bs_stride_name(name, w, o, 1);
			s1 = data_find(D, "stride", name);
			doc_row_begin(d);
			doc_cell(d, "%u", bs_widths[w]);
			doc_cell(d, "%s", bs_kind_name(o));
			doc_cell(d, "%zu", g->n);
			if (s1 && !isnan(s1->r.tp_bytes_per_clk_per_sm))
				doc_cell(d, "%.3f",
					 s1->r.tp_bytes_per_clk_per_sm);
			else
				doc_cell(d, "-");
			if (g->wf.total && tally_median(&g->wf, &med) < 0)
				return usage_error("out of memory");
			if (g->wf.total) {
				verdict_num(a, sizeof a, med);
				doc_cell(d, "%s", a);
			} else {
				doc_cell(d, "-");
			}
			doc_cell(d, "%.3f", g->top);
			doc_code_cell(d, g->top_name);
			doc_row_end(d);
		}
	if (any) {
		doc_table_end(d);
	} else {
		doc_para_begin(d);
		doc_text(d, "No row has a throughput measurement.");
		doc_para_end(d);
	}
	return 0;
}
