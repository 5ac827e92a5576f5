/*
 * metrics.h - the one home of the hardware metric names the suite reads.
 *
 * Per kernel, through CUPTI's range profiler (counters.c, the probe
 * runner) or Nsight Compute (`ncu --metrics`, scripts/device-run.sh), in
 * three groups, each read in ONE pass (bs_counters never replays), the
 * probe runner opening one counter object per group and launching the
 * points whose kind that group sees (probes/kernels.cu, the accessor
 * table, says which group and which sums make each kind's figures):
 *
 *   BS_KERNEL_METRICS      ld, st: the shared-memory wavefronts, bank
 *                          conflicts and warp instructions of loads and of
 *                          stores, as the suite has read them from the
 *                          start.  A row's figure per instruction is
 *
 *     wavefronts     = BS_METRIC_WAVEFRONTS_<OP> / BS_METRIC_INSTRUCTIONS_<OP>
 *     bank conflicts = BS_METRIC_CONFLICTS_<OP>  / BS_METRIC_INSTRUCTIONS_<OP>
 *
 *                          listed in the order the runner collects them:
 *                          index BS_KM_<QUANTITY> + 0 for loads, + 1 for
 *                          stores.
 *   BS_ATOM_METRICS        the ATOMS instructions (atom.*, red.*): the same
 *                          three PM counters of op_atom (BS_AM_*).
 *   BS_SASSK_METRICS       ldmatrix, stmatrix, cp.async and the f32/u64
 *                          atomics' retry loops: counters made by patching
 *                          the kernel's SASS, per opcode class (BS_SK_*).
 *
 * Which counter sees which kind, and what CUPTI refuses, was measured on
 * the H100 (docs/notes/kinds-h100.md, "Which counter sees which kind"):
 * no PM wavefront counter of its own exists on GH100 for LDSM, STSM or
 * LDGSTS (op_ldsm, op_stsm, op_ldgsts are unknown names), none at all
 * sees LDGSTS.BYPASS, and the smsp__sass_* counters cannot share a pass
 * with PM ones; each group below is one pass on GH100 as the CUPTI host
 * API plans it (build/counters-smoke --passes GH100 checks it, no GPU
 * needed).
 *
 * Per SASS instruction, through CUPTI's SASS metrics (the injection
 * library behind `bankscope profile`, profiler/inject/metrics.c):
 * BS_SASS_METRIC_*.
 *
 * Per kernel, distributed shared memory (bankscope-dsmem,
 * probes/dsmem/dsmem.cu, in its own groups): BS_DSMEM_METRIC_* and the
 * shared-memory names above.
 *
 * No other source file of the probes, the profiler, the examples or
 * tests/cuda spells a metric name: the `metrics` suite
 * (tests/check_metrics.c) fails on one that does, and on a name defined
 * twice here.
 *
 * The scripts read the names from this file rather than keeping copies:
 * every `#define BS_METRIC_<NAME> "<metric>"` line (one a line, in this
 * form) is a per-kernel metric of ld and st, every `#define
 * BS_ATOM_METRIC_<NAME>` or `BS_SASSK_METRIC_<NAME>` line one of the other
 * kinds, every `#define BS_SASS_METRIC_<NAME> "<metric>"` line a SASS one;
 * `scripts/metrics.sh kernel|atom|sassk|sass` prints them comma-separated,
 * in file order (the dsmem names, BS_DSMEM_METRIC_*, are bankscope-dsmem's
 * alone).
 */
#ifndef BANKSCOPE_METRICS_H
#define BANKSCOPE_METRICS_H

#define BS_METRIC_WAVEFRONTS_LD "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
#define BS_METRIC_WAVEFRONTS_ST "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
#define BS_METRIC_CONFLICTS_LD "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
#define BS_METRIC_CONFLICTS_ST "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
#define BS_METRIC_INSTRUCTIONS_LD "smsp__inst_executed_op_shared_ld.sum"
#define BS_METRIC_INSTRUCTIONS_ST "smsp__inst_executed_op_shared_st.sum"

