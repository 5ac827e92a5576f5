/*
 * archs.c - bankscope archs: the architectures, rule by rule, with
 * where each rule comes from; the access kinds.  `bankscope profiles` is
 * its older name, and --format profile the older --format arch.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char archs_usage[] =
	"usage: bankscope archs [--format text|arch] [--kind K[,K...]]\n"
	"                       [NAME|FILE...]\n"
	"       bankscope archs --kinds\n"
	"\n"
	"List the architectures: banks, the compute capabilities\n"
	"each is for, and one rule per access kind and width (phases,\n"
	"packing, whether lanes share a word, the ideal, the latency line,\n"
	"throughput), each with its source: the measured dataset it was\n"
	"derived from, or an assumption.  NAME is a built-in architecture,\n"
	"FILE an arch file (docs/model.md, \"Architecture files\"); without\n"
	"either, every built-in architecture.\n"
	"\n"
	"  --format arch     print the arch files themselves (profile: the\n"
	"                    old name of arch)\n"
	"  --kind K,...      only the rules of these kinds (ld,st: the\n"
	"                    loads and stores)\n"
	"  --kinds           list the access kinds: the names pattern files\n"
	"                    and datasets use, their SASS and PTX, widths and\n"
	"                    address lanes\n"
	"\n"
	"Exit status: 0 success, 2 bad input.\n";

static void num(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.2f", v);
}

/* The kinds of --kind as bits; all when list is NULL; -1 on a bad name. */
static int kind_filter(const char *list, uint32_t *bits)
{
	char *buf, *tok, *save = NULL;
	int rc = 0;

	*bits = UINT32_MAX;
	if (!list)
		return 0;
	*bits = 0;
	if (!(buf = strdup(list)))
		return usage_error("option --kind: out of memory");
	for (tok = strtok_r(buf, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		bs_kind k;

		if (bs_kind_find(tok, &k) < 0)
			rc = usage_error("option --kind: '%s' is not an "
					 "access kind (bankscope archs "
					 "--kinds lists them)", tok);
		else
			*bits |= 1u << k;
	}
	free(buf);
	if (rc)
		return rc;
	return *bits ? 0 : usage_error("option --kind: no kind given");
}

/*
 * Whether source s is listed: always when every kind is, else when a rule
 * of a listed kind comes from it (--kind ld,st names the ld and st
 * rules' sources only).
 */
static int source_shown(const bs_arch *p, unsigned s, uint32_t kinds)
{
	uint32_t all = bs_kind_count() >= 32 ? UINT32_MAX
		       : (1u << bs_kind_count()) - 1;

	if ((kinds & all) == all)
		return 1;
	for (unsigned i = 0; i < p->nrules; i++)
		if (p->rule[i].source == s && (kinds >> p->rule[i].kind & 1))
			return 1;
	return 0;
}

/*
 * The rules of the remote kinds (distributed shared memory), apart: they
 * move sectors and take no bank key, so the bank table's columns do not
 * apply.  Nothing when the architecture has none of them.
 */
static void print_remote_rules(FILE *out, const bs_arch *p, uint32_t kinds,
			       char tag[][4 * sizeof p->source[0].tag + 1])
{
	int head = 0;

	for (unsigned k = 0; k < bs_kind_count(); k++)
		for (int w = 0; w < BS_NWIDTHS; w++) {
			const bs_rule *r = bs_arch_rule(p, (bs_kind)k,
							bs_widths[w]);
			char base[16], slope[16];

			if (!r || !r->remote || !(kinds >> k & 1))
				continue;
			if (!head++)
				fprintf(out, "  another CTA's shared memory "
					"(paid by 32-byte sectors):\n  %-18s "
					"%7s %-7s %12s %20s %s\n", "kind",
					"width_B", "moves", "lat_base_cyc",
					"lat_slope_cyc/sector", "source");
			num(base, sizeof base, r->lat_base);
			num(slope, sizeof slope, r->lat_slope);
			fprintf(out, "  %-18s %7u %-7s %12s %20s %s\n",
				bs_kind_name(r->kind), r->width,
				bs_remote_name(r->remote), base, slope,
				r->source < p->nsources ? tag[r->source]
							: "?");
		}
}

/*
 * The wgmma rules (the 'gmma' lines), apart: no lane gives an address,
 * so no bank column applies.  Only when every kind is listed (--kind
 * names access kinds, and wgmma is none).
 */
static void print_gmma_rules(FILE *out, const bs_arch *p, uint32_t kinds,
			     char tag[][4 * sizeof p->source[0].tag + 1])
{
	uint32_t all = bs_kind_count() >= 32 ? UINT32_MAX
		       : (1u << bs_kind_count()) - 1;

	if (!p->ngmma || (kinds & all) != all)
		return;
	fprintf(out, "  wgmma operand reads (per warpgroup instruction: "
		"a_copies x ceil(A_B / wave_bytes) + b_copies x ceil(B_B / "
		"wave_bytes)):\n  %-13s %-3s %10s %8s %8s %-8s %s\n",
		"family", "src", "wave_bytes", "a_copies", "b_copies",
		"measured", "source");
	for (unsigned i = 0; i < p->ngmma && i < BS_MAX_GMMA_RULES; i++) {
		const bs_gmma_rule *g = &p->gmma[i];

		fprintf(out, "  %-13s %-3s %10u %8u %8u %-8s %s\n",
			bs_gmma_op_name(g->op), g->a_regs ? "rs" : "ss",
			g->wave_bytes, g->a_copies, g->b_copies,
			g->measured ? "yes" : "NO", g->source < p->nsources
			? tag[g->source] : "?");
	}
}

void archs_print(FILE *out, const bs_arch *p, uint32_t kinds)
{
	/* a file's own text, escaped: at most 4 bytes (\xHH) a byte */
	char desc[4 * sizeof p->description + 1];
	char tag[BS_MAX_SOURCES][4 * sizeof p->source[0].tag + 1];
	char text[4 * sizeof p->source[0].text + 1];

	bs_escape_text(desc, sizeof desc, p->description);
	fprintf(out, "%s%s: %s\n", p->name,
		p == bs_arch_default() ? " (default)" : "",
		p->description[0] ? desc : "(no description)");
	fprintf(out, "  compute capability: %s\n",
		p->compute_capability[0] ? p->compute_capability
					 : "none given");
	fprintf(out, "  banks %u x %u bytes\n", p->banks, p->bank_bytes);
	for (unsigned s = 0; s < p->nsources; s++) {
		bs_escape_text(tag[s], sizeof tag[s], p->source[s].tag);
		bs_escape_text(text, sizeof text, p->source[s].text);
		if (source_shown(p, s, kinds))
			fprintf(out, "  source %s: %s\n", tag[s], text);
	}
	fprintf(out, "  %-13s %7s %11s %12s %8s %9s %10s %5s %4s %5s %12s "
		"%14s %16s %11s %s\n", "kind", "width_B", "phase_lanes",
		"packed_lanes", "partners", "same_word", "slot_waves", "ideal",
		"loop", "copy", "lat_base_cyc", "lat_packed_cyc",
		"lat_slope_cyc/wf", "tp_B/clk/SM", "source");
	for (unsigned k = 0; k < bs_kind_count(); k++)
		for (int w = 0; w < BS_NWIDTHS; w++) {
			const bs_rule *r = bs_arch_rule(p, (bs_kind)k,
							   bs_widths[w]);
			char packed[8] = "never";
			char partners[BS_PARTNERS_TEXT_MAX] = "-";
			char base[16], pk[16], slope[16], tp[16];

			if (!r || !(kinds >> k & 1) || r->remote)
				continue;
			if (r->packed_lanes) {
				snprintf(packed, sizeof packed, "%u",
					 r->packed_lanes);
				bs_partners_text(r->pack_partners, partners);
			}
			num(base, sizeof base, r->lat_base);
			num(pk, sizeof pk, r->lat_packed);
			num(slope, sizeof slope, r->lat_slope);
			num(tp, sizeof tp, r->tp_bytes_per_clk);
			fprintf(out, "  %-13s %7u %11u %12s %8s %9s %10u %5s "
				"%4s %5s %12s %14s %16s %11s %s\n",
				bs_kind_name(r->kind), r->width,
				r->phase_lanes, packed, partners,
				bs_same_word_name(r->same_word),
				r->slot_waves ? r->slot_waves : 1,
				bs_ideal_name(r->ideal),
				r->loop ? bs_loop_name(r->loop) : "-",
				r->copy ? bs_copy_name(r->copy) : "-", base,
				pk, slope, tp,
				r->source < p->nsources ? tag[r->source]
							: "?");
		}
	print_remote_rules(out, p, kinds, tag);
	print_gmma_rules(out, p, kinds, tag);
	putc('\n', out);
}

static void print_kinds(void)
{
	int nw = 13;     /* the kind column: the longest name, at least 13 */

	for (unsigned k = 0; k < bs_kind_count(); k++)
		if ((int)strlen(bs_kind_name((bs_kind)k)) > nw)
			nw = (int)strlen(bs_kind_name((bs_kind)k));
	printf("%-*s %-18s %-10s %-10s %-7s %s\n", nw, "kind", "sass",
	       "widths", "addr_lanes", "returns", "ptx");
	for (unsigned k = 0; k < bs_kind_count(); k++) {
		const bs_kind_info *i = bs_kind_get((bs_kind)k);
		char w[24], lanes[16];
		size_t n = 0;

		for (int b = 0; b < BS_NWIDTHS; b++)
			if (i->widths >> b & 1)
				n += (size_t)snprintf(w + n, sizeof w - n,
						      "%s%u", n ? "," : "",
						      bs_widths[b]);
		snprintf(lanes, sizeof lanes, "0-%d",
			 31 - __builtin_clz(i->addr_lanes));
		printf("%-*s %-18s %-10s %-10s %-7s %s", nw, i->name, i->sass,
		       w, lanes, i->returns ? "value" : "-", i->ptx);
		if (i->alias)
			printf("  (also %s)", i->alias);
		if (i->remote)
			printf("  (distributed shared memory)");
		putchar('\n');
	}
}

int cmd_archs(int argc, char **argv)
{
	const char *format = NULL, *only = NULL;
	int kinds = 0, nfiles, rc, as_file;
	uint32_t want;
	char **files;
	const cli_option own[] = {
		{ "--format", &format, NULL }, { "--kinds", NULL, &kinds },
		{ "--kind", &only, NULL },
	};

	rc = cli_parse("archs", archs_usage, argc, argv, own,
		       sizeof own / sizeof *own, NULL, &files, &nfiles);
	if (rc) {
		free(files);
		return rc == CLI_HELP ? 0 : rc;
	}
	/* --format profile: the old name of --format arch */
	as_file = format && (!strcmp(format, "arch") ||
			     !strcmp(format, "profile"));
	if (format && strcmp(format, "text") && !as_file)
		rc = usage_error("option --format: '%s' is not text or arch",
				 format);
	else if (kinds && (nfiles || format || only))
		rc = usage_error("archs: --kinds takes no architecture, --kind "
				 "or --format");
	else if (only && as_file)
		rc = usage_error("archs: --format %s prints whole arch files: "
				 "no --kind", format);
	if (!rc)
		rc = kind_filter(only, &want);
	if (!rc && kinds)
		print_kinds();
	for (int i = 0; !rc && !kinds && i < (nfiles ? nfiles : 1 << 20);
	     i++) {
		const bs_arch *p;

		if (nfiles) {
			rc = arch_option(files[i], &p);
			if (rc)
				break;
		} else if (!(p = bs_archs()[i])) {
			break;
		}
		if (as_file) {
			if (i)
				putchar('\n');
			bs_arch_write(stdout, p);
		} else {
			archs_print(stdout, p, want);
		}
	}
	free(files);
	return rc;
}
