/*
 * profile.c - bankscope profile: the shared-memory instructions of a CUDA
 * program as it ran, each with its executions, wavefronts, ideal
 * wavefronts and excess, worst first.
 *
 * `profile [OPTIONS] -- PROGRAM [ARGS]` starts PROGRAM (posix_spawnp: a
 * name without '/' is looked up in PATH) with its stdin, stdout and stderr
 * untouched and these variables added: CUDA_INJECTION64_PATH, the
 * injection library (--inject, else $BANKSCOPE_INJECT, else
 * libbankscope_inject.so beside this executable, else in
 * ../lib/bankscope/ from it as make install puts it, found through
 * /proc/self/exe); BANKSCOPE_PROFILE_DIR, an empty directory (--keep DIR,
 * else a mkdtemp one under $TMPDIR, removed afterwards); and, from the
 * second run on, BANKSCOPE_PROFILE_LAUNCH.  CUPTI's SASS metrics give one
 * kernel launch per process (see probes/inject/inject.c), so the first
 * run measures launch 0 and lists every launch, and the program is run
 * again, its output sent to /dev/null, once for the first launch of each
 * other kernel (--launches all: for every other launch), up to --max-runs
 * runs in all.  SIGINT and SIGQUIT are ignored while a run goes on (the
 * program gets them; what was measured is still shown).  Then each cubin
 * the records name is disassembled once (nvdisasm -c -g, else cuobjdump
 * -sass; PATH, then $CUDA_HOME/bin, then /usr/local/cuda/bin) into
 * cubin-CRC.sass beside it, the directory is read (bs_sassprof) and the
 * table printed on stdout.  `profile --replay DIR` reports an existing
 * directory; a disassembly missing there goes to a temporary file, DIR is
 * never written.
 *
 * Messages, one line each on stderr: the program not found (exit 127) or
 * not executable (126); its exit status when not 0, or the signal that
 * killed it; no CUDA at all (no status.txt: CUDA never initialized, or the
 * injection library did not load); counters not collected (status.txt's
 * reason, and failures of later runs); no kernel launched; measured
 * launches that gave no records; later runs that ended differently or
 * launched other kernels; launches left unmeasured by --max-runs.
 *
 * Exit status: a program run passes the first run's status through
 * (128+N for signal N); 2 for bad usage or an unreadable records
 * directory.  A replay: 0 a profile was shown, 1 the directory holds none
 * (counters not collected, or nothing launched), 2 bad input.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

extern char **environ;

#define INJECT_NAME "libbankscope_inject.so"
#define KERNEL_TEXT_MAX 48     /* kernel column width in the text table */
#define MAX_RUNS_DEFAULT 32
#define LATER_MAX 4            /* later runs' failures kept */

static const char profile_usage[] =
	"usage: bankscope profile [--format text|csv|json] [--keep DIR]\n"
	"                         [--launches first|all] [--max-runs N]\n"
	"                         [--inject PATH] -- PROGRAM [ARGS]\n"
	"       bankscope profile [--format text|csv|json] --replay DIR\n"
	"                         [--patterns FILE [--dataset OUT.csv]]\n"
	"\n"
	"Run a CUDA program unchanged and report its shared-memory\n"
	"instructions (LDS, STS, LDSM, STSM, ATOMS and any other that moved\n"
	"shared-memory wavefronts), per kernel and SASS instruction, worst\n"
	"first: pc, SASS, source line (programs built with -lineinfo),\n"
	"executions (warp instructions), wavefronts, ideal wavefronts and\n"
	"their excess (wavefronts - ideal), summed over the measured\n"
	"launches.  Counts come from CUPTI's SASS metrics through an\n"
	"injection library, one kernel launch per run of the program: the\n"
	"first run measures the first launch, and the program runs again\n"
	"(output discarded) for each other kernel.  It should launch the same\n"
	"kernels in the same order every time.\n"
	"\n"
	"  --format FMT     text (default), csv, json\n"
	"  --keep DIR       collect into DIR (new or empty) and keep it\n"
	"  --launches WHICH first (default): the first launch of each kernel;\n"
	"                   all: every launch, one run each\n"
	"  --max-runs N     run the program at most N times (32)\n"
	"  --inject PATH    the injection library (default:\n"
	"                   $BANKSCOPE_INJECT, else " INJECT_NAME "\n"
	"                   beside bankscope or in ../lib/bankscope/)\n"
	"  --replay DIR     report a directory kept earlier\n"
	"  --patterns FILE  join each instruction to the access named\n"
	"                   KERNEL:OP:RANK in FILE (bankscope-tutorial\n"
	"                   --patterns) and show its predicted wavefronts\n"
	"  --dataset OUT    with --patterns: write the joined instructions as\n"
	"                   a dataset for bankscope check\n"
	"\n"
	"Exit status: the program's own in its first run (128+N when signal N\n"
	"killed it), 127 when it is not found, 126 when it cannot be run, 2\n"
	"bad usage.  With --replay: 0 a profile was shown, 1 none was\n"
	"collected, 2 bad input.\n";

