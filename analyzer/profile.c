/*
 * profile.c - the architecture profiles, as data.
 *
 * sm_90 is Hopper as measured on an H100 80GB HBM3 (see
 * data/h100-sxm/ and docs/model.md): 32 banks of 4 bytes; 1-, 2- and
 * 4-byte accesses in one phase of 32 lanes, 8-byte in two phases of 16,
 * 16-byte in four phases of 8; loads whose request is pairwise uniform
 * (lane l and lane l^1, or l and l^2, want the same address) pack into
 * phases twice as wide; stores never pack.  Latency: a dependent chain of
 * loads (v = ld(a); a += v & zero) costs base + 2 cycles per wavefront,
 * with base by width and packing, measured by probes/kernels.cu as the
 * difference of a 96- and a 32-access chain (the chain's own LOP3 and
 * IADD are included).  Store timing is not modeled.
 *
 * textbook is the picture most tutorials draw: 32 banks of 4 bytes and
 * one phase of 32 lanes for every width, no packing, no timing model.
 */
#include <string.h>

#include "bankscope.h"

static const bs_profile sm_90 = {
	.name = "sm_90",
	.description = "Hopper (H100), measured: 32 banks x 4 B, "
		       "8-byte accesses in 2 phases, 16-byte in 4, "
		       "pairwise-uniform loads pack",
	.banks = 32,
	.bank_bytes = 4,
	.phase_lanes = { 32, 32, 32, 16, 8 },
	.packed_phase_lanes = { 0, 0, 0, 32, 16 },
	.pack_xor = { 1, 2 },
	.load_base = { 31.0, 31.0, 31.0, 32.0, 34.0 },
	.load_base_packed = { 0, 0, 0, 31.0, 32.0 },
	.load_slope = 2.0,
	.store_base = { 0, 0, 0, 0, 0 },
	.store_slope = 0.0,
};

static const bs_profile textbook = {
	.name = "textbook",
	.description = "the tutorial model: 32 banks x 4 B, one phase of "
		       "32 lanes for every width, no packing, no timing",
	.banks = 32,
	.bank_bytes = 4,
	.phase_lanes = { 32, 32, 32, 32, 32 },
	.packed_phase_lanes = { 0, 0, 0, 0, 0 },
	.pack_xor = { 0, 0 },
	.load_base = { 0, 0, 0, 0, 0 },
	.load_base_packed = { 0, 0, 0, 0, 0 },
	.load_slope = 0.0,
	.store_base = { 0, 0, 0, 0, 0 },
	.store_slope = 0.0,
};

static const bs_profile *const all_profiles[] = { &sm_90, &textbook, NULL };

const bs_profile *const *bs_profiles(void)
{
	return all_profiles;
}

const bs_profile *bs_profile_default(void)
{
	return &sm_90;
}

const bs_profile *bs_profile_find(const char *name)
{
	for (const bs_profile *const *p = all_profiles; *p; p++)
		if (strcmp((*p)->name, name) == 0)
			return *p;
	return NULL;
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
