/*
 * show.c - bankscope profile's report: the instructions shown (--kernel,
 * --top), the text table with its notes and the --explain section, the
 * CSV and JSON tables, and the messages about the records on stderr
 * (profile_tell; profile.c's head lists them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"

/* ---- output -------------------------------------------------------------- */

/* The instructions the report shows: of kernels --kernel matches, the
 * first --top counted ones, then the ones CUPTI does not count. */
int profile_select_shown(profile *p, const options *o, bs_error *err)
{
	free(p->shown);
	p->nshown = p->ncounted = p->more = 0;
	if (!(p->shown = malloc((p->n ? p->n : 1) * sizeof *p->shown)))
		return bs_error_set(err, p->dir, 0, 0, "out of memory");
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < p->n; i++) {
			const bs_sass_insn *in = bs_sassprof_get(p->sp, i);

			if (!in->not_counted != !pass)
				continue;
			if (o->kernel && regexec(&o->re, in->kernel, 0, NULL, 0))
				continue;
			if (!pass && o->top && p->ncounted == o->top) {
				p->more++;
				continue;
			}
			p->shown[p->nshown++] = i;
			p->ncounted += !pass;
		}
	return 0;
}

/* Up to 4 decimals, trailing zeros dropped; "" when executions are 0. */
static void per_exec(char *buf, size_t size, const bs_sass_insn *in)
{
	if (!in->executions)
		buf[0] = '\0';
	else
		verdict_num(buf, size, (double)in->wavefronts / in->executions);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void source(char *buf, size_t size, const bs_sass_insn *in, int full)
{
	if (!in->source_file)
		buf[0] = '\0';
	else
		snprintf(buf, size, "%s:%lu",
			 full ? in->source_file : base_name(in->source_file),
			 in->source_line);
}

/* The pc as every format writes it. */
static void pc_text(char *buf, size_t size, uint32_t pc)
{
	snprintf(buf, size, "0x%04x", pc);
}

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* The joined prediction in wavefronts per execution, or "-". */
static void predicted(char *buf, size_t size, const profile *p, size_t i)
{
	bs_access a;
	bs_summary s;

	if (p->join && bs_join_predict(p->join, p->arch, p->sp, p->n, i, &a,
				       &s))
		snprintf(buf, size, "%u", s.wavefronts);
	else
		snprintf(buf, size, "-");
}

static void plural(unsigned long n, const char *one, const char *many)
{
	printf("%lu %s", n, n == 1 ? one : many);
}

/* A process's command line or GPU name, escaped where it holds control
 * bytes or invalid UTF-8 (name_shown). */
static void print_escaped(FILE *out, const char *s)
{
	char buf[4200];

	fputs(name_shown(s, buf, sizeof buf), out);
}

static void print_head(const profile *p, const char *program)
{
	if (program)
		printf("program: %s\n", program);
	if (p->pid) {
		printf("process: %ld (parent %ld): ", p->pid, p->ppid);
		print_escaped(stdout, p->command);
		printf("%s%s\n", p->gpu[0] ? ", on " : "", p->gpu);
	}
	if (p->runs == 1)
		printf("runs: 1\n");
	else if (p->runs)
		printf("runs: %lu (the first, then one for each kernel it "
		       "gave no records for; %lu at a time)\n", p->runs,
		       p->jobs);
	plural(p->tot.launches, "launch", "launches");
	printf(" of ");
	plural(p->tot.kernels, "kernel", "kernels");
	printf(", %lu measured; %lu of %lu instructions use shared memory\n",
	       p->tot.measured, (unsigned long)(p->n - p->tot.not_counted),
	       p->tot.instructions);
	printf("executions in warp instructions; wavefronts, ideal and excess "
	       "in wavefronts; all summed over the measured launches\n\n");
}

/*
 * CUPTI's ideal of an LDGSTS is not the hardware's minimum (docs/model.md,
 * "cp.async"): said once under a table that lists one, so that nobody
 * chases conflicts that are the phases' cost.
 */
static void ldgsts_note(const profile *p)
{
	int ca = 0, cg = 0;
	bs_kind kca, kcg;

	bs_kind_find("cp.async.ca", &kca);
	bs_kind_find("cp.async.cg", &kcg);
	for (size_t r = 0; r < p->ncounted; r++) {
		const bs_sass_insn *in = bs_sassprof_get(p->sp, p->shown[r]);
		bs_kind k;

		if (in->sass && bs_sass_kind(in->sass, &k, NULL) == 1) {
			ca |= k == kca;
			cg |= k == kcg;
		}
	}
	if (ca)
		printf("\nnote: LDGSTS (cp.async.ca): CUPTI's ideal is the bytes "
		       "copied over 128, over the whole warp, but the hardware "
		       "serves a copy in a store's phases (8 lanes at 16 bytes, "
		       "16 at 8, 32 at 4) and lanes on one word one by one: part "
		       "of the excess can be that cost, not bank conflicts; "
		       "--explain predicts the per-phase minimum (docs/model.md, "
		       "\"cp.async\")\n");
	if (cg)
		printf("%snote: LDGSTS.E.BYPASS (cp.async.cg): CUPTI's ideal is "
		       "the distinct bytes over 128, but the hardware copies "
		       "by 128-byte lines, at least a wavefront for each "
		       "source line, and its wavefronts depend on the lanes' "
		       "order and sources: --explain predicts them from the "
		       "recorded destinations and sources (docs/model.md, "
		       "\"cp.async\")\n", ca ? "" : "\n");
}

#define NCOLS 11
#define COL_DSHARED 5
#define COL_PREDICTED 10

/* The text table's cells of instruction i, but the kernel. */
static void text_cells(const profile *p, size_t i, char cell[][512])
{
	const bs_sass_insn *in = bs_sassprof_get(p->sp, i);

	pc_text(cell[1], sizeof cell[1], in->pc);
	snprintf(cell[2], sizeof cell[2], "%s", in->sass ? in->sass : "-");
	source(cell[3], sizeof cell[3], in, 0);
	if (!cell[3][0])
		strcpy(cell[3], "-");
	snprintf(cell[4], sizeof cell[4], "%llu",
		 (unsigned long long)in->executions);
	if (in->dshared_known)
		snprintf(cell[5], sizeof cell[5], "%llu",
			 (unsigned long long)in->dshared);
	else
		strcpy(cell[5], "-");
	snprintf(cell[6], sizeof cell[6], "%llu",
		 (unsigned long long)in->wavefronts);
	snprintf(cell[7], sizeof cell[7], "%llu",
		 (unsigned long long)in->ideal);
	snprintf(cell[8], sizeof cell[8], "%lld", (long long)in->excess);
	per_exec(cell[9], sizeof cell[9], in);
	if (!cell[9][0])
		strcpy(cell[9], "-");
	predicted(cell[10], sizeof cell[10], p, i);
}

/* The columns the text table prints: dshared when a shown instruction
 * went to another CTA's shared memory, predicted with --patterns. */
static void text_columns(const profile *p, int *on, int *last)
{
	for (int c = 0; c < NCOLS; c++)
		on[c] = c != COL_DSHARED && c != COL_PREDICTED;
	on[COL_PREDICTED] = p->join != NULL;
	for (size_t r = 0; r < p->ncounted; r++)
		on[COL_DSHARED] |= bs_sassprof_get(p->sp, p->shown[r])->dshared
				   > 0;
	*last = on[COL_PREDICTED] ? COL_PREDICTED : COL_PREDICTED - 1;
}

static void print_text_table(const profile *p, const options *o,
			     const char *program)
{
	static const char *const head[NCOLS] = {
		"kernel", "pc", "sass", "source", "executions", "dshared",
		"wavefronts", "ideal", "excess", "wavefronts_per_exec",
		"predicted"
	};
	int on[NCOLS], last;
	size_t w[NCOLS];
	char cell[NCOLS][512];

	print_head(p, program);
	text_columns(p, on, &last);
	for (int c = 0; c < NCOLS; c++)
		w[c] = strlen(head[c]);
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			for (int c = 0; c <= last; c++)
				if (on[c])
					printf(c < 4 ? "%-*s%s" : "%*s%s",
					       (int)w[c], head[c],
					       c < last ? "  " : "\n");
		for (size_t r = 0; r < p->ncounted; r++) {
			const char *k =
				bs_sassprof_get(p->sp, p->shown[r])->kernel;
			size_t kl = strlen(k);

			if (!o->full_names && kl > KERNEL_TEXT_MAX)
				kl = KERNEL_TEXT_MAX;
			text_cells(p, p->shown[r], cell);
			if (!pass) {
				w[0] = max_size(w[0], kl);
				for (int c = 1; c < NCOLS; c++)
					w[c] = max_size(w[c], strlen(cell[c]));
				continue;
			}
			if (kl < strlen(k))
				printf("%.*s...%*s  ", (int)kl - 3, k,
				       (int)(w[0] - kl), "");
			else
				printf("%-*s  ", (int)w[0], k);
			for (int c = 1; c <= last; c++)
				if (on[c])
					printf(c < 4 ? "%-*s%s" : "%*s%s",
					       (int)w[c], cell[c],
					       c < last ? "  " : "\n");
		}
	}
	if (p->more)
		printf("(%zu more instruction%s; --top %lu shows the worst "
		       "%lu)\n", p->more, p->more == 1 ? "" : "s", o->top,
		       o->top);
	ldgsts_note(p);
	if (p->nshown > p->ncounted) {
		printf("\nshared memory outside the LSU pipe: present, not "
		       "counted by CUPTI's shared-memory metrics\n");
		for (size_t r = p->ncounted; r < p->nshown; r++) {
			const bs_sass_insn *in =
				bs_sassprof_get(p->sp, p->shown[r]);
			char pc[16], src[512];

			pc_text(pc, sizeof pc, in->pc);
			source(src, sizeof src, in, 0);
			printf("%.*s%s  %s  %s  %s  %llu executions: %s\n",
			       o->full_names ? (int)strlen(in->kernel)
					     : KERNEL_TEXT_MAX,
			       in->kernel, !o->full_names &&
			       strlen(in->kernel) > KERNEL_TEXT_MAX ? "..." : "",
			       pc, in->sass, src[0] ? src : "-",
			       (unsigned long long)in->executions,
			       in->not_counted);
		}
	}
}

