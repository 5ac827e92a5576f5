/*
 * bs_calibrate.h - an architecture derived from measurements: what `bankscope
 * calibrate` does.  Part of bankscope.h.
 *
 * Calibration takes the measured rows of probe runs (bs_calib_add_row, or
 * whole datasets) and searches the rule space for the architecture that
 * explains them, nothing looked up:
 *
 *   geometry   banks 16, 32 or 64 of 4 bytes, or 16 or 32 of 8 bytes
 *              (the rows of bank kinds choose it: a remote one takes no
 *              bank);
 *   phases     for each (kind, width) measured, lanes per phase 32, 16,
 *              8, 4, 2 or 1; packing none, or pairwise-uniform requests
 *              (partners any non-empty subset of 1, 2, 4, 8, 16) served in
 *              wider phases; lanes on one word share it or are served
 *              one by one; a bank slot of one wavefront or two (a
 *              compare-and-swap reads and writes);
 *   ideal      ceil(distinct words / banks) or ceil(lanes x words per
 *              lane / banks) per phase, against wavefronts - conflicts;
 *   latency    for kinds that return a value, cycles = base + slope x
 *              wavefronts, one base for packed requests and one for the
 *              others: a robust line first (the median of the slopes
 *              between the medians at each wavefront count, the median
 *              intercept), then least squares over the rows within the
 *              tolerance of it, rounded to whole cycles when that moves
 *              none of them past the tolerance.  Rows past it are named
 *              as outliers, not fitted.  A line an architecture cannot hold
 *              (negative slope or base) is not written: the rule is
 *              left open.  The tolerance follows the data's noise: the
 *              largest of BS_CALIB_CYCLES_TOL, twice the 90th percentile
 *              of the rows' spread (median less min, and a repeated
 *              access's rows about their median) and three robust
 *              standard deviations (1.4826 x the median absolute
 *              residual) of the timed rows about their robust lines,
 *              this last only up to BS_CALIB_SCATTER of the timed rows'
 *              median cycles: a scatter past that, which the rows' own
 *              spread does not explain, is left open as a finding and
 *              widens nothing, so the rows past the tolerance are named;
 *   throughput the median bytes per clock per SM of the rows whose every
 *              address lane is active and wants a word of its own, and
 *              that measured no conflict;
 *   remote     for each remote kind and width measured (distributed shared
 *              memory, bs_kind_info.remote: no bank takes it), the cost
 *              remote=sectors (the distinct 32-byte sectors) or
 *              remote=rmw (a read and a write of each sector per pass),
 *              judged by the measured sectors; its latency line as
 *              above, against the sectors the rule moves, for the kinds
 *              that return a value, with a tolerance of its own from the
 *              remote rows' noise (the SM-to-SM network's, not the
 *              banks'); no throughput.
 *
 * Rows of one access (kind, width, lanes, addresses) and the same
 * counters are one distinct access: the search runs over those, so
 * memory and time follow the distinct accesses, not the rows.  A row is
 * explained when its wavefronts and conflicts agree with the rule as
 * check judges them (bs_counters_differ); cycles never choose a rule.
 *
 * A remote row is explained when its sectors, its dshared wavefronts
 * (and conflicts, where measured) agree with the rule as check judges
 * them, but its rule is chosen by the sectors alone: the wavefronts a
 * remote rule predicts follow from its cost (ceil(lines / 4), for rmw at
 * least the most lanes on one word; bs_remote_predict) and are known
 * not to fit every random access, so a row whose wavefronts disagree is
 * named as a miss, like any other, and decides nothing.  The two costs
 * never both fit a row (rmw moves 2 x passes, at least twice the
 * sectors), so no remote cost is left open; its latency slope is, when
 * every timed row moves as many sectors.  Remote rows without measured
 * sectors are skipped.
 *
 * Candidates are tried simplest first (one phase of 32 before narrower
 * ones, no packing before packing, fewer and smaller partners first,
 * shared words before serial ones, slots of one wavefront before two,
 * ideal by words before by lanes; remote=sectors before remote=rmw), and
 * the first that explains every row of its (kind, width) is taken.  A
 * rule is undetermined when another candidate explains the rows as well
 * but predicts a point of a probe family (bs_families.h) differently: the
 * result names the rule, the family that would settle it and one of its
 * points.  Rows no candidate explains are returned with the rule that
 * explains the most of them (the nearest), as are timed rows more than
 * the tolerance from the fitted latency.  The architecture is written to
 * memory and read back before bs_calib_run returns it.
 */
