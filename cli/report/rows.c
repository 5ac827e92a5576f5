/*
 * rows.c - what the report keeps of the dataset, read once, streamed.
 *
 * Memory does not grow with the dataset: the rows the rules read by name
 * are kept (about 90), the fits are running sums, a throughput median
 * counts distinct values (tally.c; a kind's conflict-free one keeps the
 * first row of each value), and the disagreements beyond MAX_LISTED are
 * only counted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

const char *data_meta(const data *D, const char *key)
{
	for (int i = 0; i < D->nmeta; i++)
		if (!strcmp(D->meta[i].key, key))
			return D->meta[i].value;
	return NULL;
}

void data_want(data *D, const char *probe, const char *name)
{
	wanted *w;

	if (D->nwant == NWANT_MAX)
		return;
	w = &D->want[D->nwant++];
	snprintf(w->name, sizeof w->name, "%s", name);
	w->probe = probe;
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
const item *data_find(const data *D, const char *probe, const char *name)
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
 * with the architecture, 0 it disagrees, -1 it was not judged (a note, no
 * counters, or no rule: modeled 0).  The conflict-free rows, whose
 * throughput the kind sections give, have every address lane of the
 * kind active at distinct addresses and measured wavefronts equal to the
 * architecture's ideal (and no measured conflict).
 */
static int take_kind(data *D, const item *it, int modeled, int judged)
{
	const bs_row *r = &it->r;
	kind_stats *k = &D->ks[r->access.kind][bs_width_index(r->access.width)];

	D->groups_seen |= 1u << kind_group(r->access.kind);
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

/* A disagreeing row into the list, with why; -1 out of memory. */
static int list_row(data *D, const item *it, const char *why)
{
	const bs_row *r = &it->r;
	listed *l;

	if (!D->list && !(D->list = calloc(MAX_LISTED, sizeof *D->list)))
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
	return 0;
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
		*judged = !row_disagreement(it, why, sizeof why);
		if (*judged)
			D->agree++;
		else if (D->nlisted < MAX_LISTED && list_row(D, it, why) < 0)
			return -1;
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

/* Stream the dataset d into D, under arch or the file's architecture. */
int data_read(data *D, bs_dataset *d, const char *name,
	      const bs_arch *arch)
{
	bs_error err;
	const char *prof, *key;
	item it;
	int rc;

	D->name = name;
	for (int i = 0; i < bs_dataset_nmeta(d) && i < BS_META_MAX; i++)
		D->meta[D->nmeta++] = *bs_dataset_meta_at(d, i);
	prof = bs_dataset_arch(d, &key);
	D->p = arch ? arch : prof ? bs_arch_find(prof)
				  : bs_arch_default();
	if (!D->p && !strncmp(prof, "none", 4)) {
		bs_error_set(&err, name, 0, 0, "metadata '%s: %s': no "
			     "architecture covers this GPU; derive one with "
			     "bankscope calibrate and give it with --arch",
			     key, prof);
		return report_error(&err);
	}
	if (!D->p) {
		bs_error_set(&err, name, 0, 0, "metadata '%s: %s' names "
			     "no known architecture (give --arch)", key, prof);
		return report_error(&err);
	}
	rules_want(D);
	if (!D->ds_elsewhere) {
		const char *gpu = data_meta(D, "gpu");

		D->ds.name = name;
		snprintf(D->ds.gpu, sizeof D->ds.gpu, "%s", gpu ? gpu : "");
	}
	if (D->plot)
		(D->plot_dsmem ? dsmem_plot_begin : plot_begin)(D);
	while ((rc = bs_dataset_next(d, &it.r, &err)) > 0) {
		int modeled = bs_arch_rule(D->p, it.r.access.kind,
					      it.r.access.width) != NULL;
		int judged = -1;

		it.line = bs_dataset_line(d);
		memset(&it.s, 0, sizeof it.s);
		if (!modeled) {
			/* measured, not judged: the architecture has no rule */
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
		if (!D->ds_elsewhere)
			dsmem_take(D, &it, modeled);
		if (D->plot)
			(D->plot_dsmem ? dsmem_plot_row : plot_row)(D, &it,
								    modeled);
	}
	return rc < 0 ? report_error(&err) : 0;
}

void data_free(data *D)
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
