/*
 * inject.c - libbankscope_inject.so: per-instruction shared-memory counts
 * of an unmodified CUDA program, through CUPTI's injection mechanism and
 * its SASS Metrics API.  `bankscope profile` starts the program with
 * CUDA_INJECTION64_PATH naming this library and BANKSCOPE_PROFILE_DIR
 * naming an empty directory; libcuda loads the library at cuInit and calls
 * InitializeInjection().  Without BANKSCOPE_PROFILE_DIR it does nothing.
 *
 * Per instruction (GPU-wide totals, metric names without .sum):
 *   smsp__sass_inst_executed                               warp instructions
 *   smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared        wavefronts
 *   smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal  ideal wavefronts
 * SASS metrics are counted by patched code, not by the PM counters.
 *
 * Call order (NVIDIA's CUPTI sample sass_metrics, with collection moved
 * into callbacks):
 *   InitializeInjection: cuptiSubscribe; cuptiEnableCallback for the
 *     resource callbacks CONTEXT_CREATED, CONTEXT_DESTROY_STARTING,
 *     MODULE_LOADED and the runtime and driver launch callbacks;
 *     cuptiProfilerInitialize
 *   context created: once per device cuptiGetDeviceId,
 *     cuptiProfilerDeviceSupported (CUPTI_PROFILER_SASS_METRICS),
 *     cuptiDeviceGetChipName, cuptiSassMetricsGetNumOfMetrics,
 *     cuptiSassMetricsGetMetrics (the three must be listed),
 *     cuptiSassMetricsGetProperties per metric (its id),
 *     cuptiSassMetricsSetConfig (GPU granularity); then
 *     cuptiSassMetricsEnable (lazy patching) on the context
 *   module loaded: cuptiGetCubinCrc; the cubin to cubin-CRC.cubin
 *   launch exit (outermost of nested runtime/driver launch calls):
 *     cuCtxSynchronize; cuptiSassMetricsGetDataProperties;
 *     cuptiSassMetricsFlushData; one records.tsv line per (function, pc)
 *     and one launches.tsv line; cuptiSassMetricsDisable and
 *     cuptiSassMetricsEnable, so that every launch has a range of its own
 *   context destroy: flush what is left; cuptiSassMetricsDisable; with no
 *     other context of the device enabled, cuptiSassMetricsUnsetConfig
 * Every launch is synchronized, so a profiled program runs serialized.
 *
 * Files (formats in analyzer/bankscope.h, "per-instruction profiles"):
 * status.txt ("ok", or the first reason collection stopped, in the
 * wording of probes/counters.c), records.tsv, launches.tsv and the
 * cubins, appended to as the program runs and flushed after every launch,
 * so a crash keeps what ran.  Kernel names are demangled with the
 * process's own __cxa_demangle when it has one.
 *
 * Never harms the host program: every CUPTI failure is written to
 * status.txt and collection stops (the program runs on); nothing is
 * printed, nothing exits, InitializeInjection always returns 1.  libcuda
 * is not linked: cuCtxSynchronize comes from the libcuda that loaded us
 * (cuGetProcAddress).  Callbacks run under one recursive mutex.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuda.h>
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_runtime_cbid.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include "bankscope.h"

#define EXPORT __attribute__((visibility("default")))
#define NMETRICS 3
#define MAX_DEVICES 64
#define MAX_CONTEXTS 256
#define NO_METRIC UINT64_MAX

static const char *const metric_name[NMETRICS] = {
	"smsp__sass_inst_executed",
	"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
	"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
};

typedef CUresult (*ctx_sync_fn)(void);
typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

typedef struct {
	uint32_t crc, fidx, pc;
	const char *fn;
	uint64_t v[NMETRICS];
} pc_sum;

static struct {
	pthread_mutex_t lock;
	int active;                 /* collecting; 0 after the first failure */
	char dir[PATH_MAX - 32];
	FILE *records, *launches;
	CUpti_SubscriberHandle sub;
	struct {
		int configured;
		uint64_t id[NMETRICS];
	} dev[MAX_DEVICES];
	struct {
		CUcontext ctx;
		uint32_t dev;
	} on[MAX_CONTEXTS];         /* contexts with collection enabled */
	int non;
	unsigned long launch;       /* index of the next launch */
	char kernel[512];           /* of the launch in flight */
	ctx_sync_fn ctx_sync;
	demangle_fn demangle;
	int mode, lazy;
	FILE *log;
} g = { .active = 0 };

