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
	snprintf(a->name, sizeof a->name, "pc 0x%04x block %u warp %u exec %u",
		 s->pc, s->block, s->warp, s->exec);
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

		if (bs_explain_access(s, r->sass, &a) < 0)
			continue;
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

/* The counters' wavefronts per self execution, NaN when unknown. */
static double self_measured(const bs_sass_insn *in)
{
	if (in && in->dshared_known && in->executions > in->dshared)
		return (double)in->wavefronts /
		       (double)(in->executions - in->dshared);
	return NAN;
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
	r->self_measured = self_measured(r->in);
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

/* The local verdict from r's figures (samples predicted). */
static void judge_local(const bs_sass_insn *in, bs_verdict_result *r)
{
	r->mean_wf = (double)r->sum_wf / (double)r->predicted;
	r->inside = r->measured_wf >= r->min_wf - AGREE_TOL &&
		    r->measured_wf <= r->max_wf + AGREE_TOL;
	if (r->min_wf != r->max_wf)
		r->verdict = BS_VERDICT_DATA_DEPENDENT;
	else if (!isnan(r->measured_wf) &&
		 fabs(r->measured_wf - r->min_wf) < AGREE_TOL)
		r->verdict = BS_VERDICT_AGREES;
	else if (predicated_off(in, r))
		r->verdict = BS_VERDICT_AGREES;
	else
		r->verdict = BS_VERDICT_DISAGREES;
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
	r->self_measured = NAN;
	r->in = in;
	if (!x)
		return 0;
	r->x = x;
	r->samples = x->n;
	r->sass = in->sass;
	first_kind(e, r);
	if (!judge_remote(e, r)) {
		r->min_wf = r->min_ideal = ~0u;
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
			!isnan(r->measured_ideal) &&
			r->min_ideal == r->max_ideal && r->active == 0 &&
			r->loop_state != 2 &&
			fabs(r->measured_ideal - r->min_ideal) >= AGREE_TOL;
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
	default:
		return "NO SAMPLE";
	}
}
