/*
 * calibrate.c - the profile that explains measured rows (bs_calibrate.h
 * says what is searched and in which order).
 *
 * The rows are aggregated as they come into distinct accesses (a hash
 * table keyed by the access and its counters), grouped by (kind, width);
 * a candidate rule is judged by predicting every distinct access of its
 * group under a one-rule profile.  Whether another explaining candidate
 * would predict a probe family's point differently is asked of the points
 * of every family with the group's kind and width.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bs_calibrate.h"

/* Cycles and throughputs kept of an access's rows: their median is its. */
#define KEEP 15
/* 0.01-cycle bins of the timing noise; the last holds the rest. */
#define SPREAD_BINS 4096

/*
 * One distinct access: its addresses and measured counters, the rows of
 * it that were read, the first of them (file, line) to name it.
 */
typedef struct {
	bs_access a;
	double wf, bc;
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
} mrow;

struct bs_calib {
	mrow *row;               /* the distinct accesses */
	size_t n, cap, rows, skipped;
	size_t *bucket, nbucket;
	size_t spread[SPREAD_BINS], nspread;
	int final;
	char **files;
	unsigned nfiles;
	char gpu[128];
	char cc[16];
	bs_calib_progress_fn progress;
	void *progress_ctx;
};

/* ---- collecting ------------------------------------------------------ */

bs_calib *bs_calib_new(void)
{
	return calloc(1, sizeof(bs_calib));
}

void bs_calib_free(bs_calib *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	free(c->row);
	free(c->bucket);
	free(c);
}

void bs_calib_set_progress(bs_calib *c, bs_calib_progress_fn fn, void *ctx)
{
	c->progress = fn;
	c->progress_ctx = ctx;
}

static int file_index(bs_calib *c, const char *file, unsigned *out)
{
	char **f;

	if (c->nfiles && !strcmp(c->files[c->nfiles - 1], file)) {
		*out = c->nfiles - 1;
		return 0;
	}
	f = realloc(c->files, (c->nfiles + 1) * sizeof *f);
	if (!f)
		return -1;
	c->files = f;
	if (!(f[c->nfiles] = strdup(file)))
		return -1;
	*out = c->nfiles++;
	return 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 1099511628211u;
}

static uint64_t bits(double v)
{
	uint64_t u;

	if (isnan(v))
		return 1;
	v += 0.0;                /* -0 as 0 */
	memcpy(&u, &v, sizeof u);
	return u;
}

/* The key: kind, width, active lanes, their addresses, the counters. */
static uint64_t row_hash(const bs_access *a, double wf, double bc)
{
	uint64_t h = mix(mix(mix(1469598103934665603u, a->kind), a->width),
			 a->active);

	for (unsigned l = 0; l < BS_LANES; l++)
		if (a->active >> l & 1)
			h = mix(h, a->addr[l]);
	return mix(mix(h, bits(wf)), bits(bc));
}

static int same_key(const mrow *m, const bs_access *a, double wf, double bc)
{
	if (m->a.kind != a->kind || m->a.width != a->width ||
	    m->a.active != a->active || bits(m->wf) != bits(wf) ||
	    bits(m->bc) != bits(bc))
		return 0;
	for (unsigned l = 0; l < BS_LANES; l++)
		if ((a->active >> l & 1) && m->a.addr[l] != a->addr[l])
			return 0;
	return 1;
}

static int rehash(bs_calib *c)
{
	size_t nb = c->nbucket ? c->nbucket * 2 : 4096;
	size_t *b = calloc(nb, sizeof *b);

	if (!b)
		return -1;
	free(c->bucket);
	c->bucket = b;
	c->nbucket = nb;
	for (size_t i = 0; i < c->n; i++) {
		mrow *m = &c->row[i];
		size_t h = row_hash(&m->a, m->wf, m->bc) & (nb - 1);

		m->next = b[h];
		b[h] = i + 1;
	}
	return 0;
}

static void add_spread(bs_calib *c, double d)
{
	double bin = fabs(d) * 100 + 0.5;

	c->spread[bin < SPREAD_BINS - 1 ? (size_t)bin : SPREAD_BINS - 1]++;
	c->nspread++;
}

int bs_calib_add_row(bs_calib *c, const bs_row *r, const char *file,
		     long line)
{
	const bs_access *a = &r->access;
	double wf = r->wavefronts_measured, bc = r->bank_conflicts_measured;
	size_t h, i;
	mrow *m;

	if (r->note[0] || isnan(wf)) {
		c->skipped++;
		return 0;
	}
	if (2 * c->n >= c->nbucket && rehash(c) < 0)
		return -1;
	h = row_hash(a, wf, bc) & (c->nbucket - 1);
	for (i = c->bucket[h]; i && !same_key(&c->row[i - 1], a, wf, bc);
	     i = c->row[i - 1].next)
		;
	if (i) {
		m = &c->row[i - 1];
	} else {
		unsigned fi;

		if (c->n == c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 1024;
			mrow *v = realloc(c->row, cap * sizeof *v);

			if (!v)
				return -1;
			c->row = v;
			c->cap = cap;
		}
		if (file_index(c, file ? file : "", &fi) < 0)
			return -1;
		m = &c->row[c->n++];
		memset(m, 0, sizeof *m);
		m->a = *a;
		m->a.src = NULL;
		m->wf = wf;
		m->bc = bc;
		m->file = fi;
		m->line = line;
		m->next = c->bucket[h];
		c->bucket[h] = c->n;
	}
	m->count++;
	c->rows++;
	if (!isnan(r->cycles_per_access_median)) {
		if (m->ncyc < KEEP) {
			unsigned fi;

			if (file_index(c, file ? file : "", &fi) < 0)
				return -1;
			m->cyc_file[m->ncyc] = fi;
			m->cyc_line[m->ncyc] = line;
			m->cyc[m->ncyc++] = r->cycles_per_access_median;
		}
		if (!isnan(r->cycles_per_access_min))
			add_spread(c, r->cycles_per_access_median -
				      r->cycles_per_access_min);
	}
	if (!isnan(r->tp_bytes_per_clk_per_sm) && m->ntp < KEEP)
		m->tpv[m->ntp++] = r->tp_bytes_per_clk_per_sm;
	if (c->progress && !(c->rows & 0xffff))
		c->progress(c->progress_ctx, "rows read", c->rows, 0);
	return 0;
}

