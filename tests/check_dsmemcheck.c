/*
 * check_dsmemcheck.c - bankscope-dsmem's CSV files read as datasets, and
 * bankscope check judging them (distributed shared memory, issue 21).
 *
 * The numbers are those of the committed H100 run,
 * data/h100-sxm/dsmem-20261128/dsmem-h100.csv (1194 rows: 398 points,
 * each against targets local, self and remote), worked out without
 * bankscope by research/dsmem/analyze.py's geometry(): a remote row
 * agrees under sm_90 when its dshared wavefronts are ceil(distinct
 * 128-byte lines / 4) (for red and atom, the most lanes on one word if
 * more) and its read sectors the distinct 32-byte sectors (ld, st) or 2 x
 * the sum over sectors of the most lanes on one word (red, atom), for st
 * per 128-byte line its sectors, 2 for a line whose one sector is written
 * in both 16-byte halves.  341 remote rows agree and 57 do not: 20 loads,
 * 21 stores, 8 reds and 8 atomics (the wavefront rule misses held-out
 * random rows and the 16-byte stores of 32 lines; 2 atomics' sectors
 * miss too).  The local
 * rows all agree with the bank model (red as red.add1.u32, the
 * ATOMS.POPC.INC.32 the probe's red compiles to).  The check command
 * runs as a program ($BANKSCOPE, set by make check).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bankscope.h"
#include "testutil.h"

#define H100 "data/h100-sxm/dsmem-20261128/dsmem-h100.csv"
#define H200_A "data/h200/dsmem-20261127/dsmem-a.csv"
#define H200_B "data/h200/dsmem-20261127/dsmem-b.csv"
#define SECTORS_ITEM H100 ",1174,atom4_rnd1024_1,dsmem,4,dsmem.atom.add.u32," \
	"measured,sectors_measured,46,42,sm_90\n"
#define ROWS 1194
#define POINTS 398

/* ---- reading the layout ----------------------------------------------- */

typedef struct {
	FILE *f;
	bs_dataset *d;
} opened;

static bs_dataset *open_path(opened *o, const char *path)
{
	bs_error err;

	o->f = fopen(path, "r");
	ck_assert_msg(o->f != NULL, "cannot open %s", path);
	o->d = bs_dataset_open(o->f, path, &err);
	ck_assert_msg(o->d != NULL, "%s", err.text);
	return o->d;
}

static void close_path(opened *o)
{
	bs_dataset_close(o->d);
	fclose(o->f);
}

/* The distinct 32-byte sectors of a row's lane bytes, counted here. */
static unsigned sectors_of(const bs_access *a)
{
	uint32_t seen[2 * BS_LANES];
	unsigned n = 0;

	for (unsigned l = 0; l < BS_LANES; l++) {
		if (!(a->active >> l & 1))
			continue;
		for (uint32_t s = a->addr[l] / 32;
		     s <= (a->addr[l] + a->width - 1) / 32; s++) {
			unsigned i = 0;

			while (i < n && seen[i] != s)
				i++;
			if (i == n)
				seen[n++] = s;
		}
	}
	return n;
}

/*
 * Every row of the H100 file: 398 of each target; local rows of bank
 * kinds with wavefronts and conflicts, self rows with their note, remote
 * rows of dsmem.* kinds with wavefronts and sectors and no conflicts; a
 * remote load's sectors are its distinct sectors on every row.
 */
START_TEST(test_read_h100)
{
	opened o;
	bs_dataset *d = open_path(&o, H100);
	unsigned long n = 0, local = 0, self = 0, remote = 0, loads = 0;
	bs_error err;
	bs_row r;
	int rc;

	ck_assert_str_eq(bs_dataset_meta(d, "gpu"), "NVIDIA H100 80GB HBM3");
	/* "# counters:" is given twice there: the first is kept */
	ck_assert_str_eq(bs_dataset_meta(d, "counters"),
			 "CUPTI 13.0 (API 130001)");
	while ((rc = bs_dataset_next(d, &r, &err)) > 0) {
		const bs_kind_info *k = bs_kind_get(r.access.kind);

		n++;
		ck_assert_str_eq(r.probe, "dsmem");
		ck_assert(!isnan(r.cycles_per_access_median));
		if (!strncmp(r.note, "self: ", 6)) {
			self++;
			ck_assert(!k->remote);
		} else if (k->remote) {
			remote++;
			ck_assert_str_eq(r.note, "");
			ck_assert(isnan(r.bank_conflicts_measured));
			ck_assert(!isnan(r.wavefronts_measured));
			if (!strcmp(k->name, "dsmem.ld") && ++loads)
				ck_assert_msg(r.sectors_measured ==
					      sectors_of(&r.access),
					      "%s: %g sectors", r.access.name,
					      r.sectors_measured);
		} else {
			local++;
			ck_assert_str_eq(r.note, "");
			ck_assert(!isnan(r.bank_conflicts_measured));
			ck_assert(isnan(r.sectors_measured));
		}
	}
	ck_assert_msg(rc == 0, "%s", err.text);
	ck_assert_uint_eq(n, ROWS);
	ck_assert_uint_eq(local, POINTS);
	ck_assert_uint_eq(self, POINTS);
	ck_assert_uint_eq(remote, POINTS);
	ck_assert_uint_eq(loads, 166);
	close_path(&o);
}
END_TEST

