/*
 * explain.c - libbankscope_explain.so: the shared-memory addresses of
 * every lane of a sample of warps, per SASS instruction, through the CUDA
 * Sanitizer API's instruction patching.  `bankscope profile --explain`
 * runs the program once more with this library (LD_PRELOAD: it subscribes
 * when it is loaded, before the program's first CUDA call; as
 * CUDA_INJECTION64_PATH its InitializeInjection does the same) and these
 * variables:
 *   BANKSCOPE_EXPLAIN_DIR     an existing directory (required)
 *   BANKSCOPE_EXPLAIN_PATCH   the patch module, bankscope_explain_patch
 *                             .fatbin (patch.cu)
 *   BANKSCOPE_EXPLAIN_SAMPLE  BLOCKSxWARPSxEXECS (default 2x8x4): the
 *                             warps' sample, the first BLOCKS blocks, in
 *                             each the first WARPS warps, and of each
 *                             instruction the first EXECS executions by
 *                             such a warp; and the grid's sample, of
 *                             each instruction the first EXECS
 *                             executions by any other warp, then its
 *                             executions 2^k and 3 * 2^k (explain.h)
 *   BANKSCOPE_PROFILE_KERNEL, _SKIP, _COUNT: the selection of inject.c
 *                             (../select.h);
 *                             the first selected launch of each kernel is
 *                             sampled
 *   BANKSCOPE_EXPLAIN_LOG=1   a trace, explain.log
 *
 * Each context gets the patch module as it is created
 * (sanitizerAddPatchesFromFile) and each module is patched as it loads
 * (sanitizerPatchInstructions for SHARED_MEMORY_ACCESS, MATRIX_MEMORY_
 * ACCESS and MEMCPY_ASYNC, and sanitizerPatchModule); one that came
 * before the subscription, at its first sampled launch.
 *
 * Unpatching, an experiment, off by default.  Patched code costs every
 * launch that runs it, sampled or not (a kernel launched 101 times: 0.38 s
 * bare, 29.8 s under --explain, ../shared/evidence/real-programs).  With
 * BANKSCOPE_EXPLAIN_UNPATCH=end, a module whose last BANKSCOPE_EXPLAIN_IDLE
 * (default 8) launches sampled nothing, and none of whose sampled launches
 * waits, is unpatched (sanitizerUnpatchModule) at the end of such a
 * launch; a launch of a kernel not sampled yet from a module unpatched so
 * is not sampled, and the module is patched again at its end.  =begin
 * unpatches at the beginning of the idle launch.  On an H200 (driver
 * 580.159.04) neither returns when the launch went to a non-blocking
 * stream (the CUDA samples matrixMul and globalToShmemAsyncCopy, and
 * `launches nbstream`, scripts/bench/launches.cu: data/h200/
 * launch-bench-20261202), nor did patching at a launch's beginning, so
 * the default is 0: every module patched from its load to the end, and
 * `bankscope profile` ends the explain run once it has sampled every
 * kernel the first run measured (cli/profile/run.c, wait_explain).
 *
 * At the beginning of a launch to sample, a buffer is allocated
 * (sanitizerAlloc) and given to this launch alone
 * (sanitizerSetLaunchCallbackData); other launches
 * of patched modules get NULL and their callbacks return at once.  At the
 * end of the launch the stream is synchronized and the records are copied
 * back.  Function starts come from sanitizerGetFunctionPcAndSize, so a
 * record's pc becomes the offset CUPTI's SASS metrics use.
 *
 * explain.tsv (format in analyzer/sass/bs_sass.h, "explain records"): one
 * line per sampled warp execution.  explain-counts.tsv: per sampled
 * launch and instruction, the executions with a lane on, counted in every
 * warp.  explain-status.txt: "ok", or the
 * reason collection stopped; then one line per sampled launch with its
 * record count and the records dropped for lack of room.
 *
 * Like inject.c it never harms the program: a failure goes to
 * explain-status.txt and sampling stops; nothing is printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sanitizer.h>

#include "common.h"
#include "explain.h"
#include "sass/bs_sass.h"
#include "select.h"

#define MAX_FUNCS 4096
#define MAX_MODULES 4096
#define REC_CAP 16384           /* records of the warps' sample */
#define GREC_CAP 16384          /* records of each pool of the grid's */
#define MAX_PENDING 64

