/*
 * counters.h - per-kernel hardware counters inside the running process,
 * through the CUPTI Range Profiler API of CUDA 12.6+/13
 * (cupti_range_profiler.h + cupti_profiler_host.h + cupti_profiler_target.h).
 *
 * Model: one object per process, on the CUDA runtime's primary context of
 * the current device.  Ranges are user ranges (CUPTI_UserRange) collected
 * with user replay (CUPTI_UserReplay); the metric set must fit in ONE pass,
 * so a batch of ranges is collected by a single Start..Stop of the range
 * profiler and nothing is replayed.
 *
 *   bs_counters *c;  char why[256];
 *   if (bs_counters_open(&c, metrics, nm, 64, why, sizeof why) != 0) {
 *       ... counters unavailable: print why, run timing only ...
 *   }
 *   for each batch of at most max_ranges kernels:
 *       for each kernel:
 *           bs_counters_begin(c, "name");   // first begin of a batch starts
 *           launch kernel;                  //   the profiler (Start), then
 *           cudaDeviceSynchronize();        //   every begin pushes a range
 *           bs_counters_end(c);             // pops the range
 *       bs_counters_flush(c, values, &nr, why, sizeof why);
 *       // values[r*nm + m] = metric m of the r-th range of this batch
 *   bs_counters_close(c);
 *
 * Range names need not be unique: each range is pushed to CUPTI as
 * "<index in batch>:<name>" (CUPTI merges ranges of the same name within a
 * pass) and flush puts the values back in begin order.  Names longer than
 * ~240 characters are cut.
 *
 * Build (C11; cupti_profiler_host.h includes <string>, so a C translation
 * unit needs the empty file probes/cinclude/string first on its path):
 *   gcc -std=c11 -Wall -Wextra -Iprobes/cinclude -I/usr/local/cuda/include \
 *       -c probes/counters.c
 * Link:
 *   -L/usr/local/cuda/lib64 -Wl,--disable-new-dtags,-rpath,/usr/local/cuda/lib64 \
 *   -lcupti -lcudart
 * libcupti dlopen()s libnvperf_host.so at run time, and dlopen from libcupti
 * honours the executable's DT_RPATH but not a DT_RUNPATH.  A plain
 * -Wl,-rpath gives a DT_RUNPATH with gcc/ld defaulting to new dtags (Debian
 * 12's does; check with readelf -d), and then, where the CUDA lib folder is
 * not in ld.so.cache, cuptiProfilerInitialize fails with
 * CUPTI_ERROR_NOT_INITIALIZED (seen on the H100 with ld.so.cache hidden).
 * Hence --disable-new-dtags (or LD_LIBRARY_PATH=/usr/local/cuda/lib64).
 * libcuda need not be linked: the two driver functions used (cuCtxGetCurrent,
 * cuCtxGetDevice) come from cudaGetDriverEntryPointByVersion, so a program
 * still starts, and open() says "no CUDA device", where no driver is
 * installed.  Adding -lcuda does no harm on a GPU machine.
 *
 * Counters need root, or the nvidia module loaded with
 * NVreg_RestrictProfilingToAdminUsers=0, and no other profiler (ncu, nsys
 * with GPU metrics, DCGM profiling) holding the GPU's counters.
 *
 * Errors: every function that can fail returns 0 on success and -1 on
 * failure.  Functions with a why/whylen pair write a one-line reason there
 * (never printed, the process is never exited).  begin/end keep theirs in
 * the object: see bs_counters_last_error(); flush also reports a failure
 * of an earlier begin/end of the same batch.
 *
 * Not thread-safe: use an object from one thread at a time.
 */
#ifndef BANKSCOPE_COUNTERS_H
#define BANKSCOPE_COUNTERS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bs_counters bs_counters;

/*
 * Set up the range profiler for the given metric names (copied) on the
 * primary context of the current CUDA device (made current by cudaFree(0)).
 * max_ranges is the most ranges (kernels) one batch may hold; the counter
 * data image and the per-pass range limit are sized for it.
 * 0 on success; -1 with a one-line reason in why, e.g.
 *   "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: counters need root or NVreg_RestrictProfilingToAdminUsers=0 [...]"
 *   "another profiler holds the counters (CUPTI_ERROR_...) [...]"
 *   "GPU not supported by CUPTI's profiler (CUPTI_ERROR_...) [...]"
 *   "metric 'x' is unknown to CUPTI for chip GH100 [...]"
 *   "the metrics need 2 passes; counters are collected in one pass only"
 * On failure *out is NULL and nothing is left allocated or enabled.
 */
int bs_counters_open(bs_counters **out, const char *const *metrics, int nmetrics,
                     int max_ranges, char *why, size_t whylen);

/* Start a range: the first begin of a batch starts the range profiler
 * (cuptiRangeProfilerStart), then the range is pushed.  Ranges must not be
 * nested (begin, end, begin, end, ...).  0 or -1 (see bs_counters_last_error). */
int bs_counters_begin(bs_counters *c, const char *range_name);

/* End the range opened by the last begin (pop).  0 or -1. */
int bs_counters_end(bs_counters *c);

/*
 * End the batch: stop the range profiler, decode, and evaluate every range
 * of this batch in the order they were begun:
 *   values[r*nmetrics + m], r < *nranges, m < nmetrics
 * (values must hold max_ranges*nmetrics doubles).  A batch with no range
 * gives *nranges = 0.  Afterwards the object is ready for a new batch.
 * 0 on success; -1 with a one-line reason in why (*nranges is 0 then, and
 * the next begin starts a fresh batch).
 */
int bs_counters_flush(bs_counters *c, double *values, int *nranges, char *why,
                      size_t whylen);

/* Stop whatever is running, disable the range profiler, free everything.
 * NULL is accepted. */
void bs_counters_close(bs_counters *c);

/*
 * How many passes the range profiler needs for these metrics on a chip
 * ("GH100", as cuptiDeviceGetChipName names it), in *passes: CUPTI's host
 * API alone, no GPU or driver needed.  0, or -1 with a one-line reason
 * (an unknown metric or chip).  The metric groups of metrics.h must each
 * be one pass (build/counters-smoke --passes CHIP).
 */
int bs_counters_passes(const char *chip, const char *const *metrics,
                       int nmetrics, size_t *passes, char *why, size_t whylen);

/*
 * The chip of the current CUDA device as CUPTI names it ("GH100"), for
 * bs_counters_passes and bs_counters_list: 0, or -1 with a reason.
 */
int bs_counters_chip(char *chip, size_t size, char *why, size_t whylen);

/*
 * Every base metric CUPTI's host API knows for a chip (no GPU needed),
 * each passed to fn with its type ("counter", "ratio", "throughput"):
 * 0, or -1 with a reason (an unknown chip).
 */
int bs_counters_list(const char *chip,
                     void (*fn)(const char *type, const char *name, void *arg),
                     void *arg, char *why, size_t whylen);

/* Version of the libcupti loaded, e.g. "CUPTI 13.0 (API 130000)", from
 * cuptiGetVersion.  Static storage; never NULL. */
const char *bs_counters_version(void);

/* Reason of the last failure of this object (empty string if none). */
const char *bs_counters_last_error(const bs_counters *c);

#ifdef __cplusplus
}
#endif

#endif /* BANKSCOPE_COUNTERS_H */