#define BS_KERNEL_METRICS                                                    \
	{                                                                    \
		BS_METRIC_WAVEFRONTS_LD, BS_METRIC_WAVEFRONTS_ST,            \
		BS_METRIC_CONFLICTS_LD, BS_METRIC_CONFLICTS_ST,              \
		BS_METRIC_INSTRUCTIONS_LD, BS_METRIC_INSTRUCTIONS_ST         \
	}
enum {
	BS_KM_WAVEFRONTS = 0,
	BS_KM_CONFLICTS = 2,
	BS_KM_INSTRUCTIONS = 4,
	BS_NKERNEL_METRICS = 6
};

/* ---- the ATOMS instructions: one PM pass -------------------------------- */
#define BS_ATOM_METRIC_WAVEFRONTS "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"
#define BS_ATOM_METRIC_CONFLICTS "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"
#define BS_ATOM_METRIC_INSTRUCTIONS "smsp__inst_executed_op_shared_atom.sum"

#define BS_ATOM_METRICS                                                      \
	{                                                                    \
		BS_ATOM_METRIC_WAVEFRONTS, BS_ATOM_METRIC_CONFLICTS,         \
		BS_ATOM_METRIC_INSTRUCTIONS                                  \
	}
enum {
	BS_AM_WAVEFRONTS = 0,
	BS_AM_CONFLICTS = 1,
	BS_AM_INSTRUCTIONS = 2,
	BS_NATOM_METRICS = 3
};

/*
 * ---- ldmatrix, stmatrix, cp.async, the CAS loops: one SASS-counter pass --
 * Warp instructions executed, wavefronts and bank conflicts per opcode
 * class: op_ldsm (LDSM), op_stsm (STSM), op_ldgsts (LDGSTS, .BYPASS
 * included), and op_ld / op_atom for the LDS and ATOMS.CAST.SPIN of the
 * f32 and u64 atomics' loops.  op_ldgsts's conflict counter reads 0 for
 * LDGSTS.BYPASS whatever the addresses; op_ld's and op_atom's SASS
 * conflict counters do not exist.
 */
#define BS_SASSK_METRIC_INST_LDSM "smsp__sass_inst_executed_op_ldsm.sum"
#define BS_SASSK_METRIC_INST_LDGSTS "smsp__sass_inst_executed_op_ldgsts.sum"
#define BS_SASSK_METRIC_INST_LD "smsp__sass_inst_executed_op_shared_ld.sum"
#define BS_SASSK_METRIC_INST_ATOM "smsp__sass_inst_executed_op_shared_atom.sum"
#define BS_SASSK_METRIC_WAVEFRONTS_LDSM "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"
#define BS_SASSK_METRIC_WAVEFRONTS_LDGSTS "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"
#define BS_SASSK_METRIC_WAVEFRONTS_LD "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
#define BS_SASSK_METRIC_WAVEFRONTS_ATOM "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"
#define BS_SASSK_METRIC_CONFLICTS_LDSM "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum"
#define BS_SASSK_METRIC_CONFLICTS_LDGSTS "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum"
#define BS_SASSK_METRIC_INST_STSM "smsp__sass_inst_executed_op_shared_stsm.sum"
#define BS_SASSK_METRIC_WAVEFRONTS_STSM "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum"
#define BS_SASSK_METRIC_CONFLICTS_STSM "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum"

#define BS_SASSK_METRICS                                                     \
	{                                                                    \
		BS_SASSK_METRIC_INST_LDSM, BS_SASSK_METRIC_INST_LDGSTS,      \
		BS_SASSK_METRIC_INST_LD, BS_SASSK_METRIC_INST_ATOM,          \
		BS_SASSK_METRIC_WAVEFRONTS_LDSM,                             \
		BS_SASSK_METRIC_WAVEFRONTS_LDGSTS,                           \
		BS_SASSK_METRIC_WAVEFRONTS_LD,                               \
		BS_SASSK_METRIC_WAVEFRONTS_ATOM,                             \
		BS_SASSK_METRIC_CONFLICTS_LDSM,                              \
		BS_SASSK_METRIC_CONFLICTS_LDGSTS,                            \
		BS_SASSK_METRIC_INST_STSM,                                   \
		BS_SASSK_METRIC_WAVEFRONTS_STSM,                             \
		BS_SASSK_METRIC_CONFLICTS_STSM                               \
	}
