/*
 * check_profile.c - per-instruction profiles: the records reader, the
 * disassembly parser and the bankscope profile command, without a GPU.
 *
 * The fixture tests/cases/profile/transpose/ is a records directory
 * written on the H100 (CUDA 13.0, driver 580.159) by bankscope profile
 * with libbankscope_inject.so for build/tests/transpose, two runs (one
 * kernel each), with nvdisasm's disassembly of its cubin (and cuobjdump
 * -sass of the program from the same machine): transpose_naive's column
 * read LDS costs 32 wavefronts for an ideal of 1 in each of its 32768
 * warp executions, transpose_padded's 1.  Its replays must give
 * expected.txt, .csv, .json and expected_stderr.txt exactly.
 * sample-transpose/ is the CUDA sample transpose profiled with --explain
 * on the same machine; triton-cg/ the Triton fp16 matmul kernel's part
 * of a later --explain run (its records, launches, explain records with
 * cp.async sources, and disassembly: data/h100-sxm/explain-sources-
 * 20261124); explain/ and window/ are made by hand (fake
 * records, disassembly and explain records, each value chosen to give
 * one verdict or one count).  garbled/, missing_records/ and
 * not_allowed/ hold broken directories; fake/program.sh stands in for a
 * CUDA program and the injection library, to run the command's repeated
 * runs; /bin/false, /bin/true and a shell that kills itself check the
 * exit status pass-through (they load no CUDA, so the injection library
 * is never loaded: --inject /dev/null).  The program is $BANKSCOPE (make
 * check sets it); $BANKSCOPE_PROFILE_CASES overrides the
 * cases folder.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bankscope.h"
#include "testutil.h"

#define CRC 1656416357u
#define NAIVE "transpose_naive(float*, float const*)"
#define PADDED "transpose_padded(float*, float const*)"
#define SOURCE "/work/main/.carry/d/tests/cuda/transpose.cu"

static FILE *open_case(const char *dir, const char *file)
{
	char *p = tu_profile_case(dir, file);
	FILE *f = fopen(p, "r");

	ck_assert_msg(f != NULL, "%s: %s", p, strerror(errno));
	free(p);
	return f;
}

/* The transpose fixture read through the library, finished. */
static bs_sassprof *transpose(int with_disasm, const char *disasm_file)
{
	bs_sassprof *p = bs_sassprof_new();
	bs_error err;
	FILE *f;

	ck_assert_ptr_nonnull(p);
	f = open_case("transpose", "records.tsv");
	ck_assert_int_eq(bs_sassprof_read_records(p, f, "records.tsv", &err),
			 0);
	fclose(f);
	f = open_case("transpose", "launches.tsv");
	ck_assert_int_eq(bs_sassprof_read_launches(p, f, "launches.tsv", &err),
			 0);
	fclose(f);
	if (with_disasm) {
		f = open_case("transpose", disasm_file);
		ck_assert_int_eq(bs_sassprof_read_disasm(p, CRC, f, disasm_file,
							 &err), 0);
		fclose(f);
	}
	bs_sassprof_finish(p);
	return p;
}

/* ---- the library -------------------------------------------------------- */

START_TEST(test_transpose_table)
{
	static const struct {
		const char *kernel, *function;
		uint32_t pc;
		const char *sass;
		unsigned long line;
		uint64_t exec, wf, ideal;
		int64_t excess;
	} want[] = {
		{ NAIVE, "_Z15transpose_naivePfPKf", 0x1a0, "LDS R9, [R6]", 47,
		  32768, 1048576, 32768, 1015808 },
		{ NAIVE, "_Z15transpose_naivePfPKf", 0x180, "STS [R5], R0", 43,
		  32768, 32768, 32768, 0 },
		{ PADDED, "_Z16transpose_paddedPfPKf", 0x180, "STS [R5], R0", 56,
		  32768, 32768, 32768, 0 },
		{ PADDED, "_Z16transpose_paddedPfPKf", 0x1a0, "LDS R9, [R6]", 60,
		  32768, 32768, 32768, 0 },
	};
	bs_sassprof *p = transpose(1, "cubin-1656416357.sass");
	bs_sassprof_totals t;

	ck_assert_ptr_null(bs_sassprof_get(p, 4));
	for (size_t i = 0; i < 4; i++) {
		const bs_sass_insn *in = bs_sassprof_get(p, i);

		ck_assert_ptr_nonnull(in);
		ck_assert_str_eq(in->kernel, want[i].kernel);
		ck_assert_str_eq(in->function, want[i].function);
		ck_assert_uint_eq(in->cubin_crc, CRC);
		ck_assert_uint_eq(in->pc, want[i].pc);
		ck_assert_str_eq(in->sass, want[i].sass);
		ck_assert_str_eq(in->source_file, SOURCE);
		ck_assert_uint_eq(in->source_line, want[i].line);
		ck_assert_uint_eq(in->launches, 1);
		ck_assert_uint_eq(in->executions, want[i].exec);
		ck_assert_uint_eq(in->wavefronts, want[i].wf);
		ck_assert_uint_eq(in->ideal, want[i].ideal);
		ck_assert_int_eq(in->excess, want[i].excess);
		ck_assert_ptr_null(in->not_counted);
	}
	bs_sassprof_get_totals(p, &t);
	ck_assert_uint_eq(t.records, 58);
	ck_assert_uint_eq(t.instructions, 58);
	ck_assert_uint_eq(t.disassembled, 58);
	ck_assert_uint_eq(t.launches, 4);
	ck_assert_uint_eq(t.measured, 2);
	ck_assert_uint_eq(t.empty_launches, 0);
	ck_assert_uint_eq(t.mismatched, 0);
	ck_assert_uint_eq(t.kernels, 2);
	ck_assert_uint_eq(t.kernels_measured, 2);
	ck_assert_uint_eq(t.kernels_unlaunched, 0);
	ck_assert_uint_eq(t.not_counted, 0);
	ck_assert_uint_eq(bs_sassprof_launch_count(p), 4);
	ck_assert_str_eq(bs_sassprof_launch_at(p, 2)->kernel, PADDED);
	ck_assert_int_eq(bs_sassprof_launch_at(p, 0)->window, 1);
	ck_assert_int_eq(bs_sassprof_launch_at(p, 1)->window, 0);
	ck_assert_int_eq(bs_sassprof_launch_at(p, 2)->window, 1);
	ck_assert_int_eq(bs_sassprof_launch_at(p, 0)->measured, 1);
	ck_assert_int_eq(bs_sassprof_launch_at(p, 3)->measured, 0);
	bs_sassprof_free(p);
}
END_TEST

/* cuobjdump -sass of the program: SASS text, no source lines. */
START_TEST(test_transpose_cuobjdump)
{
	bs_sassprof *p = transpose(1, "cuobjdump-sass.txt");
	const bs_sass_insn *in = bs_sassprof_get(p, 0);

	ck_assert_uint_eq(in->pc, 0x1a0);
	ck_assert_str_eq(in->sass, "LDS R9, [R6]");
	ck_assert_ptr_null(in->source_file);
	ck_assert_uint_eq(in->source_line, 0);
	ck_assert_str_eq(bs_sassprof_get(p, 1)->sass, "STS [R5], R0");
	bs_sassprof_free(p);
}
END_TEST

/* A reader of a recorded file: records or launches. */
typedef int sass_reader(bs_sassprof *, FILE *, const char *, bs_error *);

/* text (n bytes) read into p by read, as file name: read's result. */
static int read_text(bs_sassprof *p, sass_reader *read, const char *text,
		     size_t n, const char *name, bs_error *err)
{
	FILE *f = fmemopen((void *)text, n, "r");
	int rc;

	ck_assert_ptr_nonnull(f);
	rc = read(p, f, name, err);
	fclose(f);
	return rc;
}

/* text, as file name, that read refuses with the one message want. */
static void refuses(sass_reader *read, const char *text, const char *name,
		    const char *want)
{
	bs_sassprof *p = bs_sassprof_new();
	char buf[512];
	bs_error err;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(read_text(p, read, text, strlen(text), name, &err),
			 -1);
	bs_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, want);
	bs_sassprof_free(p);
}

/* Without a disassembly: the instructions with shared wavefronts. */
START_TEST(test_transpose_no_disasm)
{
	bs_sassprof *p = transpose(0, NULL);

	ck_assert_uint_eq(bs_sassprof_get(p, 0)->pc, 0x1a0);
	ck_assert_ptr_null(bs_sassprof_get(p, 0)->sass);
	ck_assert_str_eq(bs_sassprof_get(p, 1)->kernel, NAIVE);
	ck_assert_uint_eq(bs_sassprof_get(p, 1)->pc, 0x180);
	ck_assert_str_eq(bs_sassprof_get(p, 3)->kernel, PADDED);
	ck_assert_uint_eq(bs_sassprof_get(p, 3)->pc, 0x1a0);
	ck_assert_ptr_null(bs_sassprof_get(p, 4));
	bs_sassprof_free(p);
}
END_TEST

static const struct {
	const char *sass;
	int shared;
} opcodes[] = {
	{ "LDS R9, [R6]", 1 },
	{ "LDS.U8 R0, [R2+0x4]", 1 },
	{ "LDS.128 R4, [R0]", 1 },
	{ "@P0 LDS.64 R2, [R3]", 1 },
	{ "@!PT STS.64 [R5], R2", 1 },
	{ "LDSM.16.M88.4 R4, [R8]", 1 },
	{ "STSM.16.M88.2 [R2], R4", 1 },
	{ "ATOMS.ADD RZ, [R2], R3", 1 },
	{ "ATOMS.CAS.64 R4, [R2], R4, R6", 1 },
	{ "LDG.E R0, desc[UR4][R2.64]", 0 },
	{ "STG.E desc[UR4][R2.64], R9", 0 },
	{ "LD.E R0, [R2.64]", 0 },
	/* cp.async, a row of the kinds table since it is modeled */
	{ "LDGSTS.E [R3], desc[UR4][R4.64]", 1 },
	{ "ATOM.E.ADD.STRONG.GPU PT, R0, [R2.64], R5", 0 },
	{ "BAR.SYNC.DEFER_BLOCKING 0x0", 0 },
	{ "LDSX R0, [R1]", 0 },
};

