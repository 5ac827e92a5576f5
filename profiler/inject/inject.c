/*
 * inject.c - libbankscope_inject.so: per-instruction shared-memory counts
 * of an unmodified CUDA program, through CUPTI's injection mechanism and
 * its SASS Metrics API.  `bankscope profile` starts the program with
 * CUDA_INJECTION64_PATH naming this library and BANKSCOPE_PROFILE_DIR an
 * existing directory; libcuda loads the library at cuInit and calls
 * InitializeInjection().  Without BANKSCOPE_PROFILE_DIR it does nothing.
 * BANKSCOPE_INJECT_LOG=1 adds a trace of the calls, inject.log.
 *
 * Per instruction (GPU-wide sums, names without .sum):
 *   smsp__sass_inst_executed                               warp instructions
 *   smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared        wavefronts
 *   smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal  ideal wavefronts
 * SASS metrics are counted by patched code, not by the PM counters.
 *
 * The window.  Collection is enabled before the first selected launch
 * and stays enabled until the window closes: at the exit of the last
 * selected launch, when the context is destroyed, or at exit (an atexit
 * handler registered here runs before the CUDA runtime's teardown).
 * Selection (optional, read by ../select.h): BANKSCOPE_PROFILE_KERNEL, a
 * POSIX extended regular expression matched against the demangled kernel
 * name; BANKSCOPE_PROFILE_SKIP, the matching launches to let pass first;
 * BANKSCOPE_PROFILE_COUNT, the matching launches to measure.  Without a
 * selection collection is enabled when the context is created; with one,
 * at the entry of the first selected launch, after cuCtxSynchronize.
 * Records carry the cubin CRC, the function and the pc, so kernels stay
 * apart.
 *
 * Which launches count: BANKSCOPE_PROFILE_LAUNCH.  "first" (what
 * `bankscope profile` asks by default): the first selected launch of
 * each kernel; at its exit the context is synchronized and the records
 * flushed, and the lines of that kernel are written with the launch's
 * index, the others of that flush dropped (repeated launches of kernels
 * measured already).  "all" (or unset): every selected launch; without a
 * selection one drain at the end sums every launch of the window, with
 * one each launch in the window is flushed at its exit and only a
 * selected one's lines are kept.  Records of a kernel that no launch
 * callback named (a graph's kernels) are kept from the first flush that
 * has them, with launch "-".
 *
 * Every kernel in one run.  CUPTI 13.0 patches every kernel of the window
 * only when a subscriber enables CUPTI_CBID_RESOURCE_MODULE_PROFILED (the
 * resource callback it issues as it finishes patching a module); without
 * it, it returned records for the first kernel launched after
 * cuptiSassMetricsEnable alone, whatever the call sequence
 * (data/h100-sxm/profile-explore-20261124; ../shared/evidence/
 * cupti-one-run, a plain program: one callback id decides it).  So it is
 * enabled; BANKSCOPE_INJECT_MODULE_PROFILED=0 leaves it off, which brings
 * back one kernel per process and `bankscope profile`'s reruns (kept for
 * the comparison in scripts/profile-bench.sh).  BANKSCOPE_INJECT_LAZY=0
 * enables without lazy patching; BANKSCOPE_INJECT_SASS=0 never enables
 * the SASS metrics (launches listed, nothing measured: an experiment's
 * control).
 *
 * The device.  The first process in the directory writes device.txt: the
 * compute capability and the name of the measured context's device
 * ("9.0<TAB>NVIDIA H100 80GB HBM3"), so the report can pick the
 * architecture's profile.
 *
 * Call order (NVIDIA's CUPTI sample sass_metrics, moved into callbacks):
 *   InitializeInjection: cuptiSubscribe; cuptiEnableCallback for the
 *     resource callbacks CONTEXT_CREATED, CONTEXT_DESTROY_STARTING,
 *     MODULE_LOADED, MODULE_PROFILED and the runtime and driver launch
 *     callbacks; atexit
 *   start: cuptiGetDeviceId; cuptiProfilerInitialize (it fails inside
 *     InitializeInjection: CUPTI_ERROR_UNKNOWN);
 *     cuptiProfilerDeviceSupported (CUPTI_PROFILER_SASS_METRICS);
 *     cuptiDeviceGetChipName; cuptiSassMetricsGetNumOfMetrics;
 *     cuptiSassMetricsGetMetrics (the three must be listed);
 *     cuptiSassMetricsGetProperties per metric (its id);
 *     cuptiSassMetricsSetConfig (GPU granularity);
 *     cuptiSassMetricsEnable (lazy patching) on the launch's context
 *   module loaded: cuptiGetCubinCrc; the cubin to cubin-CRC.cubin
 *   flush (after a launch that is measured alone, and at the drain):
 *     cuCtxSynchronize (the context pushed current, at the drain);
 *     cuptiSassMetricsGetDataProperties; cuptiSassMetricsFlushData (one
 *     record per pc and metric, one value each at GPU granularity);
 *   drain: the last flush, then cuptiSassMetricsDisable
 *
 * Files (formats in analyzer/bankscope.h, "per-instruction profiles"),
 * shared by the program's runs, which may run at the same time: every
 * line (launches.tsv) and every flush's records (records.tsv) go out in
 * one write(2) on an O_APPEND descriptor.  launches.tsv: every launch as
 * its outermost launch call returns: the number of record lines written
 * for it when it was flushed alone, "*" when it was selected inside a
 * window drained at the end, "-" when not measured; records.tsv: the
 * launch's index, or "-" for lines of a drain; device.txt; the cubins (CRC as cuptiGetCubinCrc gives it, the same the records
 * carry); status.txt: "ok" from the first process to start in the
 * directory; the reason collection stopped (in the wording of
 * probes/counters.c) replaces it when that process fails, and is appended
 * as a line of its own by a later one.  Kernel names are demangled, whole,
 * with the process's __cxa_demangle when it has one.  A program killed
 * before the drain leaves launches.tsv but no records.
 *
 * Never harms the host program: a CUPTI failure is written to status.txt
 * and collection stops (the program runs on); nothing is printed, nothing
 * exits, InitializeInjection always returns 1.  libcuda is not linked:
 * the driver calls come from the libcuda that loaded us
 * (cuGetProcAddress).  Callbacks run under one recursive mutex; the
 * kernel of a launch in flight is kept per thread.  One context is
 * measured: the first one enabled.
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
#include <cupti_version.h>

#include "bankscope.h"
#include "cupti_reason.h"
#include "select.h"

#define EXPORT __attribute__((visibility("default")))
#define NMETRICS 3
#define MAX_DEVICES 64
#define NO_METRIC UINT64_MAX

static const char *const metric_name[NMETRICS] = {
	"smsp__sass_inst_executed",
	"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
	"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
};

typedef CUresult (*ctx_sync_fn)(void);
typedef CUresult (*ctx_push_fn)(CUcontext);
typedef CUresult (*ctx_pop_fn)(CUcontext *);
typedef CUresult (*dev_get_fn)(CUdevice *, int);
typedef CUresult (*dev_attr_fn)(int *, CUdevice_attribute, CUdevice);
typedef CUresult (*dev_name_fn)(char *, int, CUdevice);
typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

typedef struct {
	uint32_t crc, fidx, pc;
	const char *fn;
	uint64_t v[NMETRICS];
} pc_sum;

static struct {
	pthread_mutex_t lock;
	int active;                 /* 0 after a failure */
	int owner;                  /* this process made status.txt */
	char dir[PATH_MAX - 32];
	int records, launches;      /* O_APPEND descriptors */
	FILE *log;
	CUpti_SubscriberHandle sub;
	int profiler_inited;
	uint64_t id[NMETRICS];      /* of the configured device */
	CUcontext on;               /* enabled context, or NULL */
	int closed;                 /* the window was drained */
	int lazy, profiled_cb, sass;
	int subscribe, explain_first;  /* experiments: see read_choices */
	int each_first;             /* BANKSCOPE_PROFILE_LAUNCH=first */
	int selecting;              /* a kernel, skip or count given */
	unsigned long flushes;      /* flushes made, for the kernel set */
	bs_select sel;              /* the launches to measure */
	unsigned long launch;       /* index of the next launch to return */
	ctx_sync_fn ctx_sync;
	ctx_push_fn ctx_push;
	ctx_pop_fn ctx_pop;
	dev_get_fn dev_get;
	dev_attr_fn dev_attr;
	dev_name_fn dev_name;
	demangle_fn demangle;
} g = { .records = -1, .launches = -1 };

