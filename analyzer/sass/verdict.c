/*
 * verdict.c - profile --explain's analysis: the sampled warp executions
 * of explain.tsv become the model's accesses, are predicted under the
 * architecture the caller passes, and are judged against CUPTI's counts
 * (bs_sass.h, "the verdict", lists the verdicts).  Here: samples to
 * accesses, the model against the counters (an @P instruction's
 * executions with no lane on), the retry loops checked pass by pass, a
 * remote instruction's pricing by sectors beside its own-CTA executions
 * by banks, the samples' one distribution, and the worst sample's detail
 * and fix.  Nothing here prints: the result holds what a report shows.
 */
#include <math.h>
#include <string.h>

#include "bs_sass.h"

#define AGREE_TOL BS_VERDICT_TOL

/* ---- samples to accesses ------------------------------------------------ */

/*
 * The kind a generic LD.E, ST.E, ATOM.E.ADD or RED.E.ADD has on a CTA's
 * own shared memory (the dsmem kind less "dsmem.": ld, st, atom.add.u32,
 * red.add.u32), for the executions the shared-memory callback saw: the
 * same instruction of a cluster kernel aimed at its own CTA.  0, or -1.
 */
static int self_kind(const char *sass, bs_kind *k, unsigned *w)
{
	const char *name;

	if (!sass || bs_sass_remote_kind(sass, k, w) != 1)
		return -1;
	name = bs_kind_name(*k);
	return strncmp(name, "dsmem.", 6) ? -1 : bs_kind_find(name + 6, k);
}

int bs_explain_access(const bs_explain_sample *s, const char *sass,
		      bs_access *a)
{
	bs_kind k = BS_KIND_NONE;
	unsigned w = s->width;

	memset(a, 0, sizeof *a);
	if (!strcmp(s->kind, "remote")) {
		/* another CTA's: the generic opcode's dsmem kind, or none */
		if (!sass || bs_sass_remote_kind(sass, &k, &w) != 1)
			return -1;
	} else if ((!sass || bs_sass_kind(sass, &k, &w) != 1 ||
		    k == BS_KIND_NONE) && self_kind(sass, &k, &w) < 0) {
		k = BS_KIND_NONE;
		w = s->width;
		if (!strcmp(s->kind, "ld"))
			k = BS_KIND_LD;
		else if (!strcmp(s->kind, "st"))
			k = BS_KIND_ST;
	}
	if (k == BS_KIND_NONE || !bs_kind_allows_width(k, w))
		return -1;
	a->kind = k;
	a->width = w;
	a->active = s->active & bs_kind_get(k)->addr_lanes;
	for (unsigned l = 0; l < BS_LANES; l++)
		a->addr[l] = (a->active >> l & 1) ? s->addr[l] : 0;
	a->src = s->has_src ? s->src : NULL;
	snprintf(a->name, sizeof a->name, "pc 0x%04x block %u warp %u %sexec "
		 "%u", s->pc, s->block, s->warp,
		 s->exec & BS_EXPLAIN_GRID ? "grid " : "",
		 s->exec & ~BS_EXPLAIN_GRID);
	return 0;
}

/* The rule of a retry loop (loop=cas) a's kind and width have, or NULL. */
static const bs_rule *loop_rule(const bs_arch *arch, const bs_access *a)
{
	const bs_rule *r = bs_arch_rule(arch, a->kind, a->width);

	return r && r->loop ? r : NULL;
}

/*
 * A sampled execution's prediction.  An instruction of a retry loop
 * (ATOMS.CAST.SPIN, for the loop=cas rules of the float and the 64-bit
 * atomicAdd) is one compare-and-store of one pass, not the loop the
 * source operation costs: slot_waves wavefronts for each of the rule's
 * phases with an active lane, its ideal the same (docs/model.md, "Shared
 * atomics").  The loop's loads are LDS instructions of their own,
 * predicted as loads.  0, or -1 when the architecture does not model the
 * access.
 */
