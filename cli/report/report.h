/*
 * report.h - what the files of `bankscope report` share (cli/report/).
 *
 *   report.c      the command: its options, the report, its usage
 *   rows.c        what the report keeps of the dataset, read once
 *   tally.c       distinct values with their counts: exact medians
 *   plotdata.c    --plot-data: the rows for the kind charts
 *   emit.c        HTML and Markdown written at once
 *   rules.c       the measured rules and the rows they are read off
 *   timing.c      latency, store interval and throughput of ld and st
 *   kinds.c       the groups of kinds and their sections
 *   agreement.c   predicted against measured
 *   charts.c      the table of charts and the page's charts
 *   chartfiles.c  the drawn charts copied into the report
 *   page.c        the page: its head, the metadata, the sections in order
 *   outdir.c      the output folder, replaced whole, and the signals
 *   compare.c     two or more datasets side by side
 *   dsmem.c       distributed shared memory: its section and chart data
 */
#ifndef BANKSCOPE_CLI_REPORT_H
#define BANKSCOPE_CLI_REPORT_H

#include <signal.h>
#include <stdio.h>

#include "../cli.h"

#define PATH_BYTES 4096
#define MAX_LISTED 1000         /* disagreeing rows listed on the page */

/* ---- kinds.c: the groups of kinds ------------------------------------------
 * Kinds in groups.  A kind's group is the SASS opcode of its row in the
 * kinds table (analyzer/model/kinds.c, modifiers left out): a group names
 * a kind or two and takes every kind of their opcodes, so that the table
 * stays the one list of opcodes.  ld and st (LDS, STS) are the loads and
 * stores the rules, latency, store and throughput sections read; ldsm and
 * stsm (LDSM, STSM) the matrix loads and stores; the atomics (ATOMS) the
 * shared atomics; cp.async (LDGSTS) its own.  Each group but the first
 * has a section of its own and a chart (kinds.gp); a kind of an opcode no
 * group names goes to the last, so a new row of the table is reported
 * before anyone writes a section for it.  Within a group, a store is a
 * kind that writes (bs_direction), and cycles are a latency for a kind
 * that returns a value, else an interval.
 */
enum { G_LDST, G_MATRIX, G_ATOMICS, G_CPASYNC, G_DSMEM, G_OTHER, NGROUPS };

typedef struct {
	const char *id;          /* in the plot data and the chart's name */
	const char *kind[2];     /* kinds whose SASS opcodes make the group */
	const char *title;       /* its section's heading */
	const char *rows;        /* "ldmatrix or stmatrix rows" */
	const char *model;       /* the section of docs/model.md */
	const char *intro;
} kind_group_info;

extern const kind_group_info kind_groups[NGROUPS];
int kind_group(bs_kind k);
int kind_is_store(bs_kind k);
int kind_returns(bs_kind k);

/* ---- rows.c: what the report keeps of the dataset ------------------------ */

typedef struct {
	bs_row r;
	long line;
	bs_summary s;   /* predicted now under the file's architecture */
} item;

/*
 * The rows the rules and the throughput table read by name: the first row
 * of that name in the preferred probe, else the first of any probe.
 */
#define NWANT_MAX 128
typedef struct {
	char name[BS_NAME_MAX];
	const char *probe;
	int have_probe, have_any;
	item probe_row, any_row;
} wanted;

/* Distinct values with their counts, hashed: an exact median in memory
 * that grows with the distinct values, not with the rows.  A named tally
 * keeps, for each value, the first row that had it. */
typedef struct {
	double *v;
	size_t *count;          /* 0: an empty slot */
	size_t used, cap, total;
	int named;
	char (*name)[BS_NAME_MAX];
	long *line;
} tally;

/* One disagreeing row, as listed. */
typedef struct {
	long line;
	char name[BS_NAME_MAX];
	char probe[32];
	unsigned width;
	const char *op;
	double wf_measured, conflicts_measured;
	unsigned wf_predicted, conflicts_predicted;
	char *why;
} listed;

typedef struct {
	size_t n;                       /* rows with a throughput, no note */
	char top_name[BS_NAME_MAX];
	double top;
	tally wf;                       /* tp_wavefronts_per_clk_per_sm */
} tp_group;

