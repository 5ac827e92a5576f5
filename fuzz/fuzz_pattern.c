/*
 * fuzz_pattern.c - libFuzzer target for the pattern-file reader.
 *
 * The input is read as a pattern file through bs_reader (fmemopen), to
 * its end: a bad line is an error naming its line and column, and reading
 * goes on with the next line.  Every access read is predicted in detail
 * under each architecture that has a rule for it (one without must refuse
 * it on both paths), and must also predict with the fast path, agree with
 * it and, by its kind's rule, with its own phases and cells (bank
 * slots), its passes (a retry loop) or its sectors (a remote kind), and
 * survive a round trip through bs_format_pattern and bs_parse_line.
 * fuzz/seeds/pattern/kinds holds every kind; make check replays the seeds
 * (tests/fuzz_replay.c).  Crashes, leaks, sanitizer
 * reports, errors without a line and column, and broken invariants
 * (abort) are findings.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_prediction(const bs_arch *p, const bs_access *a)
{
	static bs_detail d;
	unsigned waves = 0, cells = 0, slot;
	const bs_rule *r = bs_arch_rule(p, a->kind, a->width);
	bs_summary s;
	bs_error err;

	/* No rule (textbook has loads and stores only): both paths refuse
	 * it, with an error. */
	if (!r) {
		if (bs_predict_detail(p, a, &d, &err) == 0 ||
		    bs_predict(p, a, &s, &err) == 0)
			abort();
		return;
	}
	if (bs_predict_detail(p, a, &d, &err) < 0 ||
	    bs_predict(p, a, &s, &err) < 0)
		abort();
	if (s.wavefronts != d.sum.wavefronts ||
	    s.ideal_wavefronts != d.sum.ideal_wavefronts ||
	    s.bank_conflicts != d.sum.bank_conflicts ||
	    s.max_way != d.sum.max_way || s.packed != d.sum.packed ||
	    s.phases != d.sum.phases || s.sectors != d.sum.sectors)
		abort();
	if (!s.wavefronts != !a->active || !s.phases != !a->active ||
	    s.max_way > s.wavefronts ||
	    s.active_lanes != (unsigned)__builtin_popcount(a->active) ||
	    d.nphases > BS_MAX_PHASES || d.ncells > BS_MAX_CELLS)
		abort();
	/* A remote kind is priced by sectors: no bank phases or cells. */
	if (r->remote) {
		if (d.nphases || d.ncells || s.bank_conflicts ||
		    !s.sectors != !a->active)
			abort();
		return;
	}
	/* Conflicts are the bank slots beyond the ideal (a slot is
	 * slot_waves wavefronts: 2 for a compare-and-swap; a retry loop's
	 * are its wavefronts beyond one pass); an ideal by lanes may exceed
	 * what multicast reaches: then none. */
	slot = r->slot_waves > 1 && !r->loop ? r->slot_waves : 1;
	if ((s.ideal_wavefronts > s.wavefronts && r->ideal != BS_IDEAL_LANES) ||
	    s.bank_conflicts != (s.wavefronts > s.ideal_wavefronts
				 ? (s.wavefronts - s.ideal_wavefronts) / slot
				 : 0))
		abort();
	/* A loop's detail maps its first pass's load only. */
	if (r->loop) {
		if (s.passes < !!a->active || s.load_wavefronts +
		    s.cas_wavefronts != s.wavefronts)
			abort();
		return;
	}
	for (unsigned ph = 0; ph < d.nphases; ph++) {
		const bs_phase *f = &d.phase[ph];
		/* a copy's cell holds every lane of its destination, of any
		 * phase */
		uint32_t lanes = r->copy ? a->active : f->active;

		if (f->first_cell != cells || f->active & ~a->active)
			abort();
		for (unsigned i = 0; i < f->ncells; i++) {
			const bs_cell *c = &d.cell[f->first_cell + i];

			if (!c->lanes || c->lanes & ~lanes ||
			    c->wave >= f->wavefronts || c->bank >= p->banks)
				abort();
		}
		waves += f->wavefronts;
		cells += f->ncells;
	}
	if (waves != s.wavefronts || cells != d.ncells)
		abort();
}

static void check_round_trip(const bs_access *a)
{
	char line[BS_NAME_MAX + 32 * 12 + 16];
	bs_access b;
	int n = bs_format_pattern(a, line, sizeof line);

	if (n < 1 || line[n - 1] != '\n')
		abort();
	line[n - 1] = '\0';
	if (bs_parse_line(line, "round trip", 1, &b, NULL) != 1 ||
	    strcmp(a->name, b.name) || a->width != b.width || a->kind != b.kind ||
	    a->active != b.active)
		abort();
	for (unsigned l = 0; l < BS_LANES; l++)
		if ((a->active >> l & 1) && a->addr[l] != b.addr[l])
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;
	bs_reader *r;
	bs_access a;
	bs_error err;
	char msg[640];
	int rc;

	if (size == 0)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	r = bs_reader_new(f, "fuzz.pat");
	if (!r) {
		fclose(f);
		return 0;
	}
	while ((rc = bs_reader_next(r, &a, &err)) != 0) {
		if (rc < 0) {
			if (err.line != bs_reader_line(r) || err.line < 1 ||
			    err.column < 1)
				abort();
			bs_error_format(&err, msg, sizeof msg);
			continue;
		}
		for (const bs_arch *const *p = bs_archs(); *p; p++)
			check_prediction(*p, &a);
		check_round_trip(&a);
	}
	bs_reader_free(r);
	fclose(f);
	return 0;
}