static int predict_sample(const bs_arch *arch, const bs_access *a,
			  bs_summary *s)
{
	const bs_rule *r = loop_rule(arch, a);
	unsigned plen;

	if (!r)
		return bs_predict(arch, a, s, NULL);
	if (bs_access_check(a, NULL) < 0)
		return -1;
	memset(s, 0, sizeof *s);
	plen = r->phase_lanes ? r->phase_lanes : BS_LANES;
	for (unsigned lo = 0; lo < BS_LANES; lo += plen)
		if (a->active >> lo &
		    (plen >= BS_LANES ? UINT32_MAX : (1u << plen) - 1))
			s->phases++;
	s->active_lanes = (unsigned)__builtin_popcount(a->active);
	s->wavefronts = s->ideal_wavefronts =
		s->phases * (r->slot_waves ? r->slot_waves : 1);
	s->max_way = s->phases ? 1 : 0;
	s->latency_cycles = NAN;
	return 0;
}

void bs_verdict_hist_add(bs_verdict_hist *h, unsigned v)
{
	size_t k;

	for (k = 0; k < h->nv && h->val[k] != v; k++)
		;
	if (k == h->nv && h->nv == BS_VERDICT_HIST_MAX) {
		h->more++;
		return;
	}
	if (k == h->nv) {       /* a new value, in ascending place */
		for (k = h->nv++; k > 0 && h->val[k - 1] > v; k--) {
			h->val[k] = h->val[k - 1];
			h->cnt[k] = h->cnt[k - 1];
		}
		h->val[k] = v;
		h->cnt[k] = 0;
	}
	h->cnt[k]++;
}

/* ---- retry loops -------------------------------------------------------- */

/* The text between the first '[' and ']' of an instruction, or "". */
static void operand(const char *sass, char *buf, size_t size)
{
	const char *o = sass ? strchr(sass, '[') : NULL;
	const char *c = o ? strchr(o, ']') : NULL;

	snprintf(buf, size, "%.*s", c ? (int)(c - o + 1) : 0, o ? o : "");
}

int bs_explain_loop_of(const bs_sass_insn *in, const bs_sass_insn *cas)
{
	char o1[64], o2[64];

	if (!in->sass || !cas->sass || strncmp(cas->sass, "ATOMS.CAST.SPIN",
					       15) ||
	    in->cubin_crc != cas->cubin_crc ||
	    strcmp(in->function, cas->function))
		return 0;
	if (in == cas || in->pc == cas->pc)
		return 1;
	if (strncmp(in->sass, "LDS", 3) || in->pc > cas->pc ||
	    cas->pc - in->pc > 0x200)
		return 0;
	if (in->source_file && cas->source_file)
		return in->source_line == cas->source_line &&
		       !strcmp(in->source_file, cas->source_file);
	operand(in->sass, o1, sizeof o1);
	operand(cas->sass, o2, sizeof o2);
	return o1[0] && !strcmp(o1, o2);
}

const bs_sass_insn *bs_explain_loop_find(const bs_sassprof *sp, size_t n,
					 const bs_sass_insn *in)
{
	if (!in->sass || (strncmp(in->sass, "LDS", 3) &&
			  strncmp(in->sass, "ATOMS.CAST.SPIN", 15)))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const bs_sass_insn *c = bs_sassprof_get(sp, i);

		if (bs_explain_loop_of(in, c))
			return c;
	}
	return NULL;
}

/*
 * The retry loop checked pass by pass on the samples of an instruction
 * of it.  For each sampled warp, the model runs the loop from the
 * sample of its first execution (every lane pending: the source
 * operation's addresses); its later sampled executions must then be the
 * loop's passes, each with the lanes the model keeps pending and their
 * addresses.  An execution one past the loop's last pass starts the
 * next loop (the next call of the atomic).  Fills r's loop_ fields.
 */
