/*
 * check_macros.c - cudabase/check.h's macros, without a GPU (tests/build_test.sh).
 *
 * The calls are stand-ins that return a given error, so every failure
 * path runs here: each line printed is what the macro wrote into `why`.
 * Built with -DEXIT_MODE, BS_CHECK_PROGRAM is set and the first failing
 * CHECK_CUDA prints "check_macros: ..." on stderr and exits 1.
 */
#include <stdio.h>
#include <string.h>

#include <cuda.h>
#include <cupti_result.h>

#include "cupti_reason.h"
#ifdef EXIT_MODE
#define BS_CHECK_PROGRAM "check_macros"
#endif
#include "check.h"

static cudaError_t cuda_returns(cudaError_t e)
{
	return e;
}

#ifndef EXIT_MODE
static CUresult cu_returns(CUresult r)
{
	return r;
}

static CUptiResult cupti_returns(CUptiResult r)
{
	return r;
}

static int cuda(cudaError_t e, char *why, size_t whylen)
{
	CHECK_CUDA(cuda_returns(e));
	return 0;
}

static int cu(CUresult r, char *why, size_t whylen)
{
	CHECK_CU(cu_returns(r));
	return 0;
}

static int cupti(CUptiResult r, char *why, size_t whylen)
{
	CHECK_CUPTI(cupti_returns(r));
	return 0;
}

/* rc of a call that must fail: 1 when it did not; else 0, and the line
 * its macro wrote into why printed. */
static int missed(int rc, const char *why)
{
	if (rc != -1)
		return 1;
	printf("%s\n", why);
	return 0;
}

int main(void)
{
	char why[512], tiny[8];

	if (cuda(cudaSuccess, why, sizeof why) != 0 ||
	    cu(CUDA_SUCCESS, why, sizeof why) != 0 ||
	    cupti(CUPTI_SUCCESS, why, sizeof why) != 0)
		return 2;
	if (missed(cuda(cudaErrorMemoryAllocation, why, sizeof why), why) ||
	    missed(cuda(cudaErrorInsufficientDriver, why, sizeof why), why) ||
	    missed(cu(CUDA_ERROR_OUT_OF_MEMORY, why, sizeof why), why) ||
	    missed(cupti(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, why, sizeof why),
		   why))
		return 2;
	/* a short buffer is cut, NULL is left alone */
	if (cuda(cudaErrorMemoryAllocation, tiny, sizeof tiny) != -1 ||
	    cuda(cudaErrorMemoryAllocation, NULL, 0) != -1)
		return 2;
	printf("%s\n", tiny);
	return 0;
}
#else
int main(void)
{
	CHECK_CUDA(cuda_returns(cudaErrorMemoryAllocation));
	return 0;
}
#endif