#ifndef BS_CALIBRATE_H
#define BS_CALIBRATE_H

#include "../families/bs_families.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BS_CALIB_CYCLES_TOL 0.5
/* The most the scatter about the lines may widen the tolerance: this
 * share of the timed rows' median cycles. */
#define BS_CALIB_SCATTER 0.10

typedef struct bs_calib bs_calib;

/* A distinct access the derived architecture does not explain. */
typedef struct {
	char file[256];          /* its first row */
	long line;
	size_t rows;             /* its rows: this one and those like it */
	int latency;             /* 1: its cycles, 0: its counters */
	char name[BS_NAME_MAX];
	bs_kind kind;
	unsigned width;
	char what[160];          /* "measured 3 wavefronts, the rule gives 2" */
	char rule[200];          /* the nearest rule, as an arch file line */
} bs_calib_miss;

/* A rule the rows leave open. */
typedef struct {
	bs_kind kind;            /* BS_KIND_NONE for the bank geometry */
	unsigned width;
	char what[200];          /* what is open, and the candidates */
	char family[32];         /* the probe family that would settle it */
	char example[BS_NAME_MAX];   /* one of its points */
} bs_calib_open;

/* A latency tolerance and the noise it follows. */
typedef struct {
	double cycles;           /* the tolerance */
	double spread;           /* 90th percentile of the rows' spread */
	double sigma;            /* robust deviation about the lines */
	double level;            /* the timed rows' median cycles */
	int scattered;           /* 3 sigma past the rest and over
				    BS_CALIB_SCATTER of level: not taken */
} bs_calib_tolerance;

typedef struct {
	size_t rows;             /* measured rows used */
	size_t remote_rows;      /* of them, of remote kinds */
	size_t distinct;         /* distinct accesses among them */
	size_t skipped;          /* rows with a note or no counters */
	size_t miss_rows;        /* rows of the distinct accesses in miss */
	/*
	 * The search's work: how many times a candidate rule predicted a
	 * distinct access to judge it.
	 */
	size_t judged;
	double cycles_tol;       /* the latency tolerance used, and why: */
	double spread;           /* 90th percentile of the rows' spread */
	double sigma;            /* robust deviation about the lines */
	bs_calib_tolerance remote;   /* the same for the remote kinds */
	size_t nmiss;
	bs_calib_miss *miss;
	size_t nopen;
	bs_calib_open *open;
} bs_calib_result;

typedef struct {
	const char *name;        /* arch name; NULL: sm_XY from the data,
				    sm_XY-calibrated where a built-in is
				    sm_XY */
	const char *description; /* NULL: says where it was derived from */
} bs_calib_options;

/*
 * Called as rows are read (what "rows read", done the rows so far, total
 * 0) and as the search goes (what "rules", done of total); the library
 * prints nothing itself.
 */
typedef void (*bs_calib_progress_fn)(void *ctx, const char *what,
				     size_t done, size_t total);

bs_calib *bs_calib_new(void);
void bs_calib_free(bs_calib *c);
void bs_calib_set_progress(bs_calib *c, bs_calib_progress_fn fn, void *ctx);
/*
 * Add one measured row (rows with a note or without measured wavefronts,
 * and remote rows without measured sectors, are counted as skipped);
 * file and line name it in the result.  0, or -1 out of memory.
 */
int bs_calib_add_row(bs_calib *c, const bs_row *r, const char *file,
		     long line);
/*
 * Add every row of an open dataset, reading it to the end; its gpu and
 * compute_capability metadata go into the architecture's source and
 * compute_capability.  0, or -1 with err (a bad row names file, line and
 * column; datasets of different compute capabilities are refused).
 */
int bs_calib_add_dataset(bs_calib *c, bs_dataset *d, const char *name,
			 bs_error *err);
/*
 * Derive the architecture.  0 (res says what is unexplained or open), or -1
 * with err: no measured row, out of memory, or an architecture that does not
 * read back (a bug: never written).
 */
int bs_calib_run(bs_calib *c, const bs_calib_options *o, bs_arch *out,
		 bs_calib_result *res, bs_error *err);
void bs_calib_result_free(bs_calib_result *res);

#ifdef __cplusplus
}
#endif

#endif
