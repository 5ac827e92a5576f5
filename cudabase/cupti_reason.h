/*
 * cupti_reason.h - why a CUPTI call failed, in one line a user can act on.
 * Shared by the in-process counters (counters.c) and the injection
 * library (profiler/inject/inject.c), so both name the same causes the
 * same way: missing privileges, another profiler holding the counters, a
 * GPU the profiler does not support, libnvperf_host.so not loadable.
 */
#ifndef BANKSCOPE_CUPTI_REASON_H
#define BANKSCOPE_CUPTI_REASON_H

#include <stddef.h>

#include <cupti_result.h>

/* "REASON [file:line: call: CUPTI's name for r]" into buf. */
void bs_cupti_reason(char *buf, size_t size, const char *file, int line,
		     const char *call, CUptiResult r);
/* The last component of a path (__FILE__ in messages): check.h's
 * bs_check_file(), for files that do not include check.h. */
const char *bs_source_name(const char *path);

#endif
