/*
 * profile.c - bankscope profile: the shared-memory instructions of a CUDA
 * program as it ran, each with its executions, wavefronts, ideal
 * wavefronts and excess, worst first; with --explain, the model's
 * prediction from the lanes' real addresses beside each.
 *
 * `profile [OPTIONS] -- PROGRAM [ARGS]` starts PROGRAM (posix_spawnp: a
 * name without '/' is looked up in PATH) with its stdin, stdout and stderr
 * untouched and these variables added: CUDA_INJECTION64_PATH, the
 * injection library (--inject, else $BANKSCOPE_INJECT, else
 * libbankscope_inject.so beside this executable, else in
 * ../lib/bankscope/ from it as make install puts it, found through
 * /proc/self/exe); BANKSCOPE_PROFILE_DIR, an empty directory (--keep DIR,
 * else a mkdtemp one under $TMPDIR, removed afterwards); and the
 * selection, BANKSCOPE_PROFILE_KERNEL/_SKIP/_COUNT from --kernel,
 * --launch-skip and --launch-count, and BANKSCOPE_PROFILE_LAUNCH from
 * --launches (first, the default: the first selected launch of each
 * kernel is measured; all: every selected launch).  That run lists every
 * launch and measures every selected kernel (profiler/inject/inject.c: the
 * module-profiled callback makes CUPTI patch them all).  A kernel among
 * the selected launches that still has no records (a CUPTI that patched
 * one kernel per process, or a launch it missed) is named on stderr and
 * gets a run of its own, selected by its exact name (an anchored, escaped
 * regular expression) with the skip and count that give the same
 * launches; these runs go --jobs at a time, their output to /dev/null, up
 * to --max-runs runs in all.  With --explain, libbankscope_explain.so
 * (beside this executable, or $BANKSCOPE_EXPLAIN_LIB) with its patch
 * module (bankscope_explain_patch.fatbin, or $BANKSCOPE_EXPLAIN_PATCH)
 * records the lanes' addresses in explain.tsv: in a run of its own beside
 * the first, as CUDA_INJECTION64_PATH, or with
 * BANKSCOPE_PROFILE_EXPLAIN_RUN=same loaded by the injection library
 * into the first run (BANKSCOPE_EXPLAIN_LIB)
 * (explain_same_run() says which is the default, and why).  The
 * predictions use the architecture profile of the GPU that ran the
 * program (device.txt, written by the injection library), or --arch.
 * SIGINT and SIGQUIT are
 * ignored while runs go on (the programs get them; what was measured is
 * still shown).  Then each cubin the records name is disassembled
 * (nvdisasm -c -g, else cuobjdump -sass; PATH, then $CUDA_HOME/bin, then
 * /usr/local/cuda/bin; --jobs at a time) into cubin-CRC.sass beside it,
 * the directory is read (bs_sassprof) and the table printed on stdout.
 * `profile --replay DIR` reports an existing directory; a disassembly
 * missing there goes to a temporary file, DIR is never written.  Every
 * file read from the directory is opened without blocking and must be a
 * regular file (open_kept); status.txt is read in one bounded read; a
 * cubin is opened only to be disassembled, and mapped, never read whole,
 * for nvdisasm -fun's symbol indexes.  --kernel selects kernels of a
 * replay; --launch-skip and --launch-count are refused, since a run's
 * records are summed over the launches of its window.
 *
 * The report keeps the instructions of kernels --kernel matches, the
 * first --top N of them; instructions that use shared memory where
 * CUPTI's metrics do not count (TMA, warpgroup MMA) follow the table.
 *
 * Messages, one line each on stderr: the program not found (exit 127) or
 * not executable (126); its exit status when not 0, or the signal that
 * killed it; no CUDA at all (no status.txt: CUDA never initialized, or the
 * injection library did not load); counters not collected (status.txt's
 * reason, and failures of later runs); no kernel launched, or none
 * selected; kernels measured that gave no records; records of kernels no
 * launch named; later runs that ended differently or launched other
 * kernels; kernels left unmeasured by --max-runs.
 *
 * Exit status: a program run passes the first run's status through
 * (128+N for signal N), or 1 when the program launched no kernel; 2 for
 * bad usage or an unreadable records directory.  A replay: 0 a profile
 * was shown, 1 the directory holds none (counters not collected, or
 * nothing launched), 2 bad input.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

extern char **environ;

#define INJECT_NAME "libbankscope_inject.so"
#define EXPLAIN_NAME "libbankscope_explain.so"
#define PATCH_NAME "bankscope_explain_patch.fatbin"
#define KERNEL_TEXT_MAX 48     /* kernel column width in the text table */
#define MAX_RUNS_DEFAULT 64
#define JOBS_MAX 64
#define LATER_MAX 4            /* later runs' failures kept */
#define EXPLAIN_SAME_DEFAULT 0 /* see explain_same_run() */
#define STATUS_MAX 65536       /* status.txt's bytes, at most */
#define CUBIN_MAP_MAX ((off_t)1 << 32)  /* a cubin -fun maps, at most */

