/*
 * check_processes.c - bankscope profile with a program of several
 * processes (each its own report, --target-processes, -o per process,
 * replay) and the explain run's early end, through stand-ins for the
 * program and the libraries (tests/cases/profile/fake/procs.sh and
 * slow.sh), so no GPU is needed.
 */
#define _GNU_SOURCE
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

/* The stand-in for a program of two processes (fake/procs.sh): the first
 * keeps the directory, the second writes process-1002. */
#define PROC_HEAD(pid, ppid, rank) \
	"process: " pid " (parent " ppid "): procs.sh --rank " rank \
	", on NVIDIA H200\n" "runs: 1\n"
#define PROC_UNITS \
	"executions in warp instructions; wavefronts, ideal and excess in " \
	"wavefronts; all summed over the measured launches\n\n" \
	"kernel  pc      sass  source  executions  wavefronts  ideal  " \
	"excess  wavefronts_per_exec\n"
#define PROC_A \
	"1 launch of 1 kernel, 1 measured; 1 of 1 instructions use shared " \
	"memory\n" PROC_UNITS \
	"a()     0x0010  -     -                1          12      4  " \
	"     8                   12\n"
#define PROC_D \
	"2 launches of 1 kernel, 1 measured; 1 of 1 instructions use shared " \
	"memory\n" PROC_UNITS \
	"d()     0x0010  -     -                1           8      8  " \
	"     0                    8\n"
#define NO_CUBIN "bankscope: 1 cubin the records name is missing: no SASS " \
	"text or source lines for it\n"

/* Each process its own report, in pid order, each naming its process;
 * the kept directory as the two processes left it. */
START_TEST(test_run_processes)
{
	char *prog = tu_profile_case("fake", "procs.sh"), want[4096], err[512];
	char keep[] = "/tmp/bankscope-profile-keep-XXXXXX", sub[600];
	const char *args[] = { "profile", "--keep", keep, "--inject",
			       "/dev/null", "--", prog, NULL };

	tu_mkdtemp(keep);
	snprintf(want, sizeof want,
		 "procs\n"
		 "program: %s\n" PROC_HEAD("1001", "999", "0") PROC_A "\n"
		 "program: %s\n" PROC_HEAD("1002", "1001", "1") PROC_D,
		 prog, prog);
	snprintf(err, sizeof err, "bankscope: 2 processes of %s used the "
		 "GPU: a report for each\n" NO_CUBIN NO_CUBIN, prog);
	tu_expect_run(tu_run_bankscope(args), 0, want, err);
	snprintf(sub, sizeof sub, "%s/process-1002", keep);
	tu_file_is(sub, "process.txt", "pid\t1002\nppid\t1001\n"
		"command\tprocs.sh --rank 1\n");
	tu_remove(keep);
	free(prog);
}
END_TEST

/* --target-processes application-only: the process started alone (the
 * stand-in plays the library, which leaves a child alone); a bad value is
 * refused before anything runs. */
START_TEST(test_run_processes_target)
{
	char *prog = tu_profile_case("fake", "procs.sh"), want[2048];
	const char *args[] = { "profile", "--target-processes",
			       "application-only", "--inject", "/dev/null",
			       "--", prog, NULL };
	const char *bad[] = { "profile", "--target-processes", "children",
			      "--inject", "/dev/null", "--", prog, NULL };

	snprintf(want, sizeof want, "procs\nprogram: %s\n"
		 PROC_HEAD("1001", "999", "0") PROC_A, prog);
	tu_expect_run(tu_run_bankscope(args), 0, want, NO_CUBIN);
	tu_expect_run(tu_run_bankscope(bad), 2, "", "bankscope: option --target-processes: "
	       "'children' is not all or application-only\n");
	free(prog);
}
END_TEST

/* -o FILE with several processes: one file per process, %p the pid, else
 * FILE-PID before the extension; stdout keeps the program's line alone. */
START_TEST(test_run_processes_output)
{
	char *prog = tu_profile_case("fake", "procs.sh"), out[600], err[4096];
	char dir[] = "/tmp/bankscope-profile-out-XXXXXX";
	const char *forms[][2] = { { "rep-%p.csv", "rep-%s.csv" },
				   { "rep.csv", "rep-%s.csv" },
				   { "rep", "rep-%s" } };

	tu_mkdtemp(dir);
	for (size_t f = 0; f < 3; f++) {
		char o[700], p1[700], p2[700], *text;
		const char *args[] = { "profile", "--format", "csv", "-o", o,
				       "--inject", "/dev/null", "--", prog,
				       NULL };

		snprintf(o, sizeof o, "%s/%s", dir, forms[f][0]);
		snprintf(out, sizeof out, "%s/%s", dir, forms[f][1]);
		snprintf(p1, sizeof p1, out, "1001");
		snprintf(p2, sizeof p2, out, "1002");
		snprintf(err, sizeof err, "bankscope: 2 processes of %s used "
			 "the GPU: a report for each\n" NO_CUBIN
			 "bankscope: process 1001: the report is in %s\n"
			 NO_CUBIN
			 "bankscope: process 1002: the report is in %s\n",
			 prog, p1, p2);
		tu_expect_run(tu_run_bankscope(args), 0, "procs\n", err);
		ck_assert_ptr_nonnull(text = tu_slurp(p2, NULL));
		ck_assert_msg(strstr(text, "# process: 1002\n# parent: 1001\n"
				     "# command: procs.sh --rank 1\n") &&
			      strstr(text, "\nd(),_Z1dv,7,0x0010,,,1,8,8,0,8\n"),
			      "%s", text);
		free(text);
		ck_assert_ptr_nonnull(text = tu_slurp(p1, NULL));
		ck_assert_msg(strstr(text, "\na(),_Z1av,7,0x0010,,,1,12,4,8,"
				     "12\n") && !strstr(text, "d()"),
			      "%s", text);
		free(text);
		unlink(p1);
		unlink(p2);
	}
	tu_remove(dir);
	free(prog);
}
END_TEST

