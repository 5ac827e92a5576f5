/*
 * kinds.c - the groups of kinds (report.h says how a kind finds its
 * group) and a section for each group but the loads and stores: per kind
 * and width its rows, measured, agreeing, disagreeing and not modeled,
 * the architecture's rule beside them, the fit of cycles against wavefronts (a
 * latency for a kind that returns a value, else the interval), the
 * conflict-free throughput with the row it comes from, and, for the kinds
 * the architecture has no rule for, their measured ranges.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

const kind_group_info kind_groups[NGROUPS] = {
	{ "ldst", { "ld", "st" }, "Loads and stores", "ld or st rows",
	  "Rule 1", NULL },
	{ "matrix", { "ldsm.x1", "stsm.x1" }, "ldmatrix and stmatrix",
	  "ldmatrix or stmatrix rows",
	  "ldmatrix and stmatrix: one phase per matrix",
	  "ldmatrix (LDSM) and stmatrix (STSM) move one 16-byte row per "
	  "address lane: lanes 0-7 give matrix 0's eight rows, 8-15 matrix "
	  "1's, and so on (x1 uses lanes 0-7, x2 lanes 0-15)." },
	{ "atomics", { "atom.add.u32", NULL }, "Shared atomics",
	  "shared atomic rows",
	  "Shared atomics: every lane's word on its own",
	  "Shared-memory atomics (ATOMS), one 4- or 8-byte word per lane; "
	  "atom.* return the old value, red.* do not." },
	{ "cpasync", { "cp.async.ca", NULL }, "cp.async", "cp.async rows",
	  "cp.async: .ca in STS's phases, .cg by lines",
	  "cp.async (LDGSTS) copies from global memory into shared memory; "
	  "the address of a row is the lane's shared destination, and "
	  "nothing comes back to wait for." },
	{ "dsmem", { NULL, NULL }, "Distributed shared memory",
	  "remote (dsmem.*) rows",
	  "Distributed shared memory: sectors, not banks",
	  "Another CTA's shared memory, through a cluster address." },
	{ "other", { NULL, NULL }, "Other kinds", "rows of other kinds",
	  "Access kinds",
	  "Kinds of the kinds table that no section above covers." },
};

/* Whether kind k's SASS opcode (its modifiers left out) is that of the
 * kind named name. */
static int same_opcode(bs_kind k, const char *name)
{
	const char *sass = bs_kind_get(k)->sass, *other;
	size_t n = strcspn(sass, ".");
	bs_kind m;

	if (!name || bs_kind_find(name, &m) < 0)
		return 0;
	other = bs_kind_get(m)->sass;
	return strcspn(other, ".") == n && !strncmp(other, sass, n);
}

int kind_group(bs_kind k)
{
	static signed char group[BS_MAX_KINDS];
	static int known;

	if (k >= bs_kind_count())
		return G_OTHER;
	if (!known) {   /* once: rows ask for it several times each */
		for (bs_kind i = 0; i < bs_kind_count(); i++) {
			group[i] = bs_kind_get(i)->remote ? G_DSMEM
							  : G_OTHER;
			for (int g = G_DSMEM - 1; !bs_kind_get(i)->remote &&
			     g >= 0; g--)
				if (same_opcode(i, kind_groups[g].kind[0]) ||
				    same_opcode(i, kind_groups[g].kind[1]))
					group[i] = (signed char)g;
		}
		known = 1;
	}
	return group[k];
}

int kind_is_store(bs_kind k)
{
	return bs_kind_get(k)->direction == BS_WRITES;
}

int kind_returns(bs_kind k)
{
	return bs_kind_get(k)->returns;
}

/* "3 - 592", "3" when every value was one, "-" when there was none. */
static void range_text(char *buf, size_t size, const range *g)
{
	char a[32], b[32];

	if (!g->n) {
		snprintf(buf, size, "-");
		return;
	}
	verdict_num(a, sizeof a, g->lo);
	verdict_num(b, sizeof b, g->hi);
	if (g->lo == g->hi)
		snprintf(buf, size, "%s", a);
	else
		snprintf(buf, size, "%s - %s", a, b);
}

