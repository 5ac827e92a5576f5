/*
 * check_remote.c - bs_remote_geometry against the remote rows of the
 * committed DSMEM run (data/h200/dsmem-20261127/dsmem-a.csv, an H200):
 * the sectors a remote load moves (l1tex__m_xbar2l1tex_read_sectors_mem_
 * dshared_op_ld) are the distinct sectors of its addresses, and an atomic
 * moves two per pass (..._op_atom, red included) on every row the
 * measurements agree on; plus hand-made accesses with known counts.
 * Tests run from the repository's root.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

#define DSMEM_CSV "data/h200/dsmem-20261127/dsmem-a.csv"

static bs_access lanes(unsigned width, const int *off)
{
	bs_access a;

	memset(&a, 0, sizeof a);
	a.width = width;
	for (unsigned l = 0; l < BS_LANES; l++)
		if (off[l] >= 0) {
			a.active |= 1u << l;
			a.addr[l] = (uint32_t)off[l];
		}
	return a;
}

START_TEST(test_hand_made)
{
	int off[BS_LANES];
	bs_remote r;
	bs_access a;

	for (int l = 0; l < BS_LANES; l++)
		off[l] = 4 * l;              /* stride 1: 4 sectors, 1 line */
	a = lanes(4, off);
	ck_assert_int_eq(bs_remote_geometry(&a, &r), 0);
	ck_assert_uint_eq(r.sectors, 4);
	ck_assert_uint_eq(r.lines, 1);
	ck_assert_uint_eq(r.passes, 4);
	for (int l = 0; l < BS_LANES; l++)
		off[l] = 132 * l;            /* stride 33: 32 sectors, 32 lines */
	a = lanes(4, off);
	ck_assert_int_eq(bs_remote_geometry(&a, &r), 0);
	ck_assert_uint_eq(r.sectors, 32);
	ck_assert_uint_eq(r.lines, 32);
	ck_assert_uint_eq(r.passes, 32);
	for (int l = 0; l < BS_LANES; l++)
		off[l] = 20;                 /* broadcast: 1 sector, 32 passes */
	a = lanes(4, off);
	ck_assert_int_eq(bs_remote_geometry(&a, &r), 0);
	ck_assert_uint_eq(r.sectors, 1);
	ck_assert_uint_eq(r.passes, 32);
	for (int l = 0; l < BS_LANES; l++)
		off[l] = l < 2 ? 30 * l : -1;  /* 8 bytes at 30: two sectors */
	a = lanes(8, off);
	ck_assert_int_eq(bs_remote_geometry(&a, &r), 0);
	ck_assert_uint_eq(r.sectors, 2);
	ck_assert_uint_eq(r.lines, 1);
	a.width = 32;
	ck_assert_int_eq(bs_remote_geometry(&a, &r), -1);
}
END_TEST

/* The fields of one CSV line (no quoting in this file); how many. */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	for (char *p = line; n < max;) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = 0;
	}
	return n;
}

static int column(char **head, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(head[i], name))
			return i;
	ck_abort_msg("%s: no column %s", DSMEM_CSV, name);
	return -1;
}

