/*
 * target.h - what the compile target's device code may use.
 *
 * nvcc compiles a .cu file once for the host and once for every target of
 * NVCC_ARCH (see the Makefile); in each device pass __CUDA_ARCH__ is the
 * target's compute capability times 10 (800 for sm_80 and compute_80).
 * An instruction that an older architecture lacks (ldmatrix: sm_75;
 * cp.async: sm_80; stmatrix, elect.sync: sm_90) must sit under
 *
 *   #if BS_TARGET_HAS(90)
 *           asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 ...");
 *   #else
 *           ... nothing, or a marker the host can see ...
 *   #endif
 *
 * so that the build never fails for an older target: the kernel still
 * exists there, without the instruction.  BS_TARGET_HAS(XY) is 1 in a
 * device pass for a target of compute capability X.Y or newer and 0 in
 * older device passes and in the host pass (where no instruction is
 * compiled).
 *
 * On the host, the same question is asked of the code that will run: for
 * a kernel k, cudaFuncGetAttributes(&attr, k) gives attr.ptxVersion, the
 * __CUDA_ARCH__ / 10 its device code was compiled with (the driver's JIT
 * of compute_90 PTX for a newer GPU keeps 90).  A kind is measurable when
 * attr.ptxVersion >= XY; otherwise the runner writes the point with a
 * reason ("stmatrix needs sm_90; the probes were built for sm_80")
 * instead of launching it.
 *
 * `make check` compiles the probe kernels for CHECK_NVCC_ARCH (sm_80)
 * besides the default target, so an unguarded instruction fails there.
 */
#ifndef BANKSCOPE_TARGET_H
#define BANKSCOPE_TARGET_H

#if defined(__CUDA_ARCH__)
#define BS_TARGET_HAS(xy) (__CUDA_ARCH__ >= (xy) * 10)
#else
#define BS_TARGET_HAS(xy) 0
#endif

#endif
