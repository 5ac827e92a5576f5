/*
 * probe.h - what the probe runner and the kernels share.
 *
 * The points a probe run measures come from the probe families
 * (probes/families/, one file each, listed in its family table; see
 * bs_families.h) or from pattern files.  The runner measures every point
 * the same way (kernels.cu): latency (one warp, a chain of CHAIN accesses
 * between two clock reads), throughput (one 1024-thread block per SM,
 * independent accesses) and counters (CUPTI, one range per point), through
 * the device accessor of the point's kind.
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

/* ---- kernels.cu: measuring one access ---------------------------------- */

typedef struct {
	int cc;                   /* compute capability x 10: 90 */
	int sm_count;
	size_t smem_optin;        /* largest dynamic shared memory per block */
	size_t smem_per_sm;
	double clock_overhead;    /* cycles of an empty timed region (min) */
} probe_device;

/* Set the kernels' shared-memory limits; measure the clock overhead. */
int probe_kernels_init(probe_device *dev, char *why, size_t whylen);
/*
 * Can this build measure the access's kind and width on this device?  1,
 * or 0 with the reason in why (no device accessor for the kind, or the
 * GPU's compute capability lacks it).
 */
int probe_can_measure(const probe_device *dev, const bs_access *a, char *why,
		      size_t whylen);
/*
 * Which counters see the kind: "ld" or "st" (the op_ld / op_st metric
 * triples the runner reads); NULL when none is known.
 */
const char *probe_counter_op(const bs_access *a);
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
