/*
 * dsmem.c - distributed shared memory: the remote kinds (dsmem.*, one
 * warp's accesses to another CTA's shared memory, on another SM) that
 * bankscope-dsmem measures beside the same accesses to the warp's own
 * shared memory (docs/probes/dsmem.md).
 *
 * The section Distributed shared memory, when the rows have remote ones:
 * the architecture's remote rules (the cost key, what it moves, the
 * latency line), how many remote rows agree with it on sectors, on
 * dshared wavefronts and on both (check's verdict), per kind, and a few
 * telling 4-byte loads with their remote and local cycles.  Its rows are
 * the dataset's, or those of --dsmem FILE (a bankscope-dsmem file beside
 * a bank dataset, which make report finds), judged under the report's
 * architecture.  Which rows are held out is not in the rows (the probe's
 * holdout column is not read), so the section does not split them.
 *
 * --dsmem-plot-data FILE: the points of the dsmem chart (plots/dsmem.gp):
 * every remote row without a note, and every local row of probe dsmem
 * without a note (bankscope-dsmem's self control has one), each with the
 * sectors its addresses move remotely, measured where the row measured
 * them, and the architecture's latency line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* 4-byte loads whose remote and local costs part ways (family_dsmem). */
static const struct {
	const char *name, *what;
} telling[DSMEM_TELLING] = {
	{ "ld4_s1", "lane l reads word l: one 128-byte line, 4 sectors" },
	{ "ld4_s32", "lane l reads word 32 l: a sector per lane; in the "
		     "CTA's own shared memory one bank for all 32" },
	{ "ld4_s33", "lane l reads word 33 l: padded, a bank per lane in "
		     "the CTA's own, still a sector per lane remotely" },
	{ "ld4_bcast", "every lane reads word 5" },
};

static int telling_index(const char *name)
{
	for (int i = 0; i < DSMEM_TELLING; i++)
		if (!strcmp(telling[i].name, name))
			return i;
	return -1;
}

static int is_remote(bs_kind k)
{
	return bs_kind_get(k)->remote;
}

/* Keep the row when it is the first remote, or the first local (a bank
 * kind without a note), row of a telling name. */
static void keep_telling(dsmem_data *S, const item *it)
{
	int t = telling_index(it->r.access.name);
	telling_row *tr;

	if (t < 0)
		return;
	tr = &S->tell[t];
	if (is_remote(it->r.access.kind) && !tr->have_remote) {
		tr->remote = *it;
		tr->have_remote = 1;
	} else if (!is_remote(it->r.access.kind) && !it->r.note[0] &&
		   !tr->have_local) {
		tr->local = *it;
		tr->have_local = 1;
	}
}

void dsmem_take(data *D, const item *it, int modeled)
{
	dsmem_data *S = &D->ds;
	const bs_row *r = &it->r;
	remote_stats *k = &S->ks[r->access.kind];
	char why[512];
	unsigned differ;

	keep_telling(S, it);
	if (!is_remote(r->access.kind))
		return;
	S->rows++;
	k->rows++;
	k->widths |= 1u << bs_width_index(r->access.width);
	if (!modeled) {
		k->not_modeled++;
		return;
	}
	if (r->note[0] || isnan(r->wavefronts_measured))
		return;
	k->measured++;
	differ = bs_counters_differ(r->wavefronts_measured, NAN, &it->s) |
		 bs_sectors_differ(r->sectors_measured, &it->s);
	k->wf_agree += !(differ & BS_DIFFER_WAVEFRONTS);
	k->sectors_agree += !isnan(r->sectors_measured) &&
			    !(differ & BS_DIFFER_SECTORS);
	if (row_disagreement(it, why, sizeof why))
		k->disagree++;
	else
		k->agree++;
}