/* Rows the test names: the line of the file, what the reader gives. */
START_TEST(test_read_rows)
{
	opened o;
	bs_dataset *d = open_path(&o, H100);
	bs_error err;
	bs_row r;

	/* lines 11-64: ld1_rnd49152_0 local, self, remote are 62-64 */
	do
		ck_assert_int_eq(bs_dataset_next(d, &r, &err), 1);
	while (bs_dataset_line(d) < 62);
	ck_assert_str_eq(r.access.name, "ld1_rnd49152_0");
	ck_assert_str_eq(bs_kind_name(r.access.kind), "ld");
	ck_assert_int_eq(bs_dataset_next(d, &r, &err), 1);
	ck_assert_str_eq(r.note, "self: the control target (its own shared "
			 "memory through a cluster address), not modeled");
	ck_assert_int_eq(bs_dataset_next(d, &r, &err), 1);
	ck_assert_int_eq(bs_dataset_line(d), 64);
	ck_assert_str_eq(bs_kind_name(r.access.kind), "dsmem.ld");
	ck_assert_uint_eq(r.access.width, 1);
	ck_assert_int_eq(__builtin_popcount(r.access.active), 29);
	ck_assert_uint_eq(r.access.addr[0], 46998);
	ck_assert(r.wavefronts_measured == 10);
	ck_assert(r.sectors_measured == 29);
	ck_assert(r.cycles_per_access_median == 249.641);
	ck_assert(r.cycles_per_access_min == 249.641);
	ck_assert_int_eq(bs_row_predict(bs_arch_default(), &r, &err), 0);
	/* 29 sectors on 27 lines: ceil(27 / 4) = 7 wavefronts */
	ck_assert(r.sectors_predicted == 29);
	ck_assert(r.wavefronts_predicted == 7);
	/* the probe's red adds 1: locally red.add1.u32 */
	while (bs_dataset_next(d, &r, &err) > 0 &&
	       strcmp(r.access.name, "red4_bcast"))
		;
	ck_assert_str_eq(bs_kind_name(r.access.kind), "red.add1.u32");
	close_path(&o);
}
END_TEST

/* A --no-counters run: the cycles, no counter. */
START_TEST(test_read_timing_only)
{
	opened o;
	bs_dataset *d = open_path(&o, H200_B);
	bs_error err;
	bs_row r;

	ck_assert_int_eq(bs_dataset_next(d, &r, &err), 1);
	ck_assert_str_eq(r.access.name, "ld1_s1");
	ck_assert(r.cycles_per_access_median == 33.672);
	ck_assert(isnan(r.wavefronts_measured));
	ck_assert(isnan(r.bank_conflicts_measured));
	ck_assert(isnan(r.sectors_measured));
	close_path(&o);
}
END_TEST

/* ---- bad input in the layout ------------------------------------------ */

#define DHEAD "name,op,width,target,offsets,cycles_median,check," \
	      "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld.sum\n"
#define LANES "0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 " \
	      "80 84 88 92 96 100 104 108 112 116 120 124"