/* The verdict on in (and, when w is not NULL, its worst sample). */
static void judge(const profile *p, const bs_sass_insn *in,
		  bs_verdict_result *r, bs_verdict_worst *w)
{
	bs_explain_judge(p->arch, p->ex, in,
			 bs_explain_loop_find(p->sp, p->n, in), r, w);
}

/* 1 when the verdict comes with the samples' wavefront figures (AGREES,
 * DISAGREES, DATA-DEPENDENT). */
static int wavefront_figures(const bs_verdict_result *x)
{
	return x->verdict == BS_VERDICT_AGREES ||
	       x->verdict == BS_VERDICT_DISAGREES ||
	       x->verdict == BS_VERDICT_DATA_DEPENDENT;
}

/* The explain report: one block per shown instruction with samples. */
static void print_text_explain(const profile *p, const options *o)
{
	static bs_verdict_worst w;
	size_t with = 0;

	printf("\nexplain: the %s model on the lanes' recorded addresses of "
	       "sampled warp executions (explain.tsv)\n\n",
	       p->arch->name);
	for (size_t r = 0; r < p->ncounted; r++) {
		const bs_sass_insn *in = bs_sassprof_get(p->sp, p->shown[r]);
		bs_verdict_result x;
		char pc[16], src[512];

		judge(p, in, &x, &w);
		with += x.verdict != BS_VERDICT_NONE;
		pc_text(pc, sizeof pc, in->pc);
		source(src, sizeof src, in, 0);
		printf("%.*s%s  %s  %s  %s\n", o->full_names ?
		       (int)strlen(in->kernel) : KERNEL_TEXT_MAX, in->kernel,
		       !o->full_names && strlen(in->kernel) > KERNEL_TEXT_MAX
		       ? "..." : "", pc, in->sass ? in->sass : "-",
		       src[0] ? src : "-");
		explain_text(stdout, &x, &w);
	}
	if (!with)
		printf("no instruction of the table ran in a sampled warp\n");
}

