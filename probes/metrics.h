/*
 * metrics.h - the one home of the hardware metric names the suite reads.
 *
 * Per kernel, through CUPTI's range profiler (counters.c, the probe
 * runner) or Nsight Compute (`ncu --metrics`, scripts/device-run.sh): the
 * shared-memory wavefronts, bank conflicts and warp instructions of loads
 * and of stores.  A row's figure per instruction is a counter divided by
 * its instruction counter:
 *
 *   wavefronts     = BS_METRIC_WAVEFRONTS_<OP> / BS_METRIC_INSTRUCTIONS_<OP>
 *   bank conflicts = BS_METRIC_CONFLICTS_<OP>  / BS_METRIC_INSTRUCTIONS_<OP>
 *
 * BS_KERNEL_METRICS lists the six in the order the runner collects them:
 * index BS_KM_<QUANTITY> + 0 for loads, + 1 for stores.
 *
 * Per SASS instruction, through CUPTI's SASS metrics (the injection
 * library behind `bankscope profile`): BS_SASS_METRIC_*.
 *
 * The scripts read the names from this file rather than keeping copies:
 * every `#define BS_METRIC_<NAME> "<metric>"` line (one a line, in this
 * form) is a per-kernel metric, every `#define BS_SASS_METRIC_<NAME>
 * "<metric>"` line a SASS one; `scripts/metrics.sh kernel|sass` prints
 * them comma-separated, in file order.
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

/* warp instructions executed, shared-memory wavefronts, and the
 * wavefronts the same instruction would need without bank conflicts */
#define BS_SASS_METRIC_INSTRUCTIONS "smsp__sass_inst_executed"
#define BS_SASS_METRIC_WAVEFRONTS "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"
#define BS_SASS_METRIC_WAVEFRONTS_IDEAL "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"

#endif