/*
 * The stmatrix counters come last: chips before sm_90 (GA100, AD102) do
 * not know them, and there the pass is the first BS_NSASSK_METRICS_SM80
 * (one pass on both, as CUPTI's host API plans it).
 */
enum {
	BS_SK_INST_LDSM = 0,
	BS_SK_INST_LDGSTS,
	BS_SK_INST_LD,
	BS_SK_INST_ATOM,
	BS_SK_WAVEFRONTS_LDSM,
	BS_SK_WAVEFRONTS_LDGSTS,
	BS_SK_WAVEFRONTS_LD,
	BS_SK_WAVEFRONTS_ATOM,
	BS_SK_CONFLICTS_LDSM,
	BS_SK_CONFLICTS_LDGSTS,
	BS_NSASSK_METRICS_SM80,
	BS_SK_INST_STSM = BS_NSASSK_METRICS_SM80,
	BS_SK_WAVEFRONTS_STSM,
	BS_SK_CONFLICTS_STSM,
	BS_NSASSK_METRICS
};

/* warp instructions executed, shared-memory wavefronts, and the
 * wavefronts the same instruction would need without bank conflicts;
 * then, optional (a chip before sm_90 lacks it), the warp instructions
 * that accessed another CTA's shared memory */
#define BS_SASS_METRIC_INSTRUCTIONS "smsp__sass_inst_executed"
#define BS_SASS_METRIC_WAVEFRONTS "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"
#define BS_SASS_METRIC_WAVEFRONTS_IDEAL "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"
#define BS_SASS_METRIC_DSHARED "smsp__sass_inst_executed_op_dshared"

/*
 * ---- distributed shared memory: bankscope-dsmem's counters -------------
 * Another CTA's shared memory, per pipe (op_ld, op_st, op_atom, op_redas:
 * red.async): the dshared wavefronts (t_output), the sectors crossing the
 * SM-to-SM network each way (xbar2l1tex reads, l1tex2xbar writes), all
 * dshared sectors and requests, the generic instructions (a cluster
 * address is generic), and the SASS count of dshared instructions.
 * dsmem.cu groups them, with the shared-memory names above, into its
 * passes.
 */
#define BS_DSMEM_METRIC_WAVEFRONTS_LD "l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_ld.sum"
#define BS_DSMEM_METRIC_WAVEFRONTS_ST "l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_st.sum"
#define BS_DSMEM_METRIC_WAVEFRONTS_ATOM "l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_atom.sum"
#define BS_DSMEM_METRIC_WAVEFRONTS_REDAS "l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_redas.sum"
#define BS_DSMEM_METRIC_READ_SECTORS_LD "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld.sum"
#define BS_DSMEM_METRIC_READ_SECTORS_ST "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_st.sum"
#define BS_DSMEM_METRIC_READ_SECTORS_ATOM "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_atom.sum"
#define BS_DSMEM_METRIC_READ_SECTORS_REDAS "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_redas.sum"
#define BS_DSMEM_METRIC_WRITE_SECTORS_LD "l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_ld.sum"
#define BS_DSMEM_METRIC_WRITE_SECTORS_ST "l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_st.sum"
#define BS_DSMEM_METRIC_WRITE_SECTORS_ATOM "l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_atom.sum"
#define BS_DSMEM_METRIC_WRITE_SECTORS_REDAS "l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_redas.sum"
/*
 * The crossbar's write sectors of every op together.  A remote store that
 * writes part of a sector may move more sectors here than in its _op_st
 * part (issue 30); the committed runs of 2026-11-27/28 lack it, so
 * stores are not yet priced by it (docs/model.md).
 */
