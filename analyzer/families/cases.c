/*
 * cases.c - what the families of the other kinds (ldsm, stsm, atoms,
 * cpasync) share: adding a point by kind name and byte addresses, a
 * seeded generator, the TMA swizzle, and the per-lane element cases of
 * the atomics and of cp.async.
 */
#include <stdio.h>
#include <string.h>

#include "families.h"

bs_kind family_kind(const char *name)
{
	bs_kind k;

	return bs_kind_find(name, &k) == 0 ? k : BS_KIND_NONE;
}

void family_add(bs_points *pl, const char *name, const char *kind,
		unsigned width, uint32_t active, const uint32_t addr[BS_LANES])
{
	bs_access a;

	memset(&a, 0, sizeof a);
	snprintf(a.name, sizeof a.name, "%s", name);
	a.width = width;
	a.kind = family_kind(kind);
	a.active = active;
	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = (active >> l & 1) ? addr[l] : 0;
	bs_points_add(pl, &a);
}

uint32_t family_rand(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (uint32_t)(*state >> 16);
}

uint32_t family_swizzle(uint32_t a, unsigned b)
{
	return a ^ (((a >> 7) & ((1u << b) - 1)) << 4);
}

/* The active lanes of the partial-warp cases. */
static const struct {
	const char *name;
	uint32_t lanes;
} partial[] = {
	{ "half_lo", 0x0000ffffu },  { "half_hi", 0xffff0000u },
	{ "even", 0x55555555u },     { "q0", 0x000000ffu },
	{ "lane0", 0x00000001u },    { "lanes0_16", 0x00010001u },
	{ "lanes0_8", 0x00000101u }, { "lanes0_1", 0x00000003u },
};

static void add_elems(bs_points *pl, const char *prefix, const char *kind,
		      unsigned width, const char *what, uint32_t active,
		      const uint32_t elem[BS_LANES])
{
	char name[BS_NAME_MAX];
	uint32_t addr[BS_LANES];

	snprintf(name, sizeof name, "%s_%s", prefix, what);
	for (unsigned l = 0; l < BS_LANES; l++)
		addr[l] = elem[l] * width;
	family_add(pl, name, kind, width, active, addr);
}

unsigned family_elements(bs_points *pl, const char *prefix, const char *kind,
			 unsigned width, uint64_t seed)
{
	const unsigned per_row = 128 / width;   /* elements in 128 bytes */
	const unsigned nel = 4096 / width;      /* elements in 4 KiB */
	char what[32];
	uint32_t e[BS_LANES];
	size_t n0 = pl->n;
	uint64_t st = seed;

	for (unsigned s = 0; s <= 33; s++) {
		for (unsigned l = 0; l < BS_LANES; l++)
			e[l] = l * s;
		snprintf(what, sizeof what, "s%u", s);
		add_elems(pl, prefix, kind, width, what, ~0u, e);
	}
	for (unsigned k = 2; k <= 16; k *= 2) {
		for (unsigned l = 0; l < BS_LANES; l++)
			e[l] = l / k;
		snprintf(what, sizeof what, "k%u_grouped", k);
		add_elems(pl, prefix, kind, width, what, ~0u, e);
		for (unsigned l = 0; l < BS_LANES; l++)
			e[l] = l % (32 / k);
		snprintf(what, sizeof what, "k%u_interleaved", k);
		add_elems(pl, prefix, kind, width, what, ~0u, e);
		for (unsigned l = 0; l < BS_LANES; l++)
			e[l] = l / k * per_row;
		snprintf(what, sizeof what, "k%u_samebank", k);
		add_elems(pl, prefix, kind, width, what, ~0u, e);
	}
	/* k lanes on each bank (bank group of width / 4 banks), each on a
	   word of its own: only where 32 / k groups exist */
	for (unsigned k = 2; k <= 32; k *= 2) {
		if (32 / k > per_row)
			continue;
		for (unsigned l = 0; l < BS_LANES; l++)
			e[l] = l / (32 / k) * per_row + l % (32 / k);
		snprintf(what, sizeof what, "kbank%u", k);
		add_elems(pl, prefix, kind, width, what, ~0u, e);
	}
	for (size_t p = 0; p < sizeof partial / sizeof *partial; p++)
		for (unsigned s = 0; s <= 1; s++) {
			for (unsigned l = 0; l < BS_LANES; l++)
				e[l] = l * (1 - s);
			snprintf(what, sizeof what, "%s_s%u", partial[p].name,
				 1 - s);
			add_elems(pl, prefix, kind, width, what,
				  partial[p].lanes, e);
		}
	for (size_t p = 0; p < 3; p += 2) {    /* half_lo, even: one bank */
		for (unsigned l = 0; l < BS_LANES; l++)
			e[l] = l * per_row;
		snprintf(what, sizeof what, "%s_s%u", partial[p].name,
			 per_row);
		add_elems(pl, prefix, kind, width, what, partial[p].lanes, e);
	}
	for (unsigned r = 0; r < 3; r++) {
		uint32_t m = family_rand(&st);

		m |= 1u << (family_rand(&st) % 32);   /* not empty */

		for (unsigned l = 0; l < BS_LANES; l++)
			e[l] = l;
		snprintf(what, sizeof what, "rndmask%u_s1", r);
		add_elems(pl, prefix, kind, width, what, m, e);
	}
	/* seeded random: distinct words (no two lanes on one), words from
	   64 (collisions), and from 4 */
	for (unsigned r = 0; r < 6; r++) {
		for (unsigned l = 0; l < BS_LANES; l++) {
			unsigned j;

			do {
				e[l] = family_rand(&st) % nel;
				for (j = 0; j < l && e[j] != e[l]; j++)
					;
			} while (j < l);
		}
		snprintf(what, sizeof what, "rnd_distinct%u", r);
		add_elems(pl, prefix, kind, width, what, ~0u, e);
	}
	for (unsigned r = 0; r < 6; r++) {
		for (unsigned l = 0; l < BS_LANES; l++)
			e[l] = family_rand(&st) % 64;
		snprintf(what, sizeof what, "rnd_any64_%u", r);
		add_elems(pl, prefix, kind, width, what, ~0u, e);
	}
	for (unsigned r = 0; r < 4; r++) {
		uint32_t few[4];

		for (unsigned i = 0; i < 4; i++)
			few[i] = family_rand(&st) % nel;
		for (unsigned l = 0; l < BS_LANES; l++)
			e[l] = few[family_rand(&st) % 4];
		snprintf(what, sizeof what, "rnd_few4_%u", r);
		add_elems(pl, prefix, kind, width, what, ~0u, e);
	}
	return (unsigned)(pl->n - n0);
}
