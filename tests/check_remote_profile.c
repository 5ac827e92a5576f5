/*
 * check_remote_profile.c - bankscope profile's side of distributed shared
 * memory (issue 21): records.tsv's dshared column (the warp instructions
 * of a pc that went to another CTA's shared memory,
 * smsp__sass_inst_executed_op_dshared), explain samples of kind remote,
 * and the generic opcodes' remote kinds (bs_sass_remote_kind).
 *
 * The fixture tests/cases/profile/dsmem/ is made by hand: one cluster
 * kernel whose RED.E.ADD.STRONG.GPU went remote in all 64 executions and
 * whose LD.E.128 in 48 of 64, an LDS, a global LD.E (dshared 0, no
 * wavefront: dropped) and an ST.E.64 whose dshared the GPU did not
 * offer ("-").  Its replays are the golden cases profile_dsmem_* of the
 * cli suite; here the library reads it and the model prices its samples.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

#define DSMEM "tests/cases/profile/dsmem/"
#define CRC 9u

/* ---- the generic opcodes --------------------------------------------------- */

static const struct {
	const char *sass, *kind;      /* kind NULL: not a remote kind */
	unsigned width;
} generic[] = {
	{ "LD.E R0, [R2.64]", "dsmem.ld", 4 },
	{ "LD.E.128 R4, [R2.64]", "dsmem.ld", 16 },
	{ "LD.E.64.STRONG.SYS R4, [R2.64]", "dsmem.ld", 8 },
	{ "LD.E.U8 R4, [R2.64]", "dsmem.ld", 1 },
	{ "@P0 LD.E.S16 R4, [R2.64]", "dsmem.ld", 2 },
	{ "ST.E [R2.64], R5", "dsmem.st", 4 },
	{ "ST.E.128.STRONG.GPU [R2.64], R4", "dsmem.st", 16 },
	{ "@!P1 ST.E.U16 [R2.64], R5", "dsmem.st", 2 },
	{ "ATOM.E.ADD.STRONG.GPU PT, R0, [R2.64], R5", "dsmem.atom.add.u32",
	  4 },
	{ "RED.E.ADD.STRONG.GPU [R2.64], R5", "dsmem.red.add.u32", 4 },
	{ "RED.E.ADD.STRONG.SYS [R2.64], R5", "dsmem.red.add.u32", 4 },
	/* not a 32-bit integer add: no remote row */
	{ "ATOM.E.ADD.64.STRONG.GPU PT, R4, [R2.64], R6", NULL, 0 },
	{ "ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R0, [R2.64], R5", NULL, 0 },
	{ "RED.E.ADD.F16x2.RN.STRONG.GPU [R2.64], R5", NULL, 0 },
	{ "RED.E.ADD.BF16x2.RN.STRONG.GPU [R2.64], R5", NULL, 0 },
	{ "ATOM.E.EXCH.STRONG.GPU PT, R0, [R2.64], R5", NULL, 0 },
	{ "RED.E.MIN.S32.STRONG.GPU [R2.64], R5", NULL, 0 },
	/* shared-window or global opcodes, and no .E */
	{ "LDS R9, [R6]", NULL, 0 },
	{ "ATOMS.ADD RZ, [R2], R3", NULL, 0 },
	{ "LDG.E R0, desc[UR4][R2.64]", NULL, 0 },
	{ "STG.E desc[UR4][R2.64], R9", NULL, 0 },
	{ "LD R0, [R2]", NULL, 0 },
	{ "LDSM.16.M88.4 R4, [R8]", NULL, 0 },
};