typedef enum { FMT_TEXT, FMT_CSV, FMT_JSON } format;

typedef struct {
	format fmt;
	const char *keep, *inject, *replay, *patterns, *dataset;
	int all_launches;
	unsigned long max_runs;
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
	size_t n;
	const join *join;          /* --patterns, or NULL */
	bs_sassprof_totals tot;
	unsigned long no_disasm;    /* cubins not disassembled */
	unsigned long no_cubin;     /* of those, cubins not saved */
} profile;

/* ---- files and programs ------------------------------------------------- */

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

/* Run argv with stdout into fd, stdin and stderr on /dev/null; 0 when it
 * exits 0. */
static int run_quiet(char *const argv[], int fd)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd, 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/*
 * The disassembly of dir/cubin-CRC.cubin, open for reading: cubin-CRC.sass
 * when it exists, else made by nvdisasm or cuobjdump, into that file when
 * save, else into an unlinked temporary file.  NULL when there is none,
 * *no_cubin set when not even the cubin is there.
 */
static FILE *disassembly(const char *dir, uint32_t crc, int save,
			 int *no_cubin)
{
	static const char *const tools[][4] = {
		{ "nvdisasm", "-c", "-g", NULL },
		{ "cuobjdump", "-sass", NULL, NULL },
	};
	char sass[4096], cubin[4096], tmp[4200], tool[4096];
	FILE *f;

	snprintf(sass, sizeof sass, "%s/cubin-%u.sass", dir, crc);
	snprintf(cubin, sizeof cubin, "%s/cubin-%u.cubin", dir, crc);
	*no_cubin = 0;
	if ((f = fopen(sass, "r")))
		return f;
	if (access(cubin, R_OK)) {
		*no_cubin = 1;
		return NULL;
	}
	for (size_t t = 0; t < sizeof tools / sizeof *tools; t++) {
		char *argv[5];
		int fd, n = 0;

		if (find_tool(tools[t][0], tool, sizeof tool) < 0)
			continue;
		argv[n++] = tool;
		for (int i = 1; tools[t][i]; i++)
			argv[n++] = (char *)tools[t][i];
		argv[n++] = cubin;
		argv[n] = NULL;
		if (save)
			snprintf(tmp, sizeof tmp, "%s.tmp", sass);
		else
			snprintf(tmp, sizeof tmp, "%s/bankscope-sass-XXXXXX",
				 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		fd = save ? open(tmp, O_RDWR | O_CREAT | O_TRUNC, 0644)
			  : mkstemp(tmp);
		if (fd < 0)
			return NULL;
		if (run_quiet(argv, fd) < 0 || lseek(fd, 0, SEEK_SET) < 0 ||
		    (save && rename(tmp, sass) < 0)) {
			close(fd);
			unlink(tmp);
			continue;
		}
		if (!save)
			unlink(tmp);
		if ((f = fdopen(fd, "r")))
			return f;
		close(fd);
	}
	return NULL;
}

/* status.txt: absent, "ok", or the reason counters were not collected. */
static int read_status(profile *p, bs_error *err)
{
	char path[4096];
	FILE *f;
	size_t n;

	path_join(path, sizeof path, p->dir, "status.txt");
	if (!(f = fopen(path, "r"))) {
		if (errno == ENOENT) {
			p->state = ST_NONE;
			return 0;
		}
		return bs_error_set(err, path, 0, 0, "cannot open: %s",
				    strerror(errno));
	}
	if (!fgets(p->reason, sizeof p->reason, f))
		p->reason[0] = '\0';
	n = strcspn(p->reason, "\r\n");
	p->reason[n] = '\0';
	p->nlater = 0;
	while (p->nlater < LATER_MAX &&
	       fgets(p->later[p->nlater], sizeof p->later[0], f)) {
		char *l = p->later[p->nlater];

		l[strcspn(l, "\r\n")] = '\0';
		p->nlater += l[0] != '\0';
	}
	fclose(f);
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
	if (!(f = fopen(path, "r"))) {
		if (!required && errno == ENOENT)
			return 0;
		return bs_error_set(err, path, 0, 0, "cannot open: %s",
				    strerror(errno));
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

/* Everything in p->dir, disassembled where possible, filtered and sorted. */
static int load(profile *p, int save, bs_error *err)
{
	uint32_t *crc;
	size_t ncrc;

	if (load_tables(p, err) < 0)
		return -1;
	if (p->state == ST_NONE)
		return 0;
	ncrc = bs_sassprof_cubins(p->sp, NULL, 0);
	if (!(crc = malloc((ncrc ? ncrc : 1) * sizeof *crc)))
		return bs_error_set(err, p->dir, 0, 0, "out of memory");
	bs_sassprof_cubins(p->sp, crc, ncrc);
	for (size_t i = 0; i < ncrc; i++) {
		char name[4096];
		int rc, missing;
		FILE *f = disassembly(p->dir, crc[i], save, &missing);

		if (!f) {
			p->no_disasm++;
			p->no_cubin += (unsigned long)missing;
			continue;
		}
		snprintf(name, sizeof name, "%s/cubin-%u.sass", p->dir, crc[i]);
		rc = bs_sassprof_read_disasm(p->sp, crc[i], f, name, err);
		fclose(f);
		if (rc < 0) {
			free(crc);
			return -1;
		}
	}
	free(crc);
	p->n = bs_sassprof_finish(p->sp);
	bs_sassprof_get_totals(p->sp, &p->tot);
	return 0;
}

/* ---- output -------------------------------------------------------------- */

/* Up to 4 decimals, trailing zeros dropped; "" when executions are 0. */
static void per_exec(char *buf, size_t size, const bs_sass_insn *in)
{
	char *e;

	if (!in->executions) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, size, "%.4f", (double)in->wavefronts / in->executions);
	e = buf + strlen(buf);
	while (e[-1] == '0')
		*--e = '\0';
	if (e[-1] == '.')
		e[-1] = '\0';
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

static void kernel_cell(char *buf, size_t size, const char *k)
{
	if (strlen(k) <= KERNEL_TEXT_MAX)
		snprintf(buf, size, "%s", k);
	else
		snprintf(buf, size, "%.*s...", KERNEL_TEXT_MAX - 3, k);
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
	    bs_predict(bs_profile_default(), &a, &s, NULL) == 0)
		snprintf(buf, size, "%u", s.wavefronts);
	else
		snprintf(buf, size, "-");
}

static void print_text_table(const profile *p, const char *program)
{
	static const char *const head[] = {
		"kernel", "pc", "sass", "source", "executions", "wavefronts",
		"ideal", "excess", "wavefronts_per_exec", "predicted"
	};
	int nc = p->join ? 10 : 9;
	size_t w[10];
	char cell[10][512];

	if (program)
		printf("program: %s\n", program);
	printf("%lu launch%s of %lu kernel%s, %lu measured; %zu of %lu "
	       "instructions use shared memory\n", p->tot.launches,
	       p->tot.launches == 1 ? "" : "es", p->tot.kernels,
	       p->tot.kernels == 1 ? "" : "s", p->tot.measured, p->n,
	       p->tot.instructions);
	printf("executions in warp instructions; wavefronts, ideal and excess "
	       "in wavefronts; all summed over the measured launches\n\n");
	for (int c = 0; c < nc; c++)
		w[c] = strlen(head[c]);
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			for (int c = 0; c < nc; c++)
				printf(c < 4 ? "%-*s%s" : "%*s%s", (int)w[c],
				       head[c], c < nc - 1 ? "  " : "\n");
		}
		for (size_t i = 0; i < p->n; i++) {
			const bs_sass_insn *in = bs_sassprof_get(p->sp, i);

			kernel_cell(cell[0], sizeof cell[0], in->kernel);
			snprintf(cell[1], sizeof cell[1], "0x%04x", in->pc);
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
			predicted(cell[9], sizeof cell[9], p, i);
			for (int c = 0; c < nc; c++) {
				if (!pass)
					w[c] = max_size(w[c], strlen(cell[c]));
				else
					printf(c < 4 ? "%-*s%s" : "%*s%s",
					       (int)w[c], cell[c],
					       c < nc - 1 ? "  " : "\n");
			}
		}
	}
}

