/*
 * probe.h - what the probe runner and the kernels share.
 *
 * The points a probe run measures come from the probe families
 * (analyzer/families/, one file each, listed in its family table; see
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
 * or 0 with the reason in why: no device accessor for the kind; the GPU's
 * compute capability lacks it; the code this build runs on this GPU was
 * compiled for a target without the instruction (probes/target.h); or a
 * warp-wide kind (ldmatrix, stmatrix: .sync.aligned) whose access leaves
 * some of its address lanes inactive, which the warp cannot run.
 */
int probe_can_measure(const probe_device *dev, const bs_access *a, char *why,
		      size_t whylen);
/*
 * The counters of a kind: which metric group (one CUPTI pass, metrics.h)
 * sees it, and which of the group's metrics make its figures.  The
 * wavefronts and instructions are the sums of up to two metrics each (an
 * index of -1 adds nothing); wavefronts and conflicts are divided by the
 * instructions, or, for a kind that is a loop of several instructions per
 * source-level operation (atom.add.f32, atom.add.u64), by the PROBE_CHAIN
 * operations of the counted launch.
 */
enum { PROBE_PASS_LDST, PROBE_PASS_ATOM, PROBE_PASS_SASSK, PROBE_NPASSES };

typedef struct {
	int pass;                     /* PROBE_PASS_* */
	signed char wavefronts[2];    /* metric indices in the pass, summed */
	signed char conflicts;        /* -1: no counter is exact for it */
	signed char instructions[2];  /* summed: the instructions column */
	unsigned char per_operation;  /* 1: per source operation, not per
					 instruction */
	const char *what;             /* one line for the dataset's
					 counter_<name> metadata */
} probe_counters;

/*
 * The metric names of a pass on a GPU of compute capability cc (x 10; the
 * stmatrix counters only from 90) and their number; its name ("ldst").
 */
const char *const *probe_pass_metrics(int pass, int cc, int *n,
				      const char **name);
/* The counters of the access's kind; NULL when none is known. */
const probe_counters *probe_counters_of(const bs_access *a);
/* The name of the class the kind's counters are described under: "ld",
 * "ldsm", "atom", "casloop", "cp.async.ca" ...; NULL as above. */
const char *probe_counters_class(const bs_access *a);
/*
 * The warm-up of a kind that needs one (cp.async: its global source into
 * L2): the counted kernel under another name, k_warm; nothing for other
 * kinds.  Never inside a counter range.
 */
int probe_warm_launch(const bs_access *a, char *why, size_t whylen);
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
