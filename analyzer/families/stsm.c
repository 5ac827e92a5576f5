/*
 * stsm.c - probe-stsm: stmatrix (sm_90), every variant (x1, x2, x4, and
 * .t), on the points of probe-ldsm (ldsm.c says what each case is): lane
 * l's row address as there, each lane of the warp storing its fragment
 * registers.  734 points; names stsm_x<X>[t]_<case>.  On a GPU or a build
 * without stmatrix the runner keeps the points with a note saying why.
 */
#include "families.h"

void family_stsm(bs_points *pl)
{
	family_matrix(pl, "stsm");
}