static void loop_check(bs_explain *e, bs_verdict_result *r, bs_kind k)
{
	static bs_detail d;
	const bs_explain_sample *g = NULL;  /* the loop's first execution */
	unsigned base = 0, np = 0;
	uint32_t pend[BS_LANES];
	int broken = 0;

	for (size_t i = 0; i < r->x->n; i++) {
		const bs_explain_sample *s = bs_explain_sample_at(e,
							r->x->first + i);
		bs_access a;
		unsigned j;

		if ((s->exec & BS_EXPLAIN_GRID) ||
		    bs_explain_access(s, r->sass, &a) < 0)
			continue;     /* a grid sample: no warp's run of it */
		if (g && (s->launch != g->launch || s->block != g->block ||
			  s->warp != g->warp))
			g = NULL;
		if (g && !broken && s->exec == base + np) {
			g = NULL;     /* the next call's first pass */
			base = s->exec;
		} else if (!g)
			base = 0;
		if (!g) {
			if (s->exec != base)
				continue;     /* its warp's start was not sampled */
			a.kind = k;
			a.active &= bs_kind_get(k)->addr_lanes;
			if (bs_predict_detail(r->arch, &a, &d, NULL) < 0 ||
			    !d.npasses)
				continue;
			g = s;
			np = d.npasses;
			broken = 0;
			for (j = 0; j < np; j++)
				pend[j] = d.pass[j].pending;
			r->loop_loops++;
			r->loop_passes += np;
			r->loop_load_wf += d.sum.load_wavefronts;
			r->loop_cas_wf += d.sum.cas_wavefronts;
			continue;
		}
		if (broken)
			continue;
		r->loop_checked++;
		j = s->exec - base;
		if (j < np && s->active == pend[j]) {
			uint32_t m = s->active;
			while (m && s->addr[__builtin_ctz(m)] ==
					g->addr[__builtin_ctz(m)])
				m &= m - 1;
			if (!m) {
				r->loop_matched++;
				continue;
			}
		}
		broken = 1;     /* not the model's pass: stop following it */
	}
}

/* The loop of an instruction linked to one: r's loop_ fields, and the
 * verdict AGREES when the loop model accounts for the counters. */
static void loop_eval(bs_explain *e, bs_verdict_result *r)
{
	unsigned w = 0;
	int is_cas = r->loop->pc == r->x->pc;

	r->loop_kind = BS_KIND_NONE;
	if (bs_sass_kind(r->loop->sass, &r->loop_kind, &w) != 1 ||
	    r->loop_kind == BS_KIND_NONE || !bs_kind_allows_width(r->loop_kind,
								w) ||
	    !bs_arch_rule(r->arch, r->loop_kind, w))
		return;
	loop_check(e, r, r->loop_kind);
	if (!r->loop_loops) {
		r->loop_state = 1;
		return;
	}
	r->loop_state = 2;
	r->loop_mean = (double)(is_cas ? r->loop_cas_wf : r->loop_load_wf) /
		       (double)r->loop_passes;
	r->loop_equal = !isnan(r->measured_wf) &&
			fabs(r->measured_wf - r->loop_mean) < AGREE_TOL;
	if (r->predicted && r->loop_equal &&
	    r->loop_matched == r->loop_checked) {
		r->loop_agrees = 1;
		r->verdict = BS_VERDICT_AGREES;
	}
}

/* ---- remote samples ----------------------------------------------------- */

/* One priced remote sample: 0, -1 when it is not (r counts why). */
static int price(const bs_explain_sample *s, bs_verdict_result *r, bs_access *a,
		 bs_summary *sum)
{
	bs_error err;

	if (bs_explain_access(s, r->sass, a) < 0)
		return -1;
	r->kind = bs_kind_name(a->kind);
	r->width = a->width;
	if (bs_access_check(a, &err) < 0) {
		if (!r->invalid++)
			bs_error_format(&err, r->invalid_why,
					sizeof r->invalid_why);
		return -1;
	}
	return bs_predict(r->arch, a, sum, NULL);
}

