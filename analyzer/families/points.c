/*
 * points.c - the point list the families fill.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bs_families.h"

const char *const bs_type_name[BS_NWIDTHS] = { "u8", "u16", "f32", "u64",
					       "v4" };

void bs_points_add(bs_points *pl, const bs_access *a)
{
	if (pl->failed)
		return;
	if (pl->n == pl->cap) {
		size_t cap = pl->cap ? pl->cap * 2 : 256;
		bs_access *v = realloc(pl->v, cap * sizeof *v);
		const char **f = realloc(pl->family_of, cap * sizeof *f);

		if (v)
			pl->v = v;
		if (f)
			pl->family_of = f;
		if (!v || !f) {
			pl->failed = 1;
			return;
		}
		pl->cap = cap;
	}
	pl->v[pl->n] = *a;
	pl->family_of[pl->n] = pl->family;
	pl->n++;
}

void bs_points_add_elems(bs_points *pl, const char *name, unsigned width,
			 bs_kind kind, uint32_t active,
			 const uint32_t elem[BS_LANES])
{
	bs_access a;

	memset(&a, 0, sizeof a);
	snprintf(a.name, sizeof a.name, "%s", name);
	a.width = width;
	a.kind = kind;
	a.active = active;
	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = (a.active >> l & 1) ? elem[l] * width : 0;
	bs_points_add(pl, &a);
}

void bs_points_add_stride(bs_points *pl, const char *name, unsigned width,
			  bs_kind kind, unsigned stride)
{
	uint32_t elem[BS_LANES];

	for (unsigned l = 0; l < BS_LANES; l++)
		elem[l] = l * stride;
	bs_points_add_elems(pl, name, width, kind, 0xffffffffu, elem);
}

void bs_points_free(bs_points *pl)
{
	free(pl->v);
	free(pl->family_of);
	memset(pl, 0, sizeof *pl);
}