void report_rule_text(char *buf, size_t size, const bs_arch *p,
		      const bs_rule *r)
{
	size_t n = (size_t)snprintf(buf, size, "phase=%u", r->phase_lanes);

	if (r->packed_lanes && n < size) {
		char pt[BS_PARTNERS_TEXT_MAX];

		n += (size_t)snprintf(buf + n, size - n, " packed=%u partners=%s",
				      r->packed_lanes,
				      bs_partners_text(r->pack_partners, pt));
	}
	if (n < size)
		snprintf(buf + n, size - n, " same_word=%s slot_waves=%u "
			 "ideal=%s%s%s%s source=%s",
			 bs_same_word_name(r->same_word),
			 r->slot_waves ? r->slot_waves : 1,
			 bs_ideal_name(r->ideal), r->loop ? " loop=cas" : "",
			 r->copy ? " copy=" : "", r->copy ? bs_copy_name(r->copy)
						     : "",
			 r->source < p->nsources ? p->source[r->source].tag
						 : "?");
}

/* The (kind, width)s of group g with rows, in table order; k < 0 ends. */
static int next_kind(const data *D, int g, int *k, int *w)
{
	for (;;) {
		if (++*w == BS_NWIDTHS) {
			*w = 0;
			++*k;
		}
		if ((unsigned)*k >= bs_kind_count())
			return 0;
		if (kind_group((bs_kind)*k) == g && D->ks[*k][*w].rows)
			return 1;
	}
}

#define EACH_KIND(D, g, k, w) \
	for (int k = 0, w = -1; next_kind(D, g, &k, &w);)

static void write_kind_rules(doc *d, const data *D, int g)
{
	char prof[96];
	const char *head[8] = { "Kind", "Width (bytes)", "Rows", "Measured",
				"Agree", "Disagree", "Not modeled", prof };
	unsigned used = 0;

	snprintf(prof, sizeof prof, "Rule of arch %s", D->p->name);
	doc_table_begin(d, 8, head);
	EACH_KIND(D, g, k, w) {
		const kind_stats *ks = &D->ks[k][w];
		const bs_rule *r = bs_arch_rule(D->p, (bs_kind)k,
						   bs_widths[w]);
		char rule[REPORT_RULE_TEXT_MAX];

		doc_row_begin(d);
		doc_code_cell(d, bs_kind_name((bs_kind)k));
		doc_cell(d, "%u", bs_widths[w]);
		doc_cell(d, "%lu", ks->rows);
		doc_cell(d, "%lu", ks->measured);
		if (r) {
			doc_cell(d, "%lu", ks->agree);
			doc_cell(d, "%lu", ks->disagree);
			doc_cell(d, "0");
			report_rule_text(rule, sizeof rule, D->p, r);
			doc_code_cell(d, rule);
			if (r->source < 32)
				used |= 1u << r->source;
		} else {
			doc_cell(d, "-");
			doc_cell(d, "-");
			doc_cell(d, "%lu", ks->not_modeled);
			doc_cell(d, "none: not modeled");
		}
		doc_row_end(d);
	}
	doc_table_end(d);
	write_sources(d, D->p, used);
}

void write_sources(doc *d, const bs_arch *p, unsigned used)
{
	for (unsigned i = 0; i < p->nsources && i < 32; i++)
		if (used >> i & 1) {
			doc_para_begin(d);
			doc_text(d, "Source ");
			doc_code(d, p->source[i].tag);
			doc_text(d, ": %s.", p->source[i].text);
			doc_para_end(d);
		}
}

/* What rule r predicts of the cycles, packed (pk) or not, in a cell. */
static void predicted_timing(doc *d, const bs_rule *r, int ret, int pk)
{
	char a[32], b[32];

	if (!ret || isnan(r->lat_slope)) {
		doc_cell(d, "%s", !ret ? "no timing: nothing waits for it"
			 : r->loop ? "no latency line: a retry loop's cycles "
			 "follow its passes" : "no latency model");
		return;
	}
	verdict_num(a, sizeof a, pk ? r->lat_packed : r->lat_base);
	verdict_num(b, sizeof b, r->lat_slope);
	doc_cell(d, "%s + %s x wavefronts", a, b);
}

