/*
 * remote.c - profile --explain's text, CSV columns and JSON keys for an
 * instruction whose samples went to another CTA's shared memory (the
 * REMOTE verdict, bs_sass.h): the executions and remote executions CUPTI
 * counts, the model's sectors, lines, dshared wavefronts and latency per
 * sampled remote execution (their distribution when the samples
 * differ), the own-CTA (self) samples under the bank model against the
 * counters' wavefronts per self execution, and the worst sample's
 * drawing (which says why padding or a swizzle cannot help) with the fix
 * search's answer.  It prints bs_explain_judge()'s result.
 */
#include <math.h>
#include <string.h>

#include "profile.h"

static const char *s_(unsigned long n)
{
	return n == 1 ? "" : "s";
}

/* "16 sectors" or "8 to 64 sectors (mean 36)": the samples'. */
static void sectors_text(const bs_verdict_result *r, char *buf, size_t size)
{
	char mean[32];

	if (r->min_sectors == r->max_sectors) {
		snprintf(buf, size, "%u sector%s", r->min_sectors,
			 s_(r->min_sectors));
		return;
	}
	verdict_num(mean, sizeof mean, r->mean_sectors);
	snprintf(buf, size, "%u to %u sectors (mean %s)", r->min_sectors,
		 r->max_sectors, mean);
}

void explain_remote_verdict(const bs_verdict_result *r, char *buf, size_t size)
{
	const bs_sass_insn *in = r->in;
	char sec[64];
	int n;

	sectors_text(r, sec, sizeof sec);
	if (r->counted)
		n = snprintf(buf, size, "REMOTE: of its %llu executions, %llu "
			     "went to another CTA's shared memory, %llu to "
			     "its own, %llu had no lane on (the explain "
			     "library's counts)",
			     (unsigned long long)in->executions,
			     (unsigned long long)r->remote_execs,
			     (unsigned long long)r->self_execs,
			     (unsigned long long)(in->executions -
						  r->active_execs));
	else if (in->dshared_known)
		n = snprintf(buf, size, "REMOTE: %llu of its %llu executions "
			     "went to another CTA's shared memory, %llu to "
			     "its own", (unsigned long long)in->dshared,
			     (unsigned long long)in->executions,
			     (unsigned long long)(in->executions -
						  in->dshared));
	else
		n = snprintf(buf, size, "REMOTE: the records do not say how "
			     "many of its %llu executions went to another "
			     "CTA's shared memory (no dshared count)",
			     (unsigned long long)in->executions);
	if (n < 0 || (size_t)n >= size)
		return;
	snprintf(buf + n, size - (size_t)n, "; the model prices a sampled "
		 "remote execution at %s; CUPTI counts no sector or dshared "
		 "wavefront per instruction, so nothing is compared", sec);
}

/* "4" or "1 to 4". */
static void range(char *buf, size_t size, unsigned lo, unsigned hi)
{
	if (lo == hi)
		snprintf(buf, size, "%u", lo);
	else
		snprintf(buf, size, "%u to %u", lo, hi);
}

static void latency_text(const bs_verdict_result *r, char *buf, size_t size)
{
	if (isnan(r->min_lat))
		snprintf(buf, size, "latency not modeled");
	else if (r->min_lat == r->max_lat)
		snprintf(buf, size, "latency %.2f cycles", r->min_lat);
	else
		snprintf(buf, size, "latency %.2f to %.2f cycles", r->min_lat,
			 r->max_lat);
}