enum { MODE_ENABLE, MODE_NONE, MODE_CONFIG, MODE_LAUNCH };

static void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void trace(const char *fmt, ...)
{
	va_list ap;

	if (!g.log)
		return;
	va_start(ap, fmt);
	vfprintf(g.log, fmt, ap);
	va_end(ap);
	fputc('\n', g.log);
	fflush(g.log);
}

static _Thread_local int depth;   /* nesting of launch calls */

/* ---- errors ---------------------------------------------------------------- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void write_status(const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/status.txt", g.dir);
	if ((f = fopen(path, "w"))) {
		fprintf(f, "%s\n", text);
		fclose(f);
	}
}

static void stop(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Collection ends: the first reason goes to status.txt. */
static void stop(const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	if (!g.active)
		return;
	g.active = 0;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	write_status(why);
}

static void cupti_fail(const char *file, int line, const char *call,
		       CUptiResult r)
{
	const char *name = NULL;
	char where[320];

	if (cuptiGetResultString(r, &name) != CUPTI_SUCCESS || !name)
		name = "unknown CUPTI error";
	snprintf(where, sizeof where, "%s:%d: %s", base_name(file), line, call);
	switch (r) {
	case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
	case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
		stop("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: counters need root "
		     "or NVreg_RestrictProfilingToAdminUsers=0 [%s: %s]",
		     where, name);
		break;
	case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
	case CUPTI_ERROR_HARDWARE_BUSY:
	case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
		stop("another profiler holds the counters (ncu, nsys, DCGM or "
		     "another CUPTI client) [%s: %s]", where, name);
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
		stop("GPU not supported by CUPTI's profiler [%s: %s]", where,
		     name);
		break;
	case CUPTI_ERROR_NOT_INITIALIZED:
		stop("CUPTI profiler not initialized - is libnvperf_host.so "
		     "loadable? (link with -Wl,--disable-new-dtags,-rpath,"
		     "<cuda>/lib64 or set LD_LIBRARY_PATH) [%s: %s]", where,
		     name);
		break;
	default:
		stop("%s: %s", where, name);
		break;
	}
}

/* The one wrapper of every CUPTI call: on failure, stop collecting and
 * return -1 from the calling function. */
