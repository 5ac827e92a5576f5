/*
 * explain.h - what the patch module (patch.cu) and the explain library
 * (explain.c) share: the buffer one sampled launch fills in device memory.
 *
 * A launch is sampled in its first `blocks` blocks (linear block index)
 * and, in each, its first `warps` warps (linear thread index / 32).  Each
 * sampled warp has a table of BS_EX_PCS pcs (open addressing, written by
 * the warp's lowest active lane only, so without atomics) counting its
 * executions of each instruction; the first `execs` executions of each
 * instruction get a record holding every active lane's shared-memory
 * address.  Records come from one atomic counter over the launch; past
 * `cap` they are counted in `dropped`, pcs past a full table in
 * `overflow`.
 */
#ifndef BANKSCOPE_EXPLAIN_H
#define BANKSCOPE_EXPLAIN_H

#include <stdint.h>

#define BS_EX_PCS 256          /* distinct pcs per sampled warp */
#define BS_EX_NONE 0xffffffffu

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
	uint32_t blocks, warps, execs, cap;
	uint32_t nrec, dropped, overflow, pad;
	bs_ex_slot *slots;         /* blocks * warps * BS_EX_PCS */
	bs_ex_rec *rec;            /* cap */
} bs_ex_state;

#endif