int bs_calib_add_dataset(bs_calib *c, bs_dataset *d, const char *name,
			 bs_error *err)
{
	const char *gpu = bs_dataset_meta(d, "gpu");
	const char *cc = bs_dataset_meta(d, "compute_capability");
	bs_row r;
	int rc;

	if (cc && c->cc[0] && strcmp(cc, c->cc))
		return bs_error_set(err, name, 0, 0, "measured on compute "
				    "capability %s, the datasets before it on "
				    "%s: calibrate one GPU at a time", cc,
				    c->cc);
	if (cc && !c->cc[0])
		snprintf(c->cc, sizeof c->cc, "%s", cc);
	if (gpu && !c->gpu[0])
		snprintf(c->gpu, sizeof c->gpu, "%s", gpu);
	while ((rc = bs_dataset_next(d, &r, err)) > 0)
		if (bs_calib_add_row(c, &r, name, bs_dataset_line(d)) < 0)
			return bs_error_set(err, name, bs_dataset_line(d), 0,
					    "out of memory");
	return rc;
}

/* ---- candidates --------------------------------------------------------- */

typedef struct {
	unsigned banks, bank_bytes;
} geometry;

/* In the order they are preferred when the rows cannot tell. */
static const geometry geometries[] = {
	{ 32, 4 }, { 16, 4 }, { 64, 4 }, { 32, 8 }, { 16, 8 },
};
#define NGEOM (sizeof geometries / sizeof *geometries)

/* Partner sets, fewest and smallest first. */
static uint32_t partner_sets[31];
static unsigned npartner_sets;

static void make_partner_sets(void)
{
	if (npartner_sets)
		return;
	for (int bits = 1; bits <= 5; bits++)
		for (unsigned s = 1; s < 32; s++)
			if (__builtin_popcount(s) == bits) {
				uint32_t set = 0;

				for (unsigned b = 0; b < 5; b++)
					if (s >> b & 1)
						set |= 1u << (1u << b);
				partner_sets[npartner_sets++] = set;
			}
}

/*
 * Candidate i of the wavefront rules, simplest first: shared words before
 * serial, a bank slot of one wavefront before two, then for each phase
 * width 32 down to 1, no packing, then for each wider packed phase the
 * partner sets.  For an atomic (extra & 1), the retry loops come last: a
 * slot of one wavefront before two, phases of 32 down to 1; for a 16-byte
 * write (extra & 2), copy=lines last of all.  0 past the last.
 */
static int candidate(unsigned i, bs_rule *r, unsigned extra)
{
	static const unsigned phases[] = { 32, 16, 8, 4, 2, 1 };

	make_partner_sets();
	r->loop = BS_LOOP_NONE;
	r->copy = BS_COPY_NONE;
	for (unsigned sw = 0; sw < 2; sw++)
		for (unsigned slot = 1; slot <= 2; slot++)
			for (unsigned p = 0; p < 6; p++) {
				unsigned P = phases[p];

				r->same_word = (uint8_t)sw;
				r->slot_waves = (uint8_t)slot;
				r->phase_lanes = (uint8_t)P;
				if (!i--) {
					r->packed_lanes = 0;
					r->pack_partners = 0;
					return 1;
				}
				for (unsigned Q = 2 * P; Q <= 32; Q *= 2)
					for (unsigned k = 0; k < npartner_sets;
					     k++)
						if (!i--) {
							r->packed_lanes =
								(uint8_t)Q;
							r->pack_partners =
								partner_sets[k];
							return 1;
						}
			}
	if (extra & 1)
		for (unsigned slot = 1; slot <= 2; slot++)
			for (unsigned p = 0; p < 6; p++)
				if (!i--) {
					r->loop = BS_LOOP_CAS;
					r->same_word = BS_SAME_WORD_SHARE;
					r->slot_waves = (uint8_t)slot;
					r->phase_lanes = (uint8_t)phases[p];
					r->packed_lanes = 0;
					r->pack_partners = 0;
					return 1;
				}
	if ((extra & 2) && !i--) {
		r->copy = BS_COPY_LINES;
		r->same_word = BS_SAME_WORD_SHARE;
		r->slot_waves = 1;
		r->phase_lanes = 8;
		r->packed_lanes = 0;
		r->pack_partners = 0;
		return 1;
	}
	return 0;
}

/* A rule as its profile line, for messages. */
static void rule_text(const bs_rule *r, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "rule %s %u phase=%u",
				    bs_kind_name(r->kind), r->width,
				    r->phase_lanes);

	if (r->packed_lanes && n < size) {
		n += (size_t)snprintf(buf + n, size - n, " packed=%u partners=",
				      r->packed_lanes);
		for (unsigned m = 1, k = 0; m < 32 && n < size; m++)
			if (r->pack_partners >> m & 1)
				n += (size_t)snprintf(buf + n, size - n, "%s%u",
						      k++ ? "," : "", m);
	}
	if (r->same_word && n < size)
		n += (size_t)snprintf(buf + n, size - n, " same_word=serial");
	if (r->slot_waves > 1 && n < size)
		n += (size_t)snprintf(buf + n, size - n, " slot_waves=%u",
				      r->slot_waves);
	if (r->ideal && n < size)
		n += (size_t)snprintf(buf + n, size - n, " ideal=lanes");
	if (r->loop && n < size)
		n += (size_t)snprintf(buf + n, size - n, " loop=%s",
				      bs_loop_name(r->loop));
	if (r->copy && n < size)
		snprintf(buf + n, size - n, " copy=%s", bs_copy_name(r->copy));
}

