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
 * predictions use the architecture of the GPU that ran the
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
 * regular file (bs_records_open); status.txt is read in one bounded read; a
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
 * nothing launched), 2 bad input, a directory without status.txt among
 * it (a run writes one as CUDA starts, so a directory without it is none
 * a run kept, or one of a program that never started CUDA: nothing to
 * replay either way).
 *
 * This file: the usage, the options and the command, and a replay; the
 * other jobs are in run.c, load.c and show.c beside it (profile.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile.h"

#define MAX_RUNS_DEFAULT 64
#define JOBS_MAX 64

static const char profile_usage[] =
	"usage: bankscope profile [--format text|csv|json] [--kernel REGEX]\n"
	"                         [--launch-skip N] [--launch-count N]\n"
	"                         [--launches first|all]\n"
	"                         [--top N] [--full-names] [--verbose]\n"
	"                         [--explain [--sample BxWxE]] [--keep DIR]\n"
	"                         [-o FILE] [--target-processes all|application-only]\n"
	"                         [--jobs N] [--max-runs N] [--inject PATH]\n"
	"                         [--arch NAME|FILE] -- PROGRAM [ARGS]\n"
	"       bankscope profile [--format FMT] [--kernel REGEX] [--top N]\n"
	"                         [--full-names] [--explain] [--arch NAME|FILE]\n"
	"                         [-o FILE] --replay DIR\n"
	"                         [--patterns FILE [--dataset OUT.csv]]\n"
	"\n"
	"Run a CUDA program unchanged and report its shared-memory\n"
	"instructions (LDS, STS, LDSM, STSM, ATOMS and any other that moved\n"
	"shared-memory wavefronts or reached another CTA's shared memory in\n"
	"a cluster), per kernel and SASS instruction, worst first: pc, SASS,\n"
	"source line (programs built with -lineinfo), executions (warp\n"
	"instructions), dshared (those that went to another CTA, when any\n"
	"did), wavefronts, ideal wavefronts and their excess (wavefronts -\n"
	"ideal), summed over the measured launches.  Counts come from\n"
	"CUPTI's SASS metrics through an injection library, every kernel in\n"
	"one run of the program; a kernel CUPTI gave no records for gets a\n"
	"run of its own (output discarded, --jobs runs at a time), and a\n"
	"message names it.  Predictions use the architecture of the GPU\n"
	"that ran it.\n"
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
	"                     executions of each instruction by such a warp;\n"
	"                     and of every instruction, its first E\n"
	"                     executions by any other warp, then its\n"
	"                     executions 2^k and 3*2^k (default 2x8x4)\n"
	"  --keep DIR         collect into DIR (new or empty) and keep it\n"
	"  -o, --output FILE  write the report to FILE (whole, then put in\n"
	"                     its place), so the program's own output stays\n"
	"                     on stdout, apart from it\n"	"  --target-processes WHICH  all (default): every process of the\n"
	"                     program that uses the GPU, each profiled and\n"
	"                     reported on its own (pid, command line, GPU);\n"
	"                     application-only: the process started alone.\n"
	"                     With several processes, -o FILE names one file\n"
	"                     per process: %p in FILE is the pid, else\n"
	"                     FILE-PID.EXT\n"
	"  --jobs N           runs at a time after the first (default: the\n"
	"                     processors, at most 16)\n"
	"  --arch NAME|FILE   the architecture of the predictions\n"
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
	"                     a dataset for bankscope check (a new file: a\n"
	"                     path that is there, even a link to nothing,\n"
	"                     is refused)\n"
	"\n"
	"Exit status: the program's own in its first run (128+N when signal N\n"
	"killed it), 1 when it launched no kernel, 127 when it is not found,\n"
	"126 when it cannot be run, 2 bad usage.  With --replay: 0 a profile\n"
	"was shown, 1 none was collected, 2 bad input (a directory without\n"
	"status.txt among it).\n";

/*
 * --dataset: a new file, never one that is there: a file, a directory, or
 * a symbolic link, also one whose target is not there (a dangling link
 * would not be written through: link(2) does not follow it, and the
 * dataset went to NAME-2.csv beside it, which no one asked for).  Both
 * the path as given and the file written (the path with .csv added when
 * it lacks it) are checked.  Refused before anything is read or written.
 */
static int dataset_target(const char *path)
{
	size_t n = strlen(path);
	char csv[4096];
	struct stat st;

	if (!*path)
		return usage_error("option --dataset: an empty path");
	if (path[n - 1] == '/')
		return usage_error("option --dataset: %s names a directory",
				   path);
	snprintf(csv, sizeof csv, "%s%s", path, n > 4 &&
		 !strcmp(path + n - 4, ".csv") ? "" : ".csv");
	for (int k = 0; k < 2; k++) {
		const char *p = k ? csv : path;

		if (lstat(p, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode) && stat(p, &st) < 0)
			return usage_error("option --dataset: %s is a symbolic "
					   "link to nothing (a dangling link); "
					   "not written through: name a new "
					   "file, or the link's target", p);
		return usage_error("option --dataset: %s %s; not overwritten",
				   p, S_ISDIR(st.st_mode) ? "is a directory"
							  : "exists");
	}
	return 0;
}

/* A replay's directory without status.txt: not a records directory. */
static int no_status(const char *dir, bs_error *err)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/status.txt", dir);
	return bs_error_set(err, path, 0, 0, "missing: not a records "
			    "directory a run kept (the injection library "
			    "writes status.txt as the program starts CUDA; a "
			    "program that never did leaves nothing to "
			    "replay)");
}

