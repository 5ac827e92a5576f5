/*
 * inject.h - what the files of libbankscope_inject.so share (private):
 *
 *   inject.c     set-up: InitializeInjection, the environment's choices,
 *                the driver's functions, the explain library
 *   files.c      the directory: status.txt, records.tsv and launches.tsv
 *                (one write(2) each), the cubins, device.txt; kernels by
 *                name
 *   metrics.c    CUPTI's SASS metrics: configure, enable, flush a
 *                context's records into records.tsv, disable
 *   callbacks.c  the subscription and its callbacks: launches, modules,
 *                contexts; the window and its drain
 *
 * Include it first (it defines _GNU_SOURCE).  Nothing here is exported:
 * the library is built with -fvisibility=hidden, InitializeInjection
 * alone is BS_EXPORT.
 */
#ifndef BANKSCOPE_INJECT_H
#define BANKSCOPE_INJECT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include <cuda.h>
#include <cupti_callbacks.h>
#include <cupti_result.h>

#include "common.h"
#include "cupti_reason.h"
#include "sass/bs_sass.h"
#include "select.h"

void inj_stop(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Every CUPTI and driver call goes through check.h's CHECK_CUPTI and
 * CHECK_CU: on failure collection stops, the line in status.txt, and the
 * calling function returns -1. */
#define BS_CHECK_FAIL(msg)                                                   \
	do {                                                                 \
		inj_stop("%s", (msg));                                       \
		return -1;                                                   \
	} while (0)
#include "check.h"

/* The first NREQUIRED must be offered; the rest are taken when the chip
 * has them (metrics.c). */
#define NMETRICS 4
#define NREQUIRED 3

typedef CUresult (*ctx_sync_fn)(void);
typedef CUresult (*ctx_push_fn)(CUcontext);
typedef CUresult (*ctx_pop_fn)(CUcontext *);
typedef CUresult (*dev_get_fn)(CUdevice *, int);
typedef CUresult (*dev_attr_fn)(int *, CUdevice_attribute, CUdevice);
typedef CUresult (*dev_name_fn)(char *, int, CUdevice);

/* The library's state; every callback holds lock. */
typedef struct {
	pthread_mutex_t lock;
	int active;                 /* 0 after a failure */
	int owner;                  /* this process made status.txt */
	char dir[PATH_MAX - 32];
	int records, launches;      /* O_APPEND descriptors */
	FILE *log;
	CUpti_SubscriberHandle sub;
	int profiler_inited;
	uint64_t id[NMETRICS];      /* of the configured device */
	int have[NMETRICS];         /* configured (the optional ones) */
	CUcontext on;               /* enabled context, or NULL */
	int closed;                 /* the window was drained */
	int lazy, profiled_cb, sass;
	int subscribe, explain_first;  /* experiments: see read_choices */
	int each_first;             /* BANKSCOPE_PROFILE_LAUNCH=first */
	int pause;                  /* BANKSCOPE_INJECT_PAUSE: see
				       callbacks.c */
	CUcontext paused;           /* the window's context, paused */
	unsigned long pauses;       /* times paused */
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
	bs_demangle_fn demangle;
} inject_state;

extern inject_state inj;

#define trace(...) bs_trace(inj.log, __VA_ARGS__)

/* Kernels by demangled name: named by a launch callback, and the flush
 * whose records of it were kept (0: none yet). */
typedef struct {
	char *name;
	int named;
	int tried;                  /* its first selected launch was flushed */
	unsigned long kept;
} kernel_seen;

/* ---- files.c ---- */
char *inj_kernel_name(const char *mangled);
const char *inj_launch_name(const char *symbol, const char *function);
int inj_launch_line(const char *line, size_t n);
int inj_launches_out(void);
kernel_seen *inj_seen_kernel(const char *name);
int inj_write_all(int fd, const char *what, const char *buf, size_t n);
int inj_open_table(const char *name, const char *header);
void inj_save_cubin(const CUpti_ModuleResourceData *m);
void inj_write_device(uint32_t dev);

/* ---- metrics.c ---- */
int inj_start(CUcontext ctx);
int inj_enable(CUcontext ctx);
int inj_disable(CUcontext ctx);
int inj_flush(CUcontext ctx, const char *only, const char *launch, int all,
	      unsigned long *written);

/* ---- callbacks.c ---- */
int inj_subscribe(void);
void inj_at_exit(void);

#endif
