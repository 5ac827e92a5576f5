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
 * The cycles and throughputs kept of a repeated access's rows, with the
 * row of each cycles value.  An access read once (most of a large run's
 * are) keeps its one value of each in its mrow; its second timed row
 * moves them here.
 */
typedef struct {
	double cyc[KEEP], tpv[KEEP];
	long cyc_line[KEEP];
	unsigned cyc_file[KEEP];
} kept;

/*
 * One distinct access: its addresses and measured counters (a remote
 * kind's: dshared wavefronts and sectors, no conflicts), the rows of it
 * that were read, the first of them (file, line) to name it.
 */
typedef struct {
	bs_access a;
	double wf, bc, sec;
	double cycles, tp;       /* medians of the kept values, by the run */
	/* the values kept while there is one of each (kept == 0) */
	double cyc1, tpv1;
	long cyc_line1;
	unsigned cyc_file1;
	unsigned kept;           /* index + 1 into bs_calib.kept, or 0 */
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
	uint8_t witness;         /* in its group's witnesses (group.wit) */
	uint8_t uniform;         /* bit b: pairwise uniform under partner
				    1 << b (bs_pairwise_uniform) */
} mrow;

/* The timing noise of bank kinds (0) and of remote ones (1), apart: the
 * SM-to-SM network is noisier than the banks. */
enum { NOISE_BANK, NOISE_REMOTE, NOISE_CLASSES };

struct bs_calib {
	mrow *row;               /* the distinct accesses */
	size_t n, cap, rows, skipped, remote_rows;
	kept *kept;              /* the values of the repeated ones */
	size_t nkept, kept_cap;
	size_t judged;           /* predictions of a row by a candidate */
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

/* The most witnesses a group keeps. */
#define CALIB_WITNESSES 32

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
	/*
	 * Witnesses: rows (indexes into c->row) that turned a candidate
	 * down, the latest first.  A candidate is tried on them before the
	 * other rows, so most candidates that miss are turned down after a
	 * prediction or two, however many rows the group has.
	 */
	size_t wit[CALIB_WITNESSES];
	unsigned nwit;
	/*
	 * The tally (search.c), when tally_geo is not NULL: fit[same_word]
	 * [slot_waves - 1][uniform][phase] the rows of each pairwise-uniform
	 * mrow.uniform that the unpacked rule of 32 >> phase lanes gives
	 * their wavefronts under tally_geo.
	 */
	const geometry *tally_geo;
	size_t fit[2][2][32][6];
} group;

/* ---- intake.c ---------------------------------------------------------- */

/* Where an access's kept values are: arrays of m->ncyc and m->ntp. */
typedef struct {
	double *cyc, *tpv;
	long *cyc_line;
	unsigned *cyc_file;
} kept_view;

kept_view calib_kept(const bs_calib *c, mrow *m);

/* Each access's medians; the spread of a repeated access's rows. */
void calib_finish(bs_calib *c);
/* Whether kind is remote: its noise class. */
int calib_noise_class(bs_kind kind);
/* The 90th percentile of the spread of a noise class, in cycles. */
double calib_spread_p90(const bs_calib *c, int noise);

/* ---- search.c ---------------------------------------------------------- */

/* g as the rows idx[0..n) of one (kind, width), its witnesses none. */
void calib_set_group(group *g, size_t *idx, size_t n);

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
/*
 * The same among the candidates that miss at most max_miss rows: when
 * none does, a count below g->n - max_miss (and best the first
 * candidate).
 */
size_t calib_best_rule_within(group *g, const geometry *geo, bs_rule *best,
			      size_t max_miss);
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
