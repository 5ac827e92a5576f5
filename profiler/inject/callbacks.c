/*
 * callbacks.c - the injection library's CUPTI subscription (inject.h):
 * the resource callbacks (contexts, modules) and the launch callbacks of
 * the runtime and driver APIs, which choose the launches to measure, open
 * the window and close it (the drain).  Callbacks run under inj.lock; the
 * kernel of a launch in flight is kept per thread.
 *
 * Pausing (BANKSCOPE_INJECT_PAUSE, default 1; with
 * BANKSCOPE_PROFILE_LAUNCH=first).  Every launch in the window runs
 * CUPTI's patched code, measured or not: a kernel launched 101 times ran
 * patched 101 times to be measured once (../shared/evidence/
 * real-programs: 0.38 s bare, 12.4 s profiled).  So the window pauses
 * (cuptiSassMetricsDisable: "any kernel launched after this API call will
 * not be profiled") at the entry of a launch that is not to be measured,
 * and resumes (cuptiSassMetricsEnable) at the entry of one that is: the
 * first selected launch of a kernel not measured yet.  A run of launches
 * of new kernels, or of old ones, costs one switch; the switches are at
 * most twice the kernels.  Records of launches in flight at a pause are
 * dropped, as their flush would drop them.
 */
#include "inject.h"

#include <stdlib.h>
#include <string.h>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

/* Per thread: the nesting of launch calls, the kernel of the outermost,
 * whether it is selected and whether it closes the window. */
static _Thread_local int depth;
static _Thread_local const char *launched;  /* inj_launch_name's */
static _Thread_local int selected, last_selected;

/* ---- the window ---------------------------------------------------------- */

static int sync_context(const char *when)
{
	CUresult e = inj.ctx_sync();

	if (e != CUDA_SUCCESS) {
		inj_stop("cuCtxSynchronize %s %s: CUDA driver error %d; "
			 "nothing measured there", when,
			 launched ? launched : "a launch", (int)e);
		return -1;
	}
	return 0;
}

/* Close the window: synchronize the enabled context (pushed current, for
 * the exit handler's thread), drain its records once, disable. */
static void drain(const char *why)
{
	CUcontext ctx = inj.on, popped;
	unsigned long n = 0;
	int pushed;

	if (!ctx)
		return;
	inj.closed = 1;
	pushed = inj.ctx_push(ctx) == CUDA_SUCCESS;
	if (sync_context(why) == 0)
		(void)inj_flush(ctx, NULL, "-",
				!inj.each_first && !inj.selecting, &n);
	trace("drain %s: %lu records, %lu pauses", why, n, inj.pauses);
	(void)inj_disable(ctx);
	(void)inj_launches_out();
	if (pushed)
		(void)inj.ctx_pop(&popped);
}

void inj_at_exit(void)
{
	pthread_mutex_lock(&inj.lock);
	if (inj.active && inj.on)
		drain("at exit");
	if (inj.active)
		(void)inj_launches_out();
	pthread_mutex_unlock(&inj.lock);
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
	int n, in = selected && inj.on;
	kernel_seen *k = in ? inj_seen_kernel(launched) : NULL;

	if (in && !k) {
		inj_stop("out of memory for a kernel name");
		return;
	}
	if (inj.on && (inj.each_first ? in && !k->tried : inj.selecting)) {
		char launch[32];
		unsigned long r = 0;

		if (k)
			k->tried = 1;
		snprintf(launch, sizeof launch, "%lu", inj.launch);
		if (sync_context("after") == 0 &&
		    inj_flush(inj.on, in ? launched : NULL, launch, 0, &r) == 0 &&
		    in)
			snprintf(mark, sizeof mark, "%lu", r);
		trace("flush after launch %lu: %lu records", inj.launch, r);
	} else if (in && !inj.each_first) {
		strcpy(mark, "*");
	}
	n = asprintf(&line, "%lu\t%s\t%s\n", inj.launch, launched, mark);
	if (n < 0) {
		inj_stop("out of memory for a launch line");
		return;
	}
	(void)inj_launch_line(line, (size_t)n);
	free(line);
	if (in && last_selected)
		drain("after the last selected launch");
	inj.launch++;
}

/* At the entry of an outermost launch: is it selected, does it close the
 * window?  Its kernel's entry, or NULL (collection stopped). */
