/*
 * load.c - bankscope profile's reading of a records directory through
 * the library's reader (analyzer/sass/records.c: status.txt, the tables,
 * device.txt, explain.tsv), with the disassembler it hooks in: nvdisasm
 * -c -g, else cuobjdump -sass, --jobs at a time, into cubin-CRC.sass or a
 * temporary file; then the messages about what was read, and the
 * architecture of the predictions (device.txt, or --arch).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profile.h"

#define CUBIN_MAP_MAX ((off_t)1 << 32)  /* a cubin -fun maps, at most */

/* ---- disassembly ----------------------------------------------------------- */

static int executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* A disassembler: PATH, then $CUDA_HOME/bin, then /usr/local/cuda/bin. */
static int find_tool(const char *name, char *buf, size_t size)
{
	const char *path = getenv("PATH"), *home = getenv("CUDA_HOME");

	while (path && *path) {
		size_t n = strcspn(path, ":");

		if (n) {
			snprintf(buf, size, "%.*s/%s", (int)n, path, name);
			if (executable(buf))
				return 0;
		}
		path += n + (path[n] == ':');
	}
	if (home && *home) {
		snprintf(buf, size, "%s/bin/%s", home, name);
		if (executable(buf))
			return 0;
	}
	snprintf(buf, size, "/usr/local/cuda/bin/%s", name);
	return executable(buf) ? 0 : -1;
}

