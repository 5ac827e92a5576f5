/* kern_h16_256.cu - bankscope-gmma's f16 wgmma kernels for N = 256 (gmma_dev.cuh). */
#include "gmma_dev.cuh"

const gm_entry gm_table_h16_256[] = {
	GM_H16(256),
	GM_END
};
