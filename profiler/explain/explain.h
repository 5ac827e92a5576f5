/*
 * explain.h - what the patch module (patch.cu) and the explain library
 * (explain.c) share: the buffer one sampled launch fills in device memory.
 *
 * Two samples of a launch, and one count.
 *
 * The warps' sample: the first `blocks` blocks (linear block index) and,
 * in each, their first `warps` warps (linear thread index / 32).  Each
 * such warp has a table of BS_EX_PCS pcs (open addressing, written by the
 * warp's lowest active lane only, so without atomics) counting its
 * executions of each instruction; the first `execs` executions of each
 * instruction get a record holding every active lane's shared-memory
 * address.  A warp's consecutive executions are what the retry-loop
 * check follows.
 *
 * The grid's sample: every warp of the launch counts its executions of
 * each instruction in one table of BS_EX_GPCS pcs (atomics), `counts`:
 * the executions with a lane on, exactly (an execution whose lanes are
 * all predicated off calls no callback), and of those the ones through
 * the remote callback.  An execution that the warps' sample does not
 * record (any warp outside it; in it, past its first execs executions or
 * a full table) and has index n among the instruction's executions in
 * the launch is recorded when n < execs, or when n is 2^k or 3 * 2^k
 * (n >= execs): every
 * instruction that ran gets a record, and later executions, drawn from
 * wherever the grid is by then, one every factor 1.5 or 1.33 of n.  Its
 * record's exec is BS_EX_GRID | n.
 *
 * Records come from atomic counters, one per pool: rec[0 .. cap) for the
 * warps' sample, then gcap for the grid's first executions (n < execs),
 * then gcap for its later ones; past a pool's end they are counted in
 * `dropped`, pcs past a full table in `overflow` (the warps' tables) or
 * `goverflow` (the grid's).
 */
#ifndef BANKSCOPE_EXPLAIN_H
#define BANKSCOPE_EXPLAIN_H

#include <stdint.h>

#define BS_EX_PCS 256          /* distinct pcs per sampled warp */
#define BS_EX_GPCS 8192        /* distinct pcs per sampled launch */
#define BS_EX_NONE 0xffffffffu
#define BS_EX_GRID 0x80000000u /* exec of a grid sample: | its index */

/* What recorded the access. */
enum {
	BS_EX_MEMORY = 0, BS_EX_MATRIX = 1, BS_EX_MEMCPY_ASYNC = 2,
	BS_EX_REMOTE = 3           /* the remote-shared-memory callback */
};

typedef struct {
	uint64_t pc;               /* 0: free */
	uint32_t count;            /* executions seen */
	uint32_t pad;
} bs_ex_slot;

typedef struct {
	uint64_t pc;               /* absolute */
	uint32_t block, warp, exec;
	uint32_t mask;             /* active lanes */
	uint32_t size;             /* bytes per lane */
	uint32_t flags;            /* Sanitizer_DeviceMemoryFlags */
	uint32_t count;            /* matrices (matrix accesses), else 1 */
	uint32_t kind;             /* BS_EX_* */
	uint32_t addr[32];         /* shared-window offsets */
	uint32_t src[32];          /* LDGSTS: the global source, its low
				      32 bits; remote: the address's high
				      32 bits (0 on an H200); 0 for the
				      other kinds */
} bs_ex_rec;

typedef struct {
	uint64_t pc;               /* 0: free */
	uint32_t active;           /* warp executions with a lane on */
	uint32_t remote;           /* of those, through the remote callback */
} bs_ex_count;

typedef struct {
	uint32_t blocks, warps, execs, cap;
	uint32_t nrec, dropped, overflow, gcap;
	uint32_t gnrec[2], gdropped, goverflow;
	bs_ex_slot *slots;         /* blocks * warps * BS_EX_PCS */
	bs_ex_count *counts;       /* BS_EX_GPCS */
	bs_ex_rec *rec;            /* cap + 2 * gcap */
} bs_ex_state;

#endif
