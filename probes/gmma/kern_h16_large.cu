/* kern_h16_large.cu - bankscope-gmma's f16 wgmma kernels for N = 128, 192 (gmma_dev.cuh). */
#include "gmma_dev.cuh"

const gm_entry gm_table_h16_large[] = {
	GM_H16(128),
	GM_H16(192),
	GM_END
};
