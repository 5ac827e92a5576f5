/*
 * counters.c - see counters.h.  Plain C11 (gcc -std=c11 -Wall -Wextra
 * -Iprobes/cinclude -I/usr/local/cuda/include: no warning, -Wpedantic too).
 *
 * Call order follows NVIDIA's CUPTI sample range_profiling (CUDA 12.6+/13,
 * range_profiling.cu + range_profiling.h: RangeProfilerTarget and
 * CuptiProfilerHost), translated to C, with the per-batch loop of a user
 * replay collection:
 *
 *   open:  cudaFree(0); cuCtxGetCurrent; cuCtxGetDevice (driver entry
 *          points from cudaGetDriverEntryPointByVersion);
 *          cuptiProfilerInitialize; cuptiProfilerDeviceSupported;
 *          cuptiDeviceGetChipName;
 *          cuptiProfilerGetCounterAvailability (size, then image);
 *          cuptiProfilerHostInitialize; cuptiProfilerHostConfigAddMetrics
 *          [on failure: cuptiProfilerHostGetMetricProperties per metric, to
 *          name the bad one]; cuptiProfilerHostGetConfigImageSize;
 *          cuptiProfilerHostGetConfigImage;
 *          cuptiProfilerHostGetNumOfPasses (must be 1);
 *          cuptiRangeProfilerEnable; cuptiRangeProfilerGetCounterDataSize;
 *          cuptiRangeProfilerCounterDataImageInitialize;
 *          cuptiRangeProfilerSetConfig (UserRange, UserReplay,
 *          maxRangesPerPass = max_ranges, 1 nesting level, pass 0)
 *   begin: [first of a batch: cuptiRangeProfilerStart];
 *          cuptiRangeProfilerPushRange("<index>:<name>")
 *   end:   cuptiRangeProfilerPopRange
 *   flush: cuptiRangeProfilerStop (isAllPassSubmitted must be 1);
 *          cuptiRangeProfilerDecodeData (no range dropped);
 *          cuptiRangeProfilerGetCounterDataInfo (as many ranges as begun);
 *          per range: cuptiRangeProfilerCounterDataGetRangeInfo (index from
 *          the name) and cuptiProfilerHostEvaluateToGpuValues;
 *          cuptiRangeProfilerCounterDataImageInitialize (reset for the next
 *          batch, which starts with cuptiRangeProfilerStart again)
 *   close: [cuptiRangeProfilerPopRange; cuptiRangeProfilerStop];
 *          cuptiRangeProfilerDisable; cuptiProfilerHostDeinitialize;
 *          cuptiProfilerDeInitialize
 *   after a failed batch: [PopRange; Stop]; cuptiRangeProfilerDisable, and
 *          the next begin redoes Enable, GetCounterDataSize,
 *          CounterDataImageInitialize, SetConfig before Start.
 *
 * Checked on an H100 (GH100, CUDA 13.0, CUPTI API 130001, driver 580, as
 * root): exact wavefront / bank-conflict / instruction counts for a known
 * kernel over 30 batches of 16 ranges; open ~0.3 s, first batch ~0.16 s,
 * then ~1 ms per range (kernel launch and synchronize included).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cupti_result.h>
#include <cupti_version.h>
#include <cupti_target.h>
#include <cupti_profiler_target.h>
#include <cupti_profiler_host.h> /* includes <string>: -Iprobes/cinclude */
#include <cupti_range_profiler.h>

#include "check.h"
#include "counters.h"
#include "cupti_reason.h"

struct bs_counters {
    CUcontext ctx;
    CUdevice dev;
    char chip[64];

    int nmetrics;
    char **names;        /* owned copies of the metric names */
    const char **cnames; /* the same pointers, as CUPTI wants them */
    int max_ranges;

    int profiler_inited; /* cuptiProfilerInitialize succeeded */
    CUpti_Profiler_Host_Object *host;
    CUpti_RangeProfiler_Object *rp; /* non-NULL while enabled */

    uint8_t *avail;
    size_t avail_size;
    uint8_t *config;
    size_t config_size;
    uint8_t *cdata;
    size_t cdata_size;
    unsigned char *seen; /* max_ranges flags, used by flush */

