/*
 * explain.c - profile --explain's text: for each instruction, the
 * counters, the model's figures on its samples, the verdict, its retry
 * loop, and the worst sampled execution's bank map and fix.  It prints
 * the result bs_explain_judge() returns (analyzer/sass/verdict.c, whose
 * header in bs_sass.h lists the verdicts); it computes nothing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

static void num(char *buf, size_t size, double v);
static const char *s_(unsigned long n);

/* The loop lines of an instruction linked to a retry loop. */
static void loop_text(FILE *out, const bs_verdict_result *r)
{
	int is_cas = r->loop->pc == r->x->pc;
	char mean[32], m[32];

	fprintf(out, "  loop:     %s the %s retry loop (ATOMS.CAST.SPIN at "
		"0x%04x)", is_cas ? "the compare-and-store of" :
		"the load of", r->loop_kind == BS_KIND_NONE ? "?" :
		bs_kind_name(r->loop_kind), r->loop->pc);
	if (!r->loop_state) {
		fprintf(out, "; arch %s has no rule for it\n",
			r->arch->name);
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
			r->loop_equal ? "equal" : "they differ (warps or calls "
			"outside the sample do other work)");
}

static void num(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		verdict_num(buf, size, v);
}

void verdict_hist_text(const bs_verdict_hist *h, char *buf, size_t size)
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

/* The samples' mean and standard error, as the verdict prints them. */
static void spread_text(const bs_verdict_result *r, char *mean, size_t msize,
			char *se, size_t ssize)
{
	num(mean, msize, r->judged_mean);
	num(se, ssize, r->se_wf);
}

/* "12 samples", or "101 samples, 3.2 effective" for a weighted mean. */
static const char *samples_text(const bs_verdict_result *r)
{
	static char buf[160];
	char n[32];

	if (fabs(r->neff - (double)r->predicted) < 0.05) {
		snprintf(buf, sizeof buf, "%zu samples", r->predicted);
		return buf;
	}
	num(n, sizeof n, r->neff);
	snprintf(buf, sizeof buf, "%zu samples, %s effective, weighted by "
		 "the executions each stands for", r->predicted, n);
	return buf;
}

/* Which executions the counters' mean is over. */
static const char *over(const bs_verdict_result *r)
{
	return r->counted && r->active > 0
	       ? "the executions with a lane on" : "every execution";
}

/*
 * DATA-DEPENDENT, or DISAGREES by the spread: the samples (their range
 * and mean with its standard error, or the one count every sample gives
 * while their lanes or addresses vary), and how far the counters' mean m
 * lies from them.
 */
static void spread_verdict(const bs_verdict_result *r, const char *m,
			   char *buf, size_t size)
{
	char mean[32], se[32], head[320];

	spread_text(r, mean, sizeof mean, se, sizeof se);
	if (r->min_wf == r->max_wf)
		snprintf(head, sizeof head, "every one of %zu samples gives "
			 "%u wavefront%s, their lanes or addresses varying "
			 "(+- %s)", r->predicted, r->min_wf,
			 r->min_wf == 1 ? "" : "s", se);
	else
		snprintf(head, sizeof head, "the samples take %u to %u "
			 "wavefronts, mean %s +- %s (standard error, %s)",
			 r->min_wf, r->max_wf, mean, se, samples_text(r));
	snprintf(buf, size, "%s: %s; the counters' mean over %s, %s, %s the "
		 "sampled range, lies %.1f standard errors from it%s",
		 bs_verdict_name(r->verdict), head, over(r), m,
		 r->inside ? "inside" : "outside", r->z,
		 r->verdict == BS_VERDICT_DATA_DEPENDENT
		 ? ": consistent, within 3" : "");
}