static void note(bs_verdict_result *r, const bs_summary *s, size_t i)
{
	if (!r->remote || s->sectors > r->max_sectors)
		r->worst = i;
	if (!r->remote) {
		r->min_sectors = r->max_sectors = s->sectors;
		r->min_lines = r->max_lines = s->lines;
		r->min_dwf = r->max_dwf = s->wavefronts;
		r->min_lat = r->max_lat = s->latency_cycles;
	}
#define LOHI(lo, hi, v) do { if ((v) < r->lo) r->lo = (v); \
			     if ((v) > r->hi) r->hi = (v); } while (0)
	LOHI(min_sectors, max_sectors, s->sectors);
	LOHI(min_lines, max_lines, s->lines);
	LOHI(min_dwf, max_dwf, s->wavefronts);
	if (!isnan(s->latency_cycles))
		LOHI(min_lat, max_lat, s->latency_cycles);
#undef LOHI
	r->remote++;
	r->sum_sectors += s->sectors;
	bs_verdict_hist_add(&r->dist, s->sectors);
}

/*
 * A self sample (the shared-memory callback's ld, st or atom of a generic
 * instruction aimed at its own CTA) priced by the bank model under the
 * instruction's kind on a CTA's own memory (bs_explain_access: dsmem.ld
 * is ld, ...).  0, or -1 unpriced.
 */
static int self_price(const bs_arch *arch, const bs_explain_sample *s,
		      const char *sass, bs_summary *sum)
{
	bs_access a;

	if (bs_explain_access(s, sass, &a) < 0 ||
	    bs_access_check(&a, NULL) < 0)
		return -1;
	return bs_predict(arch, &a, sum, NULL);
}

static void note_self(bs_verdict_result *r, const bs_summary *s)
{
	if (!r->self_priced || s->wavefronts < r->self_min_wf)
		r->self_min_wf = s->wavefronts;
	if (!r->self_priced || s->wavefronts > r->self_max_wf)
		r->self_max_wf = s->wavefronts;
	r->self_priced++;
}

/* r's executions on its own CTA (counted: those with a lane on, less the
 * remote ones) and the counters' wavefronts per such execution (NaN when
 * unknown or none). */
static void self_measured(bs_verdict_result *r)
{
	const bs_sass_insn *in = r->in;

	r->self_measured = NAN;
	if (r->counted)
		r->self_execs = r->active_execs - r->remote_execs;
	else if (in->dshared_known && in->executions >= in->dshared)
		r->self_execs = in->executions - in->dshared;
	else
		return;
	if (r->self_execs)
		r->self_measured = (double)in->wavefronts /
				   (double)r->self_execs;
}

/*
 * An instruction with remote samples (another CTA's shared memory): r's
 * remote and self fields and its verdict; 0 when none of its samples is
 * remote.
 */
static int judge_remote(bs_explain *e, bs_verdict_result *r)
{
	size_t remote = 0;

	for (size_t i = 0; i < r->x->n; i++) {
		const bs_explain_sample *s =
			bs_explain_sample_at(e, r->x->first + i);
		bs_access a;
		bs_summary sum;

		if (strcmp(s->kind, "remote")) {
			r->self++;
			if (self_price(r->arch, s, r->sass, &sum) == 0)
				note_self(r, &sum);
			continue;
		}
		if (!remote++) {
			r->kind = "remote";
			r->width = s->width;
		}
		if (price(s, r, &a, &sum) < 0)
			continue;
		note(r, &sum, r->x->first + i);
	}
	if (!remote)
		return 0;
	r->predicted = r->remote;
	r->verdict = r->remote ? BS_VERDICT_REMOTE
		     : r->invalid ? BS_VERDICT_BAD_SAMPLES
		     : BS_VERDICT_NOT_MODELED;
	if (r->remote)
		r->mean_sectors = (double)r->sum_sectors / (double)r->remote;
	self_measured(r);
	r->self_agrees = r->self_priced && r->self_min_wf == r->self_max_wf &&
			 !isnan(r->self_measured) &&
			 fabs(r->self_measured - r->self_min_wf) < AGREE_TOL;
	return 1;
}

