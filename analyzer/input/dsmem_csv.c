/*
 * dsmem_csv.c - bankscope-dsmem's own CSV layout, read as dataset rows.
 *
 * probes/dsmem/dsmem.cu writes
 *
 *   name,op,width,target,holdout,active_lanes,offsets,sm0,sm1,
 *   cycles_median,cycles_min,check,<counter>.sum,...
 *
 * one line per point and target (docs/probes/dsmem.md); its counters are
 * already per warp instruction.  A header with target or offsets and no
 * probe, or any header of a file whose metadata opens with
 * "# bankscope-dsmem:", is this layout; name, op, width, target and offsets are required,
 * every other column is optional, and columns this reader does not know
 * (holdout, sm0, sm1, the counters it does not use) are ignored.  Each
 * line becomes a row of probe "dsmem", its name as is, its offsets as the
 * addresses, and a kind by its target:
 *
 *   local   the op's own kind (ld, st, atom.add.u32; red.add1.u32 for
 *           red, below): the CTA's own shared memory, judged by banks;
 *           wavefronts and conflicts from the shared-memory counters of
 *           the op's pipe (ld, st, atom: red is counted as an atom);
 *   remote  "dsmem." + op: another CTA's, on another SM; wavefronts from
 *           the dshared output wavefronts, sectors from the crossbar's read
 *           sectors (research/dsmem/analyze.py: both equal the write
 *           sectors on every row); no conflicts (no bank counter sees it);
 *   self    the control, the CTA's own shared memory through a cluster
 *           address: a note, so check skips it.
 *
 * A row whose check is not "ok" gets a note too: its data check failed.
 * Empty counter fields (a --no-counters run) give timing-only rows.
 * Errors name the file, line and column, as the dataset reader's do.
 */
#include <stdlib.h>
#include <string.h>

#include "dataset.h"

enum { F_NAME, F_OP, F_WIDTH, F_TARGET, F_OFFSETS, F_REQUIRED = F_OFFSETS,
       F_ACTIVE, F_CYC_MEDIAN, F_CYC_MIN, F_CHECK, F_COUNT };

static const char *const fixed_name[F_COUNT] = {
	"name", "op", "width", "target", "offsets", "active_lanes",
	"cycles_median", "cycles_min", "check",
};

/* The counters read, per pipe: the op's suffix in the counter names. */
enum { C_LOCAL_WF, C_LOCAL_BC, C_REMOTE_WF, C_REMOTE_SECTORS, C_COUNT };
enum { P_LD, P_ST, P_ATOM, P_COUNT };

static const char *const counter_fmt[C_COUNT] = {
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum",
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum",
	"l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_%s.sum",
	"l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_%s.sum",
};
static const char *const pipe_name[P_COUNT] = { "ld", "st", "atom" };

/*
 * The ops, their local kind and their counters' pipe.  The probe's red
 * adds 1 (red.shared.add.u32 [a], 1), which ptxas compiles to
 * ATOMS.POPC.INC.32 (data/h200/dsmem-20261127/dsmem.sass): the kind
 * red.add1.u32, whose lanes on one word share a wavefront, not
 * red.add.u32's ATOMS.ADD.  Remotely it is dsmem.red.add.u32.
 */
static const struct {
	const char *op, *local;
	int pipe;
} ops[] = {
	{ "ld", "ld", P_LD }, { "st", "st", P_ST },
	{ "red.add.u32", "red.add1.u32", P_ATOM },
	{ "atom.add.u32", "atom.add.u32", P_ATOM },
};
#define NOPS ((int)(sizeof ops / sizeof *ops))

enum { T_LOCAL, T_SELF, T_REMOTE };
static const char *const target_name[] = { "local", "self", "remote" };

/* The header field of each column read, or -1. */
struct dsmem_cols {
	int fixed[F_COUNT];
	int counter[P_COUNT][C_COUNT];
};

static int header_has(const bs_dataset *d, const char *name)
{
	for (int i = 0; i < d->nfld; i++)
		if (!strcmp(d->fld[i].text, name))
			return 1;
	return 0;
}

/* The slot of a column this reader knows, or NULL. */
static int *slot_of(dsmem_cols *c, const char *name)
{
	char want[96];

	for (int f = 0; f < F_COUNT; f++)
		if (!strcmp(name, fixed_name[f]))
			return &c->fixed[f];
	for (int p = 0; p < P_COUNT; p++)
		for (int k = 0; k < C_COUNT; k++) {
			snprintf(want, sizeof want, counter_fmt[k],
				 pipe_name[p]);
			if (!strcmp(name, want))
				return &c->counter[p][k];
		}
	return NULL;
}

/* The file says it is bankscope-dsmem's: its "# bankscope-dsmem:" line. */
static int meta_says_dsmem(const bs_dataset *d)
{
	for (int i = 0; i < d->nmeta; i++)
		if (!strcmp(d->meta[i].key, "bankscope-dsmem"))
			return 1;
	return 0;
}

int dsmem_header(bs_dataset *d, bs_error *err)
{
	dsmem_cols *c;

	/* This layout by either of its own columns or by its first line, so
	 * that a file lacking one is told so, not read as the bank layout. */
	if (header_has(d, "probe") || (!header_has(d, "target") &&
	    !header_has(d, "offsets") && !meta_says_dsmem(d)))
		return 0;
	c = malloc(sizeof *c);
	if (!c)
		return DS_FAIL(d, 0, "out of memory");
	memset(c, 0xff, sizeof *c);     /* every slot -1 */
	d->dsmem = c;
	d->ncols = d->nfld;
	for (int i = 0; i < d->nfld; i++) {
		int *s = slot_of(c, d->fld[i].text);

		if (!s)
			continue;
		if (*s >= 0)
			return DS_FAIL(d, d->fld[i].col, "column '%s' appears "
				       "twice in the header", d->fld[i].text);
		*s = i;
	}
	for (int f = 0; f <= F_REQUIRED; f++)
		if (c->fixed[f] < 0)
			return DS_FAIL(d, 0, "the header lacks the required "
				       "column '%s' (bankscope-dsmem's layout: "
				       "name,op,width,target,...,offsets)",
				       fixed_name[f]);
	return 1;
}