START_TEST(test_is_shared)
{
	ck_assert_msg(bs_sass_is_shared(opcodes[_i].sass) == opcodes[_i].shared,
		      "'%s' should%s be a shared-memory instruction",
		      opcodes[_i].sass, opcodes[_i].shared ? "" : " not");
}
END_TEST

#define HEAD "kernel\tlaunch\tcubin_crc\tfunction_index\tfunction\t" \
	     "pc_offset\tinst_executed\twavefronts\twavefronts_ideal\n"
#define LINE "k()\t0\t7\t0\t_Z1kv\t0x10\t1\t2\t1\n"

static const struct {
	const char *text, *want;
} bad_records[] = {
	{ "", "r.tsv: empty file: expected the header line" },
	{ "kernel\tlaunch\n", "r.tsv:1:14: not the expected header line" },
	{ HEAD "k()\t0\t7\t0\t_Z1kv\t0x10\t1\t2\n",
	  "r.tsv:2:25: 8 tab-separated fields, expected 9 (a record)" },
	{ HEAD "k()\t0\t7\t0\t_Z1kv\t0x10\t1\t2\t1\t9\n",
	  "r.tsv:2:28: more than 9 tab-separated fields (a record)" },
	{ HEAD LINE "k()\tx\t7\t0\t_Z1kv\t0x10\t1\t2\t1\n",
	  "r.tsv:3:5: launch: 'x' is not a non-negative integer" },
	{ HEAD "k()\t0\t4294967296\t0\t_Z1kv\t0x10\t1\t2\t1\n",
	  "r.tsv:2:7: cubin_crc: 4294967296 is larger than 4294967295" },
	{ HEAD "\t0\t7\t0\t_Z1kv\t0x10\t1\t2\t1\n",
	  "r.tsv:2:1: kernel is empty" },
	{ HEAD "k()\t0\t7\t0\t\t0x10\t1\t2\t1\n",
	  "r.tsv:2:11: function is empty" },
	{ HEAD "k()\t0\t7\t0\t_Z1kv\t0x1g\t1\t2\t1\n",
	  "r.tsv:2:17: pc_offset: '0x1g' is not a non-negative integer" },
	{ HEAD "k()\t0\t7\t0\t_Z1kv\t0x10\t1\t-2\t1\n",
	  "r.tsv:2:24: wavefronts: '-2' is not a non-negative integer" },
	/* the injection library writes every count in decimal */
	{ HEAD "k()\t0\t7\t0\t_Z1kv\t0x10\t1\t0x20\t1\n",
	  "r.tsv:2:24: wavefronts: '0x20' is not decimal (pc_offset alone is "
	  "hex)" },
	{ HEAD "k()\t0\t7\t0\t_Z1kv\t0x10\t1\t2\t9223372036854775808\n",
	  "r.tsv:2:26: wavefronts_ideal: 9223372036854775808 is larger than "
	  "9223372036854775807" },
	/* cut inside its last number: 1048 of 1048576 is no count */
	{ HEAD "k()\t-\t7\t0\t_Z1kv\t0x10\t32768\t1048576\t1048",
	  "r.tsv:2: the last line has no newline: the file is truncated" },
	{ "kernel\tlaunch", "r.tsv:1: the last line has no newline: the file "
	  "is truncated" },
	/* a duplicated line would double every count */
	{ HEAD "k()\t-\t7\t0\t_Z1kv\t0x10\t1\t2\t1\n"
	  "k()\t-\t7\t0\t_Z1kv\t0x20\t1\t2\t1\n"
	  "k()\t-\t7\t0\t_Z1kv\t0x10\t1\t2\t1\n",
	  "r.tsv:4: a second record of cubin 7, function _Z1kv, pc 0x10, "
	  "launch -, as on line 2: a duplicated line (each run writes an "
	  "instruction once per launch or window)" },
	{ HEAD LINE "k()\t1\t7\t0\t_Z1kv\t0x10\t1\t2\t1\n" LINE,
	  "r.tsv:4: a second record of cubin 7, function _Z1kv, pc 0x10, "
	  "launch 0, as on line 2: a duplicated line (each run writes an "
	  "instruction once per launch or window)" },
	{ HEAD "k()\t18446744073709551615\t7\t0\t_Z1kv\t0x10\t1\t2\t1\n",
	  "r.tsv:2:5: launch: 18446744073709551615 is larger than "
	  "18446744073709551614" },
	/* sums past INT64_MAX would make excess disagree with wavefronts */
	{ HEAD "k()\t0\t7\t0\t_Z1kv\t0x10\t1\t9223372036854775807\t0\n"
	  "k()\t1\t7\t0\t_Z1kv\t0x10\t1\t1\t0\n",
	  "r.tsv:3:24: wavefronts: the sum of this instruction's records "
	  "passes 9223372036854775807" },
};

START_TEST(test_bad_records)
{
	refuses(bs_sassprof_read_records, bad_records[_i].text, "r.tsv",
		bad_records[_i].want);
}
END_TEST

/* The largest counts pass, and excess is exact at both ends. */
START_TEST(test_count_limits)
{
	static const char rec[] = HEAD
		"k()\t-\t7\t0\t_Z1kv\t0x10\t1\t9223372036854775807\t0\n"
		"k()\t-\t7\t0\t_Z1kv\t0x20\t1\t1\t9223372036854775807\n";
	bs_sassprof *p = bs_sassprof_new();
	const bs_sass_insn *in;
	bs_error err;

	ck_assert_int_eq(read_text(p, bs_sassprof_read_records, rec,
				   strlen(rec), "r.tsv", &err), 0);
	ck_assert_uint_eq(bs_sassprof_finish(p), 2);
	in = bs_sassprof_get(p, 0);
	ck_assert_uint_eq(in->pc, 0x10);
	ck_assert(in->wavefronts == 9223372036854775807ull);
	ck_assert(in->excess == INT64_MAX);
	in = bs_sassprof_get(p, 1);
	ck_assert_uint_eq(in->pc, 0x20);
	ck_assert(in->excess == -INT64_MAX + 1);
	bs_sassprof_free(p);
}
END_TEST

/* launches.tsv that the reader refuses, and its one message. */
static const struct {
	const char *text, *want;
} bad_launches[] = {
	{ "launch\tkernel\tpc_records\n0\tk()\t-\n1\tk()\tmany\n",
	  "l.tsv:3:7: pc_records: 'many' is not a non-negative integer" },
	{ "launch\tkernel\tpc_records\n0\tk()\t*\n1\tk()\t*",
	  "l.tsv:3: the last line has no newline: the file is truncated" },
};

START_TEST(test_bad_launches)
{
	refuses(bs_sassprof_read_launches, bad_launches[_i].text, "l.tsv",
		bad_launches[_i].want);
}
END_TEST

/* Records of two launches sum; a CR line end and blank lines pass; ties
 * in excess go by kernel, then pc. */
START_TEST(test_sums_and_order)
{
	static const char rec[] = HEAD
		"k()\t0\t7\t0\t_Z1kv\t0x20\t2\t4\t2\r\n"
		"\n"
		"k()\t1\t7\t0\t_Z1kv\t0x20\t2\t4\t2\n"
		"k()\t1\t7\t0\t_Z1kv\t16\t1\t2\t1\n"
		"j()\t1\t7\t1\t_Z1jv\t0x30\t1\t5\t1\n"
		"j()\t1\t7\t1\t_Z1jv\t0x40\t1\t0\t0\n";
	static const char dis[] =
		"\tFunction : _Z1kv\n"
		"        /*0010*/   @P0 LDS.U16 R0, [R1+0x4] ;  /* 0x00 */\n"
		"                                       /* 0x000fe2 */\n"
		"        /*0020*/   STS.64 [R2], R4 ;\n"
		"\tFunction : _Z1jv\n"
		"        /*0030*/   LD.E R0, [R2.64] ;\n"
		"        /*0040*/   IADD3 R0, R0, 0x1, RZ ;\n";
	bs_sassprof *p = bs_sassprof_new();
	FILE *f = fmemopen((void *)rec, strlen(rec), "r");
	FILE *g = fmemopen((void *)dis, strlen(dis), "r");
	const bs_sass_insn *in;
	bs_error err;

	ck_assert_int_eq(bs_sassprof_read_records(p, f, "r.tsv", &err), 0);
	ck_assert_int_eq(bs_sassprof_read_disasm(p, 7, g, "d.sass", &err), 0);
	ck_assert_uint_eq(bs_sassprof_finish(p), 3);
	in = bs_sassprof_get(p, 0);
	ck_assert_str_eq(in->kernel, "j()");
	ck_assert_str_eq(in->sass, "LD.E R0, [R2.64]");
	ck_assert_int_eq(in->excess, 4);
	in = bs_sassprof_get(p, 1);
	ck_assert_str_eq(in->kernel, "k()");
	ck_assert_uint_eq(in->pc, 0x20);
	ck_assert_str_eq(in->sass, "STS.64 [R2], R4");
	ck_assert_uint_eq(in->launches, 2);
	ck_assert_uint_eq(in->executions, 4);
	ck_assert_uint_eq(in->wavefronts, 8);
	ck_assert_uint_eq(in->ideal, 4);
	ck_assert_int_eq(in->excess, 4);
	in = bs_sassprof_get(p, 2);
	ck_assert_uint_eq(in->pc, 0x10);
	ck_assert_str_eq(in->sass, "@P0 LDS.U16 R0, [R1+0x4]");
	ck_assert_int_eq(in->excess, 1);
	ck_assert_int_eq(bs_sassprof_read_records(p, f, "r.tsv", &err), -1);
	fclose(f);
	fclose(g);
	bs_sassprof_free(p);
}
END_TEST

