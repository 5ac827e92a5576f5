/*
 * inject.c - libbankscope_inject.so: per-instruction shared-memory counts
 * of an unmodified CUDA program, through CUPTI's injection mechanism and
 * its SASS Metrics API.  `bankscope profile` starts the program with
 * CUDA_INJECTION64_PATH naming this library and BANKSCOPE_PROFILE_DIR an
 * existing directory; libcuda loads the library at cuInit and calls
 * InitializeInjection().  Without BANKSCOPE_PROFILE_DIR it does nothing.
 * BANKSCOPE_INJECT_LOG=1 adds a trace of the calls, inject.log.
 *
 * Per instruction, three SASS metrics (metrics.c), counted by patched
 * code, not by the PM counters: warp instructions, shared wavefronts and
 * ideal shared wavefronts.  The library's files: inject.h.
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
 * Files (formats in analyzer/sass/bs_sass.h, "per-instruction
 * profiles"; files.c), shared by the program's runs, which may run at the
 * same time: every line (launches.tsv) and every flush's records
 * (records.tsv) go out in one write(2) on an O_APPEND descriptor.
 * launches.tsv: every launch as its outermost launch call returns: the
 * number of record lines written for it when it was flushed alone, "*"
 * when it was selected inside a window drained at the end, "-" when not
 * measured; records.tsv: the launch's index, or "-" for lines of a drain;
 * device.txt; the cubins (CRC as cuptiGetCubinCrc gives it, the same the
 * records carry); status.txt: "ok" from the first process to start in
 * the directory; the reason collection stopped (in the wording of
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
#include "inject.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cupti_version.h>

inject_state inj = { .records = -1, .launches = -1 };

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
		inj_stop("libcuda.so.1 or its cuGetProcAddress_v2 not found "
			 "in the process");
		return -1;
	}
	memcpy(&get, &sym, sizeof sym);
	if (driver_fn(get, "cuCtxSynchronize", &inj.ctx_sync) < 0 ||
	    driver_fn(get, "cuCtxPushCurrent", &inj.ctx_push) < 0 ||
	    driver_fn(get, "cuCtxPopCurrent", &inj.ctx_pop) < 0 ||
	    driver_fn(get, "cuDeviceGet", &inj.dev_get) < 0 ||
	    driver_fn(get, "cuDeviceGetAttribute", &inj.dev_attr) < 0 ||
	    driver_fn(get, "cuDeviceGetName", &inj.dev_name) < 0)
		return -1;
	return 0;
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

static int env_flag(const char *name, int dflt)
{
	const char *t = getenv(name);

	return t && *t ? strcmp(t, "0") != 0 : dflt;
}

/* The environment's choices; 0, or -1 (collection stopped). */
static int read_choices(void)
{
	const char *each;

	if (bs_select_read(&inj.sel, 1, inj_stop) < 0)
		return -1;
	inj.lazy = env_flag("BANKSCOPE_INJECT_LAZY", 1);
	inj.profiled_cb = env_flag("BANKSCOPE_INJECT_MODULE_PROFILED", 1);
	inj.sass = env_flag("BANKSCOPE_INJECT_SASS", 1);
	/* experiments on --explain in this run: no CUPTI subscription at
	 * all; the explain library loaded before it */
	inj.subscribe = env_flag("BANKSCOPE_INJECT_SUBSCRIBE", 1);
	inj.explain_first = env_flag("BANKSCOPE_INJECT_EXPLAIN_FIRST", 0);
	inj.pause = env_flag("BANKSCOPE_INJECT_PAUSE", 1);
	if ((each = getenv("BANKSCOPE_PROFILE_LAUNCH")) && *each &&
	    strcmp(each, "all")) {
		if (strcmp(each, "first")) {
			inj_stop("BANKSCOPE_PROFILE_LAUNCH=%s is neither first "
				 "nor all", each);
			return -1;
		}
		inj.each_first = 1;
	}
	inj.selecting = bs_select_any(&inj.sel);
	return 0;
}

BS_EXPORT int InitializeInjection(void);

/* The process's directory (common.h, bs_process_dir: a later process of
 * the program gets DIR/process-PID); status.txt "ok" and process.txt when
 * this process owns it, and inject-PID.log when BANKSCOPE_INJECT_LOG
 * asks. */
static void open_status_and_log(void)
{
	char path[PATH_MAX];
	int fd;

	char own[sizeof inj.dir];
	int r = bs_process_dir(inj.dir, "status.txt", "process", own,
			       sizeof own);

	if (r < 0) {
		inj.active = 0;     /* nowhere to write: nothing measured */
		return;
	}
	snprintf(inj.dir, sizeof inj.dir, "%s", own);
	if (r == 1) {
		inj.owner = 1;
		snprintf(path, sizeof path, "%s/status.txt", inj.dir);
		if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) >= 0) {
			(void)!write(fd, "ok\n", 3);
			close(fd);
		}
		bs_write_process(inj.dir, "process.txt");
	}
	if (getenv("BANKSCOPE_INJECT_LOG")) {
		snprintf(path, sizeof path, "%s/inject-%ld.log", inj.dir,
			 (long)getpid());
		inj.log = fopen(path, "a");
	}
}

/* The tables, the driver's functions and the subscription; 0, or -1
 * (collection stopped).  The explain library is loaded before the
 * subscription when BANKSCOPE_INJECT_EXPLAIN_FIRST asks. */
static int set_up(void)
{
	if ((inj.records = inj_open_table("records.tsv",
					  BS_SASS_RECORD_COLUMNS "\tdshared")) < 0 ||
	    (inj.launches = inj_open_table("launches.tsv",
					   BS_SASS_LAUNCH_COLUMNS)) < 0 ||
	    find_driver() < 0)
		return -1;
	if (inj.explain_first)
		load_explain();
	return inj.subscribe ? inj_subscribe() : 0;
}

BS_EXPORT int InitializeInjection(void)
{
	static int done;
	const char *dir = getenv("BANKSCOPE_PROFILE_DIR");
	uint32_t v = 0;

	if (done || !dir || !*dir || strlen(dir) >= sizeof inj.dir ||
	    !bs_process_targeted())
		return 1;
	done = 1;
	bs_recursive_mutex_init(&inj.lock);
	pthread_mutex_lock(&inj.lock);
	snprintf(inj.dir, sizeof inj.dir, "%s", dir);
	inj.active = 1;
	open_status_and_log();
	inj.demangle = bs_find_demangler();
	(void)cuptiGetVersion(&v);
	if (read_choices() == 0)
		trace("pid %ld, CUPTI API %u, lazy %d, module-profiled "
		      "callback %d, launches %s, demangler %s",
		      (long)getpid(), v, inj.lazy, inj.profiled_cb,
		      inj.each_first ? "first" : "all",
		      inj.demangle ? "yes" : "no");
	if (inj.active && set_up() == 0)
		atexit(inj_at_exit);
	if (!inj.explain_first)
		load_explain();
	pthread_mutex_unlock(&inj.lock);
	return 1;
}