/* ---- judging -------------------------------------------------------------- */

typedef struct {
	bs_calib *c;
	size_t *idx;             /* the group's rows */
	size_t n;
	bs_kind kind;
	unsigned width;
	const bs_points *ref;    /* every family point */
	/*
	 * The profile derived so far (NULL while the geometry is chosen): a
	 * loop candidate's loads take its ld rule of the same width.
	 */
	const bs_arch *built;
	bs_arch scratch;
} group;

/* The ld rule a loop rule's loads need, from what is derived so far. */
static void add_loads(const group *g, bs_arch *p, const bs_rule *r)
{
	const bs_rule *ld;

	if (r->loop && g->built &&
	    (ld = bs_arch_rule(g->built, BS_KIND_LD, r->width)))
		bs_arch_set_rule(p, ld, NULL);
}

static void one_rule(group *g, const geometry *geo, const bs_rule *r)
{
	bs_arch_init(&g->scratch);
	g->scratch.banks = geo->banks;
	g->scratch.bank_bytes = geo->bank_bytes;
	snprintf(g->scratch.name, sizeof g->scratch.name, "candidate");
	add_loads(g, &g->scratch, r);
	bs_arch_set_rule(&g->scratch, r, NULL);
}

/* The candidates beyond bank slots the group's kind may take: 1 a retry
 * loop (an atomic), 2 copy=lines (a 16-byte write). */
static unsigned extra_kinds(const group *g)
{
	unsigned d = bs_kind_get(g->kind)->direction;

	return (d == BS_UPDATES) | (d == BS_WRITES && g->width == 16) << 1;
}

/*
 * Rows of the group whose wavefronts the rule gives; the count stops
 * short (below g->n - max_miss) once more than max_miss rows are missed.
 */
static size_t explained(group *g, const geometry *geo, const bs_rule *r,
			size_t max_miss)
{
	size_t ok = 0, miss = 0;
	bs_summary s;

	one_rule(g, geo, r);
	for (size_t i = 0; i < g->n && miss <= max_miss; i++) {
		const mrow *m = &g->c->row[g->idx[i]];

		if (bs_predict(&g->scratch, &m->a, &s, NULL) == 0 &&
		    fabs(s.wavefronts - m->wf) < 1e-6)
			ok++;
		else
			miss++;
	}
	return ok;
}

/*
 * Rows whose counters the rule gives, wavefronts and conflicts both, as
 * check judges them (bs_counters_differ), and whose ideal (wavefronts
 * less conflicts, where measured) it gives.
 */
static size_t counters_agree(group *g, const geometry *geo, const bs_rule *r)
{
	size_t ok = 0;
	bs_summary s;

	one_rule(g, geo, r);
	for (size_t i = 0; i < g->n; i++) {
		const mrow *m = &g->c->row[g->idx[i]];

		ok += bs_predict(&g->scratch, &m->a, &s, NULL) == 0 &&
		      !bs_counters_differ(m->wf, m->bc, &s) &&
		      (isnan(m->bc) || fabs(s.ideal_wavefronts -
					    (m->wf - m->bc)) <= BS_COUNT_TOL);
	}
	return ok;
}

/*
 * The first family point of the group's kind and width that rules a and b
 * predict differently (wavefronts, or ideal when ideal is set), or -1.
 */
static long diverging_point(group *g, const geometry *ga, const bs_rule *a,
			    const geometry *gb, const bs_rule *b, int ideal)
{
	static bs_arch pa, pb;
	bs_summary sa, sb;

	bs_arch_init(&pa);
	pa.banks = ga->banks;
	pa.bank_bytes = ga->bank_bytes;
	add_loads(g, &pa, a);
	bs_arch_set_rule(&pa, a, NULL);
	bs_arch_init(&pb);
	pb.banks = gb->banks;
	pb.bank_bytes = gb->bank_bytes;
	add_loads(g, &pb, b);
	bs_arch_set_rule(&pb, b, NULL);
	for (size_t i = 0; i < g->ref->n; i++) {
		const bs_access *p = &g->ref->v[i];

		if (p->kind != g->kind || p->width != g->width)
			continue;
		if (bs_predict(&pa, p, &sa, NULL) < 0 ||
		    bs_predict(&pb, p, &sb, NULL) < 0)
			continue;
		if (ideal ? sa.ideal_wavefronts != sb.ideal_wavefronts
			  : sa.wavefronts != sb.wavefronts)
			return (long)i;
	}
	return -1;
}

/* ---- results ---------------------------------------------------------- */

