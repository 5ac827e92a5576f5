/*
 * check.h - the one home of the error checks around CUDA runtime, CUDA
 * driver, CUPTI and CUDA Sanitizer API calls: the probe runner and kernels
 * (C++ through nvcc), the counters (C), the two injection libraries of
 * profiler/, the tutorial and the test programs.
 *
 *   CHECK_CUDA(call)    a CUDA runtime call (cudaError_t)
 *   CHECK_CU(call)      a CUDA driver call (CUresult); include <cuda.h>
 *                       first (this file does not, so that a program's
 *                       own macros cannot collide with the driver API's
 *                       parameter names)
 *   CHECK_CUPTI(call)   a CUPTI call (CUptiResult); include cupti_reason.h
 *                       and link cupti_reason.c
 *   CHECK_SAN(call)     a CUDA Sanitizer API call (SanitizerResult);
 *                       include <sanitizer.h> first
 *
 * Each evaluates the call once.  When it fails, it writes one line that
 * says what went wrong first and then where, the file, line, call and the
 * error's name:
 *
 *   out of memory [kernels.cu:324: cudaMalloc(&d_addr, 32 * 4): cudaErrorMemoryAllocation]
 *   CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: counters need root or ... [counters.c:201: ...]
 *
 * (CUPTI's text is bs_cupti_reason's, which names causes a user can act
 * on.)  Then it leaves the calling function, in one of two ways:
 *
 *   - by default, the function has `char *why, size_t whylen` in scope
 *     and returns int: the line goes into why (when why is not NULL) and
 *     the function returns -1.  The caller decides what to print: the
 *     library style of counters.c and kernels.cu.
 *   - a standalone program defines BS_CHECK_PROGRAM as its name before
 *     including this file: the line goes to stderr as "NAME: line" and
 *     the program exits with status 1;
 *   - a file with its own way to fail defines BS_CHECK_FAIL(msg) before
 *     including this file, a statement that uses the line and leaves the
 *     function (the injection libraries: record msg as the reason they
 *     stopped collecting, return -1).
 *
 * A runtime that finds no driver says "CUDA driver version is
 * insufficient for CUDA runtime version", which reads as advice to
 * upgrade a driver that is not there: bs_cuda_error_text() says "no NVIDIA
 * driver: libcuda.so.1 cannot be loaded" instead, and keeps the runtime's
 * text where a driver is loaded.
 *
 * Header only (static inline functions), so a one-file program needs no
 * extra object; the CUDA headers come from the toolkit's include folder.
 */
#ifndef BANKSCOPE_CHECK_H
#define BANKSCOPE_CHECK_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