#define BS_DSMEM_METRIC_WRITE_SECTORS "l1tex__m_l1tex2xbar_write_sectors_mem_dshared.sum"
#define BS_DSMEM_METRIC_SECTORS "l1tex__t_sectors_pipe_lsu_mem_dshared.sum"
#define BS_DSMEM_METRIC_REQUESTS "l1tex__t_requests_pipe_lsu_mem_dshared.sum"
#define BS_DSMEM_METRIC_GENERIC_LD "smsp__inst_executed_op_generic_ld.sum"
#define BS_DSMEM_METRIC_GENERIC_ST "smsp__inst_executed_op_generic_st.sum"
#define BS_DSMEM_METRIC_GENERIC_ATOM "smsp__inst_executed_op_generic_atom.sum"
#define BS_DSMEM_METRIC_SASS_LD "sm__sass_inst_executed_op_dshared_ld.sum"
#define BS_DSMEM_METRIC_SASS_ST "sm__sass_inst_executed_op_dshared_st.sum"
#define BS_DSMEM_METRIC_SASS_ATOM "sm__sass_inst_executed_op_dshared_atom.sum"
#define BS_DSMEM_METRIC_SASS_REDAS "sm__sass_inst_executed_op_dshared_redas.sum"

/*
 * ---- wgmma and TMA: bankscope-gmma's candidates -------------------------
 * Seen in `ncu --query-metrics --chip gh100` on an H200 and in CUPTI's
 * host API for GH100 (shared/evidence/hopper-async/): per wgmma (op_gmma:
 * HGMMA, IGMMA, QGMMA, BGMMA) the LSU wavefronts, bank conflicts and
 * requests, the tensor pipe; per kernel only, the banks' reads and writes
 * (which TMA's writes reach) and the TMA pipe.  bankscope-gmma tries each
 * on the device, records the ones CUPTI refuses, and packs the rest into
 * one-pass groups itself (probes/gmma/gmma.cu): the list is a list of
 * candidates, not of passes.  The smsp__sass_ wavefront name is known to
 * be refused on GH100 (sm__sass_ is its spelling); it stays, so that the
 * run says so.
 */
