/*
 * data.c - the browser lab's datasets: a dataset CSV read with the
 * library's reader (so a bad file names its first bad line as bankscope
 * check does), each row judged as check judges it (counters within 1e-6
 * of the prediction; a note skips the row, no counters make it timing
 * only, a kind the architecture lacks is not modeled), and the rows kept for
 * the page's charts and its side-by-side of two GPUs.  Two slots, 0 and
 * 1.  The results go through lab.c's arrays (web_res, web_num, web_str).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"

/* Exported from the module; a plain function elsewhere (the tests). */
#ifdef __wasm__
#define EXPORT(name) __attribute__((export_name(#name)))
#else
#define EXPORT(name)
#endif

/* lab.c's */
uint32_t *web_res(int slot);
double *web_num(int slot);
const char *web_text(int i);

/* The verdict of one row. */
enum { V_AGREE, V_DISAGREE, V_SKIPPED, V_TIMING, V_NOT_MODELED };

typedef struct {
	long line;
	uint8_t kind, width, active, verdict, packed;
	char probe[32];
	char name[BS_NAME_MAX];
	/* (9 numbers: lab.c's web_num(3) holds WD_SIZE, 16)
	   measured: wavefronts, conflicts; predicted: wavefronts, ideal,
	   conflicts, latency; timing: cycles median, bytes and wavefronts
	   per clock per SM */
	double v[9];
} row;

typedef struct {
	row *rows;
	size_t n;
	int nmeta;
	bs_meta meta[BS_META_MAX];
	char profile[BS_ARCH_NAME_MAX];
	unsigned long count[5];          /* by verdict */
} data;

static data set[2];
static char error[640];

EXPORT(web_data_error) const char *web_data_error(void)
{
	return error;
}

static int data_fail(const bs_error *err)
{
	bs_error_format(err, error, sizeof error);
	return -1;
}

static int judge(const bs_arch *p, const bs_row *r, row *o,
		 bs_error *err)
{
	bs_summary s;

	memset(o->v + 2, 0, 4 * sizeof *o->v);
	o->v[2] = o->v[3] = o->v[4] = o->v[5] = NAN;
	if (r->note[0])
		return V_SKIPPED;
	if (!p || !bs_arch_rule(p, r->access.kind, r->access.width))
		return V_NOT_MODELED;
	if (bs_predict(p, &r->access, &s, err) < 0)
		return -1;
	o->v[2] = s.wavefronts;
	o->v[3] = s.ideal_wavefronts;
	o->v[4] = s.bank_conflicts;
	o->v[5] = s.latency_cycles;
	o->packed = (uint8_t)s.packed;
	if (isnan(r->wavefronts_measured))
		return V_TIMING;
	return fabs(r->wavefronts_measured - s.wavefronts) <= 1e-6 &&
	       (isnan(r->bank_conflicts_measured) ||
		fabs(r->bank_conflicts_measured - s.bank_conflicts) <= 1e-6)
	       ? V_AGREE : V_DISAGREE;
}

/*
 * Read the dataset in buffer 0 (its length len), named by buffer 1, into
 * slot id: the number of rows, or -1 with web_data_error() naming the
 * file, line and column of the first bad line.  The slot is emptied
 * first, so a failed read leaves no old rows behind.
 */
