/*
 * gmma.c - bankscope gmma: one wgmma instruction's shared-memory operand
 * reads (sm_90a HGMMA, IGMMA, QGMMA): its descriptors decoded, the bytes
 * it reads (exact, from the shape) and the wavefronts the architecture's
 * gmma rule makes of them, with what the descriptors give away (a swizzle
 * that is not the tensor map's, overlapping core matrices, a base offset
 * the model does not apply).  Also the descriptors of a SASS listing's
 * warpgroup MMAs where they are built from constants (--sass-file), and
 * a bankscope-gmma run against the model (--check).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char gmma_usage[] =
	"usage: bankscope gmma [--arch A] [--op F] --n N [--rs]\n"
	"                      [--major-a k|mn] [--major-b k|mn]\n"
	"                      [--desc-a HEX] [--desc-b HEX]\n"
	"                      [--tma-swizzle none|32B|64B|128B]\n"
	"                      [--format text|csv]\n"
	"       bankscope gmma [--arch A] --sass 'HGMMA.64x128x16.F32 ...'\n"
	"                      [--desc-a HEX] [--desc-b HEX] ...\n"
	"       bankscope gmma --desc HEX\n"
	"       bankscope gmma [--arch A] --sass-file LISTING\n"
	"       bankscope gmma [--arch A] --check GMMA.CSV\n"
	"\n"
	"One warpgroup MMA (wgmma.mma_async m64nNk, 32 bytes of K) on sm_90a:\n"
	"the bytes its operands read from shared memory (A 64 x 32 unless\n"
	"--rs, B N x 32), the wavefronts of the architecture's gmma rule (it\n"
	"says when the rule is not yet measured), and its descriptors\n"
	"decoded: start address, leading and stride byte offsets, base\n"
	"offset, layout (interleave, 128B, 64B, 32B swizzle).\n"
	"\n"
	"  --op F            hgmma (f16/bf16, the default), hgmma.tf32,\n"
	"                    igmma (s8), qgmma (fp8)\n"
	"  --n N             N, a multiple of 8 from 8 to 256\n"
	"  --rs              A from registers (only B is read from shared\n"
	"                    memory)\n"
	"  --major-a, --major-b k|mn  K-major (the default) or MN-major\n"
	"                    (transposed: f16 and bf16 only)\n"
	"  --desc-a, --desc-b HEX  the operands' 64-bit descriptors: where\n"
	"                    they read, and whether core matrices overlap\n"
	"  --tma-swizzle S   the swizzle of the tensor map that filled the\n"
	"                    tiles: a warning when a descriptor's layout\n"
	"                    differs (wgmma numbers 128B 1, 64B 2, 32B 3:\n"
	"                    the reverse of CUtensorMapSwizzle)\n"
	"  --sass TEXT       the shape, SS/RS and transposes of a SASS\n"
	"                    HGMMA/IGMMA/QGMMA instruction\n"
	"  --desc HEX        decode one descriptor, nothing else\n"
	"  --sass-file F     every warpgroup MMA of a cuobjdump -sass listing,\n"
	"                    with the descriptor words built from constants\n"
	"  --check CSV       compare a bankscope-gmma run (scripts/\n"
	"                    gmma-sweep.sh) with the model: bytes and\n"
	"                    wavefronts per instruction, systematic and\n"
	"                    held-out rows apart\n"
	"\n"
	"Exit status: 0 success, 1 --check found disagreements, 2 bad "
	"input.\n";

#define METRIC_WAVEFRONTS "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"
#define METRIC_BYTES "smsp__sass_data_bytes_mem_shared_op_gmma.sum"

/* ---- options ----------------------------------------------------------- */

static int parse_desc(const char *opt, const char *v, bs_gmma_desc *d)
{
	uint64_t raw;

	if (opt_u64(opt, v, UINT64_MAX, &raw) < 0)
		return EXIT_BADINPUT;
	bs_gmma_decode(raw, d);
	return 0;
}

static int parse_major(const char *opt, const char *v, int *mn)
{
	if (!strcmp(v, "k") || !strcmp(v, "K"))
		*mn = 0;
	else if (!strcmp(v, "mn") || !strcmp(v, "MN"))
		*mn = 1;
	else
		return usage_error("option %s: '%s' is not k or mn", opt, v);
	return 0;
}