/* process.txt that the injection library would not write, and the
 * message naming where. */
static const char *const bad_process[][2] = {
	{ "pid\t0x3ea\nppid\t1001\n", "1: pid is not a positive decimal "
	  "number" },
	{ "pid\t1002\nppid\t-1\n", "2: ppid is not a positive decimal "
	  "number" },
	{ "pid\t1002\nrank\t1\n", "2: not pid, ppid or command, a tab and "
	  "its value (as the injection library writes it)" },
	{ "command\tx\n", "1: no pid line" },
};

/* A kept directory of two processes replays as two reports; what takes
 * one directory, and a process.txt the library would not write, are
 * refused. */
START_TEST(test_replay_processes)
{
	char *prog = tu_profile_case("fake", "procs.sh"), want[4096], err[2048];
	char keep[] = "/tmp/bankscope-profile-keep-XXXXXX";
	const char *rec[] = { "profile", "--keep", keep, "--inject",
			      "/dev/null", "--", prog, NULL };
	const char *args[] = { "profile", "--replay", keep, NULL };
	const char *pat[] = { "profile", "--replay", keep, "--patterns",
			      "/dev/null", NULL };
	tu_run_result r;

	tu_mkdtemp(keep);
	r = tu_run_bankscope(rec);
	ck_assert_int_eq(r.status, 0);
	free(r.out);
	free(r.err);
	snprintf(want, sizeof want,
		 "process: 1001 (parent 999): procs.sh --rank 0, on NVIDIA "
		 "H200\n" PROC_A "\n"
		 "process: 1002 (parent 1001): procs.sh --rank 1, on NVIDIA "
		 "H200\n" PROC_D);
	snprintf(err, sizeof err, "bankscope: 2 processes of %s used the "
		 "GPU: a report for each\n" NO_CUBIN NO_CUBIN, keep);
	tu_expect_run(tu_run_bankscope(args), 0, want, err);
	snprintf(err, sizeof err, "bankscope: profile: --replay of %s, which "
		 "holds 2 processes: --patterns, --dataset, --launch-skip and "
		 "--launch-count take one\n", keep);
	tu_expect_run(tu_run_bankscope(pat), 2, "", err);
	for (size_t b = 0; b < sizeof bad_process / sizeof *bad_process; b++) {
		char path[700];
		FILE *f;

		snprintf(path, sizeof path, "%s/process-1002/process.txt", keep);
		ck_assert_ptr_nonnull(f = fopen(path, "w"));
		fputs(bad_process[b][0], f);
		ck_assert_int_eq(fclose(f), 0);
		snprintf(err, sizeof err, "bankscope: 2 processes of %s used "
			 "the GPU: a report for each\n" NO_CUBIN
			 "bankscope: %s:%s\n", keep, path, bad_process[b][1]);
		r = tu_run_bankscope(args);
		ck_assert_int_eq(r.status, 2);
		ck_assert_str_eq(r.err, err);
		free(r.out);
		free(r.err);
	}
	tu_remove(keep);
	free(prog);
}
END_TEST

/* The explain run is ended, with the processes it started, once its
 * status lists a sampled launch of every kernel the first run measured
 * (fake/slow.sh would run 30 s more); its end is no failure.  With
 * --launches all, a kernel launched twice is still one to wait for. */
static const char *const ended_launches[] = { "first", "all" };

START_TEST(test_explain_run_ended)
{
	char *prog = tu_profile_case("fake", "slow.sh"), path[700], *text;
	char keep[] = "/tmp/bankscope-profile-keep-XXXXXX";
	const char *args[] = { "profile", "--explain", "--launches",
			       ended_launches[_i], "--keep", keep,
			       "--inject", "/dev/null", "--", prog, NULL };
	tu_run_result r;
	long child;
	int alive = 1;

	tu_mkdtemp(keep);
	setenv("BANKSCOPE_EXPLAIN_LIB", "/dev/null", 1);
	setenv("BANKSCOPE_EXPLAIN_PATCH", "/dev/null", 1);
	r = tu_run_bankscope(args);
	unsetenv("BANKSCOPE_EXPLAIN_LIB");
	unsetenv("BANKSCOPE_EXPLAIN_PATCH");
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "slow\n") && !strstr(r.err, "explain run"),
		      "%s%s", r.out, r.err);
	free(r.out);
	free(r.err);
	snprintf(path, sizeof path, "%s/explain-finished", keep);
	ck_assert_int_ne(access(path, F_OK), 0);
	snprintf(path, sizeof path, "%s/explain-child.pid", keep);
	ck_assert_ptr_nonnull(text = tu_slurp(path, NULL));
	child = strtol(text, NULL, 10);
	free(text);
	ck_assert_int_gt(child, 1);
	for (int i = 0; i < 200 && alive; i++) {   /* init reaps it */
		alive = kill((pid_t)child, 0) == 0;
		if (alive)
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	ck_assert_msg(!alive, "the explain run's child %ld still runs", child);
	tu_remove(keep);
	free(prog);
}
END_TEST

Suite *processes_suite(void)
{
	Suite *s = suite_create("processes");

	tu_add_tcase(s, "command", 30, (const tu_test[]){
		{ test_run_processes, 1 }, { test_run_processes_target, 1 },
		{ test_run_processes_output, 1 }, { test_replay_processes, 1 },
		{ test_explain_run_ended, TU_ROWS(ended_launches) },
		{ NULL, 0 } });
	return s;
}
