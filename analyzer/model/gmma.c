/*
 * gmma.c - the wgmma matrix descriptor (sm_90a), the operand addresses it
 * places, what one warpgroup MMA reads from shared memory and the
 * wavefronts an architecture's 'gmma' rule makes of it (bs_model.h,
 * "wgmma").
 *
 * The descriptor's fields are the PTX ISA's "Matrix Descriptor Format"
 * of wgmma as CUTLASS's cute::GmmaDescriptor spells them (include/cute/
 * arch/mma_sm90_desc.hpp): start address bits [0,14), leading byte
 * offset [16,30), stride byte offset [32,46), each a byte count >> 4;
 * base offset [49,52); layout type [62,64), INTERLEAVE 0, B128 1, B64 2,
 * B32 3.  The canonical layouts (bs_gmma_canonical, bs_gmma_addr) are
 * CUTLASS's make_gmma_desc's (include/cute/atom/mma_traits_sm90_gmma.hpp),
 * in units of 16 bytes ("uint128_t"), T elements to 16 bytes:
 *
 *   K-major   INTERLEAVE ((8,m),(T,2)):((1T,SBO),(1,LBO))
 *             B32/B64/B128 ((8,m),(T,2)):((wT,SBO),(1,T)), w = 2, 4, 8
 *   MN-major  INTERLEAVE ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
 *             B32/B64/B128 ((T,w,m),(8,k)):((1,T,LBO),(wT,SBO))
 *
 * under Swizzle<b,4,3> of the byte address (b = 1, 2, 3: bits [4,4+b)
 * XOR bits [7,7+b)).  bankscope-gmma checks every row's product on the
 * GPU against these addresses (probes/gmma/), so a misreading shows up as
 * a failed check there, not as a silent misprediction here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define FIELD14 0x3fffull

void bs_gmma_decode(uint64_t raw, bs_gmma_desc *out)
{
	const uint64_t fields = FIELD14 | FIELD14 << 16 | FIELD14 << 32 |
				7ull << 49 | 3ull << 62;

	out->raw = raw;
	out->start = (uint32_t)(raw & FIELD14) << 4;
	out->lbo = (uint32_t)(raw >> 16 & FIELD14) << 4;
	out->sbo = (uint32_t)(raw >> 32 & FIELD14) << 4;
	out->base_offset = (unsigned)(raw >> 49 & 7);
	out->layout = (unsigned)(raw >> 62);
	out->stray = raw & ~fields;
}

static int check_field(uint32_t v, const char *what, const char *source,
		       bs_error *err)
{
	if (v % 16)
		return bs_error_set(err, source, 0, 0, "%s %u is not a "
				    "multiple of 16 bytes", what, v);
	if (v >> 4 > FIELD14)
		return bs_error_set(err, source, 0, 0, "%s %u does not fit "
				    "the descriptor's 14 bits (at most %u "
				    "bytes)", what, v,
				    (unsigned)(FIELD14 << 4));
	return 0;
}

int bs_gmma_encode(uint32_t start, uint32_t lbo, uint32_t sbo,
		   unsigned base_offset, unsigned layout, uint64_t *raw,
		   const char *source, bs_error *err)
{
	if (check_field(start, "start address", source, err) < 0 ||
	    check_field(lbo, "leading byte offset", source, err) < 0 ||
	    check_field(sbo, "stride byte offset", source, err) < 0)
		return -1;
	if (base_offset > 7)
		return bs_error_set(err, source, 0, 0, "base offset %u is "
				    "not 0 to 7", base_offset);
	if (layout > 3)
		return bs_error_set(err, source, 0, 0, "layout type %u is "
				    "not 0 to 3", layout);
	*raw = (uint64_t)(start >> 4) | (uint64_t)(lbo >> 4) << 16 |
	       (uint64_t)(sbo >> 4) << 32 | (uint64_t)base_offset << 49 |
	       (uint64_t)layout << 62;
	return 0;
}

const char *bs_gmma_layout_name(unsigned layout)
{
	static const char *const names[4] = { "interleave", "128B", "64B",
					      "32B" };

	return layout < 4 ? names[layout] : "?";
}

unsigned bs_gmma_swizzle_bytes(unsigned layout)
{
	static const unsigned span[4] = { 0, 128, 64, 32 };

	return layout < 4 ? span[layout] : 0;
}

int bs_gmma_layout_of_swizzle(unsigned bytes)
{
	switch (bytes) {
	case 0: return (int)BS_GMMA_INTERLEAVE;
	case 32: return (int)BS_GMMA_B32;
	case 64: return (int)BS_GMMA_B64;
	case 128: return (int)BS_GMMA_B128;
	}
	return -1;
}

/* ---- the families ---------------------------------------------------- */