/* ---- the model against the counters ------------------------------------- */

static double per_exec(uint64_t v, uint64_t execs)
{
	return execs ? (double)v / (double)execs : NAN;
}

/*
 * The explain library's counts of in, set beside CUPTI's when both are of
 * one launch and the counts hold no more executions than CUPTI's (more:
 * the instrumented run did other work, as a retry loop that retries
 * more): r's counted fields.
 */
static void counts(bs_explain *e, const bs_sass_insn *in,
		   bs_verdict_result *r)
{
	bs_explain_counts c;

	if (bs_sass_unseen(in->sass) ||
	    bs_explain_count(e, in->function, in->pc, &c) < 0 ||
	    c.launches != 1 || in->launches != 1 ||
	    c.active > in->executions)
		return;       /* no callback sees it, or counts of another run */
	r->counted = 1;
	r->active_execs = c.active;
	r->remote_execs = c.remote;
	r->measured_active = per_exec(in->wavefronts, c.active);
	r->measured_active_ideal = per_exec(in->ideal, c.active);
	r->judged_wf = r->measured_active;
	if (c.active && c.active < in->executions)
		r->active = (double)c.active / (double)in->executions;
}

/*
 * A predicated instruction (@P) is counted as executed by every warp that
 * reaches it, also when its predicate is off in every lane: such an
 * execution moves no wavefront and no ideal one, and the Sanitizer API
 * never sees it.  When the samples' ideal is constant, the counters'
 * ideal per execution over it is the share of executions that had a lane
 * on; the wavefronts per such execution agree or not.  1 when they agree
 * (r->active: that share).
 */
static int predicated_off(const bs_sass_insn *in, bs_verdict_result *r)
{
	double share, per_active;

	if (!in->sass || in->sass[0] != '@' || r->min_ideal != r->max_ideal ||
	    !r->min_ideal || isnan(r->measured_ideal) ||
	    r->measured_ideal >= r->min_ideal - AGREE_TOL)
		return 0;
	share = r->measured_ideal / r->min_ideal;
	per_active = r->measured_wf / share;
	if (fabs(per_active - r->min_wf) >= AGREE_TOL)
		return 0;
	r->active = share;
	return 1;
}

/* The grid's next sample point after execution n (explain.h: the first
 * execs, then 2^k and 3 * 2^k). */
static uint64_t next_point(uint64_t n, uint64_t execs)
{
	uint64_t p = 1, t = 3;

	if (n + 1 < execs)
		return n + 1;
	while (p <= n)
		p <<= 1;
	while (t <= n)
		t <<= 1;
	return p < t ? p : t;
}

/* 1 when n is one of the grid's later points, 2^k or 3 * 2^k. */
static int geometric(uint64_t n)
{
	uint64_t t = n ? n >> __builtin_ctzll(n) : 1;

	return t == 1 || t == 3;
}

/*
 * The grid's sample's execs (explain.h): its first points, 0 .. execs-1,
 * are those not of the later points' form; 4 when all are.
 */
static uint64_t grid_execs(bs_explain *e, const bs_explain_insn *x)
{
	uint64_t execs = 4;

	for (size_t i = 0; i < x->n; i++) {
		const bs_explain_sample *s = bs_explain_sample_at(e, x->first + i);
		uint64_t n = s->exec & ~BS_EXPLAIN_GRID;

		if ((s->exec & BS_EXPLAIN_GRID) && !geometric(n) &&
		    n + 1 > execs)
			execs = n + 1;
	}
	return execs;
}

/*
 * A predicted grid sample (execution n, wf wavefronts) into r's weighted
 * sums: it stands for the executions from n to the next sample point, the
 * last one to the counted executions.  The grid's points thin out as the
 * launch goes on, so an unweighted mean leans on its first executions.
 */