/* Kernels by demangled name: named by a launch callback, and the flush
 * whose records of it were kept (0: none yet). */
typedef struct {
	char *name;
	int named;
	int tried;                  /* its first selected launch was flushed */
	unsigned long kept;
} kernel_seen;

static struct {
	kernel_seen *v;
	size_t cap, n;
} seen;

/* Per thread: the nesting of launch calls, the kernel of the outermost,
 * whether it is selected and whether it closes the window. */
static _Thread_local int depth;
static _Thread_local char *launched;
static _Thread_local int selected, last_selected;

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

/* ---- errors ------------------------------------------------------------ */

/* The first process in the directory replaces its "ok"; a later one
 * appends a line. */
static void write_status(const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/status.txt", g.dir);
	if ((f = fopen(path, g.owner ? "w" : "a"))) {
		fprintf(f, "%s\n", text);
		fclose(f);
	}
}

static void stop(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Collection ends; the first reason goes to status.txt. */
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
	char why[1024];

	bs_cupti_reason(why, sizeof why, file, line, call, r);
	stop("%s", why);
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
			     bs_source_name(__FILE__), __LINE__, #call,           \
			     (int)bs_e_);                                    \
			return -1;                                           \
		}                                                            \
	} while (0)

/* ---- names and files ---------------------------------------------------- */