void dsmem_free(dsmem_cols *c)
{
	free(c);
}

/* The field of column f, or NULL when the header has none. */
static const ds_field *field_of(const bs_dataset *d, int f)
{
	int i = d->dsmem->fixed[f];

	return i < 0 ? NULL : &d->fld[i];
}

/* op and target: the index into ops and the target; -1 with err. */
static int op_target(bs_dataset *d, int *op, int *target, bs_error *err)
{
	const ds_field *o = field_of(d, F_OP), *t = field_of(d, F_TARGET);

	for (*op = 0; *op < NOPS && strcmp(o->text, ops[*op].op); ++*op)
		;
	if (*op == NOPS)
		return DS_FAIL(d, o->col, "column 'op': '%.20s' is not ld, st, "
			       "red.add.u32 or atom.add.u32", o->text);
	for (*target = 0; *target < 3 &&
	     strcmp(t->text, target_name[*target]); ++*target)
		;
	if (*target == 3)
		return DS_FAIL(d, t->col, "column 'target': '%.20s' is not "
			       "local, self or remote", t->text);
	return 0;
}

/* Name, width, kind (by op and target) and addresses (the offsets). */
static int access_of(bs_dataset *d, int op, int target, bs_row *row,
		     bs_error *err)
{
	const ds_field *w = field_of(d, F_WIDTH), *a = field_of(d, F_ACTIVE);
	bs_access *acc = &row->access;
	char kind[32], allowed[32];

	if (dataset_string(d, field_of(d, F_NAME), "name", acc->name,
			   sizeof acc->name, 1, err) < 0 ||
	    dataset_width(d, w, "width", &acc->width, err) < 0)
		return -1;
	if (target == T_REMOTE)
		snprintf(kind, sizeof kind, "dsmem.%s", ops[op].op);
	else
		snprintf(kind, sizeof kind, "%s", ops[op].local);
	if (bs_kind_find(kind, &acc->kind) < 0)
		return DS_FAIL(d, field_of(d, F_OP)->col, "column 'op': no "
			       "kind %s (bankscope archs --kinds)", kind);
	if (!bs_kind_allows_width(acc->kind, acc->width)) {
		bs_kind_widths_text(acc->kind, allowed, sizeof allowed);
		return DS_FAIL(d, w->col, "column 'width': %s takes a width "
			       "of %s bytes, not %u", kind, allowed,
			       acc->width);
	}
	if (dataset_addresses(d, field_of(d, F_OFFSETS), "offsets", row,
			      err) < 0)
		return -1;
	return a ? dataset_active(d, a, row, err) : 0;
}

/* A number column read as a dataset number; NaN when absent. */
static int number_of(bs_dataset *d, int i, const char *name, double *out,
		     bs_error *err)
{
	if (i < 0) {
		*out = NAN;
		return 0;
	}
	return dataset_number(d, &d->fld[i], name, out, err);
}

/* Cycles and the counters of the row's target and pipe. */
static int numbers_of(bs_dataset *d, int pipe, int target, bs_row *row,
		      bs_error *err)
{
	const dsmem_cols *c = d->dsmem;
	double v[P_COUNT][C_COUNT];

	if (number_of(d, c->fixed[F_CYC_MEDIAN], "cycles_median",
		      &row->cycles_per_access_median, err) < 0 ||
	    number_of(d, c->fixed[F_CYC_MIN], "cycles_min",
		      &row->cycles_per_access_min, err) < 0)
		return -1;
	/* every counter read is checked, whichever the row uses */
	for (int p = 0; p < P_COUNT; p++)
		for (int k = 0; k < C_COUNT; k++) {
			char name[96];

			snprintf(name, sizeof name, counter_fmt[k],
				 pipe_name[p]);
			if (number_of(d, c->counter[p][k], name, &v[p][k],
				      err) < 0)
				return -1;
		}
	if (target == T_LOCAL) {
		row->wavefronts_measured = v[pipe][C_LOCAL_WF];
		row->bank_conflicts_measured = v[pipe][C_LOCAL_BC];
	} else if (target == T_REMOTE) {
		row->wavefronts_measured = v[pipe][C_REMOTE_WF];
		row->sectors_measured = v[pipe][C_REMOTE_SECTORS];
	}
	return 0;
}

/* Why check skips the row, or nothing. */
static void note_of(const bs_dataset *d, int target, bs_row *row)
{
	const ds_field *ck = field_of(d, F_CHECK);

	if (target == T_SELF)
		snprintf(row->note, sizeof row->note, "self: the control "
			 "target (its own shared memory through a cluster "
			 "address), not modeled");
	else if (ck && strcmp(ck->text, "ok"))
		snprintf(row->note, sizeof row->note, "check '%.40s': the "
			 "probe's data check failed", ck->text);
}

int dsmem_row(bs_dataset *d, bs_row *row, bs_error *err)
{
	int op, target;

	bs_row_init(row);
	snprintf(row->probe, sizeof row->probe, "dsmem");
	if (op_target(d, &op, &target, err) < 0 ||
	    access_of(d, op, target, row, err) < 0 ||
	    numbers_of(d, ops[op].pipe, target, row, err) < 0)
		return -1;
	note_of(d, target, row);
	return 0;
}