static void grid_add(bs_verdict_result *r, uint64_t n, unsigned wf)
{
	uint64_t to = next_point(n, r->grid_execs);
	double w;

	if (r->counted && to > r->active_execs)
		to = r->active_execs > n ? r->active_execs : n + 1;
	w = (double)(to - n);
	r->grid_w += w;
	r->grid_w2 += w * w;
	r->grid_wx += w * wf;
	r->grid_wx2 += w * wf * wf;
	r->grid_n++;
}

/* 1 when access a has the lanes of sample t and their addresses less the
 * first active lane's (the same pattern, wherever it sits). */
static int same_pattern(const bs_access *a, const bs_explain_sample *t,
			const char *sass)
{
	bs_access b;
	unsigned l0;

	if (bs_explain_access(t, sass, &b) < 0 || a->active != b.active ||
	    !a->active)
		return 0;
	l0 = (unsigned)__builtin_ctz(a->active);
	for (uint32_t m = a->active; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);

		if (a->addr[l] - a->addr[l0] != b.addr[l] - b.addr[l0])
			return 0;
	}
	return 1;
}

/* One sample's prediction into r's figures and distribution. */
static void add_sample(bs_explain *e, bs_verdict_result *r, size_t i)
{
	const bs_explain_sample *s = bs_explain_sample_at(e, r->x->first + i);
	bs_access a;
	bs_summary sum;
	bs_error err;

	if (bs_explain_access(s, r->sass, &a) < 0)
		return;
	if (bs_access_check(&a, &err) < 0) {
		if (!r->invalid++)
			bs_error_format(&err, r->invalid_why,
					sizeof r->invalid_why);
		/* the distribution takes what the model prices all the same */
		if (predict_sample(r->arch, &a, &sum) == 0)
			bs_verdict_hist_add(&r->dist, sum.wavefronts);
		return;
	}
	if (predict_sample(r->arch, &a, &sum) < 0)
		return;
	bs_verdict_hist_add(&r->dist, sum.wavefronts);
	if (!r->predicted)
		r->pattern = r->x->first + i;
	else if (!r->varies)
		r->varies = !same_pattern(&a, bs_explain_sample_at(
						      e, r->pattern), r->sass);
	if (!r->predicted || sum.wavefronts > r->max_wf)
		r->worst = r->x->first + i;
	r->predicted++;
	r->min_wf = sum.wavefronts < r->min_wf ? sum.wavefronts : r->min_wf;
	r->max_wf = sum.wavefronts > r->max_wf ? sum.wavefronts : r->max_wf;
	r->min_ideal = sum.ideal_wavefronts < r->min_ideal
		       ? sum.ideal_wavefronts : r->min_ideal;
	r->max_ideal = sum.ideal_wavefronts > r->max_ideal
		       ? sum.ideal_wavefronts : r->max_ideal;
	r->sum_wf += sum.wavefronts;
	r->sum_wf2 += (double)sum.wavefronts * sum.wavefronts;
	if (s->exec & BS_EXPLAIN_GRID)
		grid_add(r, s->exec & ~BS_EXPLAIN_GRID, sum.wavefronts);
	r->sum_ideal += sum.ideal_wavefronts;
	r->sum_conflicts += sum.bank_conflicts;
}

/* The instruction's kind and width from its first sample: the kinds
 * table's name (atom.add.u64) when it maps to one, else the recorder's. */
static void first_kind(bs_explain *e, bs_verdict_result *r)
{
	const bs_explain_sample *s = bs_explain_sample_at(e, r->x->first);
	bs_access a0;

	r->kind = s->kind;
	r->width = s->width;
	if (bs_explain_access(s, r->sass, &a0) == 0) {
		r->kind = bs_kind_name(a0.kind);
		r->width = a0.width;
	}
}