/* The smallest and largest of the values seen (n of them). */
typedef struct {
	size_t n;
	double lo, hi;
} range;

/* What the kind sections show of one (kind, width). */
typedef struct {
	unsigned long rows, measured, agree, disagree, not_modeled;
	range wf, bc, cycles, tp;       /* measured, rows without a note */
	tally free_tp;                  /* tp of the conflict-free rows */
} kind_stats;

/*
 * dsmem.c: what the Distributed shared memory section shows of the remote
 * (dsmem.*) rows, per kind, as check judges them: agreeing on sectors, on
 * dshared wavefronts, on both (check's verdict, a stale prediction
 * included); and the telling accesses, the remote and the local row of
 * each of a few names (remote: the remote kind; local: the same name,
 * a bank kind, no note, so not bankscope-dsmem's self control).
 */
#define DSMEM_TELLING 4
typedef struct {
	unsigned long rows, measured, not_modeled;
	unsigned long sectors_agree, wf_agree, agree, disagree;
	unsigned widths;                /* bit w: rows of width index w */
} remote_stats;

typedef struct {
	int have_remote, have_local;
	item remote, local;
} telling_row;

typedef struct {
	const char *name;               /* the dataset the rows come from */
	char gpu[128];
	unsigned long rows;             /* remote rows */
	remote_stats ks[BS_MAX_KINDS];
	telling_row tell[DSMEM_TELLING];
} dsmem_data;

typedef struct {
	const char *name;
	const bs_arch *p;
	bs_meta meta[BS_META_MAX];
	int nmeta;
	size_t n;                       /* rows */
	unsigned long with_counters, measured, agree, skipped, timing;
	wanted want[NWANT_MAX];
	int nwant;
	latency_fits fits;
	long worst_line;
	char worst_name[BS_NAME_MAX];
	tp_group tp[BS_NWIDTHS][BS_MAX_KINDS];
	kind_stats ks[BS_MAX_KINDS][BS_NWIDTHS];
	unsigned groups_seen;           /* bit g: rows of kind_groups[g] */
	FILE *plot;                     /* --plot-data, or NULL */
	int plot_dsmem;                 /* plot: --dsmem-plot-data's rows */
	dsmem_data ds;                  /* the DSMEM section's rows */
	int ds_elsewhere;               /* 1: from --dsmem, not this dataset */
	listed *list;
	size_t nlisted;
	unsigned long not_modeled;      /* rows of kinds without a rule */
	uint32_t not_modeled_kinds;     /* bit k: kind k had such rows */
} data;

/* The value of metadata key key, or NULL. */
const char *data_meta(const data *D, const char *key);
/* Keep the row named name of probe `probe` (rules.c asks for them). */
void data_want(data *D, const char *probe, const char *name);
/* The row named name, of probe `probe` if there is one, else of any. */
const item *data_find(const data *D, const char *probe, const char *name);
/* Stream the dataset d into D, under arch or the file's architecture;
 * EXIT_BADINPUT after a message. */
int data_read(data *D, bs_dataset *d, const char *name, const bs_arch *arch);
void data_free(data *D);

/* tally.c: add v (of row name at line: a named tally keeps the first);
 * the median, and the slots of the values it comes from; -1 out of
 * memory, or no value for a median. */
int tally_add_row(tally *t, double v, const char *name, long line);
int tally_add(tally *t, double v);
int tally_middle(const tally *t, double *median, size_t *lo_slot,
		 size_t *hi_slot);
int tally_median(const tally *t, double *median);
void tally_free(tally *t);

/* ---- emit.c: HTML and Markdown at once ----------------------------------- */

typedef struct {
	FILE *h, *m;
	int cell;       /* inside a table cell */
} doc;