static int profile_replay(const options *o)
{
	char final[4096];
	struct stat st;
	profile p;
	bs_error err;
	bs_join *j = NULL;
	int none;

	char **pd;
	long np;

	memset(&p, 0, sizeof p);
	p.arch = bs_arch_default();
	p.dir = o->replay;
	p.jobs = o->jobs;
	if (stat(o->replay, &st) < 0)
		return usage_error("%s: cannot open: %s", o->replay,
				   strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return usage_error("%s: not a directory", o->replay);
	/* several processes (process-PID folders): a report for each */
	if ((np = profile_process_dirs(o->replay, "status.txt", "process",
				       &pd)) > 1 ||
	    (np == 1 && strcmp(pd[0], o->replay))) {
		int rc;

		if (o->patterns || o->dataset || o->skip || o->count)
			rc = usage_error("profile: --replay of %s, which holds "
					 "%ld processes: --patterns, "
					 "--dataset, --launch-skip and "
					 "--launch-count take one", o->replay,
					 np);
		else
			rc = report_processes(o, &p, pd, np, NULL, 0);
		for (long i = 0; i < np; i++)
			free(pd[i]);
		free(pd);
		return rc;
	}
	for (long i = 0; i < np; i++)
		free(pd[i]);
	free(pd);
	if ((o->dataset && dataset_target(o->dataset)) )
		return EXIT_BADINPUT;
	if ((o->patterns && !(j = bs_join_open(o->patterns, &err))) ||
	    profile_load(&p, 0, &err) < 0 ||
	    (p.status.state == BS_RECORDS_NONE &&
	     no_status(o->replay, &err) < 0) ||
	    profile_choose_arch(&p, o, &err) < 0 ||
	    (o->explain && p.status.state != BS_RECORDS_NONE && !p.no_model &&
	     profile_load_explain(&p, &err) < 0) ||
	    profile_select_shown(&p, o, &err) < 0) {
		report_error(&err);
		bs_sassprof_free(p.sp);
		bs_explain_free(p.ex);
		free(p.shown);
		bs_join_free(j);
		return EXIT_BADINPUT;
	}
	if (p.no_model) {
		bs_join_free(j);
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
		bs_join_free(j);
		return EXIT_BADINPUT;
	}
	p.join = j;
	none = profile_tell(&p, o->replay, NULL);
	/*
	 * The dataset first, the report after: a dataset that cannot be
	 * written leaves -o FILE as it was, and a report that cannot be
	 * written takes the new dataset back (a new file: no one else's).
	 */
	final[0] = '\0';
	if (o->dataset && p.status.state != BS_RECORDS_NONE && j &&
	    bs_join_write_dataset(j, p.arch, p.sp, p.n, o->dataset, o->replay,
				  final, sizeof final, &err) < 0) {
		report_error(&err);
		none = EXIT_BADINPUT;
	} else if (p.status.state != BS_RECORDS_NONE &&
		   profile_show(&p, o, NULL) < 0) {
		none = EXIT_BADINPUT;
		if (final[0])
			unlink(final);
	} else if (final[0]) {
		fprintf(stderr, "bankscope: dataset written to %s\n", final);
	}
	bs_sassprof_free(p.sp);
	bs_explain_free(p.ex);
	free(p.shown);
	bs_join_free(j);
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

/* The values of options given as text, before they are checked. */
typedef struct {
	const char *fmt, *runs, *jobs, *skip, *count, *top, *which, *arch;
} option_text;

#define GO_ON (-1)   /* not an exit status: the command goes on */

/* The options into o and t, up to the program (o->prog); GO_ON, or the
 * exit status (0 after --help). */
static int read_options(int argc, char **argv, options *o, option_text *t)
{
	int i, rc;

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
			o->full_names = 1;
			continue;
		}
		if (!strcmp(a, "--explain")) {
			o->explain = 1;
			continue;
		}
		if (!strcmp(a, "--verbose")) {
			o->verbose = 1;
			continue;
		}
		if ((rc = opt_value(argc, argv, &i, "--format", &t->fmt)) ||
		    (rc = opt_value(argc, argv, &i, "--keep", &o->keep)) ||
		    (rc = opt_value(argc, argv, &i, "-o", &o->output)) ||
		    (rc = opt_value(argc, argv, &i, "--output", &o->output)) ||
		    (rc = opt_value(argc, argv, &i, "--kernel", &o->kernel)) ||
		    (rc = opt_value(argc, argv, &i, "-k", &o->kernel)) ||
		    (rc = opt_value(argc, argv, &i, "--launch-skip",
				    &t->skip)) ||
		    (rc = opt_value(argc, argv, &i, "-s", &t->skip)) ||
		    (rc = opt_value(argc, argv, &i, "--launch-count",
				    &t->count)) ||
		    (rc = opt_value(argc, argv, &i, "-c", &t->count)) ||
		    (rc = opt_value(argc, argv, &i, "--top", &t->top)) ||
		    (rc = opt_value(argc, argv, &i, "--launches",
				    &t->which)) ||
		    (rc = opt_value(argc, argv, &i, "--sample", &o->sample)) ||
		    (rc = opt_value(argc, argv, &i, "--jobs", &t->jobs)) ||
		    (rc = opt_value(argc, argv, &i, "--max-runs", &t->runs)) ||
		    (rc = opt_value(argc, argv, &i, "--inject", &o->inject)) ||
		    (rc = opt_value(argc, argv, &i, "--replay", &o->replay)) ||
		    (rc = opt_value(argc, argv, &i, "--patterns",
				    &o->patterns)) ||
		    (rc = opt_value(argc, argv, &i, "--dataset",
				    &o->dataset)) ||
		    (rc = opt_value(argc, argv, &i, "--target-processes",
				    &o->targets)) ||
		    (rc = opt_value(argc, argv, &i, "--arch", &t->arch))) {
			if (rc < 0)
				return EXIT_BADINPUT;
			continue;
		}
		if (a[0] == '-')
			return usage_error("profile: unknown option '%s' (try "
					   "bankscope profile --help)", a);
		break;
	}
	o->prog = argv + i;
	o->nprog = argc - i;
	return GO_ON;
}

