/*
 * bankscope.h - the bankscope library: what one warp's shared-memory
 * access costs, and why.
 *
 * The one header users include.  It gathers the library's wings, each a
 * header of its own, the model first:
 *
 *   bs_model.h      errors, access kinds, the access, architecture
 *                   architectures as rule tables, prediction
 *   bs_input.h      pattern files, index expressions, tiles and structs,
 *                   measured datasets, statistics
 *   bs_families.h   the probe suite's point lists, family by family
 *   bs_calibrate.h  an architecture derived from measured datasets
 *   bs_sass.h       per-instruction profiles of real programs
 *   bs_fix.h        the fix advisor
 */
#ifndef BANKSCOPE_H
#define BANKSCOPE_H

#include "model/bs_model.h"
#include "input/bs_input.h"
#include "families/bs_families.h"
#include "calibrate/bs_calibrate.h"
#include "sass/bs_sass.h"
#include "fix/bs_fix.h"

#endif