static const struct {
	const char *name, *sass;
	unsigned elem_bytes;
} ops[BS_GMMA_NOPS] = {
	[BS_GMMA_OP_H16] = { "hgmma", "HGMMA", 2 },
	[BS_GMMA_OP_TF32] = { "hgmma.tf32", "HGMMA", 4 },
	[BS_GMMA_OP_I8] = { "igmma", "IGMMA", 1 },
	[BS_GMMA_OP_F8] = { "qgmma", "QGMMA", 1 },
};

const char *bs_gmma_op_name(unsigned op)
{
	return op < BS_GMMA_NOPS ? ops[op].name : NULL;
}

int bs_gmma_op_find(const char *name, unsigned *op)
{
	for (unsigned i = 0; i < BS_GMMA_NOPS; i++)
		if (!strcmp(ops[i].name, name)) {
			*op = i;
			return 0;
		}
	return -1;
}

unsigned bs_gmma_op_elem_bytes(unsigned op)
{
	return op < BS_GMMA_NOPS ? ops[op].elem_bytes : 0;
}

/* ---- canonical tiles and addresses ------------------------------------- */

/* 16-byte units of one swizzle row: 1 (interleave), 2, 4, 8. */
static unsigned units(unsigned layout)
{
	unsigned s = bs_gmma_swizzle_bytes(layout);

	return s ? s / 16 : 1;
}

static int check_tile(unsigned layout, int mn_major, unsigned rows,
		      unsigned elem_bytes, bs_error *err)
{
	if (layout > 3)
		return bs_error_set(err, "gmma", 0, 0, "layout type %u is not "
				    "0 to 3", layout);
	if (rows < 8 || rows > 256 || rows % 8)
		return bs_error_set(err, "gmma", 0, 0, "%u rows: a wgmma "
				    "operand has a multiple of 8 from 8 to "
				    "256", rows);
	if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4)
		return bs_error_set(err, "gmma", 0, 0, "%u-byte elements: "
				    "wgmma takes 1, 2 or 4", elem_bytes);
	if (mn_major && elem_bytes != 2)
		return bs_error_set(err, "gmma", 0, 0, "an MN-major "
				    "(transposed) operand has 16-bit "
				    "elements, not %u-byte ones", elem_bytes);
	return 0;
}

/* Atoms of a swizzled MN-major tile across its rows (at least one). */
static unsigned mn_atoms(unsigned layout, unsigned rows)
{
	unsigned row_bytes = rows * 2, atom_row = units(layout) * 16;

	return (row_bytes + atom_row - 1) / atom_row;
}

uint32_t bs_gmma_canonical_span(unsigned layout, int mn_major,
				unsigned rows)
{
	unsigned w = units(layout);

	if (layout == BS_GMMA_INTERLEAVE)
		return rows * 32;
	if (!mn_major)
		return rows * w * 16;
	return 2 * mn_atoms(layout, rows) * w * 128;
}

int bs_gmma_canonical(unsigned layout, int mn_major, unsigned rows,
		      unsigned elem_bytes, uint32_t start, bs_gmma_desc *out,
		      bs_error *err)
{
	unsigned w = units(layout);
	uint32_t lbo, sbo;
	uint64_t raw;

	if (check_tile(layout, mn_major, rows, elem_bytes, err) < 0)
		return -1;
	if (layout == BS_GMMA_INTERLEAVE) {
		sbo = 128;
		lbo = rows * 16;
	} else if (!mn_major) {
		sbo = 8 * w * 16;
		lbo = 16;
	} else {
		lbo = w * 128;
		sbo = mn_atoms(layout, rows) * w * 128;
	}
	if (bs_gmma_encode(start, lbo, sbo, 0, layout, &raw, "gmma", err) < 0)
		return -1;
	bs_gmma_decode(raw, out);
	return 0;
}

