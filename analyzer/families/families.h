/*
 * families.h - the generators of the probe families, for the family
 * table in families.c (internal: the library's users see bs_families.h).
 */
#ifndef BS_FAMILIES_INTERNAL_H
#define BS_FAMILIES_INTERNAL_H

#include "bs_families.h"

void family_stride(bs_points *pl);
void family_broadcast(bs_points *pl);
void family_padding(bs_points *pl);
void family_wide(bs_points *pl);
void family_random(bs_points *pl);
void family_ldsm(bs_points *pl);
void family_stsm(bs_points *pl);
void family_atoms(bs_points *pl);
void family_cpasync(bs_points *pl);
void family_dsmem(bs_points *pl);

/* ldsm.c: the ldmatrix/stmatrix points, op "ldsm" or "stsm". */
void family_matrix(bs_points *pl, const char *op);

/* ---- cases.c: shared by the families of the other kinds ---------------- */

/* The kinds table's row of name; BS_KIND_NONE when it has none. */
bs_kind family_kind(const char *name);
/* A point of kind `kind` (by name) with lane byte addresses; the lanes
 * outside `active` get 0. */
void family_add(bs_points *pl, const char *name, const char *kind,
		unsigned width, uint32_t active, const uint32_t addr[BS_LANES]);
/* xorshift64 on *state: the families' seeded random numbers. */
uint32_t family_rand(uint64_t *state);
/* TMA SWIZZLE_(16 << b)B of a byte address: bits [4, 4+b) ^= [7, 7+b). */
uint32_t family_swizzle(uint32_t a, unsigned b);
/*
 * The per-lane element cases of the atomics and of cp.async, named
 * <prefix>_<case>: element strides 0..33; k lanes per address (grouped,
 * interleaved, the addresses in one bank) and per bank; partial warps;
 * seeded random (distinct words, words from 64, from 4).  Returns how
 * many points it added: 88 at 4 and 8 bytes, 87 at 16 (one
 * k lanes per bank case fewer: 8 bank groups).
 */
unsigned family_elements(bs_points *pl, const char *prefix, const char *kind,
			 unsigned width, uint64_t seed);

#endif
