/*
 * kinds.c - the table of access kinds, and SASS opcodes to kinds.
 *
 * One row per kind of shared-memory warp instruction.  The predictor, the
 * pattern and dataset readers, the probes, the profile join and the SASS
 * parser all read this table; a new kind is a new row here, rules for it
 * in the architectures that model it, and a device accessor in the probes.
 * Rows never move: a kind's id is its row, stored in accesses, and ld and
 * st stay rows 0 and 1.
 *
 * The SASS column names the opcode and the modifiers that select the
 * kind.  An instruction belongs to the row of its opcode whose modifiers
 * it carries, the most specific one when several do ("LDSM.16.M88.4"
 * carries those of ldsm.x1 and of ldsm.x4: it is ldsm.x4), the first in
 * table order on a tie (ATOMS.ADD is atom.add.u32 rather than
 * red.add.u32: the two compile to the same opcode).  Its width comes from
 * its modifiers (U8 S8: 1, U16 S16: 2, 64: 8, 128: 16, else 4), except for
 * kinds that allow one width only (LDSM and STSM move 16-byte rows).
 */
#include <string.h>

#include "bs_model.h"

#define W1 0x01u
#define W2 0x02u
#define W4 0x04u
#define W8 0x08u
#define W16 0x10u
#define WALL 0x1fu

#define ALL_LANES 0xffffffffu

const unsigned bs_widths[BS_NWIDTHS] = { 1, 2, 4, 8, 16 };