/* Start argv with stdout into fd, stdin and stderr on /dev/null. */
static int spawn_quiet(char *const argv[], int fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int rc;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd, 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawn(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc ? -1 : 0;
}

static const char *const tools[][4] = {
	{ "nvdisasm", "-c", "-g", NULL },
	{ "cuobjdump", "-sass", NULL, NULL },
};
#define NTOOLS (sizeof tools / sizeof *tools)

typedef struct {
	uint32_t crc;
	pid_t pid;
	int fd;                  /* its output */
	bs_output out;           /* save: cubin-CRC.sass, written as
				    bs_output writes a file */
	size_t tool;             /* the tool running, or to try next */
	int state;               /* 0 to start, 1 running, 2 done, 3 failed */
	char *fun;               /* nvdisasm -fun: the recorded functions'
				    symbol indexes; NULL: every function */
	char tmp[4200];          /* the output file's path */
} disasm_job;

/* Give up j's output: closed, and its temporary file removed. */
static void disasm_drop(disasm_job *j, int save)
{
	if (save) {
		bs_output_abort(&j->out);
	} else {
		close(j->fd);
		unlink(j->tmp);
	}
	j->fd = -1;
}

/* Start the next tool on j's cubin: 0 started, -1 no tool left. */
static int disasm_start(const char *dir, disasm_job *j, int save)
{
	char cubin[4096], tool[4096];

	snprintf(cubin, sizeof cubin, "%s/cubin-%u.cubin", dir, j->crc);
	for (; j->tool < NTOOLS; j->tool++) {
		char *argv[7];
		int n = 0;

		if (find_tool(tools[j->tool][0], tool, sizeof tool) < 0)
			continue;
		argv[n++] = tool;
		for (int i = 1; tools[j->tool][i]; i++)
			argv[n++] = (char *)tools[j->tool][i];
		if (j->fun && !strcmp(tools[j->tool][0], "nvdisasm")) {
			argv[n++] = "-fun";
			argv[n++] = j->fun;
		}
		argv[n++] = cubin;
		argv[n] = NULL;
		if (save) {
			snprintf(j->tmp, sizeof j->tmp, "%s/cubin-%u.sass",
				 dir, j->crc);
			j->fd = bs_output_open(&j->out, j->tmp, NULL) < 0 ? -1
				: fileno(j->out.f);
		} else {
			snprintf(j->tmp, sizeof j->tmp,
				 "%s/bankscope-sass-XXXXXX",
				 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
			j->fd = mkstemp(j->tmp);
		}
		if (j->fd < 0)
			return -1;
		if (spawn_quiet(argv, j->fd, &j->pid) == 0) {
			j->state = 1;
			return 0;
		}
		disasm_drop(j, save);
	}
	return -1;
}

/* j's tool ended with wait status st: done, or the next tool. */
static void disasm_end(const char *dir, disasm_job *j, int st, int save)
{
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		if (!save) {
			j->state = 2;
			return;
		}
		j->fd = -1;     /* the commit closes it */
		if (bs_output_commit(&j->out, NULL) == 0) {
			j->state = 2;
			return;
		}
	} else {
		disasm_drop(j, save);
	}
	j->tool++;
	j->state = disasm_start(dir, j, save) == 0 ? 1 : 3;
}

/*
 * The disassembly of every cubin in crc[0..n) that has none in dir yet,
 * `jobs` tools at a time: into dir/cubin-CRC.sass when save, else into
 * temporary files (j->fd, unlinked when read).
 */
static void disassemble(const char *dir, disasm_job *j, size_t n, int save,
			unsigned long jobs)
{
	size_t next = 0, running = 0;

	for (;;) {
		while (running < jobs && next < n) {
			disasm_job *k = &j[next++];

			if (k->state == 0) {
				k->state = disasm_start(dir, k, save) == 0 ? 1
									   : 3;
				running += k->state == 1;
			}
		}
		if (!running)
			break;
		{
			int st;
			pid_t pid = wait(&st);

			if (pid < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			for (size_t i = 0; i < n; i++)
				if (j[i].state == 1 && j[i].pid == pid) {
					disasm_end(dir, &j[i], st, save);
					running -= j[i].state != 1;
					break;
				}
		}
	}
}

/* status.txt, records.tsv and launches.tsv of p->dir into a new p->sp. */
int profile_load_tables(profile *p, bs_error *err)
{
	bs_sassprof_free(p->sp);
	if (!(p->sp = bs_sassprof_new()))
		return bs_error_set(err, p->dir, 0, 0, "out of memory");
	if (bs_records_read_status(p->dir, &p->status, err) < 0)
		return -1;
	if (p->status.state == BS_RECORDS_NONE)
		return 0;
	return bs_records_read_tables(p->dir, p->sp,
				      p->status.state == BS_RECORDS_OK, err);
}

static int ulong_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

/*
 * nvdisasm -fun's argument for cubin crc, open on fd (a regular file):
 * the symbol indexes of the functions its records name, ascending and
 * comma-separated; NULL (disassemble it whole) when the cubin cannot be
 * read as ELF, is larger than CUBIN_MAP_MAX, or a name is not among its
 * function symbols.  The cubin is mapped, not read: only the pages of
 * its ELF header, section headers and symbol and string tables are
 * touched, whatever its size.
 */
static char *fun_list(const bs_sassprof *sp, uint32_t crc, int fd)
{
	size_t n = bs_sassprof_functions(sp, crc, NULL, 0), len = 0;
	const char **name = NULL;
	unsigned long *idx = NULL;
	void *map = MAP_FAILED;
	char *list = NULL;
	struct stat st;

	if (!n || !(name = malloc(n * sizeof *name)) ||
	    !(idx = malloc(n * sizeof *idx)) || fstat(fd, &st) < 0 ||
	    st.st_size <= 0 || st.st_size > CUBIN_MAP_MAX ||
	    (map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
			0)) == MAP_FAILED)
		goto out;
	len = (size_t)st.st_size;
	bs_sassprof_functions(sp, crc, name, n);
	if (bs_cubin_function_indexes(map, len, name, n, idx, NULL) !=
	    (int)n || !(list = malloc(n * 21)))
		goto out;
	qsort(idx, n, sizeof *idx, ulong_cmp);
	len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(list + len, "%s%lu", i ? "," : "",
				       idx[i]);
out:
	if (map != MAP_FAILED)
		munmap(map, len);
	free(idx);
	free(name);
	return list;
}

/* The hook's context: whether to save, how many at a time. */
typedef struct {
	int save;
	unsigned long jobs;
} disasm_ctx;

/*
 * The disassembler bs_records_read_disasm hooks in: every requested
 * cubin at once, --jobs tools at a time; a temporary output is handed
 * back open and already unlinked.
 */
static void disasm_hook(void *ctx, const char *dir, const bs_sassprof *sp,
			bs_disasm_request *q, size_t n)
{
	const disasm_ctx *c = ctx;
	disasm_job *j = calloc(n, sizeof *j);
	char tool[4096];
	int nvdisasm = find_tool(tools[0][0], tool, sizeof tool) == 0;

	if (!j)
		return;
	for (size_t i = 0; i < n; i++) {
		j[i].crc = q[i].crc;
		j[i].fd = -1;
		j[i].state = q[i].fd < 0 ? 3 : 0;
		if (nvdisasm && q[i].fd >= 0)
			j[i].fun = fun_list(sp, q[i].crc, q[i].fd);
	}
	disassemble(dir, j, n, c->save, c->jobs);
	for (size_t i = 0; i < n; i++) {
		free(j[i].fun);
		if (j[i].state != 2)
			continue;
		if (c->save) {
			q[i].saved = 1;
			continue;
		}
		if (lseek(j[i].fd, 0, SEEK_SET) == 0)
			q[i].out = fdopen(j[i].fd, "r");
		if (!q[i].out)
			close(j[i].fd);
		q[i].fresh = q[i].out != NULL;
		unlink(j[i].tmp);
	}
	free(j);
}

/*
 * A warning for each disassembly that lacks recorded instructions (fresh:
 * made by this command, not found in the directory).
 */
static void sass_gaps(const profile *p, const bs_records_disasm *d)
{
	for (size_t i = 0; i < d->ngap; i++) {
		const bs_records_gap *g = &d->gap[i];
		size_t missing = g->missing, all = g->recorded;

		if (g->fresh)
			usage_error("the disassembly of cubin-%u.cubin lacks "
				    "%zu of the %zu instruction%s recorded in "
				    "it: no SASS text or source line for %s",
				    g->crc, missing, all, all == 1 ? "" : "s",
				    missing == 1 ? "it" : "them");
		else
			usage_error("%s/cubin-%u.sass: %zu of the %zu "
				    "instruction%s recorded in cubin %u %s not "
				    "in it (an empty or cut disassembly; remove "
				    "it to disassemble again): no SASS text or "
				    "source line for %s", p->dir, g->crc,
				    missing, all, all == 1 ? "" : "s", g->crc,
				    missing == 1 ? "is" : "are", missing == 1 ?
				    "it" : "them");
	}
}

/* Everything in p->dir, disassembled where possible, finished. */
int profile_load(profile *p, int save, bs_error *err)
{
	disasm_ctx c = { save, p->jobs };
	bs_records_disasm d;
	int rc;

	if (profile_load_tables(p, err) < 0)
		return -1;
	if (p->status.state == BS_RECORDS_NONE)
		return 0;
	rc = bs_records_read_disasm(p->dir, p->sp, disasm_hook, &c, &d, err);
	sass_gaps(p, &d);
	free(d.gap);
	p->no_disasm = d.no_disasm;
	p->no_cubin = d.no_cubin;
	if (rc < 0)
		return -1;
	p->n = bs_sassprof_finish(p->sp);
	bs_sassprof_get_totals(p->sp, &p->tot);
	return 0;
}

/*
 * The architecture of the predictions: --arch, else the one of
 * the compute capability device.txt names (written by the injection
 * library), else, for a directory without device.txt (recorded before
 * bankscope wrote one, on an H100), sm_90.  A GPU no architecture describes
 * leaves the predictions out (p->no_model) and says how to make one.
 * device.txt is opened as every file of the directory is (bs_records_open): 0,
 * or -1 (err) when it is there and not a regular file or unreadable.
 */
int profile_choose_arch(profile *p, const options *o, bs_error *err)
{
	if (bs_records_read_device(p->dir, p->cc, sizeof p->cc, p->gpu,
				   sizeof p->gpu, err) < 0 ||
	    profile_read_process(p, err) < 0)
		return -1;
	p->arch = o->arch ? o->arch : bs_arch_default();
	if (o->arch || !p->cc[0])
		return 0;
	if (bs_arch_for_cc(p->cc))
		p->arch = bs_arch_for_cc(p->cc);
	else {
		p->no_model = (o->explain || o->patterns) != 0;
		if (p->no_model)
			usage_error("no architecture describes %s "
				    "(compute capability %s): the predictions "
				    "are left out; make one with `make "
				    "probe-all` and `bankscope calibrate "
				    "DATASET.csv` on that GPU, then pass it "
				    "with --arch FILE", p->gpu[0] ? p->gpu
				    : "the GPU", p->cc);
	}
	return 0;
}

/* explain.tsv and its status, when --explain: 0, -1 bad input (err). */
int profile_load_explain(profile *p, bs_error *err)
{
	char status[1024];
	const char *xdir = p->xdir ? p->xdir : p->dir;
	int rc = bs_records_read_explain(xdir, &p->ex, status, sizeof status,
					 err);

	if (status[0])
		usage_error("explain: %s", status);
	if (rc == 0)
		usage_error("explain: no explain.tsv in %s: nothing sampled",
			    xdir);
	return rc < 0 ? -1 : 0;
}

/* ---- processes ------------------------------------------------------------ */

/* A pid field: a positive decimal number; -1 otherwise. */
static long pid_field(const char *t)
{
	char *end;
	long v;

	if (*t < '1' || *t > '9')
		return -1;
	errno = 0;
	v = strtol(t, &end, 10);
	return *end || errno ? -1 : v;
}

int profile_read_process(profile *p, bs_error *err)
{
	char path[4096], line[1200];
	unsigned long n = 0;
	FILE *f;

	p->pid = p->ppid = 0;
	p->command[0] = '\0';
	path_join(path, sizeof path, p->dir, "process.txt");
	if (!(f = bs_records_open(path, err)))
		return errno == ENOENT ? 0 : -1;
	while (fgets(line, sizeof line, f)) {
		long *to = !strncmp(line, "pid\t", 4) ? &p->pid
			   : !strncmp(line, "ppid\t", 5) ? &p->ppid : NULL;

		n++;
		line[strcspn(line, "\r\n")] = '\0';
		if (to && (*to = pid_field(strchr(line, '\t') + 1)) < 0) {
			fclose(f);
			return bs_error_set(err, path, n, 0, "%s is not a "
					    "positive decimal number",
					    to == &p->pid ? "pid" : "ppid");
		}
		if (!to && strncmp(line, "command\t", 8)) {
			fclose(f);
			return bs_error_set(err, path, n, 0, "not pid, ppid or "
					    "command, a tab and its value (as "
					    "the injection library writes it)");
		}
		if (!to)
			snprintf(p->command, sizeof p->command, "%.1000s",
				 line + 8);
	}
	fclose(f);
	if (!p->pid)
		return bs_error_set(err, path, n, 0, "no pid line");
	return 0;
}

typedef struct {
	long pid;
	char *path;
} proc_dir;

static int by_pid(const void *a, const void *b)
{
	const proc_dir *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

long profile_process_dirs(const char *dir, const char *claim,
			  const char *prefix, char ***out)
{
	char path[4096];
	size_t plen = strlen(prefix);
	proc_dir *v = NULL;
	long n = 0, cap = 0;
	struct dirent *e;
	struct stat st;
	DIR *d;

	*out = NULL;
	path_join(path, sizeof path, dir, claim);
	if (!lstat(path, &st) && S_ISREG(st.st_mode)) {
		if (!(v = calloc(1, sizeof *v)) || !(v[0].path = strdup(dir))) {
			free(v);
			return -1;
		}
		v[0].pid = -1;       /* first, whatever its pid */
		n = cap = 1;
	}
	if ((d = opendir(dir))) {
		while ((e = readdir(d))) {
			char *end;
			long pid;

			if (strncmp(e->d_name, prefix, plen) ||
			    e->d_name[plen] != '-')
				continue;
			pid = strtol(e->d_name + plen + 1, &end, 10);
			path_join(path, sizeof path, dir, e->d_name);
			if (*end || pid <= 0 || lstat(path, &st) ||
			    !S_ISDIR(st.st_mode))
				continue;
			if (n == cap) {
				proc_dir *w = realloc(v, (size_t)(cap ? 2 * cap : 4) *
							 sizeof *v);

				if (!w)
					break;
				v = w;
				cap = cap ? 2 * cap : 4;
			}
			if (!(v[n].path = strdup(path)))
				break;
			v[n++].pid = pid;
		}
		closedir(d);
	}
	qsort(v, (size_t)n, sizeof *v, by_pid);
	if (n && !(*out = calloc((size_t)n, sizeof **out))) {
		for (long i = 0; i < n; i++)
			free(v[i].path);
		free(v);
		return -1;
	}
	for (long i = 0; i < n; i++)
		(*out)[i] = v[i].path;
	free(v);
	return n;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A copy of name at the end of v (n names, room for room), unless it
 * repeats the last; 0, or -1 out of memory. */
static int push_name(char ***v, size_t *n, size_t *room, const char *name)
{
	char *t;

	if (*n && !strcmp((*v)[*n - 1], name))
		return 0;
	if (*n == *room) {
		char **w = realloc(*v, (*room ? 2 * *room : 64) * sizeof **v);

		if (!w)
			return -1;
		*v = w;
		*room = *room ? 2 * *room : 64;
	}
	if (!(t = strdup(name)))
		return -1;
	(*v)[(*n)++] = t;
	return 0;
}

/* The distinct names of column col (0-based) of dir/name's data lines
 * (after the header), sorted, into *names; their number.  With unless >
 * col, a line whose column unless starts with '-' is left out. */
static size_t column_names(const char *dir, const char *name, int col,
			   int unless, char ***names)
{
	char path[4096], *line = NULL;
	size_t cap = 0, n = 0, room = 0, k = 0;
	char **v = NULL;
	bs_error err;
	FILE *f;

	*names = NULL;
	path_join(path, sizeof path, dir, name);
	if (!(f = bs_records_open(path, &err)))
		return 0;
	while (getline(&line, &cap, f) > 0) {
		char *s = line;

		if (k++ == 0)
			continue;
		for (int c = 0; c < col && s; c++)
			s = (s = strchr(s, '\t')) ? s + 1 : NULL;
		if (!s)
			continue;
		if (unless > col) {
			char *u = s;

			for (int c = col; c < unless && u; c++)
				u = (u = strchr(u, '\t')) ? u + 1 : NULL;
			if (!u || *u == '-')
				continue;
		}
		s[strcspn(s, "\t\r\n")] = '\0';
		if (push_name(&v, &n, &room, s) < 0)
			break;
	}
	free(line);
	fclose(f);
	if (n) {
		size_t kept = 1;

		qsort(v, n, sizeof *v, str_cmp);
		for (size_t i = 1; i < n; i++)       /* distinct */
			if (strcmp(v[i], v[kept - 1]))
				v[kept++] = v[i];
			else
				free(v[i]);
		n = kept;
	}
	*names = v;
	return n;
}

long profile_pair_explain(const char *dir, char **xd, long nx, const int *taken)
{
	char **pk, **xk;
	size_t np = column_names(dir, "launches.tsv", 1, 0, &pk);
	long best = -1;
	size_t most = 0;

	for (long i = 0; i < nx; i++) {
		size_t nxk, common = 0;

		if (taken[i])
			continue;
		nxk = column_names(xd[i], "explain.tsv", 1, 0, &xk);
		for (size_t a = 0, b = 0; a < np && b < nxk;) {
			int c = strcmp(pk[a], xk[b]);

			common += !c;
			a += c <= 0;
			b += c >= 0;
		}
		for (size_t b = 0; b < nxk; b++)
			free(xk[b]);
		free(xk);
		if (common > most) {
			most = common;
			best = i;
		}
	}
	for (size_t a = 0; a < np; a++)
		free(pk[a]);
	free(pk);
	return best;
}

/* ---- the explain run's end ------------------------------------------------ */

size_t profile_measured_kernels(const char *dir, char ***out)
{
	return column_names(dir, "launches.tsv", 1, 2, out);
}

int profile_explain_has(const char *dir, char **names, size_t n)
{
	char path[4096], *line = NULL;
	size_t cap = 0, found = 0;
	unsigned char *seen = calloc(n ? n : 1, 1);
	bs_error err;
	FILE *f;

	path_join(path, sizeof path, dir, "explain-status.txt");
	if (!seen || !n || !(f = bs_records_open(path, &err))) {
		free(seen);
		return 0;
	}
	while (getline(&line, &cap, f) > 0) {
		char *name, *end, **hit;

		if (strncmp(line, "launch ", 7) || !(name = strchr(line, '\t')))
			continue;
		if ((end = strchr(++name, '\t')))
			*end = '\0';
		hit = bsearch(&name, names, n, sizeof *names, str_cmp);
		if (hit && !seen[hit - names]) {
			seen[hit - names] = 1;
			found++;
		}
	}
	free(line);
	fclose(f);
	free(seen);
	return found == n;
}
