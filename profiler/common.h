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
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static inline size_t bs_name_hash(const char *s)
{
	size_t h = 1469598103934665603u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

/*
 * Demangled names by mangled name, each demangled once: a program that
 * launches three kernels 10^5 times demangled 10^5 names
 * (data/h200/launch-bench-20261202).  An open-addressing table, grown at
 * half full; the strings live as long as the process.
 */
typedef struct {
	struct bs_name_entry {
		char *key, *name;
	} *v;
	size_t cap, n;
} bs_name_cache;

/* mangled's demangled name (bs_kernel_name), from c or into it; NULL when
 * out of memory. */
static inline const char *bs_name_cached(bs_name_cache *c,
					 bs_demangle_fn demangle,
					 const char *mangled)
{
	size_t i, cap;

	if (2 * (c->n + 1) > c->cap) {
		struct bs_name_entry *v;

		cap = c->cap ? 2 * c->cap : 256;
		if (!(v = calloc(cap, sizeof *v)))
			return NULL;
		for (size_t k = 0; k < c->cap; k++) {
			if (!c->v[k].key)
				continue;
			for (i = bs_name_hash(c->v[k].key) & (cap - 1); v[i].key;
			     i = (i + 1) & (cap - 1))
				;
			v[i] = c->v[k];
		}
		free(c->v);
		c->v = v;
		c->cap = cap;
	}
	cap = c->cap;
	for (i = bs_name_hash(mangled) & (cap - 1); c->v[i].key;
	     i = (i + 1) & (cap - 1))
		if (!strcmp(c->v[i].key, mangled))
			return c->v[i].name;
	if (!(c->v[i].key = strdup(mangled)))
		return NULL;
	if (!(c->v[i].name = bs_kernel_name(demangle, mangled))) {
		free(c->v[i].key);
		c->v[i].key = NULL;
		return NULL;
	}
	c->n++;
	return c->v[i].name;
}

/*
 * Processes.  A program may start several processes that use the GPU (a
 * multiprocessing job, torchrun); each is profiled on its own, in a
 * directory of its own.  The first process to claim `claim` (a file
 * made with O_EXCL) in dir keeps dir; a later one takes dir/PREFIX-PID,
 * made here.  BANKSCOPE_PROFILE_RERUN=1 (bankscope profile's runs for
 * kernels the first run gave no records for) keeps dir: those runs add
 * to the first's files.  The directory into out (size bytes); 1 when
 * this process claimed it (it owns its status), 0 when it shares it, -1
 * when no directory of its own could be made.
 */
static inline int bs_process_dir(const char *dir, const char *claim,
				 const char *prefix, char *out, size_t size)
{
	const char *rerun = getenv("BANKSCOPE_PROFILE_RERUN");
	char path[4200];
	int fd;

	snprintf(out, size, "%s", dir);
	snprintf(path, sizeof path, "%s/%s", dir, claim);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		       0644)) >= 0) {
		close(fd);
		return 1;
	}
	if (rerun && !strcmp(rerun, "1"))
		return 0;
	if (snprintf(out, size, "%s/%s-%ld", dir, prefix, (long)getpid()) >=
	    (int)size || mkdir(out, 0755) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/%s", out, claim);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		       0644)) < 0)
		return -1;
	close(fd);
	return 1;
}

/* Is this process to be profiled?  BANKSCOPE_PROFILE_TARGET=
 * application-only (Nsight's --target-processes application-only): only
 * the process bankscope started, whose parent is BANKSCOPE_PROFILE_PARENT;
 * anything else: every process. */
static inline int bs_process_targeted(void)
{
	const char *t = getenv("BANKSCOPE_PROFILE_TARGET");
	const char *parent = getenv("BANKSCOPE_PROFILE_PARENT");

	if (!t || strcmp(t, "application-only") || !parent || !*parent)
		return 1;
	return strtol(parent, NULL, 10) == (long)getppid();
}

/* Name (process.txt, explain-process.txt) in dir: the process's pid, parent's pid and command line
 * (NUL-separated arguments joined by spaces; control bytes as '?'). */
static inline void bs_write_process(const char *dir, const char *name)
{
	char path[4200], cmd[4096];
	FILE *f;
	size_t n = 0;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)getpid());
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		ssize_t r = read(fd, cmd, sizeof cmd - 1);

		n = r > 0 ? (size_t)r : 0;
		close(fd);
	}
	while (n && cmd[n - 1] == '\0')
		n--;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)cmd[i] < 0x20 || cmd[i] == 0x7f)
			cmd[i] = cmd[i] ? '?' : ' ';
	cmd[n] = '\0';
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "w"))) {
		fprintf(f, "pid\t%ld\nppid\t%ld\ncommand\t%s\n",
			(long)getpid(), (long)getppid(), cmd);
		fclose(f);
	}
}

#endif
