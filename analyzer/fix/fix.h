/*
 * fix.h - what the files of the fix advisor share (internal: the
 * library's users see bs_fix.h).
 *
 *   fix.c         bs_fix_search: the cost rule, pricing and ranking
 *   candidates.c  the changes tried, by where the access comes from
 *   describe.c    the texts of the best change and the alternative
 */
#ifndef BS_FIX_INTERNAL_H
#define BS_FIX_INTERNAL_H

#include "bs_fix.h"

#define NKINDS 4

/* One search: its input, and the best changes found so far. */
typedef struct {
	const bs_arch *p;
	const bs_fix_input *in;
	bs_fix *out;
	unsigned row;            /* FROM_ACCESS: the row length used */
	int have[NKINDS];
	bs_fix_change ideal[NKINDS];  /* cheapest ideal change of each kind */
	int have_low;
	bs_fix_change low;       /* fewest wavefronts among the others */
	int bytes;               /* the byte-layout search (bs_fix.h) */
	unsigned elem;           /* FROM_TILE: element bytes */
	/*
	 * A remote kind (another CTA's shared memory): changes are priced by
	 * the sectors they move, ideal when no more than min_sectors.
	 */
	int remote;
	unsigned min_sectors;
} search;

/* fix.c: what a change costs: its wavefronts, or a remote kind's
 * sectors. */
unsigned fix_cost(const search *s, const bs_summary *sum);

/* fix.c: price one change and keep it when it is the best of its class. */
void fix_consider(search *s, bs_fix_change *c);

/* candidates.c: the changes of each source, each handed to fix_consider. */
void fix_tile_changes(search *s);
void fix_tile_byte_changes(search *s);
void fix_struct_changes(search *s);
void fix_access_changes(search *s);

/* describe.c: the CUDA vector type of w bytes that holds w/width
 * elements; the texts of change c. */
const char *fix_vector_name(unsigned width, unsigned w);
void fix_describe(const search *s, bs_fix_change *c);

#endif