static void counters_text(FILE *out, const bs_verdict_result *r)
{
	const bs_sass_insn *in = r->in;

	if (r->counted)
		fprintf(out, "  counters: %llu execution%s, %llu remote, %llu "
			"self (its own CTA's shared memory, priced like LDS), "
			"%llu with no lane on (by the explain library's "
			"counts%s); no sector counter per instruction\n",
			(unsigned long long)in->executions,
			s_(in->executions),
			(unsigned long long)r->remote_execs,
			(unsigned long long)r->self_execs,
			(unsigned long long)(in->executions - r->active_execs),
			in->dshared_known && in->dshared != r->remote_execs
			? "; CUPTI's dshared differs" : "");
	else if (in->dshared_known)
		fprintf(out, "  counters: %llu execution%s, %llu remote "
			"(dshared), %llu self (its own CTA's shared memory, "
			"priced like LDS); no sector counter per instruction"
			"\n", (unsigned long long)in->executions,
			s_(in->executions), (unsigned long long)in->dshared,
			(unsigned long long)(in->executions - in->dshared));
	else
		fprintf(out, "  counters: %llu execution%s; how many were "
			"remote is not recorded (no dshared count)\n",
			(unsigned long long)in->executions,
			s_(in->executions));
}

/* The fix search's answer for the worst sample, as bankscope fix gives
 * it for a remote kind. */
static void fix_text(FILE *out, const bs_fix *f)
{
	const bs_fix_change *c = &f->best;

	if (f->already_ideal) {
		fprintf(out, "  fix: none needed: %u sector%s, the fewest that "
			"hold its bytes\n", f->sum_before.sectors,
			s_(f->sum_before.sectors));
		return;
	}
	if (c->kind != BS_FIX_NONE) {
		fprintf(out, "  fix%s: %s: %u -> %u sectors moved (fewest %u), "
			"%+lld bytes of shared memory\n    %s\n",
			f->reaches_ideal ? "" : " (best found)", c->label,
			f->sum_before.sectors, c->sum.sectors, f->min_sectors,
			(long long)c->extra_bytes, c->declaration);
		if (*c->index_change)
			fprintf(out, "    %s\n", c->index_change);
	}
	if (!f->reaches_ideal)
		fprintf(out, "  fix: none reaches the fewest sectors: no "
			"padding within 0..%u, swizzle or widening brings "
			"%u down to %u; %s\n", f->max_pad, f->sum_before.sectors,
			f->min_sectors, f->explanation);
}

void explain_self_text(const bs_verdict_result *r, char *buf, size_t size)
{
	double measured = r->self_measured;
	char m[32], lo[32], hi[32];
	int n;

	n = snprintf(buf, size, "%zu sampled execution%s of it in its own "
		     "CTA's shared memory", r->self, s_(r->self));
	if (!r->self_priced || n < 0 || (size_t)n >= size) {
		if (n >= 0 && (size_t)n < size)
			snprintf(buf + n, size - (size_t)n, ", not priced");
		return;
	}
	verdict_num(lo, sizeof lo, r->self_min_wf);
	verdict_num(hi, sizeof hi, r->self_max_wf);
	if (r->self_min_wf != r->self_max_wf) {
		snprintf(buf + n, size - (size_t)n, ": the bank model gives %s "
			 "to %s wavefronts (%zu priced)", lo, hi,
			 r->self_priced);
		return;
	}
	if (isnan(measured)) {
		snprintf(buf + n, size - (size_t)n, ": the bank model gives %s "
			 "wavefront%s each (%zu priced)", lo,
			 s_(r->self_min_wf), r->self_priced);
		return;
	}
	verdict_num(m, sizeof m, measured);
	snprintf(buf + n, size - (size_t)n, ": %s, %s wavefront%s per "
		 "execution on its own CTA by the bank model, %s by the "
		 "counters (wavefronts / %s)",
		 r->self_agrees ? "AGREES" : "DISAGREES",
		 lo, s_(r->self_min_wf), m, r->counted ? "self executions"
		 : "(executions - dshared)");
}