static const struct {
	const char *sass, *why;        /* why: a word of the reason, or NULL */
} uncounted[] = {
	{ "UTMALDG.2D [UR8], [UR4]", "TMA load" },
	{ "@P0 UTMASTG.3D [UR4], [UR8]", "TMA store" },
	{ "UTMAREDG.2D.ADD [UR4], [UR8]", "TMA reduction" },
	{ "UBLKCP.S.G [UR4], [UR6], UR8", "bulk copy" },
	{ "HGMMA.64x128x16.F32 R24, gdesc[UR4], R24", "warpgroup MMA" },
	{ "HGMMA.64x64x16.F32 R24, R152, gdesc[UR8], R24, gsb0", "warpgroup" },
	{ "IGMMA.64x64x32.S8.S8 R24, gdesc[UR4], R24", "warpgroup MMA" },
	{ "LDS R9, [R6]", NULL },
	{ "LDSM.16.M88.4 R8, [R7]", NULL },
	{ "LDGSTS.E [R3], desc[UR4][R4.64]", NULL },
	{ "HMMA.16816.F32 R4, R8, R12, R4", NULL },
	{ "UTMALDGX R1, [R2]", NULL },
};

START_TEST(test_not_counted)
{
	const char *why = bs_sass_not_counted(uncounted[_i].sass);

	if (!uncounted[_i].why)
		ck_assert_msg(why == NULL, "'%s' should be counted",
			      uncounted[_i].sass);
	else
		ck_assert_msg(why && strstr(why, uncounted[_i].why),
			      "'%s': %s", uncounted[_i].sass,
			      why ? why : "(counted)");
}
END_TEST

/*
 * The cubin's function symbols, for nvdisasm -fun.  sample-transpose's
 * cubin (nvcc 13.0, sm_90) as readelf -sW lists it: the eight kernels
 * are FUNC symbols 26 to 33; its records name the same eight.
 */
static const struct {
	const char *name;
	unsigned long index;
} transpose_funcs[] = {
	{ "_Z13copySharedMemPfS_ii", 32 },
	{ "_Z14transposeNaivePfS_ii", 31 },
	{ "_Z17transposeDiagonalPfS_ii", 28 },
	{ "_Z18transposeCoalescedPfS_ii", 30 },
	{ "_Z20transposeFineGrainedPfS_ii", 27 },
	{ "_Z22transposeCoarseGrainedPfS_ii", 26 },
	{ "_Z24transposeNoBankConflictsPfS_ii", 29 },
	{ "_Z4copyPfS_ii", 33 },
};
#define TRANSPOSE_CUBIN "sample-transpose/cubin-3841536004.cubin"

static unsigned char *transpose_cubin(size_t *len)
{
	char *path = tu_profile_case(TRANSPOSE_CUBIN, "");
	unsigned char *buf = (unsigned char *)tu_slurp(path, len);

	ck_assert_msg(buf != NULL, "%s", path);
	free(path);
	return buf;
}

START_TEST(test_cubin_indexes)
{
	const char *names[] = { "_Z4copyPfS_ii", "_Z14transposeNaivePfS_ii",
				".text._Z4copyPfS_ii", "nope",
				"_Z13copySharedMemPfS_ii" };
	unsigned long idx[5];
	size_t len;
	unsigned char *buf = transpose_cubin(&len);
	bs_error err;

	/* a section symbol of the same function is not a FUNC symbol */
	ck_assert_int_eq(bs_cubin_function_indexes(buf, len, names, 5, idx,
						   &err), 3);
	ck_assert_uint_eq(idx[0], 33);
	ck_assert_uint_eq(idx[1], 31);
	ck_assert_uint_eq(idx[2], 0);
	ck_assert_uint_eq(idx[3], 0);
	ck_assert_uint_eq(idx[4], 32);
	free(buf);
}
END_TEST

/* Every prefix of the cubin: an error or a count, never a read past the
 * end (the sanitizer build checks that).  readelf -h: 54 section
 * headers of 64 bytes from byte 36544, the program headers after them
 * (from 40000, not read): a prefix that cuts the section headers is an
 * error, a longer one finds the function. */
START_TEST(test_cubin_truncated)
{
	const char *names[] = { "_Z4copyPfS_ii" };
	unsigned long idx[1];
	size_t len;
	unsigned char *buf = transpose_cubin(&len);
	bs_error err;

	/*
	 * Each cut in a buffer of its own size, so that a read past it is
	 * caught (ASan, valgrind).  The reader reads the 64-byte ELF header,
	 * then only the section table (36544..40000) and what it points
	 * to, all before 40000: every cut of the header and from a little
	 * before the table to the end, and a cut every 1000 bytes between,
	 * where each fails the same check (the whole of every length took
	 * over 4 s under the sanitizers on a loaded machine).
	 */
	for (size_t l = 0; l < len;
	     l += l >= 128 && l + 1000 < 36544 - 64 ? 1000 : 1) {
		unsigned char *cut = malloc(l ? l : 1);

		memcpy(cut, buf, l);
		ck_assert_msg(bs_cubin_function_indexes(cut, l, names, 1, idx,
							&err) ==
			      (l < 36544 + 54 * 64 ? -1 : 1),
			      "prefix of %zu bytes", l);
		free(cut);
	}
	ck_assert_int_eq(bs_cubin_function_indexes(buf, len, names, 1, idx,
						   &err), 1);
	buf[4] = 1;
	ck_assert_int_eq(bs_cubin_function_indexes(buf, len, names, 1, idx,
						   &err), -1);
	ck_assert_str_eq(err.text, "not a 64-bit little-endian ELF file "
			 "(a cubin is)");
	memcpy(buf, "#!/b", 4);
	ck_assert_int_eq(bs_cubin_function_indexes(buf, len, names, 1, idx,
						   &err), -1);
	ck_assert_str_eq(err.text, "not an ELF file");
	free(buf);
}
END_TEST

/* The functions a cubin's records name, and their symbols' indexes. */
START_TEST(test_recorded_functions)
{
	bs_sassprof *p = bs_sassprof_new();
	const char *name[16];
	unsigned long idx[16];
	bs_error err;
	size_t len, n;
	unsigned char *buf;
	FILE *f = open_case("sample-transpose", "records.tsv");

	ck_assert_int_eq(bs_sassprof_read_records(p, f, "r", &err), 0);
	fclose(f);
	ck_assert_uint_eq(bs_sassprof_functions(p, 7, name, 16), 0);
	n = bs_sassprof_functions(p, 3841536004u, name, 16);
	ck_assert_uint_eq(n, 8);
	ck_assert_uint_eq(bs_sassprof_functions(p, 3841536004u, name, 2), 8);
	n = bs_sassprof_functions(p, 3841536004u, name, 16);
	buf = transpose_cubin(&len);
	ck_assert_int_eq(bs_cubin_function_indexes(buf, len, name, n, idx,
						   &err), 8);
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		while (k < 8 && strcmp(transpose_funcs[k].name, name[i]))
			k++;
		ck_assert_msg(k < 8, "%s not a recorded function", name[i]);
		ck_assert_uint_eq(idx[i], transpose_funcs[k].index);
	}
	free(buf);
	bs_sassprof_free(p);
}
END_TEST

static bs_sassprof *read_case(const char *dir, int disasm)
{
	bs_sassprof *p = bs_sassprof_new();
	bs_error err;
	FILE *f;

	f = open_case(dir, "records.tsv");
	ck_assert_int_eq(bs_sassprof_read_records(p, f, "r", &err), 0);
	fclose(f);
	f = open_case(dir, "launches.tsv");
	ck_assert_int_eq(bs_sassprof_read_launches(p, f, "l", &err), 0);
	fclose(f);
	if (disasm) {
		f = open_case(dir, "cubin-7.sass");
		ck_assert_int_eq(bs_sassprof_read_disasm(p, 7, f, "d", &err),
				 0);
		fclose(f);
	}
	bs_sassprof_finish(p);
	return p;
}

/* window/: launches a b a c d, all but c selected ("*"); records of a
 * and of e, a kernel no launch line names: kernels come from the launch
 * lines, e is counted apart, b and d are selected without records. */
START_TEST(test_window_counts)
{
	bs_sassprof *p = read_case("window", 1);
	bs_sassprof_totals t;

	bs_sassprof_get_totals(p, &t);
	ck_assert_uint_eq(t.launches, 5);
	ck_assert_uint_eq(t.kernels, 4);
	ck_assert_uint_eq(t.kernels_measured, 1);
	ck_assert_uint_eq(t.kernels_unlaunched, 1);
	ck_assert_uint_eq(t.measured, 2);
	ck_assert_uint_eq(t.empty_launches, 2);
	ck_assert_uint_eq(t.records, 2);
	ck_assert_str_eq(bs_sassprof_get(p, 0)->kernel, "a()");
	ck_assert_uint_eq(bs_sassprof_get(p, 0)->launches, 2);
	ck_assert_str_eq(bs_sassprof_get(p, 1)->kernel, "e()");
	ck_assert_uint_eq(bs_sassprof_get(p, 1)->launches, 0);
	bs_sassprof_free(p);
}
END_TEST

/* explain/: TMA and warpgroup MMA kept as not counted, after the
 * counted ones; an IADD3 with no wavefront dropped. */
START_TEST(test_not_counted_kept)
{
	bs_sassprof *p = read_case("explain", 1);
	size_t n;
	bs_sassprof_totals t;

	bs_sassprof_get_totals(p, &t);
	n = bs_sassprof_finish(p);
	ck_assert_uint_eq(n, 8);
	ck_assert_uint_eq(t.not_counted, 2);
	ck_assert_uint_eq(t.instructions, 9);
	ck_assert_ptr_null(bs_sassprof_get(p, 5)->not_counted);
	ck_assert_uint_eq(bs_sassprof_get(p, 6)->pc, 0x60);
	ck_assert_ptr_nonnull(bs_sassprof_get(p, 6)->not_counted);
	ck_assert_uint_eq(bs_sassprof_get(p, 7)->pc, 0x70);
	ck_assert_ptr_nonnull(bs_sassprof_get(p, 7)->not_counted);
	bs_sassprof_free(p);
}
END_TEST

/* Launch lines and records in any order: the launches come back sorted,
 * each found again (a hash, not a sorted insert: 200000 of them took
 * 17.6 s before). */