static void write_kind_timing(doc *d, const data *D, int g)
{
	char prof[96];
	const char *head[8] = { "Kind", "Width (bytes)", "Cycles are", "n",
				"Slope (cycles per wavefront)",
				"Intercept (cycles)", "r2", prof };
	int any = 0;

	snprintf(prof, sizeof prof, "Arch %s predicts", D->p->name);
	EACH_KIND(D, g, k, w) {
		const bs_rule *r = bs_arch_rule(D->p, (bs_kind)k,
						   bs_widths[w]);
		int ret = kind_returns((bs_kind)k);

		for (int pk = 0; r && pk < 2; pk++) {
			const fit_series *s = fits_group(&D->fits, w, k, pk);

			if (!s->n || (pk && !r->packed_lanes))
				continue;
			if (!any++)
				doc_table_begin(d, 8, head);
			doc_row_begin(d);
			doc_cell_begin(d);
			doc_code(d, bs_kind_name((bs_kind)k));
			if (pk)
				doc_text(d, ", packed");
			doc_cell_end(d);
			doc_cell(d, "%u", bs_widths[w]);
			doc_cell(d, "%s", ret ? "latency (dependent chain)"
				 : "interval (back to back)");
			doc_cell(d, "%zu", s->n);
			fit_cells(d, s);
			predicted_timing(d, r, ret, pk);
			doc_row_end(d);
		}
	}
	if (any) {
		doc_table_end(d);
		return;
	}
	doc_para_begin(d);
	doc_text(d, "No kind the architecture models has timed rows.");
	doc_para_end(d);
}

static int write_kind_throughput(doc *d, const data *D, int g)
{
	char prof[96];
	const char *head[6] = {
		"Kind", "Width (bytes)", "Conflict-free rows",
		"Throughput (bytes per clock per SM, median)", "From row",
		prof };
	int any = 0;

	snprintf(prof, sizeof prof, "Arch %s (bytes per clock per SM)",
		 D->p->name);
	EACH_KIND(D, g, k, w) {
		const kind_stats *ks = &D->ks[k][w];
		const bs_rule *r = bs_arch_rule(D->p, (bs_kind)k,
						   bs_widths[w]);
		const tally *t = &ks->free_tp;
		size_t lo, hi;
		double med;

		if (!r || !ks->tp.n)
			continue;
		if (!any++)
			doc_table_begin(d, 6, head);
		doc_row_begin(d);
		doc_code_cell(d, bs_kind_name((bs_kind)k));
		doc_cell(d, "%u", bs_widths[w]);
		doc_cell(d, "%zu", t->total);
		if (!t->total) {
			doc_cell(d, "-");
			doc_cell(d, "no row runs every address lane of the "
				 "kind at its own address without a conflict");
		} else if (tally_middle(t, &med, &lo, &hi) < 0) {
			return usage_error("out of memory");
		} else {
			doc_cell(d, "%.3f", med);
			doc_cell_begin(d);
			doc_code(d, t->name[lo]);
			doc_text(d, " (line %ld)", t->line[lo]);
			if (hi != lo) {
				doc_text(d, " and ");
				doc_code(d, t->name[hi]);
				doc_text(d, " (line %ld), the middle two",
					 t->line[hi]);
			}
			doc_cell_end(d);
		}
		if (isnan(r->tp_bytes_per_clk))
			doc_cell(d, "not measured");
		else
			doc_cell(d, "%.2f", r->tp_bytes_per_clk);
		doc_row_end(d);
	}
	if (any) {
		doc_table_end(d);
	} else {
		doc_para_begin(d);
		doc_text(d, "No row of a kind the architecture models has a "
			 "throughput measurement.");
		doc_para_end(d);
	}
	return 0;
}

