/*
 * load.c - bankscope profile's reading of a records directory: each file
 * opened without blocking and only when regular (open_kept), status.txt,
 * the tables (bs_sassprof), the disassembly of each cubin the records
 * name (nvdisasm -c -g, else cuobjdump -sass, --jobs at a time, into
 * cubin-CRC.sass or a temporary file), explain.tsv for --explain, and the
 * architecture of the predictions (device.txt, or --arch).
 */
#define _GNU_SOURCE
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

#define STATUS_MAX 65536       /* status.txt's bytes, at most */
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

/*
 * A file of a records directory, for reading: opened without blocking
 * (a FIFO planted there must not hang a replay) and refused unless it is
 * a regular file (a device such as /dev/zero never ends).  NULL with
 * errno ENOENT and err untouched when it is not there; NULL with err
 * set when it cannot be read.
 */
static int open_kept_fd(const char *path, bs_error *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		if (errno != ENOENT)
			bs_error_set(err, path, 0, 0, "cannot open: %s",
				     strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || fcntl(fd, F_SETFL, 0) < 0) {
		bs_error_set(err, path, 0, 0, "cannot read: %s",
			     strerror(errno));
		close(fd);
		errno = EIO;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		bs_error_set(err, path, 0, 0, "not a regular file (a %s): a "
			     "records directory holds only files",
			     S_ISFIFO(st.st_mode) ? "FIFO"
			     : S_ISCHR(st.st_mode) ? "character device"
			     : S_ISDIR(st.st_mode) ? "directory"
			     : "special file");
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

static FILE *open_kept(const char *path, bs_error *err)
{
	int fd = open_kept_fd(path, err);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "r"))) {
		bs_error_set(err, path, 0, 0, "out of memory");
		close(fd);
		errno = ENOMEM;
	}
	return f;
}

/* status.txt: absent, "ok", or the reason counters were not collected;
 * at most STATUS_MAX bytes, read at once. */
static int read_status(profile *p, bs_error *err)
{
	char path[4096], *buf, *line, *nl, *z;
	FILE *f;
	size_t n, len;
	int bad;

	path_join(path, sizeof path, p->dir, "status.txt");
	if (!(f = open_kept(path, err))) {
		if (errno == ENOENT) {
			p->state = ST_NONE;
			return 0;
		}
		return -1;
	}
	if (!(buf = malloc(STATUS_MAX + 1))) {
		fclose(f);
		return bs_error_set(err, path, 0, 0, "out of memory");
	}
	len = fread(buf, 1, STATUS_MAX + 1, f);
	bad = ferror(f);
	fclose(f);
	if (bad || len > STATUS_MAX) {
		free(buf);
		return bad ? bs_error_set(err, path, 0, 0, "read error")
			   : bs_error_set(err, path, 0, 0, "longer than %d "
					  "bytes: not a status file",
					  STATUS_MAX);
	}
	buf[len] = '\0';
	n = strcspn(buf, "\r\n");
	for (size_t i = 0; i < n || (i < len && !buf[i]); i++)
		if ((unsigned char)buf[i] < 0x20 && buf[i] != '\t') {
			unsigned char c = (unsigned char)buf[i];

			free(buf);
			return bs_error_set(err, path, 1, (long)i + 1,
					    "not a status line: control "
					    "character 0x%02x", c);
		}
	if (n >= sizeof p->reason) {
		free(buf);
		return bs_error_set(err, path, 1, 0, "not a status line: "
				    "longer than %zu bytes",
				    sizeof p->reason - 1);
	}
	if ((z = memchr(buf, '\0', len))) {
		long ln = 1;

		for (char *c = buf; c < z; c++)
			ln += *c == '\n';
		free(buf);
		return bs_error_set(err, path, ln, 0, "not a status file: a "
				    "NUL byte");
	}
	memcpy(p->reason, buf, n);
	p->reason[n] = '\0';
	p->nlater = 0;
	for (line = buf + n + (buf[n] != '\0');
	     p->nlater < LATER_MAX && line < buf + len; line = nl + 1) {
		char *l = p->later[p->nlater];
		size_t k;

		if (!(nl = strchr(line, '\n')))
			nl = buf + len;
		k = strcspn(line, "\r\n");
		snprintf(l, sizeof p->later[0], "%.*s", (int)k, line);
		p->nlater += l[0] != '\0';
	}
	free(buf);
	if (!strcmp(p->reason, "ok")) {
		p->state = ST_OK;
	} else {
		p->state = ST_FAILED;
		if (!p->reason[0])
			snprintf(p->reason, sizeof p->reason,
				 "status.txt is empty");
	}
	return 0;
}

