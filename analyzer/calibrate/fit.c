/*
 * fit.c - the numbers of a chosen rule that cycles and throughputs give:
 * the latency line (a robust line, then least squares over the rows
 * within the tolerance of it, rounded when rounding costs nothing) with
 * the rows it misses, and the throughput of the conflict-free rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"

/* Round to whole cycles, or to 2 decimals; never -0. */
static double fit_round(double v, int whole)
{
	return (whole ? floor(v + 0.5) : floor(v * 100 + 0.5) / 100) + 0.0;
}

static int cmp_tpoint(const void *pa, const void *pb)
{
	const tpoint *a = pa, *b = pb;

	if (a->k != b->k)
		return a->k < b->k ? -1 : 1;
	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return a->y < b->y ? -1 : a->y > b->y;
}

/*
 * The group's timed rows under the rule, sorted by packing and x: the
 * measured wavefronts, or the sectors a remote rule moves (what its
 * latency line counts, bs_remote_predict).
 */
static size_t timed(group *g, const geometry *geo, const bs_rule *r,
		    tpoint *v)
{
	size_t n = 0;
	bs_summary s;

	calib_one_rule(g, geo, r);
	for (size_t i = 0; i < g->n; i++) {
		const mrow *m = &g->c->row[g->idx[i]];

		if (isnan(m->cycles) ||
		    bs_predict(&g->scratch, &m->a, &s, NULL) < 0)
			continue;
		v[n++] = (tpoint){ r->remote ? s.sectors : m->wf, m->cycles,
				   !!s.packed, g->idx[i] };
	}
	qsort(v, n, sizeof *v, cmp_tpoint);
	return n;
}

double calib_median(double *v, size_t n)
{
	double lo, med;

	return bs_min_median(v, n, &lo, &med) == 0 ? med : NAN;
}

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
		py[np++] = calib_median(y, j - i);
	}
	sl = malloc((np * np / 2 + 1) * sizeof *sl);
	if (!sl) {
		rc = FIT_OOM;
		goto out;
	}
	for (size_t i = 0; i < np; i++)
		for (size_t j = i + 1; j < np && pk[j] == pk[i]; j++)
			sl[ns++] = (py[j] - py[i]) / (px[j] - px[i]);
	*slope = ns ? calib_median(sl, ns) : NAN;
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
		base[k] = m ? calib_median(y, m) : NAN;
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
int calib_residuals(group *g, const geometry *geo, const bs_rule *r,
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
 * cycles = slope * x + base (lat_packed for packed requests), x the
 * wavefronts (a remote rule: sectors), least squares over the rows within
 * tol of the robust line, into r; rounded to whole cycles when that moves
 * none of those rows past tol.  v (room for g->n) is left holding the
 * timed rows and their residuals from the robust line, *x the first
 * row's x.
 */
static int fit_line(group *g, const geometry *geo, bs_rule *r, double tol,
		    tpoint *v, size_t *nv, double *x)
{
	double sxx = 0, sxy = 0, sx[2] = { 0, 0 }, sy[2] = { 0, 0 };
	double slope, base[2], worst;
	size_t n[2] = { 0, 0 };
	bs_summary s;
	bs_rule t;
	int rc = calib_residuals(g, geo, r, v, nv, &slope, base);

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
				sx[k] += v[i].x;
				sy[k] += m->cycles;
			} else {
				/* one slope, an intercept per packing */
				double dx = v[i].x - sx[k] / n[k];

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
		calib_one_rule(g, geo, &t);
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

/* A latency an arch file holds: at least 0, at most 1e9 cycles. */
static int holdable(double v)
{
	return isnan(v) || (v >= 0 && v <= 1e9);
}

/*
 * Fit the chosen rule's latency; name the rows the line misses by more
 * than tol (those left out of the fit as outliers); leave the latency
 * out, and the rule open, when the line is not one an architecture can hold.
 */
int calib_fit_latency(group *g, const geometry *geo, bs_rule *r, double tol,
		       bs_calib_result *res)
{
	tpoint *v = malloc((g->n + 1) * sizeof *v);
	const char *per = r->remote ? "sectors" : "wavefronts";
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
		return calib_add_open(res, g->kind, g->width, NULL, -1, "latency "
				"slope of %u-byte %s: every timed row has %g "
				"%s (%s, would settle it)", g->width,
				bs_kind_name(g->kind), x, per, r->remote
				? "rows of more sectors, as probe-dsmem "
				  "times" : "rows with conflicts, as "
				  "probe-stride times");
	}
	if (!holdable(r->lat_slope) || !holdable(r->lat_base) ||
	    !holdable(r->lat_packed)) {
		double slope = r->lat_slope, base = r->lat_base;

		free(v);
		r->lat_slope = r->lat_base = r->lat_packed = NAN;
		return calib_add_open(res, g->kind, g->width, NULL, -1, "latency of "
				"%u-byte %s: the timed rows give the line %.2f + "
				"%.2f x %s, which no arch file holds (cycles "
				"from 0 to 1e9): not written", g->width,
				bs_kind_name(g->kind), base, slope, per);
	}
	calib_one_rule(g, geo, r);
	for (size_t i = 0; i < nv; i++) {
		mrow *m = &g->c->row[v[i].row];
		kept_view kv = calib_kept(g->c, m);
		bs_calib_miss *miss;
		char lat[64];

		/* a row far from the other rows of its access */
		for (unsigned k = 0; k < m->ncyc; k++) {
			if (fabs(kv.cyc[k] - m->cycles) <= tol)
				continue;
			if (!(miss = calib_add_miss(g->c, res, m, r, 1))) {
				free(v);
				return -1;
			}
			snprintf(miss->file, sizeof miss->file, "%s",
				 g->c->files[kv.cyc_file[k]]);
			miss->line = kv.cyc_line[k];
			miss->latency = 1;
			snprintf(miss->what, sizeof miss->what, "measured %.2f "
				 "cycles, the %zu rows of this access %.2f "
				 "(their median): an outlier, left out of the "
				 "fit", kv.cyc[k], m->count, m->cycles);
		}
		if (bs_predict(&g->scratch, &m->a, &s, NULL) < 0 ||
		    fabs(m->cycles - s.latency_cycles) <= tol)
			continue;
		if (!(miss = calib_add_miss(g->c, res, m, r, m->count))) {
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
void calib_fit_throughput(group *g, const geometry *geo, bs_rule *r)
{
	double *v, med, lo;
	size_t k = 0, all = 0;

	/* a loop's cycles follow its passes; a remote access takes no bank
	   slot, so no row of it is a conflict-free one */
	if (r->loop || r->remote)
		return;
	for (size_t i = 0; i < g->n; i++)
		all += g->c->row[g->idx[i]].ntp;
	if (!(v = malloc((all + 1) * sizeof *v)))
		return;
	calib_one_rule(g, geo, r);
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
			/* each row kept, not the access */
			v[k++] = calib_kept(g->c, (mrow *)m).tpv[j];
	}
	/* none written that an architecture cannot hold */
	if (k && bs_min_median(v, k, &lo, &med) == 0 && holdable(med))
		r->tp_bytes_per_clk = floor(med * 100 + 0.5) / 100 + 0.0;
	free(v);
}