START_TEST(test_measured)
{
	FILE *f = fopen(DSMEM_CSV, "r");
	char line[8192], hline[8192], *head[64], *v[64];
	int nh = 0, op, width, target, offs, rd_ld, rd_atom;
	unsigned loads = 0, loads_ok = 0, atoms = 0, atoms_ok = 0;

	ck_assert_msg(f != NULL, "cannot read %s", DSMEM_CSV);
	while (fgets(hline, sizeof hline, f) && hline[0] == '#')
		;
	hline[strcspn(hline, "\n")] = 0;
	nh = fields(hline, head, 64);
	op = column(head, nh, "op");
	width = column(head, nh, "width");
	target = column(head, nh, "target");
	offs = column(head, nh, "offsets");
	rd_ld = column(head, nh,
		       "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld.sum");
	rd_atom = column(head, nh,
			 "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_atom.sum");
	while (fgets(line, sizeof line, f)) {
		int off[BS_LANES], n;
		char *tok, *save = NULL;
		bs_remote r;
		bs_access a;

		line[strcspn(line, "\n")] = 0;
		ck_assert_int_eq(fields(line, v, 64), nh);
		if (strcmp(v[target], "remote"))
			continue;
		n = 0;
		for (tok = strtok_r(v[offs], " ", &save); tok && n < BS_LANES;
		     tok = strtok_r(NULL, " ", &save))
			off[n++] = strcmp(tok, "-") ? atoi(tok) : -1;
		ck_assert_int_eq(n, BS_LANES);
		a = lanes((unsigned)atoi(v[width]), off);
		ck_assert_int_eq(bs_remote_geometry(&a, &r), 0);
		if (!strcmp(v[op], "ld")) {
			loads++;
			loads_ok += atof(v[rd_ld]) == r.sectors;
		} else if (strstr(v[op], "add.u32")) {
			atoms++;
			atoms_ok += atof(v[rd_atom]) == 2.0 * r.passes;
		}
	}
	fclose(f);
	/* what docs/probes/dsmem.md states: every load, 64 of 66 atomics */
	ck_assert_uint_eq(loads, 166);
	ck_assert_uint_eq(loads_ok, 166);
	ck_assert_uint_eq(atoms, 66);
	ck_assert_uint_eq(atoms_ok, 64);
}
END_TEST

/*
 * The dsmem family makes the points the first run measured, in its order:
 * each remote row's width and offsets, the held-out ones included (the
 * run named red and atom rows by their whole kind: red.add.u324_s1 is now
 * red4_s1).
 */