/* --tma-swizzle: the layout type a descriptor of that swizzle has. */
static int parse_swizzle(const char *v, unsigned *layout, unsigned *bytes)
{
	static const struct {
		const char *name;
		unsigned bytes;
	} names[] = { { "none", 0 }, { "0", 0 }, { "32B", 32 }, { "32", 32 },
		      { "64B", 64 }, { "64", 64 }, { "128B", 128 },
		      { "128", 128 } };

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i].name, v)) {
			*bytes = names[i].bytes;
			*layout = (unsigned)bs_gmma_layout_of_swizzle(*bytes);
			return 0;
		}
	return usage_error("option --tma-swizzle: '%s' is not none, 32B, 64B "
			   "or 128B", v);
}

/* ---- printing ---------------------------------------------------------- */

static void print_desc(const char *what, const bs_gmma_desc *d)
{
	printf("%s 0x%016llx: start 0x%x, leading byte offset %u, stride "
	       "byte offset %u, base offset %u, layout %u (%s)\n", what,
	       (unsigned long long)d->raw, d->start, d->lbo, d->sbo,
	       d->base_offset, d->layout, bs_gmma_layout_name(d->layout));
}

/* The warnings a descriptor gives away; how many. */
static int desc_warnings(const char *op, const bs_gmma_desc *d,
			 unsigned overlap, int tma, unsigned tma_layout,
			 unsigned tma_bytes, FILE *out)
{
	static const unsigned cu_swizzle[4] = { 0, 3, 2, 1 };
	int n = 0;

	if (d->stray) {
		fprintf(out, "warning: %s sets bits outside every "
			"field (0x%016llx)\n", op,
			(unsigned long long)d->stray);
		n++;
	}
	if (d->base_offset) {
		fprintf(out, "warning: %s: base offset %u is not "
			"modeled: its addresses are placed as if the tile "
			"started on its swizzle's repeat\n", op,
			d->base_offset);
		n++;
	}
	if (overlap) {
		fprintf(out, "warning: %s: %u elements share an "
			"address with another (its offsets make core matrices "
			"overlap)\n", op, overlap);
		n++;
	}
	if (tma && d->layout != tma_layout) {
		char tname[24];

		snprintf(tname, sizeof tname, tma_bytes ? "SWIZZLE_%uB"
			 : "SWIZZLE_NONE", tma_bytes);
		fprintf(out, "warning: %s reads the tile as %s "
			"(layout type %u), but the tensor map filled it with "
			"%s (CUtensorMapSwizzle %u), which a descriptor names "
			"layout type %u: wgmma numbers 128B 1, 64B 2, 32B 3, "
			"the reverse of CUtensorMapSwizzle\n", op,
			bs_gmma_layout_name(d->layout), d->layout, tname,
			cu_swizzle[tma_layout], tma_layout);
		n++;
	}
	return n;
}

static const char *major(int mn)
{
	return mn ? "mn" : "k";
}

