/*
 * page.c - the page: its head and style (inline, nothing fetched from
 * elsewhere, so it reads offline), the --note line, the dataset and its
 * metadata, then the sections in order; written into the output folder
 * as index.html and report.md.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

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
	const char *old_api = data_meta(D, "cuda_driver_api_version") ? NULL
			      : data_meta(D, "driver_version");

	doc_heading(d, 2, "Device and run");
	if (!D->nmeta) {
		doc_para_begin(d);
		doc_text(d, "The dataset has no metadata lines.");
		doc_para_end(d);
		return;
	}
	doc_table_begin(d, 2, mhead);
	for (int i = 0; i < D->nmeta; i++) {
		const bs_meta *m = &D->meta[i];

		doc_row_begin(d);
		doc_code_cell(d, m->key);
		if (old_api && !strcmp(m->key, "driver_version")) {
			doc_cell(d, "not recorded (this dataset's "
				 "driver_version, %s, is the CUDA driver API "
				 "version)", m->value);
			doc_row_end(d);
			doc_row_begin(d);
			doc_code_cell(d, "cuda_driver_api_version");
			doc_cell(d, "%s (written as driver_version)", m->value);
		} else {
			doc_cell(d, "%s", m->value);
		}
		doc_row_end(d);
	}
	doc_table_end(d);
}

static int write_doc(doc *d, const data *D, const char *note,
		     const chart_set *cs)
{
	const char *gpu = data_meta(D, "gpu");
	char title[600];
	int rc;

	snprintf(title, sizeof title, "bankscope report: %s",
		 gpu ? gpu : "unknown GPU");
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>", d->h);
	doc_html(d->h, title);
	fprintf(d->h, "</title>\n%s</head>\n<body>\n", style);
	if (note) {
		doc_raw(d, "<p class=\"note\">", "> ");
		doc_text(d, "%s", note);
		doc_raw(d, "</p>\n", "\n\n");
	}
	doc_heading(d, 1, title);
	doc_para_begin(d);
	doc_text(d, "Dataset ");
	doc_code(d, D->name);
	doc_text(d, ": %zu rows, %lu with counters; predictions by arch "
		 "%s (%s).", D->n, D->with_counters, D->p->name,
		 D->p->description);
	doc_para_end(d);
	write_meta(d, D);
	page_rules(d, D);
	page_latency(d, D);
	if ((rc = page_throughput(d, D)) != 0)
		return rc;
	if ((rc = page_kinds(d, D)) != 0)
		return rc;
	page_dsmem(d, D);
	page_agreement(d, D);
	page_charts(d, cs);
	fputs("</body>\n</html>\n", d->h);
	return 0;
}

int page_write(outdir *o, const data *D, const char *note,
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
