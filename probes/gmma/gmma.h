/*
 * gmma.h - what bankscope-gmma's host side (gmma.cu) and its kernel files
 * (kern_*.cu, which include gmma_dev.cuh) share: the shared-memory plan,
 * the kernels' arguments and results, and the tables of instantiated
 * kernels.  See gmma.cu for what the program measures.
 */
#ifndef BANKSCOPE_GMMA_H
#define BANKSCOPE_GMMA_H

#include <stdint.h>

#include <cuda.h>              /* CUtensorMap */
#include <cuda_runtime.h>

/*
 * Dynamic shared memory, from a base aligned to GM_ALIGN (1024: the 128B
 * swizzle's repeat, so that the swizzle of an address is its offset's):
 * the operand image (A of warpgroup 0, A of warpgroup 1, B) copied in
 * from global memory, then the stages the TMA traffic beside the wgmmas
 * lands in, then the mbarriers and two counters.
 */
#define GM_ALIGN 1024
#define GM_A0 0
#define GM_A1 (16 * 1024)
#define GM_B (32 * 1024)
#define GM_IMG (72 * 1024)
#define GM_TMA GM_IMG
#define GM_TMA_STAGE (8 * 1024)
#define GM_TMA_STAGES 4
#define GM_BAR (GM_TMA + GM_TMA_STAGES * GM_TMA_STAGE)
#define GM_SMEM (GM_BAR + 256 + GM_ALIGN)

/* Timing: each repetition times GM_SHORT and GM_LONG wgmmas, one at a
 * time (lat: fence, wgmma, commit, wait) and GM_BATCH to a commit group
 * (tp); GM_TREPS repetitions after one warm-up. */
#define GM_SHORT 16
#define GM_LONG 80
#define GM_BATCH 8
#define GM_TREPS 5
/* Counting: GM_COUNT and 2 x GM_COUNT wgmmas a warpgroup, GM_UNROLL to a
 * commit group. */
#define GM_COUNT 64
#define GM_UNROLL 4

enum { GM_CHECK = 0, GM_COUNTED = 1, GM_TIMED = 2 };

typedef struct {
	uint64_t desc_a[2];       /* start fields relative to the aligned base */
	uint64_t desc_b;
	const uint4 *img;         /* GM_IMG bytes */
	const uint32_t *afrag;    /* rs: [warpgroup][128 threads][4] */
	int mode;                 /* GM_CHECK, GM_COUNTED, GM_TIMED */
	int reps;                 /* GM_COUNTED: wgmmas a warpgroup */
	int nwg;                  /* consumer warpgroups: 1 or 2 */
	int tma;                  /* GM_TIMED: a warp loads by TMA beside */
	unsigned tma_rows;        /* rows of the TMA traffic's tensor */
	uint32_t *d;              /* GM_CHECK: [warpgroup][64][N] raw bits */
	long long *cyc;           /* GM_TIMED: [wg][2][GM_TREPS + 1][2] */
	unsigned *stat;           /* [0] TMA loads done, [1] TMA waits that
				     gave up, [2] clock64 of the first wgmma
				     timing, [3] of the last */
} gm_args;

typedef void (*gm_kernel_fn)(const __grid_constant__ CUtensorMap, gm_args);

/* One instantiated wgmma kernel: family (FAM_* of wgmma_ops.cuh), N, A
 * from registers, transposes. */
typedef struct {
	int fam, n, rs, ta, tb;
	gm_kernel_fn fn;
} gm_entry;

/* The tables of the kernel files, each ended by a NULL fn. */
extern const gm_entry gm_table_h16_small[];
extern const gm_entry gm_table_h16_mid[];
extern const gm_entry gm_table_h16_large[];
extern const gm_entry gm_table_h16_256[];
extern const gm_entry gm_table_i8f8[];

/* ---- TMA rows ------------------------------------------------------------ */
enum { TM_LOAD = 0, TM_STORE = 1, TM_MULTICAST = 2 };
#define TM_SMEM (64 * 1024 + 1024 + 256)
#define TM_REPS 9

typedef struct {
	int mode;                 /* GM_COUNTED or GM_TIMED */
	int reps;                 /* GM_COUNTED: operations */
	unsigned box_rows;        /* y step between operations */
	unsigned tensor_rows;
	unsigned box_bytes;
	long long *cyc;           /* GM_TIMED: [TM_REPS + 1] */
	unsigned *stat;           /* [0] waits that gave up */
} tm_args;

typedef void (*tm_kernel_fn)(const __grid_constant__ CUtensorMap, tm_args);
extern const tm_kernel_fn tm_kernels[3];

#endif
