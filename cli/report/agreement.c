/*
 * agreement.c - predicted against measured, by check's rule: a row
 * disagrees when its measured wavefronts, or its measured conflicts where
 * there are some, are off the prediction by more than 1e-6, or when a
 * prediction stored in it is stale; the first MAX_LISTED are listed.
 */
#include <math.h>
#include <stdio.h>

#include "report.h"

/* Why a measured row disagrees, in buf; 0 when it agrees. */
int row_disagreement(const item *it, char *buf, size_t size)
{
	const bs_row *r = &it->r;
	const bs_summary *s = &it->s;
	verdict_field f[VERDICT_FIELDS];
	size_t nf = verdict_stale(r, s, f), n = 0;
	int bad = 0;

	buf[0] = '\0';
	if (!verdict_counters_agree(r, s)) {
		n += (size_t)snprintf(buf, size, "counters off the prediction");
		bad = 1;
	}
	for (size_t i = 0; i < nf && n < size; i++) {
		char a[32], b[32];

		verdict_num(a, sizeof a, f[i].stored);
		if (isnan(f[i].now))
			snprintf(b, sizeof b, "not modeled");
		else
			verdict_num(b, sizeof b, f[i].now);
		n += (size_t)snprintf(buf + n, size - n, "%s%s %s stored, "
				      "%s recomputed", n ? "; " : "stale: ",
				      f[i].name, a, b);
		bad = 1;
	}
	return bad;
}

void page_agreement(doc *d, const data *D)
{
	static const char *const head[6] = {
		"Line", "Row", "Probe, width, op",
		"Measured wavefronts, conflicts",
		"Predicted wavefronts, conflicts", "Why" };
	unsigned long disagree = D->measured - D->agree;

	doc_heading(d, 2, "Predicted against measured");
	doc_para_begin(d);
	doc_text(d, "Every row with counters is predicted again from its own "
		 "addresses under arch %s; it disagrees when its measured "
		 "wavefronts, or its measured bank conflicts, differ from the "
		 "prediction, or when a prediction stored in the row is stale "
		 "(what bankscope check does).", D->p->name);
	doc_para_end(d);
	doc_para_begin(d);
	doc_raw(d, "<strong>", "**");
	if (!D->measured)
		doc_text(d, "NOT CHECKED: %zu rows, no counters in this "
			 "dataset", D->n);
	else
		doc_text(d, "%s: %zu rows, %lu agree, %lu disagree",
			 disagree ? "DISAGREES" : "AGREES", D->n, D->agree,
			 disagree);
	doc_raw(d, "</strong>", "**");
	doc_text(d, " (%lu measured, %lu skipped for a note, %lu timing only; "
		 "arch %s).", D->measured, D->skipped, D->timing,
		 D->p->name);
	doc_para_end(d);
	if (D->not_modeled) {
		doc_para_begin(d);
		doc_text(d, "%lu rows of kinds arch %s has no rule for were "
			 "measured but not judged:", D->not_modeled,
			 D->p->name);
		for (unsigned k = 0, n = 0; k < bs_kind_count(); k++)
			if (D->not_modeled_kinds >> k & 1)
				doc_text(d, "%s %s", n++ ? "," : "",
					 bs_kind_name((bs_kind)k));
		doc_text(d, ".");
		doc_para_end(d);
	}
	if (!disagree)
		return;
	doc_table_begin(d, 6, head);
	for (size_t i = 0; i < D->nlisted; i++) {
		const listed *l = &D->list[i];
		char a[32], b[32];

		doc_row_begin(d);
		doc_cell(d, "%ld", l->line);
		doc_code_cell(d, l->name);
		doc_cell(d, "%s, %u, %s", l->probe, l->width, l->op);
		verdict_num(a, sizeof a, l->wf_measured);
		verdict_num(b, sizeof b, l->conflicts_measured);
		doc_cell(d, "%s, %s", a,
			 isnan(l->conflicts_measured) ? "-" : b);
		doc_cell(d, "%u, %u", l->wf_predicted, l->conflicts_predicted);
		doc_cell(d, "%s", l->why);
		doc_row_end(d);
	}
	doc_table_end(d);
	if (disagree > D->nlisted) {
		doc_para_begin(d);
		doc_text(d, "The first %zu disagreeing rows are listed; %lu "
			 "more are not (bankscope check ", D->nlisted,
			 disagree - D->nlisted);
		doc_code(d, D->name);
		doc_text(d, " names every one).");
		doc_para_end(d);
	}
}
