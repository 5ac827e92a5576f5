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
 *   NOT MODELED     the profile has no rule for the access's kind and
 *                   width (the CAS retry loops, cp.async.cg): the
 *                   addresses are still recorded
 * Two figures agree when they differ by less than 0.005 wavefronts.  The
 * text form adds the bank map of the worst sampled execution (the drawing
 * predict prints) and, when the instruction has conflicts, the fix
 * bs_fix_search proposes for that access, read as rows of a lane stride.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define AGREE_TOL 0.005
#define DIST_MAX 8

/*
 * The one place a sampled execution becomes the model's access: its kind
 * and width from the instruction's SASS through the kinds table (LDSM.16.
 * M88.4 is ldsm.x4, ATOMS.POPC.INC.32 red.add1.u32, LDGSTS.E.128 a
 * 16-byte cp.async.ca), else, for an instruction no disassembly names,
 * ld or st as the Sanitizer API saw it; the lanes that supply no address
 * for the kind are dropped.  0, or -1 when no kind fits (the sample is
 * not predicted).
 */
int explain_access(const bs_explain_sample *s, const char *sass,
		   bs_access *a)
{
	bs_kind k = BS_KIND_NONE;
	unsigned w = s->width;

	memset(a, 0, sizeof *a);
	if (!sass || bs_sass_kind(sass, &k, &w) != 1 || k == BS_KIND_NONE) {
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
	snprintf(a->name, sizeof a->name, "pc 0x%04x block %u warp %u exec %u",
		 s->pc, s->block, s->warp, s->exec);
	return 0;
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

int explain_instruction(bs_explain *e, const bs_sass_insn *in, ex_result *r)
{
	const bs_explain_insn *x = bs_explain_find(e, in->function, in->pc);

	memset(r, 0, sizeof *r);
	r->verdict = EX_NONE;
	r->measured_wf = per_exec(in->wavefronts, in->executions);
	r->measured_ideal = per_exec(in->ideal, in->executions);
	if (!x)
		return 0;
	r->x = x;
	r->samples = x->n;
	r->sass = in->sass;
	r->kind = bs_explain_sample_at(e, x->first)->kind;
	r->width = bs_explain_sample_at(e, x->first)->width;
	r->min_wf = r->min_ideal = ~0u;
	for (size_t i = 0; i < x->n; i++) {
		const bs_explain_sample *s = bs_explain_sample_at(e, x->first + i);
		bs_access a;
		bs_summary sum;
		if (explain_access(s, r->sass, &a) < 0 ||
		    bs_predict(bs_profile_default(), &a, &sum, NULL) < 0)
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
	if (!r->predicted) {
		r->verdict = EX_NOT_MODELED;
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
	return 1;
}

static void num(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		verdict_num(buf, size, v);
}

/* "1 in 12, 2 in 40, 4 in 12": the samples' wavefronts, how often. */
static void distribution(bs_explain *e, const ex_result *r, char *buf,
			 size_t size)
{
	unsigned val[DIST_MAX];
	size_t cnt[DIST_MAX], nv = 0, more = 0, n = 0;

	for (size_t i = 0; i < r->x->n; i++) {
		const bs_explain_sample *s =
			bs_explain_sample_at(e, r->x->first + i);
		bs_access a;
		bs_summary sum;
		size_t k;

		if (explain_access(s, r->sass, &a) < 0 ||
		    bs_predict(bs_profile_default(), &a, &sum, NULL) < 0)
			continue;
		for (k = 0; k < nv && val[k] != sum.wavefronts; k++)
			;
		if (k == nv && nv == DIST_MAX) {
			more++;
			continue;
		}
		if (k == nv) {
			val[nv] = sum.wavefronts;
			cnt[nv++] = 0;
		}
		cnt[k]++;
	}
	for (size_t i = 1; i < nv; i++)
		for (size_t j = i; j > 0 && val[j - 1] > val[j]; j--) {
			unsigned tv = val[j];
			size_t tc = cnt[j];

			val[j] = val[j - 1];
			cnt[j] = cnt[j - 1];
			val[j - 1] = tv;
			cnt[j - 1] = tc;
		}
	buf[0] = '\0';
	for (size_t i = 0; i < nv && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%u in %zu",
				      i ? ", " : "", val[i], cnt[i]);
	if (more && n < size)
		snprintf(buf + n, size - n, ", %zu more of other values", more);
}

void explain_verdict_text(const ex_result *r, char *buf, size_t size)
{
	char m[32], p[32], lo[32], hi[32];

	num(m, sizeof m, r->measured_wf);
	switch (r->verdict) {
	case EX_AGREES:
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
	if (bs_fix_search(bs_profile_default(), &in, &f, NULL) < 0)
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

	num(m, sizeof m, r->measured_wf);
	num(i, sizeof i, r->measured_ideal);
	fprintf(out, "  counters: wavefronts per execution %s, ideal %s\n", m,
		i);
	if (r->verdict == EX_NONE) {
		fprintf(out, "  model:    no sampled execution (the sampled "
			"warps did not run it)\n\n");
		return;
	}
	if (r->verdict == EX_NOT_MODELED) {
		explain_verdict_text(r, buf, sizeof buf);
		fprintf(out, "  model:    %zu sampled execution%s of %u-byte %s "
			"accesses\n  verdict:  %s\n\n", r->samples,
			s_(r->samples), r->width, r->kind, buf);
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
	if (!isnan(r->measured_ideal) && r->min_ideal == r->max_ideal &&
	    r->active == 0 &&
	    fabs(r->measured_ideal - r->min_ideal) >= AGREE_TOL)
		fprintf(out, "  note:     ideal differs: the model %u, the "
			"counters %s per execution\n", r->min_ideal, i);
	w = bs_explain_sample_at(e, r->worst);
	if (explain_access(w, r->sass, &a) < 0 ||
	    bs_predict_detail(bs_profile_default(), &a, &d, NULL) < 0) {
		fputc('\n', out);
		return;
	}
	fprintf(out, "  worst sampled execution: launch %lu, block %u, warp "
		"%u, execution %u\n", w->launch, w->block, w->warp, w->exec);
	print_text(out, bs_profile_default(), &a, &d);
	if (fix_line(out, &a, &d.sum))
		fputc('\n', out);
}
