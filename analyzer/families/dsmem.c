/*
 * dsmem.c - probe-dsmem: one warp's accesses to another CTA's shared
 * memory (distributed shared memory), measured by bankscope-dsmem
 * (probes/dsmem/dsmem.cu) against the same access to the warp's own.
 *
 * Per (op, width) - dsmem.ld and dsmem.st at 1, 2, 4, 8 and 16 bytes, then
 * dsmem.red.add.u32 and dsmem.atom.add.u32 - the systematic points:
 * element strides 1, 2, 3, 4, 8, 16, 32 and 33; a broadcast; 2, 4 and 8
 * lanes per element; a half warp; one lane; the odd lanes; eight lanes on
 * eight 128-byte lines; the whole warp in one 32-byte sector; at 16 bytes
 * an 8-row pattern (lane l: row l/4, chunk (l%4) ^ row).  Then 16 seeded
 * random points, named *_rnd*, which research/dsmem/analyze.py holds out:
 * four each in a 128-byte, 256-byte, 1 KiB span and the whole 48 KiB
 * window, lanes inactive with probability 1/8.  Names: <op><width>_<case>,
 * op ld, st, red or atom.  The generator and its seed are the first run's
 * (data/h200/dsmem-20261127, which named red and atom rows by the whole
 * kind), so the held-out points are the same.
 */
#include <stdio.h>

#include "families.h"

#define WINDOW (48 * 1024)

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng >> 33) % n;
}

static void add(bs_points *pl, const char *kind, const char *op, unsigned w,
		const char *what, const int off[BS_LANES])
{
	uint32_t active = 0, addr[BS_LANES] = { 0 };
	char name[BS_NAME_MAX];

	for (unsigned l = 0; l < BS_LANES; l++)
		if (off[l] >= 0) {
			active |= 1u << l;
			addr[l] = (uint32_t)off[l];
		}
	snprintf(name, sizeof name, "%s%u_%s", op, w, what);
	family_add(pl, name, kind, w, active, addr);
}

static void points(bs_points *pl, const char *kind, const char *op,
		   unsigned w)
{
	static const int strides[] = { 1, 2, 3, 4, 8, 16, 32, 33 };
	int off[BS_LANES];
	char what[32];

	for (unsigned s = 0; s < sizeof strides / sizeof *strides; s++) {
		for (int l = 0; l < BS_LANES; l++)
			off[l] = l * strides[s] * (int)w;
		snprintf(what, sizeof what, "s%d", strides[s]);
		add(pl, kind, op, w, what, off);
	}
	for (int l = 0; l < BS_LANES; l++)
		off[l] = 5 * (int)w;
	add(pl, kind, op, w, "bcast", off);
	for (int d = 2; d <= 8; d *= 2) {
		for (int l = 0; l < BS_LANES; l++)
			off[l] = l / d * (int)w;
		snprintf(what, sizeof what, "div%d", d);
		add(pl, kind, op, w, what, off);
	}
	for (int l = 0; l < BS_LANES; l++)
		off[l] = l < 16 ? l * (int)w : -1;
	add(pl, kind, op, w, "half", off);
	for (int l = 0; l < BS_LANES; l++)
		off[l] = l == 0 ? 0 : -1;
	add(pl, kind, op, w, "one", off);
	for (int l = 0; l < BS_LANES; l++)
		off[l] = l % 2 ? l * (int)w : -1;
	add(pl, kind, op, w, "odd", off);
	for (int l = 0; l < BS_LANES; l++)
		off[l] = l < 8 ? l * 128 : -1;
	add(pl, kind, op, w, "lines8", off);
	for (int l = 0; l < BS_LANES; l++)
		off[l] = l * (int)w % 32;
	add(pl, kind, op, w, "sector", off);
	if (w == 16) {
		for (int l = 0; l < BS_LANES; l++)
			off[l] = l / 4 * 128 + ((l % 4) ^ (l / 4)) % 8 * 16;
		add(pl, kind, op, w, "swz128_col", off);
	}
	for (int i = 0; i < 16; i++) {
		static const int spans[] = { WINDOW, 1024, 256, 128 };
		int span = spans[i % 4] / (int)w;

		for (int l = 0; l < BS_LANES; l++)
			off[l] = rnd(8) == 0 ? -1 : (int)rnd((uint32_t)span) *
							 (int)w;
		snprintf(what, sizeof what, "rnd%d_%d", spans[i % 4], i / 4);
		add(pl, kind, op, w, what, off);
	}
}

void family_dsmem(bs_points *pl)
{
	rng = 20261127;
	for (unsigned w = 1; w <= 16; w *= 2) {
		points(pl, "dsmem.ld", "ld", w);
		points(pl, "dsmem.st", "st", w);
	}
	points(pl, "dsmem.red.add.u32", "red", 4);
	points(pl, "dsmem.atom.add.u32", "atom", 4);
}