#define CHECK_CUPTI(call)                                                    \
	do {                                                                 \
		CUptiResult bs_r_ = (call);                                  \
		if (bs_r_ != CUPTI_SUCCESS) {                                \
			cupti_fail(__FILE__, __LINE__, #call, bs_r_);        \
			return -1;                                           \
		}                                                            \
	} while (0)

#define CHECK_CU(call)                                                       \
	do {                                                                 \
		CUresult bs_e_ = (call);                                     \
		if (bs_e_ != CUDA_SUCCESS) {                                 \
			stop("%s:%d: %s: CUDA driver error %d",              \
			     base_name(__FILE__), __LINE__, #call,           \
			     (int)bs_e_);                                    \
			return -1;                                           \
		}                                                            \
	} while (0)

/* ---- names and files -------------------------------------------------------- */

static void kernel_name(const char *mangled, char *buf, size_t size)
{
	char *d = NULL;
	int st = -1;

	if (!mangled || !*mangled)
		mangled = "?";
	if (g.demangle)
		d = g.demangle(mangled, NULL, NULL, &st);
	snprintf(buf, size, "%s", d && st == 0 ? d : mangled);
	free(d);
	for (char *p = buf; *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
}

static FILE *open_table(const char *name, const char *header)
{
	char path[PATH_MAX];
	int fd, fresh = 1;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", g.dir, name);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC,
		  0644);
	if (fd < 0 && errno == EEXIST) {
		fresh = 0;
		fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	}
	if (fd < 0 || !(f = fdopen(fd, "a"))) {
		if (fd >= 0)
			close(fd);
		stop("cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	if (fresh) {
		fprintf(f, "%s\n", header);
		fflush(f);
	}
	return f;
}

static void save_cubin(const CUpti_ModuleResourceData *m)
{
	CUpti_GetCubinCrcParams p;
	char path[PATH_MAX];
	const char *b = m->pCubin;
	size_t left = m->cubinSize;
	int fd;

	if (!b || !left)
		return;
	memset(&p, 0, sizeof p);
	p.size = CUpti_GetCubinCrcParamsSize;
	p.cubin = b;
	p.cubinSize = left;
	if (cuptiGetCubinCrc(&p) != CUPTI_SUCCESS)
		return;
	trace("module %u loaded: %zu bytes, crc %llu", m->moduleId, left,
	      (unsigned long long)p.cubinCrc);
	snprintf(path, sizeof path, "%s/cubin-%u.cubin", g.dir,
		 (uint32_t)p.cubinCrc);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	while (left) {
		ssize_t n = write(fd, b, left);

		if (n <= 0)
			break;
		b += n;
		left -= (size_t)n;
	}
	close(fd);
	if (left)
		unlink(path);
}

/* ---- SASS metrics ---------------------------------------------------------- */

static int configure(uint32_t dev)
{
	CUpti_Profiler_DeviceSupported_Params sup;
	CUpti_Device_GetChipName_Params chip;
	CUpti_SassMetrics_GetNumOfMetrics_Params num;
	CUpti_SassMetrics_GetMetrics_Params list;
	CUpti_SassMetrics_Config cfg[NMETRICS];
	CUpti_SassMetricsSetConfig_Params set;
	CUpti_SassMetrics_MetricDetails *all;
	int found[NMETRICS] = { 0 };

	if (dev >= MAX_DEVICES) {
		stop("device %u: more than %d devices", dev, MAX_DEVICES);
		return -1;
	}
	if (g.dev[dev].configured)
		return 0;
	memset(&sup, 0, sizeof sup);
	sup.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
	sup.cuDevice = (CUdevice)dev;
	sup.api = CUPTI_PROFILER_SASS_METRICS;
	CHECK_CUPTI(cuptiProfilerDeviceSupported(&sup));
	if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
		stop("GPU not supported by CUPTI's SASS metrics (device %u: "
		     "architecture %d, vGPU %d, confidential computing %d, "
		     "CMP %d, WSL %d)", dev, (int)sup.architecture,
		     (int)sup.vGpu, (int)sup.confidentialCompute,
		     (int)sup.cmp, (int)sup.wsl);
		return -1;
	}
	memset(&chip, 0, sizeof chip);
	chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
	chip.deviceIndex = dev;
	CHECK_CUPTI(cuptiDeviceGetChipName(&chip));

	memset(&num, 0, sizeof num);
	num.structSize = CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE;
	num.pChipName = chip.pChipName;
	CHECK_CUPTI(cuptiSassMetricsGetNumOfMetrics(&num));
	if (!(all = calloc(num.numOfMetrics + 1, sizeof *all))) {
		stop("out of memory");
		return -1;
	}
	memset(&list, 0, sizeof list);
	list.structSize = CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE;
	list.pChipName = chip.pChipName;
	list.numOfMetrics = num.numOfMetrics;
	list.pMetricsList = all;
	if (cuptiSassMetricsGetMetrics(&list) != CUPTI_SUCCESS) {
		free(all);
		CHECK_CUPTI(cuptiSassMetricsGetMetrics(&list));
	}
	for (size_t i = 0; i < num.numOfMetrics; i++)
		for (int m = 0; m < NMETRICS; m++)
			if (all[i].pMetricName &&
			    !strcmp(all[i].pMetricName, metric_name[m]))
				found[m] = 1;
	free(all);
	for (int m = 0; m < NMETRICS; m++)
		if (!found[m]) {
			stop("SASS metric '%s' is unknown to CUPTI for chip %s",
			     metric_name[m], chip.pChipName);
			return -1;
		}

	for (int m = 0; m < NMETRICS; m++) {
		CUpti_SassMetrics_GetProperties_Params prop;

		memset(&prop, 0, sizeof prop);
		prop.structSize =
			CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE;
		prop.pChipName = chip.pChipName;
		prop.pMetricName = metric_name[m];
		CHECK_CUPTI(cuptiSassMetricsGetProperties(&prop));
		g.dev[dev].id[m] = prop.metric.metricId;
		cfg[m].metricId = prop.metric.metricId;
		cfg[m].outputGranularity =
			CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
	}
	memset(&set, 0, sizeof set);
	set.structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE;
	set.numOfMetricConfig = NMETRICS;
	set.pConfigs = cfg;
	set.deviceIndex = dev;
	CHECK_CUPTI(cuptiSassMetricsSetConfig(&set));
	g.dev[dev].configured = 1;
	return 0;
}

static int unconfigure(uint32_t dev)
{
	CUpti_SassMetricsUnsetConfig_Params p;

	memset(&p, 0, sizeof p);
	p.structSize = CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE;
	p.deviceIndex = dev;
	g.dev[dev].configured = 0;
	CHECK_CUPTI(cuptiSassMetricsUnsetConfig(&p));
	return 0;
}

static int enable(CUcontext ctx)
{
	CUpti_SassMetricsEnable_Params p;

	memset(&p, 0, sizeof p);
	p.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE;
	p.ctx = ctx;
	p.enableLazyPatching = (uint8_t)g.lazy;
	trace("enable ctx %p lazy %d", (void *)ctx, g.lazy);
	CHECK_CUPTI(cuptiSassMetricsEnable(&p));
	return 0;
}

static int disable(CUcontext ctx)
{
	CUpti_SassMetricsDisable_Params p;

	memset(&p, 0, sizeof p);
	p.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE;
	p.ctx = ctx;
	CHECK_CUPTI(cuptiSassMetricsDisable(&p));
	trace("disable ctx %p dropped %zu", (void *)ctx, p.numOfDroppedRecords);
	return 0;
}

static int find_on(CUcontext ctx)
{
	for (int i = 0; i < g.non; i++)
		if (g.on[i].ctx == ctx)
			return i;
	return -1;
}

static int start_context(CUcontext ctx)
{
	uint32_t dev = 0;

	if (!ctx || find_on(ctx) >= 0)
		return 0;
	if (g.non == MAX_CONTEXTS) {
		stop("more than %d CUDA contexts", MAX_CONTEXTS);
		return -1;
	}
	CHECK_CUPTI(cuptiGetDeviceId(ctx, &dev));
	trace("context created %p device %u", (void *)ctx, dev);
	if (configure(dev) < 0 || (g.mode != MODE_LAUNCH && enable(ctx) < 0))
		return -1;
	g.on[g.non].ctx = ctx;
	g.on[g.non].dev = dev;
	g.non++;
	return 0;
}

static int by_pc(const void *a, const void *b)
{
	const pc_sum *x = a, *y = b;

	if (x->crc != y->crc)
		return x->crc < y->crc ? -1 : 1;
	if (x->fidx != y->fidx)
		return x->fidx < y->fidx ? -1 : 1;
	return (x->pc > y->pc) - (x->pc < y->pc);
}

/* Write the records of one launch, summed per (cubin, function, pc). */
static unsigned long write_records(const CUpti_SassMetrics_Data *d,
				   size_t nrec, size_t nval, const uint64_t *id,
				   pc_sum *sum)
{
	char kernel[4096] = "";
	const char *named = NULL;
	size_t n = 0;

	for (size_t r = 0; r < nrec; r++) {
		pc_sum *s = &sum[n++];

		memset(s, 0, sizeof *s);
		s->crc = d[r].cubinCrc;
		s->fidx = d[r].functionIndex;
		s->pc = d[r].pcOffset;
		s->fn = d[r].functionName ? d[r].functionName : "?";
		for (size_t k = 0; k < nval; k++)
			for (int m = 0; m < NMETRICS; m++)
				if (d[r].pInstanceValues[k].metricId == id[m])
					s->v[m] += d[r].pInstanceValues[k].value;
	}
	qsort(sum, n, sizeof *sum, by_pc);
	for (size_t i = 0, k = 0; i < n; i = k) {
		uint64_t v[NMETRICS] = { 0 };

		for (k = i; k < n && !by_pc(&sum[i], &sum[k]); k++)
			for (int m = 0; m < NMETRICS; m++)
				v[m] += sum[k].v[m];
		if (sum[i].fn != named && (!named || strcmp(sum[i].fn, named))) {
			kernel_name(sum[i].fn, kernel, sizeof kernel);
			named = sum[i].fn;
		}
		fprintf(g.records, "%s\t%lu\t%u\t%u\t%s\t0x%x\t%llu\t%llu\t%llu\n",
			kernel, g.launch, sum[i].crc, sum[i].fidx, sum[i].fn,
			sum[i].pc, (unsigned long long)v[0],
			(unsigned long long)v[1], (unsigned long long)v[2]);
	}
	return (unsigned long)n;
}

/* Collect what ran on ctx since the last flush; *nrec: records written. */
static int flush(CUcontext ctx, const uint64_t *id, unsigned long *written)
{
	CUpti_SassMetricsGetDataProperties_Params prop;
	CUpti_SassMetricsFlushData_Params fl;
	CUpti_SassMetrics_Data *d;
	CUpti_SassMetrics_InstanceValue *val;
	pc_sum *sum;
	size_t nrec, nval;
	CUptiResult r;

	*written = 0;
	memset(&prop, 0, sizeof prop);
	prop.structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE;
	prop.ctx = ctx;
	CHECK_CUPTI(cuptiSassMetricsGetDataProperties(&prop));
	nrec = prop.numOfPatchedInstructionRecords;
	trace("data properties: %zu records, %zu instances", nrec, prop.numOfInstances);
	if (!nrec || !prop.numOfInstances)
		return 0;
	/* room for every metric in each record's values, whichever way CUPTI
	 * lays them out; slots it leaves alone keep NO_METRIC */
	nval = prop.numOfInstances * NMETRICS;
	d = calloc(nrec, sizeof *d);
	val = malloc(nrec * nval * sizeof *val);
	sum = malloc(nrec * sizeof *sum);
	if (!d || !val || !sum) {
		free(d);
		free(val);
		free(sum);
		stop("out of memory for %zu SASS records", nrec);
		return -1;
	}
	for (size_t i = 0; i < nrec * nval; i++) {
		val[i].metricId = NO_METRIC;
		val[i].value = 0;
	}
	for (size_t i = 0; i < nrec; i++) {
		d[i].structSize = sizeof d[i];
		d[i].pInstanceValues = &val[i * nval];
	}
	memset(&fl, 0, sizeof fl);
	fl.structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;
	fl.ctx = ctx;
	fl.numOfPatchedInstructionRecords = nrec;
	fl.numOfInstances = prop.numOfInstances;
	fl.pMetricsData = d;
	r = cuptiSassMetricsFlushData(&fl);
	for (size_t i = 0; i < nrec && i < 6 && r == CUPTI_SUCCESS; i++) {
		trace("rec %zu crc %u fidx %u fn %s pc 0x%x", i, d[i].cubinCrc,
		      d[i].functionIndex, d[i].functionName, d[i].pcOffset);
		for (size_t k = 0; k < nval; k++)
			trace("   val %zu id %llu value %llu", k,
			      (unsigned long long)val[i * nval + k].metricId,
			      (unsigned long long)val[i * nval + k].value);
	}
	if (r == CUPTI_SUCCESS)
		*written = write_records(d, nrec, nval, id, sum);
	for (size_t i = 0; i < nrec; i++)
		free((void *)d[i].functionName);
	free(d);
	free(val);
	free(sum);
	CHECK_CUPTI(r);
	return 0;
}

/* ---- callbacks --------------------------------------------------------------- */

static int is_launch(CUpti_CallbackDomain dom, CUpti_CallbackId cbid)
{
	if (dom == CUPTI_CB_DOMAIN_DRIVER_API)
		switch (cbid) {
		case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
		case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
		case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
		case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
			return 1;
		default:
			return 0;
		}
	if (dom == CUPTI_CB_DOMAIN_RUNTIME_API)
		switch (cbid) {
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
		case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
		case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
		case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
			return 1;
		default:
			return 0;
		}
	return 0;
}

static int launch_end(CUcontext ctx)
{
	unsigned long n = 0;
	int i = find_on(ctx);

	if (i < 0)
		return 0;
	CHECK_CU(g.ctx_sync());
	if (flush(ctx, g.dev[g.on[i].dev].id, &n) < 0)
		return -1;
	fprintf(g.launches, "%lu\t%s\t%lu\n", g.launch, g.kernel, n);
	fflush(g.records);
	fflush(g.launches);
	trace("launch %lu %s: %lu records", g.launch, g.kernel, n);
	g.launch++;
	switch (g.mode) {
	case MODE_ENABLE:
		return disable(ctx) < 0 || enable(ctx) < 0 ? -1 : 0;
	case MODE_CONFIG:
		if (disable(ctx) < 0 || unconfigure(g.on[i].dev) < 0 ||
		    configure(g.on[i].dev) < 0 || enable(ctx) < 0)
			return -1;
		return 0;
	case MODE_LAUNCH:
		return disable(ctx);
	default:
		return 0;
	}
}

static int launch_begin(CUcontext ctx)
{
	if (find_on(ctx) < 0)
		return 0;
	CHECK_CU(g.ctx_sync());
	return enable(ctx);
}

static int context_end(CUcontext ctx)
{
	unsigned long n = 0;
	uint32_t dev;
	int i = find_on(ctx);

	if (i < 0)
		return 0;
	dev = g.on[i].dev;
	g.on[i] = g.on[--g.non];
	if (g.mode == MODE_LAUNCH)
		return 0;
	snprintf(g.kernel, sizeof g.kernel, "(at context destroy)");
	if (flush(ctx, g.dev[dev].id, &n) < 0)
		return -1;
	if (n) {
		fprintf(g.launches, "%lu\t%s\t%lu\n", g.launch, g.kernel, n);
		fflush(g.records);
		fflush(g.launches);
		g.launch++;
	}
	if (disable(ctx) < 0)
		return -1;
	for (i = 0; i < g.non; i++)
		if (g.on[i].dev == dev)
			return 0;
	return unconfigure(dev);
}

static void on_launch(const CUpti_CallbackData *cb)
{
	if (cb->callbackSite == CUPTI_API_ENTER) {
		if (depth++ == 0) {
			if (cb->symbolName)
				kernel_name(cb->symbolName, g.kernel,
					    sizeof g.kernel);
			else
				snprintf(g.kernel, sizeof g.kernel, "(%s)",
					 cb->functionName ? cb->functionName
							  : "launch");
			if (g.mode == MODE_LAUNCH)
				(void)launch_begin(cb->context);
		}
		return;
	}
	if (depth > 0 && --depth == 0)
		(void)launch_end(cb->context);
}

static void CUPTIAPI on_callback(void *user, CUpti_CallbackDomain dom,
				 CUpti_CallbackId cbid, const void *data)
{
	(void)user;
	pthread_mutex_lock(&g.lock);
	if (g.active && dom == CUPTI_CB_DOMAIN_RESOURCE) {
		const CUpti_ResourceData *rd = data;

		if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED)
			save_cubin(rd->resourceDescriptor);
		else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
			(void)start_context(rd->context);
		else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
			(void)context_end(rd->context);
	} else if (g.active && is_launch(dom, cbid)) {
		on_launch(data);
	}
	pthread_mutex_unlock(&g.lock);
}