int dsmem_read(data *D, const char *path)
{
	FILE *f = fopen(path, "r");
	const char *gpu;
	bs_dataset *ds;
	bs_error err;
	item it;
	int rc;

	if (!f)
		return usage_error("%s: cannot open: %s", path,
				   strerror(errno));
	if (!(ds = bs_dataset_open(f, path, &err))) {
		fclose(f);
		return report_error(&err);
	}
	D->ds.name = path;
	gpu = bs_dataset_meta(ds, "gpu");
	snprintf(D->ds.gpu, sizeof D->ds.gpu, "%s", gpu ? gpu : "");
	while ((rc = bs_dataset_next(ds, &it.r, &err)) > 0) {
		int modeled = bs_arch_rule(D->p, it.r.access.kind,
					   it.r.access.width) != NULL;

		it.line = bs_dataset_line(ds);
		memset(&it.s, 0, sizeof it.s);
		if (modeled && bs_predict(D->p, &it.r.access, &it.s,
					  &err) < 0) {
			rc = -1;
			break;
		}
		dsmem_take(D, &it, modeled);
	}
	bs_dataset_close(ds);
	fclose(f);
	if (rc < 0)
		return report_error(&err);
	if (!D->ds.rows)
		return usage_error("%s: no remote (dsmem.*) row: --dsmem takes "
				   "a bankscope-dsmem dataset", path);
	return 0;
}

/* "1, 2, 4, 8, 16": the widths of bits w. */
static void widths_text(char *buf, size_t size, unsigned bits)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int w = 0; w < BS_NWIDTHS && n < size; w++)
		if (bits >> w & 1)
			n += (size_t)snprintf(buf + n, size - n, "%s%u",
					      n ? ", " : "", bs_widths[w]);
}

/* A remote rule in words: its key, what it moves, its latency line. */
static void rule_words(const bs_arch *p, bs_kind k, int w, char *key,
		       char *moves, char *lat, size_t size)
{
	const bs_rule *r = bs_arch_rule(p, k, bs_widths[w]);
	char a[32], b[32];

	if (!r || !r->remote) {
		snprintf(key, size, "none");
		snprintf(moves, size, "not modeled");
		snprintf(lat, size, "-");
		return;
	}
	snprintf(key, size, "remote=%s", bs_remote_name(r->remote));
	snprintf(moves, size, "%s", r->remote == BS_REMOTE_RMW
		 ? "a read and a write of each 32-byte sector per pass (a "
		 "sector's passes: the most lanes on one of its words)"
		 : r->remote == BS_REMOTE_WRITES
		 ? "the distinct 32-byte sectors of each 128-byte line, 2 "
		 "for a line whose one sector is written in both 16-byte "
		 "halves"
		 : "its distinct 32-byte sectors");
	if (isnan(r->lat_slope)) {
		snprintf(lat, size, "%s", kind_returns(k) ? "no latency line"
			 : "none: nothing waits for it (its cycles are an "
			 "issue interval)");
		return;
	}
	verdict_num(a, sizeof a, r->lat_base);
	verdict_num(b, sizeof b, r->lat_slope);
	snprintf(lat, size, "%s + %s x sectors", a, b);
}

/* The rules of the remote kinds with rows, widths of one rule together. */
static void write_rules(doc *d, const data *D)
{
	static const char *const head[5] = {
		"Kind", "Widths (bytes)", "Cost key", "Sectors moved",
		"Latency line (cycles; x: sectors per instruction)" };
	unsigned used = 0;

	doc_table_begin(d, 5, head);
	for (bs_kind k = 0; k < bs_kind_count(); k++) {
		unsigned left = D->ds.ks[k].widths;

		while (left) {
			char key[160], mv[160], lat[160], k2[160], m2[160];
			char l2[160], wt[64];
			int w = __builtin_ctz(left);
			unsigned same = 0;
			const bs_rule *r = bs_arch_rule(D->p, k, bs_widths[w]);

			rule_words(D->p, k, w, key, mv, lat, sizeof key);
			for (int v = w; v < BS_NWIDTHS; v++) {
				if (!(left >> v & 1))
					continue;
				rule_words(D->p, k, v, k2, m2, l2, sizeof k2);
				if (!strcmp(key, k2) && !strcmp(lat, l2))
					same |= 1u << v;
			}
			left &= ~same;
			if (r && r->source < 32)
				used |= 1u << r->source;
			widths_text(wt, sizeof wt, same);
			doc_row_begin(d);
			doc_code_cell(d, bs_kind_name(k));
			doc_cell(d, "%s", wt);
			doc_code_cell(d, key);
			doc_cell(d, "%s", mv);
			doc_cell(d, "%s", lat);
			doc_row_end(d);
		}
	}
	doc_table_end(d);
	write_sources(d, D->p, used);
}

