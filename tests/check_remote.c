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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

#define DSMEM_CSV "data/h200/dsmem-20261127/dsmem-a.csv"
/* the same points on an H100 */
#define DSMEM_H100 "data/h100-sxm/dsmem-20261128/dsmem-h100.csv"

/*
 * Hand-made accesses: lane l at base + stride x l for the first n lanes,
 * the rest idle; what each moves (0: not asserted).
 */
static const struct {
	const char *what;
	unsigned width;
	int base, stride, n;
	unsigned sectors, lines, passes;
} hand[] = {
	{ "stride 1: 4 sectors, 1 line", 4, 0, 4, BS_LANES, 4, 1, 4 },
	{ "stride 33: 32 sectors, 32 lines", 4, 0, 132, BS_LANES, 32, 32, 32 },
	{ "broadcast: 1 sector, 32 passes", 4, 20, 0, BS_LANES, 1, 0, 32 },
	{ "8 bytes at 30: two sectors", 8, 0, 30, 2, 2, 1, 0 },
};

START_TEST(test_hand_made)
{
	int off[BS_LANES];
	bs_remote r;
	bs_access a;

	for (size_t i = 0; i < sizeof hand / sizeof *hand; i++) {
		for (int l = 0; l < BS_LANES; l++)
			off[l] = l < hand[i].n ? hand[i].base + hand[i].stride * l
					       : -1;
		a = tu_lanes(hand[i].width, off);
		ck_assert_msg(bs_remote_geometry(&a, &r) == 0, "%s",
			      hand[i].what);
		ck_assert_uint_eq(r.sectors, hand[i].sectors);
		if (hand[i].lines)
			ck_assert_uint_eq(r.lines, hand[i].lines);
		if (hand[i].passes)
			ck_assert_uint_eq(r.passes, hand[i].passes);
	}
	/* the sector list, ascending: stride 1 of 4 bytes, lanes 8s ..
	   8s+7 in sector s; an 8-byte lane at 28 lies in sectors 0 and 1,
	   listed before the lower lane's sector 2 */
	for (int l = 0; l < BS_LANES; l++)
		off[l] = 4 * l;
	a = tu_lanes(4, off);
	ck_assert_int_eq(bs_remote_geometry(&a, &r), 0);
	for (unsigned x = 0; x < 4; x++) {
		ck_assert_uint_eq(r.sector[x], x);
		ck_assert_uint_eq(r.sector_lanes[x], 0xffu << (8 * x));
	}
	for (int l = 0; l < BS_LANES; l++)
		off[l] = l == 3 ? 64 : l == 5 ? 28 : -1;
	a = tu_lanes(8, off);
	ck_assert_int_eq(bs_remote_geometry(&a, &r), 0);
	ck_assert_uint_eq(r.sectors, 3);
	ck_assert_uint_eq(r.sector[0], 0);
	ck_assert_uint_eq(r.sector_lanes[0], 1u << 5);
	ck_assert_uint_eq(r.sector[1], 1);
	ck_assert_uint_eq(r.sector_lanes[1], 1u << 5);
	ck_assert_uint_eq(r.sector[2], 2);
	ck_assert_uint_eq(r.sector_lanes[2], 1u << 3);
	a.width = 32;
	ck_assert_int_eq(bs_remote_geometry(&a, &r), -1);
}
END_TEST

START_TEST(test_measured)
{
	tu_csv c;
	int nf, op, width, target, offs, rd_ld, rd_atom;
	unsigned loads = 0, loads_ok = 0, atoms = 0, atoms_ok = 0;

	tu_csv_open(&c, DSMEM_CSV);
	op = tu_csv_column(&c, "op");
	width = tu_csv_column(&c, "width");
	target = tu_csv_column(&c, "target");
	offs = tu_csv_column(&c, "offsets");
	rd_ld = tu_csv_column(&c,
		"l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld.sum");
	rd_atom = tu_csv_column(&c,
		"l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_atom.sum");
	while ((nf = tu_csv_next(&c)) > 0) {
		int off[BS_LANES];
		bs_remote r;
		bs_access a;

		ck_assert_int_eq(nf, c.nh);
		if (strcmp(c.v[target], "remote"))
			continue;
		ck_assert_int_eq(tu_offsets(c.v[offs], off), BS_LANES);
		a = tu_lanes((unsigned)atoi(c.v[width]), off);
		ck_assert_int_eq(bs_remote_geometry(&a, &r), 0);
		if (!strcmp(c.v[op], "ld")) {
			loads++;
			loads_ok += atof(c.v[rd_ld]) == r.sectors;
		} else if (strstr(c.v[op], "add.u32")) {
			atoms++;
			atoms_ok += atof(c.v[rd_atom]) == 2.0 * r.passes;
		}
	}
	tu_csv_close(&c);
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
	bs_points pl;
	size_t i = 0;
	tu_csv c;

	memset(&pl, 0, sizeof pl);
	ck_assert_int_eq(bs_family_points("dsmem", &pl), 0);
	ck_assert_uint_eq(pl.n, 398);
	tu_csv_open(&c, DSMEM_CSV);
	while (tu_csv_next(&c) > 0) {
		const bs_access *a;
		int off[BS_LANES], n;

		if (strcmp(c.v[3], "remote"))
			continue;
		ck_assert_uint_lt(i, pl.n);
		a = &pl.v[i++];
		ck_assert_uint_eq(a->width, (unsigned)atoi(c.v[2]));
		ck_assert_msg(!strcmp(bs_kind_name(a->kind) + 6, c.v[1]),
			      "%s: kind %s, the run's op %s", a->name,
			      bs_kind_name(a->kind), c.v[1]);
		n = tu_offsets(c.v[6], off);
		ck_assert_int_eq(n, BS_LANES);
		for (unsigned l = 0; l < BS_LANES; l++)
			if (off[l] < 0)
				ck_assert_msg(!(a->active >> l & 1), "%s lane %u",
					      a->name, l);
			else
				ck_assert_msg((a->active >> l & 1) &&
					      a->addr[l] == (uint32_t)off[l],
					      "%s lane %u: %u, the run %d",
					      a->name, l, a->addr[l], off[l]);
	}
	tu_csv_close(&c);
	ck_assert_uint_eq(i, pl.n);
	bs_points_free(&pl);
}
END_TEST