/* The last component of a path: __FILE__ without its folders. */
static inline const char *bs_check_file(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The runtime's text for e, except the misleading one described above. */
static inline const char *bs_cuda_error_text(cudaError_t e)
{
	void *h;

	if (e != cudaErrorInsufficientDriver && e != cudaErrorNoDevice)
		return cudaGetErrorString(e);
	h = dlopen("libcuda.so.1", RTLD_LAZY);
	if (!h)
		return "no NVIDIA driver: libcuda.so.1 cannot be loaded";
	dlclose(h);
	return cudaGetErrorString(e);
}

/* src into dst[size], cut to fit; nothing when dst is NULL or size 0. */
static inline void bs_check_copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (!dst || !size)
		return;
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* "TEXT [FILE:LINE: CALL: NAME]" into buf. */
static inline void bs_check_line(char *buf, size_t size, const char *file,
				 int line, const char *call, const char *name,
				 const char *text)
{
	snprintf(buf, size, "%s [%s:%d: %s: %s]", text, bs_check_file(file),
		 line, call, name);
}

static inline void bs_check_cuda_line(char *buf, size_t size,
				      const char *file, int line,
				      const char *call, cudaError_t e)
{
	bs_check_line(buf, size, file, line, call, cudaGetErrorName(e),
		      bs_cuda_error_text(e));
}

#ifdef CUDA_VERSION   /* <cuda.h>: the driver API */
/* The driver's name and text for r ("CUDA_ERROR_OUT_OF_MEMORY", "out of
 * memory"), looked up in the loaded libcuda: nothing links libcuda, and
 * after a failed driver call it is loaded.  Each stays NULL when it
 * cannot be had. */
static inline void bs_cu_error(CUresult r, const char **name,
			       const char **text)
{
	typedef CUresult (*lookup)(CUresult, const char **);
	static const char *const sym_name[2] = { "cuGetErrorName",
						 "cuGetErrorString" };
	const char **out[2] = { name, text };
	void *h = dlopen("libcuda.so.1", RTLD_LAZY);

	*name = *text = NULL;
	if (!h)
		return;
	for (int i = 0; i < 2; i++) {
		void *sym = dlsym(h, sym_name[i]);
		lookup fn;

		memcpy(&fn, &sym, sizeof fn);   /* void * to function pointer */
		if (fn && fn(r, out[i]) != CUDA_SUCCESS)
			*out[i] = NULL;
	}
	dlclose(h);   /* still loaded: the failed call came through it */
}

static inline void bs_check_cu_line(char *buf, size_t size, const char *file,
				    int line, const char *call, CUresult r)
{
	const char *name, *text;
	char num[48];

	bs_cu_error(r, &name, &text);
	snprintf(num, sizeof num, "CUresult %d", (int)r);
	bs_check_line(buf, size, file, line, call, name ? name : num,
		      text ? text : "CUDA driver error");
}
#endif

#ifdef __SANITIZER_RESULT_H__   /* <sanitizer.h>: the Sanitizer API */
/* The Sanitizer API names no result, it only describes it. */
static inline void bs_check_san_line(char *buf, size_t size, const char *file,
				     int line, const char *call,
				     SanitizerResult r)
{
	const char *text = NULL;
	char num[48];

	if (sanitizerGetResultString(r, &text) != SANITIZER_SUCCESS)
		text = NULL;
	snprintf(num, sizeof num, "SanitizerResult %d", (int)r);
	bs_check_line(buf, size, file, line, call, num,
		      text ? text : "Sanitizer error");
}
#endif

#if defined(BS_CHECK_FAIL)
#define BS_CHECK_FAILED_(msg) BS_CHECK_FAIL(msg)
#elif defined(BS_CHECK_PROGRAM)
#define BS_CHECK_FAILED_(msg)                                                \
	do {                                                                 \
		fprintf(stderr, "%s: %s\n", BS_CHECK_PROGRAM, (msg));        \
		exit(1);                                                     \
	} while (0)
#else
#define BS_CHECK_FAILED_(msg)                                                \
	do {                                                                 \
		bs_check_copy(why, whylen, (msg));                           \
		return -1;                                                   \
	} while (0)
#endif

/*
 * The one shape of the CHECK_ macros: call's result, of type T, unless it
 * is ok, becomes line_fn's message (file, line, the call as written:
 * text, stringified by the caller before expansion) and fails.
 */
#define BS_CHECK_(T, ok, line_fn, call, text)                               \
	do {                                                                 \
		T bs_r_ = (call);                                            \
		if (bs_r_ != (ok)) {                                         \
			char bs_m_[512];                                     \
			line_fn(bs_m_, sizeof bs_m_, __FILE__, __LINE__,     \
				text, bs_r_);                                \
			BS_CHECK_FAILED_(bs_m_);                             \
		}                                                            \
	} while (0)

#define CHECK_CUDA(call)                                                     \
	BS_CHECK_(cudaError_t, cudaSuccess, bs_check_cuda_line, call, #call)
#define CHECK_CU(call)                                                       \
	BS_CHECK_(CUresult, CUDA_SUCCESS, bs_check_cu_line, call, #call)
#define CHECK_CUPTI(call)                                                    \
	BS_CHECK_(CUptiResult, CUPTI_SUCCESS, bs_cupti_reason, call, #call)
#define CHECK_SAN(call)                                                      \
	BS_CHECK_(SanitizerResult, SANITIZER_SUCCESS, bs_check_san_line, call, \
		  #call)

#endif