void explain_verdict_text(const bs_verdict_result *r, char *buf, size_t size)
{
	char m[32], p[32], lo[32], hi[32];

	num(m, sizeof m, r->judged_wf);
	switch (r->verdict) {
	case BS_VERDICT_AGREES:
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
		if (r->active > 0 && r->counted) {
			snprintf(buf, size, "AGREES: %u wavefront%s per "
				 "execution with a lane on, model and "
				 "counters; %llu of the %llu counted "
				 "executions had the predicate off in every "
				 "lane (counted by the explain library)",
				 r->min_wf, r->min_wf == 1 ? "" : "s",
				 (unsigned long long)(r->in->executions -
						      r->active_execs),
				 (unsigned long long)r->in->executions);
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
	case BS_VERDICT_DISAGREES:
		if ((r->min_wf != r->max_wf || r->varies) && !isnan(r->z)) {
			spread_verdict(r, m, buf, size);
			break;
		}
		snprintf(buf, size, "DISAGREES: the model says %u wavefront%s "
			 "per execution in every sample, the counters %s%s",
			 r->min_wf, r->min_wf == 1 ? "" : "s", m,
			 r->counted && r->active > 0
			 ? " per execution with a lane on" : "");
		break;
	case BS_VERDICT_DATA_DEPENDENT:
		num(p, sizeof p, r->mean_wf);
		snprintf(lo, sizeof lo, "%u", r->min_wf);
		snprintf(hi, sizeof hi, "%u", r->max_wf);
		if (!isnan(r->z)) {
			spread_verdict(r, m, buf, size);
			break;
		}
		snprintf(buf, size, "DATA-DEPENDENT: the samples take %s to %s "
			 "wavefronts (mean %s), the counters' mean over every "
			 "execution is %s, %s the sampled range; the addresses "
			 "depend on the data, no equality is claimed", lo, hi,
			 p, m, r->inside ? "inside" : "outside");
		break;
	case BS_VERDICT_LANES_OFF:
		snprintf(buf, size, "LANES OFF: none of its %llu executions had "
			 "a lane on (the explain library counted none), and "
			 "the counters count no wavefront: nothing moved",
			 (unsigned long long)r->in->executions);
		break;
	case BS_VERDICT_NOT_MODELED:
		if (r->unseen && !r->samples) {
			num(p, sizeof p, r->measured_wf);
			snprintf(buf, size, "NOT MODELED: no Sanitizer API "
				 "callback records its addresses (%s); the "
				 "counters say %s wavefronts per execution",
				 r->unseen, p);
			break;
		}
		snprintf(buf, size, "NOT MODELED: the model has no rule for %s "
			 "accesses yet; the counters say %s wavefronts per "
			 "execution", r->kind, m);
		break;
	case BS_VERDICT_REMOTE:
		explain_remote_verdict(r, buf, size);
		break;
	case BS_VERDICT_BAD_SAMPLES:
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

/* The fix bs_explain_judge found for the worst sample. */
static void fix_line(FILE *out, const bs_fix *f)
{
	const bs_fix_change *c = &f->best;

	if (c->kind == BS_FIX_NONE) {
		fprintf(out, "  fix: none found%s%s\n",
			*f->explanation ? ": " : "", f->explanation);
		return;
	}
	fprintf(out, "  fix%s: %s: %u -> %u wavefronts (ideal %u), %+lld bytes "
		"of shared memory\n", f->reaches_ideal ? "" : " (best found)",
		c->label, f->sum_before.wavefronts, c->sum.wavefronts,
		c->sum.ideal_wavefronts, (long long)c->extra_bytes);
	fprintf(out, "    %s\n", c->declaration);
	if (*c->index_change)
		fprintf(out, "    %s\n", c->index_change);
	if (f->alternative.kind != BS_FIX_NONE)
		fprintf(out, "  also reaches the ideal: %s, %+lld bytes\n",
			f->alternative.label,
			(long long)f->alternative.extra_bytes);
}

static const char *s_(unsigned long n)
{
	return n == 1 ? "" : "s";
}

void explain_damaged_text(FILE *out, const bs_verdict_result *r)
{
	if (r->invalid)
		fprintf(out, "  damaged:  %zu sampled execution%s left out as "
			"not %s (first: %s)\n", r->invalid, s_(r->invalid),
			r->invalid == 1 ? "a valid access" : "valid accesses",
			r->invalid_why);
}

void explain_worst_text(FILE *out, const bs_verdict_result *r,
			const bs_verdict_worst *w)
{
	if (w->sample->exec & BS_EXPLAIN_GRID)
		fprintf(out, "  worst sampled execution: launch %lu, block %u, "
			"warp %u, execution %u of the launch's (the grid's "
			"sample)\n", w->sample->launch, w->sample->block,
			w->sample->warp, w->sample->exec & ~BS_EXPLAIN_GRID);
	else
		fprintf(out, "  worst sampled execution: launch %lu, block %u, "
			"warp %u, execution %u\n", w->sample->launch,
			w->sample->block, w->sample->warp, w->sample->exec);
	print_text(out, r->arch, &w->access, &w->detail);
}

void explain_text(FILE *out, const bs_verdict_result *r,
		  const bs_verdict_worst *w)
{
	char buf[512], m[32], i[32], mean[32];

	if (r->verdict == BS_VERDICT_REMOTE) {
		explain_remote_text(out, r, w);
		return;
	}
	num(m, sizeof m, r->measured_wf);
	num(i, sizeof i, r->measured_ideal);
	fprintf(out, "  counters: wavefronts per execution %s, ideal %s", m,
		i);
	if (r->counted && !r->active_execs)
		fprintf(out, "; none of the %llu executions had a lane on",
			(unsigned long long)r->in->executions);
	else if (r->counted && r->active_execs < r->in->executions) {
		num(m, sizeof m, r->measured_active);
		num(i, sizeof i, r->measured_active_ideal);
		fprintf(out, "; %llu of the %llu executions had a lane on: "
			"per such execution %s, ideal %s",
			(unsigned long long)r->active_execs,
			(unsigned long long)r->in->executions, m, i);
	}
	fputc('\n', out);
	if (r->verdict == BS_VERDICT_LANES_OFF ||
	    (r->verdict == BS_VERDICT_NOT_MODELED && !r->samples)) {
		explain_verdict_text(r, buf, sizeof buf);
		fprintf(out, "  verdict:  %s\n\n", buf);
		return;
	}
	if (r->verdict == BS_VERDICT_NONE) {
		fprintf(out, "  model:    no sampled execution (the sampled "
			"warps did not run it)\n\n");
		return;
	}
	if (r->verdict == BS_VERDICT_BAD_SAMPLES) {
		explain_verdict_text(r, buf, sizeof buf);
		fprintf(out, "  verdict:  %s\n\n", buf);
		return;
	}
	if (r->verdict == BS_VERDICT_NOT_MODELED) {
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
		verdict_hist_text(&r->dist, buf, sizeof buf);
		fprintf(out, "  model:    wavefronts %s of %zu sampled "
			"executions (mean %s; summed: %lu wavefronts, %lu "
			"ideal, %lu conflicts)\n", buf, r->predicted, mean,
			r->sum_wf, r->sum_ideal, r->sum_conflicts);
	}
	explain_verdict_text(r, buf, sizeof buf);
	fprintf(out, "  verdict:  %s\n", buf);
	explain_damaged_text(out, r);
	if (r->loop)
		loop_text(out, r);
	if (r->ideal_differs)
		fprintf(out, "  note:     ideal differs: the model %u, the "
			"counters %s per execution\n", r->min_ideal, i);
	if (!w->ok || (w->loop_rule && r->loop)) {
		fputc('\n', out);
		return;
	}
	if (w->loop_rule) {
		fprintf(out, "  one compare-and-store of the %s retry loop: "
			"%u wavefronts a phase with a lane, whatever the banks; "
			"the loop's cost is in its passes (bankscope predict "
			"--kind %s)\n\n", bs_kind_name(w->access.kind),
			w->loop_rule->slot_waves, bs_kind_name(w->access.kind));
		return;
	}
	explain_worst_text(out, r, w);
	if (w->fixed) {
		fix_line(out, &w->fix);
		fputc('\n', out);
	}
}