/* A remote load run's rows under sm_90: per holdout (0 systematic, 1
 * held out) the largest miss and the rows off by more than 5 %, and per
 * width the least-squares line of the systematic rows' cycles against
 * their sectors. */
typedef struct {
	double worst[2];
	unsigned far[2], n;
	double base[5], slope[5];
} load_run;

static load_run sm_90_loads(const char *path)
{
	int cyc, rd_ld, hold;
	double sx[5] = { 0 }, sy[5] = { 0 }, sxx[5] = { 0 }, sxy[5] = { 0 };
	unsigned m[5] = { 0 };
	load_run t;
	tu_csv c;

	memset(&t, 0, sizeof t);
	tu_csv_open(&c, path);
	cyc = tu_csv_column(&c, "cycles_median");
	hold = tu_csv_column(&c, "holdout");
	rd_ld = tu_csv_column(&c,
		"l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld.sum");
	while (tu_csv_next(&c) > 0) {
		int off[BS_LANES], h = atoi(c.v[hold]) != 0, wi;
		double y = atof(c.v[cyc]), miss;
		bs_summary sum;
		bs_error err;
		bs_access a;

		if (strcmp(c.v[3], "remote") || strcmp(c.v[1], "ld"))
			continue;
		tu_offsets(c.v[6], off);
		a = tu_lanes((unsigned)atoi(c.v[2]), off);
		ck_assert_int_eq(bs_kind_find("dsmem.ld", &a.kind), 0);
		ck_assert_msg(bs_predict(bs_arch_default(), &a, &sum, &err) == 0,
			      "%s", err.text);
		ck_assert_uint_eq(sum.sectors, (unsigned)atof(c.v[rd_ld]));
		miss = fabs(sum.latency_cycles - y);
		if (miss > t.worst[h])
			t.worst[h] = miss;
		t.far[h] += miss > 0.05 * y;
		t.n++;
		wi = bs_width_index(a.width);
		if (!h) {
			m[wi]++;
			sx[wi] += sum.sectors;
			sy[wi] += y;
			sxx[wi] += (double)sum.sectors * sum.sectors;
			sxy[wi] += sum.sectors * y;
		}
	}
	tu_csv_close(&c);
	for (int w = 0; w < 5; w++) {
		t.slope[w] = (m[w] * sxy[w] - sx[w] * sy[w]) /
			     (m[w] * sxx[w] - sx[w] * sx[w]);
		t.base[w] = (sy[w] - t.slope[w] * sx[w]) / m[w];
	}
	return t;
}

/*
 * sm_90's remote load latency, a line per width (issue 30: one line for
 * every width predicted the 16-byte loads 5 to 16 cycles short, 4 of the
 * 16 held-out ones beyond 5 %): each width's lat_base and lat_slope are
 * the least-squares line of the run's systematic rows of that width
 * (holdout 0; to 0.1 and 0.01 cycles), and the lines miss the
 * systematic rows by at most 16.5 cycles, the held-out random ones
 * (holdout 1: drawn by the probe, never fitted) by at most 9.0 and none
 * by more than 5 %; so too on the H100's run of the same points (at most
 * 8.3).  Predicted sectors are measured read sectors on every load.
 */