static void explain_csv(const profile *p, const bs_sass_insn *in)
{
	bs_verdict_result x;
	char mean[32];

	judge(p, in, &x, NULL);
	if (!wavefront_figures(&x)) {
		printf(",%zu,,,,%s", x.samples,
		       bs_verdict_name(x.verdict));
	} else {
		verdict_num(mean, sizeof mean, x.mean_wf);
		printf(",%zu,%u,%u,%s,%s", x.predicted, x.min_wf, x.max_wf,
		       mean, bs_verdict_name(x.verdict));
	}
	if (p->tot.remote)
		explain_remote_csv(stdout, &x);
	if (bs_explain_has_counts(p->ex)) {
		/* the executions with a lane on, the samples' standard error */
		putchar(',');
		if (x.counted)
			printf("%llu", (unsigned long long)x.active_execs);
		putchar(',');
		if (wavefront_figures(&x) && !isnan(x.se_wf)) {
			verdict_num(mean, sizeof mean, x.se_wf);
			fputs(mean, stdout);
		}
	}
}

static void print_csv_table(const profile *p, const char *program)
{
	char buf[4096];

	if (program) {
		fputs("# program: ", stdout);
		fputs(program, stdout);
		putchar('\n');
	}
	if (p->pid) {
		printf("# process: %ld\n# parent: %ld\n# command: ", p->pid,
		       p->ppid);
		print_escaped(stdout, p->command);
		printf("\n# gpu: ");
		print_escaped(stdout, p->gpu);
		putchar('\n');
	}
	if (p->runs)
		printf("# runs: %lu\n", p->runs);
	printf("# launches: %lu\n# measured_launches: %lu\n# kernels: %lu\n"
	       "# instructions: %lu\n", p->tot.launches, p->tot.measured,
	       p->tot.kernels, p->tot.instructions);
	printf("# units: executions in warp instructions; wavefronts, ideal "
	       "and excess in wavefronts; all summed over the measured "
	       "launches\n");
	/* dshared when the records carried it, the model's sectors when an
	   instruction went remote: older tables read as they did */
	printf("kernel,function,cubin_crc,pc,sass,source,executions,"
	       "wavefronts,ideal,excess,wavefronts_per_exec%s%s%s%s%s%s\n",
	       p->tot.dshared_records ? ",dshared" : "",
	       p->join ? ",pattern,predicted_wavefronts_per_exec" : "",
	       p->ex ? ",explain_samples,model_wavefronts_min,"
		       "model_wavefronts_max,model_wavefronts_mean,verdict"
		     : "",
	       p->ex && p->tot.remote ? ",model_sectors_min,"
		       "model_sectors_max,model_sectors_mean" : "",
	       p->ex && bs_explain_has_counts(p->ex)
	       ? ",active_executions,model_wavefronts_se" : "",
	       p->tot.not_counted ? ",not_counted" : "");
	for (size_t r = 0; r < p->nshown; r++) {
		const bs_sass_insn *in = bs_sassprof_get(p->sp, p->shown[r]);
		char pc[16];

		csv_field(stdout, in->kernel);
		putchar(',');
		csv_field(stdout, in->function);
		pc_text(pc, sizeof pc, in->pc);
		printf(",%u,%s,", in->cubin_crc, pc);
		csv_field(stdout, in->sass ? in->sass : "");
		putchar(',');
		source(buf, sizeof buf, in, 1);
		csv_field(stdout, buf);
		per_exec(buf, sizeof buf, in);
		printf(",%llu,%llu,%llu,%lld,%s",
		       (unsigned long long)in->executions,
		       (unsigned long long)in->wavefronts,
		       (unsigned long long)in->ideal, (long long)in->excess,
		       buf);
		if (p->tot.dshared_records)
			putchar(',');
		if (in->dshared_known)
			printf("%llu", (unsigned long long)in->dshared);
		if (p->join) {
			bs_access a;

			putchar(',');
			if (bs_join_find(p->join, p->sp, p->n, p->shown[r], &a))
				csv_field(stdout, a.name);
			predicted(buf, sizeof buf, p, p->shown[r]);
			printf(",%s", strcmp(buf, "-") ? buf : "");
		}
		if (p->ex)
			explain_csv(p, in);
		if (p->tot.not_counted) {
			putchar(',');
			csv_field(stdout, in->not_counted ? in->not_counted
							  : "");
		}
		putchar('\n');
	}
}

