/* kern_h16_small.cu - bankscope-gmma's f16 wgmma kernels for N = 8, 16, 24, 32 (gmma_dev.cuh). */
#include "gmma_dev.cuh"

const gm_entry gm_table_h16_small[] = {
	GM_H16(8),
	GM_H16(16),
	GM_H16(24),
	GM_H16(32),
	GM_END
};