START_TEST(test_remote_kind)
{
	bs_kind k = BS_KIND_NONE, ks;
	unsigned w = 0, ws;
	int rc = bs_sass_remote_kind(generic[_i].sass, &k, &w);

	if (!generic[_i].kind) {
		ck_assert_msg(rc == 0, "'%s' read as %s", generic[_i].sass,
			      bs_kind_name(k));
		return;
	}
	ck_assert_msg(rc == 1, "'%s': no remote kind", generic[_i].sass);
	ck_assert_str_eq(bs_kind_name(k), generic[_i].kind);
	ck_assert_uint_eq(w, generic[_i].width);
	ck_assert(bs_kind_get(k)->remote);
	/* the shared-window map still never takes a generic opcode */
	ck_assert(bs_sass_kind(generic[_i].sass, &ks, &ws) != 1);
	ck_assert_int_eq(bs_sass_remote_kind(generic[_i].sass, NULL, NULL),
			 1);
}
END_TEST

/* ---- records.tsv's dshared ------------------------------------------------ */

#define HEAD "kernel\tlaunch\tcubin_crc\tfunction_index\tfunction\t" \
	     "pc_offset\tinst_executed\twavefronts\twavefronts_ideal"
#define HEAD10 HEAD "\tdshared\n"

static bs_sassprof *read_records(const char *text, const char *disasm)
{
	bs_sassprof *p = bs_sassprof_new();
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	bs_error err;

	ck_assert_ptr_nonnull(p);
	ck_assert_msg(bs_sassprof_read_records(p, f, "r.tsv", &err) == 0,
		      "%s", err.text);
	fclose(f);
	if (disasm) {
		f = fmemopen((void *)disasm, strlen(disasm), "r");
		ck_assert_int_eq(bs_sassprof_read_disasm(p, 7, f, "d.sass",
							 &err), 0);
		fclose(f);
	}
	bs_sassprof_finish(p);
	return p;
}

static const bs_sass_insn *at_pc(const bs_sassprof *p, uint32_t pc)
{
	const bs_sass_insn *in;

	for (size_t i = 0; (in = bs_sassprof_get(p, i)); i++)
		if (in->pc == pc)
			return in;
	return NULL;
}

/*
 * dshared sums over launches and windows like the other counts; an
 * instruction with one "-" record is unknown; a generic LD.E that went
 * remote is kept with no wavefront, one that did not is dropped.
 */
START_TEST(test_dshared_sums)
{
	static const char rec[] = HEAD10
		"k()\t0\t7\t0\t_Z1kv\t0x10\t4\t0\t0\t3\n"
		"k()\t1\t7\t0\t_Z1kv\t0x10\t4\t0\t0\t4\n"
		"k()\t-\t7\t0\t_Z1kv\t0x10\t2\t0\t0\t1\n"
		"k()\t0\t7\t0\t_Z1kv\t0x20\t4\t0\t0\t0\n"
		"k()\t0\t7\t0\t_Z1kv\t0x30\t4\t4\t4\t-\n"
		"k()\t1\t7\t0\t_Z1kv\t0x30\t4\t4\t4\t2\n"
		"k()\t0\t7\t0\t_Z1kv\t0x40\t4\t4\t4\t0\n";
	static const char dis[] =
		"\tFunction : _Z1kv\n"
		"        /*0010*/   LD.E.128 R4, [R2.64] ;\n"
		"        /*0020*/   LD.E R0, [R8.64] ;\n"
		"        /*0030*/   ST.E [R2.64], R5 ;\n"
		"        /*0040*/   LDS R9, [R6] ;\n";
	bs_sassprof *p = read_records(rec, dis);
	const bs_sass_insn *in;
	bs_sassprof_totals t;

	ck_assert_uint_eq(bs_sassprof_finish(p), 3);
	ck_assert_ptr_null(at_pc(p, 0x20));
	in = at_pc(p, 0x10);
	ck_assert_str_eq(in->sass, "LD.E.128 R4, [R2.64]");
	ck_assert_uint_eq(in->executions, 10);
	ck_assert_uint_eq(in->dshared, 8);
	ck_assert_int_eq(in->dshared_known, 1);
	ck_assert_uint_eq(in->wavefronts, 0);
	in = at_pc(p, 0x30);
	ck_assert_int_eq(in->dshared_known, 0);
	ck_assert_uint_eq(in->dshared, 2);
	in = at_pc(p, 0x40);
	ck_assert_int_eq(in->dshared_known, 1);
	ck_assert_uint_eq(in->dshared, 0);
	bs_sassprof_get_totals(p, &t);
	ck_assert_uint_eq(t.records, 7);
	ck_assert_uint_eq(t.dshared_records, 6);
	ck_assert_uint_eq(t.remote, 2);
	bs_sassprof_free(p);
}
END_TEST