/*
 * -o FILE, before the program runs: a folder, a path whose folder is not
 * there or cannot be written, or an empty name is refused now, not after
 * the run.  1 after saying why, else 0.
 */
static int output_check(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!*path)
		return usage_error("option -o: an empty file name") != 0;
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return usage_error("option -o: %s is a folder", path) != 0;
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", slash == path ? 1
			 : (int)(slash - path), path);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return usage_error("option -o: %s: no folder %s", path,
				   dir) != 0;
	if (access(dir, W_OK))
		return usage_error("option -o: %s: the folder %s cannot be "
				   "written", path, dir) != 0;
	return 0;
}

/* The values of t checked and into o; GO_ON, or the exit status. */
static int check_values(options *o, const option_text *t)
{
	unsigned b, w, e;
	char tail;

	if (!t->fmt || !strcmp(t->fmt, "text"))
		o->fmt = FMT_TEXT;
	else if (!strcmp(t->fmt, "csv"))
		o->fmt = FMT_CSV;
	else if (!strcmp(t->fmt, "json"))
		o->fmt = FMT_JSON;
	else
		return usage_error("option --format: '%s' is not text, csv or "
				   "json", t->fmt);
	if (t->which && strcmp(t->which, "first") && strcmp(t->which, "all"))
		return usage_error("option --launches: '%s' is not first or "
				   "all", t->which);
	o->all_launches = t->which && !strcmp(t->which, "all");
	if (o->targets && strcmp(o->targets, "all") &&
	    strcmp(o->targets, "application-only"))
		return usage_error("option --target-processes: '%s' is not all "
				   "or application-only", o->targets);
	if (t->runs && !strcmp(t->runs, "0"))
		return usage_error("option --max-runs: 0 runs measure "
				   "nothing");
	if (parse_count("--max-runs", t->runs, 1000000, 0, &o->max_runs) ||
	    parse_count("--jobs", t->jobs, JOBS_MAX, 0, &o->jobs) ||
	    parse_count("--launch-skip", t->skip, UINT32_MAX, 1, &o->skip) ||
	    parse_count("--launch-count", t->count, UINT32_MAX, 0,
			&o->count) ||
	    parse_count("--top", t->top, UINT32_MAX, 0, &o->top))
		return EXIT_BADINPUT;
	if (o->sample &&
	    (sscanf(o->sample, "%ux%ux%u%c", &b, &w, &e, &tail) != 3 ||
	     !b || !w || !e || w > 32 || e > 1024 ||
	     strspn(o->sample, "0123456789x") != strlen(o->sample)))
		return usage_error("option --sample: '%s' is not BLOCKSxWARPSx"
				   "EXECS (each at least 1, at most 32 warps, "
				   "1024 executions)", o->sample);
	if (o->sample && !o->explain)
		return usage_error("profile: --sample goes with --explain");
	if (t->arch && arch_option(t->arch, &o->arch))
		return EXIT_BADINPUT;
	if (o->output && output_check(o->output))
		return EXIT_BADINPUT;
	return GO_ON;
}