void doc_html(FILE *f, const char *s);     /* escaped for HTML */
void doc_md(FILE *f, const char *s);       /* escaped for Markdown */
void doc_raw(doc *d, const char *html, const char *md);
void doc_text(doc *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void doc_code(doc *d, const char *s);
void doc_heading(doc *d, int level, const char *s);
void doc_para_begin(doc *d);
void doc_para_end(doc *d);
void doc_table_begin(doc *d, int ncols, const char *const *head);
void doc_row_begin(doc *d);
void doc_cell_begin(doc *d);
void doc_cell_end(doc *d);
void doc_row_end(doc *d);
void doc_cell(doc *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void doc_code_cell(doc *d, const char *s);
void doc_table_end(doc *d);

/* ---- the sections of the page, in order ------------------------------------
 * Those that return an int return 0, or EXIT_BADINPUT after a message. */
void page_rules(doc *d, const data *D);          /* rules.c */
void rules_want(data *D);                        /* the rows they read */
void page_latency(doc *d, const data *D);        /* timing.c */
/* timing.c: a fit's slope, intercept and r2 cells, "-" without a line. */
void fit_cells(doc *d, const fit_series *s);
int page_throughput(doc *d, const data *D);
int page_kinds(doc *d, const data *D);           /* kinds.c */
/* kinds.c: "Source TAG: text." for each source of p in bits used. */
void write_sources(doc *d, const bs_arch *p, unsigned used);
void page_dsmem(doc *d, const data *D);          /* dsmem.c */
void page_agreement(doc *d, const data *D);      /* agreement.c */
/* agreement.c: why a measured row disagrees, in buf; 0 when it agrees. */
int row_disagreement(const item *it, char *buf, size_t size);

/* ---- charts.c and chartfiles.c ------------------------------------------- */

typedef struct {
	const char *name, *title, *what;
} report_chart;

/* The charts, in the page's order; charts.c checks NCHARTS. */
#define NCHARTS 11
extern const report_chart report_charts[];

typedef struct {
	const char *dir;                /* --charts, or NULL */
	unsigned have, svg;             /* bit i: report_charts[i] copied */
	char *reason[NCHARTS];          /* from not-drawn.txt, or NULL */
} chart_set;

void page_charts(doc *d, const chart_set *cs);
/* --list-charts: the charts' names, a line each. */
void charts_list(FILE *out);

/* ---- outdir.c: the output folder ----------------------------------------- */

typedef struct {
	char path[PATH_BYTES];          /* OUT, trailing slashes dropped */
	char parent[PATH_BYTES];
	char tmp[PATH_BYTES];           /* the new report while built */
	int fd;                         /* tmp, open; -1 when none */
} outdir;

/* Each returns 0, or EXIT_BADINPUT after a message (out_create NULL). */
int out_begin(outdir *o, const char *out);
void out_abort(outdir *o);
FILE *out_create(outdir *o, const char *name);
int out_close(outdir *o, FILE *f, const char *name);
int out_commit(outdir *o);

/* SIGINT, SIGTERM and SIGHUP remove what is armed, then end the program. */
void signals_catch(void);
void signals_block(sigset_t *old);
/* With the signals blocked: a signal removes the file at path / nothing. */
void signals_arm_file(const char *path);
void signals_disarm(void);

/* chartfiles.c: cs->dir's charts into o, and why the others are not. */
int charts_gather(outdir *o, chart_set *cs);

/* page.c: index.html and report.md into o. */
int page_write(outdir *o, const data *D, const char *note,
	       const chart_set *cs);

/*
 * compare.c: bankscope report with two or more datasets, first and the
 * nmore of more, side by side in Markdown on stdout; options: whether
 * one of report's one-dataset options was given (refused).
 */
int report_several(const char *first, int nmore, char **more, int options,
		   const bs_arch *arch);

/* plotdata.c */
void plot_begin(data *D);
void plot_row(data *D, const item *it, int modeled);
void plot_num(FILE *f, double v);       /* ",v", "," for NaN */
/* --plot-data PATH (dsmem 0) or --dsmem-plot-data PATH (1); EXIT_BADINPUT
 * after a message. */
int plot_data(FILE *f, const char *name, const char *path,
	      const bs_arch *arch, int dsmem);

/* dsmem.c */
/* One row of the dataset into D->ds (its prediction in it->s when
 * modeled). */
void dsmem_take(data *D, const item *it, int modeled);
/* --dsmem FILE: its rows into D->ds, under D's architecture. */
int dsmem_read(data *D, const char *path);
/* --dsmem-plot-data: the header, and one line for a remote row or a
 * local row of probe dsmem without a note. */
void dsmem_plot_begin(data *D);
void dsmem_plot_row(data *D, const item *it, int modeled);

#endif