typedef struct {
	CUfunction f;
} func_seen;

typedef struct {
	CUcontext ctx;
	CUmodule module;
	Sanitizer_StreamHandle stream;
	bs_ex_state host;            /* pointers are device addresses */
	bs_ex_state *dev;
	uint64_t fn_pc;
	unsigned long launch;
	int ended;
	char function[1024];
	char kernel[1024];
} pending;

static struct {
	pthread_mutex_t lock;
	int inited, active;
	char dir[PATH_MAX - 32];
	char patch[PATH_MAX];
	FILE *out, *counts, *status, *log;
	Sanitizer_SubscriberHandle sub;
	unsigned blocks, warps, execs;
	int remote;                  /* BANKSCOPE_EXPLAIN_REMOTE */
	bs_select sel;               /* the launches to sample */
	unsigned long launch;
	CUcontext patched_ctx[64];
	int nctx;
	struct module_state {
		CUmodule m;
		int patched;         /* by us, now */
		int repatch;         /* an unsampled kernel of it launched
					while it was unpatched */
		unsigned idle;       /* launches since one was sampled */
	} module[MAX_MODULES];
	int nmod;
	CUfunction sampled[MAX_FUNCS];
	int nsampled;
	pending pend[MAX_PENDING];  /* sampled launches not collected yet */
	int npend;
	int unpatch;                 /* BANKSCOPE_EXPLAIN_UNPATCH: 0 never,
					1 end, 2 begin */
	unsigned idle_after;         /* BANKSCOPE_EXPLAIN_IDLE */
	unsigned long patches, unpatches;
	bs_name_cache names;         /* demangled names by mangled */
	bs_demangle_fn demangle;
} g;

#define trace(...) bs_trace(g.log, __VA_ARGS__)