/* The demangled name, whole, in a new string (NULL: out of memory).
 * Launch lines and records must name a kernel alike: names cut at 511
 * characters on launch lines, whole in records, made one PyTorch kernel
 * two ("16 launches of 20 kernels"). */
static char *kernel_name(const char *mangled)
{
	char *d = NULL, *c;
	int st = -1;

	if (!mangled || !*mangled)
		mangled = "?";
	if (g.demangle)
		d = g.demangle(mangled, NULL, NULL, &st);
	c = strdup(d && st == 0 ? d : mangled);
	free(d);
	for (char *p = c; p && *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	return c;
}

static size_t name_hash(const char *s)
{
	size_t h = 1469598103934665603u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

/* The entry of kernel name, added when new (a copy); NULL when out of
 * memory. */
static kernel_seen *seen_kernel(const char *name)
{
	size_t i;

	if (2 * (seen.n + 1) > seen.cap) {
		size_t cap = seen.cap ? 2 * seen.cap : 256;
		kernel_seen *v = calloc(cap, sizeof *v);

		if (!v)
			return NULL;
		for (size_t k = 0; k < seen.cap; k++) {
			if (!seen.v[k].name)
				continue;
			for (i = name_hash(seen.v[k].name) & (cap - 1);
			     v[i].name; i = (i + 1) & (cap - 1))
				;
			v[i] = seen.v[k];
		}
		free(seen.v);
		seen.v = v;
		seen.cap = cap;
	}
	for (i = name_hash(name) & (seen.cap - 1); seen.v[i].name;
	     i = (i + 1) & (seen.cap - 1))
		if (!strcmp(seen.v[i].name, name))
			return &seen.v[i];
	if (!(seen.v[i].name = strdup(name)))
		return NULL;
	seen.n++;
	return &seen.v[i];
}

/* All of buf in one write(2) (an O_APPEND descriptor shared with other
 * runs: lines never interleave); 0, or -1 with collection stopped. */
static int write_all(int fd, const char *what, const char *buf, size_t n)
{
	ssize_t w = write(fd, buf, n);

	if (w == (ssize_t)n)
		return 0;
	stop("cannot write %s/%s: %s", g.dir, what,
	     w < 0 ? strerror(errno) : "short write");
	return -1;
}

static int open_table(const char *name, const char *header)
{
	char path[PATH_MAX], line[256];
	int fd, n;

	snprintf(path, sizeof path, "%s/%s", g.dir, name);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC,
		  0644);
	if (fd >= 0) {
		n = snprintf(line, sizeof line, "%s\n", header);
		if (write_all(fd, name, line, (size_t)n) < 0) {
			close(fd);
			return -1;
		}
		return fd;
	}
	if (errno == EEXIST)
		fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		stop("cannot open %s: %s", path, strerror(errno));
	return fd;
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

/* ---- SASS metrics ------------------------------------------------------ */

/* Everything up to cuptiSassMetricsSetConfig, for device dev. */
static int configure(uint32_t dev)
{
	CUpti_Profiler_Initialize_Params init;
	CUpti_Profiler_DeviceSupported_Params sup;
	CUpti_Device_GetChipName_Params chip;
	CUpti_SassMetrics_GetNumOfMetrics_Params num;
	CUpti_SassMetrics_GetMetrics_Params list;
	CUpti_SassMetrics_Config cfg[NMETRICS];
	CUpti_SassMetricsSetConfig_Params set;
	CUpti_SassMetrics_MetricDetails *all;
	int found[NMETRICS] = { 0 };

	if (!g.profiler_inited) {
		memset(&init, 0, sizeof init);
		init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
		CHECK_CUPTI(cuptiProfilerInitialize(&init));
		g.profiler_inited = 1;
	}
	trace("configure device %u", dev);
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
		g.id[m] = prop.metric.metricId;
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
	return 0;
}

static int enable(CUcontext ctx)
{
	CUpti_SassMetricsEnable_Params p;

	memset(&p, 0, sizeof p);
	p.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE;
	p.ctx = ctx;
	p.enableLazyPatching = (uint8_t)g.lazy;
	trace("enable ctx %p, lazy patching %d", (void *)ctx, g.lazy);
	CHECK_CUPTI(cuptiSassMetricsEnable(&p));
	g.on = ctx;
	return 0;
}

static int disable(CUcontext ctx)
{
	CUpti_SassMetricsDisable_Params p;

	memset(&p, 0, sizeof p);
	p.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE;
	p.ctx = ctx;
	g.on = NULL;
	CHECK_CUPTI(cuptiSassMetricsDisable(&p));
	trace("disable ctx %p: %zu records dropped", (void *)ctx,
	      p.numOfDroppedRecords);
	return 0;
}

/* device.txt, by the process that made status.txt: the compute
 * capability and name of device ordinal dev.  Nothing when it fails. */
static void write_device(uint32_t dev)
{
	char path[PATH_MAX], name[256], line[320];
	int major = 0, minor = 0, fd, n;
	CUdevice d;

	if (!g.owner || g.dev_get(&d, (int)dev) != CUDA_SUCCESS ||
	    g.dev_attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
		       d) != CUDA_SUCCESS ||
	    g.dev_attr(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
		       d) != CUDA_SUCCESS ||
	    g.dev_name(name, sizeof name, d) != CUDA_SUCCESS)
		return;
	name[sizeof name - 1] = '\0';
	for (char *p = name; *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	snprintf(path, sizeof path, "%s/device.txt", g.dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof line, "%d.%d\t%s\n", major, minor, name);
	(void)!write(fd, line, (size_t)n);
	close(fd);
}

/* Set up and enable collection on ctx, the context of the next launch. */
static int start(CUcontext ctx)
{
	uint32_t dev = 0;

	if (!ctx || g.on || g.closed)
		return 0;
	CHECK_CUPTI(cuptiGetDeviceId(ctx, &dev));
	write_device(dev);
	if (!g.sass) {
		trace("BANKSCOPE_INJECT_SASS=0: SASS metrics not enabled");
		return 0;
	}
	if (configure(dev) < 0)
		return -1;
	return enable(ctx);
}

static int by_pc(const void *a, const void *b)
{
	const pc_sum *x = a, *y = b;

	if (x->crc != y->crc)
		return x->crc < y->crc ? -1 : 1;
	/* by name, not index: CUPTI 13.0 gives every record function
	 * index 0 (data/h200/profile-bench-20261127a), so with every
	 * kernel of a cubin in one window, an index would merge them */
	if (x->fn != y->fn && strcmp(x->fn, y->fn))
		return strcmp(x->fn, y->fn);
	if (x->fidx != y->fidx)
		return x->fidx < y->fidx ? -1 : 1;
	return (x->pc > y->pc) - (x->pc < y->pc);
}

/*
 * Which lines of a flush to keep, and with what in the launch column:
 * those of kernel `only` with `launch`; those of a kernel no launch
 * callback named, from the first flush that has them, with "-" (the
 * selection's regular expression still applies); with `all`, every line,
 * with "-".  NULL: drop the kernel's lines.
 */
static const char *keep_as(const char *kernel, const char *only,
			   const char *launch, int all)
{
	kernel_seen *k = seen_kernel(kernel);

	if (!k)
		return NULL;
	if (only && !strcmp(kernel, only)) {
		k->kept = g.flushes;
		return launch;
	}
	if (all || (!k->named && (!k->kept || k->kept == g.flushes) &&
		    bs_select_name(&g.sel, kernel))) {
		k->kept = g.flushes;
		return "-";
	}
	return NULL;
}

/* Write the records of one flush, summed per (cubin, function, pc), in
 * one write(2), the lines keep_as() keeps; returns the lines of `only`. */
static unsigned long write_records(const CUpti_SassMetrics_Data *d,
				   size_t nrec, size_t nval, const uint64_t *id,
				   pc_sum *sum, const char *only,
				   const char *launch, int all)
{
	char *kernel = NULL, *buf = NULL;
	const char *named = NULL, *as = NULL;
	size_t n = 0, len = 0;
	unsigned long lines = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		stop("out of memory for the records");
		return 0;
	}
	for (size_t r = 0; r < nrec; r++) {
		pc_sum *s = &sum[n++];

		memset(s, 0, sizeof *s);
		s->crc = d[r].cubinCrc;
		s->fidx = d[r].functionIndex;
		s->pc = d[r].pcOffset;
		s->fn = d[r].functionName ? d[r].functionName : "?";
		for (size_t k = 0; k < nval; k++) {
			const CUpti_SassMetrics_InstanceValue *iv =
				&d[r].pInstanceValues[k];

			for (int j = 0; j < NMETRICS; j++)
				if (iv->metricId == id[j])
					s->v[j] += iv->value;
		}
	}
	qsort(sum, n, sizeof *sum, by_pc);
	for (size_t i = 0, k = 0; i < n; i = k) {
		uint64_t v[NMETRICS] = { 0 };

		for (k = i; k < n && !by_pc(&sum[i], &sum[k]); k++)
			for (int j = 0; j < NMETRICS; j++)
				v[j] += sum[k].v[j];
		if (!named || strcmp(sum[i].fn, named)) {
			free(kernel);
			kernel = kernel_name(sum[i].fn);
			named = sum[i].fn;
			as = kernel ? keep_as(kernel, only, launch, all) : NULL;
		}
		if (!as)
			continue;
		fprintf(m, "%s\t%s\t%u\t%u\t%s\t0x%x\t%llu\t%llu\t%llu\n",
			kernel, as, sum[i].crc, sum[i].fidx,
			sum[i].fn, sum[i].pc, (unsigned long long)v[0],
			(unsigned long long)v[1], (unsigned long long)v[2]);
		lines += as == launch;
	}
	free(kernel);
	if (fclose(m) || write_all(g.records, "records.tsv", buf, len) < 0)
		lines = 0;
	free(buf);
	return lines;
}

/* Collect what ran on ctx since Enable (or the last flush), keeping the
 * lines keep_as() keeps; *written: the lines of kernel `only`. */
static int flush(CUcontext ctx, const char *only, const char *launch,
		 int all, unsigned long *written)
{
	CUpti_SassMetricsGetDataProperties_Params prop;
	CUpti_SassMetricsFlushData_Params fl;
	CUpti_SassMetrics_Data *d;
	CUpti_SassMetrics_InstanceValue *val;
	pc_sum *sum;
	size_t nrec, nval;
	CUptiResult r;

	*written = 0;
	g.flushes++;
	memset(&prop, 0, sizeof prop);
	prop.structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE;
	prop.ctx = ctx;
	CHECK_CUPTI(cuptiSassMetricsGetDataProperties(&prop));
	nrec = prop.numOfPatchedInstructionRecords;
	trace("data properties: %zu records, %zu instances", nrec,
	      prop.numOfInstances);
	if (!nrec || !prop.numOfInstances)
		return 0;
	/* CUPTI gave one record per (pc, metric) with numOfInstances values;
	 * room for every metric in each record all the same, slots left alone
	 * keep NO_METRIC */
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
	if (r == CUPTI_SUCCESS)
		*written = write_records(d, nrec, nval, g.id, sum, only,
					 launch, all);
	for (size_t i = 0; i < nrec; i++)
		free((void *)d[i].functionName);
	free(d);
	free(val);
	free(sum);
	CHECK_CUPTI(r);
	return 0;
}

/* ---- the window ---------------------------------------------------------- */

static int sync_context(const char *when)
{
	CUresult e = g.ctx_sync();

	if (e != CUDA_SUCCESS) {
		stop("cuCtxSynchronize %s %s: CUDA driver error %d; nothing "
		     "measured there", when, launched ? launched : "a launch",
		     (int)e);
		return -1;
	}
	return 0;
}

/* Close the window: synchronize the enabled context (pushed current, for
 * the exit handler's thread), drain its records once, disable. */
static void drain(const char *why)
{
	CUcontext ctx = g.on, popped;
	unsigned long n = 0;
	int pushed;

	if (!ctx)
		return;
	g.closed = 1;
	pushed = g.ctx_push(ctx) == CUDA_SUCCESS;
	if (sync_context(why) == 0)
		(void)flush(ctx, NULL, "-", !g.each_first && !g.selecting, &n);
	trace("drain %s: %lu records", why, n);
	(void)disable(ctx);
	if (pushed)
		(void)g.ctx_pop(&popped);
}

static void at_exit(void)
{
	pthread_mutex_lock(&g.lock);
	if (g.active && g.on)
		drain("at exit");
	pthread_mutex_unlock(&g.lock);
}

/* ---- callbacks --------------------------------------------------------- */

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

/*
 * At the exit of an outermost launch: flush it alone when it is the
 * first selected launch of its kernel (BANKSCOPE_PROFILE_LAUNCH=first),
 * or any launch in a window with a selection ("all"), then write its
 * launch line.
 */
static void launch_end(void)
{
	char *line, mark[32] = "-";
	int n, in = selected && g.on;
	kernel_seen *k = in ? seen_kernel(launched) : NULL;

	if (in && !k) {
		stop("out of memory for a kernel name");
		return;
	}
	if (g.on && (g.each_first ? in && !k->tried : g.selecting)) {
		char launch[32];
		unsigned long r = 0;

		if (k)
			k->tried = 1;
		snprintf(launch, sizeof launch, "%lu", g.launch);
		if (sync_context("after") == 0 &&
		    flush(g.on, in ? launched : NULL, launch, 0, &r) == 0 && in)
			snprintf(mark, sizeof mark, "%lu", r);
		trace("flush after launch %lu: %lu records", g.launch, r);
	} else if (in && !g.each_first) {
		strcpy(mark, "*");
	}
	n = asprintf(&line, "%lu\t%s\t%s\n", g.launch, launched, mark);
	if (n < 0) {
		stop("out of memory for a launch line");
		return;
	}
	(void)write_all(g.launches, "launches.tsv", line, (size_t)n);
	free(line);
	if (in && last_selected)
		drain("after the last selected launch");
	g.launch++;
}

/* At the entry of an outermost launch: is it selected, does it close the
 * window? */
static void choose(void)
{
	kernel_seen *seen_as = seen_kernel(launched);

	selected = last_selected = 0;
	if (!seen_as) {
		stop("out of memory for a kernel name");
		return;
	}
	seen_as->named = 1;
	selected = bs_select_launch(&g.sel, launched, &last_selected);
}

static void on_launch(const CUpti_CallbackData *cb)
{
	trace("%s %s depth %d symbol %s", cb->callbackSite == CUPTI_API_ENTER
						   ? "enter" : "exit",
	      cb->functionName, depth,
	      cb->symbolName ? cb->symbolName : "(none)");
	if (cb->callbackSite != CUPTI_API_ENTER) {
		if (depth > 0 && --depth == 0 && launched) {
			launch_end();
			free(launched);
			launched = NULL;
		}
		return;
	}
	if (depth++ > 0)
		return;
	free(launched);
	if (cb->symbolName)
		launched = kernel_name(cb->symbolName);
	else if (asprintf(&launched, "(%s)", cb->functionName ?
			  cb->functionName : "launch") < 0)
		launched = NULL;
	if (!launched) {
		stop("out of memory for a kernel name");
		return;
	}
	choose();
	if (selected && !g.on && !g.closed && sync_context("before") == 0)
		(void)start(cb->context);
}

static void CUPTIAPI on_callback(void *user, CUpti_CallbackDomain dom,
				 CUpti_CallbackId cbid, const void *data)
{
	const CUpti_ResourceData *rd = data;

	(void)user;
	pthread_mutex_lock(&g.lock);
	if (g.active && dom == CUPTI_CB_DOMAIN_RESOURCE) {
		if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED)
			save_cubin(rd->resourceDescriptor);
		else if (cbid == CUPTI_CBID_RESOURCE_MODULE_PROFILED)
			trace("module profiled");
		else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED &&
			 !g.sel.have_re && !g.sel.skip && !g.on && !g.closed)
			(void)start(rd->context);
		else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING &&
			 rd->context == g.on)
			drain("at context destroy");
	} else if (g.active && is_launch(dom, cbid)) {
		on_launch(data);
	}
	pthread_mutex_unlock(&g.lock);
}