/*
 * The samples' spread against the counters' mean m: r's sd_wf (the
 * samples' standard deviation), se_wf (the standard error of their mean)
 * and z (|m - mean| / se).  The variance behind se is the larger of the
 * samples' own and that of the narrowest split of the executions between
 * two whole numbers of wavefronts lo <= m <= hi around the samples, (m -
 * lo)(hi - m): a rare value the samples missed, which the counters' mean
 * shows, widens the margin as it would if it had been sampled.
 */
static void spread(bs_verdict_result *r)
{
	double n = (double)r->predicted, var = 0, m = r->judged_wf, lo, hi;
	double mean = r->mean_wf;

	r->sd_wf = r->se_wf = r->z = NAN;
	r->judged_mean = mean;
	if (!r->predicted || isnan(m))
		return;
	if (r->predicted >= 2) {
		var = (r->sum_wf2 - n * r->mean_wf * r->mean_wf) / (n - 1);
		var = var > 0 ? var : 0;
		r->sd_wf = sqrt(var);
	}
	r->neff = n;
	if (r->grid_n >= 2 && r->grid_w > 0) {
		/* the grid samples' weighted mean and variance, and their
		   effective number */
		mean = r->judged_mean = r->grid_wx / r->grid_w;
		var = r->grid_wx2 / r->grid_w - mean * mean;
		var = var > 0 ? var : 0;
		n = r->neff = r->grid_w * r->grid_w / r->grid_w2;
	}
	lo = fmin(r->min_wf, floor(m));
	hi = fmax(r->max_wf, ceil(m));
	if ((m - lo) * (hi - m) > var)
		var = (m - lo) * (hi - m);
	r->se_wf = sqrt(var / n);
	if (r->se_wf > 0)
		r->z = fabs(m - mean) / r->se_wf;
}

/* DATA-DEPENDENT, or DISAGREES when the counters' mean lies more than
 * BS_VERDICT_Z standard errors from the samples'. */
static bs_verdict by_spread(const bs_verdict_result *r)
{
	return !isnan(r->z) && r->z > BS_VERDICT_Z ? BS_VERDICT_DISAGREES
						   : BS_VERDICT_DATA_DEPENDENT;
}

/* The local verdict from r's figures (samples predicted). */
static void judge_local(const bs_sass_insn *in, bs_verdict_result *r)
{
	double m = r->judged_wf;

	r->mean_wf = (double)r->sum_wf / (double)r->predicted;
	r->inside = m >= r->min_wf - AGREE_TOL && m <= r->max_wf + AGREE_TOL;
	spread(r);
	if (r->min_wf != r->max_wf)
		r->verdict = by_spread(r);
	else if (!isnan(m) && fabs(m - r->min_wf) < AGREE_TOL)
		r->verdict = BS_VERDICT_AGREES;
	else if (!r->counted && predicated_off(in, r))
		r->verdict = BS_VERDICT_AGREES;
	else if (r->varies)     /* the lanes or addresses vary: a value the
				   samples missed may make the difference */
		r->verdict = by_spread(r);
	else
		r->verdict = BS_VERDICT_DISAGREES;
}

const char *bs_sass_unseen(const char *sass)
{
	return sass ? bs_sass_not_counted(sass) : NULL;
}

/* An instruction with no sample: LANES OFF when the counts show that no
 * execution had a lane on and the counters saw nothing move, NOT MODELED
 * when no callback records it, else none. */
static void judge_unsampled(const bs_sass_insn *in, bs_verdict_result *r)
{
	if (r->counted && !r->active_execs && !in->wavefronts &&
	    !in->ideal && !in->dshared)
		r->verdict = BS_VERDICT_LANES_OFF;
	else if ((r->unseen = bs_sass_unseen(in->sass)))
		r->verdict = BS_VERDICT_NOT_MODELED;
}