/* One instruction, text or csv. */
static int print_instr(const bs_arch *p, const bs_gmma_instr *g, int csv,
		       int tma, unsigned tma_layout, unsigned tma_bytes)
{
	const bs_gmma_rule *r = bs_arch_gmma_rule(p, g->op, g->a_regs);
	bs_gmma_summary s;
	bs_error err;

	if (bs_gmma_predict(p, g, &s, &err) < 0)
		return report_error(&err);
	if (csv) {
		printf("family,src,n,a_major,b_major,a_bytes,b_bytes,bytes,"
		       "wavefronts,ideal_wavefronts,rule_measured,desc_a,"
		       "desc_b,a_layout,b_layout\n");
		printf("%s,%s,%u,%s,%s,%u,%u,%u,%u,%u,%s,", bs_gmma_op_name(g->op),
		       g->a_regs ? "rs" : "ss", g->n, g->a_regs ? "reg"
		       : major(g->a_mn), major(g->b_mn), s.a_bytes, s.b_bytes,
		       s.bytes, s.wavefronts, s.ideal_wavefronts,
		       s.measured ? "yes" : "no");
		if (g->have_a)
			printf("0x%016llx", (unsigned long long)g->a.raw);
		putchar(',');
		if (g->have_b)
			printf("0x%016llx", (unsigned long long)g->b.raw);
		printf(",%s,%s\n", g->have_a ? bs_gmma_layout_name(g->a.layout)
		       : "", g->have_b ? bs_gmma_layout_name(g->b.layout) : "");
	} else {
		printf("%s %s m64n%uk%u: A %s, B %s-major\n",
		       bs_gmma_op_name(g->op), g->a_regs ? "rs" : "ss", g->n,
		       32 / bs_gmma_op_elem_bytes(g->op), g->a_regs
		       ? "from registers" : g->a_mn ? "MN-major" : "K-major",
		       g->b_mn ? "MN" : "K");
		if (g->have_a) {
			print_desc("  A descriptor", &g->a);
			printf("    reads [0x%x, 0x%x)\n", s.a_lo, s.a_hi);
		}
		if (g->have_b) {
			print_desc("  B descriptor", &g->b);
			printf("    reads [0x%x, 0x%x)\n", s.b_lo, s.b_hi);
		}
		printf("  shared-memory bytes: A %u + B %u = %u\n", s.a_bytes,
		       s.b_bytes, s.bytes);
		printf("  wavefronts: %u (ideal %u at 128 bytes each); rule "
		       "gmma %s %s wave_bytes=%u a_copies=%u b_copies=%u, "
		       "source %s%s\n", s.wavefronts, s.ideal_wavefronts,
		       bs_gmma_op_name(g->op), g->a_regs ? "rs" : "ss",
		       r->wave_bytes, r->a_copies, r->b_copies,
		       r->source < p->nsources ? p->source[r->source].tag : "?",
		       s.measured ? "" : ": NOT YET MEASURED");
	}
	if (g->have_a)
		desc_warnings("descriptor A", &g->a, s.a_overlap, tma, tma_layout,
			      tma_bytes, stdout);
	if (g->have_b)
		desc_warnings("descriptor B", &g->b, s.b_overlap, tma, tma_layout,
			      tma_bytes, stdout);
	return 0;
}

/* ---- --sass-file -------------------------------------------------------- */

/* The instruction of a cuobjdump line (the offset in a comment, then
 * "TEXT ;" and the encoding): TEXT cut in place, NULL for any other. */
static char *listing_instruction(char *l, unsigned long *pc)
{
	char *p = l + strspn(l, " \t"), *q, *end;

	if (strncmp(p, "/*", 2))
		return NULL;
	*pc = strtoul(p + 2, &q, 16);
	if (q == p + 2 || strncmp(q, "*/", 2))
		return NULL;
	p = q + 2;
	p += strspn(p, " \t");
	if (!(end = strchr(p, ';')))
		return NULL;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*end = '\0';
	return *p ? p : NULL;
}

static void trace_desc(const char *what, char **insn, size_t at,
		       unsigned ur)
{
	uint64_t raw;
	char why[320], safe[1300];
	unsigned known = bs_gmma_sass_desc((const char *const *)insn, at, ur,
					   &raw, why, sizeof why);
	bs_gmma_desc d;

	bs_gmma_decode(raw, &d);
	printf("    %s (UR%u, UR%u): ", what, ur, ur + 1);
	if (known & 2)
		printf("high word 0x%08x: stride byte offset %u, base offset "
		       "%u, layout %u (%s)", (unsigned)(raw >> 32), d.sbo,
		       d.base_offset, d.layout, bs_gmma_layout_name(d.layout));
	if ((known & 3) == 3)
		printf("; ");
	if (known & 1)
		printf("low word 0x%08x: start 0x%x, leading byte offset %u",
		       (unsigned)raw, d.start, d.lbo);
	if (known != 3) {
		bs_escape_text(safe, sizeof safe, why);
		printf("%s%s", known ? "; " : "", safe);
	}
	putchar('\n');
}