/* Kernel names of 2000 characters, as a PyTorch program has (2117 in
 * data/h200/profile-bench-20261127b): two kernels, each launched twice,
 * the first launch of each flushed alone (launch index in its records),
 * as one run writes them.  The header's counts: 4 launches, 2 kernels,
 * 2 measured, none empty, every record's kernel launched. */
START_TEST(test_long_kernel_names)
{
	char a[2001], b[2001], *rec, *lau;
	bs_sassprof *p = bs_sassprof_new();
	bs_sassprof_totals t;
	bs_error err;

	memset(a, 'a', 2000);
	memset(b, 'a', 2000);
	a[2000] = b[2000] = '\0';
	b[1999] = 'b';  /* the same first 1999 characters */
	rec = malloc(8192);
	lau = malloc(16384);
	ck_assert_ptr_nonnull(rec);
	ck_assert_ptr_nonnull(lau);
	snprintf(rec, 8192, BS_SASS_RECORD_COLUMNS "\n"
		 "%s\t0\t7\t0\t_Z1av\t0x10\t1\t10\t10\n"
		 "%s\t1\t7\t0\t_Z1bv\t0x10\t1\t11\t10\n", a, b);
	snprintf(lau, 16384, BS_SASS_LAUNCH_COLUMNS "\n"
		 "0\t%s\t1\n1\t%s\t1\n2\t%s\t-\n3\t%s\t-\n",
		 a, b, a, b);
	ck_assert_int_eq(read_text(p, bs_sassprof_read_records, rec,
				   strlen(rec), "records.tsv", &err), 0);
	ck_assert_int_eq(read_text(p, bs_sassprof_read_launches, lau,
				   strlen(lau), "launches.tsv", &err), 0);
	bs_sassprof_finish(p);
	bs_sassprof_get_totals(p, &t);
	ck_assert_uint_eq(t.launches, 4);
	ck_assert_uint_eq(t.kernels, 2);
	ck_assert_uint_eq(t.measured, 2);
	ck_assert_uint_eq(t.kernels_measured, 2);
	ck_assert_uint_eq(t.empty_launches, 0);
	ck_assert_uint_eq(t.kernels_unlaunched, 0);
	ck_assert_uint_eq(t.mismatched, 0);
	bs_sassprof_free(p);
	free(rec);
	free(lau);
}
END_TEST

START_TEST(test_out_of_order)
{
	enum { N = 2000 };
	size_t cap = 64 * N, n = 0;
	char *rec = malloc(cap), *lau = malloc(cap);
	bs_sassprof *p = bs_sassprof_new();
	bs_error err;

	n = (size_t)snprintf(rec, cap, HEAD);
	for (unsigned i = 0; i < N; i++)
		n += (size_t)snprintf(rec + n, cap - n,
				      "k()\t%u\t7\t0\t_Z1kv\t0x10\t1\t2\t1\n",
				      (i * 7919u) % N);
	ck_assert_int_eq(read_text(p, bs_sassprof_read_records, rec, n, "r",
				   &err), 0);
	n = (size_t)snprintf(lau, cap, "launch\tkernel\tpc_records\n");
	for (unsigned i = N; i-- > 0;)
		n += (size_t)snprintf(lau + n, cap - n, "%u\tk()\t1\n", i);
	ck_assert_int_eq(read_text(p, bs_sassprof_read_launches, lau, n, "l",
				   &err), 0);
	ck_assert_uint_eq(bs_sassprof_launch_count(p), N);
	for (unsigned i = 0; i < N; i++) {
		const bs_sass_launch *l = bs_sassprof_launch_at(p, i);

		ck_assert_uint_eq(l->index, i);
		ck_assert_uint_eq(l->records, 1);
		ck_assert_str_eq(l->kernel, "k()");
	}
	bs_sassprof_finish(p);
	ck_assert_uint_eq(bs_sassprof_get(p, 0)->launches, N);
	ck_assert_uint_eq(bs_sassprof_get(p, 0)->executions, N);
	free(rec);
	free(lau);
	bs_sassprof_free(p);
}
END_TEST

/* explain/explain.tsv read and grouped per instruction. */
START_TEST(test_explain_read)
{
	bs_explain *e = bs_explain_new();
	const bs_explain_insn *x;
	const bs_explain_sample *s;
	bs_error err;
	FILE *f = open_case("explain", "explain.tsv");

	ck_assert_int_eq(bs_explain_read(e, f, "x", &err), 0);
	fclose(f);
	ck_assert_uint_eq(bs_explain_instructions(e), 5);
	x = bs_explain_find(e, "_Z1kPf", 0x30);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->n, 3);
	ck_assert_str_eq(x->kernel, "k(float*)");
	s = bs_explain_sample_at(e, x->first + 2);
	ck_assert_str_eq(s->kind, "atom");
	ck_assert_uint_eq(s->block, 1);
	ck_assert_uint_eq(s->active, 0xffff);
	s = bs_explain_sample_at(e, x->first + 1);
	ck_assert_uint_eq(s->warp, 1);
	ck_assert_uint_eq(s->addr[3], 384);
	x = bs_explain_find(e, "_Z1kPf", 0x40);
	s = bs_explain_sample_at(e, x->first);
	ck_assert_str_eq(s->kind, "ldsm");
	ck_assert_uint_eq(s->width, 16);
	ck_assert_uint_eq(s->count, 4);
	ck_assert_ptr_null(bs_explain_find(e, "_Z1kPf", 0x50));
	ck_assert_ptr_null(bs_explain_find(e, "_Z1jv", 0x10));
	bs_explain_free(e);
}
END_TEST

#define XHEAD "launch\tkernel\tfunction\tpc_offset\tkind\twidth\tcount\t" \
	      "block\twarp\texec\taddresses\n"
#define LANES0 "0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 " \
	       "80 84 88 92 96 100 104 108 112 116 120 124"
#define XHEADS "launch\tkernel\tfunction\tpc_offset\tkind\twidth\tcount\t" \
	       "block\twarp\texec\taddresses\tsources\n"

static const struct {
	const char *text, *want;
} bad_explain[] = {
	{ "", "x: empty file: expected the header line" },
	{ "launch\tkernel\n", "x:1:14: not the expected header line" },
	{ XHEAD "0\tk\tf\t0x10\tld\t4\t1\t0\t0\n",
	  "x:2:22: 9 tab-separated fields, expected 11" },
	{ XHEAD "0\tk\tf\t0x10\tld\t4\t1\t0\t0\t0\t" LANES0 "\t9\n",
	  "x:2:125: more than 11 tab-separated fields" },
	{ XHEAD "0\tk\tf\t0x10\tlds\t4\t1\t0\t0\t0\t" LANES0 "\n",
	  "x:2:12: kind: 'lds' is not ld, st, atom, ldsm, stsm, ldgsts or "
	  "remote" },
	{ XHEAD "0\tk\tf\t0x10\tld\t3\t1\t0\t0\t0\t" LANES0 "\n",
	  "x:2:15: width: 3 is not 1, 2, 4, 8 or 16" },
	{ XHEAD "0\tk\tf\t0x1g\tld\t4\t1\t0\t0\t0\t" LANES0 "\n",
	  "x:2:7: pc_offset: '0x1g' is not a non-negative integer" },
	/* the explain library writes every field but the pc in decimal
	   (issue 30, item 19: a width of 0x4 was taken for 4) */
	{ XHEAD "0\tk\tf\t0x10\tld\t0x4\t1\t0\t0\t0\t" LANES0 "\n",
	  "x:2:15: width: '0x4' is not decimal (pc_offset alone is hex)" },
	{ XHEAD "0x0\tk\tf\t0x10\tld\t4\t1\t0\t0\t0\t" LANES0 "\n",
	  "x:2:1: launch: '0x0' is not decimal (pc_offset alone is hex)" },
	{ XHEAD "0\tk\tf\t0x10\tld\t4\t1\t0\t0\t0\t0X10 4 8 12 "
	  "16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 "
	  "100 104 108 112 116 120 124\n",
	  "x:2:25: address: '0X10' is not decimal (pc_offset alone is hex)" },
	{ XHEAD "0\tk\tf\t0x10\tld\t4\t1\t0\t0\t0\t0 4 8\n",
	  "x:2:30: addresses: 3 lane fields, expected 32" },
	{ XHEAD "0\tk\tf\t0x10\tld\t4\t1\t0\t0\t0\t" LANES0 " 9\n",
	  "x:2:125: addresses: more than 32 lane fields" },
	{ XHEAD "0\tk\tf\t0x10\tld\t4\t1\t0\t0\t0\t- - - - - - - - - "
	  "- - - - - - - - - - - - - - - - - - - - - - -\n",
	  "x:2:25: addresses: no active lane" },
	{ XHEAD "0\tk\tf\t0x10\tld\t4\t1\t0\t0\t0\t4294967296 4 8 12 "
	  "16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 "
	  "100 104 108 112 116 120 124\n",
	  "x:2:25: address: 4294967296 is larger than 4294967295" },
	{ XHEAD "0\t\tf\t0x10\tld\t4\t1\t0\t0\t0\t" LANES0 "\n",
	  "x:2:3: kernel is empty" },
	/* the sources column (files of the explain library since
	   2026-11-24): ldgsts only, the lanes of the addresses */
	{ XHEADS "0\tk\tf\t0x10\tld\t4\t1\t0\t0\t0\t" LANES0 "\n",
	  "x:2:124: 11 tab-separated fields, expected 12" },
	{ XHEADS "0\tk\tf\t0x10\tld\t4\t1\t0\t0\t0\t" LANES0 "\t" LANES0
	  "\n", "x:2:125: sources: only ldgsts has them ('-' for ld)" },
	{ XHEADS "0\tk\tf\t0x10\tldgsts\t4\t1\t0\t0\t0\t" LANES0 "\t"
	  "- 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 "
	  "92 96 100 104 108 112 116 120 124\n",
	  "x:2:129: sources: not the lanes of the addresses" },
	{ XHEADS "0\tk\tf\t0x10\tldgsts\t4\t1\t0\t0\t0\t" LANES0 "\t1 2\n",
	  "x:2:132: sources: 2 lane fields, expected 32" },
};