START_TEST(test_sm_90_rules)
{
	static const unsigned widths[] = { 1, 2, 4, 8, 16 };
	load_run t = sm_90_loads(DSMEM_CSV), h100;
	bs_kind ld;

	ck_assert_uint_eq(t.n, 166);
	ck_assert_int_eq(bs_kind_find("dsmem.ld", &ld), 0);
	for (int w = 0; w < 5; w++) {
		const bs_rule *r = bs_arch_rule(bs_arch_default(), ld,
						widths[w]);

		ck_assert_msg(fabs(r->lat_base - round(t.base[w] * 10) / 10) <
			      1e-9 && fabs(r->lat_slope -
					   round(t.slope[w] * 100) / 100) <
			      1e-9, "%u-byte dsmem.ld: lat_base=%g lat_slope=%g,"
			      " the systematic rows' line %.3f + %.4f",
			      widths[w], r->lat_base, r->lat_slope, t.base[w],
			      t.slope[w]);
	}
	ck_assert_msg(t.worst[0] <= 16.5 && t.worst[1] <= 9.0, "largest miss "
		      "%.2f (systematic), %.2f (held out)", t.worst[0],
		      t.worst[1]);
	ck_assert_uint_eq(t.far[1], 0);
	h100 = sm_90_loads(DSMEM_H100);
	ck_assert_uint_eq(h100.n, 166);
	ck_assert_msg(h100.worst[1] <= 8.3, "H100: largest held-out miss %.2f",
		      h100.worst[1]);
	ck_assert_uint_eq(h100.far[1], 0);
}
END_TEST

/*
 * A tally of sm_90 on the run's remote rows of one op ("st") or of the
 * atomics ("add.u32"): per holdout (0 systematic, 1 held out), the rows,
 * those whose measured column equals the prediction's field (wavefronts
 * or sectors), and those it equals bs_remote_geometry's distinct sectors.
 */
typedef struct {
	unsigned n[2], ok[2], plain[2];
} tally;

static tally sm_90_tally(const char *op_like, const char *column,
			 int by_sectors)
{
	int m, hold, op, width, target, offs;
	tally t;
	tu_csv c;

	memset(&t, 0, sizeof t);
	tu_csv_open(&c, DSMEM_CSV);
	op = tu_csv_column(&c, "op");
	width = tu_csv_column(&c, "width");
	target = tu_csv_column(&c, "target");
	offs = tu_csv_column(&c, "offsets");
	hold = tu_csv_column(&c, "holdout");
	m = tu_csv_column(&c, column);
	while (tu_csv_next(&c) > 0) {
		char kind[32];
		int off[BS_LANES], h;
		unsigned got;
		bs_summary sum;
		bs_remote g;
		bs_error err;
		bs_access a;

		if (strcmp(c.v[target], "remote") || !strstr(c.v[op], op_like))
			continue;
		tu_offsets(c.v[offs], off);
		a = tu_lanes((unsigned)atoi(c.v[width]), off);
		snprintf(kind, sizeof kind, "dsmem.%s", c.v[op]);
		ck_assert_int_eq(bs_kind_find(kind, &a.kind), 0);
		ck_assert_msg(bs_predict(bs_arch_default(), &a, &sum, &err) == 0,
			      "%s", err.text);
		ck_assert_int_eq(bs_remote_geometry(&a, &g), 0);
		got = (unsigned)atof(c.v[m]);
		h = atoi(c.v[hold]) != 0;
		t.n[h]++;
		t.ok[h] += (by_sectors ? sum.sectors : sum.wavefronts) == got;
		t.plain[h] += g.sectors == got;
	}
	tu_csv_close(&c);
	return t;
}

/*
 * sm_90's dshared wavefronts of remote atomics, most lanes on one word or
 * a wavefront per 4 lines, whichever is more, against the measured
 * l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_atom: every one of
 * the 34 systematic rows (red and atom), and 16 of the 32 held-out random
 * ones (lines alone gave 24 and 0).
 */
START_TEST(test_sm_90_atomic_wavefronts)
{
	tally t = sm_90_tally("add.u32", "l1tex__t_output_wavefronts_pipe_"
			      "lsu_mem_dshared_op_atom.sum", 0);

	ck_assert_uint_eq(t.n[0], 34);
	ck_assert_uint_eq(t.ok[0], 34);
	ck_assert_uint_eq(t.n[1], 32);
	ck_assert_uint_eq(t.ok[1], 16);
}
END_TEST

/*
 * sm_90's stores (remote=writes): per 128-byte line its sectors, 2 for a
 * line whose one sector is written in both 16-byte halves, against the
 * measured ..._read_sectors_mem_dshared_op_st: every row, 86 systematic
 * and 80 held-out (distinct sectors alone: 75 and 72).
 */
START_TEST(test_sm_90_store_sectors)
{
	tally t = sm_90_tally("st", "l1tex__m_xbar2l1tex_read_sectors_mem_"
			      "dshared_op_st.sum", 1);

	ck_assert_uint_eq(t.n[0], 86);
	ck_assert_uint_eq(t.ok[0], 86);
	ck_assert_uint_eq(t.plain[0], 75);
	ck_assert_uint_eq(t.n[1], 80);
	ck_assert_uint_eq(t.ok[1], 80);
	ck_assert_uint_eq(t.plain[1], 72);
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
	return tu_suite("remote", "geometry", 0, (const tu_test[]){
		{ test_hand_made, 1 }, { test_measured, 1 },
		{ test_family_is_the_run, 1 }, { test_sm_90_rules, 1 },
		{ test_sm_90_atomic_wavefronts, 1 },
		{ test_sm_90_store_sectors, 1 }, { test_fix_remote, 1 },
		{ NULL, 0 } });
}
