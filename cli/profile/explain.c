/*
 * explain.c - profile --explain: for each profiled shared-memory
 * instruction, the model's prediction from the lanes' real addresses
 * (the sampled warp executions of explain.tsv) against CUPTI's counts.
 *
 * Per instruction: the samples' wavefronts, ideal and conflicts under the
 * default profile (each sample and summed), the counters' wavefronts and
 * ideal per execution (averaged over every warp that ran it), and a
 * verdict:
 *   AGREES          every sample predicts the same wavefronts and the
 *                   counters' mean equals them
 *   DISAGREES       every sample predicts the same wavefronts and the
 *                   counters' mean is another: a finding about the model
 *                   or the counters, shown as it is
 *   DATA-DEPENDENT  the samples predict different wavefronts (addresses
 *                   that depend on the data: histogram bins, sorting):
 *                   the sampled distribution and the counters' mean are
 *                   shown, no equality is claimed
 *   NOT MODELED     the architecture has no rule for the access's kind and
 *                   width (sm_90 has one for every row of the kinds
 *                   table, the CAS retry loops and cp.async.cg
 *                   included; textbook only ld and st): the addresses
 *                   are still recorded
 *   BAD SAMPLES     no sample is a valid access of its kind and width
 *                   (an address misaligned for the width, or past the
 *                   32-bit window: the hardware faults on those, so the
 *                   recording is damaged); the first one is named
 *   REMOTE          samples in another CTA's shared memory (a generic
 *                   LD.E, ST.E, ATOM.E.ADD or RED.E.ADD of a cluster
 *                   kernel): their sectors, lines, dshared wavefronts and
 *                   latency predicted, beside the executions and remote
 *                   executions CUPTI counts; it has no per-instruction
 *                   sector counter, so nothing agrees or disagrees
 *                   (remote.c)
 * A sample that is not a valid access is left out of the model's
 * figures and counted apart (ex_result.invalid), whatever the verdict.
 * Two figures agree when they differ by less than 0.005 wavefronts.  The
 * text form adds the bank map of the worst sampled execution (the drawing
 * predict prints) and, when the instruction has conflicts, the fix
 * bs_fix_search proposes for that access, read as rows of a lane stride.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"

#define AGREE_TOL 0.005

static void num(char *buf, size_t size, double v);
static const char *s_(unsigned long n);

/*
 * The one place a sampled execution becomes the model's access: its kind
 * and width from the instruction's SASS through the kinds table (LDSM.16.
 * M88.4 is ldsm.x4, ATOMS.POPC.INC.32 red.add1.u32, LDGSTS.E.128 a
 * 16-byte cp.async.ca), a remote sample's through bs_sass_remote_kind, a
 * generic instruction's execution on its own CTA by self_kind, else, for
 * an instruction no disassembly names, ld or st as the Sanitizer API saw
 * it; a remote sample (another CTA's
 * shared memory) takes the dsmem kind of its generic opcode
 * (bs_sass_remote_kind: LD.E.128 is a 16-byte dsmem.ld), and without
 * SASS text none; the lanes that supply no address for the kind are
 * dropped.  0, or -1 when no kind fits (the sample is not predicted).
 */
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

