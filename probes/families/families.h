/*
 * families.h - the generators of the probe families, for the family
 * table in families.c (internal: the library's users see bs_families.h).
 */
#ifndef BS_FAMILIES_INTERNAL_H
#define BS_FAMILIES_INTERNAL_H

#include "bankscope.h"

void family_stride(bs_points *pl);
void family_broadcast(bs_points *pl);
void family_padding(bs_points *pl);
void family_wide(bs_points *pl);
void family_random(bs_points *pl);

#endif