typedef int (*table_reader)(bs_sassprof *, FILE *, const char *,
			    bs_error *);

static int read_table(profile *p, const char *name, table_reader rd,
		      int required, bs_error *err)
{
	char path[4096];
	FILE *f;
	int rc;

	path_join(path, sizeof path, p->dir, name);
	if (!(f = open_kept(path, err))) {
		if (errno != ENOENT)
			return -1;
		if (!required)
			return 0;
		return bs_error_set(err, path, 0, 0, "cannot open: %s",
				    strerror(ENOENT));
	}
	rc = rd(p->sp, f, path, err);
	fclose(f);
	return rc;
}

/* status.txt, records.tsv and launches.tsv of p->dir into a new p->sp. */
int profile_load_tables(profile *p, bs_error *err)
{
	bs_sassprof_free(p->sp);
	if (!(p->sp = bs_sassprof_new()))
		return bs_error_set(err, p->dir, 0, 0, "out of memory");
	if (read_status(p, err) < 0)
		return -1;
	if (p->state == ST_NONE)
		return 0;
	if (read_table(p, "records.tsv", bs_sassprof_read_records,
		       p->state == ST_OK, err) < 0 ||
	    read_table(p, "launches.tsv", bs_sassprof_read_launches, 0,
		       err) < 0)
		return -1;
	return 0;
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
static char *fun_list(const profile *p, uint32_t crc, int fd)
{
	size_t n = bs_sassprof_functions(p->sp, crc, NULL, 0), len = 0;
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
	bs_sassprof_functions(p->sp, crc, name, n);
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

/*
 * After cubin crc's disassembly (name, found in the directory; fresh: made
 * by this command) was read: a warning when recorded instructions of it
 * are not there (an empty or cut disassembly blanks their SASS, source
 * and joined predictions).
 */
static void sass_gaps(const profile *p, uint32_t crc, const char *name,
		     int fresh)
{
	size_t all, missing = bs_sassprof_undisassembled(p->sp, crc, &all);

	if (!missing)
		return;
	if (fresh)
		usage_error("the disassembly of cubin-%u.cubin lacks %zu of "
			    "the %zu instruction%s recorded in it: no SASS "
			    "text or source line for %s", crc, missing, all,
			    all == 1 ? "" : "s", missing == 1 ? "it" : "them");
	else
		usage_error("%s: %zu of the %zu instruction%s recorded in "
			    "cubin %u %s not in it (an empty or cut "
			    "disassembly; remove it to disassemble again): no "
			    "SASS text or source line for %s", name, missing,
			    all, all == 1 ? "" : "s", crc, missing == 1 ? "is"
			    : "are", missing == 1 ? "it" : "them");
}

/* Everything in p->dir, disassembled where possible, finished. */
int profile_load(profile *p, int save, bs_error *err)
{
	char tool[4096];
	uint32_t *crc;
	disasm_job *j;
	size_t ncrc;
	int rc = 0, nvdisasm;

	if (profile_load_tables(p, err) < 0)
		return -1;
	if (p->state == ST_NONE)
		return 0;
	ncrc = bs_sassprof_cubins(p->sp, NULL, 0);
	crc = malloc((ncrc ? ncrc : 1) * sizeof *crc);
	j = calloc(ncrc ? ncrc : 1, sizeof *j);
	if (!crc || !j) {
		free(crc);
		free(j);
		return bs_error_set(err, p->dir, 0, 0, "out of memory");
	}
	bs_sassprof_cubins(p->sp, crc, ncrc);
	nvdisasm = find_tool(tools[0][0], tool, sizeof tool) == 0;
	for (size_t i = 0; i < ncrc && rc == 0; i++) {
		char path[4096];
		int fd;

		j[i].crc = crc[i];
		j[i].fd = -1;
		snprintf(path, sizeof path, "%s/cubin-%u.sass", p->dir, crc[i]);
		if (!access(path, R_OK)) {
			j[i].state = 2;
			continue;
		}
		/* the disassembler opens it: a regular file only, and read
		 * here (its symbol table) only for nvdisasm -fun */
		snprintf(path, sizeof path, "%s/cubin-%u.cubin", p->dir, crc[i]);
		if ((fd = open_kept_fd(path, err)) < 0) {
			if (errno != ENOENT) {
				rc = -1;
				break;
			}
			j[i].state = 3;
			p->no_cubin++;
			continue;
		}
		if (nvdisasm)
			j[i].fun = fun_list(p, crc[i], fd);
		close(fd);
	}
	if (rc < 0) {
		for (size_t i = 0; i < ncrc; i++)
			free(j[i].fun);
		free(crc);
		free(j);
		return -1;
	}
	disassemble(p->dir, j, ncrc, save, p->jobs);
	for (size_t i = 0; i < ncrc && rc == 0; i++) {
		char name[4096];
		FILE *f = NULL;
		int fresh = j[i].fd >= 0;

		snprintf(name, sizeof name, "%s/cubin-%u.sass", p->dir, crc[i]);
		if (j[i].state == 2 && j[i].fd >= 0 && !save) {
			if (lseek(j[i].fd, 0, SEEK_SET) == 0)
				f = fdopen(j[i].fd, "r");
			if (!f)
				close(j[i].fd);
			unlink(j[i].tmp);
		} else if (j[i].state == 2) {
			if (j[i].fd >= 0)
				close(j[i].fd);
			if (!(f = open_kept(name, err)) && errno != ENOENT) {
				rc = -1;
				break;
			}
		}
		if (!f) {
			p->no_disasm++;
			continue;
		}
		rc = bs_sassprof_read_disasm(p->sp, crc[i], f, name, err);
		fclose(f);
		if (rc == 0)
			sass_gaps(p, crc[i], name, fresh);
	}
	for (size_t i = 0; i < ncrc && rc < 0; i++)
		if (j[i].state == 2 && j[i].fd >= 0 && !save)
			unlink(j[i].tmp);
	for (size_t i = 0; i < ncrc; i++)
		free(j[i].fun);
	free(crc);
	free(j);
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
 * device.txt is opened as every file of the directory is (open_kept): 0,
 * or -1 (err) when it is there and not a regular file or unreadable.
 */
int profile_choose_arch(profile *p, const options *o, bs_error *err)
{
	char path[4096], line[320], *tab;
	FILE *f;

	path_join(path, sizeof path, p->dir, "device.txt");
	if (!(f = open_kept(path, err)) && errno != ENOENT)
		return -1;
	if (f) {
		tab = fgets(line, sizeof line, f) ? strchr(line, '\t') : NULL;
		fclose(f);
		if (!tab || tab == line)
			return bs_error_set(err, path, 1, 0, "not a compute "
					    "capability, a tab and the GPU's "
					    "name (as the injection library "
					    "writes it)");
		*tab = '\0';
		tab[strcspn(tab + 1, "\r\n") + 1] = '\0';
		snprintf(p->cc, sizeof p->cc, "%.15s", line);
		snprintf(p->gpu, sizeof p->gpu, "%.255s", tab + 1);
	}
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
	char path[4096], line[1024];
	FILE *f;
	int rc;

	path_join(path, sizeof path, p->dir, "explain-status.txt");
	if (!(f = open_kept(path, err)) && errno != ENOENT)
		return -1;
	if (f) {
		if (fgets(line, sizeof line, f) &&
		    strcmp(line, "ok\n") && strcmp(line, "ok"))
			usage_error("explain: %.*s", (int)strcspn(line, "\n"),
				    line);
		fclose(f);
	}
	path_join(path, sizeof path, p->dir, "explain.tsv");
	if (!(p->ex = bs_explain_new()))
		return bs_error_set(err, path, 0, 0, "out of memory");
	if (!(f = open_kept(path, err))) {
		if (errno == ENOENT) {
			usage_error("explain: no explain.tsv in %s: nothing "
				    "sampled", p->dir);
			return 0;
		}
		return -1;
	}
	rc = bs_explain_read(p->ex, f, path, err);
	fclose(f);
	return rc;
}