static void stop(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Sampling ends; the reason replaces status's "ok" line. */
static void stop(const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;

	if (!g.active)
		return;
	g.active = 0;
	snprintf(path, sizeof path, "%s/explain-status.txt", g.dir);
	if (g.status)
		fclose(g.status);
	g.status = NULL;
	if ((f = fopen(path, "w"))) {
		va_start(ap, fmt);
		vfprintf(f, fmt, ap);
		va_end(ap);
		fputc('\n', f);
		fclose(f);
	}
}

/* Every Sanitizer API call goes through check.h's CHECK_SAN: on failure
 * sampling stops, the line in explain-status.txt, and the calling
 * function returns -1. */
#define BS_CHECK_FAIL(msg)                                                   \
	do {                                                                 \
		stop("%s", (msg));                                           \
		return -1;                                                   \
	} while (0)
#include "check.h"

/* ---- selection ----------------------------------------------------------- */

/* The demangled name of a launch's function (common.h's cache). */
static const char *launch_name(const char *mangled)
{
	return bs_name_cached(&g.names, g.demangle, mangled);
}

static int read_choices(void)
{
	const char *s = getenv("BANKSCOPE_EXPLAIN_SAMPLE");
	const char *p = getenv("BANKSCOPE_EXPLAIN_PATCH");
	const char *r = getenv("BANKSCOPE_EXPLAIN_REMOTE");

	/* 1 (default): sample accesses to other CTAs' shared memory; 0: do
	 * not.  (A generic-access callback filtered by isspacep.shared::
	 * cluster saw none of them on an H200, where the remote callback
	 * saw every one: data/h200/dsmem-profile-20261128.) */
	g.remote = !(r && !strcmp(r, "0"));
	r = getenv("BANKSCOPE_EXPLAIN_UNPATCH");
	g.unpatch = !r || !*r || !strcmp(r, "0") ? 0 : !strcmp(r, "end") ? 1
		    : !strcmp(r, "begin") ? 2 : -1;
	if (g.unpatch < 0) {
		stop("BANKSCOPE_EXPLAIN_UNPATCH=%s is none of end, begin, 0", r);
		return -1;
	}
	g.idle_after = 8;
	if ((r = getenv("BANKSCOPE_EXPLAIN_IDLE")) && *r &&
	    (sscanf(r, "%u", &g.idle_after) != 1 || !g.idle_after)) {
		stop("BANKSCOPE_EXPLAIN_IDLE=%s is not a count of launches", r);
		return -1;
	}
	g.blocks = 2;
	g.warps = 8;
	g.execs = 4;
	if (s && *s && (sscanf(s, "%ux%ux%u", &g.blocks, &g.warps,
			       &g.execs) != 3 || !g.blocks || !g.warps ||
			!g.execs)) {
		stop("BANKSCOPE_EXPLAIN_SAMPLE=%s is not BLOCKSxWARPSxEXECS",
		     s);
		return -1;
	}
	if (!p || !*p || access(p, R_OK)) {
		stop("BANKSCOPE_EXPLAIN_PATCH=%s: no readable patch module",
		     p ? p : "");
		return -1;
	}
	snprintf(g.patch, sizeof g.patch, "%s", p);
	return bs_select_read(&g.sel, 0, stop);
}

/* Is this launch one of the selected ones (../select.h, inject.c's rule)? */
static int selected(const char *kernel)
{
	return bs_select_launch(&g.sel, kernel, NULL);
}

static int seen_function(CUfunction f)
{
	for (int i = 0; i < g.nsampled; i++)
		if (g.sampled[i] == f)
			return 1;
	return 0;
}

/* Module m's state, NULL when never seen. */
static struct module_state *module_of(CUmodule m)
{
	for (int i = 0; i < g.nmod; i++)
		if (g.module[i].m == m)
			return &g.module[i];
	return NULL;
}

/* ---- patching and buffers ------------------------------------------------- */

/*
 * The patch module, once per context.  Done as the context is created,
 * and modules are patched as they load (the Sanitizer's own samples do
 * both there): done inside the first launch callback instead,
 * sanitizerAddPatchesFromFile, then sanitizerPatchInstructions never
 * returned for the CUDA sample matrixMul, whose kernels go to a
 * non-blocking stream (data/h200/explain-same-run-20261127).  A context
 * or module that came before we subscribed is still patched at its first
 * sampled launch.
 */
static int add_patches(CUcontext ctx)
{
	for (int i = 0; i < g.nctx; i++)
		if (g.patched_ctx[i] == ctx)
			return 0;
	if (g.nctx == 64) {
		stop("more than 64 CUDA contexts");
		return -1;
	}
	trace("adding the patches to context %p", (void *)ctx);
	CHECK_SAN(sanitizerAddPatchesFromFile(g.patch, ctx));
	g.patched_ctx[g.nctx++] = ctx;
	return 0;
}

static int patch_module(CUcontext ctx, CUmodule m)
{
	struct module_state *s = module_of(m);

	if (s && s->patched)
		return 0;
	if (add_patches(ctx) < 0)
		return -1;
	if (!s && g.nmod == MAX_MODULES) {
		stop("more than %d modules to patch", MAX_MODULES);
		return -1;
	}
	trace("patching module %p", (void *)m);
	CHECK_SAN(sanitizerPatchInstructions(
		SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, m, "bs_shared"));
	CHECK_SAN(sanitizerPatchInstructions(
		SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS, m, "bs_matrix"));
	CHECK_SAN(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_MEMCPY_ASYNC,
					     m, "bs_memcpy"));
	/* a GPU without clusters may refuse the remote kind: then there is
	 * nothing to sample, and the rest goes on */
	if (g.remote && sanitizerPatchInstructions(
			SANITIZER_INSTRUCTION_REMOTE_SHARED_MEMORY_ACCESS, m,
			"bs_remote") != SANITIZER_SUCCESS)
		trace("remote shared-memory accesses not patched");
	CHECK_SAN(sanitizerPatchModule(m));
	if (!s)
		(s = &g.module[g.nmod++])->m = m;
	s->patched = 1;
	s->repatch = 0;
	s->idle = 0;
	g.patches++;
	trace("patched module %p", (void *)m);
	return 0;
}

