/*
 * profile.h - the private header of `bankscope profile`, whose files are
 * cli/profile/, one per job:
 *
 *   profile.c  the options and the command (usage, parsing, a replay)
 *   run.c      running the program: the runs' environments, spawning and
 *              waiting, the later runs of kernels CUPTI gave no records
 *              for, the explain run, --keep and the temporary directory
 *   load.c     a records directory through the library's reader
 *              (analyzer/sass/records.c), with the disassembler it hooks
 *              in (nvdisasm, cuobjdump), the messages about what it read,
 *              and the architecture of the predictions
 *   show.c     the report: the instructions shown, the text, CSV and JSON
 *              tables, and the messages about the records
 *   explain.c  --explain's text for one instruction
 *   remote.c   --explain's text, CSV and JSON for an instruction whose
 *              samples went to another CTA's shared memory (REMOTE)
 *
 * The analysis is the library's (analyzer/sass/: the join, the verdict);
 * these files run, read and print.  Here: the options, the profile a
 * records directory becomes, and what those files call across.
 */
#ifndef BANKSCOPE_CLI_PROFILE_H
#define BANKSCOPE_CLI_PROFILE_H

#include <regex.h>
#include <stdio.h>

#include "../cli.h"

extern char **environ;

#define INJECT_NAME "libbankscope_inject.so"
#define KERNEL_TEXT_MAX 48     /* kernel column width in the text table */

typedef enum { FMT_TEXT, FMT_CSV, FMT_JSON } format;

typedef struct {
	format fmt;
	const char *keep, *inject, *replay, *patterns, *dataset;
	const char *output;           /* -o FILE: the report there */
	const char *kernel, *sample;
	const char *targets;            /* --target-processes, or NULL */
	const bs_arch *arch;         /* --arch, or NULL */
	unsigned long skip, count;      /* count 0: every launch */
	unsigned long top;              /* 0: every instruction */
	unsigned long jobs, max_runs;
	int full_names, explain, verbose;
	int all_launches;               /* --launches all */
	regex_t re;                     /* --kernel, compiled */
	char **prog;
	int nprog;
} options;

typedef struct {
	const char *dir;
	const char *xdir;            /* explain.tsv's, NULL: dir */
	bs_records_status status;    /* status.txt */
	bs_sassprof *sp;
	size_t n;                    /* instructions kept */
	size_t *shown;               /* those the report shows, in order */
	size_t nshown, ncounted;     /* shown; of them, counted by CUPTI */
	size_t more;                 /* counted ones --top left out */
	bs_join *join;               /* --patterns, or NULL */
	const bs_arch *arch;         /* of the predictions
					(profile_choose_arch) */
	bs_explain *ex;              /* --explain, or NULL */
	bs_sassprof_totals tot;
	unsigned long no_disasm;     /* cubins not disassembled */
	unsigned long no_cubin;      /* of those, cubins not saved */
	unsigned long runs;          /* program runs made (0: a replay) */
	unsigned long jobs;
	char gpu[256];               /* device.txt: its name, or "" */
	char cc[16];                 /* its compute capability, or "" */
	long pid, ppid;              /* process.txt: 0 when absent */
	char command[1024];          /* its command line */
	int no_model;                /* no architecture for it */
} profile;

static inline void path_join(char *buf, size_t size, const char *dir,
			     const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

/* run.c: run the program (o->prog) and show its profile; the exit status
 * profile.c's head describes. */
int profile_run(const options *o);
/* run.c: a report for each of the np processes whose directories pd
 * holds (profile_process_dirs), top being the run's (runs 0: a replay);
 * the worst exit status, code at least. */
int report_processes(const options *o, const profile *top, char **pd,
		     long np, const char *inject, int code);

/* load.c: everything in p->dir, disassembled where possible (into p->dir
 * when save, else into temporary files), finished; 0, or -1 (err). */
int profile_load(profile *p, int save, bs_error *err);
/* load.c: status.txt, records.tsv and launches.tsv of p->dir into a new
 * p->sp (bs_records_read_status, _tables); 0, or -1 (err). */
int profile_load_tables(profile *p, bs_error *err);
/* load.c: explain.tsv and its status, when --explain: 0, -1 bad input
 * (err). */
int profile_load_explain(profile *p, bs_error *err);
/* load.c: the architecture of the predictions, p->arch: --arch, the
 * recorded GPU's, or sm_90. */
int profile_choose_arch(profile *p, const options *o, bs_error *err);

/* load.c: process.txt of p->dir into p->pid, ppid and command (left 0
 * and "" without one); 0, or -1 (err). */
int profile_read_process(profile *p, bs_error *err);
/* load.c: the directories of the processes under dir: dir itself when
 * it holds status.txt, then its process-PID folders by pid (the later
 * processes of a program, profiler/common.h), as new strings in *out;
 * their number, or -1 (out of memory). */
long profile_process_dirs(const char *dir, const char *claim,
			  const char *prefix, char ***out);
/* load.c: of the explain directories xd[0..nx), the one whose explain.tsv
 * names most of the kernels in dir's launches.tsv (the explain run's
 * process that ran what this one ran), not one already taken; -1 when
 * none names any. */
long profile_pair_explain(const char *dir, char **xd, long nx, const int *taken);

/* load.c: the kernels launches.tsv of dir marks measured (a launch whose
 * mark is not "-"), sorted, distinct, as new strings in *out; their
 * number (0 on any failure). */
size_t profile_measured_kernels(const char *dir, char ***out);
/* load.c: has the explain run collected a sampled launch of each of the
 * n sorted names (its explain-status.txt lines)?  1 or 0. */
int profile_explain_has(const char *dir, char **names, size_t n);

/* show.c: the instructions the report shows; 0, or -1 (err). */
int profile_select_shown(profile *p, const options *o, bs_error *err);
/* show.c: the messages about the records; 1 when there is no profile to
 * show. */
int profile_tell(const profile *p, const char *who, const char *inject);
/* show.c: the report in o->fmt on stdout. */
/* The report, to stdout or -o's file (written whole, then renamed into
 * place): 0, or -1 after saying why. */
int profile_show(const profile *p, const options *o, const char *program);

/* explain.c: one instruction's --explain text, from bs_explain_judge's
 * result and worst sample. */
void explain_text(FILE *out, const bs_verdict_result *r,
		  const bs_verdict_worst *w);
/* explain.c: the verdict's line ("AGREES: 2 wavefronts per ..."). */
void explain_verdict_text(const bs_verdict_result *r, char *buf, size_t size);
/* explain.c: the damaged samples' line (none without any), and the
 * worst sample's line with its bank map; remote.c's text uses them too. */
void explain_damaged_text(FILE *out, const bs_verdict_result *r);
void explain_worst_text(FILE *out, const bs_verdict_result *r,
			const bs_verdict_worst *w);
/* explain.c: "1 in 12, 2 in 40, 4 in 12": a distribution, how often. */
void verdict_hist_text(const bs_verdict_hist *h, char *buf, size_t size);
/* remote.c: a REMOTE instruction's text, verdict line, self line, CSV
 * sector columns (empty ones for another verdict) and JSON keys. */
void explain_remote_text(FILE *out, const bs_verdict_result *r,
			 const bs_verdict_worst *w);
void explain_remote_verdict(const bs_verdict_result *r, char *buf, size_t size);
void explain_self_text(const bs_verdict_result *r, char *buf, size_t size);
void explain_remote_csv(FILE *out, const bs_verdict_result *r);
void explain_remote_json(FILE *out, const bs_verdict_result *r);

#endif