int explain_access(const bs_explain_sample *s, const char *sass,
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
static const bs_rule *loop_rule(const bs_access *a)
{
	const bs_rule *r = bs_arch_rule(profile_arch(), a->kind,
					   a->width);

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
static int predict_sample(const bs_access *a, bs_summary *s)
{
	const bs_rule *r = loop_rule(a);
	unsigned plen;

	if (!r)
		return bs_predict(profile_arch(), a, s, NULL);
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

/* The text between the first '[' and ']' of an instruction, or "". */
static void operand(const char *sass, char *buf, size_t size)
{
	const char *o = sass ? strchr(sass, '[') : NULL;
	const char *c = o ? strchr(o, ']') : NULL;

	snprintf(buf, size, "%.*s", c ? (int)(c - o + 1) : 0, o ? o : "");
}

/*
 * 1 when cas is the ATOMS.CAST.SPIN of a retry loop (atom.add.f32 or
 * atom.add.u64, whose rules are loop=cas) and in is that loop's load or
 * cas itself: an LDS of the same function up to 0x200 bytes before it,
 * from the same source line (-lineinfo) or through the same address
 * operand.  ptxas emits the loop as LDS, the operation, ATOMS.CAST.SPIN
 * and a branch back.
 */
int explain_loop_of(const bs_sass_insn *in, const bs_sass_insn *cas)
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

/*
 * The retry loop checked pass by pass on the samples of an instruction
 * of it.  For each sampled warp, the model runs the loop from the
 * sample of its first execution (every lane pending: the source
 * operation's addresses); its later sampled executions must then be the
 * loop's passes, each with the lanes the model keeps pending and their
 * addresses.  An execution one past the loop's last pass starts the
 * next loop (the next call of the atomic).  Fills r's loop_ fields.
 */
static void loop_check(bs_explain *e, ex_result *r, bs_kind k)
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

		if (explain_access(s, r->sass, &a) < 0)
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
			if (bs_predict_detail(profile_arch(), &a, &d,
					      NULL) < 0 || !d.npasses)
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
static void loop_eval(bs_explain *e, ex_result *r)
{
	unsigned w = 0;
	int is_cas = r->loop->pc == r->x->pc;

	r->loop_kind = BS_KIND_NONE;
	if (bs_sass_kind(r->loop->sass, &r->loop_kind, &w) != 1 ||
	    r->loop_kind == BS_KIND_NONE || !bs_kind_allows_width(r->loop_kind,
								w) ||
	    !bs_arch_rule(profile_arch(), r->loop_kind, w))
		return;
	loop_check(e, r, r->loop_kind);
	if (!r->loop_loops) {
		r->loop_state = 1;
		return;
	}
	r->loop_state = 2;
	r->loop_mean = (double)(is_cas ? r->loop_cas_wf : r->loop_load_wf) /
		       (double)r->loop_passes;
	if (r->predicted && !isnan(r->measured_wf) &&
	    fabs(r->measured_wf - r->loop_mean) < AGREE_TOL &&
	    r->loop_matched == r->loop_checked) {
		r->loop_agrees = 1;
		r->verdict = EX_AGREES;
	}
}

/* The loop lines of an instruction linked to a retry loop. */
static void loop_text(FILE *out, const ex_result *r)
{
	int is_cas = r->loop->pc == r->x->pc;
	char mean[32], m[32];

	fprintf(out, "  loop:     %s the %s retry loop (ATOMS.CAST.SPIN at "
		"0x%04x)", is_cas ? "the compare-and-store of" :
		"the load of", r->loop_kind == BS_KIND_NONE ? "?" :
		bs_kind_name(r->loop_kind), r->loop->pc);
	if (!r->loop_state) {
		fprintf(out, "; arch %s has no rule for it\n",
			profile_arch()->name);
		return;
	}
	if (r->loop_state == 1) {
		fprintf(out, "; no sampled warp's first execution of it was "
			"recorded\n");
		return;
	}
	num(mean, sizeof mean, r->loop_mean);
	num(m, sizeof m, r->measured_wf);
	fprintf(out, "; from each sampled warp's first execution the model "
		"runs %u loop%s: %lu pass%s, %lu load and %lu "
		"compare-and-store wavefronts (%s %s a pass)\n", r->loop_loops,
		s_(r->loop_loops), r->loop_passes,
		r->loop_passes == 1 ? "" : "es", r->loop_load_wf,
		r->loop_cas_wf, mean, is_cas ? "compare-and-store" : "load");
	if (r->loop_checked)
		fprintf(out, "  passes:   %u of %u later sampled executions "
			"are the model's passes, with the lanes it keeps "
			"pending%s\n", r->loop_matched, r->loop_checked,
			r->loop_matched == r->loop_checked ? "" :
			" (the rest: not; the model is followed no further)");
	if (!isnan(r->measured_wf))
		fprintf(out, "  per pass: wavefronts per execution %s by the "
			"counters (every warp), %s by the model (the sampled "
			"warps' loops): %s\n", m, mean,
			fabs(r->measured_wf - r->loop_mean) < AGREE_TOL
			? "equal" : "they differ (warps or calls outside the "
			"sample do other work)");
}

const char *explain_verdict_name(ex_verdict v)
{
	switch (v) {
	case EX_AGREES:
		return "AGREES";
	case EX_DISAGREES:
		return "DISAGREES";
	case EX_DATA_DEPENDENT:
		return "DATA-DEPENDENT";
	case EX_NOT_MODELED:
		return "NOT MODELED";
	case EX_BAD_SAMPLES:
		return "BAD SAMPLES";
	case EX_REMOTE:
		return "REMOTE";
	default:
		return "NO SAMPLE";
	}
}

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
static int predicated_off(const bs_sass_insn *in, ex_result *r)
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

int explain_instruction(bs_explain *e, const bs_sass_insn *in,
			const bs_sass_insn *loop, ex_result *r)
{
	const bs_explain_insn *x = bs_explain_find(e, in->function, in->pc);

	memset(r, 0, sizeof *r);
	r->verdict = EX_NONE;
	r->measured_wf = per_exec(in->wavefronts, in->executions);
	r->measured_ideal = per_exec(in->ideal, in->executions);
	r->in = in;
	if (!x)
		return 0;
	r->x = x;
	r->samples = x->n;
	r->sass = in->sass;
	r->kind = bs_explain_sample_at(e, x->first)->kind;
	r->width = bs_explain_sample_at(e, x->first)->width;
	{	/* the kinds table's name (atom.add.u64), not the recorder's */
		bs_access a0;
		if (explain_access(bs_explain_sample_at(e, x->first), r->sass,
				   &a0) == 0) {
			r->kind = bs_kind_name(a0.kind);
			r->width = a0.width;
		}
	}
	if (explain_remote(e, r))
		return 1;
	r->min_wf = r->min_ideal = ~0u;
	for (size_t i = 0; i < x->n; i++) {
		const bs_explain_sample *s = bs_explain_sample_at(e, x->first + i);
		bs_access a;
		bs_summary sum;
		bs_error err;

		if (explain_access(s, r->sass, &a) < 0)
			continue;
		if (bs_access_check(&a, &err) < 0) {
			if (!r->invalid++)
				bs_error_format(&err, r->invalid_why,
						sizeof r->invalid_why);
			continue;
		}
		if (predict_sample(&a, &sum) < 0)
			continue;
		if (!r->predicted || sum.wavefronts > r->max_wf)
			r->worst = x->first + i;
		r->predicted++;
		r->min_wf = sum.wavefronts < r->min_wf ? sum.wavefronts
						       : r->min_wf;
		r->max_wf = sum.wavefronts > r->max_wf ? sum.wavefronts
						       : r->max_wf;
		r->min_ideal = sum.ideal_wavefronts < r->min_ideal
			       ? sum.ideal_wavefronts : r->min_ideal;
		r->max_ideal = sum.ideal_wavefronts > r->max_ideal
			       ? sum.ideal_wavefronts : r->max_ideal;
		r->sum_wf += sum.wavefronts;
		r->sum_ideal += sum.ideal_wavefronts;
		r->sum_conflicts += sum.bank_conflicts;
	}
	r->loop = loop;
	if (!r->predicted && r->invalid) {
		r->verdict = EX_BAD_SAMPLES;
		return 1;
	}
	if (!r->predicted) {
		r->verdict = EX_NOT_MODELED;
		if (loop)
			loop_eval(e, r);
		return 1;
	}
	r->mean_wf = (double)r->sum_wf / (double)r->predicted;
	if (r->min_wf != r->max_wf)
		r->verdict = EX_DATA_DEPENDENT;
	else if (!isnan(r->measured_wf) &&
		 fabs(r->measured_wf - r->min_wf) < AGREE_TOL)
		r->verdict = EX_AGREES;
	else if (predicated_off(in, r))
		r->verdict = EX_AGREES;
	else
		r->verdict = EX_DISAGREES;
	if (loop)
		loop_eval(e, r);
	return 1;
}

static void num(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		verdict_num(buf, size, v);
}

void ex_hist_add(ex_hist *h, unsigned v)
{
	size_t k;

	for (k = 0; k < h->nv && h->val[k] != v; k++)
		;
	if (k == h->nv && h->nv == EX_HIST_MAX) {
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

void ex_hist_text(const ex_hist *h, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < h->nv && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%u in %zu",
				      i ? ", " : "", h->val[i], h->cnt[i]);
	if (h->more && n < size)
		snprintf(buf + n, size - n, ", %zu more of other values",
			 h->more);
}

/* "1 in 12, 2 in 40, 4 in 12": the samples' wavefronts, how often. */
static void distribution(bs_explain *e, const ex_result *r, char *buf,
			 size_t size)
{
	ex_hist h;

	memset(&h, 0, sizeof h);
	for (size_t i = 0; i < r->x->n; i++) {
		const bs_explain_sample *s =
			bs_explain_sample_at(e, r->x->first + i);
		bs_access a;
		bs_summary sum;

		if (explain_access(s, r->sass, &a) == 0 &&
		    predict_sample(&a, &sum) == 0)
			ex_hist_add(&h, sum.wavefronts);
	}
	ex_hist_text(&h, buf, size);
}

void explain_verdict_text(const ex_result *r, char *buf, size_t size)
{
	char m[32], p[32], lo[32], hi[32];

	num(m, sizeof m, r->measured_wf);
	switch (r->verdict) {
	case EX_AGREES:
		if (r->loop_agrees) {
			num(p, sizeof p, r->loop_mean);
			snprintf(buf, size, "AGREES: %s wavefront%s per "
				 "execution, the counters' mean and the loop "
				 "model's per pass (%u loop%s of %lu pass%s "
				 "from the sampled warps' first executions); "
				 "every later sampled execution is one of "
				 "its passes", p, r->loop_mean == 1 ? "" : "s",
				 r->loop_loops, r->loop_loops == 1 ? "" : "s",
				 r->loop_passes, r->loop_passes == 1 ? ""
								      : "es");
			break;
		}
		if (r->active > 0) {
			num(p, sizeof p, 100 * (1 - r->active));
			num(lo, sizeof lo, r->measured_ideal);
			snprintf(buf, size, "AGREES: %u wavefront%s per "
				 "execution with a lane on, model and "
				 "counters; %s%% of the counted executions had "
				 "the predicate off in every lane (no "
				 "wavefront: the counters' ideal of %s per "
				 "execution shows it)", r->min_wf,
				 r->min_wf == 1 ? "" : "s", p, lo);
			break;
		}
		snprintf(buf, size, "AGREES: %u wavefront%s per execution, "
			 "model and counters", r->min_wf, r->min_wf == 1 ? ""
							      : "s");
		break;
	case EX_DISAGREES:
		snprintf(buf, size, "DISAGREES: the model says %u wavefront%s "
			 "per execution in every sample, the counters %s%s",
			 r->min_wf, r->min_wf == 1 ? "" : "s", m, "");
		break;
	case EX_DATA_DEPENDENT:
		num(p, sizeof p, r->mean_wf);
		snprintf(lo, sizeof lo, "%u", r->min_wf);
		snprintf(hi, sizeof hi, "%u", r->max_wf);
		snprintf(buf, size, "DATA-DEPENDENT: the samples take %s to %s "
			 "wavefronts (mean %s), the counters' mean over every "
			 "execution is %s, %s the sampled range; the addresses "
			 "depend on the data, no equality is claimed", lo, hi,
			 p, m, r->measured_wf >= r->min_wf - AGREE_TOL &&
			 r->measured_wf <= r->max_wf + AGREE_TOL ? "inside"
								  : "outside");
		break;
	case EX_NOT_MODELED:
		snprintf(buf, size, "NOT MODELED: the model has no rule for %s "
			 "accesses yet; the counters say %s wavefronts per "
			 "execution", r->kind, m);
		break;
	case EX_REMOTE:
		explain_remote_verdict(r, buf, size);
		break;
	case EX_BAD_SAMPLES:
		snprintf(lo, sizeof lo, "%zu", r->samples);
		snprintf(buf, size, "BAD SAMPLES: %s%s sampled execution%s %s "
			 "a valid %u-byte %s access (%s): the recording is "
			 "damaged, not the model; the counters say %s "
			 "wavefronts per execution", r->samples == 1 ?
			 "the one" : "none of the ", r->samples == 1 ? "" : lo,
			 s_(r->samples), r->samples == 1 ? "is not" : "is",
			 r->width, r->kind, r->invalid_why, m);
		break;
	default:
		snprintf(buf, size, "NO SAMPLE: no sampled warp ran it");
	}
}

/* The fix for the worst sample; 1 when a line was written. */
static int fix_line(FILE *out, const bs_access *a, const bs_summary *s)
{
	bs_fix_input in;
	bs_fix f;
	const bs_fix_change *c;

	if (!s->bank_conflicts)
		return 0;
	memset(&in, 0, sizeof in);
	in.source = BS_FIX_FROM_ACCESS;
	in.access = *a;
	in.max_pad = -1;
	if (bs_fix_search(profile_arch(), &in, &f, NULL) < 0)
		return 0;
	c = &f.best;
	if (c->kind == BS_FIX_NONE) {
		fprintf(out, "  fix: none found%s%s\n",
			*f.explanation ? ": " : "", f.explanation);
		return 1;
	}
	fprintf(out, "  fix%s: %s: %u -> %u wavefronts (ideal %u), %+lld bytes "
		"of shared memory\n", f.reaches_ideal ? "" : " (best found)",
		c->label, f.sum_before.wavefronts, c->sum.wavefronts,
		c->sum.ideal_wavefronts, (long long)c->extra_bytes);
	fprintf(out, "    %s\n", c->declaration);
	if (*c->index_change)
		fprintf(out, "    %s\n", c->index_change);
	if (f.alternative.kind != BS_FIX_NONE)
		fprintf(out, "  also reaches the ideal: %s, %+lld bytes\n",
			f.alternative.label,
			(long long)f.alternative.extra_bytes);
	return 1;
}

static const char *s_(unsigned long n)
{
	return n == 1 ? "" : "s";
}

void explain_text(FILE *out, bs_explain *e, const ex_result *r)
{
	static bs_detail d;
	const bs_explain_sample *w;
	char buf[512], m[32], i[32], mean[32];
	bs_access a;

	if (r->verdict == EX_REMOTE) {
		explain_remote_text(out, e, r);
		return;
	}
	num(m, sizeof m, r->measured_wf);
	num(i, sizeof i, r->measured_ideal);
	fprintf(out, "  counters: wavefronts per execution %s, ideal %s\n", m,
		i);
	if (r->verdict == EX_NONE) {
		fprintf(out, "  model:    no sampled execution (the sampled "
			"warps did not run it)\n\n");
		return;
	}
	if (r->verdict == EX_BAD_SAMPLES) {
		explain_verdict_text(r, buf, sizeof buf);
		fprintf(out, "  verdict:  %s\n\n", buf);
		return;
	}
	if (r->verdict == EX_NOT_MODELED) {
		explain_verdict_text(r, buf, sizeof buf);
		fprintf(out, "  model:    %zu sampled execution%s of %u-byte %s "
			"accesses\n  verdict:  %s\n", r->samples,
			s_(r->samples), r->width, r->kind, buf);
		if (r->loop)
			loop_text(out, r);
		fputc('\n', out);
		return;
	}
	num(mean, sizeof mean, r->mean_wf);
	if (r->min_wf == r->max_wf)
		fprintf(out, "  model:    %u wavefront%s, ideal %u%s, "
			"conflicts %u, in each of %zu sampled execution%s "
			"(summed: %lu wavefronts, %lu ideal, %lu conflicts)\n",
			r->min_wf, s_(r->min_wf), r->min_ideal,
			r->min_ideal == r->max_ideal ? "" : " or more",
			r->max_wf - r->min_ideal, r->predicted,
			s_(r->predicted), r->sum_wf, r->sum_ideal,
			r->sum_conflicts);
	else {
		distribution(e, r, buf, sizeof buf);
		fprintf(out, "  model:    wavefronts %s of %zu sampled "
			"executions (mean %s; summed: %lu wavefronts, %lu "
			"ideal, %lu conflicts)\n", buf, r->predicted, mean,
			r->sum_wf, r->sum_ideal, r->sum_conflicts);
	}
	explain_verdict_text(r, buf, sizeof buf);
	fprintf(out, "  verdict:  %s\n", buf);
	if (r->invalid)
		fprintf(out, "  damaged:  %zu sampled execution%s left out as "
			"not %s (first: %s)\n", r->invalid, s_(r->invalid),
			r->invalid == 1 ? "a valid access" : "valid accesses",
			r->invalid_why);
	if (r->loop)
		loop_text(out, r);
	if (!isnan(r->measured_ideal) && r->min_ideal == r->max_ideal &&
	    r->active == 0 && r->loop_state != 2 &&
	    fabs(r->measured_ideal - r->min_ideal) >= AGREE_TOL)
		fprintf(out, "  note:     ideal differs: the model %u, the "
			"counters %s per execution\n", r->min_ideal, i);
	w = bs_explain_sample_at(e, r->worst);
	if (explain_access(w, r->sass, &a) < 0 ||
	    bs_predict_detail(profile_arch(), &a, &d, NULL) < 0) {
		fputc('\n', out);
		return;
	}
	if (loop_rule(&a) && r->loop) {
		fputc('\n', out);
		return;
	}
	if (loop_rule(&a)) {
		fprintf(out, "  one compare-and-store of the %s retry loop: "
			"%u wavefronts a phase with a lane, whatever the banks; "
			"the loop's cost is in its passes (bankscope predict "
			"--kind %s)\n\n", bs_kind_name(a.kind),
			loop_rule(&a)->slot_waves, bs_kind_name(a.kind));
		return;
	}
	fprintf(out, "  worst sampled execution: launch %lu, block %u, warp "
		"%u, execution %u\n", w->launch, w->block, w->warp, w->exec);
	print_text(out, profile_arch(), &a, &d);
	if (fix_line(out, &a, &d.sum))
		fputc('\n', out);
}