/* Module m's instrumentation removed when it has been idle long enough
 * and no sampled launch of it waits to be collected (its code would
 * change under it). */
static int unpatch_idle(CUmodule m)
{
	struct module_state *s = module_of(m);

	if (!s || !s->patched || s->idle < g.idle_after)
		return 0;
	for (int i = 0; i < g.npend; i++)
		if (g.pend[i].module == m)
			return 0;
	trace("unpatching module %p", (void *)m);
	CHECK_SAN(sanitizerUnpatchModule(m));
	s->patched = 0;
	g.unpatches++;
	trace("unpatched module %p", (void *)m);
	return 0;
}

/* Buffers for one sampled launch, given to it alone. */
static int arm(const Sanitizer_LaunchData *l, const char *kernel)
{
	pending *c;
	size_t nslot = (size_t)g.blocks * g.warps * BS_EX_PCS;
	size_t nrec = REC_CAP + 2 * (size_t)GREC_CAP;
	uint64_t size = 0;

	if (g.npend == MAX_PENDING) {
		trace("launch %lu not sampled: %d launches wait to be "
		      "collected", g.launch, MAX_PENDING);
		return 0;
	}
	c = &g.pend[g.npend];
	memset(c, 0, sizeof *c);
	c->ctx = l->context;
	c->module = l->module;
	c->stream = l->hStream;
	c->launch = g.launch;
	snprintf(c->function, sizeof c->function, "%s", l->functionName);
	snprintf(c->kernel, sizeof c->kernel, "%s", kernel);
	if (patch_module(l->context, l->module) < 0)
		return -1;
	CHECK_SAN(sanitizerGetFunctionPcAndSize(l->module, l->functionName,
						&c->fn_pc, &size));
	trace("allocating for launch %lu on stream %p", g.launch,
	      (void *)l->hStream);
	c->host.blocks = g.blocks;
	c->host.warps = g.warps;
	c->host.execs = g.execs;
	c->host.cap = REC_CAP;
	c->host.gcap = GREC_CAP;
	CHECK_SAN(sanitizerAlloc(l->context, (void **)&c->host.slots,
				 nslot * sizeof(bs_ex_slot)));
	CHECK_SAN(sanitizerAlloc(l->context, (void **)&c->host.counts,
				 BS_EX_GPCS * sizeof(bs_ex_count)));
	CHECK_SAN(sanitizerAlloc(l->context, (void **)&c->host.rec,
				 nrec * sizeof(bs_ex_rec)));
	CHECK_SAN(sanitizerAlloc(l->context, (void **)&c->dev, sizeof c->host));
	CHECK_SAN(sanitizerMemset(c->host.slots, 0, nslot * sizeof(bs_ex_slot),
				  l->hStream));
	CHECK_SAN(sanitizerMemset(c->host.counts, 0,
				  BS_EX_GPCS * sizeof(bs_ex_count),
				  l->hStream));
	CHECK_SAN(sanitizerMemcpyHostToDeviceAsync(c->dev, &c->host,
						   sizeof c->host, l->hStream));
	CHECK_SAN(sanitizerSetLaunchCallbackData(l->hLaunch, l->function,
						 l->hStream, c->dev));
	g.npend++;
	trace("armed launch %lu %s at pc 0x%llx", g.launch, kernel,
	      (unsigned long long)c->fn_pc);
	return 0;
}

static const char *kind_name(const bs_ex_rec *r)
{
	int rd = !!(r->flags & 0x1), wr = !!(r->flags & 0x2);

	switch (r->kind) {
	case BS_EX_MATRIX:
		return wr ? "stsm" : "ldsm";
	case BS_EX_MEMCPY_ASYNC:
		return "ldgsts";
	case BS_EX_REMOTE:
		return "remote";
	default:
		return rd && wr ? "atom" : wr ? "st" : "ld";
	}
}

/* The 32 lane fields of explain.tsv: each lane's value, '-' where the
 * lane is not in mask. */