    /* batch state */
    int need_enable;    /* rp disabled: Enable+image+SetConfig before Start */
    int started;        /* Start done for the current batch */
    int depth;          /* ranges pushed and not popped */
    int nranges;        /* ranges begun in this batch */
    int batch_failed;   /* a begin/end of this batch failed: see err */

    char err[512];
};

/* ------------------------------------------------------------------ */
/* error formatting                                                    */

static void set_why(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_why(char *why, size_t whylen, const char *fmt, ...)
{
    va_list ap;
    if (why == NULL || whylen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}

/* Driver API entry points, taken from the CUDA runtime
 * (cudaGetDriverEntryPointByVersion) rather than by linking libcuda: the
 * same driver functions on the same primary context, and a program linked
 * this way still starts, and reports "no CUDA device", on a machine with no
 * NVIDIA driver at all. */
typedef CUresult (*pfn_cuCtxGetCurrent)(CUcontext *);
typedef CUresult (*pfn_cuCtxGetDevice)(CUdevice *);

static int driver_entry(const char *symbol, void **fn, char *why, size_t whylen)
{
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    cudaError_t e;
    *fn = NULL;
    /* 12000: the ABI of these symbols as of CUDA 12.0 (unchanged since 4.0) */
    e = cudaGetDriverEntryPointByVersion(symbol, fn, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess || *fn == NULL || q != cudaDriverEntryPointSuccess) {
        set_why(why, whylen,
                "driver entry point %s not found [cudaGetDriverEntryPointByVersion: %s]",
                symbol, e != cudaSuccess ? cudaGetErrorName(e) : "not found");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* CUPTI steps, each through CHECK_CUPTI                               */

static int prof_initialize(bs_counters *c, char *why, size_t whylen)
{
    CUpti_Profiler_Initialize_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
    CHECK_CUPTI(cuptiProfilerInitialize(&p));
    c->profiler_inited = 1;
    return 0;
}

static int prof_device_supported(bs_counters *c, char *why, size_t whylen)
{
    CUpti_Profiler_DeviceSupported_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
    p.cuDevice = c->dev;
    p.api = CUPTI_PROFILER_RANGE_PROFILING;
    CHECK_CUPTI(cuptiProfilerDeviceSupported(&p));
    if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED ||
        p.isSupported == CUPTI_PROFILER_CONFIGURATION_DISABLED) {
        const char *what = "unknown reason";
        if (p.architecture == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            what = "architecture older than compute capability 7.5";
        else if (p.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED)
            what = "vGPU with profiling disabled";
        else if (p.vGpu == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            what = "vGPU";
        else if (p.confidentialCompute == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            what = "confidential computing on";
        else if (p.cmp == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            what = "crypto-mining processor";
        else if (p.sli == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            what = "SLI";
        else if (p.wsl == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            what = "WSL";
        set_why(why, whylen,
                "GPU not supported by CUPTI's profiler (%s; "
                "cuptiProfilerDeviceSupported)",
                what);
        return -1;
    }
    return 0;
}

static int prof_chip_name(bs_counters *c, char *why, size_t whylen)
{
    CUpti_Device_GetChipName_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
    p.deviceIndex = (size_t)c->dev;
    CHECK_CUPTI(cuptiDeviceGetChipName(&p));
    snprintf(c->chip, sizeof c->chip, "%s", p.pChipName ? p.pChipName : "");
    return 0;
}

static int prof_counter_availability(bs_counters *c, char *why, size_t whylen)
{
    CUpti_Profiler_GetCounterAvailability_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
    p.ctx = c->ctx;
    p.pCounterAvailabilityImage = NULL; /* first call: size only */
    CHECK_CUPTI(cuptiProfilerGetCounterAvailability(&p));
    c->avail_size = p.counterAvailabilityImageSize;
    c->avail = (uint8_t *)calloc(c->avail_size ? c->avail_size : 1, 1);
    if (c->avail == NULL) {
        set_why(why, whylen, "out of memory");
        return -1;
    }
    p.counterAvailabilityImageSize = c->avail_size;
    p.pCounterAvailabilityImage = c->avail;
    CHECK_CUPTI(cuptiProfilerGetCounterAvailability(&p));
    return 0;
}

static int host_initialize(bs_counters *c, char *why, size_t whylen)
{
    CUpti_Profiler_Host_Initialize_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = c->chip;
    p.pCounterAvailabilityImage = c->avail;
    CHECK_CUPTI(cuptiProfilerHostInitialize(&p));
    c->host = p.pHostObject;
    return 0;
}

static int host_add_metrics(bs_counters *c, char *why, size_t whylen)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
    p.pHostObject = c->host;
    p.ppMetricNames = c->cnames;
    p.numMetrics = (size_t)c->nmetrics;
    CHECK_CUPTI(cuptiProfilerHostConfigAddMetrics(&p));
    return 0;
}

/* Failure path only: is metric i known for this chip? */
static int host_metric_known(bs_counters *c, int i, char *why, size_t whylen)
{
    CUpti_Profiler_Host_GetMetricProperties_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
    p.pHostObject = c->host;
    p.pMetricName = c->cnames[i];
    CHECK_CUPTI(cuptiProfilerHostGetMetricProperties(&p));
    return 0;
}

static int host_config_image(bs_counters *c, char *why, size_t whylen)
{
    CUpti_Profiler_Host_GetConfigImageSize_Params s;
    CUpti_Profiler_Host_GetConfigImage_Params g;

    memset(&s, 0, sizeof s);
    s.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
    s.pHostObject = c->host;
    CHECK_CUPTI(cuptiProfilerHostGetConfigImageSize(&s));
    c->config_size = s.configImageSize;
    c->config = (uint8_t *)calloc(c->config_size ? c->config_size : 1, 1);
    if (c->config == NULL) {
        set_why(why, whylen, "out of memory");
        return -1;
    }

    memset(&g, 0, sizeof g);
    g.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
    g.pHostObject = c->host;
    g.configImageSize = c->config_size;
    g.pConfigImage = c->config;
    CHECK_CUPTI(cuptiProfilerHostGetConfigImage(&g));
    return 0;
}

static int host_num_passes(bs_counters *c, size_t *passes, char *why,
                           size_t whylen)
{
    CUpti_Profiler_Host_GetNumOfPasses_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
    p.configImageSize = c->config_size;
    p.pConfigImage = c->config;
    CHECK_CUPTI(cuptiProfilerHostGetNumOfPasses(&p));
    *passes = p.numOfPasses;
    return 0;
}

static int host_deinitialize(bs_counters *c, char *why, size_t whylen)
{
    CUpti_Profiler_Host_Deinitialize_Params p;
    if (c->host == NULL)
        return 0;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
    p.pHostObject = c->host;
    c->host = NULL;
    CHECK_CUPTI(cuptiProfilerHostDeinitialize(&p));
    return 0;
}

static int prof_deinitialize(bs_counters *c, char *why, size_t whylen)
{
    CUpti_Profiler_DeInitialize_Params p;
    if (!c->profiler_inited)
        return 0;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE;
    c->profiler_inited = 0;
    CHECK_CUPTI(cuptiProfilerDeInitialize(&p));
    return 0;
}

static int rp_enable(bs_counters *c, char *why, size_t whylen)
{
    CUpti_RangeProfiler_Enable_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    p.ctx = c->ctx;
    CHECK_CUPTI(cuptiRangeProfilerEnable(&p));
    c->rp = p.pRangeProfilerObject;
    return 0;
}

static int rp_disable(bs_counters *c, char *why, size_t whylen)
{
    CUpti_RangeProfiler_Disable_Params p;
    if (c->rp == NULL)
        return 0;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = c->rp;
    c->rp = NULL;
    c->need_enable = 1;
    CHECK_CUPTI(cuptiRangeProfilerDisable(&p));
    return 0;
}

/* Size the counter data image for max_ranges ranges (allocating it the
 * first time, or again if the size changed). */
static int rp_counter_data_size(bs_counters *c, char *why, size_t whylen)
{
    CUpti_RangeProfiler_GetCounterDataSize_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = c->rp;
    p.pMetricNames = c->cnames;
    p.numMetrics = (size_t)c->nmetrics;
    p.maxNumOfRanges = (size_t)c->max_ranges;
    p.maxNumRangeTreeNodes = (uint32_t)c->max_ranges;
    CHECK_CUPTI(cuptiRangeProfilerGetCounterDataSize(&p));
    if (c->cdata == NULL || c->cdata_size != p.counterDataSize) {
        free(c->cdata);
        c->cdata_size = p.counterDataSize;
        c->cdata = (uint8_t *)calloc(c->cdata_size ? c->cdata_size : 1, 1);
        if (c->cdata == NULL) {
            set_why(why, whylen, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* Initialize (or reset) the counter data image. */
static int rp_counter_data_init(bs_counters *c, char *why, size_t whylen)
{
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = c->rp;
    p.counterDataSize = c->cdata_size;
    p.pCounterData = c->cdata;
    CHECK_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&p));
    return 0;
}

static int rp_set_config(bs_counters *c, char *why, size_t whylen)
{
    CUpti_RangeProfiler_SetConfig_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = c->rp;
    p.configSize = c->config_size;
    p.pConfig = c->config;
    p.counterDataImageSize = c->cdata_size;
    p.pCounterDataImage = c->cdata;
    p.range = CUPTI_UserRange;
    p.replayMode = CUPTI_UserReplay;
    p.maxRangesPerPass = (size_t)c->max_ranges;
    p.numNestingLevels = 1;
    p.minNestingLevel = 1;
    p.passIndex = 0;
    p.targetNestingLevel = 1;
    CHECK_CUPTI(cuptiRangeProfilerSetConfig(&p));
    return 0;
}

static int rp_start(bs_counters *c, char *why, size_t whylen)
{
    CUpti_RangeProfiler_Start_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = c->rp;
    CHECK_CUPTI(cuptiRangeProfilerStart(&p));
    c->started = 1;
    return 0;
}

static int rp_stop(bs_counters *c, int *all_submitted, char *why, size_t whylen)
{
    CUpti_RangeProfiler_Stop_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = c->rp;
    c->started = 0;
    CHECK_CUPTI(cuptiRangeProfilerStop(&p));
    *all_submitted = p.isAllPassSubmitted != 0;
    return 0;
}

static int rp_push(bs_counters *c, const char *name, char *why, size_t whylen)
{
    CUpti_RangeProfiler_PushRange_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = c->rp;
    p.pRangeName = name;
    CHECK_CUPTI(cuptiRangeProfilerPushRange(&p));
    c->depth++;
    return 0;
}

static int rp_pop(bs_counters *c, char *why, size_t whylen)
{
    CUpti_RangeProfiler_PopRange_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = c->rp;
    c->depth--;
    CHECK_CUPTI(cuptiRangeProfilerPopRange(&p));
    return 0;
}

static int rp_decode(bs_counters *c, size_t *dropped, char *why, size_t whylen)
{
    CUpti_RangeProfiler_DecodeData_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = c->rp;
    CHECK_CUPTI(cuptiRangeProfilerDecodeData(&p));
    *dropped = p.numOfRangeDropped;
    return 0;
}

static int rp_num_ranges(bs_counters *c, size_t *n, char *why, size_t whylen)
{
    CUpti_RangeProfiler_GetCounterDataInfo_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
    p.pCounterDataImage = c->cdata;
    p.counterDataImageSize = c->cdata_size;
    CHECK_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&p));
    *n = p.numTotalRanges;
    return 0;
}

/* Name of range r in the decoded counter data (storage owned by CUPTI, as
 * in NVIDIA's sample, which copies it and frees nothing). */
static int rp_range_name(bs_counters *c, size_t r, const char **name,
                         char *why, size_t whylen)
{
    CUpti_RangeProfiler_CounterData_GetRangeInfo_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE;
    p.pCounterDataImage = c->cdata;
    p.counterDataImageSize = c->cdata_size;
    p.rangeIndex = r;
    p.rangeDelimiter = "/";
    CHECK_CUPTI(cuptiRangeProfilerCounterDataGetRangeInfo(&p));
    *name = p.rangeName;
    return 0;
}

static int host_evaluate(bs_counters *c, size_t range, double *out, char *why,
                         size_t whylen)
{
    CUpti_Profiler_Host_EvaluateToGpuValues_Params p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
    p.pHostObject = c->host;
    p.pCounterDataImage = c->cdata;
    p.counterDataImageSize = c->cdata_size;
    p.rangeIndex = range;
    p.ppMetricNames = c->cnames;
    p.numMetrics = (size_t)c->nmetrics;
    p.pMetricValues = out;
    CHECK_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&p));
    return 0;
}

static int get_version(uint32_t *v, char *why, size_t whylen)
{
    CHECK_CUPTI(cuptiGetVersion(v));
    return 0;
}

/* ------------------------------------------------------------------ */
/* set-up of the range profiler object: Enable, counter data image,    */
/* SetConfig - the part that can be redone between batches            */

static int rp_bring_up(bs_counters *c, char *why, size_t whylen)
{
    if (rp_enable(c, why, whylen) != 0)
        return -1;
    c->need_enable = 0;
    if (rp_counter_data_size(c, why, whylen) != 0)
        return -1;
    if (rp_counter_data_init(c, why, whylen) != 0)
        return -1;
    if (rp_set_config(c, why, whylen) != 0)
        return -1;
    return 0;
}

/* After a batch was decoded and evaluated: make the object ready for the
 * next batch.  Resetting the counter data image is needed and enough: the
 * next cuptiRangeProfilerStart begins a new pass with the same SetConfig
 * (checked on an H100, CUDA 13.0, driver 580: without the reset the ranges
 * of the batches accumulate in the image; SetConfig again, or Disable and
 * Enable, also work but are not needed - the latter costs ~0.17 s a batch). */
static int batch_reset(bs_counters *c, char *why, size_t whylen)
{
    c->nranges = 0;
    c->depth = 0;
    c->batch_failed = 0;
    return rp_counter_data_init(c, why, whylen);
}

/* After a failure inside a batch: drop it, leave the profiler disabled so
 * the next begin rebuilds it from scratch.  Best effort, no reason kept. */
static void batch_abort(bs_counters *c)
{
    char why[256];
    size_t whylen = sizeof why;
    int all = 0;
    while (c->rp != NULL && c->depth > 0)
        (void)rp_pop(c, why, whylen);
    if (c->rp != NULL && c->started)
        (void)rp_stop(c, &all, why, whylen);
    (void)rp_disable(c, why, whylen);
    c->started = 0;
    c->depth = 0;
    c->nranges = 0;
    c->batch_failed = 0;
    c->need_enable = 1;
}

/* ------------------------------------------------------------------ */
/* public API                                                          */

static void free_all(bs_counters *c)
{
    int i;
    if (c->names != NULL)
        for (i = 0; i < c->nmetrics; i++)
            free(c->names[i]);
    free(c->names);
    free(c->cnames);
    free(c->avail);
    free(c->config);
    free(c->cdata);
    free(c->seen);
    free(c);
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

static int open_impl(bs_counters *c, const char *const *metrics, char *why,
                     size_t whylen)
{
    size_t passes = 0;
    int i;
    void *fn_cur = NULL, *fn_dev = NULL;
    pfn_cuCtxGetCurrent cu_ctx_get_current;
    pfn_cuCtxGetDevice cu_ctx_get_device;

    for (i = 0; i < c->nmetrics; i++) {
        if (metrics[i] == NULL || metrics[i][0] == '\0') {
            set_why(why, whylen, "bs_counters_open: empty metric name");
            return -1;
        }
        c->names[i] = copy_string(metrics[i]);
        if (c->names[i] == NULL) {
            set_why(why, whylen, "out of memory");
            return -1;
        }
        c->cnames[i] = c->names[i];
    }

    /* the runtime's primary context of the current device */
    CHECK_CUDA(cudaFree(0));
    if (driver_entry("cuCtxGetCurrent", &fn_cur, why, whylen) != 0 ||
        driver_entry("cuCtxGetDevice", &fn_dev, why, whylen) != 0)
        return -1;
    /* void* to function pointer, as for dlsym (memcpy keeps -Wpedantic quiet) */
    memcpy(&cu_ctx_get_current, &fn_cur, sizeof fn_cur);
    memcpy(&cu_ctx_get_device, &fn_dev, sizeof fn_dev);
    CHECK_CU(cu_ctx_get_current(&c->ctx));
    if (c->ctx == NULL) {
        set_why(why, whylen,
                "no current CUDA context after cudaFree(0)");
        return -1;
    }
    CHECK_CU(cu_ctx_get_device(&c->dev));

    if (prof_initialize(c, why, whylen) != 0)
        return -1;
    if (prof_device_supported(c, why, whylen) != 0)
        return -1;
    if (prof_chip_name(c, why, whylen) != 0)
        return -1;
    if (prof_counter_availability(c, why, whylen) != 0)
        return -1;

    /* host side: config image (CuptiProfilerHost::SetUp + CreateConfigImage) */
    if (host_initialize(c, why, whylen) != 0)
        return -1;
    if (host_add_metrics(c, why, whylen) != 0) {
        /* it says CUPTI_ERROR_INVALID_PARAMETER for an unknown name (seen
         * on GH100): name the culprit */
        char tmp[256];
        for (i = 0; i < c->nmetrics; i++) {
            if (host_metric_known(c, i, tmp, sizeof tmp) != 0) {
                set_why(why, whylen,
                        "metric '%s' is unknown to CUPTI for chip %s [%s]",
                        c->cnames[i], c->chip, tmp);
                break;
            }
        }
        return -1;
    }
    if (host_config_image(c, why, whylen) != 0)
        return -1;
    if (host_num_passes(c, &passes, why, whylen) != 0)
        return -1;
    if (passes != 1) {
        set_why(why, whylen,
                "the metrics need %zu passes on %s; counters are collected in "
                "one pass only (ask for fewer metrics)",
                passes, c->chip);
        return -1;
    }

    /* target side: RangeProfilerTarget Enable, CreateCounterDataImage,
     * SetConfig */
    if (rp_bring_up(c, why, whylen) != 0)
        return -1;
    return 0;
}

int bs_counters_passes(const char *chip, const char *const *metrics,
                       int nmetrics, size_t *passes, char *why, size_t whylen)
{
    bs_counters c;
    int rc = -1;

    memset(&c, 0, sizeof c);
    snprintf(c.chip, sizeof c.chip, "%s", chip);
    c.cnames = (const char **)metrics;
    c.nmetrics = nmetrics;
    if (host_initialize(&c, why, whylen) != 0)
        return -1;
    if (host_add_metrics(&c, why, whylen) != 0) {
        for (int i = 0; i < nmetrics; i++)
            if (host_metric_known(&c, i, NULL, 0) != 0) {
                set_why(why, whylen, "metric '%s' is unknown to CUPTI for "
                        "chip %s", metrics[i], chip);
                break;
            }
    } else if (host_config_image(&c, why, whylen) == 0 &&
               host_num_passes(&c, passes, why, whylen) == 0) {
        rc = 0;
    }
    free(c.config);
    host_deinitialize(&c, NULL, 0);
    return rc;
}

int bs_counters_chip(char *chip, size_t size, char *why, size_t whylen)
{
    pfn_cuCtxGetDevice cu_ctx_get_device;
    void *fn_dev;
    bs_counters c;
    CUpti_Profiler_DeInitialize_Params d;

    memset(&c, 0, sizeof c);
    CHECK_CUDA(cudaFree(0));
    if (driver_entry("cuCtxGetDevice", &fn_dev, why, whylen) != 0)
        return -1;
    memcpy(&cu_ctx_get_device, &fn_dev, sizeof fn_dev);
    CHECK_CU(cu_ctx_get_device(&c.dev));
    if (prof_initialize(&c, why, whylen) != 0)
        return -1;
    if (prof_chip_name(&c, why, whylen) != 0)
        return -1;
    memset(&d, 0, sizeof d);
    d.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE;
    CHECK_CUPTI(cuptiProfilerDeInitialize(&d));
    snprintf(chip, size, "%s", c.chip);
    return 0;
}

int bs_counters_list(const char *chip,
                     void (*fn)(const char *type, const char *name, void *arg),
                     void *arg, char *why, size_t whylen)
{
    static const char *const types[] = { "counter", "ratio", "throughput" };
    bs_counters c;
    int rc = 0;

    memset(&c, 0, sizeof c);
    snprintf(c.chip, sizeof c.chip, "%s", chip);
    if (host_initialize(&c, why, whylen) != 0)
        return -1;
    for (int t = 0; t < 3 && rc == 0; t++) {
        CUpti_Profiler_Host_GetBaseMetrics_Params p;
        CUptiResult r;

        memset(&p, 0, sizeof p);
        p.structSize = CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE;
        p.pHostObject = c.host;
        p.metricType = (CUpti_MetricType)t;
        r = cuptiProfilerHostGetBaseMetrics(&p);
        if (r != CUPTI_SUCCESS) {
            if (why != NULL && whylen > 0)
                bs_cupti_reason(why, whylen, __FILE__, __LINE__,
                                "cuptiProfilerHostGetBaseMetrics", r);
            rc = -1;
            break;
        }
        for (size_t i = 0; i < p.numMetrics; i++)
            fn(types[t], p.ppMetricNames[i], arg);
    }
    host_deinitialize(&c, NULL, 0);
    return rc;
}

int bs_counters_open(bs_counters **out, const char *const *metrics, int nmetrics,
                     int max_ranges, char *why, size_t whylen)
{
    bs_counters *c;

    if (why != NULL && whylen > 0)
        why[0] = '\0';
    if (out == NULL) {
        set_why(why, whylen, "bs_counters_open: out is NULL");
        return -1;
    }
    *out = NULL;
    if (metrics == NULL || nmetrics <= 0 || max_ranges <= 0) {
        set_why(why, whylen,
                "bs_counters_open: need at least one metric and max_ranges > 0");
        return -1;
    }
    c = (bs_counters *)calloc(1, sizeof *c);
    if (c == NULL) {
        set_why(why, whylen, "out of memory");
        return -1;
    }
    c->nmetrics = nmetrics;
    c->max_ranges = max_ranges;
    c->names = (char **)calloc((size_t)nmetrics, sizeof *c->names);
    c->cnames = (const char **)calloc((size_t)nmetrics, sizeof *c->cnames);
    c->seen = (unsigned char *)calloc((size_t)max_ranges, 1);
    if (c->names == NULL || c->cnames == NULL || c->seen == NULL) {
        free_all(c);
        set_why(why, whylen, "out of memory");
        return -1;
    }
    if (open_impl(c, metrics, why, whylen) != 0) {
        bs_counters_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

int bs_counters_begin(bs_counters *c, const char *range_name)
{
    char *why;
    size_t whylen;
    char tagged[256];

    if (c == NULL)
        return -1;
    why = c->err;
    whylen = sizeof c->err;
    if (c->batch_failed)
        return -1; /* keep the first reason; flush reports it */
    if (c->depth != 0) {
        set_why(why, whylen,
                "bs_counters_begin: previous range not ended (nesting is not "
                "supported)");
        c->batch_failed = 1;
        return -1;
    }
    if (c->nranges >= c->max_ranges) {
        set_why(why, whylen,
                "bs_counters_begin: more ranges than max_ranges in one batch; "
                "flush first");
        c->batch_failed = 1;
        return -1;
    }
    if (!c->started) {
        if (c->need_enable && rp_bring_up(c, why, whylen) != 0)
            goto fail;
        if (rp_start(c, why, whylen) != 0)
            goto fail;
    }
    /* CUPTI merges ranges of the same name within a pass (seen on GH100:
     * 16 pushes of 3 names gave 3 ranges), so every range gets its index in
     * the batch as a prefix; flush maps the results back by that index. */
    snprintf(tagged, sizeof tagged, "%d:%s", c->nranges,
             range_name ? range_name : "");
    if (rp_push(c, tagged, why, whylen) != 0)
        goto fail;
    c->nranges++;
    return 0;
fail:
    c->batch_failed = 1;
    return -1;
}

int bs_counters_end(bs_counters *c)
{
    char *why;
    size_t whylen;

    if (c == NULL)
        return -1;
    why = c->err;
    whylen = sizeof c->err;
    if (c->batch_failed)
        return -1;
    if (c->depth <= 0) {
        set_why(why, whylen, "bs_counters_end: no open range");
        c->batch_failed = 1;
        return -1;
    }
    if (rp_pop(c, why, whylen) != 0) {
        c->batch_failed = 1;
        return -1;
    }
    return 0;
}

int bs_counters_flush(bs_counters *c, double *values, int *nranges, char *why,
                      size_t whylen)
{
    int all = 0;
    size_t dropped = 0, n = 0, r;

    if (why != NULL && whylen > 0)
        why[0] = '\0';
    if (nranges != NULL)
        *nranges = 0;
    if (c == NULL || nranges == NULL) {
        set_why(why, whylen, "bs_counters_flush: NULL argument");
        return -1;
    }
    if (c->batch_failed) {
        set_why(why, whylen, "%s", c->err);
        batch_abort(c);
        return -1;
    }
    if (c->depth != 0) {
        set_why(why, whylen, "bs_counters_flush: a range is still open");
        batch_abort(c);
        return -1;
    }
    if (!c->started)
        return 0; /* empty batch */
    if (values == NULL && c->nranges > 0) {
        set_why(why, whylen, "bs_counters_flush: values is NULL");
        batch_abort(c);
        return -1;
    }

    if (rp_stop(c, &all, why, whylen) != 0)
        goto fail;
    if (!all) {
        set_why(why, whylen,
                "cuptiRangeProfilerStop: not all passes submitted after one "
                "pass (the configuration needs replay)");
        goto fail;
    }
    if (rp_decode(c, &dropped, why, whylen) != 0)
        goto fail;
    if (dropped != 0) {
        set_why(why, whylen,
                "cuptiRangeProfilerDecodeData: %zu of %d ranges dropped",
                dropped, c->nranges);
        goto fail;
    }
    if (rp_num_ranges(c, &n, why, whylen) != 0)
        goto fail;
    if (n != (size_t)c->nranges) {
        set_why(why, whylen,
                "bs_counters_flush: %zu ranges in the counter data, %d begun",
                n, c->nranges);
        goto fail;
    }
    memset(c->seen, 0, (size_t)c->max_ranges);
    for (r = 0; r < n; r++) {
        const char *name = NULL;
        char *end = NULL;
        long idx;
        if (rp_range_name(c, r, &name, why, whylen) != 0)
            goto fail;
        idx = name ? strtol(name, &end, 10) : -1;
        if (name == NULL || end == name || *end != ':' || idx < 0 ||
            idx >= c->nranges || c->seen[idx]) {
            set_why(why, whylen,
                    "bs_counters_flush: unexpected range name '%s' at index %zu",
                    name ? name : "(null)", r);
            goto fail;
        }
        c->seen[idx] = 1;
        if (host_evaluate(c, r, values + (size_t)idx * (size_t)c->nmetrics,
                          why, whylen) != 0)
            goto fail;
    }
    if (batch_reset(c, why, whylen) != 0)
        goto fail;
    *nranges = (int)n;
    return 0;
fail:
    if (why != NULL && whylen > 0)
        snprintf(c->err, sizeof c->err, "%s", why);
    batch_abort(c);
    return -1;
}

void bs_counters_close(bs_counters *c)
{
    char why[256];
    size_t whylen = sizeof why;
    int all = 0;

    if (c == NULL)
        return;
    while (c->rp != NULL && c->depth > 0)
        (void)rp_pop(c, why, whylen);
    if (c->rp != NULL && c->started)
        (void)rp_stop(c, &all, why, whylen);
    (void)rp_disable(c, why, whylen);
    (void)host_deinitialize(c, why, whylen);
    (void)prof_deinitialize(c, why, whylen);
    free_all(c);
}

const char *bs_counters_version(void)
{
    static char buf[96];
    char why[256];
    size_t whylen = sizeof why;
    uint32_t v = 0;

    if (get_version(&v, why, whylen) != 0) {
        snprintf(buf, sizeof buf, "CUPTI (version unknown)");
        return buf;
    }
    if (v >= 100000u) /* CUDA 13+: xxyyzz */
        snprintf(buf, sizeof buf, "CUPTI %u.%u (API %u)", v / 10000u,
                 (v / 100u) % 100u, v);
    else
        snprintf(buf, sizeof buf, "CUPTI (API %u)", v);
    return buf;
}

const char *bs_counters_last_error(const bs_counters *c)
{
    return c ? c->err : "bs_counters: NULL object";
}
