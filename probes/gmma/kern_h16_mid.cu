/* kern_h16_mid.cu - bankscope-gmma's f16 wgmma kernels for N = 64, 96 (gmma_dev.cuh). */
#include "gmma_dev.cuh"

const gm_entry gm_table_h16_mid[] = {
	GM_H16(64),
	GM_H16(96),
	GM_END
};