void explain_remote_text(FILE *out, const bs_verdict_result *r,
			 const bs_verdict_worst *w)
{
	char buf[512], lines[32], dwf[32], lat[64], mean[32];

	counters_text(out, r);
	range(lines, sizeof lines, r->min_lines, r->max_lines);
	range(dwf, sizeof dwf, r->min_dwf, r->max_dwf);
	latency_text(r, lat, sizeof lat);
	if (r->min_sectors == r->max_sectors)
		fprintf(out, "  model:    %u sector%s, %s line%s, %s dshared "
			"wavefront%s, %s, in each of %zu sampled remote "
			"execution%s (%u-byte %s)\n", r->min_sectors,
			s_(r->min_sectors), lines, s_(r->max_lines), dwf,
			s_(r->max_dwf), lat, r->remote, s_(r->remote),
			r->width, r->kind);
	else {
		verdict_hist_text(&r->dist, buf, sizeof buf);
		verdict_num(mean, sizeof mean, r->mean_sectors);
		fprintf(out, "  model:    sectors %s of %zu sampled remote "
			"executions (mean %s); %s line%s, %s dshared "
			"wavefront%s, %s (%u-byte %s)\n", buf, r->remote,
			mean, lines, s_(r->max_lines), dwf, s_(r->max_dwf),
			lat, r->width, r->kind);
	}
	explain_remote_verdict(r, buf, sizeof buf);
	fprintf(out, "  verdict:  %s\n", buf);
	if (r->self) {
		explain_self_text(r, buf, sizeof buf);
		fprintf(out, "  self:     %s\n", buf);
	}
	explain_damaged_text(out, r);
	if (!w->ok) {
		fputc('\n', out);
		return;
	}
	explain_worst_text(out, r, w);
	if (w->fixed)
		fix_text(out, &w->fix);
	fputc('\n', out);
}

void explain_remote_csv(FILE *out, const bs_verdict_result *r)
{
	char mean[32];

	if (r->verdict != BS_VERDICT_REMOTE) {
		fputs(",,,", out);
		return;
	}
	verdict_num(mean, sizeof mean, r->mean_sectors);
	fprintf(out, ",%u,%u,%s", r->min_sectors, r->max_sectors, mean);
}

static void json_latency(FILE *out, const char *key, double v)
{
	if (isnan(v))
		fprintf(out, ", \"%s\": null", key);
	else
		fprintf(out, ", \"%s\": %.2f", key, v);
}

/* A count or mean, as the text writes it (up to 4 decimals), or null. */
static void json_count(FILE *out, const char *key, double v)
{
	char b[32];

	if (isnan(v)) {
		fprintf(out, ", \"%s\": null", key);
		return;
	}
	verdict_num(b, sizeof b, v);
	fprintf(out, ", \"%s\": %s", key, b);
}

void explain_remote_json(FILE *out, const bs_verdict_result *r)
{
	char mean[32];

	if (r->verdict != BS_VERDICT_REMOTE)
		return;
	verdict_num(mean, sizeof mean, r->mean_sectors);
	fprintf(out, ", \"remote_samples\": %zu, \"self_samples\": %zu, "
		"\"model_sectors_min\": %u, \"model_sectors_max\": %u, "
		"\"model_sectors_mean\": %s, \"model_lines_min\": %u, "
		"\"model_lines_max\": %u, \"model_dshared_wavefronts_min\": %u, "
		"\"model_dshared_wavefronts_max\": %u", r->remote, r->self,
		r->min_sectors, r->max_sectors, mean, r->min_lines,
		r->max_lines, r->min_dwf, r->max_dwf);
	json_latency(out, "model_latency_cycles_min", r->min_lat);
	json_latency(out, "model_latency_cycles_max", r->max_lat);
	/* the self samples under the bank model, and the counters' wavefronts
	   per self execution (null: not priced, or dshared unknown) */
	fprintf(out, ", \"self_priced\": %zu", r->self_priced);
	json_count(out, "self_model_wavefronts_min",
		   r->self_priced ? r->self_min_wf : NAN);
	json_count(out, "self_model_wavefronts_max",
		   r->self_priced ? r->self_max_wf : NAN);
	json_count(out, "self_counter_wavefronts", r->self_measured);
}