static void json_or_null(const char *s)
{
	if (s)
		json_string(stdout, s);
	else
		fputs("null", stdout);
}

static void explain_json(const profile *p, const bs_sass_insn *in)
{
	bs_verdict_result x;
	char mean[32], m[32], text[512];

	judge(p, in, &x, NULL);
	explain_verdict_text(&x, text, sizeof text);
	printf(", \"explain\": {\"samples\": %zu, \"verdict\": ", x.samples);
	json_string(stdout, bs_verdict_name(x.verdict));
	fputs(", \"text\": ", stdout);
	json_string(stdout, text);
	if (x.invalid)
		printf(", \"invalid_samples\": %zu", x.invalid);
	explain_remote_json(stdout, &x);
	if (x.counted)
		printf(", \"active_executions\": %llu",
		       (unsigned long long)x.active_execs);
	if (wavefront_figures(&x) && !isnan(x.se_wf)) {
		verdict_num(mean, sizeof mean, x.se_wf);
		printf(", \"model_wavefronts_se\": %s", mean);
	}
	if (wavefront_figures(&x)) {
		verdict_num(mean, sizeof mean, x.mean_wf);
		if (isnan(x.measured_wf))
			snprintf(m, sizeof m, "null");
		else
			verdict_num(m, sizeof m, x.measured_wf);
		printf(", \"model_wavefronts_min\": %u, "
		       "\"model_wavefronts_max\": %u, "
		       "\"model_wavefronts_mean\": %s, "
		       "\"model_wavefronts_sum\": %lu, \"model_ideal_sum\": "
		       "%lu, \"model_conflicts_sum\": %lu, "
		       "\"counters_wavefronts_per_exec\": %s", x.min_wf,
		       x.max_wf, mean, x.sum_wf, x.sum_ideal, x.sum_conflicts,
		       m);
	}
	putchar('}');
}