static int sass_file(const bs_arch *p, const char *path)
{
	FILE *f;
	const char *name;
	char *line = NULL, **insn = NULL, func[512] = "";
	size_t cap = 0, n = 0, icap = 0;
	int rc, count = 0;

	if ((rc = input_open(path, &f, &name)))
		return rc;
	for (;;) {
		ssize_t len = getline(&line, &cap, f);
		unsigned long pc;
		char *t, *fn;

		fn = NULL;
		if (len >= 0 && (fn = strstr(line, "Function : ")))
			fn += strlen("Function : ");
		else if (len >= 0 && !strncmp(line, "//---", 5) &&
			 (fn = strstr(line, " .text.")))
			fn += strlen(" .text.");
		if (len < 0 || fn) {
			/* a function ends: its warpgroup MMAs */
			for (size_t i = 0; i < n; i++) {
				bs_gmma_instr g;
				bs_gmma_summary s;
				bs_error err;
				unsigned ur;
				char safe[4 * 512 + 1];

				if (!bs_sass_gmma(insn[i] + 9, &g, &ur))
					continue;
				count++;
				bs_escape_text(safe, sizeof safe, func);
				printf("%s /*%.8s*/ ", safe, insn[i]);
				bs_escape_text(safe, sizeof safe, insn[i] + 9);
				printf("%s\n", safe);
				if (bs_gmma_predict(p, &g, &s, &err) == 0)
					printf("    %s %s n%u: %u bytes (A %u, B "
					       "%u), %u wavefronts%s\n",
					       bs_gmma_op_name(g.op),
					       g.a_regs ? "rs" : "ss", g.n,
					       s.bytes, s.a_bytes, s.b_bytes,
					       s.wavefronts, s.measured ? ""
					       : " (rule not yet measured)");
				{
					/* the texts before it, offsets cut */
					char **texts = malloc((i + 1) *
							      sizeof *texts);

					if (!texts)
						break;
					for (size_t k = 0; k <= i; k++)
						texts[k] = insn[k] + 9;
					/* B in UR+2, UR+3 in RS too */
					if (!g.a_regs)
						trace_desc("A", texts, i, ur);
					trace_desc("B", texts, i, ur + 2);
					free(texts);
				}
			}
			for (size_t i = 0; i < n; i++)
				free(insn[i]);
			n = 0;
			if (len < 0)
				break;
			snprintf(func, sizeof func, "%.*s",
				 (int)strcspn(fn, " \t\r\n"), fn);
			continue;
		}
		if (!(t = listing_instruction(line, &pc)))
			continue;
		if (n == icap) {
			size_t nc = icap ? 2 * icap : 256;
			char **q = realloc(insn, nc * sizeof *q);

			if (!q) {
				rc = usage_error("out of memory");
				break;
			}
			insn = q;
			icap = nc;
		}
		/* "%08lx " then the text: the offset for printing */
		if (!(insn[n] = malloc(strlen(t) + 10))) {
			rc = usage_error("out of memory");
			break;
		}
		snprintf(insn[n], strlen(t) + 10, "%08lx %s", pc & 0xffffffffUL,
			 t);
		n++;
	}
	for (size_t i = 0; i < n; i++)
		free(insn[i]);
	free(insn);
	free(line);
	input_close(f);
	if (!rc && !count)
		printf("%s: no warpgroup MMA (HGMMA, IGMMA, QGMMA)\n", name);
	return rc;
}

/* ---- --check ------------------------------------------------------------- */

#define MAX_FIELDS 128

/* s split at commas in place into at most MAX_FIELDS fields; how many. */
static int split(char *s, char **field)
{
	int n = 0;

	s[strcspn(s, "\r\n")] = '\0';
	for (;;) {
		char *c = strchr(s, ',');

		if (n == MAX_FIELDS)
			return n;
		field[n++] = s;
		if (!c)
			return n;
		*c = '\0';
		s = c + 1;
	}
}

static int column(char **head, int nh, const char *name)
{
	for (int i = 0; i < nh; i++)
		if (!strcmp(head[i], name))
			return i;
	return -1;
}