static const struct {
	const char *text;
	long line, column;
	const char *message;
} bad[] = {
	{ "name,op,width,target,offsets\nn,ldx,4,local," LANES "\n", 2, 3,
	  "column 'op': 'ldx' is not ld, st, red.add.u32 or atom.add.u32" },
	{ "name,op,width,target,offsets\nn,ld,4,far," LANES "\n", 2, 8,
	  "column 'target': 'far' is not local, self or remote" },
	{ "name,op,width,target,offsets\nn,ld,3,local," LANES "\n", 2, 6,
	  "column 'width': '3' is not 1, 2, 4, 8 or 16 bytes" },
	{ "name,op,width,target,offsets\nn,atom.add.u32,8,remote," LANES "\n",
	  2, 16, "column 'width': dsmem.atom.add.u32 takes a width of 4 "
	  "bytes, not 8" },
	{ "name,op,width,target,offsets\nn,ld,4,local,0 4\n", 2, 14,
	  "column 'offsets': 2 lane fields, expected 32" },
	{ DHEAD "n,ld,4,remote," LANES ",1x,ok,4\n", 2, 115,
	  "column 'cycles_median': '1x' is not a number" },
	{ DHEAD "n,ld,4,remote," LANES ",200,ok,-4\n", 2, 122,
	  "column 'l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld.sum': "
	  "-4 is out of range (0 to 1e15)" },
	{ "op,width,target,offsets\n", 1, 0, "the header lacks the required "
	  "column 'name' (bankscope-dsmem's layout: name,op,width,target,...,"
	  "offsets)" },
	{ "name,op,width,target,offsets,op\n", 1, 30,
	  "column 'op' appears twice in the header" },
	{ "name,op,width,target,offsets\nn,ld,4,local," LANES ",x\n", 2, 114,
	  "6 fields, the header has 5" },
};

START_TEST(test_bad_input)
{
	char *copy = strdup(bad[_i].text);
	FILE *f = fmemopen(copy, strlen(copy), "r");
	bs_dataset *d;
	bs_error err;
	bs_row r;
	int rc = -1;

	ck_assert_ptr_nonnull(f);
	memset(&err, 0, sizeof err);
	d = bs_dataset_open(f, "bad.csv", &err);
	if (d) {
		while ((rc = bs_dataset_next(d, &r, &err)) > 0)
			;
		bs_dataset_close(d);
	}
	fclose(f);
	free(copy);
	ck_assert_int_eq(rc, -1);
	tu_error_is(&err, "bad.csv", bad[_i].line, bad[_i].column,
		    bad[_i].message);
}
END_TEST

/* A key given twice is still an error in a dataset, after the header. */
START_TEST(test_twice_in_dataset)
{
	static const char text[] = "# a: 1\n# a: 2\nprobe,name,width,op,"
				   "addresses\n";
	char *copy = strdup(text);
	FILE *f = fmemopen(copy, strlen(copy), "r");
	bs_error err;

	ck_assert_ptr_null(bs_dataset_open(f, "t.csv", &err));
	tu_error_is(&err, "t.csv", 2, 3, "metadata key 'a' given twice");
	fclose(f);
	free(copy);
}
END_TEST

/* ---- the check command -------------------------------------------------- */

/* Run "$BANKSCOPE ARGS 2>&1"; its output (free it) and exit status. */
static int run(const char *args, char **out)
{
	char cmd[512], buf[65536];
	size_t len, n;
	FILE *p, *o = open_memstream(out, &len);
	int st;

	ck_assert_msg(getenv("BANKSCOPE") != NULL,
		      "BANKSCOPE is not set: run the tests with make check");
	snprintf(cmd, sizeof cmd, "\"$BANKSCOPE\" %s 2>&1", args);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		fwrite(buf, 1, n, o);
	st = pclose(p);
	fclose(o);
	ck_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* Lines of text that hold needle. */
static int lines_with(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++) {
		n++;
		p = strchr(p, '\n');
		if (!p)
			break;
	}
	return n;
}

/*
 * The H100 file under sm_90: the 73 remote rows analyze.py finds, and
 * no local one; the row of test_read_rows said in full; the remote
 * kinds' fits against sectors.
 */
START_TEST(test_check_h100)
{
	char *out;

	ck_assert_int_eq(run("check " H100, &out), 1);
	ck_assert_msg(strstr(out, "verdict: DISAGREES: 1194 rows, 796 "
			     "measured, 739 agree, 57 disagree, 398 skipped, "
			     "0 timing only (arch sm_90)\n") != NULL, "%s",
		      out);
	ck_assert_int_eq(lines_with(out, "-byte dsmem.ld): measured"), 20);
	ck_assert_int_eq(lines_with(out, "-byte dsmem.st): measured"), 21);
	ck_assert_int_eq(lines_with(out,
				    "-byte dsmem.red.add.u32): measured"), 8);
	ck_assert_int_eq(lines_with(out,
				    "-byte dsmem.atom.add.u32): measured"), 8);
	ck_assert_int_eq(lines_with(out, "): measured"), 57);
	ck_assert_ptr_nonnull(strstr(out, H100 ":64: ld1_rnd49152_0 (probe "
				     "dsmem, 1-byte dsmem.ld): measured 10 "
				     "wavefronts, 29 sectors; predicted 7, 29 "
				     "(sm_90)\n"));
	/* st1_s1: 32 lanes write 1 byte each of one sector, in both of its
	   16-byte halves: 2 move, as remote=writes says; st16_s32: 32 lines,
	   one wavefront more than ceil(32 / 4) */
	ck_assert_ptr_null(strstr(out, H100 ":112: "));
	ck_assert_ptr_nonnull(strstr(out, H100 ":925: st16_s32 (probe dsmem, "
				     "16-byte dsmem.st): measured 9 "
				     "wavefronts, 32 sectors; predicted 8, 32 "
				     "(sm_90)\n"));
	ck_assert_ptr_nonnull(strstr(out, "width_bytes op packed      n    "
				     "slope_cycles_per_sector "));
	ck_assert_ptr_nonnull(strstr(out, "          1 dsmem.ld      0     "
				     "33 "));
	free(out);
	/* csv: the sectors' column by name (an atomic whose sectors miss) */
	ck_assert_int_eq(run("check --quiet --format csv " H100, &out), 1);
	ck_assert_ptr_nonnull(strstr(out, SECTORS_ITEM));
	free(out);
}
END_TEST