static void print_json_table(const profile *p, const char *program)
{
	char buf[64], pc[16];

	fputs("{\"program\": ", stdout);
	json_or_null(program);
	if (p->pid) {
		printf(", \"process\": {\"pid\": %ld, \"ppid\": %ld, "
		       "\"command\": ", p->pid, p->ppid);
		json_string(stdout, p->command);
		fputs(", \"gpu\": ", stdout);
		json_string(stdout, p->gpu);
		putchar('}');
	}
	fputs(", \"status\": ", stdout);
	json_or_null(p->status.state == BS_RECORDS_NONE ? NULL
						       : p->status.reason);
	printf(", \"runs\": %lu, \"launches\": %lu, \"measured_launches\": "
	       "%lu, \"kernels\": %lu, \"instructions\": %lu,\n "
	       "\"shared_instructions\": [", p->runs, p->tot.launches,
	       p->tot.measured, p->tot.kernels, p->tot.instructions);
	for (size_t r = 0; r < p->nshown; r++) {
		const bs_sass_insn *in = bs_sassprof_get(p->sp, p->shown[r]);

		fputs(r ? ",\n  {" : "\n  {", stdout);
		fputs("\"kernel\": ", stdout);
		json_string(stdout, in->kernel);
		fputs(", \"function\": ", stdout);
		json_string(stdout, in->function);
		pc_text(pc, sizeof pc, in->pc);
		printf(", \"cubin_crc\": %u, \"pc\": \"%s\", \"sass\": ",
		       in->cubin_crc, pc);
		json_or_null(in->sass);
		fputs(", \"source_file\": ", stdout);
		json_or_null(in->source_file);
		if (in->source_file)
			printf(", \"source_line\": %lu", in->source_line);
		else
			fputs(", \"source_line\": null", stdout);
		per_exec(buf, sizeof buf, in);
		printf(", \"launches\": %lu, \"executions\": %llu, "
		       "\"wavefronts\": %llu, \"ideal\": %llu, "
		       "\"excess\": %lld, \"wavefronts_per_exec\": %s, "
		       "\"dshared\": ",
		       in->launches, (unsigned long long)in->executions,
		       (unsigned long long)in->wavefronts,
		       (unsigned long long)in->ideal, (long long)in->excess,
		       buf[0] ? buf : "null");
		if (in->dshared_known)
			printf("%llu", (unsigned long long)in->dshared);
		else
			fputs("null", stdout);
		fputs(", \"not_counted\": ", stdout);
		json_or_null(in->not_counted);
		if (p->ex && !in->not_counted)
			explain_json(p, in);
		putchar('}');
	}
	fputs(p->nshown ? "\n ]}\n" : "]}\n", stdout);
}