static const bs_kind_info kinds[] = {
	{ "ld", "load", "LDS", "ld.shared", WALL, ALL_LANES, BS_READS, 1, 1, 0,
	  "load, 1 to 16 bytes a lane", 0 },
	{ "st", "store", "STS", "st.shared", WALL, ALL_LANES, BS_WRITES, 0, 1,
	  0, "store, 1 to 16 bytes a lane", 0 },
	{ "ldsm.x1", NULL, "LDSM.16.M88",
	  "ldmatrix.sync.aligned.m8n8.x1.shared.b16", W16, 0x000000ffu,
	  BS_READS, 1, 1, 75,
	  "ldmatrix, one 8x8 matrix: lanes 0-7 give its 16-byte rows", 0 },
	{ "ldsm.x2", NULL, "LDSM.16.M88.2",
	  "ldmatrix.sync.aligned.m8n8.x2.shared.b16", W16, 0x0000ffffu,
	  BS_READS, 1, 1, 75, "ldmatrix, two matrices: lanes 0-15", 0 },
	{ "ldsm.x4", NULL, "LDSM.16.M88.4",
	  "ldmatrix.sync.aligned.m8n8.x4.shared.b16", W16, ALL_LANES,
	  BS_READS, 1, 1, 75, "ldmatrix, four matrices: lanes 0-31", 0 },
	{ "ldsm.x1.t", NULL, "LDSM.16.MT88",
	  "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16", W16, 0x000000ffu,
	  BS_READS, 1, 1, 75, "ldmatrix .trans, one matrix", 0 },
	{ "ldsm.x2.t", NULL, "LDSM.16.MT88.2",
	  "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16", W16, 0x0000ffffu,
	  BS_READS, 1, 1, 75, "ldmatrix .trans, two matrices", 0 },
	{ "ldsm.x4.t", NULL, "LDSM.16.MT88.4",
	  "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", W16, ALL_LANES,
	  BS_READS, 1, 1, 75, "ldmatrix .trans, four matrices", 0 },
	{ "stsm.x1", NULL, "STSM.16.M88",
	  "stmatrix.sync.aligned.m8n8.x1.shared.b16", W16, 0x000000ffu,
	  BS_WRITES, 0, 1, 90, "stmatrix, one matrix: lanes 0-7", 0 },
	{ "stsm.x2", NULL, "STSM.16.M88.2",
	  "stmatrix.sync.aligned.m8n8.x2.shared.b16", W16, 0x0000ffffu,
	  BS_WRITES, 0, 1, 90, "stmatrix, two matrices: lanes 0-15", 0 },
	{ "stsm.x4", NULL, "STSM.16.M88.4",
	  "stmatrix.sync.aligned.m8n8.x4.shared.b16", W16, ALL_LANES,
	  BS_WRITES, 0, 1, 90, "stmatrix, four matrices: lanes 0-31", 0 },
	{ "stsm.x1.t", NULL, "STSM.16.MT88",
	  "stmatrix.sync.aligned.m8n8.x1.trans.shared.b16", W16, 0x000000ffu,
	  BS_WRITES, 0, 1, 90, "stmatrix .trans, one matrix", 0 },
	{ "stsm.x2.t", NULL, "STSM.16.MT88.2",
	  "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16", W16, 0x0000ffffu,
	  BS_WRITES, 0, 1, 90, "stmatrix .trans, two matrices", 0 },
	{ "stsm.x4.t", NULL, "STSM.16.MT88.4",
	  "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16", W16, ALL_LANES,
	  BS_WRITES, 0, 1, 90, "stmatrix .trans, four matrices", 0 },
	{ "atom.add.u32", NULL, "ATOMS.ADD", "atom.shared.add.u32", W4,
	  ALL_LANES, BS_UPDATES, 1, 0, 0, "atomicAdd on an unsigned int", 0 },
	{ "red.add.u32", NULL, "ATOMS.ADD", "red.shared.add.u32", W4,
	  ALL_LANES, BS_UPDATES, 0, 0, 0,
	  "atomicAdd whose result is unused", 0 },
	{ "atom.cas.b32", NULL, "ATOMS.CAS", "atom.shared.cas.b32", W4,
	  ALL_LANES, BS_UPDATES, 1, 0, 0, "atomicCAS on 32 bits", 0 },
	{ "atom.exch.b32", NULL, "ATOMS.EXCH", "atom.shared.exch.b32", W4,
	  ALL_LANES, BS_UPDATES, 1, 0, 0, "atomicExch on 32 bits", 0 },
	{ "atom.min.s32", NULL, "ATOMS.MIN.S32", "atom.shared.min.s32", W4,
	  ALL_LANES, BS_UPDATES, 1, 0, 0, "atomicMin on an int", 0 },
	{ "red.add1.u32", NULL, "ATOMS.POPC.INC.32", "red.shared.add.u32 (of 1)",
	  W4, ALL_LANES, BS_UPDATES, 0, 1, 0,
	  "atomicAdd(p, 1) whose result is unused: the compiler's "
	  "ATOMS.POPC.INC, which serves the lanes of one word together", 0 },
	{ "atom.add.f32", NULL, "ATOMS.CAST.SPIN", "atom.shared.add.f32", W4,
	  ALL_LANES, BS_UPDATES, 1, 0, 0,
	  "atomicAdd on a float (a compare-and-swap loop on sm_90)", 0 },
	{ "atom.add.u64", NULL, "ATOMS.CAST.SPIN.64", "atom.shared.add.u64",
	  W8, ALL_LANES, BS_UPDATES, 1, 0, 0,
	  "atomicAdd on 64 bits (a compare-and-swap loop on sm_90)", 0 },
	{ "cp.async.ca", NULL, "LDGSTS.E", "cp.async.ca.shared.global",
	  W4 | W8 | W16, ALL_LANES, BS_WRITES, 0, 1, 80,
	  "cp.async through L1; the address is the shared destination", 0 },
	{ "cp.async.cg", NULL, "LDGSTS.E.BYPASS", "cp.async.cg.shared.global",
	  W16, ALL_LANES, BS_WRITES, 0, 1, 80,
	  "cp.async bypassing L1, 16 bytes; the shared destination", 0 },
	{ "dsmem.ld", NULL, "LD.E", "ld.shared::cluster", WALL, ALL_LANES,
	  BS_READS, 1, 1, 90,
	  "load from another CTA's shared memory (a cluster address from "
	  "mapa), 1 to 16 bytes a lane", 1 },
	{ "dsmem.st", NULL, "ST.E", "st.shared::cluster", WALL, ALL_LANES,
	  BS_WRITES, 0, 1, 90,
	  "store to another CTA's shared memory, 1 to 16 bytes a lane", 1 },
	{ "dsmem.red.add.u32", NULL, "ATOM.E.ADD",
	  "red.shared::cluster.add.u32", W4, ALL_LANES, BS_UPDATES, 0, 0, 90,
	  "atomicAdd on another CTA's unsigned int, result unused", 1 },
	{ "dsmem.atom.add.u32", NULL, "ATOM.E.ADD",
	  "atom.shared::cluster.add.u32", W4, ALL_LANES, BS_UPDATES, 1, 0, 90,
	  "atomicAdd on another CTA's unsigned int", 1 },
};
#define NKINDS (sizeof kinds / sizeof *kinds)