static int add_open(bs_calib_result *res, bs_kind kind, unsigned width,
		    const bs_points *ref, long point, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int add_open(bs_calib_result *res, bs_kind kind, unsigned width,
		    const bs_points *ref, long point, const char *fmt, ...)
{
	bs_calib_open *o = realloc(res->open, (res->nopen + 1) * sizeof *o);
	va_list ap;

	if (!o)
		return -1;
	res->open = o;
	o = &o[res->nopen++];
	memset(o, 0, sizeof *o);
	o->kind = kind;
	o->width = width;
	va_start(ap, fmt);
	vsnprintf(o->what, sizeof o->what, fmt, ap);
	va_end(ap);
	if (point >= 0) {
		snprintf(o->family, sizeof o->family, "%s",
			 ref->family_of[point]);
		snprintf(o->example, sizeof o->example, "%s",
			 ref->v[point].name);
	}
	return 0;
}

/* A finding on the access m, of all its rows or (rows 1) one of them. */
static bs_calib_miss *add_miss(const bs_calib *c, bs_calib_result *res,
			       mrow *m, const bs_rule *r, size_t rows)
{
	bs_calib_miss *x = realloc(res->miss, (res->nmiss + 1) * sizeof *x);

	if (!x)
		return NULL;
	res->miss = x;
	x = &x[res->nmiss++];
	memset(x, 0, sizeof *x);
	snprintf(x->file, sizeof x->file, "%s", c->files[m->file]);
	x->line = m->line;
	x->rows = rows;
	if (rows < m->count)
		res->miss_rows += rows;
	else if (!m->named)
		res->miss_rows += m->count;
	m->named |= rows == m->count;
	snprintf(x->name, sizeof x->name, "%s", m->a.name);
	x->kind = m->a.kind;
	x->width = m->a.width;
	rule_text(r, x->rule, sizeof x->rule);
	return x;
}

void bs_calib_result_free(bs_calib_result *res)
{
	free(res->miss);
	free(res->open);
	memset(res, 0, sizeof *res);
}

/* ---- the search ------------------------------------------------------- */

/*
 * The best wavefront rule of a group under one geometry: the first
 * candidate that explains every row, else the one that explains most.
 * Counters alone decide: cycles are noisy, and a rule they picked would
 * hide what the counters leave open.  Returns the rows it explains.
 */
static size_t best_rule(group *g, const geometry *geo, bs_rule *best)
{
	size_t most = 0;
	bs_rule r;

	memset(&r, 0, sizeof r);
	r.kind = g->kind;
	r.width = (uint8_t)g->width;
	r.lat_base = r.lat_packed = r.lat_slope = r.tp_bytes_per_clk = NAN;
	*best = r;
	for (unsigned i = 0; candidate(i, &r, extra_kinds(g)); i++) {
		/* past the best so far, or explaining all, is what counts */
		size_t k = explained(g, geo, &r, i ? g->n - most - 1 : g->n);

		if (k == g->n) {
			*best = r;
			return k;
		}
		if (k > most || i == 0) {
			most = k;
			*best = r;
		}
	}
	return most;
}

/* Is there another explaining rule that a family point tells apart? */
static int check_open(group *g, const geometry *geo, const bs_rule *chosen,
		      bs_calib_result *res)
{
	bs_rule r = *chosen;

	for (unsigned i = 0; candidate(i, &r, extra_kinds(g)); i++) {
		long pt;

		if (r.phase_lanes == chosen->phase_lanes &&
		    r.packed_lanes == chosen->packed_lanes &&
		    r.pack_partners == chosen->pack_partners &&
		    r.same_word == chosen->same_word &&
		    r.slot_waves == chosen->slot_waves &&
		    r.loop == chosen->loop && r.copy == chosen->copy)
			continue;
		if (explained(g, geo, &r, 0) != g->n)
			continue;
		pt = diverging_point(g, geo, chosen, geo, &r, 0);
		if (pt >= 0) {
			char a[200], b[200];

			rule_text(chosen, a, sizeof a);
			rule_text(&r, b, sizeof b);
			return add_open(res, g->kind, g->width, g->ref, pt,
					"phases of %u-byte %s: the rows fit "
					"'%s' and '%s' alike", g->width,
					bs_kind_name(g->kind), a + 5, b + 5);
		}
	}
	return 0;
}

/*
 * The ideal rule: words, unless lanes gives more rows their conflicts;
 * open when both explain every row and a family point tells them apart.
 */
static int choose_ideal(group *g, const geometry *geo, bs_rule *r,
			bs_calib_result *res)
{
	bs_rule w = *r, l = *r;
	size_t fw, fl;
	long pt;

	w.ideal = BS_IDEAL_WORDS;
	l.ideal = BS_IDEAL_LANES;
	fw = counters_agree(g, geo, &w);
	fl = counters_agree(g, geo, &l);
	r->ideal = fw >= fl ? BS_IDEAL_WORDS : BS_IDEAL_LANES;
	if (fw == g->n && fl == g->n &&
	    (pt = diverging_point(g, geo, &w, geo, &l, 1)) >= 0)
		return add_open(res, g->kind, g->width, g->ref, pt,
				"ideal of %u-byte %s: the rows fit ideal=words "
				"and ideal=lanes alike", g->width,
				bs_kind_name(g->kind));
	return 0;
}

/* Round to whole cycles, or to 2 decimals; never -0. */
static double fit_round(double v, int whole)
{
	return (whole ? floor(v + 0.5) : floor(v * 100 + 0.5) / 100) + 0.0;
}

/* A timed row: x its wavefronts, k whether the rule packs it. */
typedef struct {
	double x, y;
	int k;
	size_t row;
} tpoint;

static int cmp_tpoint(const void *pa, const void *pb)
{
	const tpoint *a = pa, *b = pb;

	if (a->k != b->k)
		return a->k < b->k ? -1 : 1;
	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return a->y < b->y ? -1 : a->y > b->y;
}

/* The group's timed rows under the rule, sorted by packing and x. */
static size_t timed(group *g, const geometry *geo, const bs_rule *r,
		    tpoint *v)
{
	size_t n = 0;
	bs_summary s;

	one_rule(g, geo, r);
	for (size_t i = 0; i < g->n; i++) {
		const mrow *m = &g->c->row[g->idx[i]];

		if (isnan(m->cycles) ||
		    bs_predict(&g->scratch, &m->a, &s, NULL) < 0)
			continue;
		v[n++] = (tpoint){ m->wf, m->cycles, !!s.packed, g->idx[i] };
	}
	qsort(v, n, sizeof *v, cmp_tpoint);
	return n;
}

static double median_of(double *v, size_t n)
{
	double lo, med;

	return bs_min_median(v, n, &lo, &med) == 0 ? med : NAN;
}

enum { FIT_OK, FIT_NO_ROWS, FIT_ONE_X, FIT_OOM };

/*
 * The robust line through sorted points: the medians at each (packing,
 * x), the median of the slopes between them, the median intercept of
 * each packing (NaN where none).
 */
static int robust_line(const tpoint *v, size_t n, double *slope,
		       double base[2])
{
	double *y = malloc((n + 1) * sizeof *y), *px, *py, *sl;
	int *pk, rc = FIT_OK;
	size_t np = 0, ns = 0;

	px = malloc((n + 1) * sizeof *px);
	py = malloc((n + 1) * sizeof *py);
	pk = malloc((n + 1) * sizeof *pk);
	if (!y || !px || !py || !pk) {
		rc = FIT_OOM;
		goto out;
	}
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j].k == v[i].k && v[j].x == v[i].x; j++)
			y[j - i] = v[j].y;
		px[np] = v[i].x;
		pk[np] = v[i].k;
		py[np++] = median_of(y, j - i);
	}
	sl = malloc((np * np / 2 + 1) * sizeof *sl);
	if (!sl) {
		rc = FIT_OOM;
		goto out;
	}
	for (size_t i = 0; i < np; i++)
		for (size_t j = i + 1; j < np && pk[j] == pk[i]; j++)
			sl[ns++] = (py[j] - py[i]) / (px[j] - px[i]);
	*slope = ns ? median_of(sl, ns) : NAN;
	free(sl);
	if (!ns) {
		rc = FIT_ONE_X;
		goto out;
	}
	for (int k = 0; k < 2; k++) {
		size_t m = 0;

		for (size_t i = 0; i < np; i++)
			if (pk[i] == k)
				y[m++] = py[i] - *slope * px[i];
		base[k] = m ? median_of(y, m) : NAN;
	}
