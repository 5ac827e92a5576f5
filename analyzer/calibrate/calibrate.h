/*
 * calibrate.h - what the files of calibrate share (internal: the
 * library's users see bs_calibrate.h, which says what is searched and in
 * which order).
 *
 * The rows are aggregated as they come into distinct accesses (a hash
 * table keyed by the access and its counters), grouped by (kind, width);
 * a candidate rule is judged by predicting every distinct access of its
 * group under a one-rule architecture.  Whether another explaining candidate
 * would predict a probe family's point differently is asked of the points
 * of every family with the group's kind and width.
 *
 *   intake.c     rows in: the distinct accesses, their medians, the noise
 *   search.c     the candidate rules, judging them on a group, the search
 *   remote.c     the same for a remote kind's group: its sectors rule
 *   fit.c        the chosen rule's latency line and throughput
 *   findings.c   what the result names: the misses and the open rules
 *   calibrate.c  bs_calib_run: from the groups to an architecture read back
 */
#ifndef BS_CALIBRATE_INTERNAL_H
#define BS_CALIBRATE_INTERNAL_H

#include "bs_calibrate.h"

/* Cycles and throughputs kept of an access's rows: their median is its. */
#define KEEP 15
/* 0.01-cycle bins of the timing noise; the last holds the rest. */
#define SPREAD_BINS 4096

/*
 * One distinct access: its addresses and measured counters (a remote
 * kind's: dshared wavefronts and sectors, no conflicts), the rows of it
 * that were read, the first of them (file, line) to name it.
 */
typedef struct {
	bs_access a;
	double wf, bc, sec;
	double cycles, tp;       /* medians of the kept values, by the run */
	double cyc[KEEP], tpv[KEEP];
	long cyc_line[KEEP];     /* the row of each cycles value kept */
	unsigned cyc_file[KEEP];
	unsigned ncyc, ntp;
	size_t count;            /* rows read of this access */
	size_t next;             /* the hash chain: index + 1, 0 ends it */
	unsigned file;           /* index into files */
	long line;
	int named;               /* in the result already */
	/*
	 * Its counters miss the x of the latency line (a bank rule's
	 * wavefronts or conflicts, a remote rule's sectors): its group's
	 * residuals say nothing of the noise.
	 */
	int off_x;
} mrow;

/* The timing noise of bank kinds (0) and of remote ones (1), apart: the
 * SM-to-SM network is noisier than the banks. */
enum { NOISE_BANK, NOISE_REMOTE, NOISE_CLASSES };

struct bs_calib {
	mrow *row;               /* the distinct accesses */
	size_t n, cap, rows, skipped, remote_rows;
	size_t noted;            /* of skipped: rows with a note */
	char first_note[96];     /* the first of those notes */
	size_t *bucket, nbucket;
	size_t spread[NOISE_CLASSES][SPREAD_BINS], nspread[NOISE_CLASSES];
	int final;
	char **files;
	unsigned nfiles;
	char gpu[128];
	char cc[16];
	bs_calib_progress_fn progress;
	void *progress_ctx;
};

typedef struct {
	unsigned banks, bank_bytes;
} geometry;

/* The bank geometries, in the order they are preferred when the rows
 * cannot tell. */
#define CALIB_NGEOM 5
extern const geometry calib_geometries[CALIB_NGEOM];

/* The distinct accesses of one (kind, width), as the search sees them. */
typedef struct {
	bs_calib *c;
	size_t *idx;             /* the group's rows */
	size_t n;
	bs_kind kind;
	unsigned width;
	const bs_points *ref;    /* every family point */
	/*
	 * The arch derived so far (NULL while the geometry is chosen): a
	 * loop candidate's loads take its ld rule of the same width.
	 */
	const bs_arch *built;
	bs_arch scratch;
} group;

/* ---- intake.c ---------------------------------------------------------- */

/* Each access's medians; the spread of a repeated access's rows. */
void calib_finish(bs_calib *c);
/* Whether kind is remote: its noise class. */
int calib_noise_class(bs_kind kind);
/* The 90th percentile of the spread of a noise class, in cycles. */
double calib_spread_p90(const bs_calib *c, int noise);

/* ---- search.c ---------------------------------------------------------- */

/* A rule as its arch file line, for messages. */
void calib_rule_text(const bs_rule *r, char *buf, size_t size);
/* g->scratch: the architecture of geometry geo and the one rule r. */
void calib_one_rule(group *g, const geometry *geo, const bs_rule *r);
/* The candidates beyond bank slots the group's kind may take: 1 a retry
 * loop (an atomic), 2 copy=lines (a 16-byte write). */
unsigned calib_extra_kinds(const group *g);
/* The best wavefront rule of a group under one geometry; the rows it
 * explains. */
size_t calib_best_rule(group *g, const geometry *geo, bs_rule *best);
/* Name in res another explaining rule that a family point tells apart. */
int calib_check_open(group *g, const geometry *geo, const bs_rule *chosen,
		     bs_calib_result *res);
/* The ideal rule, words or lanes; open in res when the rows cannot tell. */
int calib_choose_ideal(group *g, const geometry *geo, bs_rule *r,
		       bs_calib_result *res);

/* ---- remote.c ---------------------------------------------------------- */

/*
 * A remote group's rule (remote=sectors or rmw, chosen by its sectors),
 * with the rows it misses (sectors or dshared wavefronts) in res; 0, or
 * -1 out of memory.
 */
int calib_remote_rule(group *g, bs_rule *r, bs_calib_result *res);

/* ---- fit.c ------------------------------------------------------------- */

/* A timed row: x its wavefronts (a remote rule: the sectors it moves), k
 * whether the rule packs it. */
typedef struct {
	double x, y;
	int k;
	size_t row;
} tpoint;

enum { FIT_OK, FIT_NO_ROWS, FIT_ONE_X, FIT_OOM };

/* The median of v (sorted in place), NaN for none. */
double calib_median(double *v, size_t n);
int calib_residuals(group *g, const geometry *geo, const bs_rule *r,
		    tpoint *v, size_t *n, double *slope, double base[2]);
int calib_fit_latency(group *g, const geometry *geo, bs_rule *r, double tol,
		      bs_calib_result *res);
void calib_fit_throughput(group *g, const geometry *geo, bs_rule *r);

/* ---- findings.c -------------------------------------------------------- */

/* An open rule of (kind, width), settled by ref's point (-1: none); 0, or
 * -1 out of memory. */
int calib_add_open(bs_calib_result *res, bs_kind kind, unsigned width,
		   const bs_points *ref, long point, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* A finding on the access m, of all its rows or (rows 1) one of them;
 * NULL out of memory. */
bs_calib_miss *calib_add_miss(const bs_calib *c, bs_calib_result *res,
			      mrow *m, const bs_rule *r, size_t rows);
/* The rows of the group whose counters r does not give. */
int calib_list_misses(group *g, const geometry *geo, const bs_rule *r,
		      bs_calib_result *res);

#endif
