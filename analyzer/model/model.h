/*
 * model.h - what the model wing's files share among themselves
 * (internal: users see bs_model.h).
 */
#ifndef BS_MODEL_INTERNAL_H
#define BS_MODEL_INTERNAL_H

#include "bs_model.h"

/* A rule's latency line at this many wavefronts (0 cycles for none;
 * NaN when the rule has no line), lat_packed when packed. */
double model_latency(const bs_rule *r, int packed, unsigned wavefronts);
/* A copy=lines rule's prediction (copy.c); d may be NULL. */
int model_predict_copy(const bs_arch *p, const bs_access *a,
		       const bs_rule *r, bs_summary *s, bs_detail *d,
		       bs_error *err);

#endif