out:
	free(y);
	free(px);
	free(py);
	free(pk);
	return rc;
}

/*
 * The group's robust line under the rule and each timed row's residual
 * from it (NaN for a row of a packing without a base).  v holds g->n.
 */
static int residuals(group *g, const geometry *geo, const bs_rule *r,
		     tpoint *v, size_t *n, double *slope, double base[2])
{
	int rc;

	*n = timed(g, geo, r, v);
	if (!*n)
		return FIT_NO_ROWS;
	if ((rc = robust_line(v, *n, slope, base)) != FIT_OK)
		return rc;
	for (size_t i = 0; i < *n; i++)
		v[i].y -= base[v[i].k] + *slope * v[i].x;
	return FIT_OK;
}

/*
 * cycles = slope * wavefronts + base (lat_packed for packed requests),
 * least squares over the rows within tol of the robust line, into r;
 * rounded to whole cycles when that moves none of those rows past tol.
 * v (room for g->n) is left holding the timed rows and their residuals
 * from the robust line, *x the first row's wavefronts.
 */
static int fit_line(group *g, const geometry *geo, bs_rule *r, double tol,
		    tpoint *v, size_t *nv, double *x)
{
	double sxx = 0, sxy = 0, sx[2] = { 0, 0 }, sy[2] = { 0, 0 };
	double slope, base[2], worst;
	size_t n[2] = { 0, 0 };
	bs_summary s;
	bs_rule t;
	int rc = residuals(g, geo, r, v, nv, &slope, base);

	*x = *nv ? v[0].x : 0;
	if (rc != FIT_OK)
		return rc;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < *nv; i++) {
			const mrow *m = &g->c->row[v[i].row];
			int k = v[i].k;

			if (!(fabs(v[i].y) <= tol))
				continue;
			if (pass == 0) {
				n[k]++;
				sx[k] += m->wf;
				sy[k] += m->cycles;
			} else {
				/* one slope, an intercept per packing */
				double dx = m->wf - sx[k] / n[k];

				sxx += dx * dx;
				sxy += dx * (m->cycles - sy[k] / n[k]);
			}
		}
	if (!n[0] && !n[1])
		return FIT_NO_ROWS;
	r->lat_slope = sxx > 0 ? sxy / sxx : slope;
	r->lat_base = n[0] ? sy[0] / n[0] - r->lat_slope * sx[0] / n[0]
			   : sy[1] / n[1] - r->lat_slope * sx[1] / n[1];
	r->lat_packed = n[1] && r->packed_lanes
		? sy[1] / n[1] - r->lat_slope * sx[1] / n[1] : NAN;
	for (int whole = 1; whole >= 0; whole--) {
		t = *r;
		t.lat_slope = fit_round(r->lat_slope, whole);
		t.lat_base = fit_round(r->lat_base, whole);
		if (!isnan(r->lat_packed))
			t.lat_packed = fit_round(r->lat_packed, whole);
		one_rule(g, geo, &t);
		worst = 0;
		for (size_t i = 0; i < *nv; i++) {
			const mrow *m = &g->c->row[v[i].row];

			if (!(fabs(v[i].y) <= tol) ||
			    bs_predict(&g->scratch, &m->a, &s, NULL) < 0)
				continue;
			if (fabs(m->cycles - s.latency_cycles) > worst)
				worst = fabs(m->cycles - s.latency_cycles);
		}
		if (worst <= tol)
			break;
	}
	*r = t;
	return FIT_OK;
}

/* A latency a profile file holds: at least 0, at most 1e9 cycles. */
static int holdable(double v)
{
	return isnan(v) || (v >= 0 && v <= 1e9);
}

/*
 * Fit the chosen rule's latency; name the rows the line misses by more
 * than tol (those left out of the fit as outliers); leave the latency
 * out, and the rule open, when the line is not one a profile can hold.
 */
