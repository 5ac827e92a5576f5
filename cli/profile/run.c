/*
 * run.c - bankscope profile's runs of the program (profile.c's head says
 * what they are): the variables of each run (run_spec), spawning and
 * reaping, the later runs of kernels the first gave no records for, the
 * explain run, --keep's directory or a temporary one, and
 * profile_run(), the whole of `profile -- PROGRAM`.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "profile.h"

#define EXPLAIN_NAME "libbankscope_explain.so"
#define PATCH_NAME "bankscope_explain_patch.fatbin"
#define EXPLAIN_SAME_DEFAULT 0 /* see explain_same_run() */

/* ---- time ---------------------------------------------------------------- */

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* --verbose: "profile: WHAT: S s" on stderr, the time since *t; *t = now. */
static void phase(const options *o, double *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void phase(const options *o, double *t, const char *fmt, ...)
{
	double n = now();
	va_list ap;

	if (o->verbose) {
		fputs("bankscope: profile: ", stderr);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fprintf(stderr, ": %.3f s\n", n - *t);
	}
	*t = n;
}

/* ---- running the program ------------------------------------------------- */

/* Variables of ours: never passed on from our own environment. */
static const char *const our_vars[] = {
	"CUDA_INJECTION64_PATH", "BANKSCOPE_PROFILE_DIR",
	"BANKSCOPE_PROFILE_KERNEL", "BANKSCOPE_PROFILE_SKIP",
	"BANKSCOPE_PROFILE_COUNT", "BANKSCOPE_PROFILE_LAUNCH",
	"BANKSCOPE_EXPLAIN_DIR", "BANKSCOPE_EXPLAIN_PATCH",
	"BANKSCOPE_EXPLAIN_SAMPLE", "BANKSCOPE_EXPLAIN_LIB",
	"BANKSCOPE_PROFILE_TARGET", "BANKSCOPE_PROFILE_PARENT",
	"BANKSCOPE_PROFILE_RERUN",
};
#define NVARS (sizeof our_vars / sizeof *our_vars)

/* One run: its variables, NAME=VALUE each (NULL: left out). */
typedef struct {
	char *set[NVARS];
	int quiet;
	int explain;               /* the explain run */
	int cut;                   /* ended by us: every kernel sampled */
	pid_t pid;
	int started, status;
} run_spec;

static void spec_free(run_spec *r)
{
	for (size_t v = 0; v < NVARS; v++)
		free(r->set[v]);
}

/* Set variable v of r to the value (a copy). */
static int spec_set(run_spec *r, size_t v, const char *value)
{
	free(r->set[v]);
	return asprintf(&r->set[v], "%s=%s", our_vars[v], value) < 0 ? -1 : 0;
}

static int spec_set_ul(run_spec *r, size_t v, unsigned long n)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%lu", n);
	return spec_set(r, v, buf);
}

/* environ without our variables, then the run's own. */
static char **child_env(const run_spec *r)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	if (!(env = calloc(n + NVARS + 1, sizeof *env)))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t v = 0, len;

		for (; v < NVARS; v++) {
			len = strlen(our_vars[v]);
			if (!strncmp(environ[i], our_vars[v], len) &&
			    environ[i][len] == '=')
				break;
		}
		if (v == NVARS)
			env[k++] = environ[i];
	}
	for (size_t v = 0; v < NVARS; v++)
		if (r->set[v])
			env[k++] = r->set[v];
	return env;
}

/*
 * Start the program for r: 0, or 126/127 after the message when it could
 * not be started, 2 on other failures.
 */
static int start_run(const options *o, run_spec *r)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t def;
	char **env;
	int rc;

	if (!(env = child_env(r)))
		return usage_error("profile: out of memory");
	sigemptyset(&def);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGQUIT);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigdefault(&attr, &def);
	/* the explain run in a process group of its own, so that
	   wait_explain() ends all of it */
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF |
				 (r->explain ? POSIX_SPAWN_SETPGROUP : 0));
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawn_file_actions_init(&fa);
	if (r->quiet) {
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY,
						 0);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY,
						 0);
	}
	fflush(stdout);
	rc = posix_spawnp(&r->pid, o->prog[0], &fa, &attr, o->prog, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	free(env);
	if (rc == ENOENT || rc == ENOTDIR) {
		usage_error("%s: not found", o->prog[0]);
		return 127;
	}
	if (rc) {
		usage_error("%s: cannot run: %s", o->prog[0], strerror(rc));
		return 126;
	}
	r->started = 1;
	return 0;
}