/* ---- set-up ------------------------------------------------------------ */

static int driver_fn(CUresult (*get)(const char *, void **, int, cuuint64_t,
				     CUdriverProcAddressQueryResult *),
		     const char *name, void *out)
{
	CUdriverProcAddressQueryResult q;
	void *fn = NULL;

	CHECK_CU(get(name, &fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &q));
	memcpy(out, &fn, sizeof fn);
	return 0;
}

static int find_driver(void)
{
	CUresult (*get)(const char *, void **, int, cuuint64_t,
			CUdriverProcAddressQueryResult *);
	void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
	void *sym;

	if (!h || !(sym = dlsym(h, "cuGetProcAddress_v2"))) {
		stop("libcuda.so.1 or its cuGetProcAddress_v2 not found in "
		     "the process");
		return -1;
	}
	memcpy(&get, &sym, sizeof sym);
	if (driver_fn(get, "cuCtxSynchronize", &g.ctx_sync) < 0 ||
	    driver_fn(get, "cuCtxPushCurrent", &g.ctx_push) < 0 ||
	    driver_fn(get, "cuCtxPopCurrent", &g.ctx_pop) < 0 ||
	    driver_fn(get, "cuDeviceGet", &g.dev_get) < 0 ||
	    driver_fn(get, "cuDeviceGetAttribute", &g.dev_attr) < 0 ||
	    driver_fn(get, "cuDeviceGetName", &g.dev_name) < 0)
		return -1;
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

/*
 * BANKSCOPE_EXPLAIN_LIB: `bankscope profile --explain` with the explain
 * library in this run (BANKSCOPE_PROFILE_EXPLAIN_RUN=same): loaded here,
 * so only into processes that use CUDA, and initialized as
 * CUDA_INJECTION64_PATH would.  A failure stops nothing here; the explain
 * library writes its own status.
 */
static void load_explain(void)
{
	const char *lib = getenv("BANKSCOPE_EXPLAIN_LIB");
	void *h, *sym;
	int (*init)(void);

	if (!lib || !*lib)
		return;
	if (!(h = dlopen(lib, RTLD_NOW | RTLD_LOCAL))) {
		trace("explain library %s: %s", lib, dlerror());
		return;
	}
	if ((sym = dlsym(h, "InitializeInjection"))) {
		memcpy(&init, &sym, sizeof sym);
		trace("explain library %s: InitializeInjection %d", lib,
		      init());
	}
}

static int subscribe(void)
{
	static const CUpti_CallbackId resource[] = {
		CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
		CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
		CUPTI_CBID_RESOURCE_MODULE_LOADED,
		/* last: without it CUPTI patches one kernel (see the top) */
		CUPTI_CBID_RESOURCE_MODULE_PROFILED,
	};
	size_t nres = sizeof resource / sizeof *resource - !g.profiled_cb;

	CHECK_CUPTI(cuptiSubscribe(&g.sub, on_callback, NULL));
	for (size_t i = 0; i < nres; i++)
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
	return 0;
}

static int env_flag(const char *name, int dflt)
{
	const char *t = getenv(name);

	return t && *t ? strcmp(t, "0") != 0 : dflt;
}

/* The environment's choices; 0, or -1 (collection stopped). */
static int read_choices(void)
{
	const char *each;

	if (bs_select_read(&g.sel, 1, stop) < 0)
		return -1;
	g.lazy = env_flag("BANKSCOPE_INJECT_LAZY", 1);
	g.profiled_cb = env_flag("BANKSCOPE_INJECT_MODULE_PROFILED", 1);
	g.sass = env_flag("BANKSCOPE_INJECT_SASS", 1);
	/* experiments on --explain in this run: no CUPTI subscription at
	 * all; the explain library loaded before it */
	g.subscribe = env_flag("BANKSCOPE_INJECT_SUBSCRIBE", 1);
	g.explain_first = env_flag("BANKSCOPE_INJECT_EXPLAIN_FIRST", 0);
	if ((each = getenv("BANKSCOPE_PROFILE_LAUNCH")) && *each &&
	    strcmp(each, "all")) {
		if (strcmp(each, "first")) {
			stop("BANKSCOPE_PROFILE_LAUNCH=%s is neither first nor "
			     "all", each);
			return -1;
		}
		g.each_first = 1;
	}
	g.selecting = bs_select_any(&g.sel);
	return 0;
}

EXPORT int InitializeInjection(void);

EXPORT int InitializeInjection(void)
{
	static int done;
	pthread_mutexattr_t a;
	const char *dir = getenv("BANKSCOPE_PROFILE_DIR");
	char path[PATH_MAX];
	uint32_t v = 0;
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
		g.owner = 1;
		(void)!write(fd, "ok\n", 3);
		close(fd);
	}
	if (getenv("BANKSCOPE_INJECT_LOG")) {
		snprintf(path, sizeof path, "%s/inject-%ld.log", g.dir,
			 (long)getpid());
		g.log = fopen(path, "a");
	}
	find_demangler();
	(void)cuptiGetVersion(&v);
	if (read_choices() == 0)
		trace("pid %ld, CUPTI API %u, lazy %d, module-profiled "
		      "callback %d, launches %s, demangler %s",
		      (long)getpid(), v, g.lazy, g.profiled_cb,
		      g.each_first ? "first" : "all",
		      g.demangle ? "yes" : "no");
	if (g.active &&
	    (g.records = open_table("records.tsv",
				    BS_SASS_RECORD_COLUMNS)) >= 0 &&
	    (g.launches = open_table("launches.tsv",
				     BS_SASS_LAUNCH_COLUMNS)) >= 0 &&
	    find_driver() == 0 && (g.explain_first ? (load_explain(), 0) : 0) == 0 &&
	    (!g.subscribe || subscribe() == 0))
		atexit(at_exit);
	if (!g.explain_first)
		load_explain();
	pthread_mutex_unlock(&g.lock);
	return 1;
}