static int fit_latency(group *g, const geometry *geo, bs_rule *r, double tol,
		       bs_calib_result *res)
{
	tpoint *v = malloc((g->n + 1) * sizeof *v);
	double x;
	size_t nv;
	bs_summary s;
	int rc;

	if (!v)
		return -1;
	rc = fit_line(g, geo, r, tol, v, &nv, &x);
	if (rc == FIT_OOM) {
		free(v);
		return -1;
	}
	if (rc == FIT_NO_ROWS) {
		free(v);
		return 0;
	}
	if (rc == FIT_ONE_X) {
		free(v);
		return add_open(res, g->kind, g->width, NULL, -1, "latency "
				"slope of %u-byte %s: every timed row has %g "
				"wavefronts (rows with conflicts, as "
				"probe-stride times, would settle it)",
				g->width, bs_kind_name(g->kind), x);
	}
	if (!holdable(r->lat_slope) || !holdable(r->lat_base) ||
	    !holdable(r->lat_packed)) {
		double slope = r->lat_slope, base = r->lat_base;

		free(v);
		r->lat_slope = r->lat_base = r->lat_packed = NAN;
		return add_open(res, g->kind, g->width, NULL, -1, "latency of "
				"%u-byte %s: the timed rows give the line %.2f + "
				"%.2f x wavefronts, which no profile holds (cycles "
				"from 0 to 1e9): not written", g->width,
				bs_kind_name(g->kind), base, slope);
	}
	one_rule(g, geo, r);
	for (size_t i = 0; i < nv; i++) {
		mrow *m = &g->c->row[v[i].row];
		bs_calib_miss *miss;
		char lat[64];

		/* a row far from the other rows of its access */
		for (unsigned k = 0; k < m->ncyc; k++) {
			if (fabs(m->cyc[k] - m->cycles) <= tol)
				continue;
			if (!(miss = add_miss(g->c, res, m, r, 1))) {
				free(v);
				return -1;
			}
			snprintf(miss->file, sizeof miss->file, "%s",
				 g->c->files[m->cyc_file[k]]);
			miss->line = m->cyc_line[k];
			miss->latency = 1;
			snprintf(miss->what, sizeof miss->what, "measured %.2f "
				 "cycles, the %zu rows of this access %.2f "
				 "(their median): an outlier, left out of the "
				 "fit", m->cyc[k], m->count, m->cycles);
		}
		if (bs_predict(&g->scratch, &m->a, &s, NULL) < 0 ||
		    fabs(m->cycles - s.latency_cycles) <= tol)
			continue;
		if (!(miss = add_miss(g->c, res, m, r, m->count))) {
			free(v);
			return -1;
		}
		miss->latency = 1;
		snprintf(lat, sizeof lat, " lat_base=%g lat_slope=%g",
			 r->lat_base, r->lat_slope);
		strncat(miss->rule, lat,
			sizeof miss->rule - strlen(miss->rule) - 1);
		snprintf(miss->what, sizeof miss->what, "measured %.2f cycles, "
			 "the latency line gives %.2f%s", m->cycles,
			 s.latency_cycles, fabs(v[i].y) <= tol ? ""
			 : ": an outlier, left out of the fit");
	}
	free(v);
	return 0;
}

/*
 * Median bytes per clock of the conflict-free rows whose every address
 * lane (all 32, or ldsm.x1's 8) is active and wants a word of its own.
 * A row without a conflict count (cp.async.cg: the hardware's conflict
 * counters read 0 for it) is conflict-free when the rule gives it its
 * ideal and the measured wavefronts agree.
 */
static void fit_throughput(group *g, const geometry *geo, bs_rule *r)
{
	double *v = malloc((g->n * KEEP + 1) * sizeof *v), med, lo;
	size_t k = 0;

	if (!v)
		return;
	if (r->loop) {          /* a loop's cycles follow its passes */
		free(v);
		return;
	}
	one_rule(g, geo, r);
	for (size_t i = 0; i < g->n; i++) {
		const mrow *m = &g->c->row[g->idx[i]];
		int distinct = 1;
		bs_summary s;

		if (isnan(m->tp) ||
		    m->a.active != bs_kind_get(m->a.kind)->addr_lanes)
			continue;
		if (isnan(m->bc) ?
		    bs_predict(&g->scratch, &m->a, &s, NULL) < 0 ||
		    s.wavefronts != s.ideal_wavefronts ||
		    fabs(m->wf - s.wavefronts) > 1e-6 : m->bc != 0)
			continue;
		for (unsigned a = 0; a < BS_LANES && distinct; a++)
			for (unsigned b = a + 1; b < BS_LANES; b++)
				if ((m->a.active >> a & m->a.active >> b & 1) &&
				    m->a.addr[a] / 4 == m->a.addr[b] / 4) {
					distinct = 0;
					break;
				}
		for (unsigned j = 0; distinct && j < m->ntp; j++)
			v[k++] = m->tpv[j];   /* each row kept, not the access */
	}
	/* none written that a profile cannot hold */
	if (k && bs_min_median(v, k, &lo, &med) == 0 && holdable(med))
		r->tp_bytes_per_clk = floor(med * 100 + 0.5) / 100 + 0.0;
	free(v);
}

/*
 * The rows of the group whose counters the rule does not give, judged as
 * check judges them.
 */
static int list_misses(group *g, const geometry *geo, const bs_rule *r,
		       bs_calib_result *res)
{
	bs_summary s;

	one_rule(g, geo, r);
	for (size_t i = 0; i < g->n; i++) {
		mrow *m = &g->c->row[g->idx[i]];
		unsigned d = BS_DIFFER_WAVEFRONTS;
		bs_calib_miss *x;

		if (bs_predict(&g->scratch, &m->a, &s, NULL) == 0 &&
		    !(d = bs_counters_differ(m->wf, m->bc, &s)))
			continue;
		if (!(x = add_miss(g->c, res, m, r, m->count)))
			return -1;
		if (d & BS_DIFFER_WAVEFRONTS)
			snprintf(x->what, sizeof x->what, "measured %g "
				 "wavefronts, the nearest rule gives %u",
				 m->wf, s.wavefronts);
		else
			snprintf(x->what, sizeof x->what, "measured %g bank "
				 "conflicts in %g wavefronts, the rule gives "
				 "%u", m->bc, m->wf, s.bank_conflicts);
	}
	return 0;
}