uint32_t bs_gmma_addr(const bs_gmma_desc *d, int mn_major,
		      unsigned elem_bytes, unsigned row, unsigned k)
{
	unsigned w = units(d->layout);
	uint32_t off, a;

	if (!mn_major) {
		unsigned kb = k * elem_bytes, c = kb / 16, e = kb % 16;

		if (d->layout == BS_GMMA_INTERLEAVE)
			off = (row % 8) * 16 + (row / 8) * d->sbo +
			      c * d->lbo + e;
		else
			off = (row % 8) * w * 16 + (row / 8) * d->sbo +
			      c * 16 + e;
	} else {
		unsigned rb = row * elem_bytes, e = rb % 16, u = rb / 16;
		unsigned k0 = k % 8, k1 = k / 8;

		if (d->layout == BS_GMMA_INTERLEAVE)
			off = u * d->sbo + k0 * 16 + k1 * d->lbo + e;
		else
			off = (u % w) * 16 + (u / w) * d->lbo +
			      k0 * w * 16 + k1 * d->sbo + e;
	}
	a = d->start + off;
	if (w > 1)
		a ^= (a >> 7 & (w - 1)) << 4;
	return a;
}

/* ---- prediction ------------------------------------------------------ */

const bs_gmma_rule *bs_arch_gmma_rule(const bs_arch *p, unsigned op,
				      int a_regs)
{
	for (unsigned i = 0; i < p->ngmma && i < BS_MAX_GMMA_RULES; i++)
		if (p->gmma[i].op == op && p->gmma[i].a_regs == !!a_regs)
			return &p->gmma[i];
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * One operand's address check: rows x (32 bytes of K); the elements on an
 * address another has, and [lo, hi).
 */
static void check_operand(const bs_gmma_desc *d, int mn_major,
			  unsigned elem_bytes, unsigned rows,
			  unsigned *overlap, uint32_t *lo, uint32_t *hi)
{
	uint32_t addr[256 * 32];
	unsigned kel = 32 / elem_bytes, n = 0, dup = 0;

	for (unsigned r = 0; r < rows; r++)
		for (unsigned k = 0; k < kel; k++)
			addr[n++] = bs_gmma_addr(d, mn_major, elem_bytes, r, k);
	qsort(addr, n, sizeof *addr, cmp_u32);
	for (unsigned i = 0; i < n; i++)
		if ((i && addr[i] == addr[i - 1]) ||
		    (i + 1 < n && addr[i] == addr[i + 1]))
			dup++;
	*overlap = dup;
	*lo = addr[0];
	*hi = addr[n - 1] + elem_bytes;
}

int bs_gmma_predict(const bs_arch *p, const bs_gmma_instr *g,
		    bs_gmma_summary *out, bs_error *err)
{
	const bs_gmma_rule *r;
	unsigned eb;

	memset(out, 0, sizeof *out);
	if (g->op >= BS_GMMA_NOPS)
		return bs_error_set(err, "gmma", 0, 0, "unknown wgmma family "
				    "%u", g->op);
	eb = ops[g->op].elem_bytes;
	if (g->n < 8 || g->n > 256 || g->n % 8)
		return bs_error_set(err, "--n", 0, 0, "N %u: wgmma's N is a "
				    "multiple of 8 from 8 to 256", g->n);
	if ((g->a_mn || g->b_mn) && g->op != BS_GMMA_OP_H16)
		return bs_error_set(err, "--major", 0, 0, "%s cannot "
				    "transpose: only 16-bit operands (f16, "
				    "bf16) may be MN-major", ops[g->op].name);
	if (g->a_regs && (g->a_mn || g->have_a))
		return bs_error_set(err, "--rs", 0, 0, "A in registers (RS) "
				    "has no descriptor and no major order");
	if (!(r = bs_arch_gmma_rule(p, g->op, g->a_regs)))
		return bs_error_set(err, "gmma", 0, 0, "architecture %s has "
				    "no gmma rule for %s %s", p->name,
				    ops[g->op].name, g->a_regs ? "rs" : "ss");
	out->a_bytes = g->a_regs ? 0 : 64 * 32;
	out->b_bytes = g->n * 32;
	out->bytes = out->a_bytes + out->b_bytes;
	out->wavefronts =
		r->a_copies * ((out->a_bytes + r->wave_bytes - 1) /
			       r->wave_bytes) +
		r->b_copies * ((out->b_bytes + r->wave_bytes - 1) /
			       r->wave_bytes);
	out->ideal_wavefronts = (out->bytes + 127) / 128;
	out->measured = r->measured;
	if (g->have_a && !g->a_regs)
		check_operand(&g->a, g->a_mn, eb, 64, &out->a_overlap,
			      &out->a_lo, &out->a_hi);
	if (g->have_b)
		check_operand(&g->b, g->b_mn, eb, g->n, &out->b_overlap,
			      &out->b_lo, &out->b_hi);
	return 0;
}

/* ---- SASS ------------------------------------------------------------- */

/* s past an "@P0 " / "@!UP1 " predicate and blanks. */
static const char *skip_predicate(const char *s)
{
	s += strspn(s, " \t");
	if (*s == '@') {
		s += strcspn(s, " \t");
		s += strspn(s, " \t");
	}
	return s;
}

/* "URn" (n decimal) at s, n blanks then ',' ']' or the end after: 1. */
static int uniform_reg(const char *s, size_t len, unsigned *n)
{
	unsigned v = 0;
	size_t i = 2;

	if (len < 3 || strncmp(s, "UR", 2))
		return 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (unsigned)(s[i] - '0');
	if (i != len || i == 2 || v > 255)
		return 0;
	*n = v;
	return 1;
}

/* The next operand of a SASS operand list: [*s, *s+len), *s moved. */
static size_t next_operand(const char **s)
{
	const char *p = *s + strspn(*s, " \t,");
	size_t n = strcspn(p, ",;");

	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	*s = p;
	return n;
}

/* "gdesc[URn]" with optional ".tnspA" / ".tnspB" after it: 1, n and the
 * transposes (bit 0 A, bit 1 B). */
static int gdesc(const char *s, size_t len, unsigned *ur, unsigned *tnsp)
{
	const char *close = memchr(s, ']', len), *m;

	*tnsp = 0;
	if (len < 9 || strncmp(s, "gdesc[", 6) || !close ||
	    !uniform_reg(s + 6, (size_t)(close - s - 6), ur))
		return 0;
	for (m = close + 1; m < s + len;) {
		if (s + len - m >= 6 && !strncmp(m, ".tnspA", 6))
			*tnsp |= 1;
		else if (s + len - m >= 6 && !strncmp(m, ".tnspB", 6))
			*tnsp |= 2;
		else
			return 0;
		m += 6;
	}
	return 1;
}

int bs_sass_gmma(const char *sass, bs_gmma_instr *out, unsigned *ur)
{
	const char *s = skip_predicate(sass), *mods, *o;
	size_t olen = strcspn(s, ". \t;");
	unsigned m = 0, n = 0, k = 0, op, r = 0;
	bs_gmma_instr g;

	if (olen != 5 || (strncmp(s, "HGMMA", 5) && strncmp(s, "IGMMA", 5) &&
			  strncmp(s, "QGMMA", 5)) || s[5] != '.')
		return 0;
	mods = s + 5;
	if (sscanf(mods, ".%ux%ux%u", &m, &n, &k) != 3 || m != 64)
		return 0;
	/* modifiers: .SP is sparse, not modeled */
	for (o = mods + 1; *o && *o != ' ' && *o != '\t'; o++)
		if (o[0] == '.' && !strncmp(o, ".SP", 3) &&
		    (o[3] == '.' || o[3] == ' ' || o[3] == '\t' || !o[3]))
			return 0;
	if (*s == 'H')
		op = k == 16 ? BS_GMMA_OP_H16 : k == 8 ? BS_GMMA_OP_TF32 : 99;
	else if (*s == 'I')
		op = k == 32 ? BS_GMMA_OP_I8 : 99;
	else
		op = k == 32 ? BS_GMMA_OP_F8 : 99;
	if (op == 99 || n < 8 || n > 256 || n % 8)
		return 0;
	memset(&g, 0, sizeof g);
	g.op = op;
	g.n = n;
	o = s + strcspn(s, " \t");
	next_operand(&o);               /* the destination */
	o += strcspn(o, ",");
	{
		size_t len = next_operand(&o);
		unsigned tn;

		if (gdesc(o, len, &r, &tn)) {
			g.a_regs = 0;
		} else if (len && o[0] == 'R') {
			g.a_regs = 1;
			o += strcspn(o, ",");
			len = next_operand(&o);
			if (!gdesc(o, len, &r, &tn) || tn & 1)
				return 0;
		} else {
			return 0;
		}
		g.a_mn = tn & 1;
		g.b_mn = tn >> 1 & 1;
	}
	if (out)
		*out = g;
	if (ur)
		*ur = r;
	return 1;
}

/* Instructions that end the straight line a constant is traced along. */
static int control_flow(const char *op, size_t n)
{
	static const char *const names[] = { "BRA", "BRX", "JMP", "JMX",
					     "CALL", "RET", "EXIT", "BSSY",
					     "BSYNC", "BREAK", "KILL" };

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strlen(names[i]) == n && !strncmp(op, names[i], n))
			return 1;
	return 0;
}