/* Files of the 9-column header read as before: dshared unknown. */
START_TEST(test_old_records)
{
	bs_sassprof *p = read_records(HEAD "\nk()\t-\t7\t0\t_Z1kv\t0x10\t4\t8"
				      "\t4\n", NULL);
	const bs_sass_insn *in = bs_sassprof_get(p, 0);
	bs_sassprof_totals t;

	ck_assert_uint_eq(in->wavefronts, 8);
	ck_assert_int_eq(in->dshared_known, 0);
	ck_assert_uint_eq(in->dshared, 0);
	bs_sassprof_get_totals(p, &t);
	ck_assert_uint_eq(t.dshared_records, 0);
	ck_assert_uint_eq(t.remote, 0);
	bs_sassprof_free(p);
}
END_TEST

static const struct {
	const char *text, *want;
} bad_records[] = {
	{ HEAD10 "k()\t0\t7\t0\t_Z1kv\t0x10\t4\t0\t0\t4x\n",
	  "r.tsv:2:28: dshared: '4x' is not a non-negative integer" },
	{ HEAD10 "k()\t0\t7\t0\t_Z1kv\t0x10\t4\t0\t0\t\n",
	  "r.tsv:2:28: dshared: '' is not a non-negative integer" },
	{ HEAD10 "k()\t0\t7\t0\t_Z1kv\t0x10\t4\t0\t0\t5\n",
	  "r.tsv:2:28: dshared: 5 is more than inst_executed 4 (the remote "
	  "executions are some of that pc's warp instructions)" },
	{ HEAD10 "k()\t0\t7\t0\t_Z1kv\t0x10\t4\t0\t0\n",
	  "r.tsv:2:27: 9 tab-separated fields, expected 10 (a record)" },
	{ HEAD10 "k()\t0\t7\t0\t_Z1kv\t0x10\t4\t0\t0\t1\t1\n",
	  "r.tsv:2:30: more than 10 tab-separated fields (a record)" },
	{ HEAD "\nk()\t0\t7\t0\t_Z1kv\t0x10\t4\t0\t0\t1\n",
	  "r.tsv:2:28: more than 9 tab-separated fields (a record)" },
	{ HEAD "\tdshare\n", "r.tsv:1:107: not the expected header line" },
	{ HEAD10 "k()\t0\t7\t0\t_Z1kv\t0x10\t9223372036854775807\t0\t0\t"
	  "9223372036854775807\n"
	  "k()\t1\t7\t0\t_Z1kv\t0x10\t0\t0\t0\t0\n"
	  "k()\t2\t7\t0\t_Z1kv\t0x10\t1\t0\t0\t1\n",
	  "r.tsv:4:22: inst_executed: the sum of this instruction's records "
	  "passes 9223372036854775807" },
};

START_TEST(test_bad_dshared)
{
	bs_sassprof *p = bs_sassprof_new();
	const char *t = bad_records[_i].text;
	FILE *f = fmemopen((void *)t, strlen(t), "r");
	char buf[512];
	bs_error err;

	ck_assert_int_eq(bs_sassprof_read_records(p, f, "r.tsv", &err), -1);
	bs_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, bad_records[_i].want);
	fclose(f);
	bs_sassprof_free(p);
}
END_TEST

/* ---- the fixture ------------------------------------------------------------ */

