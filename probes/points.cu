/*
 * points.cu - the point list the families fill.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

const char *const probe_type_name[BS_NWIDTHS] = { "u8", "u16", "f32", "u64",
						  "v4" };
const unsigned probe_widths[BS_NWIDTHS] = { 1, 2, 4, 8, 16 };

void points_add(point_list *pl, const bs_access *a)
{
	if (pl->failed)
		return;
	if (pl->n == pl->cap) {
		size_t cap = pl->cap ? pl->cap * 2 : 256;
		bs_access *v = (bs_access *)realloc(pl->v, cap * sizeof *v);
		char **f = (char **)realloc(pl->family_of, cap * sizeof *f);

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
	pl->family_of[pl->n] = (char *)pl->family;
	pl->n++;
}

void points_add_elems(point_list *pl, const char *name, unsigned width,
		      bs_op op, uint32_t active, const uint32_t elem[32])
{
	bs_access a;

	memset(&a, 0, sizeof a);
	snprintf(a.name, sizeof a.name, "%s", name);
	a.width = width;
	a.op = op;
	a.active = active;
	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = (a.active >> l & 1) ? elem[l] * width : 0;
	points_add(pl, &a);
}

void points_add_stride(point_list *pl, const char *name, unsigned width,
		       bs_op op, unsigned stride)
{
	uint32_t elem[BS_LANES];

	for (unsigned l = 0; l < BS_LANES; l++)
		elem[l] = l * stride;
	points_add_elems(pl, name, width, op, 0xffffffffu, elem);
}