/* A sources column: the ldgsts row keeps its sources, the ld row's '-'
 * none. */
START_TEST(test_explain_sources)
{
	static const char text[] = XHEADS
		"0\tk\tf\t0x10\tld\t4\t1\t0\t0\t0\t" LANES0 "\t-\n"
		"0\tk\tf\t0x20\tldgsts\t16\t1\t0\t0\t0\t"
		"- 16 32 48 64 80 96 112 128 144 160 176 192 208 224 240 256 272 288 304 320 336 352 368 384 400 416 432 448 464 480 496\t"
		"- 4096 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120 124\n";
	bs_explain *e = bs_explain_new();
	FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
	const bs_explain_sample *s;
	bs_error err;

	ck_assert_int_eq(bs_explain_read(e, f, "x", &err), 0);
	ck_assert_uint_eq(bs_explain_instructions(e), 2);
	s = bs_explain_sample_at(e, bs_explain_instruction(e, 0)->first);
	ck_assert_uint_eq(s->pc, 0x10);
	ck_assert_int_eq(s->has_src, 0);
	s = bs_explain_sample_at(e, bs_explain_instruction(e, 1)->first);
	ck_assert_uint_eq(s->pc, 0x20);
	ck_assert_int_eq(s->has_src, 1);
	ck_assert_uint_eq(s->active, 0xfffffffeu);
	ck_assert_uint_eq(s->src[1], 4096);
	ck_assert_uint_eq(s->src[2], 8);
	ck_assert_uint_eq(s->src[31], 124);
	fclose(f);
	bs_explain_free(e);
}
END_TEST

START_TEST(test_explain_bad)
{
	char buf[512];
	bs_explain *e = bs_explain_new();
	FILE *f = fmemopen((void *)bad_explain[_i].text,
			   strlen(bad_explain[_i].text) ? strlen(
				   bad_explain[_i].text) : 1, "r");
	bs_error err;

	ck_assert_ptr_nonnull(f);
	if (!strlen(bad_explain[_i].text)) {
		fclose(f);
		f = fopen("/dev/null", "r");
	}
	ck_assert_int_eq(bs_explain_read(e, f, "x", &err), -1);
	bs_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, bad_explain[_i].want);
	fclose(f);
	bs_explain_free(e);
}
END_TEST

/* ---- the command --------------------------------------------------------- */

/* Copy file name from the cases folder dir into to. */
static void copy_case(const char *dir, const char *name, const char *to)
{
	char *from = tu_profile_case(dir, name), path[1024];
	size_t len;
	char *text = tu_slurp(from, &len);
	FILE *f;

	ck_assert_msg(text != NULL, "%s", from);
	snprintf(path, sizeof path, "%s/%s", to, name);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	free(text);
	free(from);
}

/*
 * A replayed directory with a cubin and no disassembly: bankscope runs
 * nvdisasm -c -g -fun with the symbol indexes of the functions the
 * records name (sample-transpose's eight kernels: symbols 26-33, as
 * readelf -s lists them), ascending.  A stand-in nvdisasm first on PATH
 * writes its arguments to a file and prints the disassembly the H100
 * run saved, which the report then uses.
 */
START_TEST(test_replay_disassembles_recorded_functions)
{
	char dir[] = "/tmp/bankscope-fun-XXXXXX", bin[1200], tool[1300];
	char args_file[1300], path[4096], want[2048];
	char *sass = tu_profile_case("sample-transpose", "cubin-3841536004.sass");
	const char *args[] = { "profile", "--replay", dir, "--top", "1",
			       NULL };
	const char *names[] = { "status.txt", "records.tsv", "launches.tsv",
				"cubin-3841536004.cubin" };
	char *got;
	tu_run_result r;
	FILE *f;

	tu_mkdtemp(dir);
	for (size_t i = 0; i < 4; i++)
		copy_case("sample-transpose", names[i], dir);
	snprintf(bin, sizeof bin, "%s/bin", dir);
	ck_assert_int_eq(mkdir(bin, 0755), 0);
	snprintf(tool, sizeof tool, "%s/nvdisasm", bin);
	snprintf(args_file, sizeof args_file, "%s/args", bin);
	ck_assert_ptr_nonnull(f = fopen(tool, "w"));
	fprintf(f, "#!/bin/sh\nfor a; do echo \"$a\"; done > '%s'\n"
		"cat '%s'\n", args_file, sass);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(tool, 0755), 0);
	snprintf(path, sizeof path, "%s:%s", bin, getenv("PATH") ?
		 getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	r = tu_run_bankscope(args);
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.out, "launches of 8 kernels"), "%s", r.out);
	ck_assert_msg(strstr(r.out, "LDS"), "no disassembled LDS: %s", r.out);
	got = tu_slurp(args_file, NULL);
	snprintf(want, sizeof want, "-c\n-g\n-fun\n26,27,28,29,30,31,32,33\n"
		 "%s/cubin-3841536004.cubin\n", dir);
	ck_assert_str_eq(got, want);
	free(got);
	free(r.out);
	free(r.err);
	free(sass);
	tu_remove(dir);
}
END_TEST

static void replay_fixture(const char *format, const char *expected)
{
	char *dir = tu_profile_case("transpose", ""), *want = tu_profile_case("transpose",
							       expected);
	char *err = tu_profile_case("transpose", "expected_stderr.txt");
	char *w = tu_slurp(want, NULL), *e = tu_slurp(err, NULL);
	const char *args[] = { "profile", "--format", format, "--replay", dir,
			       NULL };

	ck_assert_msg(w && e, "%s or %s missing", want, err);
	tu_expect_run(tu_run_bankscope(args), 0, w, e);
	free(dir);
	free(want);
	free(err);
	free(w);
	free(e);
}

/* The fixture replayed in each format, against its expected output. */
static const char *const replay_formats[][2] = {
	{ "text", "expected.txt" },
	{ "csv", "expected.csv" },
	{ "json", "expected.json" },
};

START_TEST(test_replay_formats)
{
	replay_fixture(replay_formats[_i][0], replay_formats[_i][1]);
}
END_TEST

/* Recorded directories a replay refuses: its exit status and its one
 * message (a %s there is the directory). */
static const struct {
	const char *dir;
	int status;
	const char *err;
} refused_dirs[] = {
	{ "garbled", 2, "bankscope: %s/records.tsv:3:90: wavefronts: '1x' is "
	  "not a non-negative integer\n" },
	{ "missing_records", 2, "bankscope: %s/records.tsv: cannot open: No "
	  "such file or directory\n" },
	{ "not_allowed", 1, "bankscope: counters could not be collected: "
	  "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: counters need root or "
	  "NVreg_RestrictProfilingToAdminUsers=0 [inject.c:355: "
	  "cuptiProfilerInitialize(&init): "
	  "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES]\n" },
};

START_TEST(test_replay_refused)
{
	char *dir = tu_profile_case(refused_dirs[_i].dir, ""), want[512];
	const char *args[] = { "profile", "--replay", dir, NULL };

	snprintf(want, sizeof want, refused_dirs[_i].err, dir);
	tu_expect_run(tu_run_bankscope(args), refused_dirs[_i].status, "", want);
	free(dir);
}
END_TEST

/* A copy of transpose/'s status, records, launches, cubin and disassembly
 * in a new directory dir (a mkdtemp template). */
static void transpose_copy(char *dir)
{
	const char *names[] = { "status.txt", "records.tsv", "launches.tsv",
				"cubin-1656416357.cubin",
				"cubin-1656416357.sass" };

	tu_mkdtemp(dir);
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		copy_case("transpose", names[i], dir);
}

/*
 * A directory without status.txt is no records directory a run kept:
 * bad input that names the file, in every format (issue 30, item 19:
 * it said the program launched no kernel, exit 1, and --format json
 * printed nothing on stdout to say so), empty or not.
 */
START_TEST(test_replay_no_status)
{
	char dir[] = "/tmp/bankscope-profile-empty-XXXXXX", want[1600];
	const char *args[] = { "profile", "--replay", dir, NULL };
	const char *json[] = { "profile", "--format", "json", "--replay", dir,
			       NULL };
	char kept[] = "/tmp/bankscope-profile-kept-XXXXXX", path[1200];
	const char *kept_args[] = { "profile", "--format", "json",
				    "--replay", kept, NULL };

	tu_mkdtemp(dir);
	snprintf(want, sizeof want, "bankscope: %s/status.txt: missing: not "
		 "a records directory a run kept (the injection library "
		 "writes status.txt as the program starts CUDA; a program "
		 "that never did leaves nothing to replay)\n", dir);
	tu_expect_run(tu_run_bankscope(args), 2, "", want);
	tu_expect_run(tu_run_bankscope(json), 2, "", want);
	rmdir(dir);
	transpose_copy(kept);
	snprintf(path, sizeof path, "%s/status.txt", kept);
	ck_assert_int_eq(unlink(path), 0);
	snprintf(want, sizeof want, "bankscope: %s: missing: not a records "
		 "directory a run kept (the injection library writes "
		 "status.txt as the program starts CUDA; a program that never "
		 "did leaves nothing to replay)\n", path);
	tu_expect_run(tu_run_bankscope(kept_args), 2, "", want);
	tu_remove(kept);
}
END_TEST

/*
 * status.txt and device.txt with a UTF-8 byte-order mark (an editor's)
 * read as without it, as datasets and patterns do (issue 30, item 19:
 * device.txt kept it in the compute capability, which then named no
 * architecture).
 */