static int wait_code(int st)
{
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

/* "^NAME$" with every character a regular expression gives a meaning to
 * escaped: the run that selects one kernel by its exact name. */
static char *exact(const char *name)
{
	char *re = malloc(2 * strlen(name) + 3), *q = re;

	if (!re)
		return NULL;
	*q++ = '^';
	for (const char *s = name; *s; s++) {
		if (strchr(".[]()*+?{}|^$\\", *s))
			*q++ = '\\';
		*q++ = *s;
	}
	*q++ = '$';
	*q = '\0';
	return re;
}

static int by_kernel_then_index(const void *a, const void *b)
{
	const bs_sass_launch *x = *(const bs_sass_launch *const *)a;
	const bs_sass_launch *y = *(const bs_sass_launch *const *)b;
	uintptr_t kx = (uintptr_t)x->kernel, ky = (uintptr_t)y->kernel;

	if (kx != ky)
		return kx < ky ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* A kernel still to measure, and the run that gives its launches. */
typedef struct {
	const char *kernel;
	unsigned long first;       /* its first selected launch */
	unsigned long skip, count; /* count 0: all after skip */
} target;

static int by_first(const void *a, const void *b)
{
	const target *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

/*
 * The kernels among the selected launches (--kernel, --launch-skip,
 * --launch-count, as inject.c selects them, in launch order) that have no
 * records yet (CUPTI gave a run none for them), in the order of their first selected launch, each with the
 * skip and count of its own launches that select the same ones (with
 * --launches first: its first selected launch).  NULL when out of memory;
 * *selected: the selected launches.
 */
static target *targets(const bs_sassprof *sp, const options *o, size_t *count,
		       unsigned long *selected)
{
	size_t nl = bs_sassprof_launch_count(sp), n = 0;
	const bs_sass_launch **l = malloc((nl ? nl : 1) * sizeof *l);
	unsigned char *sel = malloc(nl ? nl : 1);
	target *t = malloc((nl ? nl : 1) * sizeof *t);
	unsigned long matched = 0;

	*selected = 0;
	if (!l || !t || !sel) {
		free(l);
		free(t);
		free(sel);
		return NULL;
	}
	for (size_t i = 0; i < nl; i++) {
		const bs_sass_launch *x = bs_sassprof_launch_at(sp, i);
		unsigned long k;

		sel[i] = 0;
		if (!x->kernel ||
		    (o->kernel && regexec(&o->re, x->kernel, 0, NULL, 0)))
			continue;
		k = matched++;
		sel[i] = k >= o->skip && (!o->count || k - o->skip < o->count);
		*selected += sel[i];
	}
	for (size_t i = 0; i < nl; i++)
		l[i] = bs_sassprof_launch_at(sp, i);
	qsort(l, nl, sizeof *l, by_kernel_then_index);
	for (size_t i = 0, j; i < nl; i = j) {
		unsigned long before = 0, nsel = 0, first = 0;
		int got = 0;

		for (j = i; j < nl && l[j]->kernel == l[i]->kernel; j++) {
			/* launch_at() is in index order: index i is at i */
			size_t at = (size_t)(l[j] - bs_sassprof_launch_at(sp, 0));

			if (sel[at] && !nsel++)
				first = l[j]->index;
			else if (!nsel)
				before++;
			/* records of its own, or a window that has its
			 * kernel's (count() marks those measured) */
			got |= l[j]->records > 0 ||
			       (l[j]->window && l[j]->measured);
		}
		if (!nsel || got || !l[i]->kernel)
			continue;
		t[n].kernel = l[i]->kernel;
		t[n].first = first;
		t[n].skip = before;
		t[n].count = o->all_launches ? (o->count ? nsel : 0) : 1;
		n++;
	}
	free(l);
	free(sel);
	qsort(t, n, sizeof *t, by_first);
	*count = n;
	return t;
}

/* Wait for any started run of r[0..n); its slot, or -1 when none runs. */
static int reap(run_spec *r, size_t n)
{
	for (;;) {
		int st;
		pid_t pid = wait(&st);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (size_t i = 0; i < n; i++)
			if (r[i].started == 1 && r[i].pid == pid) {
				r[i].started = 2;
				r[i].status = st;
				return (int)i;
			}
	}
}

/* An absolute path of a readable file: given as is (made absolute), else
 * `name` beside this executable (found through /proc/self/exe). */
static int find_file(const char *given, const char *name, const char *what,
		     const char *hint, char *buf, size_t size)
{
	char self[4096], cwd[4096], *slash;
	ssize_t n;
	int dir, up;

	if (given && *given) {
		if (access(given, R_OK))
			return usage_error("profile: %s %s: %s", what, given,
					   strerror(errno));
		if (given[0] != '/' && !getcwd(cwd, sizeof cwd))
			return usage_error("profile: cannot get the current "
					   "directory: %s", strerror(errno));
		if ((size_t)snprintf(buf, size, "%s%s%s",
				     given[0] == '/' ? "" : cwd,
				     given[0] == '/' ? "" : "/", given) >= size)
			return usage_error("profile: %s path too long", what);
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return usage_error("profile: cannot read /proc/self/exe: %s",
				   strerror(errno));
	self[n] = '\0';
	/* the build tree: beside the executable; make install's layout:
	 * PREFIX/bin/bankscope and PREFIX/lib/bankscope/ */
	slash = strrchr(self, '/');
	dir = slash ? (int)(slash - self) : 0;
	for (up = dir; up > 0 && self[up - 1] != '/'; up--)
		;
	snprintf(buf, size, "%.*s/%s", dir, self, name);
	if (!access(buf, R_OK))
		return 0;
	snprintf(buf, size, "%.*slib/bankscope/%s", up, self, name);
	if (up && !access(buf, R_OK))
		return 0;
	return usage_error("profile: %s is neither beside %s nor in "
			   "%.*slib/bankscope/ (%s)", name, self, up, self,
			   hint);
}

/* dir for --keep: created, or an existing empty one. */
static int keep_dir(const char *dir)
{
	DIR *d;
	struct dirent *e;

	if (!mkdir(dir, 0755))
		return 0;
	if (errno != EEXIST || !(d = opendir(dir)))
		return usage_error("option --keep: %s: %s", dir,
				   strerror(errno));
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			closedir(d);
			return usage_error("option --keep: %s is not empty",
					   dir);
		}
	closedir(d);
	return 0;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			path_join(path, sizeof path, dir, e->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(dir);
}

static char *joined(char **argv, int argc)
{
	size_t n = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	if (!(s = malloc(n)))
		return NULL;
	s[0] = '\0';
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* Which processes of the program are profiled: --target-processes, and
 * this process's pid, the parent of the one it starts. */
static int spec_target(run_spec *r, const options *o)
{
	return spec_set(r, 10, o->targets ? o->targets : "all") < 0 ||
	       spec_set_ul(r, 11, (unsigned long)getpid()) < 0 ? -1 : 0;
}

/* The selection variables of o into r: the kernel, skip and count, and
 * which of the selected launches count (--launches). */
static int spec_select(run_spec *r, const options *o)
{
	return (o->kernel && spec_set(r, 2, o->kernel) < 0) ||
	       (o->skip && spec_set_ul(r, 3, o->skip) < 0) ||
	       (o->count && spec_set_ul(r, 4, o->count) < 0) ||
	       spec_set(r, 5, o->all_launches ? "all" : "first") < 0 ? -1 : 0;
}

/* Which kernels the first run gave no records for, and what follows. */
static void tell_reruns(const target *t, size_t nt)
{
	size_t shown = nt < 3 ? nt : 3;

	fprintf(stderr, "bankscope: the first run gave no SASS records for "
		"%zu kernel%s (", nt, nt == 1 ? "" : "s");
	for (size_t i = 0; i < shown; i++)
		fprintf(stderr, "%s%.*s%s", i ? ", " : "", KERNEL_TEXT_MAX,
			t[i].kernel,
			strlen(t[i].kernel) > KERNEL_TEXT_MAX ? "..." : "");
	if (nt > shown)
		fprintf(stderr, " and %zu more", nt - shown);
	fprintf(stderr, "): CUPTI did not patch %s in that run; running the "
		"program once more for %s\n", nt == 1 ? "it" : "them",
		nt == 1 ? "it alone" : "each, alone");
}

/*
 * The runs after the first: one per kernel of the selected launches that
 * has no records yet, up to --max-runs in all, --jobs at a time, after
 * the explain run (wait_explain).  Warnings only; the runs made in *runs;
 * -1 when the records could not be read (err).
 */
static int more_runs(const options *o, const char *inject, profile *p,
		     int code0, double *clock, bs_error *err)
{
	unsigned long left, differ = 0, windows;
	size_t nt, nr, next = 0, running = 0;
	target *t;
	run_spec *r;

	if (profile_load_tables(p, err) < 0)
		return -1;
	if (p->status.state != BS_RECORDS_OK)
		return 0;
	bs_sassprof_finish(p->sp);
	if (!(t = targets(p->sp, o, &nt, &windows)))
		return bs_error_set(err, p->dir, 0, 0, "out of memory");
	if (!windows && bs_sassprof_launch_count(p->sp) && o->kernel)
		usage_error("no launch of %s matched --kernel %s%s",
			    o->prog[0], o->kernel,
			    o->skip ? " after --launch-skip" : "");
	if (nt)
		tell_reruns(t, nt);
	left = o->max_runs > 1 ? o->max_runs - 1 : 0;
	if (nt > left)
		usage_error("%zu kernel%s left unmeasured: --max-runs %lu "
			    "allows %lu more run%s", nt - left,
			    nt - left == 1 ? "" : "s", o->max_runs, left,
			    left == 1 ? "" : "s");
	nr = nt < left ? nt : left;
	if (!(r = calloc(nr ? nr : 1, sizeof *r))) {
		free(t);
		return bs_error_set(err, p->dir, 0, 0, "out of memory");
	}
	for (size_t i = 0; i < nr; i++) {
		char *re = exact(t[i].kernel);

		r[i].quiet = 1;
		if (!re || spec_set(&r[i], 0, inject) < 0 ||
		    spec_set(&r[i], 1, p->dir) < 0 ||
		    spec_set(&r[i], 12, "1") < 0 ||
		    spec_target(&r[i], o) < 0 ||
		    spec_set(&r[i], 2, re) < 0 ||
		    spec_set(&r[i], 5, o->all_launches ? "all" : "first") < 0 ||
		    (t[i].skip && spec_set_ul(&r[i], 3, t[i].skip) < 0) ||
		    (t[i].count && spec_set_ul(&r[i], 4, t[i].count) < 0)) {
			free(re);
			nr = i;
			usage_error("profile: out of memory");
			break;
		}
		free(re);
	}
	for (;;) {
		int i;

		while (next < nr && running < p->jobs) {
			if (start_run(o, &r[next]) == 0)
				running++;
			next++;
		}
		if (!running || (i = reap(r, nr)) < 0)
			break;
		running--;
		differ += wait_code(r[i].status) != code0;
		p->runs++;
	}
	phase(o, clock, "%zu more run%s, %lu at a time", nr,
	      nr == 1 ? "" : "s", p->jobs);
	for (size_t i = 0; i < nr; i++)
		spec_free(&r[i]);
	free(r);
	free(t);
	if (differ)
		usage_error("%lu later run%s of %s ended with another status "
			    "than the first", differ, differ == 1 ? "" : "s",
			    o->prog[0]);
	return 0;
}

/*
 * --explain in the first run (the injection library loads the explain
 * library: BANKSCOPE_EXPLAIN_LIB), or in a run of its own beside it:
 * BANKSCOPE_PROFILE_EXPLAIN_RUN=same|separate, default EXPLAIN_RUN_DEFAULT
 * (docs/profile.md, "--explain and the runs", says why).
 */
static int explain_same_run(void)
{
	const char *v = getenv("BANKSCOPE_PROFILE_EXPLAIN_RUN");

	if (v && !strcmp(v, "same"))
		return 1;
	if (v && !strcmp(v, "separate"))
		return 0;
	return EXPLAIN_SAME_DEFAULT;
}

/* The explain library's variables into r: its directory, patch module and
 * sample; with lib, BANKSCOPE_EXPLAIN_LIB for the injection library to
 * load it into the same process. */
static int spec_explain(run_spec *r, const char *lib, const char *dir,
			const char *patch, const options *o)
{
	return spec_set(r, 6, dir) < 0 || spec_set(r, 7, patch) < 0 ||
	       (o->sample && spec_set(r, 8, o->sample) < 0) ||
	       (lib && spec_set(r, 9, lib) < 0) ? -1 : 0;
}

#define PATH_BYTES 4096

/* The injection library, and with --explain the explain library and its
 * patch module, into PATH_BYTES buffers; 0, or the exit status. */
static int find_libraries(const options *o, char *inject, char *lib,
			  char *patch)
{
	if (find_file(o->inject ? o->inject : getenv("BANKSCOPE_INJECT"),
		      INJECT_NAME, "injection library", "make build/"
		      INJECT_NAME ", or name it with --inject", inject,
		      PATH_BYTES) ||
	    (o->explain &&
	     (find_file(getenv("BANKSCOPE_EXPLAIN_LIB"), EXPLAIN_NAME,
			"explain library", "make explain: it needs the CUDA "
			"Sanitizer API", lib, PATH_BYTES) ||
	      find_file(getenv("BANKSCOPE_EXPLAIN_PATCH"), PATCH_NAME,
			"explain patch module", "make explain", patch,
			PATH_BYTES))))
		return EXIT_BADINPUT;
	return 0;
}

/* The records directory: --keep's, else a new one under $TMPDIR named in
 * tmpl (PATH_BYTES); 0, or the exit status. */
static int records_dir(const options *o, char *tmpl, const char **dir)
{
	if (o->keep) {
		if (keep_dir(o->keep))
			return EXIT_BADINPUT;
		*dir = o->keep;
		return 0;
	}
	snprintf(tmpl, PATH_BYTES, "%s/bankscope-profile-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpl))
		return usage_error("profile: cannot make a directory %s: %s",
				   tmpl, strerror(errno));
	*dir = tmpl;
	return 0;
}

/* The first run's variables, and with a separate explain run x's (its
 * own selection: the injection library is not there to pass it on);
 * 0, or -1 out of memory. */
static int set_specs(const options *o, run_spec *first, run_spec *x,
		     const char *inject, const char *lib, const char *patch,
		     const char *dir, int same)
{
	if (spec_set(first, 0, inject) < 0 || spec_set(first, 1, dir) < 0 ||
	    spec_select(first, o) < 0 || spec_target(first, o) < 0 ||
	    (same && spec_explain(first, lib, dir, patch, o) < 0))
		return -1;
	if (!o->explain || same)
		return 0;
	return spec_set(x, 0, lib) < 0 || spec_target(x, o) < 0 ||
	       spec_explain(x, NULL, dir, patch, o) < 0 ||
	       (o->kernel && spec_set(x, 2, o->kernel) < 0) ||
	       (o->skip && spec_set_ul(x, 3, o->skip) < 0) ||
	       (o->count && spec_set_ul(x, 4, o->count) < 0) ? -1 : 0;
}

/* How the program's runs ended, when not well: killed, an exit status,
 * an explain run that ended otherwise. */
static void tell_ending(const options *o, const profile *p,
			const run_spec *first, const run_spec *x, int code)
{
	int empty = p->status.state == BS_RECORDS_NONE || !p->tot.records;

	if (WIFSIGNALED(first->status))
		usage_error("%s was killed by signal %d (%s)%s", o->prog[0],
			    WTERMSIG(first->status),
			    strsignal(WTERMSIG(first->status)),
			    empty ? "" : "; the profile covers what ran");
	else if (code)
		usage_error("%s exited with status %d%s", o->prog[0], code,
			    empty ? "" : "; the profile covers what ran");
	if (o->explain && x->started && !x->cut &&
	    wait_code(x->status) != code)
		usage_error("the explain run of %s ended with status %d",
			    o->prog[0], wait_code(x->status));
}

/*
 * The explain run, after the first run and its later ones: it samples the
 * first launch of each kernel and nothing after, yet every later launch
 * runs its patched code (a kernel launched 101 times: 0.49 s bare, 29 s
 * explained, data/h200/explain-bench-20261202b), and the Sanitizer API
 * could not unpatch a module from a launch callback on a non-blocking
 * stream: it never returned (data/h200/launch-bench-20261202).  So once
 * its explain-status.txt has a sampled launch of every kernel the first
 * run measured, the run has given all it will and is ended (SIGKILL; its
 * output already goes to /dev/null, and every sampled launch is written
 * and flushed before its status line).  Polled every 20 ms.
 * BANKSCOPE_PROFILE_EXPLAIN_WHOLE=1 lets it run to its end (the way
 * before, for scripts/launch-bench.sh's comparison).
 */
static void wait_explain(const profile *p, run_spec *x)
{
	const char *whole = getenv("BANKSCOPE_PROFILE_EXPLAIN_WHOLE");
	char **want = NULL;
	size_t n = whole && !strcmp(whole, "1") ? 0
		   : profile_measured_kernels(p->dir, &want);
	unsigned polls = 0;

	for (;;) {
		pid_t r = waitpid(x->pid, &x->status, n ? WNOHANG : 0);

		if (r == x->pid || (r < 0 && errno != EINTR))
			break;
		if (r == 0 && polls++ % 5 == 0 &&
		    profile_explain_has(p->dir, want, n)) {
			kill(-x->pid, SIGKILL);
			while (waitpid(x->pid, &x->status, 0) < 0 &&
			       errno == EINTR)
				;
			x->cut = 1;
			break;
		}
		if (r == 0)
			usleep(20000);
	}
	for (size_t i = 0; i < n; i++)
		free(want[i]);
	free(want);
}

/*
 * -o FILE for the process pid when several processes are reported: each
 * "%p" replaced by the pid (Nsight's habit), else "-PID" put before the
 * extension (report.csv: report-1234.csv).
 */
static void process_output(const char *out, long pid, char *buf, size_t size)
{
	const char *slash = strrchr(out, '/'), *dot, *pp = strstr(out, "%p");
	size_t n = 0;

	if (pp) {
		for (const char *c = out; *c && n + 24 < size; c++) {
			if (c[0] == '%' && c[1] == 'p') {
				n += (size_t)snprintf(buf + n, size - n, "%ld", pid);
				c++;
			} else {
				buf[n++] = *c;
			}
		}
		buf[n] = '\0';
		return;
	}
	dot = strrchr(slash ? slash + 1 : out, '.');
	if (!dot || dot == (slash ? slash + 1 : out))
		snprintf(buf, size, "%s-%ld", out, pid);
	else
		snprintf(buf, size, "%.*s-%ld%s", (int)(dot - out), out, pid, dot);
}

/*
 * Several processes used the GPU (profiler/common.h: the first in the
 * directory, the others in process-PID folders): a report for each, in
 * pid order, the first process first, each naming its process, its
 * explain run's samples taken from the explain process that ran the same
 * kernels (profile_pair_explain).  The worst exit status.
 */
int report_processes(const options *o, const profile *top, char **pd,
		     long np, const char *inject, int code)
{
	char **xd = NULL, who[1200], out[4200];
	long nx = 0;
	int *taken, worst = code, replay = top->runs == 0;
	char *program = replay ? strdup("") : joined(o->prog, o->nprog);
	const char *name = replay ? o->replay : o->prog[0];

	if (o->explain && (nx = profile_process_dirs(
				   top->dir, "explain-status.txt", "explain",
				   &xd)) < 0)
		nx = 0;
	taken = calloc((size_t)(nx ? nx : 1), sizeof *taken);
	if (!program || !taken) {
		free(program);
		free(taken);
		return usage_error("profile: out of memory");
	}
	usage_error("%ld processes of %s used the GPU: a report for each",
		    np, name);
	for (long i = 0; i < np; i++) {
		profile q;
		options oq = *o;
		bs_error err;
		long k;

		memset(&q, 0, sizeof q);
		q.arch = bs_arch_default();
		q.dir = pd[i];
		q.jobs = top->jobs;
		q.runs = top->runs;
		if (o->explain &&
		    (k = profile_pair_explain(pd[i], xd, nx, taken)) >= 0) {
			taken[k] = 1;
			q.xdir = xd[k];
		}
		if (profile_load(&q, !replay, &err) < 0 ||
		    profile_choose_arch(&q, o, &err) < 0 ||
		    (o->explain && q.status.state != BS_RECORDS_NONE &&
		     !q.no_model && profile_load_explain(&q, &err) < 0) ||
		    profile_select_shown(&q, o, &err) < 0) {
			report_error(&err);
			worst = EXIT_BADINPUT;
		} else {
			snprintf(who, sizeof who, "process %ld of %s", q.pid,
				 name);
			if (profile_tell(&q, who, inject) && !worst)
				worst = 1;
			if (o->output) {
				process_output(o->output, q.pid, out, sizeof out);
				oq.output = out;
			} else if (i && o->fmt != FMT_JSON) {
				putchar('\n');
			}
			if (q.status.state != BS_RECORDS_NONE &&
			    profile_show(&q, &oq, replay ? NULL : program) < 0)
				worst = EXIT_BADINPUT;
			else if (o->output && q.status.state != BS_RECORDS_NONE)
				usage_error("process %ld: the report is in %s",
					    q.pid, out);
		}
		bs_sassprof_free(q.sp);
		bs_explain_free(q.ex);
		free(q.shown);
	}
	for (long i = 0; i < nx; i++)
		free(xd[i]);
	free(xd);
	free(taken);
	free(program);
	return worst;
}

int profile_run(const options *o)
{
	char inject[PATH_BYTES], lib[PATH_BYTES], patch[PATH_BYTES];
	char tmpl[PATH_BYTES], *program;
	struct sigaction ign, old_int, old_quit;
	run_spec first, x;
	profile p;
	bs_error err;
	char **pd = NULL;
	long np = 0;
	int rc, code, same, multi;
	double t = now();

	memset(&first, 0, sizeof first);
	memset(&x, 0, sizeof x);
	memset(&p, 0, sizeof p);
	p.arch = bs_arch_default();
	p.jobs = o->jobs;
	if ((rc = find_libraries(o, inject, lib, patch)) ||
	    (rc = records_dir(o, tmpl, &p.dir)))
		return rc;
	same = o->explain && explain_same_run();
	if (set_specs(o, &first, &x, inject, lib, patch, p.dir, same) < 0) {
		rc = usage_error("profile: out of memory");
		goto out;
	}
	x.quiet = x.explain = 1;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	if ((rc = start_run(o, &first))) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		goto out;
	}
	if (o->explain && !same)
		(void)start_run(o, &x);
	while (waitpid(first.pid, &first.status, 0) < 0 && errno == EINTR)
		;
	p.runs = 1;
	code = wait_code(first.status);
	phase(o, &t, "the first run");
	np = profile_process_dirs(p.dir, "status.txt", "process", &pd);
	multi = np > 1 || (np == 1 && strcmp(pd[0], p.dir));
	/* the explain run before any later run: with one process it ends as
	   soon as it has sampled what the first run measured */
	if (x.started == 1) {
		if (!multi)
			wait_explain(&p, &x);
		else
			while (waitpid(x.pid, &x.status, 0) < 0 && errno == EINTR)
				;
		x.started = 2;
		phase(o, &t, x.cut ? "the explain run, ended once it had "
			     "sampled every measured kernel"
			     : "the explain run");
	}
	if (multi) {
		/* several processes: each its own report, no later runs */
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		tell_ending(o, &p, &first, &x, code);
		rc = report_processes(o, &p, pd, np, inject, code);
		goto out;
	}
	rc = more_runs(o, inject, &p, code, &t, &err);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (rc == 0 && profile_load(&p, 1, &err) == 0)
		phase(o, &t, "reading the records, disassembling %zu cubin%s",
		      bs_sassprof_cubins(p.sp, NULL, 0),
		      bs_sassprof_cubins(p.sp, NULL, 0) == 1 ? "" : "s");
	else
		rc = -1;
	if (rc == 0 && profile_choose_arch(&p, o, &err) < 0)
		rc = -1;
	if (rc < 0 || (o->explain && !p.no_model &&
		       profile_load_explain(&p, &err) < 0) ||
	    profile_select_shown(&p, o, &err) < 0) {
		report_error(&err);
		rc = EXIT_BADINPUT;
		goto out;
	}
	tell_ending(o, &p, &first, &x, code);
	if (profile_tell(&p, o->prog[0], inject) && !code)
		code = 1;
	program = joined(o->prog, o->nprog);
	if (p.status.state != BS_RECORDS_NONE &&
	    profile_show(&p, o, program) < 0)
		code = EXIT_BADINPUT;
	free(program);
	phase(o, &t, "the report");
	rc = code;
out:
	for (long i = 0; i < np; i++)
		free(pd[i]);
	free(pd);
	spec_free(&first);
	spec_free(&x);
	bs_sassprof_free(p.sp);
	bs_explain_free(p.ex);
	free(p.shown);
	if (!o->keep)
		remove_dir(p.dir);
	return rc;
}
