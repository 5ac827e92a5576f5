/*
 * probe.h - what the probe runner, the kernels and the families share.
 *
 * A probe family is one file (stride.cu, broadcast.cu, ...) with one
 * function that appends its points, each a warp access in the analyzer's
 * bs_access form, to a point list; it is registered by one row in the
 * family table of runner.cu.  The runner measures every point the same
 * way (kernels.cu): latency (one warp, a chain of CHAIN accesses between
 * two clock reads), throughput (one 1024-thread block per SM, independent
 * accesses) and counters (CUPTI, one range per point).
 */
#ifndef BANKSCOPE_PROBE_H
#define BANKSCOPE_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "bankscope.h"

/* Accesses between the two clock reads of one latency repetition. */
#define PROBE_CHAIN 64
/* Independent accesses per thread per throughput iteration (unrolled; 8
 * keeps 16-byte loads within the 64 registers a 1024-thread block allows). */
#define PROBE_TP_UNROLL 8
#define PROBE_TP_THREADS 1024

typedef struct {
	bs_access *v;
	size_t n, cap;
	const char *family;   /* set by the runner before each family runs */
	char **family_of;     /* family of each point */
	int failed;           /* out of memory */
} point_list;

/* Element types by width index: u8, u16, f32, u64, v4; and the widths. */
extern const char *const probe_type_name[BS_NWIDTHS];
extern const unsigned probe_widths[BS_NWIDTHS];

/* Append one access; names longer than the limit are cut. */
void points_add(point_list *pl, const bs_access *a);
/*
 * Append lane l -> base + (elem(l)) * width for all lanes in `active`;
 * `elem` is given as an array of 32 element indices.
 */
void points_add_elems(point_list *pl, const char *name, unsigned width,
		      bs_op op, uint32_t active, const uint32_t elem[32]);
/* lane l -> l * stride elements, all lanes. */
void points_add_stride(point_list *pl, const char *name, unsigned width,
		       bs_op op, unsigned stride);

typedef struct {
	const char *name;
	void (*generate)(point_list *pl);
	const char *description;
} probe_family;

void family_stride(point_list *pl);
void family_broadcast(point_list *pl);
void family_padding(point_list *pl);
void family_wide(point_list *pl);
void family_random(point_list *pl);

/* ---- kernels.cu: measuring one access ---------------------------------- */

typedef struct {
	int sm_count;
	size_t smem_optin;        /* largest dynamic shared memory per block */
	size_t smem_per_sm;
	double clock_overhead;    /* cycles of an empty timed region (min) */
} probe_device;

/* Set the kernels' shared-memory limits; measure the clock overhead. */
int probe_kernels_init(probe_device *dev, char *why, size_t whylen);
/* Shared memory the access needs: its highest byte + 1, 16-byte rounded. */
size_t probe_smem_bytes(const bs_access *a);
/*
 * Latency mode: reps timed repetitions after one warm-up; cycles[r] is
 * cycles per access of repetition r: (t of a 96-access chain - t of a
 * 32-access chain) / 64, so the clock reads and syncs cancel.
 */
int probe_latency(const probe_device *dev, const bs_access *a, int reps,
		  double *cycles, char *why, size_t whylen);
/*
 * Throughput mode: one block of PROBE_TP_THREADS per SM, each warp doing
 * the access `iters * PROBE_TP_UNROLL` times; per-block cycles, median
 * over blocks in *cycles_median.  Returns warp accesses per SM in *count.
 */
int probe_throughput(const probe_device *dev, const bs_access *a, int iters,
		     double *cycles_median, double *count, char *why,
		     size_t whylen);
/* The counter pass: one warp, exactly PROBE_CHAIN accesses, no timing. */
int probe_counted_launch(const bs_access *a, char *why, size_t whylen);
/* SM clock in MHz, measured by a spin of known cycles against events. */
int probe_sm_clock_mhz(double *mhz, char *why, size_t whylen);

#endif