_Static_assert(NKINDS <= BS_MAX_KINDS, "raise BS_MAX_KINDS");

unsigned bs_kind_count(void)
{
	return NKINDS;
}

const bs_kind_info *bs_kind_get(bs_kind k)
{
	return k < NKINDS ? &kinds[k] : NULL;
}

const char *bs_kind_name(bs_kind k)
{
	return k < NKINDS ? kinds[k].name : "?";
}

int bs_kind_find(const char *name, bs_kind *out)
{
	for (unsigned k = 0; k < NKINDS; k++)
		if (!strcmp(name, kinds[k].name) ||
		    (kinds[k].alias && !strcmp(name, kinds[k].alias))) {
			*out = (bs_kind)k;
			return 0;
		}
	return -1;
}

int bs_kind_allows_width(bs_kind k, unsigned width)
{
	int wi = bs_width_index(width);

	return k < NKINDS && wi >= 0 && (kinds[k].widths >> wi & 1);
}

void bs_kind_widths_text(bs_kind k, char *buf, size_t size)
{
	unsigned n = 0, total = 0;
	size_t len = 0;

	buf[0] = '\0';
	if (k >= NKINDS)
		return;
	for (int w = 0; w < BS_NWIDTHS; w++)
		total += kinds[k].widths >> w & 1;
	for (int w = 0; w < BS_NWIDTHS && len < size; w++) {
		if (!(kinds[k].widths >> w & 1))
			continue;
		n++;
		len += (size_t)snprintf(buf + len, size - len, "%s%u",
					n == 1 ? "" : n == total ? " or " : ", ",
					bs_widths[w]);
	}
}

int bs_kind_check_width(bs_kind k, unsigned width, const char *source,
			bs_error *err)
{
	char allowed[32];

	if (k >= NKINDS)
		return bs_error_set(err, source, 0, 0, "unknown kind %u",
				    (unsigned)k);
	if (bs_width_index(width) < 0)
		return bs_error_set(err, source, 0, 0, "width %u is not 1, 2, "
				    "4, 8 or 16 bytes", width);
	if (bs_kind_allows_width(k, width))
		return 0;
	bs_kind_widths_text(k, allowed, sizeof allowed);
	return bs_error_set(err, source, 0, 0, "%s takes a width of %s "
			    "bytes, not %u", kinds[k].name, allowed, width);
}

int bs_width_index(unsigned width)
{
	switch (width) {
	case 1: return 0;
	case 2: return 1;
	case 4: return 2;
	case 8: return 3;
	case 16: return 4;
	default: return -1;
	}
}

/* ---- SASS opcodes ------------------------------------------------------ */

#define MAX_MODS 8
#define MOD_BYTES 16

typedef struct {
	char base[MOD_BYTES];
	char mod[MAX_MODS][MOD_BYTES];
	unsigned nmods;
} opcode;

/*
 * Split "OPC.M1.M2" (from the start of s, up to a blank or ';') into the
 * opcode and its modifiers.  Longer pieces are cut, which at worst makes
 * an opcode match nothing.
 */
static void split_opcode(const char *s, opcode *op)
{
	unsigned part = 0;
	size_t n = 0;

	memset(op, 0, sizeof *op);
	for (; *s && *s != ' ' && *s != '\t' && *s != ';'; s++) {
		char *dst = part ? op->mod[part - 1] : op->base;

		if (*s == '.') {
			if (part == MAX_MODS)
				break;
			part++;
			op->nmods = part;
			n = 0;
			continue;
		}
		if (n + 1 < MOD_BYTES)
			dst[n++] = *s;
	}
}

static int has_mod(const opcode *op, const char *mod)
{
	for (unsigned i = 0; i < op->nmods; i++)
		if (!strcmp(op->mod[i], mod))
			return 1;
	return 0;
}

