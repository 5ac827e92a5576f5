/*
 * check_profile.c - per-instruction profiles: the records reader, the
 * disassembly parser and the bankscope profile command, without a GPU.
 *
 * The fixture tests/cases/profile/transpose/ is a records directory
 * written on an H200 (CUDA 13.0, driver 580) by libbankscope_inject.so for
 * build/tests/transpose, with nvdisasm's disassembly of its cubin (and
 * cuobjdump -sass of the program from the same machine): there CUPTI
 * returned records for launch 0 only, transpose_naive, whose column read
 * LDS costs 32 wavefronts for an ideal of 1 in each of its 32768 warp
 * executions, as Nsight Compute measured too.  Its replays must give
 * expected.txt, .csv, .json and expected_stderr.txt exactly.  garbled/,
 * missing_records/ and not_allowed/ hold broken directories; fake/program.sh
 * stands in for a CUDA program and the injection library, to run the
 * command's repeated runs; /bin/false, /bin/true and a shell that kills
 * itself check the exit status pass-through (they load no CUDA, so the
 * injection library is never loaded: --inject /dev/null).  The program is
 * $BANKSCOPE (make check sets it); $BANKSCOPE_PROFILE_CASES overrides the
 * cases folder.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bankscope.h"
#include "testutil.h"

extern char **environ;

#define CASES_DIR "tests/cases/profile"
#define CRC 2216893726u
#define NAIVE "transpose_naive(float*, float const*)"

static const char *cases(void)
{
	const char *d = getenv("BANKSCOPE_PROFILE_CASES");

	return d && *d ? d : CASES_DIR;
}

static char *path_of(const char *a, const char *b)
{
	char *p = malloc(strlen(cases()) + strlen(a) + strlen(b) + 3);

	ck_assert_ptr_nonnull(p);
	sprintf(p, "%s/%s%s%s", cases(), a, *b ? "/" : "", b);
	return p;
}

static FILE *open_case(const char *dir, const char *file)
{
	char *p = path_of(dir, file);
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
		uint32_t pc;
		const char *sass;
		unsigned long line;
		uint64_t exec, wf, ideal;
		int64_t excess;
	} want[] = {
		{ 0x1a0, "LDS R9, [R6]", 47, 32768, 1048576, 32768, 1015808 },
		{ 0x180, "STS [R5], R0", 43, 32768, 32768, 32768, 0 },
	};
	bs_sassprof *p = transpose(1, "cubin-2216893726.sass");
	bs_sassprof_totals t;

	ck_assert_ptr_null(bs_sassprof_get(p, 2));
	for (size_t i = 0; i < 2; i++) {
		const bs_sass_insn *in = bs_sassprof_get(p, i);

		ck_assert_ptr_nonnull(in);
		ck_assert_str_eq(in->kernel, NAIVE);
		ck_assert_str_eq(in->function, "_Z15transpose_naivePfPKf");
		ck_assert_uint_eq(in->cubin_crc, CRC);
		ck_assert_uint_eq(in->pc, want[i].pc);
		ck_assert_str_eq(in->sass, want[i].sass);
		ck_assert_str_eq(in->source_file,
				 "/work/main/tests/cuda/transpose.cu");
		ck_assert_uint_eq(in->source_line, want[i].line);
		ck_assert_uint_eq(in->launches, 1);
		ck_assert_uint_eq(in->executions, want[i].exec);
		ck_assert_uint_eq(in->wavefronts, want[i].wf);
		ck_assert_uint_eq(in->ideal, want[i].ideal);
		ck_assert_int_eq(in->excess, want[i].excess);
	}
	bs_sassprof_get_totals(p, &t);
	ck_assert_uint_eq(t.records, 29);
	ck_assert_uint_eq(t.instructions, 29);
	ck_assert_uint_eq(t.disassembled, 29);
	ck_assert_uint_eq(t.launches, 4);
	ck_assert_uint_eq(t.measured, 4);
	ck_assert_uint_eq(t.empty_launches, 3);
	ck_assert_uint_eq(t.mismatched, 0);
	ck_assert_uint_eq(t.kernels, 2);
	ck_assert_uint_eq(bs_sassprof_launch_count(p), 4);
	ck_assert_str_eq(bs_sassprof_launch_at(p, 2)->kernel,
			 "transpose_padded(float*, float const*)");
	ck_assert_uint_eq(bs_sassprof_launch_at(p, 0)->written, 33);
	ck_assert_uint_eq(bs_sassprof_launch_at(p, 0)->records, 29);
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

/* Without a disassembly: the instructions with shared wavefronts. */
START_TEST(test_transpose_no_disasm)
{
	bs_sassprof *p = transpose(0, NULL);

	ck_assert_uint_eq(bs_sassprof_get(p, 0)->pc, 0x1a0);
	ck_assert_ptr_null(bs_sassprof_get(p, 0)->sass);
	ck_assert_uint_eq(bs_sassprof_get(p, 1)->pc, 0x180);
	ck_assert_ptr_null(bs_sassprof_get(p, 2));
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
	{ "LDGSTS.E [R3], desc[UR4][R4.64]", 0 },
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
	{ HEAD "k()\t0\t7\t0\t_Z1kv\t0x10\t1\t2\t18446744073709551616\n",
	  "r.tsv:2:26: wavefronts_ideal: 18446744073709551616 is larger than "
	  "18446744073709551615" },
};