#define BS_GMMA_METRIC_WAVEFRONTS "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"
#define BS_GMMA_METRIC_CONFLICTS "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum"
#define BS_GMMA_METRIC_LSUIN "l1tex__lsuin_requests_op_gmma.sum"
#define BS_GMMA_METRIC_SMSP_LSUIN "smsp__l1tex_lsuin_requests_op_gmma.sum"
#define BS_GMMA_METRIC_WRITEBACK "l1tex__lsu_writeback_active_mem_shared_op_gmma.sum"
#define BS_GMMA_METRIC_INST_TENSOR "smsp__inst_executed_pipe_tensor_op_gmma.sum"
#define BS_GMMA_METRIC_TENSOR_CYCLES "sm__pipe_tensor_op_hmma_type_hmma_hgmma_qgmma_cycles_active.sum"
#define BS_GMMA_METRIC_TENSOR_CYCLES_ALL "sm__pipe_tensor_type_hmma_hgmma_qgmma_imma_igmma_bmma_bgmma_cycles_active.sum"
#define BS_GMMA_METRIC_STALLED "smsp__warps_issue_stalled_gmma.sum"
#define BS_GMMA_METRIC_SASS_INST "smsp__sass_inst_executed_op_shared_gmma.sum"
#define BS_GMMA_METRIC_SASS_BYTES "smsp__sass_data_bytes_mem_shared_op_gmma.sum"
#define BS_GMMA_METRIC_SASS_WAVEFRONTS "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"
#define BS_GMMA_METRIC_SMSP_SASS_WAVEFRONTS "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"
#define BS_GMMA_METRIC_BANK_READS "l1tex__data_bank_reads.sum"
#define BS_GMMA_METRIC_BANK_WRITES "l1tex__data_bank_writes.sum"
#define BS_GMMA_METRIC_WAVEFRONTS_ALL "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
#define BS_GMMA_METRIC_CONFLICTS_ALL "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
#define BS_GMMA_METRIC_ARBITRATION "l1tex__data_bank_conflicts_type_arbitration.sum"
#define BS_GMMA_METRIC_CYCLES "sm__cycles_elapsed.max"
#define BS_TMA_METRIC_PIPE_CYCLES "sm__pipe_tma_cycles_active.sum"
#define BS_TMA_METRIC_INST "sm__inst_executed_pipe_tma.sum"
#define BS_TMA_METRIC_TMAIN "l1tex__tmain_requests.sum"
#define BS_TMA_METRIC_READ_BYTES "l1tex__m_xbar2l1tex_read_bytes_pipe_tma.sum"
#define BS_TMA_METRIC_WRITE_BYTES "l1tex__m_l1tex2xbar_write_bytes_pipe_tma.sum"
#define BS_TMA_METRIC_LD_BYTES "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"
#define BS_TMA_METRIC_ST_BYTES "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum"
#define BS_TMA_METRIC_MULTICAST_BYTES "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum"
#define BS_TMA_METRIC_SELF_BYTES "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_self.sum"
#define BS_TMA_METRIC_INST_LD "smsp__inst_executed_op_tma_ld.sum"
#define BS_TMA_METRIC_INST_ST "smsp__inst_executed_op_tma_st.sum"
#define BS_TMA_METRIC_SASS "smsp__sass_inst_executed_op_tma.sum"
#define BS_TMA_METRIC_SASS_LD "smsp__sass_inst_executed_op_tma_ld.sum"
#define BS_TMA_METRIC_SASS_ST "smsp__sass_inst_executed_op_tma_st.sum"

#define BS_GMMA_METRICS                                                      \
	{                                                                    \
		BS_GMMA_METRIC_WAVEFRONTS, BS_GMMA_METRIC_CONFLICTS,         \
		BS_GMMA_METRIC_LSUIN, BS_GMMA_METRIC_SMSP_LSUIN,             \
		BS_GMMA_METRIC_WRITEBACK, BS_GMMA_METRIC_INST_TENSOR,        \
		BS_GMMA_METRIC_TENSOR_CYCLES,                                \
		BS_GMMA_METRIC_TENSOR_CYCLES_ALL, BS_GMMA_METRIC_STALLED,    \
		BS_GMMA_METRIC_SASS_INST, BS_GMMA_METRIC_SASS_BYTES,         \
		BS_GMMA_METRIC_SASS_WAVEFRONTS,                              \
		BS_GMMA_METRIC_SMSP_SASS_WAVEFRONTS,                         \
		BS_GMMA_METRIC_BANK_READS, BS_GMMA_METRIC_BANK_WRITES,       \
		BS_GMMA_METRIC_WAVEFRONTS_ALL, BS_GMMA_METRIC_CONFLICTS_ALL, \
		BS_GMMA_METRIC_ARBITRATION, BS_GMMA_METRIC_CYCLES,           \
		BS_TMA_METRIC_PIPE_CYCLES, BS_TMA_METRIC_INST,               \
		BS_TMA_METRIC_TMAIN, BS_TMA_METRIC_READ_BYTES,               \
		BS_TMA_METRIC_WRITE_BYTES, BS_TMA_METRIC_LD_BYTES,           \
		BS_TMA_METRIC_ST_BYTES, BS_TMA_METRIC_MULTICAST_BYTES,       \
		BS_TMA_METRIC_SELF_BYTES, BS_TMA_METRIC_INST_LD,             \
		BS_TMA_METRIC_INST_ST, BS_TMA_METRIC_SASS,                   \
		BS_TMA_METRIC_SASS_LD, BS_TMA_METRIC_SASS_ST                 \
	}

#endif