/* Row indexes by kind, then width, then order of arrival. */
static const bs_calib *sort_ctx;

static int cmp_group(const void *pa, const void *pb)
{
	const bs_calib *c = sort_ctx;
	const bs_access *a = &c->row[*(const size_t *)pa].a;
	const bs_access *b = &c->row[*(const size_t *)pb].a;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->width != b->width)
		return a->width < b->width ? -1 : 1;
	return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

/* Each access's medians; the spread of a repeated access's rows. */
static void finish(bs_calib *c)
{
	if (c->final)
		return;
	c->final = 1;
	for (size_t i = 0; i < c->n; i++) {
		mrow *m = &c->row[i];

		double v[KEEP];

		memcpy(v, m->cyc, sizeof v);
		m->cycles = m->ncyc ? median_of(v, m->ncyc) : NAN;
		m->tp = m->ntp ? median_of(m->tpv, m->ntp) : NAN;
		for (unsigned k = 0; m->ncyc > 1 && k < m->ncyc; k++)
			add_spread(c, m->cyc[k] - m->cycles);
	}
}

/* The 90th percentile of the spread, in cycles. */
static double spread_p90(const bs_calib *c)
{
	size_t want = (c->nspread * 9 + 9) / 10, seen = 0;

	for (size_t b = 0; b < SPREAD_BINS && c->nspread; b++)
		if ((seen += c->spread[b]) >= want)
			return b / 100.0;
	return 0;
}

static void set_group(group *g, size_t *idx, const size_t *gstart, size_t k)
{
	g->idx = idx + gstart[k];
	g->n = gstart[k + 1] - gstart[k];
	g->kind = g->c->row[g->idx[0]].a.kind;
	g->width = g->c->row[g->idx[0]].a.width;
}

/* What is returned is what --arch reads: the profile, read back. */
static int reads_back(const bs_arch *p, bs_error *err)
{
	bs_arch *back = malloc(sizeof *back);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bs_error e;
	int rc = -1;

	if (!back || !f) {
		bs_error_set(err, "calibrate", 0, 0, "out of memory");
		goto out;
	}
	if (bs_arch_write(f, p) < 0 || fclose(f) != 0) {
		f = NULL;
		bs_error_set(err, "calibrate", 0, 0, "out of memory");
		goto out;
	}
	f = NULL;
	if (bs_arch_parse(text, "calibrated", back, &e) < 0)
		bs_error_set(err, "calibrate", 0, 0, "the derived profile "
			     "does not read back, so it is not written: %s",
			     e.text);
	else
		rc = 0;
out:
	if (f)
		fclose(f);
	free(text);
	free(back);
	return rc;
}