EXPORT(web_dataset) long web_dataset(int id, size_t len)
{
	data *D = &set[id & 1];
	const char *text = web_text(0), *name = web_text(1);
	const bs_arch *p;
	const char *meta;
	bs_dataset *d;
	bs_error err;
	bs_row r;
	FILE *f;
	size_t cap = 0;
	int rc;

	free(D->rows);
	memset(D, 0, sizeof *D);
	error[0] = '\0';
	f = fmemopen((void *)text, len, "r");
	if (!f) {
		bs_error_set(&err, "dataset", 0, 0, "cannot read it");
		return data_fail(&err);
	}
	d = bs_dataset_open(f, *name ? name : "dataset", &err);
	if (!d) {
		fclose(f);
		return data_fail(&err);
	}
	meta = bs_dataset_arch(d, NULL);
	if (meta && !strncmp(meta, "none", 4))
		p = NULL;
	else
		p = meta ? bs_arch_find(meta) : bs_arch_default();
	snprintf(D->profile, sizeof D->profile, "%s", p ? p->name : "");
	D->nmeta = bs_dataset_nmeta(d);
	for (int i = 0; i < D->nmeta && i < BS_META_MAX; i++)
		D->meta[i] = *bs_dataset_meta_at(d, i);
	while ((rc = bs_dataset_next(d, &r, &err)) > 0) {
		row *o;

		if (bs_grow(&D->rows, &cap, D->n, 1024, sizeof *D->rows) < 0) {
			bs_error_set(&err, "dataset", 0, 0, "out of memory");
			rc = -1;
			break;
		}
		o = &D->rows[D->n];
		memset(o, 0, sizeof *o);
		o->line = bs_dataset_line(d);
		o->kind = r.access.kind;
		o->width = (uint8_t)r.access.width;
		o->active = (uint8_t)__builtin_popcount(r.access.active);
		snprintf(o->probe, sizeof o->probe, "%s", r.probe);
		snprintf(o->name, sizeof o->name, "%s", r.access.name);
		o->v[0] = r.wavefronts_measured;
		o->v[1] = r.bank_conflicts_measured;
		o->v[6] = r.cycles_per_access_median;
		o->v[7] = r.tp_bytes_per_clk_per_sm;
		o->v[8] = r.tp_wavefronts_per_clk_per_sm;
		rc = judge(p, &r, o, &err);
		if (rc < 0) {
			err.line = o->line;
			break;
		}
		o->verdict = (uint8_t)rc;
		D->count[rc]++;
		D->n++;
	}
	bs_dataset_close(d);
	fclose(f);
	if (rc < 0) {
		free(D->rows);
		memset(D, 0, sizeof *D);
		return data_fail(&err);
	}
	return (long)D->n;
}

/*
 * Slot id's totals into web_res(2): rows, then the counts of agree,
 * disagree, skipped, timing only, not modeled, then the metadata lines.
 */
EXPORT(web_data_sum) int web_data_sum(int id)
{
	data *D = &set[id & 1];
	uint32_t *o = web_res(2);

	o[0] = (uint32_t)D->n;
	for (int i = 0; i < 5; i++)
		o[1 + i] = (uint32_t)D->count[i];
	o[6] = (uint32_t)D->nmeta;
	return 0;
}

EXPORT(web_data_profile) const char *web_data_profile(int id)
{
	return set[id & 1].profile;
}

/* Metadata line i of slot id: its key (what 0) or value (what 1). */
EXPORT(web_data_meta) const char *web_data_meta(int id, int i, int what)
{
	data *D = &set[id & 1];

	if (i < 0 || i >= D->nmeta)
		return "";
	return what ? D->meta[i].value : D->meta[i].key;
}

/*
 * Row i of slot id: web_res(3) gets line, kind, width, active lanes,
 * verdict, packed; web_num(3) the nine numbers (row.v, NaN where not
 * measured or not modeled).  Returns its name; the probe's with
 * web_data_probe().
 */
EXPORT(web_data_row) const char *web_data_row(int id, size_t i)
{
	data *D = &set[id & 1];
	uint32_t *o = web_res(3);
	double *v = web_num(3);
	const row *r;

	if (i >= D->n)
		return NULL;
	r = &D->rows[i];
	o[0] = (uint32_t)r->line;
	o[1] = r->kind;
	o[2] = r->width;
	o[3] = r->active;
	o[4] = r->verdict;
	o[5] = r->packed;
	memcpy(v, r->v, sizeof r->v);
	return r->name;
}

EXPORT(web_data_probe) const char *web_data_probe(int id, size_t i)
{
	data *D = &set[id & 1];

	return i < D->n ? D->rows[i].probe : "";
}

EXPORT(web_kind_name) const char *web_kind_name(int k)
{
	return k >= 0 && (unsigned)k < bs_kind_count() ? bs_kind_name(
							 (bs_kind)k) : "";
}

EXPORT(web_kind_count) unsigned web_kind_count(void)
{
	return bs_kind_count();
}

/* Bit i: the kind allows width bs_widths[i]. */
EXPORT(web_kind_widths) unsigned web_kind_widths(int k)
{
	const bs_kind_info *ki = bs_kind_get((bs_kind)k);

	return ki ? ki->widths : 0;
}

EXPORT(web_kind_what) const char *web_kind_what(int k)
{
	const bs_kind_info *ki = bs_kind_get((bs_kind)k);

	return ki ? ki->what : "";
}

EXPORT(web_version) const char *web_version(void)
{
	return bs_version();
}