START_TEST(test_family_is_the_run)
{
	FILE *f = fopen(DSMEM_CSV, "r");
	char line[8192], *v[64];
	bs_points pl;
	size_t i = 0;

	memset(&pl, 0, sizeof pl);
	ck_assert_int_eq(bs_family_points("dsmem", &pl), 0);
	ck_assert_uint_eq(pl.n, 398);
	ck_assert_msg(f != NULL, "cannot read %s", DSMEM_CSV);
	while (fgets(line, sizeof line, f)) {
		char *tok, *save = NULL;
		const bs_access *a;
		unsigned l = 0;

		if (line[0] == '#' || !strncmp(line, "name,", 5))
			continue;
		line[strcspn(line, "\n")] = 0;
		fields(line, v, 64);
		if (strcmp(v[3], "remote"))
			continue;
		ck_assert_uint_lt(i, pl.n);
		a = &pl.v[i++];
		ck_assert_uint_eq(a->width, (unsigned)atoi(v[2]));
		ck_assert_msg(!strcmp(bs_kind_name(a->kind) + 6, v[1]),
			      "%s: kind %s, the run's op %s", a->name,
			      bs_kind_name(a->kind), v[1]);
		for (tok = strtok_r(v[6], " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save), l++)
			if (!strcmp(tok, "-"))
				ck_assert_msg(!(a->active >> l & 1), "%s lane %u",
					      a->name, l);
			else
				ck_assert_msg((a->active >> l & 1) &&
					      a->addr[l] == (uint32_t)atoi(tok),
					      "%s lane %u: %u, the run %s",
					      a->name, l, a->addr[l], tok);
		ck_assert_uint_eq(l, BS_LANES);
	}
	fclose(f);
	ck_assert_uint_eq(i, pl.n);
	bs_points_free(&pl);
}
END_TEST

/*
 * sm_90's remote rules against the run they were fitted on: a load's
 * predicted latency (196.2 + 1.98 x sectors, fitted on the systematic
 * rows) within 24.8 cycles of every measured one (24.6 for the unrounded
 * line of research/dsmem/analyze.py) and within 16.0 of the held-out
 * ones (docs/probes/dsmem.md); predicted sectors are measured read
 * sectors on every load.
 */
START_TEST(test_sm_90_rules)
{
	FILE *f = fopen(DSMEM_CSV, "r");
	char line[8192], hline[8192], *head[64], *v[64];
	int nh, cyc, rd_ld, hold;
	double worst[2] = { 0, 0 };
	unsigned n = 0;

	ck_assert_msg(f != NULL, "cannot read %s", DSMEM_CSV);
	while (fgets(hline, sizeof hline, f) && hline[0] == '#')
		;
	hline[strcspn(hline, "\n")] = 0;
	nh = fields(hline, head, 64);
	cyc = column(head, nh, "cycles_median");
	hold = column(head, nh, "holdout");
	rd_ld = column(head, nh,
		       "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld.sum");
	while (fgets(line, sizeof line, f)) {
		int off[BS_LANES], k = 0;
		char *tok, *save = NULL;
		bs_summary sum;
		bs_error err;
		bs_access a;
		double miss;

		line[strcspn(line, "\n")] = 0;
		fields(line, v, 64);
		if (strcmp(v[3], "remote") || strcmp(v[1], "ld"))
			continue;
		for (tok = strtok_r(v[6], " ", &save); tok && k < BS_LANES;
		     tok = strtok_r(NULL, " ", &save))
			off[k++] = strcmp(tok, "-") ? atoi(tok) : -1;
		a = lanes((unsigned)atoi(v[2]), off);
		ck_assert_int_eq(bs_kind_find("dsmem.ld", &a.kind), 0);
		ck_assert_msg(bs_predict(bs_arch_default(), &a, &sum, &err) == 0,
			      "%s", err.text);
		ck_assert_uint_eq(sum.sectors, (unsigned)atof(v[rd_ld]));
		miss = sum.latency_cycles - atof(v[cyc]);
		miss = miss < 0 ? -miss : miss;
		if (miss > worst[atoi(v[hold])])
			worst[atoi(v[hold])] = miss;
		n++;
	}
	fclose(f);
	ck_assert_uint_eq(n, 166);
	ck_assert_msg(worst[0] <= 24.8 && worst[1] <= 16.0, "largest miss "
		      "%.2f (systematic), %.2f (held out)", worst[0], worst[1]);
}
END_TEST

/*
 * The fix advisor prices a remote access by sectors: the 32x32 float
 * tile's column read remotely moves 32 sectors for 128 bytes, which 4
 * would hold, and no padding (0..31), swizzle or widening lowers it,
 * though padding by one float fixes the same read of the CTA's own tile;
 * the contiguous read needs nothing.
 */
START_TEST(test_fix_remote)
{
	bs_fix_input in;
	bs_fix f;
	bs_error err;

	memset(&in, 0, sizeof in);
	in.source = BS_FIX_FROM_TILE;
	in.tile.rows = 32;
	in.tile.cols = 32;
	in.tile.width = 4;
	in.tile.dir = BS_BY_COL;
	in.max_pad = -1;
	ck_assert_int_eq(bs_kind_find("dsmem.ld", &in.tile.kind), 0);
	ck_assert_msg(bs_fix_search(bs_arch_default(), &in, &f, &err) == 0,
		      "%s", err.text);
	ck_assert_int_eq(f.remote, 1);
	ck_assert_uint_eq(f.sum_before.sectors, 32);
	ck_assert_uint_eq(f.min_sectors, 4);
	ck_assert_int_eq(f.reaches_ideal, 0);
	ck_assert_int_eq(f.best.kind, BS_FIX_NONE);
	ck_assert_uint_gt(f.tried, 30);
	in.tile.kind = BS_KIND_LD;
	ck_assert_int_eq(bs_fix_search(bs_arch_default(), &in, &f, &err), 0);
	ck_assert_int_eq(f.remote, 0);
	ck_assert_int_eq(f.reaches_ideal, 1);
	ck_assert_int_eq(f.best.kind, BS_FIX_PAD);
	ck_assert_uint_eq(f.best.pad, 1);
}
END_TEST

Suite *remote_suite(void)
{
	Suite *s = suite_create("remote");

	tu_add_tcase(s, "geometry", 0, (const tu_test[]){
		{ test_hand_made, 1 }, { test_measured, 1 },
		{ test_family_is_the_run, 1 }, { test_sm_90_rules, 1 },
		{ test_fix_remote, 1 }, { NULL, 0 } });
	return s;
}