START_TEST(test_records_bom)
{
	char dir[] = "/tmp/bankscope-bom-XXXXXX", path[1200], cc[16], gpu[256];
	bs_records_status st;
	bs_error err;
	FILE *f;

	tu_mkdtemp(dir);
	snprintf(path, sizeof path, "%s/status.txt", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("\xef\xbb\xbfok\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(bs_records_read_status(dir, &st, &err), 0);
	ck_assert_int_eq(st.state, BS_RECORDS_OK);
	ck_assert_str_eq(st.reason, "ok");
	snprintf(path, sizeof path, "%s/device.txt", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("\xef\xbb\xbf" "9.0\tNVIDIA H200\r\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(bs_records_read_device(dir, cc, sizeof cc, gpu,
						sizeof gpu, &err), 1);
	ck_assert_str_eq(cc, "9.0");
	ck_assert_str_eq(gpu, "NVIDIA H200");
	ck_assert_ptr_nonnull(bs_arch_for_cc(cc));
	/* a mark alone is no line */
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("\xef\xbb\xbf", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(bs_records_read_device(dir, cc, sizeof cc, gpu,
						sizeof gpu, &err), -1);
	tu_remove(dir);
}
END_TEST

#define NO_CUDA(p) "bankscope: " p " launched no CUDA kernel (CUDA was " \
		   "not initialized, or /dev/null did not load)\n"

/* Programs that ran but launched nothing, or did not run: the exit
 * status and the messages. */
static const struct {
	const char *args[9];
	int status;
	const char *err;
} unlaunched[] = {
	{ { "profile", "--inject", "/dev/null", "--", "/bin/false" }, 1,
	  "bankscope: /bin/false exited with status 1\n"
	  NO_CUDA("/bin/false") },
	/* a program that launched no kernel is an error, whatever its
	 * status */
	{ { "profile", "--inject", "/dev/null", "/bin/true" }, 1,
	  NO_CUDA("/bin/true") },
	{ { "profile", "--inject", "/dev/null", "--", "sh", "-c",
	    "kill -SEGV $$" }, 128 + 11,
	  "bankscope: sh was killed by signal 11 (Segmentation fault)\n"
	  NO_CUDA("sh") },
	{ { "profile", "--inject", "/dev/null", "--",
	    "no-such-program-here" }, 127,
	  "bankscope: no-such-program-here: not found\n" },
};

START_TEST(test_run_unlaunched)
{
	struct rlimit none = { 0, 0 };

	setrlimit(RLIMIT_CORE, &none);   /* the killed sh leaves no core */
	tu_expect_run(tu_run_bankscope(unlaunched[_i].args), unlaunched[_i].status, "",
	       unlaunched[_i].err);
}
END_TEST

START_TEST(test_run_not_executable)
{
	char *file = tu_profile_case("transpose", "status.txt"), want[512];
	const char *args[] = { "profile", "--inject", "/dev/null", "--", file,
			       NULL };

	snprintf(want, sizeof want, "bankscope: %s: cannot run: Permission "
		 "denied\n", file);
	tu_expect_run(tu_run_bankscope(args), 126, "", want);
	free(file);
}
END_TEST

/* The table of the stand-in program's three kernels, as one run and the
 * one-kernel fallback both show it. */
/* The stand-in program's report above its table: text, and csv's units
 * and column names. */
#define FAKE_HEAD \
	"4 launches of 3 kernels, 3 measured; 3 of 3 instructions use " \
	"shared memory\n" \
	"executions in warp instructions; wavefronts, ideal and excess in " \
	"wavefronts; all summed over the measured launches\n\n"
#define FAKE_CSV_HEAD \
	"# units: executions in warp instructions; wavefronts, ideal and " \
	"excess in wavefronts; all summed over the measured launches\n" \
	"kernel,function,cubin_crc,pc,sass,source,executions,wavefronts," \
	"ideal,excess,wavefronts_per_exec\n"
#define FAKE_TABLE \
	"kernel  pc      sass  source  executions  wavefronts  ideal  " \
	"excess  wavefronts_per_exec\n" \
	"c()     0x0010  -     -                1          13     10  " \
	"     3                   13\n" \
	"b()     0x0010  -     -                1          11     10  " \
	"     1                   11\n" \
	"a()     0x0010  -     -                1          10     10  " \
	"     0                   10\n"

/* Stand-in program: launches a, b, a, c; one run measures the first
 * launch of each kernel, each flushed alone: its records carry its index,
 * its launch line their count, the second launch of a is not measured. */
START_TEST(test_run_one)
{
	char *prog = tu_profile_case("fake", "program.sh"), want[2048];
	char keep[] = "/tmp/bankscope-profile-keep-XXXXXX";
	const char *args[] = { "profile", "--keep", keep, "--inject",
			       "/dev/null", "--", prog, NULL };

	tu_mkdtemp(keep);
	snprintf(want, sizeof want,
		 "run abc\n"
		 "program: %s\n"
		 "runs: 1\n"
		 FAKE_HEAD
		 "%s", prog, FAKE_TABLE);
	tu_expect_run(tu_run_bankscope(args), 0, want,
	       "bankscope: 1 cubin the records name is missing: no SASS text "
	       "or source lines for it\n");
	tu_file_is(keep, "launches.tsv", "launch\tkernel\tpc_records\n"
		"0\ta()\t1\n1\tb()\t1\n2\ta()\t-\n3\tc()\t1\n");
	tu_file_is(keep, "records.tsv", BS_SASS_RECORD_COLUMNS "\n"
		"a()\t0\t7\t0\t_Z1av\t0x10\t1\t10\t10\n"
		"b()\t1\t7\t0\t_Z1bv\t0x10\t1\t11\t10\n"
		"c()\t3\t7\t0\t_Z1cv\t0x10\t1\t13\t10\n");
	tu_remove(keep);
	free(prog);
}
END_TEST

/* The fallback: a CUPTI that patches one kernel per process
 * (FAKE_ONE_KERNEL: the injection library without the module-profiled
 * callback).  The first run measures a; b (launch 1) and c (3) gave none,
 * the message names them, and each gets a run of its own, one at a time
 * here; only the first run's output shows. */
START_TEST(test_run_reruns)
{
	char *prog = tu_profile_case("fake", "program.sh"), want[2048];
	char keep[] = "/tmp/bankscope-profile-keep-XXXXXX";
	const char *args[] = { "profile", "--keep", keep, "--jobs", "1",
			       "--inject", "/dev/null", "--", prog, NULL };

	tu_mkdtemp(keep);
	setenv("FAKE_ONE_KERNEL", "1", 1);
	snprintf(want, sizeof want,
		 "run a\n"
		 "program: %s\n"
		 "runs: 3 (the first, then one for each kernel it gave no "
		 "records for; 1 at a time)\n"
		 FAKE_HEAD
		 "%s", prog, FAKE_TABLE);
	tu_expect_run(tu_run_bankscope(args), 0, want,
	       "bankscope: the first run gave no SASS records for 2 kernels "
	       "(b(), c()): CUPTI did not patch them in that run; running the "
	       "program once more for each, alone\n"
	       "bankscope: 1 cubin the records name is missing: no SASS text "
	       "or source lines for it\n");
	unsetenv("FAKE_ONE_KERNEL");
	tu_file_is(keep, "launches.tsv", "launch\tkernel\tpc_records\n"
		"0\ta()\t1\n1\tb()\t0\n2\ta()\t-\n3\tc()\t0\n"
		"0\ta()\t-\n1\tb()\t1\n2\ta()\t-\n3\tc()\t-\n"
		"0\ta()\t-\n1\tb()\t-\n2\ta()\t-\n3\tc()\t1\n");
	tu_remove(keep);
	free(prog);
}
END_TEST

/* --launches all: every launch of a (0 and 2) in its run (one window, one
 * drain); the status passed through; under a one-kernel CUPTI --max-runs
 * leaves c unmeasured. */
START_TEST(test_run_all_launches)
{
	char *prog = tu_profile_case("fake", "program.sh"), want[1024], err[512];
	const char *args[] = { "profile", "--format", "csv", "--launches",
			       "all", "--max-runs", "2", "--inject",
			       "/dev/null", "--", prog, NULL };

	setenv("FAKE_EXIT", "3", 1);
	setenv("FAKE_ONE_KERNEL", "1", 1);
	snprintf(want, sizeof want,
		 "run a\n"
		 "# program: %s\n"
		 "# runs: 2\n"
		 "# launches: 4\n# measured_launches: 3\n# kernels: 3\n"
		 "# instructions: 2\n"
		 FAKE_CSV_HEAD
		 "a(),_Z1av,7,0x0010,,,2,22,20,2,11\n"
		 "b(),_Z1bv,7,0x0010,,,1,11,10,1,11\n", prog);
	snprintf(err, sizeof err,
		 "bankscope: the first run gave no SASS records for 2 kernels "
		 "(b(), c()): CUPTI did not patch them in that run; running the "
		 "program once more for each, alone\n"
		 "bankscope: 1 kernel left unmeasured: --max-runs 2 allows 1 "
		 "more run\n"
		 "bankscope: %s exited with status 3; the profile covers what "
		 "ran\n"
		 "bankscope: 1 selected launch gave no SASS records (2 of 3 "
		 "kernels measured); the table covers the others\n"
		 "bankscope: 1 cubin the records name is missing: no SASS text "
		 "or source lines for it\n", prog);
	tu_expect_run(tu_run_bankscope(args), 3, want, err);
	unsetenv("FAKE_EXIT");
	unsetenv("FAKE_ONE_KERNEL");
	free(prog);
}
END_TEST

/* --kernel: only the kernels it matches are measured and shown; none
 * matched is an error (exit 1, one line). */
START_TEST(test_run_kernel)
{
	char *prog = tu_profile_case("fake", "program.sh"), want[1024];
	const char *args[] = { "profile", "--kernel", "^[bc]", "--format",
			       "csv", "--inject", "/dev/null", "--", prog,
			       NULL };
	const char *none[] = { "profile", "--kernel", "zz", "--inject",
			       "/dev/null", "--", prog, NULL };

	snprintf(want, sizeof want,
		 "run bc\n"
		 "# program: %s\n"
		 "# runs: 1\n"
		 "# launches: 4\n# measured_launches: 2\n# kernels: 3\n"
		 "# instructions: 2\n"
		 FAKE_CSV_HEAD
		 "c(),_Z1cv,7,0x0010,,,1,13,10,3,13\n"
		 "b(),_Z1bv,7,0x0010,,,1,11,10,1,11\n", prog);
	tu_expect_run(tu_run_bankscope(args), 0, want,
	       "bankscope: 1 cubin the records name is missing: no SASS text "
	       "or source lines for it\n");
	snprintf(want, sizeof want, "bankscope: no launch of %s matched "
		 "--kernel zz\n", prog);
	tu_expect_run(tu_run_bankscope(none), 1, "run \n", want);
	free(prog);
}
END_TEST

/* A failed row write names its file and its reason, exit 2 (it printed
 * uninitialized memory as the message before: issue 13). */
START_TEST(test_dataset_write_error)
{
	char dir[] = "/tmp/bankscope-profile-fsize-XXXXXX", cmd[2048];
	char outp[600], errp[600], target[600], *err;
	const char *prog = getenv("BANKSCOPE");
	char *cases_t = tu_profile_case("tutorial", ""), *pat = tu_profile_case("tutorial",
								"patterns");
	int st;

	tu_mkdtemp(dir);
	snprintf(target, sizeof target, "%s/big.csv", dir);
	snprintf(outp, sizeof outp, "%s/out", dir);
	snprintf(errp, sizeof errp, "%s/err", dir);
	snprintf(cmd, sizeof cmd, "trap '' XFSZ; ulimit -f 8; exec '%s' "
		 "profile --replay '%s' --patterns '%s' --dataset '%s' "
		 "> /dev/null 2> '%s'", prog, cases_t, pat, target, errp);
	st = system(cmd);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 2);
	err = tu_slurp(errp, NULL);
	ck_assert_msg(strstr(err, ": cannot write: File too large\n") &&
		      !strncmp(err, "bankscope: ", 11) &&
		      !strchr(err, '\n')[1],
		      "message: %s", err);
	ck_assert_int_ne(access(target, F_OK), 0);
	free(err);
	free(cases_t);
	free(pat);
	(void)outp;
	tu_remove(dir);
}
END_TEST

/*
 * --dataset through a dangling symbolic link (issue 30, item 20): the
 * dataset went to NAME-2.csv beside the link, which no one asked for.
 * A link is refused as anything there is, before anything is written:
 * the link stays as it was, no NAME-2.csv, no report on stdout, and -o's
 * file keeps its text.  A link without .csv is checked under the name
 * written (NAME.csv) too.
 */
START_TEST(test_dataset_dangling_link)
{
	char dir[] = "/tmp/bankscope-profile-link-XXXXXX", link[600];
	char out[600], other[600], want[2048], target[700], *text;
	char *src = tu_profile_case("transpose", ""), *pat = tu_profile_case("transpose",
								 "patterns");
	const char *args[] = { "profile", "--replay", src, "--patterns", pat,
			       "--dataset", link, "-o", out, NULL };
	struct stat st;
	ssize_t n;
	FILE *f;

	tu_mkdtemp(dir);
	snprintf(link, sizeof link, "%s/d.csv", dir);
	snprintf(out, sizeof out, "%s/report.txt", dir);
	snprintf(other, sizeof other, "%s/d-2.csv", dir);
	ck_assert_int_eq(symlink("nowhere/d.csv", link), 0);
	ck_assert_ptr_nonnull(f = fopen(out, "w"));
	fputs("the previous report\n", f);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(want, sizeof want, "bankscope: option --dataset: %s is a "
		 "symbolic link to nothing (a dangling link); not written "
		 "through: name a new file, or the link's target\n", link);
	tu_expect_run(tu_run_bankscope(args), 2, "", want);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	n = readlink(link, target, sizeof target - 1);
	ck_assert_int_eq(n, (ssize_t)strlen("nowhere/d.csv"));
	target[n] = '\0';
	ck_assert_str_eq(target, "nowhere/d.csv");
	ck_assert_int_ne(access(other, F_OK), 0);
	text = tu_slurp(out, NULL);
	ck_assert_str_eq(text, "the previous report\n");
	free(text);
	/* --dataset d: the file written would be d.csv, the link */
	snprintf(link, sizeof link, "%s/d", dir);
	snprintf(want, sizeof want, "bankscope: option --dataset: %s.csv is "
		 "a symbolic link to nothing (a dangling link); not written "
		 "through: name a new file, or the link's target\n", link);
	tu_expect_run(tu_run_bankscope(args), 2, "", want);
	ck_assert_int_ne(access(other, F_OK), 0);
	tu_remove(dir);
	free(src);
	free(pat);
}
END_TEST

/*
 * A dataset that cannot be written (its folder is a file here) leaves
 * -o's file as it was: the dataset is written before the report (the
 * report was put in place first, and then the run failed, exit 2).
 */
START_TEST(test_dataset_failure_keeps_output)
{
	char dir[] = "/tmp/bankscope-profile-keep-XXXXXX", plain[600];
	char out[600], target[700], want[2048], *text;
	char *src = tu_profile_case("transpose", ""), *pat = tu_profile_case("transpose",
							      "patterns");
	const char *args[] = { "profile", "--replay", src, "--patterns", pat,
			       "--dataset", target, "-o", out, NULL };
	FILE *f;

	tu_mkdtemp(dir);
	snprintf(plain, sizeof plain, "%s/plain", dir);
	snprintf(target, sizeof target, "%s/d.csv", plain);
	snprintf(out, sizeof out, "%s/report.txt", dir);
	ck_assert_ptr_nonnull(f = fopen(out, "w"));
	fputs("the previous report\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_ptr_nonnull(f = fopen(plain, "w"));
	ck_assert_int_eq(fclose(f), 0);
	snprintf(want, sizeof want, "bankscope: %s: not a directory\n",
		 plain);
	tu_expect_run(tu_run_bankscope(args), 2, "", want);
	text = tu_slurp(out, NULL);
	ck_assert_str_eq(text, "the previous report\n");
	free(text);
	tu_remove(dir);
	free(src);
	free(pat);
}
END_TEST

/* A replay path with a newline: the dataset keeps its header (the path
 * in the metadata with '?' for the newline); the header write was not
 * checked and the file came out headerless (issue 13). */
START_TEST(test_dataset_newline_path)
{
	char dir[] = "/tmp/bankscope-profile-nl-XXXXXX", rec[600], cmd[2048];
	char out[700], *text, *src = tu_profile_case("transpose", "");
	const char *args[] = { "profile", "--replay", rec, "--patterns", NULL,
			       "--dataset", out, NULL };
	char *pat = tu_profile_case("transpose", "patterns");
	tu_run_result r;

	tu_mkdtemp(dir);
	snprintf(rec, sizeof rec, "%s/a\nb", dir);
	snprintf(cmd, sizeof cmd, "cp -r '%s' '%s'", src, rec);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(out, sizeof out, "%s/d.csv", dir);
	args[4] = pat;
	r = tu_run_bankscope(args);
	ck_assert_int_eq(r.status, 0);
	snprintf(cmd, sizeof cmd, "bankscope: dataset written to %s\n", out);
	ck_assert_str_eq(r.err, cmd);
	free(r.out);
	free(r.err);
	text = tu_slurp(out, NULL);
	ck_assert_ptr_nonnull(text);
	snprintf(cmd, sizeof cmd, "# source: bankscope profile --replay "
		 "%s/a?b\n", dir);
	ck_assert_msg(!strncmp(text, cmd, strlen(cmd)), "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "\nprobe,name,width,op,"));
	free(text);
	tu_remove(dir);
	free(src);
	free(pat);
}
END_TEST

/* --verbose: one line per phase, in order, each with its seconds. */
START_TEST(test_run_verbose)
{
	static const char *const phases[] = {
		"the first run", "2 more runs, 1 at a time",
		"reading the records, disassembling 1 cubin", "the report",
	};
	char *prog = tu_profile_case("fake", "program.sh");
	const char *args[] = { "profile", "--verbose", "--jobs", "1",
			       "--inject", "/dev/null", "--", prog, NULL };
	tu_run_result r;
	const char *l;
	size_t k = 0;

	setenv("FAKE_ONE_KERNEL", "1", 1);
	r = tu_run_bankscope(args);
	unsetenv("FAKE_ONE_KERNEL");
	l = r.err;

	ck_assert_int_eq(r.status, 0);
	while (*l) {
		const char *e = strchr(l, '\n');
		char want[128];
		double secs;
		int used = 0;

		ck_assert_ptr_nonnull(e);
		if (k < 4) {
			snprintf(want, sizeof want, "bankscope: profile: %s: ",
				 phases[k]);
			if (!strncmp(l, want, strlen(want))) {
				ck_assert_int_eq(sscanf(l + strlen(want),
							"%lf s%n", &secs,
							&used), 1);
				ck_assert_ptr_eq(l + strlen(want) + used, e);
				ck_assert(secs >= 0);
				k++;
			}
		}
		l = e + 1;
	}
	ck_assert_uint_eq(k, 4);
	free(r.out);
	free(r.err);
	free(prog);
}
END_TEST

START_TEST(test_usage)
{
	const char *fmt[] = { "profile", "--format", "xml", "--replay", ".",
			      NULL };
	const char *both[] = { "profile", "--replay", ".", "--", "/bin/true",
			       NULL };
	const char *none[] = { "profile", NULL };
	const char *zero[] = { "profile", "--max-runs", "0", "/bin/true",
			       NULL };
	const char *which[] = { "profile", "--launches", "some", "/bin/true",
				NULL };
	const char *jobs[] = { "profile", "--jobs", "65", "/bin/true", NULL };
	const char *cnt[] = { "profile", "--launch-count", "0", "/bin/true",
			      NULL };

	tu_expect_run(tu_run_bankscope(fmt), 2, "", "bankscope: option --format: 'xml' is not "
	       "text, csv or json\n");
	tu_expect_run(tu_run_bankscope(both), 2, "", "bankscope: profile: --replay takes no "
	       "program\n");
	tu_expect_run(tu_run_bankscope(none), 2, "", "bankscope: profile: no program (bankscope "
	       "profile [OPTIONS] -- PROGRAM [ARGS])\n");
	tu_expect_run(tu_run_bankscope(zero), 2, "", "bankscope: option --max-runs: 0 runs "
	       "measure nothing\n");
	tu_expect_run(tu_run_bankscope(which), 2, "", "bankscope: option --launches: 'some' is "
	       "not first or all\n");
	tu_expect_run(tu_run_bankscope(jobs), 2, "", "bankscope: option --jobs: 65 is larger "
	       "than 64\n");
	tu_expect_run(tu_run_bankscope(cnt), 2, "", "bankscope: option --launch-count: must be "
	       "at least 1\n");
}
END_TEST

/* ---- damaged records directories ----------------------------------------- */

/* A FIFO planted as any file a replay reads is refused at once, never
 * opened for a read that would wait for a writer. */
static const char *const fifo_files[] = {
	"status.txt", "records.tsv", "launches.tsv", "cubin-1656416357.sass",
	"cubin-1656416357.cubin", "explain.tsv", "explain-status.txt",
	"device.txt",
};

START_TEST(test_replay_fifo)
{
	char dir[] = "/tmp/bankscope-fifo-XXXXXX", path[1200], want[1400];
	const char *args[] = { "profile", "--explain", "--replay", dir, NULL };

	transpose_copy(dir);
	snprintf(path, sizeof path, "%s/%s", dir, fifo_files[_i]);
	unlink(path);
	if (strstr(fifo_files[_i], ".cubin")) {   /* read only to disassemble */
		snprintf(want, sizeof want, "%s/cubin-1656416357.sass", dir);
		ck_assert_int_eq(unlink(want), 0);
	}
	ck_assert_int_eq(mkfifo(path, 0644), 0);
	snprintf(want, sizeof want, "bankscope: %s: not a regular file (a "
		 "FIFO): a records directory holds only files\n", path);
	tu_expect_run(tu_run_bankscope(args), 2, "", want);
	tu_remove(dir);
}
END_TEST

/* An empty disassembly, or one cut at a line's end, warns and names the
 * file; one cut inside a line is an error naming its last line. */
START_TEST(test_replay_cut_sass)
{
	char dir[] = "/tmp/bankscope-cut-XXXXXX", path[1200], want[1400];
	const char *args[] = { "profile", "--format", "csv", "--replay", dir,
			       NULL };
	char *sass = tu_profile_case("transpose", "cubin-1656416357.sass"), *text, *nl;
	size_t len, cut = 0;
	tu_run_result r;
	FILE *f;

	transpose_copy(dir);
	snprintf(path, sizeof path, "%s/cubin-1656416357.sass", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	ck_assert_int_eq(fclose(f), 0);
	r = tu_run_bankscope(args);
	snprintf(want, sizeof want, "bankscope: %s: 58 of the 58 instructions "
		 "recorded in cubin 1656416357 are not in it (an empty or cut "
		 "disassembly; remove it to disassemble again): no SASS text "
		 "or source line for them\n", path);
	ck_assert_str_eq(r.err, want);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, ",0x01a0,,,32768,1048576,32768,"), "%s",
		      r.out);
	free(r.out);
	free(r.err);

	/* the first half, up to a line's end: the later kernel is missing */
	ck_assert_ptr_nonnull(text = tu_slurp(sass, &len));
	ck_assert_ptr_nonnull(nl = memchr(text + len / 2, '\n',
					  len - len / 2));
	cut = (size_t)(nl - text) + 1;
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	ck_assert_uint_eq(fwrite(text, 1, cut, f), cut);
	ck_assert_int_eq(fclose(f), 0);
	r = tu_run_bankscope(args);
	ck_assert_msg(strstr(r.err, "recorded in cubin 1656416357 are not in "
			     "it (an empty or cut disassembly"), "%s", r.err);
	ck_assert_int_eq(r.status, 0);
	free(r.out);
	free(r.err);

	/* and one byte less: cut inside its last line */
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	ck_assert_uint_eq(fwrite(text, 1, cut - 1, f), cut - 1);
	ck_assert_int_eq(fclose(f), 0);
	r = tu_run_bankscope(args);
	{
		long line = 0;

		for (size_t i = 0; i < cut - 1; i++)
			line += text[i] == '\n';
		snprintf(want, sizeof want, "bankscope: %s:%ld: the last line "
			 "has no newline: the file is truncated\n", path,
			 line + 1);
	}
	tu_expect_run(r, 2, "", want);
	free(text);
	free(sass);
	tu_remove(dir);
}
END_TEST

/* A disassembler that gives nothing for a cubin is named too. */
START_TEST(test_replay_empty_disassembly)
{
	char dir[] = "/tmp/bankscope-nodis-XXXXXX", path[1200], tool[1300];
	const char *args[] = { "profile", "--format", "csv", "--replay", dir,
			       NULL };
	tu_run_result r;
	FILE *f;

	transpose_copy(dir);
	snprintf(path, sizeof path, "%s/cubin-1656416357.sass", dir);
	ck_assert_int_eq(unlink(path), 0);
	snprintf(tool, sizeof tool, "%s/nvdisasm", dir);
	ck_assert_ptr_nonnull(f = fopen(tool, "w"));
	fputs("#!/bin/sh\nexit 0\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(tool, 0755), 0);
	snprintf(path, sizeof path, "%s:%s", dir, getenv("PATH") ?
		 getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	r = tu_run_bankscope(args);
	ck_assert_str_eq(r.err, "bankscope: the disassembly of "
			 "cubin-1656416357.cubin lacks 58 of the 58 "
			 "instructions recorded in it: no SASS text or source "
			 "line for them\n");
	ck_assert_int_eq(r.status, 0);
	free(r.out);
	free(r.err);
	tu_remove(dir);
}
END_TEST

/* A status.txt larger than any the library writes is refused unread (a
 * 3 GiB sparse file), and a NUL byte on any line names it. */
START_TEST(test_replay_status_huge)
{
	char dir[] = "/tmp/bankscope-status-XXXXXX", path[1200], want[1400];
	const char *args[] = { "profile", "--replay", dir, NULL };
	FILE *f;

	transpose_copy(dir);
	snprintf(path, sizeof path, "%s/status.txt", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("ok\n", f);
	ck_assert_int_eq(ftruncate(fileno(f), (off_t)3 << 30), 0);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(want, sizeof want, "bankscope: %s: longer than 65536 bytes: "
		 "not a status file\n", path);
	tu_expect_run(tu_run_bankscope(args), 2, "", want);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	ck_assert_uint_eq(fwrite("ok\nrun 2 failed\n\0\n", 1, 18, f), 18);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(want, sizeof want, "bankscope: %s:3: not a status file: a "
		 "NUL byte\n", path);
	tu_expect_run(tu_run_bankscope(args), 2, "", want);
	tu_remove(dir);
}
END_TEST

/* -k, -s and -c (ncu's short names) select as --kernel, --launch-skip
 * and --launch-count do: the same runs, the same report. */
START_TEST(test_run_short_options)
{
	char *prog = tu_profile_case("fake", "program.sh");
	const char *lng[] = { "profile", "--kernel", "^[ab]", "--launch-skip",
			      "1", "--launch-count", "1", "--format", "csv",
			      "--inject", "/dev/null", "--", prog, NULL };
	const char *shrt[] = { "profile", "-k", "^[ab]", "-s", "1", "-c", "1",
			       "--format", "csv", "--inject", "/dev/null",
			       "--", prog, NULL };
	tu_run_result a = tu_run_bankscope(lng), b;

	ck_assert_int_eq(a.status, 0);
	ck_assert_msg(strstr(a.out, "b(),_Z1bv,7,0x0010,,,1,11,10,1,11\n"),
		      "%s", a.out);
	b = tu_run_bankscope(shrt);
	tu_expect_run(b, a.status, a.out, a.err);
	free(a.out);
	free(a.err);
	free(prog);
}
END_TEST

Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");

	tu_add_tcase(s, "records", 0, (const tu_test[]){
		{ test_cubin_indexes, 1 }, { test_long_kernel_names, 1 },
		{ test_cubin_truncated, 1 }, { test_recorded_functions, 1 },
		{ test_transpose_table, 1 }, { test_transpose_cuobjdump, 1 },
		{ test_transpose_no_disasm, 1 },
		{ test_is_shared, TU_ROWS(opcodes) },
		{ test_bad_records, TU_ROWS(bad_records) },
		{ test_bad_launches, TU_ROWS(bad_launches) },
		{ test_count_limits, 1 }, { test_sums_and_order, 1 },
		{ test_not_counted, TU_ROWS(uncounted) },
		{ test_window_counts, 1 }, { test_not_counted_kept, 1 },
		{ test_out_of_order, 1 }, { test_explain_read, 1 },
		{ test_explain_bad, TU_ROWS(bad_explain) },
		{ test_explain_sources, 1 }, { test_records_bom, 1 },
		{ NULL, 0 } });
	tu_add_tcase(s, "command", 30, (const tu_test[]){
		{ test_replay_formats, TU_ROWS(replay_formats) },
		{ test_replay_refused, TU_ROWS(refused_dirs) },
		{ test_replay_no_status, 1 },
		{ test_run_unlaunched, TU_ROWS(unlaunched) },
		{ test_run_not_executable, 1 }, { test_run_one, 1 },
		{ test_run_reruns, 1 },
		{ test_replay_disassembles_recorded_functions, 1 },
		{ test_run_all_launches, 1 }, { test_run_kernel, 1 },
		{ test_run_verbose, 1 }, { test_dataset_write_error, 1 },
		{ test_dataset_newline_path, 1 }, { test_usage, 1 },
		{ test_dataset_dangling_link, 1 },
		{ test_dataset_failure_keeps_output, 1 },
		{ NULL, 0 } });
	tu_add_tcase(s, "damaged", 0, (const tu_test[]){
		{ test_replay_fifo, TU_ROWS(fifo_files) },
		{ test_replay_cut_sass, 1 },
		{ test_replay_empty_disassembly, 1 },
		{ test_replay_status_huge, 1 }, { test_run_short_options, 1 },
		{ NULL, 0 } });
	return s;
}