static void lane_fields(uint32_t mask, const uint32_t *v)
{
	for (int l = 0; l < 32; l++) {
		if (l)
			fputc(' ', g.out);
		if (mask >> l & 1)
			fprintf(g.out, "%u", v[l]);
		else
			fputc('-', g.out);
	}
}

/* A call of collect(): a failure is traced (in check.h's words) and the
 * launch kept for a later try (the Sanitizer API refuses copies in some
 * callbacks), where CHECK_SAN would stop sampling. */
#define TRY_SAN(call)                                                        \
	do {                                                                 \
		SanitizerResult bs_r_ = (call);                              \
		if (bs_r_ != SANITIZER_SUCCESS) {                            \
			char bs_m_[512];                                     \
			bs_check_san_line(bs_m_, sizeof bs_m_, __FILE__,     \
					  __LINE__, #call, bs_r_);           \
			trace("%s: %s", where, bs_m_);                       \
			free(rec);                                           \
			free(cnt);                                           \
			return -1;                                           \
		}                                                            \
	} while (0)

/* One record of launch c as a line of explain.tsv. */
static void write_record(const pending *c, const bs_ex_rec *r)
{
	fprintf(g.out, "%lu\t%s\t%s\t0x%llx\t%s\t%u\t%u\t%u\t%u\t%u\t",
		c->launch, c->kernel, c->function,
		(unsigned long long)(r->pc - c->fn_pc), kind_name(r), r->size,
		r->count, r->block, r->warp, r->exec);
	lane_fields(r->mask, r->addr);
	fputc('\t', g.out);
	if (r->kind == BS_EX_MEMCPY_ASYNC)
		lane_fields(r->mask, r->src);
	else
		fputc('-', g.out);
	fputc('\n', g.out);
}

/* Launch c's counts to explain-counts.tsv, in table order. */
static void write_counts(const pending *c, const bs_ex_count *t)
{
	if (!g.counts)
		return;
	for (size_t i = 0; i < BS_EX_GPCS; i++)
		if (t[i].pc)
			fprintf(g.counts, "%lu\t%s\t%s\t0x%llx\t%u\t%u\n",
				c->launch, c->kernel, c->function,
				(unsigned long long)(t[i].pc - c->fn_pc),
				t[i].active, t[i].remote);
	fflush(g.counts);
}

static uint32_t least(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* A sampled launch's records to explain.tsv and its counts to
 * explain-counts.tsv; 0 done, -1 to try later. */
static int collect(pending *c, const char *where)
{
	bs_ex_state st;
	bs_ex_rec *rec = NULL;
	bs_ex_count *cnt = NULL;
	uint32_t n, from[3], len[3];

	TRY_SAN(sanitizerStreamSynchronize(c->stream));
	TRY_SAN(sanitizerMemcpyDeviceToHost(&st, c->dev, sizeof st,
					    c->stream));
	from[0] = 0;
	len[0] = least(st.nrec, st.cap);
	for (int k = 0; k < 2; k++) {
		from[k + 1] = st.cap + (uint32_t)k * st.gcap;
		len[k + 1] = least(st.gnrec[k], st.gcap);
	}
	n = st.cap + 2 * st.gcap;
	if (!(rec = malloc((size_t)n * sizeof *rec)) ||
	    !(cnt = malloc(BS_EX_GPCS * sizeof *cnt))) {
		free(rec);
		stop("out of memory for %u records", n);
		return 0;
	}
	for (int k = 0; k < 3; k++)
		if (len[k])
			TRY_SAN(sanitizerMemcpyDeviceToHost(
				rec + from[k], st.rec + from[k],
				(size_t)len[k] * sizeof *rec, c->stream));
	TRY_SAN(sanitizerMemcpyDeviceToHost(cnt, st.counts,
					    BS_EX_GPCS * sizeof *cnt,
					    c->stream));
	for (int k = 0; k < 3; k++)
		for (uint32_t i = 0; i < len[k]; i++)
			write_record(c, &rec[from[k] + i]);
	fflush(g.out);
	if (!st.goverflow)        /* a full table's absences prove nothing */
		write_counts(c, cnt);
	free(rec);
	free(cnt);
	if (g.status) {
		fprintf(g.status, "launch %lu\t%s\t%u records\t%u dropped\t"
			"%u pcs over the table\t%u grid records\t%u grid "
			"dropped\t%u grid pcs over the table\n", c->launch,
			c->kernel, len[0], st.dropped, st.overflow,
			len[1] + len[2], st.gdropped, st.goverflow);
		fflush(g.status);
	}
	trace("%s: launch %lu: %u + %u + %u records, %u + %u dropped, %u + "
	      "%u overflow", where, c->launch, len[0], len[1], len[2],
	      st.dropped, st.gdropped, st.overflow, st.goverflow);
	(void)sanitizerFree(c->ctx, st.rec);
	(void)sanitizerFree(c->ctx, st.counts);
	(void)sanitizerFree(c->ctx, st.slots);
	(void)sanitizerFree(c->ctx, c->dev);
	return 0;
}

/* Collect the ended sampled launches of ctx (NULL: all) that can be. */
static void collect_ended(CUcontext ctx, const char *where)
{
	int k = 0;

	for (int i = 0; i < g.npend; i++) {
		pending *c = &g.pend[i];

		if (!c->ended || (ctx && c->ctx != ctx) || collect(c, where) < 0)
			g.pend[k++] = *c;
	}
	g.npend = k;
}

/* ---- callbacks ------------------------------------------------------------ */

static void on_launch(Sanitizer_CallbackId cbid, const Sanitizer_LaunchData *l)
{
	const char *kernel;
	struct module_state *ms;

	if (cbid == SANITIZER_CBID_LAUNCH_END) {
		struct module_state *s = module_of(l->module);

		for (int i = 0; i < g.npend; i++)
			g.pend[i].ended |= g.pend[i].launch == g.launch;
		collect_ended(l->context, "launch end");
		g.launch++;
		if (s && s->repatch && g.unpatch == 1)
			(void)patch_module(l->context, l->module);
		else if (g.unpatch == 1)
			(void)unpatch_idle(l->module);
		return;
	}
	if (cbid != SANITIZER_CBID_LAUNCH_BEGIN)
		return;
	if (!(kernel = launch_name(l->functionName))) {
		stop("out of memory for a kernel name");
		return;
	}
	trace("launch %lu begin %s", g.launch, kernel);
	ms = module_of(l->module);
	if (selected(kernel) && !seen_function(l->function) &&
	    g.nsampled < MAX_FUNCS) {
		if (ms && !ms->patched) {
			/* unpatched by us: patched again at its end */
			ms->repatch = 1;
			trace("launch %lu of %s not sampled: its module is "
			      "unpatched", g.launch, kernel);
			return;
		}
		g.sampled[g.nsampled++] = l->function;
		(void)arm(l, kernel);
		if ((ms = module_of(l->module)))
			ms->idle = 0;
	} else if (ms && ms->patched) {
		ms->idle++;
		if (g.unpatch == 2)
			(void)unpatch_idle(l->module);
		if (ms->patched)
			(void)sanitizerSetLaunchCallbackData(
				l->hLaunch, l->function, l->hStream, NULL);
	}
}

static void SANITIZERAPI on_callback(void *user, Sanitizer_CallbackDomain dom,
				     Sanitizer_CallbackId cbid,
				     const void *data)
{
	(void)user;
	pthread_mutex_lock(&g.lock);
	if (g.active && dom == SANITIZER_CB_DOMAIN_LAUNCH)
		on_launch(cbid, data);
	else if (g.active && dom == SANITIZER_CB_DOMAIN_RESOURCE &&
		 cbid == SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_FINISHED)
		(void)add_patches(
			((const Sanitizer_ResourceContextData *)data)->context);
	else if (g.active && dom == SANITIZER_CB_DOMAIN_RESOURCE &&
		 cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED)
		(void)patch_module(
			((const Sanitizer_ResourceModuleData *)data)->context,
			((const Sanitizer_ResourceModuleData *)data)->module);
	else if (g.active && g.npend && dom == SANITIZER_CB_DOMAIN_SYNCHRONIZE)
		collect_ended(((const Sanitizer_SynchronizeData *)data)->context,
			      cbid == SANITIZER_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED
			      ? "stream synchronized" : "context synchronized");
	else if (g.active && g.npend && dom == SANITIZER_CB_DOMAIN_MEMCPY)
		collect_ended(NULL, "memcpy");
	pthread_mutex_unlock(&g.lock);
}

/* ---- set-up ---------------------------------------------------------------- */

static FILE *open_out(const char *name, const char *header)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", g.dir, name);
	if (!(f = fopen(path, "w"))) {
		stop("cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	if (header) {
		fprintf(f, "%s\n", header);
		fflush(f);
	}
	return f;
}

/* The callbacks: launches, new contexts and modules, and the
 * synchronizations and copies after which records can be collected. */
static int subscribe(void)
{
	const Sanitizer_CallbackDomain res = SANITIZER_CB_DOMAIN_RESOURCE;

	CHECK_SAN(sanitizerSubscribe(&g.sub, on_callback, NULL));
	CHECK_SAN(sanitizerEnableDomain(1, g.sub, SANITIZER_CB_DOMAIN_LAUNCH));
	CHECK_SAN(sanitizerEnableCallback(
		1, g.sub, res, SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_FINISHED));
	CHECK_SAN(sanitizerEnableCallback(
		1, g.sub, res, SANITIZER_CBID_RESOURCE_MODULE_LOADED));
	CHECK_SAN(sanitizerEnableDomain(1, g.sub,
					SANITIZER_CB_DOMAIN_SYNCHRONIZE));
	CHECK_SAN(sanitizerEnableDomain(1, g.sub, SANITIZER_CB_DOMAIN_MEMCPY));
	return 0;
}

static void at_exit(void);

static void init(void)
{
	const char *dir = getenv("BANKSCOPE_EXPLAIN_DIR");
	char path[PATH_MAX];

	int own;

	if (g.inited || !dir || !*dir || strlen(dir) >= sizeof g.dir ||
	    !bs_process_targeted())
		return;
	g.inited = 1;
	/* a later process of the program: DIR/explain-PID (common.h) */
	if ((own = bs_process_dir(dir, "explain-status.txt", "explain", g.dir,
				  sizeof g.dir)) < 0)
		return;
	bs_recursive_mutex_init(&g.lock);
	pthread_mutex_lock(&g.lock);
	g.active = 1;
	if (own)
		bs_write_process(g.dir, "explain-process.txt");
	if (getenv("BANKSCOPE_EXPLAIN_LOG")) {
		snprintf(path, sizeof path, "%s/explain.log", g.dir);
		g.log = fopen(path, "a");
	}
	g.demangle = bs_find_demangler();
	if ((g.status = open_out("explain-status.txt", "ok")) &&
	    read_choices() == 0 &&
	    (g.out = open_out("explain.tsv", BS_EXPLAIN_COLUMNS_SOURCES)) &&
	    (g.counts = open_out("explain-counts.tsv",
				 BS_EXPLAIN_COUNT_COLUMNS))) {
		int rc = subscribe();

		trace("pid %ld subscribed, sample %ux%ux%u", (long)getpid(),
		      g.blocks, g.warps, g.execs);
		if (rc == 0)
			atexit(at_exit);
	}
	pthread_mutex_unlock(&g.lock);
}

/* At exit: what is still waiting (the program did not synchronize). */
static void at_exit(void)
{
	pthread_mutex_lock(&g.lock);
	if (g.active) {
		for (int i = 0; i < g.npend; i++)
			g.pend[i].ended = 1;
		collect_ended(NULL, "exit");
		if (g.npend && g.status)
			fprintf(g.status, "%d sampled launches could not be "
				"collected\n", g.npend);
		trace("at exit: %lu patches, %lu unpatches", g.patches,
		      g.unpatches);
	}
	if (g.status)
		fflush(g.status);
	pthread_mutex_unlock(&g.lock);
}

__attribute__((constructor)) static void on_load(void)
{
	init();
}

BS_EXPORT int InitializeInjection(void);

BS_EXPORT int InitializeInjection(void)
{
	init();
	return 1;
}
