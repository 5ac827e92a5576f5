/*
 * fuzz_arch.c - libFuzzer target for arch files (--arch
 * FILE) and the predictions made under them.
 *
 * The input is an arch file's text.  One that does not parse must say where
 * (its source is the name given, its line and column within the input);
 * one that parses must write back text that parses to the same text
 * again.  Then every rule predicts a few accesses of its kind and width
 * (one word, consecutive, stride 2 and 32 elements, and addresses taken
 * from the input's bytes, on every lane and on half a warp): bs_predict
 * and bs_predict_detail must agree, and a retry loop (loop=cas) must add
 * up: its passes at most 32, each taking only pending lanes, every active
 * lane done exactly once, loads and compare-and-stores summing to the
 * wavefronts.  The CLI's printers then write the architecture as `bankscope
 * archs` does and each rule as the report does: every packed rule's
 * lane partners must appear whole in both, the report's text must fit
 * its buffer, and no byte below 0x20 but the newline may reach the
 * terminal.  Crashes, sanitizer reports and broken invariants (abort) are
 * findings.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "../cli/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *written(const bs_arch *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f || bs_arch_write(f, p) < 0)
		abort();
	fclose(f);
	return text;
}

static void check_loop(const bs_access *a, const bs_detail *d)
{
	uint32_t left = a->active;
	unsigned load = 0, cas = 0;

	if (d->npasses != d->sum.passes || d->npasses > BS_LANES)
		abort();
	for (unsigned i = 0; i < d->npasses; i++) {
		const bs_pass *x = &d->pass[i];

		if (x->pending != left || !x->done || (x->done & ~x->pending))
			abort();
		left &= ~x->done;
		load += x->load_wavefronts;
		cas += x->cas_wavefronts;
	}
	if (left || load != d->sum.load_wavefronts ||
	    cas != d->sum.cas_wavefronts ||
	    load + cas != d->sum.wavefronts)
		abort();
}

static void predict_all(const bs_arch *p, const bs_rule *r,
			const uint8_t *data, size_t size)
{
	static bs_detail d;
	bs_access a;
	bs_summary s;
	bs_error err;

	for (unsigned shape = 0; shape < 10; shape++) {
		memset(&a, 0, sizeof a);
		snprintf(a.name, sizeof a.name, "fuzz%u", shape);
		a.kind = r->kind;
		a.width = r->width;
		a.active = bs_kind_get(r->kind)->addr_lanes;
		if (shape >= 5)
			a.active &= 0x0000ffffu;
		for (unsigned l = 0; l < BS_LANES; l++) {
			uint32_t e;

			switch (shape % 5) {
			case 0: e = 0; break;
			case 1: e = l; break;
			case 2: e = 2 * l; break;
			case 3: e = 32 * l; break;
			default:
				e = size ? data[(l * 7 + size / 2) % size] % 64
					 : l;
			}
			a.addr[l] = e * a.width;
		}
		if (bs_predict(p, &a, &s, &err) < 0) {
			/* a loop without its loads is refused, nothing else */
			if (!r->loop || bs_arch_rule(p, BS_KIND_LD, r->width))
				abort();
			continue;
		}
		if (bs_predict_detail(p, &a, &d, &err) < 0 ||
		    d.sum.wavefronts != s.wavefronts ||
		    d.sum.ideal_wavefronts != s.ideal_wavefronts ||
		    d.sum.bank_conflicts != s.bank_conflicts ||
		    d.sum.max_way != s.max_way || d.sum.phases != s.phases ||
		    d.sum.packed != s.packed || d.sum.passes != s.passes)
			abort();
		if (r->loop)
			check_loop(&a, &d);
		else if (d.npasses)
			abort();
	}
}

/* archs and the report's rule text on p: see the head comment. */
static void print_all(const bs_arch *p)
{
	char *text = NULL, rule[REPORT_RULE_TEXT_MAX];
	char want[BS_PARTNERS_TEXT_MAX + 16];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	archs_print(f, p, UINT32_MAX);
	fclose(f);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)text[i] < 0x20 && text[i] != '\n')
			abort();
	for (unsigned i = 0; i < p->nrules; i++) {
		const bs_rule *r = &p->rule[i];
		char pt[BS_PARTNERS_TEXT_MAX];

		report_rule_text(rule, sizeof rule, p, r);
		if (strlen(rule) >= sizeof rule - 1)
			abort();
		if (!r->packed_lanes)
			continue;
		bs_partners_text(r->pack_partners, pt);
		snprintf(want, sizeof want, " %s ", pt);
		if (!strstr(text, want))
			abort();
		snprintf(want, sizeof want, "partners=%s ", pt);
		if (!strstr(rule, want))
			abort();
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bs_arch p, back;
	char *text = malloc(size + 1), *once, *twice;
	bs_error err;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&err, 0, sizeof err);
	if (bs_arch_parse(text, "fuzz", &p, &err) < 0) {
		if (strcmp(err.source, "fuzz") || err.line < 0 ||
		    err.column < 0 || !err.text[0])
			abort();
		free(text);
		return 0;
	}
	once = written(&p);
	if (bs_arch_parse(once, "again", &back, &err) < 0)
		abort();
	twice = written(&back);
	if (strcmp(once, twice))
		abort();
	for (unsigned i = 0; i < p.nrules; i++)
		predict_all(&p, &p.rule[i], data, size);
	print_all(&p);
	free(once);
	free(twice);
	free(text);
	return 0;
}