static kernel_seen *choose(void)
{
	kernel_seen *seen_as = inj_seen_kernel(launched);

	selected = last_selected = 0;
	if (!seen_as) {
		inj_stop("out of memory for a kernel name");
		return NULL;
	}
	seen_as->named = 1;
	selected = bs_select_launch(&inj.sel, launched, &last_selected);
	return seen_as;
}

/* At the entry of an outermost launch: pause the window before a launch
 * not to be measured, resume it before one that is (see the top). */
static void pause_or_resume(CUcontext ctx, const kernel_seen *k)
{
	int wanted;

	if (!inj.each_first || !inj.pause || inj.closed)
		return;
	wanted = selected && !k->tried;
	if (!wanted && inj.on) {
		inj.paused = inj.on;
		inj.pauses++;
		trace("pause before launch %lu", inj.launch);
		(void)inj_disable(inj.paused);
	} else if (wanted && !inj.on && inj.paused && ctx == inj.paused) {
		trace("resume before launch %lu", inj.launch);
		(void)inj_enable(inj.paused);
	}
}

static void on_launch(const CUpti_CallbackData *cb)
{
	kernel_seen *k;

	trace("%s %s depth %d symbol %s", cb->callbackSite == CUPTI_API_ENTER
						   ? "enter" : "exit",
	      cb->functionName, depth,
	      cb->symbolName ? cb->symbolName : "(none)");
	if (cb->callbackSite != CUPTI_API_ENTER) {
		if (depth > 0 && --depth == 0 && launched) {
			launch_end();
			launched = NULL;
		}
		return;
	}
	if (depth++ > 0)
		return;
	if (!(launched = inj_launch_name(cb->symbolName, cb->functionName))) {
		inj_stop("out of memory for a kernel name");
		return;
	}
	if ((k = choose()))
		pause_or_resume(cb->context, k);
	if (selected && !inj.on && !inj.paused && !inj.closed &&
	    sync_context("before") == 0)
		(void)inj_start(cb->context);
}

static void CUPTIAPI on_callback(void *user, CUpti_CallbackDomain dom,
				 CUpti_CallbackId cbid, const void *data)
{
	const CUpti_ResourceData *rd = data;

	(void)user;
	pthread_mutex_lock(&inj.lock);
	if (inj.active && dom == CUPTI_CB_DOMAIN_RESOURCE) {
		if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED)
			inj_save_cubin(rd->resourceDescriptor);
		else if (cbid == CUPTI_CBID_RESOURCE_MODULE_PROFILED)
			trace("module profiled");
		else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED &&
			 !inj.sel.have_re && !inj.sel.skip && !inj.on &&
			 !inj.paused && !inj.closed)
			(void)inj_start(rd->context);
		else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING &&
			 rd->context == inj.on)
			drain("at context destroy");
		else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING &&
			 rd->context == inj.paused) {
			inj.paused = NULL;
			inj.closed = 1;
			(void)inj_launches_out();
		}
	} else if (inj.active && is_launch(dom, cbid)) {
		on_launch(data);
	}
	pthread_mutex_unlock(&inj.lock);
}

int inj_subscribe(void)
{
	static const CUpti_CallbackId resource[] = {
		CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
		CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
		CUPTI_CBID_RESOURCE_MODULE_LOADED,
		/* last: without it CUPTI patches one kernel (see the top) */
		CUPTI_CBID_RESOURCE_MODULE_PROFILED,
	};
	size_t nres = sizeof resource / sizeof *resource - !inj.profiled_cb;

	CHECK_CUPTI(cuptiSubscribe(&inj.sub, on_callback, NULL));
	for (size_t i = 0; i < nres; i++)
		CHECK_CUPTI(cuptiEnableCallback(1, inj.sub,
						CUPTI_CB_DOMAIN_RESOURCE,
						resource[i]));
	for (CUpti_CallbackId c = 0; c < CUPTI_DRIVER_TRACE_CBID_SIZE; c++)
		if (is_launch(CUPTI_CB_DOMAIN_DRIVER_API, c))
			CHECK_CUPTI(cuptiEnableCallback(
				1, inj.sub, CUPTI_CB_DOMAIN_DRIVER_API, c));
	for (CUpti_CallbackId c = 0; c < CUPTI_RUNTIME_TRACE_CBID_SIZE; c++)
		if (is_launch(CUPTI_CB_DOMAIN_RUNTIME_API, c))
			CHECK_CUPTI(cuptiEnableCallback(
				1, inj.sub, CUPTI_CB_DOMAIN_RUNTIME_API, c));
	return 0;
}