static void print_csv_table(const profile *p, const char *program)
{
	char buf[4096];

	if (program) {
		fputs("# program: ", stdout);
		fputs(program, stdout);
		putchar('\n');
	}
	printf("# launches: %lu\n# measured_launches: %lu\n# kernels: %lu\n"
	       "# instructions: %lu\n", p->tot.launches, p->tot.measured,
	       p->tot.kernels, p->tot.instructions);
	printf("# units: executions in warp instructions; wavefronts, ideal "
	       "and excess in wavefronts; all summed over the measured "
	       "launches\n");
	printf("kernel,function,cubin_crc,pc,sass,source,executions,"
	       "wavefronts,ideal,excess,wavefronts_per_exec%s\n",
	       p->join ? ",pattern,predicted_wavefronts_per_exec" : "");
	for (size_t i = 0; i < p->n; i++) {
		const bs_sass_insn *in = bs_sassprof_get(p->sp, i);

		csv_field(stdout, in->kernel);
		putchar(',');
		csv_field(stdout, in->function);
		printf(",%u,0x%04x,", in->cubin_crc, in->pc);
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
			if (join_find(p->join, p->sp, p->n, i, &a))
				csv_field(stdout, a.name);
			predicted(buf, sizeof buf, p, i);
			printf(",%s", strcmp(buf, "-") ? buf : "");
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

static void print_json_table(const profile *p, const char *program)
{
	char buf[64];

	fputs("{\"program\": ", stdout);
	json_or_null(program);
	fputs(", \"status\": ", stdout);
	json_or_null(p->state == ST_NONE ? NULL : p->reason);
	printf(", \"launches\": %lu, \"measured_launches\": %lu, "
	       "\"kernels\": %lu, \"instructions\": %lu,\n "
	       "\"shared_instructions\": [", p->tot.launches, p->tot.measured,
	       p->tot.kernels, p->tot.instructions);
	for (size_t i = 0; i < p->n; i++) {
		const bs_sass_insn *in = bs_sassprof_get(p->sp, i);

		fputs(i ? ",\n  {" : "\n  {", stdout);
		fputs("\"kernel\": ", stdout);
		json_string(stdout, in->kernel);
		fputs(", \"function\": ", stdout);
		json_string(stdout, in->function);
		printf(", \"cubin_crc\": %u, \"pc\": %u, \"sass\": ",
		       in->cubin_crc, in->pc);
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
		       "\"excess\": %lld, \"wavefronts_per_exec\": %s}",
		       in->launches, (unsigned long long)in->executions,
		       (unsigned long long)in->wavefronts,
		       (unsigned long long)in->ideal, (long long)in->excess,
		       buf[0] ? buf : "null");
	}
	fputs(p->n ? "\n ]}\n" : "]}\n", stdout);
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
	if (!t->launches) {
		if (p->state == ST_OK)
			usage_error("%s launched no CUDA kernel", who);
		return 1;
	}
	if (!t->records)
		usage_error("%lu kernel launch%s measured but no SASS records "
			    "from CUPTI", t->measured,
			    t->measured == 1 ? "" : "es");
	else if (t->empty_launches)
		usage_error("%lu of %lu measured launches gave no SASS "
			    "records; the table covers the others",
			    t->empty_launches, t->measured);
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

static void show(const profile *p, format fmt, const char *program)
{
	if (fmt == FMT_CSV)
		print_csv_table(p, program);
	else if (fmt == FMT_JSON)
		print_json_table(p, program);
	else if (p->tot.records)
		print_text_table(p, program);
	fflush(stdout);
}

/* ---- running the program ------------------------------------------------- */

static const char *const our_vars[] = {
	"CUDA_INJECTION64_PATH=", "BANKSCOPE_PROFILE_DIR=",
	"BANKSCOPE_PROFILE_LAUNCH=",
};
#define NVARS (sizeof our_vars / sizeof *our_vars)

/* environ without our variables, then the given ones (NULL: left out). */
static char **child_env(char *const set[NVARS])
{
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	if (!(env = calloc(n + NVARS + 1, sizeof *env)))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t v = 0;

		while (v < NVARS &&
		       strncmp(environ[i], our_vars[v], strlen(our_vars[v])))
			v++;
		if (v == NVARS)
			env[k++] = environ[i];
	}
	for (size_t v = 0; v < NVARS; v++)
		if (set[v])
			env[k++] = set[v];
	return env;
}

/*
 * Run the program to its end, measuring launch `launch` (NULL: the
 * injection's default, 0), its stdout and stderr on /dev/null when quiet:
 * 0 with its wait status in *st; or 126/127 after the message when it
 * could not be started; 2 on other failures.
 */
static int run_program(const options *o, const char *inject, const char *dir,
		       const char *launch, int quiet, int *st)
{
	struct sigaction ign, old_int, old_quit;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t def;
	char var[NVARS][4200], *set[NVARS], **env;
	pid_t pid;
	int rc;

	snprintf(var[0], sizeof var[0], "%s%s", our_vars[0], inject);
	snprintf(var[1], sizeof var[1], "%s%s", our_vars[1], dir);
	snprintf(var[2], sizeof var[2], "%s%s", our_vars[2],
		 launch ? launch : "");
	set[0] = var[0];
	set[1] = var[1];
	set[2] = launch ? var[2] : NULL;
	if (!(env = child_env(set)))
		return usage_error("profile: out of memory");
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	sigemptyset(&def);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGQUIT);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	posix_spawn_file_actions_init(&fa);
	if (quiet) {
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY,
						 0);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY,
						 0);
	}
	fflush(stdout);
	rc = posix_spawnp(&pid, o->prog[0], &fa, &attr, o->prog, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	free(env);
	if (!rc)
		while (waitpid(pid, st, 0) < 0 && errno == EINTR)
			;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (rc == ENOENT || rc == ENOTDIR) {
		usage_error("%s: not found", o->prog[0]);
		return 127;
	}
	if (rc) {
		usage_error("%s: cannot run: %s", o->prog[0], strerror(rc));
		return 126;
	}
	return 0;
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

static int by_value(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

/*
 * The launches still to measure, ascending, after the runs so far, into a
 * new array: every launch not measured (all), or the first launch of each
 * kernel none of whose launches was measured.  NULL when out of memory.
 */
static unsigned long *targets(const bs_sassprof *sp, int all, size_t *count)
{
	size_t nl = bs_sassprof_launch_count(sp), n = 0;
	const bs_sass_launch **l = malloc((nl ? nl : 1) * sizeof *l);
	unsigned long *t = malloc((nl ? nl : 1) * sizeof *t);

	if (!l || !t) {
		free(l);
		free(t);
		return NULL;
	}
	for (size_t i = 0; i < nl; i++)
		l[i] = bs_sassprof_launch_at(sp, i);
	if (!all)
		qsort(l, nl, sizeof *l, by_kernel_then_index);
	for (size_t i = 0, j; i < nl; i = j) {
		int measured = 0;

		for (j = i; j < nl && (all ? j == i
					   : l[j]->kernel == l[i]->kernel); j++)
			measured |= l[j]->measured;
		if (!measured)
			t[n++] = l[i]->index;
	}
	free(l);
	qsort(t, n, sizeof *t, by_value);
	*count = n;
	return t;
}

static int wait_code(int st)
{
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

/*
 * The runs after the first: one per launch targets() names, up to
 * --max-runs in all.  Warnings only; 0, or -1 when the records could not
 * be read (err).
 */
static int more_runs(const options *o, const char *inject, profile *p,
		     int code0, bs_error *err)
{
	unsigned long *t, left, differ = 0;
	size_t n;
	int st;

	if (load_tables(p, err) < 0)
		return -1;
	if (p->state != ST_OK)
		return 0;
	if (!(t = targets(p->sp, o->all_launches, &n)))
		return bs_error_set(err, p->dir, 0, 0, "out of memory");
	left = o->max_runs > 1 ? o->max_runs - 1 : 0;
	if (n > left)
		usage_error("%zu launch%s left unmeasured: --max-runs %lu "
			    "allows %lu more run%s", n - left,
			    n - left == 1 ? "" : "es", o->max_runs, left,
			    left == 1 ? "" : "s");
	for (size_t i = 0; i < n && i < left; i++) {
		char launch[32];

		snprintf(launch, sizeof launch, "%lu", t[i]);
		if (run_program(o, inject, p->dir, launch, 1, &st))
			break;
		differ += wait_code(st) != code0;
	}
	free(t);
	if (differ)
		usage_error("%lu later run%s of %s ended with another status "
			    "than the first", differ, differ == 1 ? "" : "s",
			    o->prog[0]);
	return 0;
}

/* The injection library, readable, as an absolute path. */
static int find_inject(const options *o, char *buf, size_t size)
{
	const char *given = o->inject ? o->inject : getenv("BANKSCOPE_INJECT");
	char self[4096], cwd[4096], *slash;
	ssize_t n;
	int dir, up;

	if (given && *given) {
		if (access(given, R_OK))
			return usage_error("profile: injection library %s: %s",
					   given, strerror(errno));
		if (given[0] != '/' && !getcwd(cwd, sizeof cwd))
			return usage_error("profile: cannot get the current "
					   "directory: %s", strerror(errno));
		if ((size_t)snprintf(buf, size, "%s%s%s",
				     given[0] == '/' ? "" : cwd,
				     given[0] == '/' ? "" : "/", given) >= size)
			return usage_error("profile: injection library path "
					   "too long");
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return usage_error("profile: cannot read /proc/self/exe: %s "
				   "(name the injection library with "
				   "--inject)", strerror(errno));
	self[n] = '\0';
	/* the build tree: beside the executable; make install's layout:
	 * PREFIX/bin/bankscope and PREFIX/lib/bankscope/ */
	slash = strrchr(self, '/');
	dir = slash ? (int)(slash - self) : 0;
	for (up = dir; up > 0 && self[up - 1] != '/'; up--)
		;
	snprintf(buf, size, "%.*s/" INJECT_NAME, dir, self);
	if (!access(buf, R_OK))
		return 0;
	snprintf(buf, size, "%.*slib/bankscope/" INJECT_NAME, up, self);
	if (up && !access(buf, R_OK))
		return 0;
	return usage_error("profile: " INJECT_NAME " is neither beside %s nor "
			   "in %.*slib/bankscope/ (make build/" INJECT_NAME
			   ", or name it with --inject)", self, up, self);
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

static int profile_run(const options *o)
{
	char inject[4096], tmpl[4096], *program;
	profile p;
	bs_error err;
	int st = 0, rc, code, empty;

	if (find_inject(o, inject, sizeof inject))
		return EXIT_BADINPUT;
	memset(&p, 0, sizeof p);
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
	if ((rc = run_program(o, inject, p.dir, NULL, 0, &st))) {
		if (!o->keep)
			remove_dir(p.dir);
		return rc;
	}
	code = wait_code(st);
	if (more_runs(o, inject, &p, code, &err) < 0 || load(&p, 1, &err) < 0) {
		report_error(&err);
		bs_sassprof_free(p.sp);
		if (!o->keep)
			remove_dir(p.dir);
		return EXIT_BADINPUT;
	}
	empty = p.state == ST_NONE || !p.tot.records;
	if (WIFSIGNALED(st))
		usage_error("%s was killed by signal %d (%s)%s", o->prog[0],
			    WTERMSIG(st), strsignal(WTERMSIG(st)),
			    empty ? "" : "; the profile covers what ran");
	else if (code)
		usage_error("%s exited with status %d%s", o->prog[0], code,
			    empty ? "" : "; the profile covers what ran");
	tell(&p, o->prog[0], inject);
	program = joined(o->prog, o->nprog);
	if (p.state != ST_NONE)
		show(&p, o->fmt, program);
	free(program);
	bs_sassprof_free(p.sp);
	if (!o->keep)
		remove_dir(p.dir);
	return code;
}

static int profile_replay(const options *o)
{
	profile p;
	bs_error err;
	join *j = NULL;
	int none;

	memset(&p, 0, sizeof p);
	p.dir = o->replay;
	if ((o->patterns && !(j = join_open(o->patterns, &err))) ||
	    load(&p, 0, &err) < 0) {
		report_error(&err);
		bs_sassprof_free(p.sp);
		join_free(j);
		return EXIT_BADINPUT;
	}
	p.join = j;
	none = tell(&p, o->replay, NULL);
	if (p.state != ST_NONE)
		show(&p, o->fmt, NULL);
	if (o->dataset && p.state != ST_NONE &&
	    join_write_dataset(j, p.sp, p.n, o->dataset, o->replay, &err) < 0) {
		report_error(&err);
		none = EXIT_BADINPUT;
	}
	bs_sassprof_free(p.sp);
	join_free(j);
	return none == EXIT_BADINPUT ? EXIT_BADINPUT : none ? 1 : 0;
}

int cmd_profile(int argc, char **argv)
{
	options o;
	const char *fmt = NULL, *which = NULL, *runs = NULL;
	uint64_t v;
	int i, rc;

	memset(&o, 0, sizeof o);
	o.max_runs = MAX_RUNS_DEFAULT;
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
		if ((rc = opt_value(argc, argv, &i, "--format", &fmt)) ||
		    (rc = opt_value(argc, argv, &i, "--keep", &o.keep)) ||
		    (rc = opt_value(argc, argv, &i, "--launches", &which)) ||
		    (rc = opt_value(argc, argv, &i, "--max-runs", &runs)) ||
		    (rc = opt_value(argc, argv, &i, "--inject", &o.inject)) ||
		    (rc = opt_value(argc, argv, &i, "--replay", &o.replay)) ||
		    (rc = opt_value(argc, argv, &i, "--patterns", &o.patterns)) ||
		    (rc = opt_value(argc, argv, &i, "--dataset", &o.dataset))) {
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
	if (runs) {
		if (opt_u64("--max-runs", runs, 1000000, &v))
			return EXIT_BADINPUT;
		if (!v)
			return usage_error("option --max-runs: 0 runs measure "
					   "nothing");
		o.max_runs = (unsigned long)v;
	}
	if (o.replay) {
		const char *with = o.keep ? "--keep" : o.inject ? "--inject"
				 : which ? "--launches" : runs ? "--max-runs"
				 : NULL;

		if (o.nprog)
			return usage_error("profile: --replay takes no "
					   "program");
		if (o.dataset && !o.patterns)
			return usage_error("profile: --dataset needs "
					   "--patterns");
		if (with)
			return usage_error("profile: --replay does not go "
					   "with %s", with);
		return profile_replay(&o);
	}
	if (o.patterns || o.dataset)
		return usage_error("profile: --patterns and --dataset go with "
				   "--replay");
	if (!o.nprog)
		return usage_error("profile: no program (bankscope profile "
				   "[OPTIONS] -- PROGRAM [ARGS])");
	return profile_run(&o);
}