static bs_sassprof *fixture(void)
{
	bs_sassprof *p = bs_sassprof_new();
	FILE *f = fopen(DSMEM "records.tsv", "r");
	bs_error err;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(bs_sassprof_read_records(p, f, "records.tsv", &err),
			 0);
	fclose(f);
	ck_assert_ptr_nonnull(f = fopen(DSMEM "cubin-9.sass", "r"));
	ck_assert_int_eq(bs_sassprof_read_disasm(p, CRC, f, "cubin-9.sass",
						 &err), 0);
	fclose(f);
	ck_assert_uint_eq(bs_sassprof_finish(p), 4);
	return p;
}

START_TEST(test_fixture_records)
{
	bs_sassprof *p = fixture();
	const bs_sass_insn *red = at_pc(p, 0x10), *ld = at_pc(p, 0x20);

	ck_assert_str_eq(red->sass, "RED.E.ADD.STRONG.GPU [R2.64], R5");
	ck_assert_uint_eq(red->executions, 64);
	ck_assert_uint_eq(red->dshared, 64);
	ck_assert_str_eq(ld->sass, "LD.E.128 R4, [R2.64]");
	ck_assert_uint_eq(ld->dshared, 48);
	ck_assert_int_eq(at_pc(p, 0x50)->dshared_known, 0);
	ck_assert_ptr_null(at_pc(p, 0x40));     /* the global LD.E */
	bs_sassprof_free(p);
}
END_TEST

/* The remote samples of function fn's pc in an explain.tsv, each
 * predicted through its SASS's kind, into sum (how many, at most max). */
static size_t priced_in(bs_explain *e, const char *fn, uint32_t pc,
			const char *sass, bs_summary *sum, size_t max)
{
	const bs_explain_insn *x = bs_explain_find(e, fn, pc);
	size_t n = 0;

	ck_assert_ptr_nonnull(x);
	for (size_t i = 0; i < x->n && n < max; i++) {
		const bs_explain_sample *s = bs_explain_sample_at(e,
								  x->first + i);
		bs_access a;

		if (strcmp(s->kind, "remote"))
			continue;
		memset(&a, 0, sizeof a);
		ck_assert_int_eq(bs_sass_remote_kind(sass, &a.kind, &a.width),
				 1);
		ck_assert_uint_eq(a.width, s->width);
		a.active = s->active;
		memcpy(a.addr, s->addr, sizeof a.addr);
		ck_assert_int_eq(bs_predict(bs_arch_default(), &a, &sum[n++],
					    NULL), 0);
	}
	return n;
}

/* The same in the fixture's kernel. */
static size_t priced(bs_explain *e, uint32_t pc, const char *sass,
		     bs_summary *sum, size_t max)
{
	return priced_in(e, "_Z9cluster_kPj", pc, sass, sum, max);
}

/*
 * The numbers the profile_dsmem_text golden case prints.  RED.E.ADD's
 * two samples: 32 lanes on one word, then on 32 consecutive words;
 * `bankscope predict --kind dsmem.red.add.u32 --expr 0` gives 64
 * sectors (32 passes), 1 line, 1 dshared wavefront, and --expr lane 8
 * sectors (4 passes), 1 line.  LD.E.128's: 32 lanes of 16 contiguous
 * bytes, `bankscope predict --kind dsmem.ld --width 16 --expr lane`: 16
 * sectors, 4 lines, 1 dshared wavefront, latency 235.38 cycles (202.9 +
 * 2.03 x 16: a 16-byte load's line).
 */