static void agreement_cells(doc *d, const remote_stats *k)
{
	doc_cell(d, "%lu", k->rows);
	doc_cell(d, "%lu", k->measured);
	if (k->not_modeled == k->rows) {
		for (int i = 0; i < 4; i++)
			doc_cell(d, "-");
		doc_cell(d, "%lu", k->not_modeled);
		return;
	}
	doc_cell(d, "%lu", k->sectors_agree);
	doc_cell(d, "%lu", k->wf_agree);
	doc_cell(d, "%lu", k->agree);
	doc_cell(d, "%lu", k->disagree);
	doc_cell(d, "%lu", k->not_modeled);
}

static void write_agreement(doc *d, const data *D)
{
	static const char *const head[9] = {
		"Kind", "Widths (bytes)", "Remote rows", "Measured",
		"Agree on sectors (sectors per instruction)",
		"Agree on dshared wavefronts (per instruction)",
		"Agree on both (check's verdict)", "Disagree", "Not modeled" };
	remote_stats all = { 0 };
	char wt[64];

	doc_table_begin(d, 9, head);
	for (bs_kind k = 0; k < bs_kind_count(); k++) {
		const remote_stats *s = &D->ds.ks[k];

		if (!s->rows)
			continue;
		all.rows += s->rows;
		all.measured += s->measured;
		all.not_modeled += s->not_modeled;
		all.sectors_agree += s->sectors_agree;
		all.wf_agree += s->wf_agree;
		all.agree += s->agree;
		all.disagree += s->disagree;
		all.widths |= s->widths;
		widths_text(wt, sizeof wt, s->widths);
		doc_row_begin(d);
		doc_code_cell(d, bs_kind_name(k));
		doc_cell(d, "%s", wt);
		agreement_cells(d, s);
		doc_row_end(d);
	}
	widths_text(wt, sizeof wt, all.widths);
	doc_row_begin(d);
	doc_cell(d, "all");
	doc_cell(d, "%s", wt);
	agreement_cells(d, &all);
	doc_row_end(d);
	doc_table_end(d);
}

/* A measured count or cycles in a cell, "-" when there is none. */
static void num_cell(doc *d, int have, double v)
{
	char a[32];

	if (!have || isnan(v)) {
		doc_cell(d, "-");
		return;
	}
	verdict_num(a, sizeof a, v);
	doc_cell(d, "%s", a);
}

static void write_telling(doc *d, const data *D)
{
	char pred[96], lat[96];
	const char *head[8] = {
		"Access", "Addresses (4-byte loads)",
		"Sectors measured (sectors per instruction)", pred,
		"Remote latency (cycles, median)", lat,
		"Local latency (cycles, median)",
		"Local wavefronts (per instruction)" };
	int any = 0;

	snprintf(pred, sizeof pred, "Sectors arch %s predicts (sectors per "
		 "instruction)", D->p->name);
	snprintf(lat, sizeof lat, "Remote latency arch %s predicts (cycles)",
		 D->p->name);
	for (int i = 0; i < DSMEM_TELLING; i++) {
		const telling_row *t = &D->ds.tell[i];
		int pr = t->have_remote && bs_arch_rule(D->p,
			t->remote.r.access.kind, t->remote.r.access.width);

		if (!t->have_remote)
			continue;
		if (!any++)
			doc_table_begin(d, 8, head);
		doc_row_begin(d);
		doc_code_cell(d, telling[i].name);
		doc_cell(d, "%s", telling[i].what);
		num_cell(d, 1, t->remote.r.sectors_measured);
		num_cell(d, pr, t->remote.s.sectors);
		num_cell(d, 1, t->remote.r.cycles_per_access_median);
		num_cell(d, pr, t->remote.s.latency_cycles);
		num_cell(d, t->have_local, t->local.r.cycles_per_access_median);
		num_cell(d, t->have_local, t->local.r.wavefronts_measured);
		doc_row_end(d);
	}
	if (any) {
		doc_table_end(d);
		return;
	}
	doc_para_begin(d);
	doc_text(d, "No remote row is named ld4_s1, ld4_s32, ld4_s33 or "
		 "ld4_bcast (bankscope-dsmem's names).");
	doc_para_end(d);
}