static int check_csv(const bs_arch *p, const char *path)
{
	static const char *const need[] = { "name", "family", "src", "n",
					    "a_major", "b_major", "holdout",
					    "check", METRIC_WAVEFRONTS,
					    METRIC_BYTES };
	enum { C_NAME, C_FAM, C_SRC, C_N, C_AM, C_BM, C_HOLD, C_CHECK, C_WF,
	       C_BY, NC };
	FILE *f;
	const char *name;
	char *line = NULL, *head[MAX_FIELDS], *fl[MAX_FIELDS], *hline = NULL;
	size_t cap = 0;
	long lineno = 0;
	int rc, nh = 0, col[NC], shown = 0;
	unsigned rows[2] = { 0 }, bytes_ok[2] = { 0 }, wf_ok[2] = { 0 };
	unsigned counted[2] = { 0 };

	if ((rc = input_open(path, &f, &name)))
		return rc;
	while (getline(&line, &cap, f) >= 0) {
		bs_gmma_instr g;
		bs_gmma_summary s;
		bs_error err;
		double wf, by;
		char *end;
		int nf, h;

		lineno++;
		if (line[0] == '#')
			continue;
		if (!hline) {
			if (!(hline = strdup(line))) {
				rc = usage_error("out of memory");
				break;
			}
			nh = split(hline, head);
			for (int c = 0; c < NC; c++)
				if ((col[c] = column(head, nh, need[c])) < 0) {
					bs_error_set(&err, name, lineno, 0,
						     "no column '%s': not a "
						     "bankscope-gmma CSV",
						     need[c]);
					rc = report_error(&err);
					break;
				}
			if (rc)
				break;
			continue;
		}
		nf = split(line, fl);
		if (nf != nh) {
			bs_error_set(&err, name, lineno, 0, "%d fields, the "
				     "header has %d", nf, nh);
			rc = report_error(&err);
			break;
		}
		memset(&g, 0, sizeof g);
		h = !strcmp(fl[col[C_HOLD]], "1");
		if (bs_gmma_op_find(fl[col[C_FAM]], &g.op) < 0) {
			bs_error_set(&err, name, lineno, 0, "family '%s' is not "
				     "hgmma, hgmma.tf32, igmma or qgmma",
				     fl[col[C_FAM]]);
			rc = report_error(&err);
			break;
		}
		g.n = (unsigned)strtoul(fl[col[C_N]], &end, 10);
		g.a_regs = !strcmp(fl[col[C_SRC]], "rs");
		g.a_mn = !strcmp(fl[col[C_AM]], "mn");
		g.b_mn = !strcmp(fl[col[C_BM]], "mn");
		if (*end) {
			bs_error_set(&err, name, lineno, 0, "n '%s' is not a "
				     "number", fl[col[C_N]]);
			rc = report_error(&err);
			break;
		}
		if (bs_gmma_predict(p, &g, &s, &err) < 0) {
			char text[sizeof err.text];

			snprintf(text, sizeof text, "%s", err.text);
			bs_error_set(&err, name, lineno, 0, "%s", text);
			rc = report_error(&err);
			break;
		}
		rows[h]++;
		if (strcmp(fl[col[C_CHECK]], "ok") || !*fl[col[C_WF]] ||
		    !*fl[col[C_BY]])
			continue;
		wf = strtod(fl[col[C_WF]], NULL);
		by = strtod(fl[col[C_BY]], NULL);
		counted[h]++;
		bytes_ok[h] += by == s.bytes;
		wf_ok[h] += wf == s.wavefronts;
		if ((by != s.bytes || wf != s.wavefronts) && shown < 20) {
			char safe[400];

			bs_escape_text(safe, sizeof safe, fl[col[C_NAME]]);
			printf("%s%s: bytes %g (model %u), wavefronts %g "
			       "(model %u)\n", safe, h ? " (held out)" : "",
			       by, s.bytes, wf, s.wavefronts);
			shown++;
		}
	}
	free(line);
	free(hline);
	input_close(f);
	if (rc)
		return rc;
	for (int h = 0; h < 2; h++)
		printf("%s: %u rows, %u checked ok with counters: bytes agree "
		       "%u, wavefronts agree %u\n", h ? "held out" : "systematic",
		       rows[h], counted[h], bytes_ok[h], wf_ok[h]);
	return bytes_ok[0] + bytes_ok[1] + wf_ok[0] + wf_ok[1] ==
	       2 * (counted[0] + counted[1]) ? 0 : EXIT_DISAGREE;
}

