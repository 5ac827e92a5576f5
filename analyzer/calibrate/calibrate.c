/*
 * calibrate.c - bs_calib_run: the architecture that explains measured rows
 * (bs_calibrate.h says what is searched and in which order, calibrate.h
 * which file does what).  The run goes in steps: the distinct accesses
 * grouped by (kind, width), the bank geometry, each group's rule, the
 * latency tolerance from the noise, the latency lines, the architecture's
 * name and sources, and the architecture read back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"

/* The distinct accesses' indexes sorted into groups, and where each
 * group starts (start[n] is the end). */
typedef struct {
	size_t *idx;
	size_t n;
	size_t start[BS_MAX_KINDS * BS_NWIDTHS + 1];
} groups;

static int no_memory(bs_error *err)
{
	return bs_error_set(err, "calibrate", 0, 0, "out of memory");
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

/* The distinct accesses grouped by (kind, width); 0, or -1 out of memory. */
static int make_groups(const bs_calib *c, groups *gs)
{
	size_t *idx = malloc(c->n * sizeof *idx);

	gs->idx = idx;
	gs->n = 0;
	if (!idx)
		return -1;
	for (size_t i = 0; i < c->n; i++)
		idx[i] = i;
	sort_ctx = c;
	qsort(idx, c->n, sizeof *idx, cmp_group);
	for (size_t i = 0; i < c->n; i++)
		if (!i || c->row[idx[i]].a.kind != c->row[idx[i - 1]].a.kind ||
		    c->row[idx[i]].a.width != c->row[idx[i - 1]].a.width)
			gs->start[gs->n++] = i;
	gs->start[gs->n] = c->n;
	return 0;
}

/* g as the group k of gs. */
static void set_group(group *g, const groups *gs, size_t k)
{
	calib_set_group(g, gs->idx + gs->start[k],
			gs->start[k + 1] - gs->start[k]);
	g->kind = g->c->row[g->idx[0]].a.kind;
	g->width = g->c->row[g->idx[0]].a.width;
}

/* Is the group of a remote kind (priced by sectors, not banks)? */
static int remote_group(const group *g)
{
	return calib_noise_class(g->kind) == NOISE_REMOTE;
}

/*
 * The geometry whose best rules explain the most rows, first of equals;
 * open in res when another explains as many.  Remote kinds' rows take
 * no bank and say nothing of it.  A geometry is judged only as far as it
 * could still tie the best so far: once its groups have missed more rows
 * than the best missed in all, it is out (and when the best explains
 * every row, that is at the first group no candidate explains whole).
 * Its index into calib_geometries.
 */
static int choose_geometry(group *g, const groups *gs, bs_calib_result *res)
{
	const bs_calib *c = g->c;
	size_t rows = 0, best_total = 0, score[CALIB_NGEOM];
	int best = -1, out[CALIB_NGEOM];

	for (size_t k = 0; k < gs->n; k++) {
		set_group(g, gs, k);
		if (!remote_group(g))
			rows += g->n;
	}
	for (size_t gi = 0; gi < CALIB_NGEOM; gi++) {
		/* the rows this geometry may miss and still tie the best */
		size_t allowed = best < 0 ? rows : rows - best_total;

		score[gi] = 0;
		out[gi] = 0;
		for (size_t k = 0; k < gs->n && !out[gi]; k++) {
			size_t got, max_miss;
			bs_rule r;

			set_group(g, gs, k);
			if (remote_group(g))
				continue;
			max_miss = allowed < g->n ? allowed : g->n;
			got = calib_best_rule_within(g, &calib_geometries[gi],
						     &r, max_miss);
			if (got + max_miss < g->n) {
				out[gi] = 1;
				break;
			}
			score[gi] += got;
			allowed -= g->n - got;
		}
		if (c->progress)
			c->progress(c->progress_ctx, "bank geometries tried",
				    gi + 1, CALIB_NGEOM);
		if (!out[gi] && (best < 0 || score[gi] > best_total)) {
			best_total = score[gi];
			best = (int)gi;
		}
	}
	for (size_t gi = 0; gi < CALIB_NGEOM; gi++) {
		if ((int)gi == best || out[gi] || score[gi] != best_total)
			continue;
		if (calib_add_open(res, BS_KIND_NONE, 0, NULL, -1, "bank "
				   "geometry: the rows fit %u banks of %u "
				   "bytes and %u banks of %u bytes alike "
				   "(4-byte strides, as probe-stride measures "
				   "them, would settle it)",
				   calib_geometries[best].banks,
				   calib_geometries[best].bank_bytes,
				   calib_geometries[gi].banks,
				   calib_geometries[gi].bank_bytes) < 0)
			return -1;
		break;
	}
	return best;
}

/*
 * A bank group's rule under geo into r: its wavefront rule, what the rows
 * leave open, its ideal, the rows it misses, its throughput.  0, or -1
 * out of memory.
 */
static int bank_rule(group *g, const geometry *geo, const bs_arch *out,
		     bs_rule *r, bs_calib_result *res)
{
	int all = calib_best_rule(g, geo, r) == g->n;

	if (all && calib_check_open(g, geo, r, res) < 0)
		return -1;
	if (!all && (calib_extra_kinds(g) & 1) &&
	    !bs_arch_rule(out, BS_KIND_LD, g->width) &&
	    calib_add_open(res, g->kind, g->width, NULL, -1, "%u-byte %s: a "
			   "retry loop (loop=cas) loads by the ld %u rule, and "
			   "no %u-byte ld row was measured (probe-stride "
			   "measures them)", g->width, bs_kind_name(g->kind),
			   g->width, g->width) < 0)
		return -1;
	if (calib_choose_ideal(g, geo, r, res) < 0 ||
	    calib_list_misses(g, geo, r, res) < 0)
		return -1;
	calib_fit_throughput(g, geo, r);
	return 0;
}

/*
 * Each group's rule under geo into out: a bank kind's (bank_rule) or a
 * remote kind's, chosen by its sectors (remote.c).  0, or -1 with err.
 */
static int derive_rules(group *g, const groups *gs, const geometry *geo,
			bs_arch *out, bs_calib_result *res, bs_error *err)
{
	const bs_calib *c = g->c;

	for (size_t k = 0; k < gs->n; k++) {
		bs_rule r;

		set_group(g, gs, k);
		if ((remote_group(g) ? calib_remote_rule(g, &r, res)
				     : bank_rule(g, geo, out, &r, res)) < 0)
			return no_memory(err);
		if (bs_arch_set_rule(out, &r, err) < 0)
			return -1;
		if (c->progress)
			c->progress(c->progress_ctx, "rules derived", k + 1,
				    gs->n);
	}
	return 0;
}

/*
 * The latency tolerance of a noise class from its noise (bs_calibrate.h):
 * the spread of the rows, and the deviation of the timed rows about their
 * robust lines under the rules derived (a rule that misses the counters
 * its line counts says nothing of the noise), into tol.  0, or -1 out of
 * memory.
 */
static int latency_tolerance(group *g, const groups *gs, const geometry *geo,
			     const bs_arch *out, int noise,
			     bs_calib_tolerance *tol)
{
	const bs_calib *c = g->c;
	tpoint *v = malloc((c->n + 1) * sizeof *v);
	double *dev = malloc((c->n + 1) * sizeof *dev);
	double *lv = malloc((c->n + 1) * sizeof *lv);
	size_t ndev = 0, nlv = 0;
	int rc = -1;

	memset(tol, 0, sizeof *tol);
	if (!v || !dev || !lv)
		goto out;
	for (size_t k = 0; k < gs->n; k++) {
		const bs_rule *r;
		double slope, base[2];
		size_t nv;
		int frc;

		set_group(g, gs, k);
		r = bs_arch_rule(out, g->kind, g->width);
		if (calib_noise_class(g->kind) != noise ||
		    !bs_kind_get(g->kind)->returns || r->loop)
			continue;
		frc = calib_residuals(g, geo, r, v, &nv, &slope, base);
		if (frc == FIT_OOM)
			goto out;
		for (size_t i = 0; i < g->n; i++)
			if (c->row[g->idx[i]].off_x)
				frc = FIT_NO_ROWS;
		for (size_t i = 0; frc == FIT_OK && i < nv; i++)
			if (!isnan(v[i].y))
				dev[ndev++] = fabs(v[i].y);
		for (size_t i = 0; frc == FIT_OK && i < g->n; i++)
			if (!isnan(c->row[g->idx[i]].cycles))
				lv[nlv++] = c->row[g->idx[i]].cycles;
	}
	tol->spread = calib_spread_p90(c, noise);
	tol->sigma = ndev ? 1.4826 * calib_median(dev, ndev) : 0;
	tol->level = nlv ? calib_median(lv, nlv) : 0;
	tol->cycles = BS_CALIB_CYCLES_TOL;
	if (2 * tol->spread > tol->cycles)
		tol->cycles = 2 * tol->spread;
	/* the scatter about the lines widens it only while it is small
	 * beside the cycles: past that it is a finding, not noise */
	if (3 * tol->sigma > tol->cycles) {
		if (3 * tol->sigma <= BS_CALIB_SCATTER * tol->level)
			tol->cycles = 3 * tol->sigma;
		else
			tol->scattered = 1;
	}
	rc = 0;
out:
	free(v);
	free(dev);
	free(lv);
	return rc;
}

/* The latency line of each rule of a kind that returns a value, within
 * its noise class's tolerance, into out.  0, or -1 with err. */
static int fit_latencies(group *g, const groups *gs, const geometry *geo,
			 bs_arch *out, bs_calib_result *res, bs_error *err)
{
	for (size_t k = 0; k < gs->n; k++) {
		bs_rule r;
		double tol;

		set_group(g, gs, k);
		r = *bs_arch_rule(out, g->kind, g->width);
		if (!bs_kind_get(g->kind)->returns || r.loop)
			continue;
		tol = remote_group(g) ? res->remote.cycles : res->cycles_tol;
		if (calib_fit_latency(g, geo, &r, tol, res) < 0)
			return no_memory(err);
		if (bs_arch_set_rule(out, &r, err) < 0)
			return -1;
	}
	return 0;
}

/* The architecture's name, description, compute capability and source. */
static void name_profile(const bs_calib *c, const bs_calib_options *o,
			 bs_arch *out)
{
	char *text = out->source[0].text;
	size_t size = sizeof out->source[0].text, n;

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
	n = (size_t)snprintf(text, size, "measured on %s:",
			     c->gpu[0] ? c->gpu : "a GPU");
	for (unsigned i = 0; i < c->nfiles && n < size; i++)
		n += (size_t)snprintf(text + n, size - n, " %s", c->files[i]);
}

/* What is returned is what --arch reads: the architecture, read back. */
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
		bs_error_set(err, "calibrate", 0, 0, "the derived architecture "
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
	bs_calib_tolerance bank;
	const geometry *geo;
	groups gs;
	group g;
	int gi, rc = -1;

	memset(res, 0, sizeof *res);
	res->rows = c->rows;
	res->remote_rows = c->remote_rows;
	res->distinct = c->n;
	res->skipped = c->skipped;
	if (!c->n && c->noted)
		return bs_error_set(err, "calibrate", 0, 0, "no measured row: "
				    "%zu of the %zu rows carry a note, which "
				    "leaves them unjudged (the first: %s)%s",
				    c->noted, c->skipped, c->first_note,
				    c->noted < c->skipped ? "; the others hold "
				    "no counters" : "");
	if (!c->n)
		return bs_error_set(err, "calibrate", 0, 0, "no measured row: "
				    "the datasets hold no counters (measure "
				    "with bankscope-probe --measure counters)");
	if (make_groups(c, &gs) < 0 || bs_family_points(NULL, &ref) < 0) {
		free(gs.idx);
		bs_points_free(&ref);
		return no_memory(err);
	}
	calib_finish(c);
	memset(&g, 0, sizeof g);
	g.c = c;
	g.ref = &ref;
	if ((gi = choose_geometry(&g, &gs, res)) < 0) {
		no_memory(err);
		goto out;
	}
	geo = &calib_geometries[gi];
	bs_arch_init(out);
	out->banks = geo->banks;
	out->bank_bytes = geo->bank_bytes;
	g.built = out;
	if (derive_rules(&g, &gs, geo, out, res, err) < 0)
		goto out;
	if (latency_tolerance(&g, &gs, geo, out, NOISE_BANK, &bank) < 0 ||
	    latency_tolerance(&g, &gs, geo, out, NOISE_REMOTE,
			      &res->remote) < 0) {
		no_memory(err);
		goto out;
	}
	res->cycles_tol = bank.cycles;
	res->spread = bank.spread;
	res->sigma = bank.sigma;
	for (int k = 0; k < 2; k++) {
		const bs_calib_tolerance *t = k ? &res->remote : &bank;

		if (t->scattered &&
		    calib_add_open(res, BS_KIND_NONE, 0, NULL, -1, "%slatency: "
				   "the timed rows lie %.2f cycles (3 robust "
				   "deviations) about their lines, which their "
				   "own spread (%.2f) does not explain and "
				   "over %.0f%% of their median %.2f cycles: "
				   "the tolerance stays %.2f cycles, and the "
				   "rows past it are named", k ? "remote " : "",
				   3 * t->sigma, t->spread,
				   100 * BS_CALIB_SCATTER, t->level,
				   t->cycles) < 0) {
			no_memory(err);
			goto out;
		}
	}
	if (fit_latencies(&g, &gs, geo, out, res, err) < 0)
		goto out;
	name_profile(c, o, out);
	res->judged = c->judged;
	rc = reads_back(out, err);
out:
	free(gs.idx);
	bs_points_free(&ref);
	return rc;
}