static const char profile_usage[] =
	"usage: bankscope profile [--format text|csv|json] [--kernel REGEX]\n"
	"                         [--launch-skip N] [--launch-count N]\n"
	"                         [--launches first|all]\n"
	"                         [--top N] [--full-names] [--verbose]\n"
	"                         [--explain [--sample BxWxE]] [--keep DIR]\n"
	"                         [--jobs N] [--max-runs N] [--inject PATH]\n"
	"                         [--arch NAME|FILE] -- PROGRAM [ARGS]\n"
	"       bankscope profile [--format FMT] [--kernel REGEX] [--top N]\n"
	"                         [--full-names] [--explain] [--arch NAME|FILE]\n"
	"                         --replay DIR\n"
	"                         [--patterns FILE [--dataset OUT.csv]]\n"
	"\n"
	"Run a CUDA program unchanged and report its shared-memory\n"
	"instructions (LDS, STS, LDSM, STSM, ATOMS and any other that moved\n"
	"shared-memory wavefronts), per kernel and SASS instruction, worst\n"
	"first: pc, SASS, source line (programs built with -lineinfo),\n"
	"executions (warp instructions), wavefronts, ideal wavefronts and\n"
	"their excess (wavefronts - ideal), summed over the measured\n"
	"launches.  Counts come from CUPTI's SASS metrics through an\n"
	"injection library, every kernel in one run of the program; a kernel\n"
	"CUPTI gave no records for gets a run of its own (output discarded,\n"
	"--jobs runs at a time), and a message names it.  Predictions use\n"
	"the architecture profile of the GPU that ran it.\n"
	"\n"
	"  --format FMT       text (default), csv, json\n"
	"  -k, --kernel REGEX only kernels whose demangled name matches (POSIX\n"
	"                     extended regular expression)\n"
	"  -s, --launch-skip N  let the first N matching launches pass\n"
	"  -c, --launch-count N select N matching launches (default: all)\n"
	"  --launches WHICH   first (default): the first selected launch of\n"
	"                     each kernel; all: every selected launch\n"
	"  --top N            show the N worst instructions\n"
	"  --full-names       whole kernel names in the text table\n"
	"  --verbose          each phase's wall-clock time on stderr\n"
	"  --explain          also record the lanes' shared addresses of sampled\n"
	"                     warps (CUDA Sanitizer API) and set the model's\n"
	"                     prediction, a verdict, the bank map and a fix\n"
	"                     beside each instruction\n"
	"  --sample BxWxE     explain: the first B blocks, W warps of each, E\n"
	"                     executions of each instruction (default 2x8x4)\n"
	"  --keep DIR         collect into DIR (new or empty) and keep it\n"
	"  --jobs N           runs at a time after the first (default: the\n"
	"                     processors, at most 16)\n"
	"  --arch NAME|FILE   the architecture profile of the predictions\n"
	"                     (default: the one of the GPU that ran it)\n"
	"  --max-runs N       run the program at most N times (64)\n"
	"  --inject PATH      the injection library (default:\n"
	"                     $BANKSCOPE_INJECT, else " INJECT_NAME "\n"
	"                     beside bankscope or in ../lib/bankscope/)\n"
	"  --replay DIR       report a directory kept earlier (--kernel\n"
	"                     selects its kernels; its records sum each\n"
	"                     run's launches, so launches cannot be\n"
	"                     selected again)\n"
	"  --patterns FILE    join each instruction to the access named\n"
	"                     KERNEL:OP:RANK in FILE (bankscope-tutorial\n"
	"                     --patterns) and show its predicted wavefronts\n"
	"  --dataset OUT      with --patterns: write the joined instructions as\n"
	"                     a dataset for bankscope check (a new file)\n"
	"\n"
	"Exit status: the program's own in its first run (128+N when signal N\n"
	"killed it), 1 when it launched no kernel, 127 when it is not found,\n"
	"126 when it cannot be run, 2 bad usage.  With --replay: 0 a profile\n"
	"was shown, 1 none was collected, 2 bad input.\n";

typedef enum { FMT_TEXT, FMT_CSV, FMT_JSON } format;

typedef struct {
	format fmt;
	const char *keep, *inject, *replay, *patterns, *dataset;
	const char *kernel, *sample;
	const bs_profile *arch;         /* --arch, or NULL */
	unsigned long skip, count;      /* count 0: every launch */
	unsigned long top;              /* 0: every instruction */
	unsigned long jobs, max_runs;
	int full_names, explain, verbose;
	int all_launches;               /* --launches all */
	regex_t re;                     /* --kernel, compiled */
	char **prog;
	int nprog;
} options;

typedef enum { ST_NONE, ST_OK, ST_FAILED } collection;

typedef struct {
	const char *dir;
	collection state;
	char reason[1024];
	char later[LATER_MAX][512];   /* later runs' failures */
	int nlater;
	bs_sassprof *sp;
	size_t n;                    /* instructions kept */
	size_t *shown;               /* those the report shows, in order */
	size_t nshown, ncounted;     /* shown; of them, counted by CUPTI */
	size_t more;                 /* counted ones --top left out */
	join *join;                  /* --patterns, or NULL */
	bs_explain *ex;              /* --explain, or NULL */
	bs_sassprof_totals tot;
	unsigned long no_disasm;     /* cubins not disassembled */
	unsigned long no_cubin;      /* of those, cubins not saved */
	unsigned long runs;          /* program runs made (0: a replay) */
	unsigned long jobs;
	char gpu[256];               /* device.txt: its name, or "" */
	char cc[16];                 /* its compute capability, or "" */
	int no_model;                /* no architecture profile for it */
} profile;

/* The architecture the predictions use (choose_arch). */
static const bs_profile *arch_in_use;

const bs_profile *profile_arch(void)
{
	return arch_in_use ? arch_in_use : bs_profile_default();
}

/* ---- files and programs ------------------------------------------------- */

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

