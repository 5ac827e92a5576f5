/*
 * charts.c - the charts of the report: the one list of them (make plots
 * and tests/report_test.sh take theirs from `bankscope report
 * --list-charts`), and the page's section showing those copied in.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

const report_chart report_charts[] = {
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
	  "load of index lane*2, as the architecture predicts it (a prediction, "
	  "not a measurement)." },
	{ "bankmap-tile", "Bank map: a tile column",
	  "The same for reading column 0 of a 4-byte tile[32][32], "
	  "predicted." },
	{ "kinds-matrix", "ldmatrix and stmatrix",
	  "A row of panels for ldmatrix, which returns the matrix, and one "
	  "for stmatrix, which returns nothing.  Left: the measured "
	  "wavefronts per warp instruction of every row against the "
	  "architecture's prediction (on the dashed diagonal where they agree; "
	  "kinds whose points coincide are drawn as nested markers).  Right: "
	  "the median cycles against the wavefronts with each kind's "
	  "least-squares line: the latency of a dependent chain for "
	  "ldmatrix, the interval between back-to-back instructions for "
	  "stmatrix.  The legend under each row gives each kind's rows, how "
	  "many lie on the diagonal, and its line." },
	{ "kinds-atomics", "Shared atomics",
	  "The same for the shared atomics: a row for atom.*, which return "
	  "the old value (latency), one for red.*, which return nothing "
	  "(interval), and, apart at the bottom, the kinds the architecture does "
	  "not model: their cycles against their measured wavefronts, with "
	  "no line, since no rule predicts them." },
	{ "kinds-cpasync", "cp.async",
	  "The same for cp.async, one marker per kind and width; its cycles "
	  "are the interval between back-to-back copies, since nothing comes "
	  "back.  The kinds the architecture does not model are drawn apart at "
	  "the bottom." },
	{ "dsmem", "Distributed shared memory: load latency against sectors",
	  "The median cycles of a dependent chain of remote loads (dsmem.ld, "
	  "another CTA's shared memory on another SM; filled markers, one "
	  "color per width) against the 32-byte sectors each moved per warp "
	  "instruction (measured), with the architecture's latency line; "
	  "and, on the same axes, the same addresses loaded from the CTA's "
	  "own shared memory (local, open markers), placed at the sectors "
	  "those addresses move remotely." },
};
_Static_assert(sizeof report_charts / sizeof *report_charts == NCHARTS,
	       "NCHARTS in report.h counts the charts");
/* The bits of chart_set hold one per chart. */
_Static_assert(NCHARTS <= 32, "a chart_set bit for each chart");

void charts_list(FILE *out)
{
	for (size_t i = 0; i < NCHARTS; i++)
		fprintf(out, "%s\n", report_charts[i].name);
}

static void write_wide_cases(doc *d)
{
	static const char *const head[4] = { "Case", "Active lanes",
					     "Element of lane l",
					     "What it tests" };

	doc_para_begin(d);
	doc_text(d, "The cases of the wide chart: the rows are named "
		 "u64_ld_CASE, u64_st_CASE (8 bytes) and v4_ld_CASE, "
		 "v4_st_CASE (16 bytes); lane l reads or writes element "
		 "ELEMENT, of 8 or 16 bytes.  A load packs when every active "
		 "lane has the address of lane l^1 (or every one that of "
		 "l^2).");
	doc_para_end(d);
	doc_table_begin(d, 4, head);
	for (size_t i = 0; bs_wide_cases[i].name; i++) {
		doc_row_begin(d);
		doc_code_cell(d, bs_wide_cases[i].name);
		doc_cell(d, "%s", bs_wide_cases[i].lanes);
		doc_code_cell(d, bs_wide_cases[i].element);
		doc_cell(d, "%s", bs_wide_cases[i].what);
		doc_row_end(d);
	}
	doc_table_end(d);
}

/* One chart on the page: the PNG, linking to the SVG when there is one. */
static void figure(doc *d, const report_chart *c, int svg)
{
	fprintf(d->h, "<figure id=\"chart-%s\">", c->name);
	if (svg)
		fprintf(d->h, "<a href=\"%s.svg\">", c->name);
	fprintf(d->h, "<img src=\"%s.png\" alt=\"", c->name);
	doc_html(d->h, c->title);
	fputs("\">", d->h);
	if (svg)
		fputs("</a>", d->h);
	fputs("<figcaption><strong>", d->h);
	doc_html(d->h, c->title);
	fputs(".</strong> ", d->h);
	doc_html(d->h, c->what);
	if (svg)
		fprintf(d->h, " (<a href=\"%s.svg\">SVG</a>)", c->name);
	fputs("</figcaption></figure>\n", d->h);

	fputs("### ", d->m);
	doc_md(d->m, c->title);
	fputs("\n\n", d->m);
	if (svg)
		fprintf(d->m, "[![%s](%s.png)](%s.svg)\n\n", c->title,
			c->name, c->name);
	else
		fprintf(d->m, "![%s](%s.png)\n\n", c->title, c->name);
	doc_md(d->m, c->what);
	fputs("\n\n", d->m);
	if (!strcmp(c->name, "wide"))
		write_wide_cases(d);
}

void page_charts(doc *d, const chart_set *cs)
{
	unsigned all = (1u << NCHARTS) - 1;
	int first = 1;

	doc_heading(d, 2, "Charts");
	if (!cs->dir) {
		doc_para_begin(d);
		doc_text(d, "No chart was drawn for this report.");
		doc_para_end(d);
		return;
	}
	for (size_t i = 0; i < NCHARTS; i++)
		if (cs->have >> i & 1)
			figure(d, &report_charts[i], cs->svg >> i & 1);
	if (cs->have == all)
		return;
	doc_para_begin(d);
	doc_text(d, "Not drawn: ");
	for (size_t i = 0; i < NCHARTS; i++) {
		if (cs->have >> i & 1)
			continue;
		if (!first)
			doc_text(d, "; ");
		first = 0;
		doc_code(d, report_charts[i].name);
		if (cs->reason[i])
			doc_text(d, " (%s)", cs->reason[i]);
		else
			doc_text(d, " (no PNG in %s)", cs->dir);
	}
	doc_text(d, ".");
	doc_para_end(d);
}
