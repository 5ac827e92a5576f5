/*
 * cupti_reason.c - CUPTI failures as one readable line (cupti_reason.h).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cupti_reason.h"

const char *bs_source_name(const char *path)
{
	return bs_check_file(path);
}

void bs_cupti_reason(char *buf, size_t size, const char *file, int line,
		     const char *call, CUptiResult r)
{
	const char *name = NULL, *reason;
	char where[320];

	if (cuptiGetResultString(r, &name) != CUPTI_SUCCESS || !name)
		name = "unknown CUPTI error";
	snprintf(where, sizeof where, "%s:%d: %s", bs_source_name(file), line,
		 call);
	switch (r) {
	case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
	case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
		reason = "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: counters need "
			 "root or NVreg_RestrictProfilingToAdminUsers=0 ";
		break;
	case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
	case CUPTI_ERROR_HARDWARE_BUSY:
	case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
		reason = "another profiler holds the counters (ncu, nsys, DCGM "
			 "or another CUPTI client) ";
		break;
	case CUPTI_ERROR_NOT_SUPPORTED:
	case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
	case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
	case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
	case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
	case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
	case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
	case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
	case CUPTI_ERROR_INVALID_CHIP_NAME:
		reason = "GPU not supported by CUPTI's profiler ";
		break;
	case CUPTI_ERROR_NOT_INITIALIZED:
		/* what cuptiProfilerInitialize says when libcupti cannot
		 * dlopen libnvperf_host.so (seen: a DT_RUNPATH only) */
		reason = "CUPTI profiler not initialized - is libnvperf_host.so "
			 "loadable? (link with -Wl,--disable-new-dtags,-rpath,"
			 "<cuda>/lib64 or set LD_LIBRARY_PATH) ";
		break;
	default:
		snprintf(buf, size, "%s: %s", where, name);
		return;
	}
	snprintf(buf, size, "%s[%s: %s]", reason, where, name);
}
