/*
 * intake.c - calibrate's rows in: each measured row joins its distinct
 * access (a hash table keyed by the access and its counters), which keeps
 * the first row's place, a row count and up to KEEP cycles and
 * throughputs; the spread of the timings is binned as it comes, that of
 * remote kinds apart.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"

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
	free(c->kept);
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
static uint64_t row_hash(const bs_access *a, double wf, double bc,
			 double sec)
{
	uint64_t h = mix(mix(mix(1469598103934665603u, a->kind), a->width),
			 a->active);

	for (unsigned l = 0; l < BS_LANES; l++)
		if (a->active >> l & 1)
			h = mix(h, a->addr[l]);
	return mix(mix(mix(h, bits(wf)), bits(bc)), bits(sec));
}

static int same_key(const mrow *m, const bs_access *a, double wf, double bc,
		    double sec)
{
	if (m->a.kind != a->kind || m->a.width != a->width ||
	    m->a.active != a->active || bits(m->wf) != bits(wf) ||
	    bits(m->bc) != bits(bc) || bits(m->sec) != bits(sec))
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
		size_t h = row_hash(&m->a, m->wf, m->bc, m->sec) & (nb - 1);

		m->next = b[h];
		b[h] = i + 1;
	}
	return 0;
}

int calib_noise_class(bs_kind kind)
{
	return bs_kind_get(kind)->remote ? NOISE_REMOTE : NOISE_BANK;
}

kept_view calib_kept(const bs_calib *c, mrow *m)
{
	kept *k;

	if (!m->kept)
		return (kept_view){ &m->cyc1, &m->tpv1, &m->cyc_line1,
				    &m->cyc_file1 };
	k = &c->kept[m->kept - 1];
	return (kept_view){ k->cyc, k->tpv, k->cyc_line, k->cyc_file };
}

/* Room for a second value of an access: its first moves to the pool. */
static int keep_more(bs_calib *c, mrow *m)
{
	kept *k;

	if (m->kept)
		return 0;
	if (c->nkept >= UINT_MAX - 1 ||
	    bs_grow(&c->kept, &c->kept_cap, c->nkept, 64, sizeof *c->kept) < 0)
		return -1;
	k = &c->kept[c->nkept++];
	k->cyc[0] = m->cyc1;
	k->tpv[0] = m->tpv1;
	k->cyc_line[0] = m->cyc_line1;
	k->cyc_file[0] = m->cyc_file1;
	m->kept = (unsigned)c->nkept;
	return 0;
}

static void add_spread(bs_calib *c, int noise, double d)
{
	double bin = fabs(d) * 100 + 0.5;

	c->spread[noise][bin < SPREAD_BINS - 1 ? (size_t)bin
					       : SPREAD_BINS - 1]++;
	c->nspread[noise]++;
}

int bs_calib_add_row(bs_calib *c, const bs_row *r, const char *file,
		     long line)
{
	const bs_access *a = &r->access;
	double wf = r->wavefronts_measured, bc = r->bank_conflicts_measured;
	double sec = NAN;
	int noise = calib_noise_class(a->kind);
	size_t h, i;
	mrow *m;

	/*
	 * A remote kind (distributed shared memory) is priced by the sectors
	 * the network moves: a row of one without them is unmeasured.  A
	 * bank kind's sectors are none of its rule's business.
	 */
	if (noise == NOISE_REMOTE)
		sec = r->sectors_measured;
	if (r->note[0] || isnan(wf) || (noise == NOISE_REMOTE && isnan(sec))) {
		if (r->note[0] && !c->noted++)
			snprintf(c->first_note, sizeof c->first_note, "%.80s",
				 r->note);
		c->skipped++;
		return 0;
	}
	if (2 * c->n >= c->nbucket && rehash(c) < 0)
		return -1;
	h = row_hash(a, wf, bc, sec) & (c->nbucket - 1);
	for (i = c->bucket[h]; i && !same_key(&c->row[i - 1], a, wf, bc, sec);
	     i = c->row[i - 1].next)
		;
	if (i) {
		m = &c->row[i - 1];
	} else {
		unsigned fi;

		if (bs_grow(&c->row, &c->cap, c->n, 1024, sizeof *c->row) < 0)
			return -1;
		if (file_index(c, file ? file : "", &fi) < 0)
			return -1;
		m = &c->row[c->n++];
		memset(m, 0, sizeof *m);
		m->a = *a;
		m->a.src = NULL;
		m->wf = wf;
		m->bc = bc;
		m->sec = sec;
		m->file = fi;
		m->line = line;
		m->next = c->bucket[h];
		c->bucket[h] = c->n;
	}
	m->count++;
	c->rows++;
	c->remote_rows += noise == NOISE_REMOTE;
	if (((m->ncyc == 1 && !isnan(r->cycles_per_access_median)) ||
	     (m->ntp == 1 && !isnan(r->tp_bytes_per_clk_per_sm))) &&
	    keep_more(c, m) < 0)
		return -1;
	if (!isnan(r->cycles_per_access_median)) {
		if (m->ncyc < KEEP) {
			kept_view k = calib_kept(c, m);
			unsigned fi;

			if (file_index(c, file ? file : "", &fi) < 0)
				return -1;
			k.cyc_file[m->ncyc] = fi;
			k.cyc_line[m->ncyc] = line;
			k.cyc[m->ncyc++] = r->cycles_per_access_median;
		}
		if (!isnan(r->cycles_per_access_min))
			add_spread(c, noise, r->cycles_per_access_median -
					     r->cycles_per_access_min);
	}
	if (!isnan(r->tp_bytes_per_clk_per_sm) && m->ntp < KEEP)
		calib_kept(c, m).tpv[m->ntp++] = r->tp_bytes_per_clk_per_sm;
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

/* ---- the noise ---------------------------------------------------------- */

void calib_finish(bs_calib *c)
{
	if (c->final)
		return;
	c->final = 1;
	for (size_t i = 0; i < c->n; i++) {
		mrow *m = &c->row[i];
		kept_view k = calib_kept(c, m);
		double v[KEEP];

		memcpy(v, k.cyc, m->ncyc * sizeof *v);
		m->cycles = m->ncyc ? calib_median(v, m->ncyc) : NAN;
		m->tp = m->ntp ? calib_median(k.tpv, m->ntp) : NAN;
		m->uniform = 0;
		for (unsigned b = 0; b < 5; b++)
			m->uniform |= (uint8_t)(bs_pairwise_uniform(&m->a,
								    1u << b)
						<< b);
		for (unsigned j = 0; m->ncyc > 1 && j < m->ncyc; j++)
			add_spread(c, calib_noise_class(m->a.kind),
				   k.cyc[j] - m->cycles);
	}
}

double calib_spread_p90(const bs_calib *c, int noise)
{
	size_t want = (c->nspread[noise] * 9 + 9) / 10, seen = 0;

	for (size_t b = 0; b < SPREAD_BINS && c->nspread[noise]; b++)
		if ((seen += c->spread[noise][b]) >= want)
			return b / 100.0;
	return 0;
}