int bs_calib_run(bs_calib *c, const bs_calib_options *o, bs_arch *out,
		 bs_calib_result *res, bs_error *err)
{
	bs_points ref = { 0 };
	size_t *idx, ngroups = 0, gstart[BS_MAX_KINDS * BS_NWIDTHS + 1];
	size_t best_total = 0, geo_best = 0, score[NGEOM], ndev = 0;
	tpoint *v = NULL;
	double *dev = NULL;
	group g;
	int rc = -1, oom = 1, all;

	memset(res, 0, sizeof *res);
	res->rows = c->rows;
	res->distinct = c->n;
	res->skipped = c->skipped;
	if (!c->n)
		return bs_error_set(err, "calibrate", 0, 0, "no measured row: "
				    "the datasets hold no counters (measure "
				    "with bankscope-probe --measure counters)");
	idx = malloc(c->n * sizeof *idx);
	if (!idx || bs_family_points(NULL, &ref) < 0) {
		free(idx);
		bs_points_free(&ref);
		return bs_error_set(err, "calibrate", 0, 0, "out of memory");
	}
	finish(c);
	for (size_t i = 0; i < c->n; i++)
		idx[i] = i;
	sort_ctx = c;
	qsort(idx, c->n, sizeof *idx, cmp_group);
	for (size_t i = 0; i < c->n; i++)
		if (!i || c->row[idx[i]].a.kind != c->row[idx[i - 1]].a.kind ||
		    c->row[idx[i]].a.width != c->row[idx[i - 1]].a.width)
			gstart[ngroups++] = i;
	gstart[ngroups] = c->n;

	memset(&g, 0, sizeof g);
	g.c = c;
	g.ref = &ref;

	/* the geometry that explains the most rows, first of equals */
	for (size_t gi = 0; gi < NGEOM; gi++) {
		bs_rule r;

		score[gi] = 0;
		for (size_t k = 0; k < ngroups; k++) {
			g.idx = idx + gstart[k];
			g.n = gstart[k + 1] - gstart[k];
			g.kind = c->row[g.idx[0]].a.kind;
			g.width = c->row[g.idx[0]].a.width;
			score[gi] += best_rule(&g, &geometries[gi], &r);
		}
		if (c->progress)
			c->progress(c->progress_ctx, "bank geometries tried",
				    gi + 1, NGEOM);
		if (score[gi] > best_total) {
			best_total = score[gi];
			geo_best = gi;
		}
	}
	for (size_t gi = 0; gi < NGEOM; gi++) {
		if (gi == geo_best || score[gi] != best_total)
			continue;
		if (add_open(res, BS_KIND_NONE, 0, NULL, -1, "bank geometry: "
			     "the rows fit %u banks of %u bytes and %u banks "
			     "of %u bytes alike (4-byte strides, as "
			     "probe-stride measures them, would settle it)",
			     geometries[geo_best].banks,
			     geometries[geo_best].bank_bytes,
			     geometries[gi].banks, geometries[gi].bank_bytes) < 0)
			goto out;
		break;
	}

	bs_arch_init(out);
	out->banks = geometries[geo_best].banks;
	out->bank_bytes = geometries[geo_best].bank_bytes;
	g.built = out;
	for (size_t k = 0; k < ngroups; k++) {
		const geometry *geo = &geometries[geo_best];
		bs_rule r;

		g.idx = idx + gstart[k];
		g.n = gstart[k + 1] - gstart[k];
		g.kind = c->row[g.idx[0]].a.kind;
		g.width = c->row[g.idx[0]].a.width;
		all = best_rule(&g, geo, &r) == g.n;
		if (all && check_open(&g, geo, &r, res) < 0)
			goto out;
		if (!all && (extra_kinds(&g) & 1) &&
		    !bs_arch_rule(out, BS_KIND_LD, g.width) &&
		    add_open(res, g.kind, g.width, NULL, -1, "%u-byte %s: a "
			     "retry loop (loop=cas) loads by the ld %u rule, "
			     "and no %u-byte ld row was measured "
			     "(probe-stride measures them)", g.width,
			     bs_kind_name(g.kind), g.width, g.width) < 0)
			goto out;
		if (choose_ideal(&g, geo, &r, res) < 0 ||
		    list_misses(&g, geo, &r, res) < 0)
			goto out;
		fit_throughput(&g, geo, &r);
		if (bs_arch_set_rule(out, &r, err) < 0) {
			oom = 0;
			goto out;
		}
		if (c->progress)
			c->progress(c->progress_ctx, "rules derived", k + 1,
				    ngroups);
	}

	/* the latency tolerance, from the noise, then the lines */
	if (!(v = malloc((c->n + 1) * sizeof *v)) ||
	    !(dev = malloc((c->n + 1) * sizeof *dev)))
		goto out;
	for (size_t k = 0; k < ngroups; k++) {
		const bs_rule *r;
		double slope, base[2];
		size_t nv;
		int frc;

		set_group(&g, idx, gstart, k);
		r = bs_arch_rule(out, g.kind, g.width);
		if (!bs_kind_get(g.kind)->returns || r->loop)
			continue;
		frc = residuals(&g, &geometries[geo_best], r, v, &nv, &slope,
				base);
		if (frc == FIT_OOM)
			goto out;
		/* a rule that misses counters says nothing of the noise */
		for (size_t i = 0; i < g.n; i++)
			if (c->row[g.idx[i]].named)
				frc = FIT_NO_ROWS;
		for (size_t i = 0; frc == FIT_OK && i < nv; i++)
			if (!isnan(v[i].y))
				dev[ndev++] = fabs(v[i].y);
	}
	res->spread = spread_p90(c);
	res->sigma = ndev ? 1.4826 * median_of(dev, ndev) : 0;
	res->cycles_tol = BS_CALIB_CYCLES_TOL;
	if (2 * res->spread > res->cycles_tol)
		res->cycles_tol = 2 * res->spread;
	if (3 * res->sigma > res->cycles_tol)
		res->cycles_tol = 3 * res->sigma;
	for (size_t k = 0; k < ngroups; k++) {
		bs_rule r;

		set_group(&g, idx, gstart, k);
		r = *bs_arch_rule(out, g.kind, g.width);
		if (!bs_kind_get(g.kind)->returns || r.loop)
			continue;
		if (fit_latency(&g, &geometries[geo_best], &r, res->cycles_tol,
				res) < 0)
			goto out;
		if (bs_arch_set_rule(out, &r, err) < 0) {
			oom = 0;
			goto out;
		}
	}

	if (o && o->name)
		snprintf(out->name, sizeof out->name, "%s", o->name);
	else if (c->cc[0] && strchr(c->cc, '.')) {
		snprintf(out->name, sizeof out->name, "sm_%.*s%s",
			 (int)strcspn(c->cc, "."), c->cc,
			 strchr(c->cc, '.') + 1);
		/* a file may not take a built-in's name (--arch refuses it) */
		if (bs_arch_find(out->name))
			snprintf(out->name + strlen(out->name),
				 sizeof out->name - strlen(out->name),
				 "-calibrated");
	} else
		snprintf(out->name, sizeof out->name, "calibrated");
	if (o && o->description)
		snprintf(out->description, sizeof out->description, "%s",
			 o->description);
	else
		snprintf(out->description, sizeof out->description,
			 "derived by bankscope calibrate from %zu measured "
			 "rows%s%s", c->rows, c->gpu[0] ? " of " : "", c->gpu);
	snprintf(out->compute_capability, sizeof out->compute_capability,
		 "%s", c->cc);
	out->nsources = 1;
	snprintf(out->source[0].tag, sizeof out->source[0].tag, "measured");
	{
		size_t n = (size_t)snprintf(out->source[0].text,
					    sizeof out->source[0].text,
					    "measured on %s:",
					    c->gpu[0] ? c->gpu : "a GPU");

		for (unsigned i = 0; i < c->nfiles &&
				     n < sizeof out->source[0].text; i++)
			n += (size_t)snprintf(out->source[0].text + n,
					      sizeof out->source[0].text - n,
					      " %s", c->files[i]);
	}
	if (reads_back(out, err) < 0) {
		oom = 0;
		goto out;
	}
	rc = 0;
out:
	if (rc < 0 && oom)
		bs_error_set(err, "calibrate", 0, 0, "out of memory");
	free(v);
	free(dev);
	free(idx);
	bs_points_free(&ref);
	return rc;
}
