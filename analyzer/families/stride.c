/*
 * stride.c - probe-stride: lane l accesses element l*s.
 *
 * Axes: element stride s = 0..64, width 1, 2, 4, 8, 16 bytes, load and
 * store, all 32 lanes: 650 points.  The textbook result, 1-, 2- and 4-byte
 * loads: gcd(s*width/4, 32)-way conflicts once s*width >= 4, s = 0 a
 * broadcast; 8- and 16-byte accesses add their phases (2 and 4 wavefronts
 * at best) and the packing of stride 0.  Names: <type>_<op>_s<stride>
 * with type u8, u16, f32, u64, v4 for 1..16 bytes.
 */
#include <stdio.h>

#include "families.h"

void bs_stride_name(char name[BS_NAME_MAX], int w, bs_kind op,
		    unsigned stride)
{
	snprintf(name, BS_NAME_MAX, "%s_%s_s%u", bs_type_name[w],
		 bs_kind_name(op), stride);
}

void family_stride(bs_points *pl)
{
	char name[BS_NAME_MAX];

	for (int w = 0; w < BS_NWIDTHS; w++)
		for (int op = 0; op < 2; op++)
			for (unsigned s = 0; s <= 64; s++) {
				bs_stride_name(name, w, (bs_kind)op, s);
				bs_points_add_stride(pl, name, bs_widths[w],
						  (bs_kind)op, s);
			}
}
