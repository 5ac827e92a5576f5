/*
 * common.h - what the two injection libraries do alike: inject/ (the
 * counters of `bankscope profile`) and explain/ (the addresses of
 * --explain).  Both run inside someone else's program, so both keep a
 * trace file rather than print, take callbacks under one recursive
 * mutex, and name kernels by their demangled name with the process's own
 * __cxa_demangle (the program may not link libstdc++; then names stay
 * mangled).  Static inline, like select.h: each .so compiles its own copy
 * and exports none of it.
 */
#ifndef BANKSCOPE_PROFILER_COMMON_H
#define BANKSCOPE_PROFILER_COMMON_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The library's entry point, the only symbol it exports. */
#define BS_EXPORT __attribute__((visibility("default")))

typedef char *(*bs_demangle_fn)(const char *, char *, size_t *, int *);

static inline void bs_trace(FILE *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One line of the library's trace (its BANKSCOPE_*_LOG file), flushed at
 * once so that a crash of the program keeps it; nothing without a log. */
static inline void bs_trace(FILE *log, const char *fmt, ...)
{
	va_list ap;

	if (!log)
		return;
	va_start(ap, fmt);
	vfprintf(log, fmt, ap);
	va_end(ap);
	fputc('\n', log);
	fflush(log);
}

/* The mutex every callback takes: recursive, since a callback's own CUDA
 * calls may issue callbacks on the same thread. */
static inline void bs_recursive_mutex_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}

/* The process's __cxa_demangle, or NULL: in the global scope, else in a
 * libstdc++.so.6 loaded locally (by a Python extension, say).  Both
 * libraries look alike, so that explain.tsv and records.tsv name a
 * kernel the same way. */
static inline bs_demangle_fn bs_find_demangler(void)
{
	void *sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	void *h;
	bs_demangle_fn fn = NULL;

	if (!sym && (h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_NOLOAD)))
		sym = dlsym(h, "__cxa_demangle");
	if (sym)
		memcpy(&fn, &sym, sizeof sym);   /* void * to function */
	return fn;
}

/* The demangled name of mangled ("?" when empty), in a new string the
 * caller frees (NULL: out of memory).  Tabs and line ends become blanks:
 * the name is a field of a tab-separated line. */
static inline char *bs_kernel_name(bs_demangle_fn demangle,
				   const char *mangled)
{
	char *d = NULL, *c;
	int st = -1;

	if (!mangled || !*mangled)
		mangled = "?";
	if (demangle)
		d = demangle(mangled, NULL, NULL, &st);
	c = strdup(d && st == 0 ? d : mangled);
	free(d);
	for (char *p = c; p && *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	return c;
}

#endif
