/*
 * bs_families.h - the probe suite's point lists: what each probe family
 * measures, one warp access a point.  Part of bankscope.h.
 *
 * A family is one small file in analyzer/families/ with one generator and
 * one row in the family table (analyzer/families/families.c): the probe
 * runner measures its points, `make probe-NAME` runs it, and `bankscope
 * calibrate` uses the points to say which family would settle a rule a
 * dataset leaves open.  Generators are deterministic: the same points,
 * the same names, on every run.
 */
#ifndef BS_FAMILIES_H
#define BS_FAMILIES_H

#include "../input/bs_input.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A growing list of points, each with the family that made it. */
typedef struct {
	bs_access *v;
	const char **family_of;  /* family of each point */
	size_t n, cap;
	const char *family;      /* set before each generator runs */
	int failed;              /* out of memory: later adds are dropped */
} bs_points;

/* Append one access; names longer than the limit are cut. */
void bs_points_add(bs_points *pl, const bs_access *a);
/* Lane l in active -> elem[l] * width; the others inactive. */
void bs_points_add_elems(bs_points *pl, const char *name, unsigned width,
			 bs_kind kind, uint32_t active,
			 const uint32_t elem[BS_LANES]);
/* Lane l -> l * stride elements, all lanes. */
void bs_points_add_stride(bs_points *pl, const char *name, unsigned width,
			  bs_kind kind, unsigned stride);
void bs_points_free(bs_points *pl);

/*
 * The cases of probe-wide, with what the report says of each: lane l in
 * `active` reads element `element` (as C), in `lanes` words.
 */
typedef struct {
	const char *name;        /* "pairs": rows u64_ld_pairs, v4_st_pairs */
	uint32_t active;
	const char *lanes, *element, *what;
} bs_wide_case;
extern const bs_wide_case bs_wide_cases[];   /* NULL-name terminated */

/* The element type names of each width in point names: u8 .. v4. */
extern const char *const bs_type_name[BS_NWIDTHS];

/*
 * The names of probe-stride's and probe-broadcast's points, which the
 * report reads the bank rules off (w: the width's index in bs_widths; op:
 * the kind, ld or st in the families).  Stride: <type>_<op>_s<stride>.
 * Broadcast, k distinct addresses: bc_<type>_<op>_k1, else
 * bc_<type>_<op>_k<k>_<interleaved|grouped>_<bank|spread>.
 */
void bs_stride_name(char name[BS_NAME_MAX], int w, bs_kind op,
		    unsigned stride);
void bs_broadcast_name(char name[BS_NAME_MAX], int w, bs_kind op, unsigned k,
		       int interleaved, int bank);

typedef struct {
	const char *name;        /* "stride": make probe-stride */
	void (*generate)(bs_points *pl);
	const char *description;
	/*
	 * The program that measures it: NULL for bankscope-probe (and its
	 * --probe all), else another ("bankscope-dsmem": cluster launches).
	 */
	const char *runner;
} bs_family;

/* The family table, NULL-name terminated. */
extern const bs_family bs_families[];
const bs_family *bs_family_find(const char *name);
/*
 * Every point of one family, or of all (name NULL); 0, or -1 when out of
 * memory.  The caller frees pl.
 */
int bs_family_points(const char *name, bs_points *pl);

#ifdef __cplusplus
}
#endif

#endif