static void path_join(char *buf, size_t size, const char *dir,
		      const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

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

/* ---- disassembly ----------------------------------------------------------- */

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
static int load_tables(profile *p, bs_error *err)
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
static int load(profile *p, int save, bs_error *err)
{
	char tool[4096];
	uint32_t *crc;
	disasm_job *j;
	size_t ncrc;
	int rc = 0, nvdisasm;

	if (load_tables(p, err) < 0)
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
 * The architecture profile of the predictions: --arch, else the one of
 * the compute capability device.txt names (written by the injection
 * library), else, for a directory without device.txt (recorded before
 * bankscope wrote one, on an H100), sm_90.  A GPU no profile describes
 * leaves the predictions out (p->no_model) and says how to make one.
 */
static void choose_arch(profile *p, const options *o)
{
	char path[4096], line[320], *tab;
	FILE *f;

	path_join(path, sizeof path, p->dir, "device.txt");
	if ((f = fopen(path, "r"))) {
		if (fgets(line, sizeof line, f) && (tab = strchr(line, '\t'))) {
			*tab = '\0';
			tab[strcspn(tab + 1, "\r\n") + 1] = '\0';
			snprintf(p->cc, sizeof p->cc, "%.15s", line);
			snprintf(p->gpu, sizeof p->gpu, "%.255s", tab + 1);
		}
		fclose(f);
	}
	arch_in_use = o->arch;
	if (arch_in_use || !p->cc[0])
		return;
	if (!(arch_in_use = bs_profile_for_cc(p->cc))) {
		p->no_model = (o->explain || o->patterns) != 0;
		if (p->no_model)
			usage_error("no architecture profile describes %s "
				    "(compute capability %s): the predictions "
				    "are left out; make one with `make "
				    "probe-all` and `bankscope calibrate "
				    "DATASET.csv` on that GPU, then pass it "
				    "with --arch FILE", p->gpu[0] ? p->gpu
				    : "the GPU", p->cc);
	}
}

/* ---- output -------------------------------------------------------------- */

/* The instructions the report shows: of kernels --kernel matches, the
 * first --top counted ones, then the ones CUPTI does not count. */
static int select_shown(profile *p, const options *o, bs_error *err)
{
	free(p->shown);
	p->nshown = p->ncounted = p->more = 0;
	if (!(p->shown = malloc((p->n ? p->n : 1) * sizeof *p->shown)))
		return bs_error_set(err, p->dir, 0, 0, "out of memory");
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < p->n; i++) {
			const bs_sass_insn *in = bs_sassprof_get(p->sp, i);

			if (!in->not_counted != !pass)
				continue;
			if (o->kernel && regexec(&o->re, in->kernel, 0, NULL, 0))
				continue;
			if (!pass && o->top && p->ncounted == o->top) {
				p->more++;
				continue;
			}
			p->shown[p->nshown++] = i;
			p->ncounted += !pass;
		}
	return 0;
}

/* Up to 4 decimals, trailing zeros dropped; "" when executions are 0. */
static void per_exec(char *buf, size_t size, const bs_sass_insn *in)
{
	if (!in->executions)
		buf[0] = '\0';
	else
		verdict_num(buf, size, (double)in->wavefronts / in->executions);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void source(char *buf, size_t size, const bs_sass_insn *in, int full)
{
	if (!in->source_file)
		buf[0] = '\0';
	else
		snprintf(buf, size, "%s:%lu",
			 full ? in->source_file : base_name(in->source_file),
			 in->source_line);
}

/* The pc as every format writes it. */
static void pc_text(char *buf, size_t size, uint32_t pc)
{
	snprintf(buf, size, "0x%04x", pc);
}

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* The joined prediction in wavefronts per execution, or "-". */
static void predicted(char *buf, size_t size, const profile *p, size_t i)
{
	bs_access a;
	bs_summary s;

	if (p->join && join_find(p->join, p->sp, p->n, i, &a) &&
	    bs_predict(profile_arch(), &a, &s, NULL) == 0)
		snprintf(buf, size, "%u", s.wavefronts);
	else
		snprintf(buf, size, "-");
}

static void plural(unsigned long n, const char *one, const char *many)
{
	printf("%lu %s", n, n == 1 ? one : many);
}

static void print_head(const profile *p, const char *program)
{
	if (program)
		printf("program: %s\n", program);
	if (p->runs == 1)
		printf("runs: 1\n");
	else if (p->runs)
		printf("runs: %lu (the first, then one for each kernel it "
		       "gave no records for; %lu at a time)\n", p->runs,
		       p->jobs);
	plural(p->tot.launches, "launch", "launches");
	printf(" of ");
	plural(p->tot.kernels, "kernel", "kernels");
	printf(", %lu measured; %lu of %lu instructions use shared memory\n",
	       p->tot.measured, (unsigned long)(p->n - p->tot.not_counted),
	       p->tot.instructions);
	printf("executions in warp instructions; wavefronts, ideal and excess "
	       "in wavefronts; all summed over the measured launches\n\n");
}

/*
 * CUPTI's ideal of an LDGSTS is not the hardware's minimum (docs/model.md,
 * "cp.async"): said once under a table that lists one, so that nobody
 * chases conflicts that are the phases' cost.
 */
static void ldgsts_note(const profile *p)
{
	int ca = 0, cg = 0;
	bs_kind kca, kcg;

	bs_kind_find("cp.async.ca", &kca);
	bs_kind_find("cp.async.cg", &kcg);
	for (size_t r = 0; r < p->ncounted; r++) {
		const bs_sass_insn *in = bs_sassprof_get(p->sp, p->shown[r]);
		bs_kind k;

		if (in->sass && bs_sass_kind(in->sass, &k, NULL) == 1) {
			ca |= k == kca;
			cg |= k == kcg;
		}
	}
	if (ca)
		printf("\nnote: LDGSTS (cp.async.ca): CUPTI's ideal is the bytes "
		       "copied over 128, over the whole warp, but the hardware "
		       "serves a copy in a store's phases (8 lanes at 16 bytes, "
		       "16 at 8, 32 at 4) and lanes on one word one by one: part "
		       "of the excess can be that cost, not bank conflicts; "
		       "--explain predicts the per-phase minimum (docs/model.md, "
		       "\"cp.async\")\n");
	if (cg)
		printf("%snote: LDGSTS.E.BYPASS (cp.async.cg): CUPTI's ideal is "
		       "the distinct bytes over 128, but the hardware copies "
		       "by 128-byte lines, at least a wavefront for each "
		       "source line, and its wavefronts depend on the lanes' "
		       "order and sources: --explain predicts them from the "
		       "recorded destinations and sources (docs/model.md, "
		       "\"cp.async\")\n", ca ? "" : "\n");
}

#define NCOLS 10

static void print_text_table(const profile *p, const options *o,
			     const char *program)
{
	static const char *const head[NCOLS] = {
		"kernel", "pc", "sass", "source", "executions", "wavefronts",
		"ideal", "excess", "wavefronts_per_exec", "predicted"
	};
	int nc = p->join ? NCOLS : NCOLS - 1;
	size_t w[NCOLS];
	char cell[NCOLS][512];

	print_head(p, program);
	for (int c = 0; c < nc; c++)
		w[c] = strlen(head[c]);
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			for (int c = 0; c < nc; c++)
				printf(c < 4 ? "%-*s%s" : "%*s%s", (int)w[c],
				       head[c], c < nc - 1 ? "  " : "\n");
		for (size_t r = 0; r < p->ncounted; r++) {
			const bs_sass_insn *in =
				bs_sassprof_get(p->sp, p->shown[r]);
			const char *k = in->kernel;
			size_t kl = strlen(k);

			if (!o->full_names && kl > KERNEL_TEXT_MAX)
				kl = KERNEL_TEXT_MAX;
			pc_text(cell[1], sizeof cell[1], in->pc);
			snprintf(cell[2], sizeof cell[2], "%s",
				 in->sass ? in->sass : "-");
			source(cell[3], sizeof cell[3], in, 0);
			if (!cell[3][0])
				strcpy(cell[3], "-");
			snprintf(cell[4], sizeof cell[4], "%llu",
				 (unsigned long long)in->executions);
			snprintf(cell[5], sizeof cell[5], "%llu",
				 (unsigned long long)in->wavefronts);
			snprintf(cell[6], sizeof cell[6], "%llu",
				 (unsigned long long)in->ideal);
			snprintf(cell[7], sizeof cell[7], "%lld",
				 (long long)in->excess);
			per_exec(cell[8], sizeof cell[8], in);
			if (!cell[8][0])
				strcpy(cell[8], "-");
			predicted(cell[9], sizeof cell[9], p, p->shown[r]);
			if (!pass) {
				w[0] = max_size(w[0], kl);
				for (int c = 1; c < nc; c++)
					w[c] = max_size(w[c], strlen(cell[c]));
				continue;
			}
			if (kl < strlen(k))
				printf("%.*s...%*s  ", (int)kl - 3, k,
				       (int)(w[0] - kl), "");
			else
				printf("%-*s  ", (int)w[0], k);
			for (int c = 1; c < nc; c++)
				printf(c < 4 ? "%-*s%s" : "%*s%s", (int)w[c],
				       cell[c], c < nc - 1 ? "  " : "\n");
		}
	}
	if (p->more)
		printf("(%zu more instruction%s; --top %lu shows the worst "
		       "%lu)\n", p->more, p->more == 1 ? "" : "s", o->top,
		       o->top);
	ldgsts_note(p);
	if (p->nshown > p->ncounted) {
		printf("\nshared memory outside the LSU pipe: present, not "
		       "counted by CUPTI's shared-memory metrics\n");
		for (size_t r = p->ncounted; r < p->nshown; r++) {
			const bs_sass_insn *in =
				bs_sassprof_get(p->sp, p->shown[r]);
			char pc[16], src[512];

			pc_text(pc, sizeof pc, in->pc);
			source(src, sizeof src, in, 0);
			printf("%.*s%s  %s  %s  %s  %llu executions: %s\n",
			       o->full_names ? (int)strlen(in->kernel)
					     : KERNEL_TEXT_MAX,
			       in->kernel, !o->full_names &&
			       strlen(in->kernel) > KERNEL_TEXT_MAX ? "..." : "",
			       pc, in->sass, src[0] ? src : "-",
			       (unsigned long long)in->executions,
			       in->not_counted);
		}
	}
}

/* The ATOMS.CAST.SPIN of the retry loop in is part of, or NULL. */
static const bs_sass_insn *loop_of(const profile *p, const bs_sass_insn *in)
{
	if (!in->sass || (strncmp(in->sass, "LDS", 3) &&
			  strncmp(in->sass, "ATOMS.CAST.SPIN", 15)))
		return NULL;
	for (size_t i = 0; i < p->n; i++) {
		const bs_sass_insn *c = bs_sassprof_get(p->sp, i);

		if (explain_loop_of(in, c))
			return c;
	}
	return NULL;
}

/* The explain report: one block per shown instruction with samples. */
static void print_text_explain(const profile *p, const options *o)
{
	size_t with = 0;

	printf("\nexplain: the %s model on the lanes' recorded addresses of "
	       "sampled warp executions (explain.tsv)\n\n",
	       profile_arch()->name);
	for (size_t r = 0; r < p->ncounted; r++) {
		const bs_sass_insn *in = bs_sassprof_get(p->sp, p->shown[r]);
		ex_result x;
		char pc[16], src[512];

		explain_instruction(p->ex, in, loop_of(p, in), &x);
		with += x.verdict != EX_NONE;
		pc_text(pc, sizeof pc, in->pc);
		source(src, sizeof src, in, 0);
		printf("%.*s%s  %s  %s  %s\n", o->full_names ?
		       (int)strlen(in->kernel) : KERNEL_TEXT_MAX, in->kernel,
		       !o->full_names && strlen(in->kernel) > KERNEL_TEXT_MAX
		       ? "..." : "", pc, in->sass ? in->sass : "-",
		       src[0] ? src : "-");
		explain_text(stdout, p->ex, &x);
	}
	if (!with)
		printf("no instruction of the table ran in a sampled warp\n");
}

static void explain_csv(const profile *p, const bs_sass_insn *in)
{
	ex_result x;
	char mean[32];

	explain_instruction(p->ex, in, loop_of(p, in), &x);
	if (x.verdict == EX_NONE || x.verdict == EX_NOT_MODELED ||
	    x.verdict == EX_BAD_SAMPLES) {
		printf(",%zu,,,,%s", x.samples,
		       explain_verdict_name(x.verdict));
		return;
	}
	verdict_num(mean, sizeof mean, x.mean_wf);
	printf(",%zu,%u,%u,%s,%s", x.predicted, x.min_wf, x.max_wf, mean,
	       explain_verdict_name(x.verdict));
}

static void print_csv_table(const profile *p, const char *program)
{
	char buf[4096];

	if (program) {
		fputs("# program: ", stdout);
		fputs(program, stdout);
		putchar('\n');
	}
	if (p->runs)
		printf("# runs: %lu\n", p->runs);
	printf("# launches: %lu\n# measured_launches: %lu\n# kernels: %lu\n"
	       "# instructions: %lu\n", p->tot.launches, p->tot.measured,
	       p->tot.kernels, p->tot.instructions);
	printf("# units: executions in warp instructions; wavefronts, ideal "
	       "and excess in wavefronts; all summed over the measured "
	       "launches\n");
	printf("kernel,function,cubin_crc,pc,sass,source,executions,"
	       "wavefronts,ideal,excess,wavefronts_per_exec%s%s%s\n",
	       p->join ? ",pattern,predicted_wavefronts_per_exec" : "",
	       p->ex ? ",explain_samples,model_wavefronts_min,"
		       "model_wavefronts_max,model_wavefronts_mean,verdict"
		     : "", p->tot.not_counted ? ",not_counted" : "");
	for (size_t r = 0; r < p->nshown; r++) {
		const bs_sass_insn *in = bs_sassprof_get(p->sp, p->shown[r]);
		char pc[16];

		csv_field(stdout, in->kernel);
		putchar(',');
		csv_field(stdout, in->function);
		pc_text(pc, sizeof pc, in->pc);
		printf(",%u,%s,", in->cubin_crc, pc);
		csv_field(stdout, in->sass ? in->sass : "");
		putchar(',');
		source(buf, sizeof buf, in, 1);
		csv_field(stdout, buf);
		per_exec(buf, sizeof buf, in);
		printf(",%llu,%llu,%llu,%lld,%s",
		       (unsigned long long)in->executions,
		       (unsigned long long)in->wavefronts,
		       (unsigned long long)in->ideal, (long long)in->excess,
		       buf);
		if (p->join) {
			bs_access a;

			putchar(',');
			if (join_find(p->join, p->sp, p->n, p->shown[r], &a))
				csv_field(stdout, a.name);
			predicted(buf, sizeof buf, p, p->shown[r]);
			printf(",%s", strcmp(buf, "-") ? buf : "");
		}
		if (p->ex)
			explain_csv(p, in);
		if (p->tot.not_counted) {
			putchar(',');
			csv_field(stdout, in->not_counted ? in->not_counted
							  : "");
		}
		putchar('\n');
	}
}

static void json_or_null(const char *s)
{
	if (s)
		json_string(stdout, s);
	else
		fputs("null", stdout);
}

static void explain_json(const profile *p, const bs_sass_insn *in)
{
	ex_result x;
	char mean[32], m[32], text[512];

	explain_instruction(p->ex, in, loop_of(p, in), &x);
	explain_verdict_text(&x, text, sizeof text);
	printf(", \"explain\": {\"samples\": %zu, \"verdict\": ", x.samples);
	json_string(stdout, explain_verdict_name(x.verdict));
	fputs(", \"text\": ", stdout);
	json_string(stdout, text);
	if (x.invalid)
		printf(", \"invalid_samples\": %zu", x.invalid);
	if (x.verdict != EX_NONE && x.verdict != EX_NOT_MODELED &&
	    x.verdict != EX_BAD_SAMPLES) {
		verdict_num(mean, sizeof mean, x.mean_wf);
		if (isnan(x.measured_wf))
			snprintf(m, sizeof m, "null");
		else
			verdict_num(m, sizeof m, x.measured_wf);
		printf(", \"model_wavefronts_min\": %u, "
		       "\"model_wavefronts_max\": %u, "
		       "\"model_wavefronts_mean\": %s, "
		       "\"model_wavefronts_sum\": %lu, \"model_ideal_sum\": "
		       "%lu, \"model_conflicts_sum\": %lu, "
		       "\"counters_wavefronts_per_exec\": %s", x.min_wf,
		       x.max_wf, mean, x.sum_wf, x.sum_ideal, x.sum_conflicts,
		       m);
	}
	putchar('}');
}

static void print_json_table(const profile *p, const char *program)
{
	char buf[64], pc[16];

	fputs("{\"program\": ", stdout);
	json_or_null(program);
	fputs(", \"status\": ", stdout);
	json_or_null(p->state == ST_NONE ? NULL : p->reason);
	printf(", \"runs\": %lu, \"launches\": %lu, \"measured_launches\": "
	       "%lu, \"kernels\": %lu, \"instructions\": %lu,\n "
	       "\"shared_instructions\": [", p->runs, p->tot.launches,
	       p->tot.measured, p->tot.kernels, p->tot.instructions);
	for (size_t r = 0; r < p->nshown; r++) {
		const bs_sass_insn *in = bs_sassprof_get(p->sp, p->shown[r]);

		fputs(r ? ",\n  {" : "\n  {", stdout);
		fputs("\"kernel\": ", stdout);
		json_string(stdout, in->kernel);
		fputs(", \"function\": ", stdout);
		json_string(stdout, in->function);
		pc_text(pc, sizeof pc, in->pc);
		printf(", \"cubin_crc\": %u, \"pc\": \"%s\", \"sass\": ",
		       in->cubin_crc, pc);
		json_or_null(in->sass);
		fputs(", \"source_file\": ", stdout);
		json_or_null(in->source_file);
		if (in->source_file)
			printf(", \"source_line\": %lu", in->source_line);
		else
			fputs(", \"source_line\": null", stdout);
		per_exec(buf, sizeof buf, in);
		printf(", \"launches\": %lu, \"executions\": %llu, "
		       "\"wavefronts\": %llu, \"ideal\": %llu, "
		       "\"excess\": %lld, \"wavefronts_per_exec\": %s, "
		       "\"not_counted\": ",
		       in->launches, (unsigned long long)in->executions,
		       (unsigned long long)in->wavefronts,
		       (unsigned long long)in->ideal, (long long)in->excess,
		       buf[0] ? buf : "null");
		json_or_null(in->not_counted);
		if (p->ex && !in->not_counted)
			explain_json(p, in);
		putchar('}');
	}
	fputs(p->nshown ? "\n ]}\n" : "]}\n", stdout);
}

/* The messages about the records; 1 when there is no profile to show. */
static int tell(const profile *p, const char *who, const char *inject)
{
	const bs_sassprof_totals *t = &p->tot;

	if (p->state == ST_NONE) {
		if (inject)
			usage_error("%s launched no CUDA kernel (CUDA was not "
				    "initialized, or %s did not load)", who,
				    inject);
		else
			usage_error("%s: no status.txt: the program launched "
				    "no CUDA kernel", who);
		return 1;
	}
	if (p->state == ST_FAILED)
		usage_error("counters could not be collected: %s", p->reason);
	for (int i = 0; i < p->nlater; i++)
		usage_error("a later run: %s", p->later[i]);
	if (!t->launches && !t->records) {
		if (p->state == ST_OK)
			usage_error("%s launched no CUDA kernel", who);
		return 1;
	}
	if (!t->records && !t->empty_launches) {
		if (!inject)
			usage_error("%s: no launch was measured", who);
		return 1;
	}
	if (!t->records)
		usage_error("%lu kernel launch%s selected but no SASS records "
			    "from CUPTI", t->empty_launches,
			    t->empty_launches == 1 ? "" : "es");
	else if (t->empty_launches)
		usage_error("%lu selected launch%s gave no SASS records (%lu of "
			    "%lu kernels measured); the table covers the "
			    "others", t->empty_launches,
			    t->empty_launches == 1 ? "" : "es",
			    t->kernels_measured, t->kernels);
	if (t->kernels_unlaunched)
		usage_error("records name %lu kernel%s no launch line names "
			    "(launched where the injection library saw no "
			    "launch call): counted in the table, not in the "
			    "launches", t->kernels_unlaunched,
			    t->kernels_unlaunched == 1 ? "" : "s");
	if (t->mismatched)
		usage_error("%lu launch%s named different kernels in different "
			    "runs: the program does not launch the same way "
			    "each time", t->mismatched,
			    t->mismatched == 1 ? "" : "es");
	if (p->no_cubin)
		usage_error("%lu cubin%s the records name %s missing: no "
			    "SASS text or source lines for %s", p->no_cubin,
			    p->no_cubin == 1 ? "" : "s",
			    p->no_cubin == 1 ? "is" : "are",
			    p->no_cubin == 1 ? "it" : "them");
	if (p->no_disasm > p->no_cubin)
		usage_error("%lu cubin%s not disassembled (no nvdisasm or "
			    "cuobjdump that could): no SASS text or source "
			    "lines", p->no_disasm - p->no_cubin,
			    p->no_disasm - p->no_cubin == 1 ? "" : "s");
	return !t->records || p->state == ST_FAILED;
}

/* explain.tsv and its status, when --explain: 0, -1 bad input (err). */
static int load_explain(profile *p, bs_error *err)
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

static void show(const profile *p, const options *o, const char *program)
{
	if (o->fmt == FMT_CSV)
		print_csv_table(p, program);
	else if (o->fmt == FMT_JSON)
		print_json_table(p, program);
	else if (p->tot.records) {
		print_text_table(p, o, program);
		if (p->ex)
			print_text_explain(p, o);
	}
	fflush(stdout);
}

/* ---- running the program ------------------------------------------------- */

/* Variables of ours: never passed on from our own environment. */
static const char *const our_vars[] = {
	"CUDA_INJECTION64_PATH", "BANKSCOPE_PROFILE_DIR",
	"BANKSCOPE_PROFILE_KERNEL", "BANKSCOPE_PROFILE_SKIP",
	"BANKSCOPE_PROFILE_COUNT", "BANKSCOPE_PROFILE_LAUNCH",
	"BANKSCOPE_EXPLAIN_DIR", "BANKSCOPE_EXPLAIN_PATCH",
	"BANKSCOPE_EXPLAIN_SAMPLE", "BANKSCOPE_EXPLAIN_LIB",
};
#define NVARS (sizeof our_vars / sizeof *our_vars)

/* One run: its variables, NAME=VALUE each (NULL: left out). */
typedef struct {
	char *set[NVARS];
	int quiet;
	int explain;               /* the explain run */
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
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
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
 * has no records yet, up to --max-runs in all, --jobs at a time, beside
 * the explain run x (NULL: none) that may still run.  Warnings only; the
 * runs made in *runs; -1 when the records could not be read (err).
 */
static int more_runs(const options *o, const char *inject, profile *p,
		     run_spec *x, int code0, double *clock, bs_error *err)
{
	unsigned long left, differ = 0, windows;
	size_t nt, nr, next = 0, running = x && x->started == 1;
	target *t;
	run_spec *r;

	if (load_tables(p, err) < 0)
		return -1;
	if (p->state != ST_OK)
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
	if (!(r = calloc((nr ? nr : 1) + 1, sizeof *r))) {
		free(t);
		return bs_error_set(err, p->dir, 0, 0, "out of memory");
	}
	for (size_t i = 0; i < nr; i++) {
		char *re = exact(t[i].kernel);

		r[i].quiet = 1;
		if (!re || spec_set(&r[i], 0, inject) < 0 ||
		    spec_set(&r[i], 1, p->dir) < 0 ||
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
	if (x)
		r[nr] = *x;
	for (;;) {
		int i;

		while (next < nr && running < p->jobs) {
			if (start_run(o, &r[next]) == 0)
				running++;
			next++;
		}
		if (!running || (i = reap(r, nr + (x != NULL))) < 0)
			break;
		running--;
		if ((size_t)i < nr) {
			differ += wait_code(r[i].status) != code0;
			p->runs++;
		}
	}
	if (x)
		*x = r[nr];
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

static int profile_run(const options *o)
{
	char inject[4096], lib[4096], patch[4096], tmpl[4096], *program;
	struct sigaction ign, old_int, old_quit;
	run_spec first, x;
	profile p;
	bs_error err;
	int rc, code, empty, same;
	double t = now();

	memset(&first, 0, sizeof first);
	memset(&x, 0, sizeof x);
	memset(&p, 0, sizeof p);
	p.jobs = o->jobs;
	if (find_file(o->inject ? o->inject : getenv("BANKSCOPE_INJECT"),
		      INJECT_NAME, "injection library", "make build/"
		      INJECT_NAME ", or name it with --inject", inject,
		      sizeof inject) ||
	    (o->explain &&
	     (find_file(getenv("BANKSCOPE_EXPLAIN_LIB"), EXPLAIN_NAME,
			"explain library", "make explain: it needs the CUDA "
			"Sanitizer API", lib, sizeof lib) ||
	      find_file(getenv("BANKSCOPE_EXPLAIN_PATCH"), PATCH_NAME,
			"explain patch module", "make explain", patch,
			sizeof patch))))
		return EXIT_BADINPUT;
	if (o->keep) {
		if (keep_dir(o->keep))
			return EXIT_BADINPUT;
		p.dir = o->keep;
	} else {
		snprintf(tmpl, sizeof tmpl, "%s/bankscope-profile-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(tmpl))
			return usage_error("profile: cannot make a directory "
					   "%s: %s", tmpl, strerror(errno));
		p.dir = tmpl;
	}
	same = o->explain && explain_same_run();
	if (spec_set(&first, 0, inject) < 0 || spec_set(&first, 1, p.dir) < 0 ||
	    spec_select(&first, o) < 0 ||
	    (same && spec_explain(&first, lib, p.dir, patch, o) < 0) ||
	    (o->explain && !same &&
	     (spec_set(&x, 0, lib) < 0 || spec_explain(&x, NULL, p.dir, patch,
						       o) < 0 ||
	      (o->kernel && spec_set(&x, 2, o->kernel) < 0) ||
	      (o->skip && spec_set_ul(&x, 3, o->skip) < 0) ||
	      (o->count && spec_set_ul(&x, 4, o->count) < 0)))) {
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
	rc = more_runs(o, inject, &p, o->explain ? &x : NULL, code, &t, &err);
	if (x.started == 1) {
		while (waitpid(x.pid, &x.status, 0) < 0 && errno == EINTR)
			;
		phase(o, &t, "the explain run, after the others");
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (rc == 0 && load(&p, 1, &err) == 0)
		phase(o, &t, "reading the records, disassembling %zu cubin%s",
		      bs_sassprof_cubins(p.sp, NULL, 0),
		      bs_sassprof_cubins(p.sp, NULL, 0) == 1 ? "" : "s");
	else
		rc = -1;
	if (rc == 0)
		choose_arch(&p, o);
	if (rc < 0 || (o->explain && !p.no_model &&
		       load_explain(&p, &err) < 0) ||
	    select_shown(&p, o, &err) < 0) {
		report_error(&err);
		rc = EXIT_BADINPUT;
		goto out;
	}
	empty = p.state == ST_NONE || !p.tot.records;
	if (WIFSIGNALED(first.status))
		usage_error("%s was killed by signal %d (%s)%s", o->prog[0],
			    WTERMSIG(first.status),
			    strsignal(WTERMSIG(first.status)),
			    empty ? "" : "; the profile covers what ran");
	else if (code)
		usage_error("%s exited with status %d%s", o->prog[0], code,
			    empty ? "" : "; the profile covers what ran");
	if (o->explain && x.started && wait_code(x.status) != code)
		usage_error("the explain run of %s ended with status %d",
			    o->prog[0], wait_code(x.status));
	if (tell(&p, o->prog[0], inject) && !code)
		code = 1;
	program = joined(o->prog, o->nprog);
	if (p.state != ST_NONE)
		show(&p, o, program);
	free(program);
	phase(o, &t, "the report");
	rc = code;
out:
	spec_free(&first);
	spec_free(&x);
	bs_sassprof_free(p.sp);
	bs_explain_free(p.ex);
	free(p.shown);
	if (!o->keep)
		remove_dir(p.dir);
	return rc;
}

/* --dataset: a new file, never one that is there (or a directory). */
static int dataset_target(const char *path)
{
	struct stat st;

	if (!*path)
		return usage_error("option --dataset: an empty path");
	if (!stat(path, &st))
		return usage_error("option --dataset: %s %s; not "
				   "overwritten", path, S_ISDIR(st.st_mode) ?
				   "is a directory" : "exists");
	if (path[strlen(path) - 1] == '/')
		return usage_error("option --dataset: %s names a directory",
				   path);
	return 0;
}

static int profile_replay(const options *o)
{
	char final[4096];
	struct stat st;
	profile p;
	bs_error err;
	join *j = NULL;
	int none;

	memset(&p, 0, sizeof p);
	p.dir = o->replay;
	p.jobs = o->jobs;
	if (stat(o->replay, &st) < 0)
		return usage_error("%s: cannot open: %s", o->replay,
				   strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return usage_error("%s: not a directory", o->replay);
	if ((o->dataset && dataset_target(o->dataset)) )
		return EXIT_BADINPUT;
	if ((o->patterns && !(j = join_open(o->patterns, &err))) ||
	    load(&p, 0, &err) < 0 ||
	    (choose_arch(&p, o), 0) ||
	    (o->explain && p.state != ST_NONE && !p.no_model &&
	     load_explain(&p, &err) < 0) ||
	    select_shown(&p, o, &err) < 0) {
		report_error(&err);
		bs_sassprof_free(p.sp);
		bs_explain_free(p.ex);
		free(p.shown);
		join_free(j);
		return EXIT_BADINPUT;
	}
	if (p.no_model) {
		join_free(j);
		j = NULL;
	}
	if (o->skip || o->count) {
		if (p.tot.drained)
			usage_error("profile: --replay cannot select launches "
				    "again (--launch-skip, --launch-count): "
				    "%s/records.tsv holds %lu record%s summed "
				    "over the launches of a run's window "
				    "(launch \"-\"), not one per launch; "
				    "--kernel selects kernels of it, a new run "
				    "selects launches", o->replay,
				    p.tot.drained, p.tot.drained == 1 ? ""
								      : "s");
		else
			usage_error("profile: --replay does not select "
				    "launches again (--launch-skip, "
				    "--launch-count); --kernel selects kernels "
				    "of %s, a new run selects launches",
				    o->replay);
		bs_sassprof_free(p.sp);
		bs_explain_free(p.ex);
		free(p.shown);
		join_free(j);
		return EXIT_BADINPUT;
	}
	p.join = j;
	none = tell(&p, o->replay, NULL);
	if (p.state != ST_NONE)
		show(&p, o, NULL);
	if (o->dataset && p.state != ST_NONE && j) {
		if (join_write_dataset(j, p.sp, p.n, o->dataset, o->replay,
				       final, sizeof final, &err) < 0) {
			report_error(&err);
			none = EXIT_BADINPUT;
		} else {
			fprintf(stderr, "bankscope: dataset written to %s\n",
				final);
		}
	}
	bs_sassprof_free(p.sp);
	bs_explain_free(p.ex);
	free(p.shown);
	join_free(j);
	return none == EXIT_BADINPUT ? EXIT_BADINPUT : none ? 1 : 0;
}

static int parse_count(const char *name, const char *value, uint64_t max,
		       int zero_ok, unsigned long *out)
{
	uint64_t v;

	if (!value)
		return 0;
	if (opt_u64(name, value, max, &v))
		return EXIT_BADINPUT;
	if (!v && !zero_ok)
		return usage_error("option %s: must be at least 1", name);
	*out = (unsigned long)v;
	return 0;
}

static unsigned long default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 16 ? 16 : (unsigned long)n;
}

int cmd_profile(int argc, char **argv)
{
	options o;
	const char *fmt = NULL, *runs = NULL, *jobs = NULL, *skip = NULL;
	const char *count = NULL, *top = NULL, *which = NULL, *arch = NULL;
	unsigned b, w, e;
	char tail;
	int i, rc;

	memset(&o, 0, sizeof o);
	o.max_runs = MAX_RUNS_DEFAULT;
	o.jobs = default_jobs();
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(profile_usage, stdout);
			return 0;
		}
		if (!strcmp(a, "--full-names")) {
			o.full_names = 1;
			continue;
		}
		if (!strcmp(a, "--explain")) {
			o.explain = 1;
			continue;
		}
		if (!strcmp(a, "--verbose")) {
			o.verbose = 1;
			continue;
		}
		if ((rc = opt_value(argc, argv, &i, "--format", &fmt)) ||
		    (rc = opt_value(argc, argv, &i, "--keep", &o.keep)) ||
		    (rc = opt_value(argc, argv, &i, "--kernel", &o.kernel)) ||
		    (rc = opt_value(argc, argv, &i, "-k", &o.kernel)) ||
		    (rc = opt_value(argc, argv, &i, "--launch-skip", &skip)) ||
		    (rc = opt_value(argc, argv, &i, "-s", &skip)) ||
		    (rc = opt_value(argc, argv, &i, "--launch-count",
				    &count)) ||
		    (rc = opt_value(argc, argv, &i, "-c", &count)) ||
		    (rc = opt_value(argc, argv, &i, "--top", &top)) ||
		    (rc = opt_value(argc, argv, &i, "--launches", &which)) ||
		    (rc = opt_value(argc, argv, &i, "--sample", &o.sample)) ||
		    (rc = opt_value(argc, argv, &i, "--jobs", &jobs)) ||
		    (rc = opt_value(argc, argv, &i, "--max-runs", &runs)) ||
		    (rc = opt_value(argc, argv, &i, "--inject", &o.inject)) ||
		    (rc = opt_value(argc, argv, &i, "--replay", &o.replay)) ||
		    (rc = opt_value(argc, argv, &i, "--patterns", &o.patterns)) ||
		    (rc = opt_value(argc, argv, &i, "--dataset", &o.dataset)) ||
		    (rc = opt_value(argc, argv, &i, "--arch", &arch))) {
			if (rc < 0)
				return EXIT_BADINPUT;
			continue;
		}
		if (a[0] == '-')
			return usage_error("profile: unknown option '%s' (try "
					   "bankscope profile --help)", a);
		break;
	}
	o.prog = argv + i;
	o.nprog = argc - i;
	if (!fmt || !strcmp(fmt, "text"))
		o.fmt = FMT_TEXT;
	else if (!strcmp(fmt, "csv"))
		o.fmt = FMT_CSV;
	else if (!strcmp(fmt, "json"))
		o.fmt = FMT_JSON;
	else
		return usage_error("option --format: '%s' is not text, csv or "
				   "json", fmt);
	if (which && strcmp(which, "first") && strcmp(which, "all"))
		return usage_error("option --launches: '%s' is not first or "
				   "all", which);
	o.all_launches = which && !strcmp(which, "all");
	if (runs && !strcmp(runs, "0"))
		return usage_error("option --max-runs: 0 runs measure "
				   "nothing");
	if (parse_count("--max-runs", runs, 1000000, 0, &o.max_runs) ||
	    parse_count("--jobs", jobs, JOBS_MAX, 0, &o.jobs) ||
	    parse_count("--launch-skip", skip, UINT32_MAX, 1, &o.skip) ||
	    parse_count("--launch-count", count, UINT32_MAX, 0, &o.count) ||
	    parse_count("--top", top, UINT32_MAX, 0, &o.top))
		return EXIT_BADINPUT;
	if (o.sample && (sscanf(o.sample, "%ux%ux%u%c", &b, &w, &e, &tail) != 3 ||
			 !b || !w || !e || w > 32 || e > 1024 ||
			 strspn(o.sample, "0123456789x") != strlen(o.sample)))
		return usage_error("option --sample: '%s' is not BLOCKSxWARPSx"
				   "EXECS (each at least 1, at most 32 warps, "
				   "1024 executions)", o.sample);
	if (o.sample && !o.explain)
		return usage_error("profile: --sample goes with --explain");
	if (arch && arch_option(arch, &o.arch))
		return EXIT_BADINPUT;
	if (o.kernel) {
		int e2 = regcomp(&o.re, o.kernel, REG_EXTENDED | REG_NOSUB);

		if (e2) {
			char why[256];

			regerror(e2, &o.re, why, sizeof why);
			return usage_error("option --kernel: '%s' is not a "
					   "regular expression: %s", o.kernel,
					   why);
		}
	}
	if (o.replay) {
		const char *with = o.keep ? "--keep" : o.inject ? "--inject"
				 : runs ? "--max-runs" : jobs ? "--jobs"
				 : which ? "--launches"
				 : o.sample ? "--sample" : NULL;

		rc = o.nprog ? usage_error("profile: --replay takes no "
					   "program")
		   : o.dataset && !o.patterns
			? usage_error("profile: --dataset needs --patterns")
		   : with ? usage_error("profile: --replay does not go with "
					"%s", with)
			  : profile_replay(&o);
	} else if (o.patterns || o.dataset) {
		rc = usage_error("profile: --patterns and --dataset go with "
				 "--replay");
	} else if (!o.nprog) {
		rc = usage_error("profile: no program (bankscope profile "
				 "[OPTIONS] -- PROGRAM [ARGS])");
	} else {
		rc = profile_run(&o);
	}
	if (o.kernel)
		regfree(&o.re);
	return rc;
}
