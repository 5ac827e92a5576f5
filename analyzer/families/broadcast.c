/*
 * broadcast.c - probe-broadcast: k distinct addresses among the 32 lanes.
 *
 * Axes: k = 1, 2, 4, 8, 16, 32 distinct addresses; grouped (lanes
 * l*k/32 share, contiguous groups) or interleaved (lane l takes address
 * l % k); the k addresses in different banks (element stride 1) or all in
 * one bank (stride 128 bytes); width 1..16 bytes; load and store.  k = 1
 * is the all-lanes-one-address case.  Multicast says: lanes sharing a word
 * cost nothing, so different banks give the width's ideal and one bank
 * gives k wavefronts (per phase).  Names: bc_<type>_<op>_k<k>_<layout>_
 * <spread|bank>.
 */
#include <stdio.h>

#include "families.h"

static const unsigned ks[] = { 1, 2, 4, 8, 16, 32 };

void bs_broadcast_name(char name[BS_NAME_MAX], int w, bs_kind op, unsigned k,
		       int interleaved, int bank)
{
	if (k == 1)
		snprintf(name, BS_NAME_MAX, "bc_%s_%s_k1", bs_type_name[w],
			 bs_kind_name(op));
	else
		snprintf(name, BS_NAME_MAX, "bc_%s_%s_k%u_%s_%s",
			 bs_type_name[w], bs_kind_name(op), k,
			 interleaved ? "interleaved" : "grouped",
			 bank ? "bank" : "spread");
}

/* k addresses, interleaved or grouped, spread over banks or in one bank. */
static void add_case(bs_points *pl, int w, int op, unsigned k, int inter,
		     int bank)
{
	char name[BS_NAME_MAX];
	uint32_t elem[BS_LANES];
	unsigned gap = bank ? 128 / bs_widths[w] : 1;   /* element spacing */

	for (unsigned l = 0; l < BS_LANES; l++)
		elem[l] = (inter ? l % k : l * k / 32) * gap;
	bs_broadcast_name(name, w, (bs_kind)op, k, inter, bank);
	bs_points_add_elems(pl, name, bs_widths[w], (bs_kind)op, 0xffffffffu, elem);
}

void family_broadcast(bs_points *pl)
{
	for (int w = 0; w < BS_NWIDTHS; w++)
		for (int op = 0; op < 2; op++) {
			add_case(pl, w, op, 1, 0, 0);
			for (size_t i = 1; i < sizeof ks / sizeof *ks; i++)
				for (int inter = 0; inter < 2; inter++)
					for (int bank = 0; bank < 2; bank++)
						add_case(pl, w, op, ks[i],
							 inter, bank);
		}
}