START_TEST(test_bad_records)
{
	char buf[512];
	bs_sassprof *p = bs_sassprof_new();
	FILE *f = fmemopen((void *)bad_records[_i].text,
			   strlen(bad_records[_i].text), "r");
	bs_error err;

	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(bs_sassprof_read_records(p, f, "r.tsv", &err), -1);
	bs_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, bad_records[_i].want);
	fclose(f);
	bs_sassprof_free(p);
}
END_TEST

START_TEST(test_bad_launches)
{
	static const char text[] = "launch\tkernel\tpc_records\n0\tk()\t-\n"
				   "1\tk()\tmany\n";
	char buf[512];
	bs_sassprof *p = bs_sassprof_new();
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	bs_error err;

	ck_assert_int_eq(bs_sassprof_read_launches(p, f, "l.tsv", &err), -1);
	bs_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "l.tsv:3:7: pc_records: 'many' is not a "
			      "non-negative integer");
	fclose(f);
	bs_sassprof_free(p);
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

/* ---- the command --------------------------------------------------------- */

typedef struct {
	char *out, *err;
	int status;        /* exit status, or 128 + signal */
} result;

static result run(const char *const *args)
{
	const char *prog = getenv("BANKSCOPE");
	char outp[] = "/tmp/bankscope-profile-out-XXXXXX";
	char errp[] = "/tmp/bankscope-profile-err-XXXXXX";
	posix_spawn_file_actions_t fa;
	const char *argv[32];
	result r;
	int out, err, st, n = 0;
	pid_t pid;

	ck_assert_msg(prog && *prog, "BANKSCOPE is not set: run make check");
	argv[n++] = prog;
	while (*args && n < 31)
		argv[n++] = *args++;
	argv[n] = NULL;
	out = mkstemp(outp);
	err = mkstemp(errp);
	ck_assert(out >= 0 && err >= 0);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, err, 2);
	ck_assert_int_eq(posix_spawn(&pid, prog, &fa, NULL, (char **)argv,
				     environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	while (waitpid(pid, &st, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	close(out);
	close(err);
	r.out = tu_slurp(outp, NULL);
	r.err = tu_slurp(errp, NULL);
	unlink(outp);
	unlink(errp);
	ck_assert_msg(WIFEXITED(st), "bankscope killed by signal %d: %s",
		      WTERMSIG(st), r.err);
	r.status = WEXITSTATUS(st);
	return r;
}

static void expect(result r, int status, const char *out, const char *err)
{
	ck_assert_str_eq(r.err, err);
	ck_assert_str_eq(r.out, out);
	ck_assert_int_eq(r.status, status);
	free(r.out);
	free(r.err);
}

static void replay_fixture(const char *format, const char *expected)
{
	char *dir = path_of("transpose", ""), *want = path_of("transpose",
							       expected);
	char *err = path_of("transpose", "expected_stderr.txt");
	char *w = tu_slurp(want, NULL), *e = tu_slurp(err, NULL);
	const char *args[] = { "profile", "--format", format, "--replay", dir,
			       NULL };

	ck_assert_msg(w && e, "%s or %s missing", want, err);
	expect(run(args), 0, w, e);
	free(dir);
	free(want);
	free(err);
	free(w);
	free(e);
}

START_TEST(test_replay_text)
{
	replay_fixture("text", "expected.txt");
}
END_TEST

START_TEST(test_replay_csv)
{
	replay_fixture("csv", "expected.csv");
}
END_TEST

START_TEST(test_replay_json)
{
	replay_fixture("json", "expected.json");
}
END_TEST

START_TEST(test_replay_garbled)
{
	char *dir = path_of("garbled", ""), want[512];
	const char *args[] = { "profile", "--replay", dir, NULL };

	snprintf(want, sizeof want, "bankscope: %s/records.tsv:3:90: "
		 "wavefronts: '1x' is not a non-negative integer\n", dir);
	expect(run(args), 2, "", want);
	free(dir);
}
END_TEST

START_TEST(test_replay_missing_records)
{
	char *dir = path_of("missing_records", ""), want[512];
	const char *args[] = { "profile", "--replay", dir, NULL };

	snprintf(want, sizeof want, "bankscope: %s/records.tsv: cannot open: "
		 "No such file or directory\n", dir);
	expect(run(args), 2, "", want);
	free(dir);
}
END_TEST

START_TEST(test_replay_not_allowed)
{
	char *dir = path_of("not_allowed", "");
	const char *args[] = { "profile", "--replay", dir, NULL };

	expect(run(args), 1, "",
	       "bankscope: counters could not be collected: "
	       "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: counters need root or "
	       "NVreg_RestrictProfilingToAdminUsers=0 [inject.c:355: "
	       "cuptiProfilerInitialize(&init): "
	       "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES]\n");
	free(dir);
}
END_TEST

START_TEST(test_replay_no_status)
{
	char dir[] = "/tmp/bankscope-profile-empty-XXXXXX", want[256];
	const char *args[] = { "profile", "--replay", dir, NULL };

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(want, sizeof want, "bankscope: %s: no status.txt: the "
		 "program launched no CUDA kernel\n", dir);
	expect(run(args), 1, "", want);
	rmdir(dir);
}
END_TEST

#define NO_CUDA(p) "bankscope: " p " launched no CUDA kernel (CUDA was " \
		   "not initialized, or /dev/null did not load)\n"

START_TEST(test_run_false)
{
	const char *args[] = { "profile", "--inject", "/dev/null", "--",
			       "/bin/false", NULL };

	expect(run(args), 1, "",
	       "bankscope: /bin/false exited with status 1\n"
	       NO_CUDA("/bin/false"));
}
END_TEST

START_TEST(test_run_true)
{
	const char *args[] = { "profile", "--inject", "/dev/null",
			       "/bin/true", NULL };

	expect(run(args), 0, "", NO_CUDA("/bin/true"));
}
END_TEST

START_TEST(test_run_signal)
{
	struct rlimit none = { 0, 0 };
	const char *args[] = { "profile", "--inject", "/dev/null", "--", "sh",
			       "-c", "kill -SEGV $$", NULL };

	setrlimit(RLIMIT_CORE, &none);
	expect(run(args), 128 + 11, "",
	       "bankscope: sh was killed by signal 11 (Segmentation fault)\n"
	       NO_CUDA("sh"));
}
END_TEST

START_TEST(test_run_not_found)
{
	const char *args[] = { "profile", "--inject", "/dev/null", "--",
			       "no-such-program-here", NULL };

	expect(run(args), 127, "",
	       "bankscope: no-such-program-here: not found\n");
}
END_TEST

START_TEST(test_run_not_executable)
{
	char *file = path_of("transpose", "status.txt"), want[512];
	const char *args[] = { "profile", "--inject", "/dev/null", "--", file,
			       NULL };

	snprintf(want, sizeof want, "bankscope: %s: cannot run: Permission "
		 "denied\n", file);
	expect(run(args), 126, "", want);
	free(file);
}
END_TEST

/* Stand-in program: launches a, b, a, c; one run each for a (launch 0),
 * b (1) and c (3); only the first run's output shows. */
START_TEST(test_run_reruns)
{
	char *prog = path_of("fake", "program.sh"), want[2048], path[512];
	char keep[] = "/tmp/bankscope-profile-keep-XXXXXX";
	const char *args[] = { "profile", "--keep", keep, "--inject",
			       "/dev/null", "--", prog, NULL };
	char *launches;

	ck_assert_ptr_nonnull(mkdtemp(keep));
	snprintf(want, sizeof want,
		 "run 0\n"
		 "program: %s\n"
		 "4 launches of 3 kernels, 3 measured; 3 of 3 instructions "
		 "use shared memory\n"
		 "executions in warp instructions; wavefronts, ideal and "
		 "excess in wavefronts; all summed over the measured "
		 "launches\n\n"
		 "kernel  pc      sass  source  executions  wavefronts  ideal  "
		 "excess  wavefronts_per_exec\n"
		 "c()     0x0010  -     -                1          13     10  "
		 "     3                   13\n"
		 "b()     0x0010  -     -                1          11     10  "
		 "     1                   11\n"
		 "a()     0x0010  -     -                1          10     10  "
		 "     0                   10\n", prog);
	expect(run(args), 0, want,
	       "bankscope: 1 cubin the records name is missing: no SASS text "
	       "or source lines for it\n");
	snprintf(path, sizeof path, "%s/launches.tsv", keep);
	launches = tu_slurp(path, NULL);
	ck_assert_str_eq(launches, "launch\tkernel\tpc_records\n"
		"0\ta()\t1\n1\tb()\t-\n2\ta()\t-\n3\tc()\t-\n"
		"0\ta()\t-\n1\tb()\t1\n2\ta()\t-\n3\tc()\t-\n"
		"0\ta()\t-\n1\tb()\t-\n2\ta()\t-\n3\tc()\t1\n");
	free(launches);
	snprintf(path, sizeof path, "rm -r '%s'", keep);
	ck_assert_int_eq(system(path), 0);
	free(prog);
}
END_TEST

/* --launches all, the program's status passed through, --max-runs. */
START_TEST(test_run_all_launches)
{
	char *prog = path_of("fake", "program.sh"), want[1024], err[512];
	const char *args[] = { "profile", "--format", "csv", "--launches",
			       "all", "--max-runs", "3", "--inject",
			       "/dev/null", "--", prog, NULL };

	setenv("FAKE_EXIT", "3", 1);
	snprintf(want, sizeof want,
		 "run 0\n"
		 "# program: %s\n"
		 "# launches: 4\n# measured_launches: 3\n# kernels: 3\n"
		 "# instructions: 2\n"
		 "# units: executions in warp instructions; wavefronts, ideal "
		 "and excess in wavefronts; all summed over the measured "
		 "launches\n"
		 "kernel,function,cubin_crc,pc,sass,source,executions,"
		 "wavefronts,ideal,excess,wavefronts_per_exec\n"
		 "a(),_Z1av,7,0x0010,,,2,22,20,2,11\n"
		 "b(),_Z1bv,7,0x0010,,,1,11,10,1,11\n", prog);
	snprintf(err, sizeof err,
		 "bankscope: 1 launch left unmeasured: --max-runs 3 allows 2 "
		 "more runs\n"
		 "bankscope: %s exited with status 3; the profile covers what "
		 "ran\n"
		 "bankscope: 1 cubin the records name is missing: no SASS text "
		 "or source lines for it\n", prog);
	expect(run(args), 3, want, err);
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

	expect(run(fmt), 2, "", "bankscope: option --format: 'xml' is not "
	       "text, csv or json\n");
	expect(run(both), 2, "", "bankscope: profile: --replay takes no "
	       "program\n");
	expect(run(none), 2, "", "bankscope: profile: no program (bankscope "
	       "profile [OPTIONS] -- PROGRAM [ARGS])\n");
	expect(run(zero), 2, "", "bankscope: option --max-runs: 0 runs "
	       "measure nothing\n");
	expect(run(which), 2, "", "bankscope: option --launches: 'some' is "
	       "not first or all\n");
}
END_TEST

Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");
	TCase *lib = tcase_create("records");
	TCase *cmd = tcase_create("command");

	tcase_add_test(lib, test_transpose_table);
	tcase_add_test(lib, test_transpose_cuobjdump);
	tcase_add_test(lib, test_transpose_no_disasm);
	tcase_add_loop_test(lib, test_is_shared, 0,
			    sizeof opcodes / sizeof *opcodes);
	tcase_add_loop_test(lib, test_bad_records, 0,
			    sizeof bad_records / sizeof *bad_records);
	tcase_add_test(lib, test_bad_launches);
	tcase_add_test(lib, test_sums_and_order);
	suite_add_tcase(s, lib);

	tcase_add_test(cmd, test_replay_text);
	tcase_add_test(cmd, test_replay_csv);
	tcase_add_test(cmd, test_replay_json);
	tcase_add_test(cmd, test_replay_garbled);
	tcase_add_test(cmd, test_replay_missing_records);
	tcase_add_test(cmd, test_replay_not_allowed);
	tcase_add_test(cmd, test_replay_no_status);
	tcase_add_test(cmd, test_run_false);
	tcase_add_test(cmd, test_run_true);
	tcase_add_test(cmd, test_run_signal);
	tcase_add_test(cmd, test_run_not_found);
	tcase_add_test(cmd, test_run_not_executable);
	tcase_add_test(cmd, test_run_reruns);
	tcase_add_test(cmd, test_run_all_launches);
	tcase_add_test(cmd, test_usage);
	tcase_set_timeout(cmd, 30);
	suite_add_tcase(s, cmd);
	return s;
}