/* The messages about the records; 1 when there is no profile to show. */
int profile_tell(const profile *p, const char *who, const char *inject)
{
	const bs_sassprof_totals *t = &p->tot;

	if (p->status.state == BS_RECORDS_NONE) {
		if (inject)
			usage_error("%s launched no CUDA kernel (CUDA was not "
				    "initialized, or %s did not load)", who,
				    inject);
		else
			usage_error("%s: no status.txt: the program launched "
				    "no CUDA kernel", who);
		return 1;
	}
	if (p->status.state == BS_RECORDS_FAILED)
		usage_error("counters could not be collected: %s",
			    p->status.reason);
	for (int i = 0; i < p->status.nlater; i++)
		usage_error("a later run: %s", p->status.later[i]);
	if (!t->launches && !t->records) {
		if (p->status.state == BS_RECORDS_OK)
			usage_error("%s launched no CUDA kernel", who);
		return 1;
	}
	if (!t->records && !t->empty_launches) {
		if (!inject)
			usage_error("%s: no launch was measured", who);
		return 1;
	}
	if (!t->records)
		usage_error("%lu kernel launch%s selected but no SASS records "
			    "from CUPTI", t->empty_launches,
			    t->empty_launches == 1 ? "" : "es");
	else if (t->empty_launches)
		usage_error("%lu selected launch%s gave no SASS records (%lu of "
			    "%lu kernels measured); the table covers the "
			    "others", t->empty_launches,
			    t->empty_launches == 1 ? "" : "es",
			    t->kernels_measured, t->kernels);
	if (t->kernels_unlaunched)
		usage_error("records name %lu kernel%s no launch line names "
			    "(launched where the injection library saw no "
			    "launch call): counted in the table, not in the "
			    "launches", t->kernels_unlaunched,
			    t->kernels_unlaunched == 1 ? "" : "s");
	if (t->mismatched)
		usage_error("%lu launch%s named different kernels in different "
			    "runs: the program does not launch the same way "
			    "each time", t->mismatched,
			    t->mismatched == 1 ? "" : "es");
	if (p->no_cubin)
		usage_error("%lu cubin%s the records name %s missing: no "
			    "SASS text or source lines for %s", p->no_cubin,
			    p->no_cubin == 1 ? "" : "s",
			    p->no_cubin == 1 ? "is" : "are",
			    p->no_cubin == 1 ? "it" : "them");
	if (p->no_disasm > p->no_cubin)
		usage_error("%lu cubin%s not disassembled (no nvdisasm or "
			    "cuobjdump that could): no SASS text or source "
			    "lines", p->no_disasm - p->no_cubin,
			    p->no_disasm - p->no_cubin == 1 ? "" : "s");
	return !t->records || p->status.state == BS_RECORDS_FAILED;
}

static void print_report(const profile *p, const options *o,
			 const char *program)
{
	if (o->fmt == FMT_CSV)
		print_csv_table(p, program);
	else if (o->fmt == FMT_JSON)
		print_json_table(p, program);
	else if (p->tot.records) {
		print_text_table(p, o, program);
		if (p->ex)
			print_text_explain(p, o);
	}
	fflush(stdout);
}

int profile_show(const profile *p, const options *o, const char *program)
{
	bs_output out;
	bs_error err;
	int saved, ok;

	if (!o->output) {
		print_report(p, o, program);
		return 0;
	}
	/* the printers write to stdout: for them, stdout is the file */
	if (bs_output_open(&out, o->output, &err) < 0)
		return report_error(&err), -1;
	fflush(stdout);
	if ((saved = dup(STDOUT_FILENO)) < 0 ||
	    dup2(fileno(out.f), STDOUT_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		bs_output_abort(&out);
		usage_error("-o %s: %s", o->output, strerror(errno));
		return -1;
	}
	print_report(p, o, program);
	ok = !ferror(stdout) && fflush(stdout) == 0;
	dup2(saved, STDOUT_FILENO);
	close(saved);
	clearerr(stdout);
	if (!ok) {
		bs_output_abort(&out);
		usage_error("-o %s: the report could not be written",
			    o->output);
		return -1;
	}
	if (bs_output_commit(&out, &err) < 0)
		return report_error(&err), -1;
	return 0;
}
