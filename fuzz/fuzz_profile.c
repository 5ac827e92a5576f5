/*
 * fuzz_profile.c - libFuzzer target for the readers of a profile's
 * records directory: records.tsv, launches.tsv, a disassembly,
 * explain.tsv and explain-counts.tsv, which come from files a user may
 * hand over (--replay).
 *
 * The first byte picks the reader; the rest is the file (fmemopen).  A
 * records or launches reader that succeeds is followed by the other on
 * the same input, a disassembly, bs_sassprof_finish and a walk over every
 * kept instruction and launch; explain records are indexed and every
 * sample looked up again by its instruction; explain counts are looked
 * up, and none may hold more remote executions than executions with a
 * lane on.  Crashes, leaks, sanitizer
 * reports, an error without a source, and broken invariants (abort) are
 * findings: totals that do not add up (measured launches above the
 * launches, kernels with records above the kernels, kept instructions
 * above the distinct ones, drained records above the records, more
 * instructions missing from the disassembly than recorded), an excess
 * that is not exactly wavefronts - ideal, a records or launches file
 * accepted though its last line has no newline (a file cut short), a
 * sample outside its instruction.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_profile(bs_sassprof *p)
{
	bs_sassprof_totals t;
	size_t n = bs_sassprof_finish(p);

	bs_sassprof_get_totals(p, &t);
	if (t.measured > t.launches || t.kernels_measured > t.kernels ||
	    n > t.instructions || t.not_counted > n ||
	    t.drained > t.records || bs_sassprof_get(p, n) != NULL)
		abort();
	for (size_t i = 0; i < n; i++) {
		const bs_sass_insn *in = bs_sassprof_get(p, i);

		if (!in || !in->kernel || !in->function ||
		    (in->not_counted && in->wavefronts) ||
		    in->wavefronts > INT64_MAX || in->ideal > INT64_MAX ||
		    in->executions > INT64_MAX ||
		    in->excess != (int64_t)in->wavefronts -
				  (int64_t)in->ideal)
			abort();
	}
	for (size_t i = 0; i < bs_sassprof_launch_count(p); i++)
		if (i && bs_sassprof_launch_at(p, i)->index <=
			 bs_sassprof_launch_at(p, i - 1)->index)
			abort();
}

static void check_explain(bs_explain *e)
{
	size_t n = bs_explain_instructions(e);

	for (size_t i = 0; i < n; i++) {
		const bs_explain_insn *x = bs_explain_instruction(e, i);

		if (!x || bs_explain_find(e, x->function, x->pc) != x)
			abort();
		for (size_t k = 0; k < x->n; k++) {
			const bs_explain_sample *s =
				bs_explain_sample_at(e, x->first + k);

			if (!s || s->pc != x->pc || !s->active ||
			    bs_width_index(s->width) < 0)
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bs_error err;
	FILE *f;
	int which;

	if (size < 1)
		return 0;
	which = data[0] % 4;
	data++;
	size--;
	if (!(f = fmemopen((void *)data, size ? size : 1, "r")))
		return 0;
	if (!size)
		fgetc(f);
	if (which == 3) {
		bs_explain *e = bs_explain_new();
		bs_explain_counts c;

		if (bs_explain_read_counts(e, f, "c", &err) == 0) {
			if (bs_explain_count(e, "f", 0x10, &c) == 0 &&
			    (c.remote > c.active || !c.launches ||
			     !bs_explain_has_counts(e)))
				abort();
		} else if (!err.source[0]) {
			abort();
		}
		bs_explain_free(e);
	} else if (which == 2) {
		bs_explain *e = bs_explain_new();

		if (bs_explain_read(e, f, "x", &err) == 0)
			check_explain(e);
		else if (!err.source[0])
			abort();
		bs_explain_free(e);
	} else {
		bs_sassprof *p = bs_sassprof_new();
		int rc = which ? bs_sassprof_read_launches(p, f, "l", &err)
			       : bs_sassprof_read_records(p, f, "r", &err);

		if (rc < 0 && !err.source[0])
			abort();
		if (rc == 0 && size && data[size - 1] != '\n')
			abort();
		if (rc == 0) {
			size_t all, missing;

			rewind(f);
			(void)bs_sassprof_read_disasm(p, 7, f, "d", &err);
			missing = bs_sassprof_undisassembled(p, 7, &all);
			if (missing > all)
				abort();
			check_profile(p);
		}
		bs_sassprof_free(p);
	}
	fclose(f);
	return 0;
}