/* The worst sample's access, detail, loop rule and fix. */
static void worst(bs_explain *e, const bs_verdict_result *r,
		  bs_verdict_worst *w)
{
	const bs_explain_sample *s = bs_explain_sample_at(e, r->worst);
	bs_fix_input fi;

	memset(w, 0, sizeof *w);
	w->sample = s;
	if (bs_explain_access(s, r->sass, &w->access) < 0 ||
	    bs_predict_detail(r->arch, &w->access, &w->detail, NULL) < 0)
		return;
	w->ok = 1;
	if (r->verdict != BS_VERDICT_REMOTE &&
	    ((w->loop_rule = loop_rule(r->arch, &w->access)) ||
	     !w->detail.sum.bank_conflicts))
		return;
	memset(&fi, 0, sizeof fi);
	fi.source = BS_FIX_FROM_ACCESS;
	fi.access = w->access;
	fi.max_pad = -1;
	w->fixed = bs_fix_search(r->arch, &fi, &w->fix, NULL) == 0;
}

int bs_explain_judge(const bs_arch *arch, bs_explain *e,
		     const bs_sass_insn *in, const bs_sass_insn *loop,
		     bs_verdict_result *r, bs_verdict_worst *w)
{
	const bs_explain_insn *x = bs_explain_find(e, in->function, in->pc);

	memset(r, 0, sizeof *r);
	r->arch = arch;
	r->verdict = BS_VERDICT_NONE;
	r->measured_wf = per_exec(in->wavefronts, in->executions);
	r->measured_ideal = per_exec(in->ideal, in->executions);
	r->judged_wf = r->measured_wf;
	r->measured_active = r->measured_active_ideal = NAN;
	r->sd_wf = r->se_wf = r->z = NAN;
	r->self_measured = NAN;
	r->in = in;
	r->sass = in->sass;
	counts(e, in, r);
	if (!x) {
		judge_unsampled(in, r);
		if (w)
			memset(w, 0, sizeof *w);
		return 0;
	}
	r->x = x;
	r->samples = x->n;
	r->sass = in->sass;
	first_kind(e, r);
	if (!judge_remote(e, r)) {
		r->min_wf = r->min_ideal = ~0u;
		r->grid_execs = grid_execs(e, x);
		for (size_t i = 0; i < x->n; i++)
			add_sample(e, r, i);
		r->loop = loop;
		if (!r->predicted)
			r->verdict = r->invalid ? BS_VERDICT_BAD_SAMPLES
						: BS_VERDICT_NOT_MODELED;
		else
			judge_local(in, r);
		if (loop && r->verdict != BS_VERDICT_BAD_SAMPLES)
			loop_eval(e, r);
		r->ideal_differs = r->predicted &&
			r->min_ideal == r->max_ideal && r->loop_state != 2 &&
			(r->counted
			 ? !isnan(r->measured_active_ideal) &&
			   fabs(r->measured_active_ideal - r->min_ideal) >=
			   AGREE_TOL
			 : !isnan(r->measured_ideal) && r->active == 0 &&
			   fabs(r->measured_ideal - r->min_ideal) >=
			   AGREE_TOL);
	}
	if (w && (r->verdict == BS_VERDICT_AGREES ||
		  r->verdict == BS_VERDICT_DISAGREES ||
		  r->verdict == BS_VERDICT_DATA_DEPENDENT ||
		  r->verdict == BS_VERDICT_REMOTE))
		worst(e, r, w);
	else if (w)
		memset(w, 0, sizeof *w);
	return 1;
}

const char *bs_verdict_name(bs_verdict v)
{
	switch (v) {
	case BS_VERDICT_AGREES:
		return "AGREES";
	case BS_VERDICT_DISAGREES:
		return "DISAGREES";
	case BS_VERDICT_DATA_DEPENDENT:
		return "DATA-DEPENDENT";
	case BS_VERDICT_NOT_MODELED:
		return "NOT MODELED";
	case BS_VERDICT_BAD_SAMPLES:
		return "BAD SAMPLES";
	case BS_VERDICT_REMOTE:
		return "REMOTE";
	case BS_VERDICT_LANES_OFF:
		return "LANES OFF";
	default:
		return "NO SAMPLE";
	}
}