void page_dsmem(doc *d, const data *D)
{
	const dsmem_data *S = &D->ds;
	char sub[128];

	if (!S->rows)
		return;
	doc_heading(d, 2, "Distributed shared memory");
	doc_para_begin(d);
	doc_text(d, "One warp's loads, stores and atomics on another CTA's "
		 "shared memory, on another SM, through a cluster address "
		 "(the remote kinds dsmem.*).  No bank counter sees them: the "
		 "network between the SMs moves 32-byte sectors, and a remote "
		 "rule prices an access by the sectors it moves, its dshared "
		 "wavefronts by its distinct 128-byte lines (docs/model.md, "
		 "section \"%s\").  %lu remote rows of ",
		 kind_groups[G_DSMEM].model, S->rows);
	doc_code(d, S->name);
	doc_text(d, "%s%s%s, judged under arch %s as bankscope check judges "
		 "them.", S->gpu[0] ? " (" : "", S->gpu, S->gpu[0] ? ")" : "",
		 D->p->name);
	doc_para_end(d);
	snprintf(sub, sizeof sub, "Remote rules of arch %s", D->p->name);
	doc_heading(d, 3, sub);
	write_rules(d, D);
	doc_heading(d, 3, "Remote rows against the rules");
	doc_para_begin(d);
	doc_text(d, "A measured remote row agrees on sectors when the "
		 "crossbar read sectors it measured per warp instruction are "
		 "those the rule predicts from its addresses, on dshared "
		 "wavefronts when its measured dshared wavefronts are; it "
		 "agrees (check's verdict) when both do and no prediction "
		 "stored in it is stale.  Rows with a note are not measured "
		 "here.");
	doc_para_end(d);
	write_agreement(d, D);
	doc_heading(d, 3, "Remote against local: the same addresses");
	doc_para_begin(d);
	doc_text(d, "4-byte loads of one warp, the latency of a dependent "
		 "chain, from another CTA's shared memory (remote) and from "
		 "the CTA's own (local, the row of the same name): a bank "
		 "conflict costs the local load, the sectors the remote one.");
	doc_para_end(d);
	write_telling(d, D);
}

/* ---- --dsmem-plot-data ----------------------------------------------- */

static const char dsmem_plot_header[] =
	"line,target,kind,width,sectors,sectors_measured,sectors_predicted,"
	"cycles_per_access_median,latency_cycles_predicted,lat_base,"
	"lat_slope,arch,name\n";

void dsmem_plot_begin(data *D)
{
	const char *gpu = data_meta(D, "gpu");

	fprintf(D->plot, "# what: the remote rows of %s and its local rows "
		"of probe dsmem, each with the sectors its addresses move "
		"remotely (measured where measured) and the latency line of "
		"arch %s; bankscope report --dsmem-plot-data wrote it for "
		"make plots\n", D->name, D->p->name);
	fprintf(D->plot, "# arch: %s\n", D->p->name);
	if (gpu && !strchr(gpu, '\n'))
		fprintf(D->plot, "# gpu: %s\n", gpu);
	fputs(dsmem_plot_header, D->plot);
}

void dsmem_plot_row(data *D, const item *it, int modeled)
{
	const bs_row *r = &it->r;
	const bs_rule *rule = NULL;
	int remote = is_remote(r->access.kind);
	double x = r->sectors_measured;
	bs_remote g;

	if (r->note[0] || (!remote && strcmp(r->probe, "dsmem")))
		return;
	if (remote && modeled)
		rule = bs_arch_rule(D->p, r->access.kind, r->access.width);
	if (remote && isnan(x) && rule)
		x = it->s.sectors;
	if (!remote && bs_remote_geometry(&r->access, &g) == 0)
		x = g.sectors;
	fprintf(D->plot, "%ld,%s,%s,%u", it->line, remote ? "remote" : "local",
		bs_kind_name(r->access.kind), r->access.width);
	plot_num(D->plot, x);
	plot_num(D->plot, remote ? r->sectors_measured : NAN);
	plot_num(D->plot, rule ? it->s.sectors : NAN);
	plot_num(D->plot, r->cycles_per_access_median);
	plot_num(D->plot, rule ? it->s.latency_cycles : NAN);
	plot_num(D->plot, rule ? rule->lat_base : NAN);
	plot_num(D->plot, rule ? rule->lat_slope : NAN);
	fprintf(D->plot, ",%s,", D->p->name);
	bs_csv_field(D->plot, r->access.name);
	fputc('\n', D->plot);
}