/* ---- the command ---------------------------------------------------------- */

int cmd_gmma(int argc, char **argv)
{
	const char *arch = NULL, *op = NULL, *n = NULL, *ma = NULL, *mb = NULL;
	const char *da = NULL, *db = NULL, *tma = NULL, *sass = NULL;
	const char *desc = NULL, *sfile = NULL, *check = NULL, *format = NULL;
	int rs = 0, nfiles, rc, csv = 0, modes;
	unsigned tma_layout = 0, tma_bytes = 0;
	const bs_arch *p = bs_arch_default();
	bs_gmma_instr g;
	char **files;
	const cli_option own[] = {
		{ "--arch", &arch, NULL }, { "--op", &op, NULL },
		{ "--n", &n, NULL }, { "--rs", NULL, &rs },
		{ "--major-a", &ma, NULL }, { "--major-b", &mb, NULL },
		{ "--desc-a", &da, NULL }, { "--desc-b", &db, NULL },
		{ "--tma-swizzle", &tma, NULL }, { "--sass", &sass, NULL },
		{ "--desc", &desc, NULL }, { "--sass-file", &sfile, NULL },
		{ "--check", &check, NULL }, { "--format", &format, NULL },
	};

	rc = cli_parse("gmma", gmma_usage, argc, argv, own,
		       sizeof own / sizeof *own, NULL, &files, &nfiles);
	free(files);
	if (rc)
		return rc == CLI_HELP ? 0 : rc;
	if (nfiles)
		return usage_error("gmma: no operands (the instruction is "
				   "given by options: try bankscope gmma "
				   "--help)");
	modes = !!desc + !!sfile + !!check;
	if (modes > 1 || (modes && (op || n || rs || ma || mb || da || db ||
				    tma || sass || format)))
		return usage_error("gmma: --desc, --sass-file and --check each "
				   "stand alone (with --arch)");
	if (arch && (rc = arch_option(arch, &p)))
		return rc;
	if (desc) {
		bs_gmma_desc d;

		if ((rc = parse_desc("--desc", desc, &d)))
			return rc;
		print_desc("descriptor", &d);
		desc_warnings("the descriptor", &d, 0, 0, 0, 0, stdout);
		return 0;
	}
	if (sfile)
		return sass_file(p, sfile);
	if (check)
		return check_csv(p, check);
	if (format && !strcmp(format, "csv"))
		csv = 1;
	else if (format && strcmp(format, "text"))
		return usage_error("option --format: '%s' is not text or csv",
				   format);
	memset(&g, 0, sizeof g);
	if (sass) {
		if (op || n || rs || ma || mb)
			return usage_error("gmma: --sass gives the family, N, "
					   "SS/RS and the majors: no --op, --n, "
					   "--rs or --major-*");
		if (!bs_sass_gmma(sass, &g, NULL))
			return usage_error("option --sass: '%s' is no dense m64 "
					   "HGMMA, IGMMA or QGMMA instruction",
					   sass);
	} else {
		uint64_t v;

		if (op && bs_gmma_op_find(op, &g.op) < 0)
			return usage_error("option --op: '%s' is not hgmma, "
					   "hgmma.tf32, igmma or qgmma", op);
		if (!n)
			return usage_error("gmma: --n N is needed (or --sass, "
					   "--desc, --sass-file, --check)");
		if (opt_u64("--n", n, 256, &v) < 0)
			return EXIT_BADINPUT;
		g.n = (unsigned)v;
		g.a_regs = rs;
		if ((ma && (rc = parse_major("--major-a", ma, &g.a_mn))) ||
		    (mb && (rc = parse_major("--major-b", mb, &g.b_mn))))
			return rc;
	}
	if (da && (rc = parse_desc("--desc-a", da, &g.a)))
		return rc;
	if (db && (rc = parse_desc("--desc-b", db, &g.b)))
		return rc;
	g.have_a = !!da;
	g.have_b = !!db;
	if (tma && (rc = parse_swizzle(tma, &tma_layout, &tma_bytes)))
		return rc;
	return print_instr(p, &g, csv, !!tma, tma_layout, tma_bytes);
}