START_TEST(test_fixture_samples)
{
	bs_explain *e = bs_explain_new();
	FILE *f = fopen(DSMEM "explain.tsv", "r");
	bs_summary s[4];
	bs_error err;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(bs_explain_read(e, f, "explain.tsv", &err), 0);
	fclose(f);
	ck_assert_uint_eq(priced(e, 0x10, "RED.E.ADD.STRONG.GPU [R2.64], R5",
				 s, 4), 2);
	ck_assert_uint_eq(s[0].sectors, 64);
	ck_assert_uint_eq(s[0].passes, 32);
	ck_assert_uint_eq(s[0].lines, 1);
	/* 32 lanes on one word: a dshared wavefront each (docs/model.md) */
	ck_assert_uint_eq(s[0].wavefronts, 32);
	ck_assert(isnan(s[0].latency_cycles));
	ck_assert_uint_eq(s[1].sectors, 8);
	ck_assert_uint_eq(s[1].passes, 4);
	ck_assert_uint_eq(priced(e, 0x20, "LD.E.128 R4, [R2.64]", s, 4), 2);
	for (int i = 0; i < 2; i++) {
		ck_assert_uint_eq(s[i].sectors, 16);
		ck_assert_uint_eq(s[i].lines, 4);
		ck_assert_uint_eq(s[i].wavefronts, 1);
		ck_assert_int_eq((int)lround(s[i].latency_cycles * 100),
				 23538);
	}
	ck_assert_str_eq(bs_explain_sample_at(e, bs_explain_find(
		e, "_Z9cluster_kPj", 0x20)->first + 2)->kind, "ld");
	bs_explain_free(e);
}
END_TEST

/*
 * The CUDA Programming Guide's cluster histogram on an H200
 * (data/h200/dsmem-profile-20261128): sm_90's model on the recorded
 * addresses of its ATOM.E.ADD, summed over the sampled remote executions
 * (all of them: 16, as records.tsv's dshared counts), is what Nsight
 * Compute counted for the kernel: 1024 dshared read sectors, 512 dshared
 * wavefronts, 16 dshared atomics.
 */
#define HIST "data/h200/dsmem-profile-20261128/"

static double ncu_metric(const char *name)
{
	tu_csv c;
	double v = -1;
	int m, val;

	tu_csv_open(&c, HIST "hist-ncu.csv");
	m = tu_csv_column(&c, "metric");
	val = tu_csv_column(&c, "value");
	while (tu_csv_next(&c) > 0)
		if (!strcmp(c.v[m], name))
			v = atof(c.v[val]);
	tu_csv_close(&c);
	ck_assert_msg(v >= 0, "%s not in hist-ncu.csv", name);
	return v;
}

START_TEST(test_histogram_counts)
{
	const char *sass = "ATOM.E.ADD.STRONG.GPU PT, RZ, desc[UR6][R12.64], "
			   "R17";
	bs_explain *e = bs_explain_new();
	FILE *f = fopen(HIST "hist/explain.tsv", "r");
	unsigned long sectors = 0, wavefronts = 0;
	bs_summary sum[32];
	size_t remote;
	bs_error err;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(bs_explain_read(e, f, "explain.tsv", &err), 0);
	fclose(f);
	remote = priced_in(e, "_Z18clusterHist_kernelPiiiPKim", 0x710, sass,
			   sum, 32);
	for (size_t i = 0; i < remote; i++) {
		sectors += sum[i].sectors;
		wavefronts += sum[i].wavefronts;
	}
	bs_explain_free(e);
	ck_assert_uint_eq(remote, 16);
	ck_assert_uint_eq(remote, (unsigned long)ncu_metric(
		"sm__sass_inst_executed_op_dshared_atom.sum"));
	ck_assert_uint_eq(sectors, (unsigned long)ncu_metric(
		"l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_atom.sum"));
	ck_assert_uint_eq(wavefronts, (unsigned long)ncu_metric(
		"l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_atom.sum"));
}
END_TEST

Suite *remote_profile_suite(void)
{
	return tu_suite("remote_profile", "dshared", 0, (const tu_test[]){
		{ test_remote_kind, TU_ROWS(generic) },
		{ test_dshared_sums, 1 }, { test_old_records, 1 },
		{ test_bad_dshared, TU_ROWS(bad_records) },
		{ test_fixture_records, 1 }, { test_fixture_samples, 1 },
		{ test_histogram_counts, 1 }, { NULL, 0 } });
}