/* The width its modifiers give, 0 when they give none. */
static unsigned width_of(const opcode *op)
{
	if (has_mod(op, "U8") || has_mod(op, "S8"))
		return 1;
	if (has_mod(op, "U16") || has_mod(op, "S16"))
		return 2;
	if (has_mod(op, "64"))
		return 8;
	if (has_mod(op, "128"))
		return 16;
	return 0;
}

/* The instruction after blanks and a predicate (@P0, @!PT). */
static const char *after_predicate(const char *sass)
{
	while (*sass == ' ' || *sass == '\t')
		sass++;
	if (*sass == '@') {
		while (*sass && *sass != ' ' && *sass != '\t')
			sass++;
		while (*sass == ' ' || *sass == '\t')
			sass++;
	}
	return sass;
}

int bs_sass_kind(const char *sass, bs_kind *kind, unsigned *width)
{
	opcode op, row;
	int family = 0, best = -1;
	unsigned best_mods = 0, w;

	split_opcode(after_predicate(sass), &op);
	for (unsigned k = 0; k < NKINDS; k++) {
		unsigned i;

		if (kinds[k].remote)
			continue;
		split_opcode(kinds[k].sass, &row);
		if (strcmp(row.base, op.base))
			continue;
		family = 1;
		for (i = 0; i < row.nmods && has_mod(&op, row.mod[i]); i++)
			;
		if (i == row.nmods && (best < 0 || row.nmods > best_mods)) {
			best = (int)k;
			best_mods = row.nmods;
		}
	}
	if (!family)
		return 0;
	/*
	 * No width modifier: the kind's only width, else 4 bytes.  A width
	 * the kind does not allow (ATOMS.ADD.64 is not atom.add.u32) leaves
	 * the instruction without a kind.
	 */
	w = width_of(&op);
	if (!w)
		w = best >= 0 && __builtin_popcount(kinds[best].widths) == 1
			    ? bs_widths[__builtin_ctz(kinds[best].widths)]
			    : 4;
	if (best >= 0 && !bs_kind_allows_width((bs_kind)best, w))
		best = -1;
	if (kind)
		*kind = best < 0 ? BS_KIND_NONE : (bs_kind)best;
	if (width)
		*width = w;
	return 1;
}

/*
 * The generic opcodes of the remote rows.  The kinds table's sass column
 * names the opcode the probes' kernels compiled to; a profiled program
 * shows the generic instruction itself, so the map from an opcode and
 * its operation modifier is spelled out here: RED.E.ADD (a result
 * unused) is the red row, ATOM.E.ADD the atom row.
 */
static const struct {
	const char *base, *op, *kind;
} generic[] = {
	{ "LD", NULL, "dsmem.ld" },
	{ "ST", NULL, "dsmem.st" },
	{ "ATOM", "ADD", "dsmem.atom.add.u32" },
	{ "RED", "ADD", "dsmem.red.add.u32" },
};

/* A modifier that makes an atomic's operand something other than a
 * 32-bit integer: F32, F64, F16x2, BF16x2 (and the sizes width_of
 * reads: 64, U8, ...). */
static int type_mod(const char *mod)
{
	return (mod[0] == 'F' && mod[1] >= '0' && mod[1] <= '9') ||
	       !strncmp(mod, "BF", 2) || !strcmp(mod, "U64") ||
	       !strcmp(mod, "S64");
}

int bs_sass_remote_kind(const char *sass, bs_kind *kind, unsigned *width)
{
	opcode op;
	unsigned w;

	split_opcode(after_predicate(sass), &op);
	if (!has_mod(&op, "E"))
		return 0;
	for (size_t i = 0; i < sizeof generic / sizeof *generic; i++) {
		bs_kind k;

		if (strcmp(op.base, generic[i].base) ||
		    (generic[i].op && !has_mod(&op, generic[i].op)))
			continue;
		w = width_of(&op);
		if (generic[i].op) {       /* a 32-bit integer add only */
			for (unsigned m = 0; m < op.nmods; m++)
				if (type_mod(op.mod[m]))
					return 0;
			if (w)
				return 0;
		}
		if (bs_kind_find(generic[i].kind, &k) < 0)
			return 0;
		if (!w)
			w = 4;
		if (!bs_kind_allows_width(k, w))
			return 0;
		if (kind)
			*kind = k;
		if (width)
			*width = w;
		return 1;
	}
	return 0;
}