static void write_not_modeled(doc *d, const data *D, int g)
{
	static const char *const head[8] = {
		"Kind", "Width (bytes)", "Rows", "Measured",
		"Wavefronts (min - max)", "Bank conflicts (min - max)",
		"Cycles (min - max)", "Throughput (bytes per clock per SM, "
		"min - max)" };
	int any = 0;

	EACH_KIND(D, g, k, w) {
		const kind_stats *ks = &D->ks[k][w];
		char v[96];

		if (!ks->not_modeled)
			continue;
		if (!any++) {
			doc_para_begin(d);
			doc_text(d, "Not modeled: arch %s has no rule for "
				 "the kinds below, so their rows are measured "
				 "but not judged (docs/model.md, section "
				 "\"%s\", says why).  Their measured ranges:",
				 D->p->name, kind_groups[g].model);
			doc_para_end(d);
			doc_table_begin(d, 8, head);
		}
		doc_row_begin(d);
		doc_code_cell(d, bs_kind_name((bs_kind)k));
		doc_cell(d, "%u", bs_widths[w]);
		doc_cell(d, "%lu", ks->rows);
		doc_cell(d, "%lu", ks->measured);
		range_text(v, sizeof v, &ks->wf);
		doc_cell(d, "%s", v);
		range_text(v, sizeof v, &ks->bc);
		doc_cell(d, "%s", v);
		range_text(v, sizeof v, &ks->cycles);
		if (ks->cycles.n)
			doc_cell(d, "%s (%s)", v, kind_returns((bs_kind)k)
				 ? "latency" : "interval");
		else
			doc_cell(d, "%s", v);
		range_text(v, sizeof v, &ks->tp);
		doc_cell(d, "%s", v);
		doc_row_end(d);
	}
	if (any)
		doc_table_end(d);
}

/* One section per group other than the loads and stores, with rows;
 * the distributed shared memory has its own (dsmem.c). */
int page_kinds(doc *d, const data *D)
{
	for (int g = G_LDST + 1; g < NGROUPS; g++) {
		unsigned long rows = 0, agree = 0, disagree = 0, nm = 0;
		unsigned kinds = 0;
		char sub[128];
		int rc;

		if (g == G_DSMEM || !(D->groups_seen >> g & 1))
			continue;
		EACH_KIND(D, g, k, w) {
			const kind_stats *ks = &D->ks[k][w];

			kinds++;
			rows += ks->rows;
			agree += ks->agree;
			disagree += ks->disagree;
			nm += ks->not_modeled;
		}
		doc_heading(d, 2, kind_groups[g].title);
		doc_para_begin(d);
		doc_text(d, "%s  %lu rows of %u kinds and widths: %lu agree "
			 "with arch %s, %lu disagree, %lu not modeled; the "
			 "rule of each kind is in docs/model.md, section "
			 "\"%s\".", kind_groups[g].intro, rows, kinds, agree,
			 D->p->name, disagree, nm, kind_groups[g].model);
		doc_para_end(d);
		snprintf(sub, sizeof sub, "Measured against arch %s, and its "
			 "rule", D->p->name);
		doc_heading(d, 3, sub);
		write_kind_rules(d, D, g);
		doc_heading(d, 3, "Cycles against wavefronts");
		doc_para_begin(d);
		doc_text(d, "The median cycles per instruction fitted by least "
			 "squares against the wavefronts per warp instruction "
			 "(measured; predicted in rows without counters), per "
			 "kind and width: the latency of a dependent chain for "
			 "a kind that returns a value, else the interval at "
			 "which one warp issues the instruction back to back, "
			 "which no architecture predicts.");
		doc_para_end(d);
		write_kind_timing(d, D, g);
		doc_heading(d, 3, "Conflict-free throughput");
		doc_para_begin(d);
		doc_text(d, "Every SM running its warps flat out on one "
			 "access; the median over the rows whose every address "
			 "lane (of the kind) is active at its own address and "
			 "whose measured wavefronts are the architecture's ideal, "
			 "with the row it comes from.");
		doc_para_end(d);
		if ((rc = write_kind_throughput(d, D, g)) != 0)
			return rc;
		write_not_modeled(d, D, g);
	}
	return 0;
}