/* --kernel compiled into o->re; GO_ON, or the exit status. */
static int compile_kernel(options *o)
{
	char why[256];
	int e;

	if (!o->kernel ||
	    !(e = regcomp(&o->re, o->kernel, REG_EXTENDED | REG_NOSUB)))
		return GO_ON;
	regerror(e, &o->re, why, sizeof why);
	return usage_error("option --kernel: '%s' is not a regular "
			   "expression: %s", o->kernel, why);
}

/* Replay a records directory, or run the program; the exit status. */
static int replay_or_run(const options *o, const option_text *t)
{
	const char *with = o->keep ? "--keep" : o->inject ? "--inject"
			 : t->runs ? "--max-runs" : t->jobs ? "--jobs"
			 : t->which ? "--launches"
			 : o->sample ? "--sample" : NULL;

	if (o->replay)
		return o->nprog ? usage_error("profile: --replay takes no "
					      "program")
		       : o->dataset && !o->patterns
			? usage_error("profile: --dataset needs --patterns")
		       : with ? usage_error("profile: --replay does not go "
					    "with %s", with)
			      : profile_replay(o);
	if (o->patterns || o->dataset)
		return usage_error("profile: --patterns and --dataset go with "
				   "--replay");
	if (!o->nprog)
		return usage_error("profile: no program (bankscope profile "
				   "[OPTIONS] -- PROGRAM [ARGS])");
	return profile_run(o);
}

int cmd_profile(int argc, char **argv)
{
	options o;
	option_text t;
	int rc;

	memset(&o, 0, sizeof o);
	memset(&t, 0, sizeof t);
	o.max_runs = MAX_RUNS_DEFAULT;
	o.jobs = default_jobs();
	if ((rc = read_options(argc, argv, &o, &t)) != GO_ON ||
	    (rc = check_values(&o, &t)) != GO_ON ||
	    (rc = compile_kernel(&o)) != GO_ON)
		return rc;
	rc = replay_or_run(&o, &t);
	if (o.kernel)
		regfree(&o.re);
	return rc;
}