/* ---- set-up ------------------------------------------------------------------ */

static int find_driver(void)
{
	CUresult (*get)(const char *, void **, int, cuuint64_t,
			CUdriverProcAddressQueryResult *);
	CUdriverProcAddressQueryResult q;
	void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
	void *sym, *fn = NULL;

	if (!h || !(sym = dlsym(h, "cuGetProcAddress_v2"))) {
		stop("libcuda.so.1 or its cuGetProcAddress_v2 not found in "
		     "the process");
		return -1;
	}
	memcpy(&get, &sym, sizeof sym);
	CHECK_CU(get("cuCtxSynchronize", &fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT,
		     &q));
	memcpy(&g.ctx_sync, &fn, sizeof fn);
	return 0;
}

static void find_demangler(void)
{
	void *sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	void *h;

	if (!sym && (h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_NOLOAD)))
		sym = dlsym(h, "__cxa_demangle");
	if (sym)
		memcpy(&g.demangle, &sym, sizeof sym);
}

static int subscribe(void)
{
	static const CUpti_CallbackId resource[] = {
		CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
		CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
		CUPTI_CBID_RESOURCE_MODULE_LOADED,
	};
	CUpti_Profiler_Initialize_Params init;

	CHECK_CUPTI(cuptiSubscribe(&g.sub, on_callback, NULL));
	for (size_t i = 0; i < sizeof resource / sizeof *resource; i++)
		CHECK_CUPTI(cuptiEnableCallback(1, g.sub,
						CUPTI_CB_DOMAIN_RESOURCE,
						resource[i]));
	for (CUpti_CallbackId c = 0; c < CUPTI_DRIVER_TRACE_CBID_SIZE; c++)
		if (is_launch(CUPTI_CB_DOMAIN_DRIVER_API, c))
			CHECK_CUPTI(cuptiEnableCallback(
				1, g.sub, CUPTI_CB_DOMAIN_DRIVER_API, c));
	for (CUpti_CallbackId c = 0; c < CUPTI_RUNTIME_TRACE_CBID_SIZE; c++)
		if (is_launch(CUPTI_CB_DOMAIN_RUNTIME_API, c))
			CHECK_CUPTI(cuptiEnableCallback(
				1, g.sub, CUPTI_CB_DOMAIN_RUNTIME_API, c));
	memset(&init, 0, sizeof init);
	init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
	CHECK_CUPTI(cuptiProfilerInitialize(&init));
	return 0;
}