/*
 * The last write of URu before insn[at]: 1 and *v when a UMOV of an
 * immediate or URZ (or of another uniform register that is one, up to
 * depth copies); 0 with why.
 */
static int trace_ur(const char *const *insn, size_t at, unsigned u,
		    int depth, uint32_t *v, char *why, size_t whylen)
{
	for (size_t i = at; i-- > 0;) {
		const char *text = insn[i], *s = skip_predicate(text), *o;
		size_t oplen = strcspn(s, ". \t;"), len;
		unsigned d, width;

		if (control_flow(s, oplen)) {
			snprintf(why, whylen, "UR%u is not set on the straight "
				 "line before it: '%s' comes between", u, text);
			return 0;
		}
		o = s + strcspn(s, " \t");
		len = next_operand(&o);
		if (!uniform_reg(o, len, &d))
			continue;
		width = strstr(s, ".64 ") && strstr(s, ".64 ") < o ? 2 : 1;
		if (u < d || u >= d + width)
			continue;
		if (text[strspn(text, " \t")] == '@') {
			snprintf(why, whylen, "UR%u is written under a "
				 "predicate by '%s'", u, text);
			return 0;
		}
		if (oplen == 4 && !strncmp(s, "UMOV", 4) && width == 1) {
			const char *src = o + len;
			size_t sl;
			uint64_t x;
			unsigned from;
			char tok[24];

			src += strcspn(src, ",");
			sl = next_operand(&src);
			if (sl == 3 && !strncmp(src, "URZ", 3)) {
				*v = 0;
				return 1;
			}
			if (uniform_reg(src, sl, &from) && depth > 0)
				return trace_ur(insn, i, from, depth - 1, v,
						why, whylen);
			if (sl && sl < sizeof tok) {
				memcpy(tok, src, sl);
				tok[sl] = '\0';
				if (bs_parse_u64(tok, UINT32_MAX, &x) == 0) {
					*v = (uint32_t)x;
					return 1;
				}
			}
		}
		snprintf(why, whylen, "UR%u is not built from constants: "
			 "'%s' writes it", u, text);
		return 0;
	}
	snprintf(why, whylen, "UR%u is not written before it in this "
		 "function", u);
	return 0;
}

unsigned bs_gmma_sass_desc(const char *const *insn, size_t at, unsigned ur,
			   uint64_t *raw, char *why, size_t whylen)
{
	uint32_t lo = 0, hi = 0;
	unsigned known = 0;
	char wlo[320], whi[320];

	if (trace_ur(insn, at, ur, 8, &lo, wlo, sizeof wlo))
		known |= 1;
	if (trace_ur(insn, at, ur + 1, 8, &hi, whi, sizeof whi))
		known |= 2;
	*raw = (uint64_t)hi << 32 | lo;
	if (why && whylen)
		snprintf(why, whylen, "%s", !(known & 1) ? wlo
			 : !(known & 2) ? whi : "");
	return known;
}