/* The H200 run gives the same verdict; its timing-only twin none. */
START_TEST(test_check_h200)
{
	char *out;

	ck_assert_int_eq(run("check --quiet " H200_A, &out), 1);
	ck_assert_ptr_nonnull(strstr(out, "verdict: DISAGREES: 1194 rows, 796 "
				     "measured, 739 agree, 57 disagree, 398 "
				     "skipped, 0 timing only (arch sm_90)\n"));
	ck_assert_int_eq(lines_with(out, "): measured"), 57);
	free(out);
	ck_assert_int_eq(run("check --quiet --format json " H200_B, &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"verdict\":{\"result\":\"NOT "
				     "CHECKED\",\"rows\":1194,\"measured\":0,"
				     "\"agree\":0,\"disagree\":0,\"skipped\":398,"
				     "\"timing_only\":796,"));
	free(out);
}
END_TEST

/* A temporary file holding text: its path in path. */
static void temp_file(char *path, size_t size, const char *text)
{
	FILE *f = fdopen(tu_mkstemp(path, size, "bankscope-dsmem"), "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* Bad input in the layout: exit 2, one message naming the place. */
START_TEST(test_check_bad)
{
	char path[256], args[300], want[800], *out;

	temp_file(path, sizeof path, "# bankscope-dsmem: one warp\n"
		  "name,op,width,target,offsets\nn,ld,4,local," LANES "\n"
		  "n,ld,4,nowhere," LANES "\n");
	snprintf(args, sizeof args, "check %s", path);
	ck_assert_int_eq(run(args, &out), 2);
	snprintf(want, sizeof want, "bankscope: %s:4:8: column 'target': "
		 "'nowhere' is not local, self or remote\n", path);
	ck_assert_str_eq(out, want);
	free(out);
	ck_assert_int_eq(remove(path), 0);
}
END_TEST

/*
 * A dataset row of a remote kind whose stored sectors_predicted is not
 * what sm_90 gives (4-byte stride 1: 128 bytes, 4 sectors) is stale.
 */
START_TEST(test_check_stale_sectors)
{
	char path[256], args[300], want[800], *out;

	temp_file(path, sizeof path, "probe,name,width,op,wavefronts_measured,"
		  "sectors_measured,sectors_predicted,addresses\n"
		  "dsmem,r,4,dsmem.ld,1,4,5," LANES "\n");
	snprintf(args, sizeof args, "check --quiet %s", path);
	ck_assert_int_eq(run(args, &out), 1);
	snprintf(want, sizeof want, "%s:2: r (probe dsmem, 4-byte dsmem.ld): "
		 "stale prediction (sm_90): sectors_predicted 5, recomputed "
		 "4\nverdict: DISAGREES: 1 rows, 1 measured, 0 agree, 1 "
		 "disagree, 0 skipped, 0 timing only (arch sm_90)\n", path);
	ck_assert_str_eq(out, want);
	free(out);
	ck_assert_int_eq(remove(path), 0);
}
END_TEST

Suite *dsmemcheck_suite(void)
{
	Suite *s = suite_create("dsmemcheck");

	tu_add_tcase(s, "read", 0, (const tu_test[]){
		{ test_read_h100, 1 }, { test_read_rows, 1 },
		{ test_read_timing_only, 1 }, { test_bad_input, TU_ROWS(bad) },
		{ test_twice_in_dataset, 1 }, { NULL, 0 } });
	tu_add_tcase(s, "check", 30, (const tu_test[]){
		{ test_check_h100, 1 }, { test_check_h200, 1 },
		{ test_check_bad, 1 }, { test_check_stale_sectors, 1 },
		{ NULL, 0 } });
	return s;
}