EXPORT int InitializeInjection(void);

EXPORT int InitializeInjection(void)
{
	static int done;
	pthread_mutexattr_t a;
	const char *dir = getenv("BANKSCOPE_PROFILE_DIR");
	char path[PATH_MAX];
	int fd;

	if (done || !dir || !*dir || strlen(dir) >= sizeof g.dir)
		return 1;
	done = 1;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&g.lock, &a);
	pthread_mutexattr_destroy(&a);
	pthread_mutex_lock(&g.lock);
	snprintf(g.dir, sizeof g.dir, "%s", dir);
	g.active = 1;
	snprintf(path, sizeof path, "%s/status.txt", g.dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0) {
		(void)!write(fd, "ok\n", 3);
		close(fd);
	}
	find_demangler();
	{
		const char *e = getenv("BANKSCOPE_INJECT_MODE");

		g.mode = !e ? MODE_ENABLE : !strcmp(e, "none") ? MODE_NONE :
			 !strcmp(e, "config") ? MODE_CONFIG :
			 !strcmp(e, "launch") ? MODE_LAUNCH : MODE_ENABLE;
		e = getenv("BANKSCOPE_INJECT_LAZY");
		g.lazy = e ? atoi(e) : 1;
		if (getenv("BANKSCOPE_INJECT_LOG")) {
			snprintf(path, sizeof path, "%s/inject.log", g.dir);
			g.log = fopen(path, "a");
		}
		trace("mode %d lazy %d demangler %s", g.mode, g.lazy,
		      g.demangle ? "yes" : "no");
	}
	if ((g.records = open_table("records.tsv", BS_SASS_RECORD_COLUMNS)) &&
	    (g.launches = open_table("launches.tsv", BS_SASS_LAUNCH_COLUMNS)) &&
	    find_driver() == 0)
		(void)subscribe();
	pthread_mutex_unlock(&g.lock);
	return 1;
}
