/*
 * check_stream.c - predict --format csv of a large file on threads
 * (cli/stream.c) gives the serial loop's bytes.  Each test writes a
 * pattern file of several MiB (past the 1 MiB the threads wait for) and
 * runs $BANKSCOPE on it with BANKSCOPE_THREADS=1 (the serial loop) and
 * with 2, 4 and 7 threads: standard output, standard error and the exit
 * status must be the same.  The files mix every width, not-modeled rows
 * (ldsm.x4 under the textbook arch), names that CSV quotes or that are
 * long, comments and blank lines; variants add a byte-order mark, CRLF
 * ends, no final newline, and one bad line (a parse error, a NUL byte, a
 * line over 64 KiB) in the middle, across the first block's edge, or
 * last.  A reader that stops after the first line ends the run cleanly.
 * A file with remote (dsmem.*) accesses, under sm_90, gets the sectors
 * column on threads as in the serial loop.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#define LINES 30000             /* about 5 MiB */
#define BLOCK (128 * 1024)      /* stream.c's block */

enum { BAD_NONE, BAD_MID, BAD_EDGE, BAD_LAST };

typedef struct {
	const char *what;
	int bom, crlf, nonl, where;
	const char *bad;        /* the bad line; NULL: a line over 64 KiB */
	size_t badlen;
} variant;

/* A bad line of a literal, its NUL bytes included. */
#define BAD(s) s, sizeof s - 1

static const variant variants[] = {
	{ "plain", 0, 0, 0, BAD_NONE, BAD("") },
	{ "bom, crlf, no final newline", 1, 1, 1, BAD_NONE, BAD("") },
	{ "parse error mid-file", 0, 0, 0, BAD_MID, BAD("x 4 ld 1 2 3") },
	{ "parse error across the block edge", 0, 1, 0, BAD_EDGE,
	  BAD("x 4 ld 1 2 3") },
	{ "parse error last, no newline", 0, 0, 1, BAD_LAST, BAD("x 4 ld 1 2") },
	{ "NUL byte mid-file", 1, 0, 0, BAD_MID, BAD("x 4 ld\0 1") },
	{ "NUL byte across the block edge", 0, 0, 0, BAD_EDGE, BAD("x 4 ld\0 1") },
	{ "long line mid-file", 0, 0, 0, BAD_MID, NULL, 0 },
	{ "long line across the block edge", 0, 0, 0, BAD_EDGE, NULL, 0 },
	{ "long line last", 0, 0, 1, BAD_LAST, NULL, 0 },
};
#define NVARIANTS (int)(sizeof variants / sizeof *variants)

static unsigned long rng = 12345;

static unsigned next_rand(void)
{
	rng = rng * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(rng >> 33);
}

/* Line i of the file, without its end. */
static void put_line(FILE *f, int i)
{
	static const unsigned widths[] = { 1, 2, 4, 8, 16 };
	unsigned w = widths[i % 5];

	switch (i % 97) {
	case 13:
		fprintf(f, "# a comment");
		return;
	case 14:
		return;         /* a blank line */
	case 15:
		fprintf(f, "nm%d 16 ldsm.x4", i);   /* not modeled */
		w = 16;
		break;
	case 16:
		fprintf(f, "\"q,%d\" %u ld", i, w);
		break;
	case 17:
		fprintf(f, "a_name_longer_than_sixteen_bytes_%d %u st", i, w);
		break;
	default:
		fprintf(f, "r%d %u %s", i, w, i % 3 ? "ld" : "st");
	}
	for (int l = 0; l < 32; l++)
		if (next_rand() % 16 == 0)
			fprintf(f, " -");
		else
			fprintf(f, " %u", next_rand() % (16384 / w) * w);
}

static void put_bad(FILE *f, const variant *v)
{
	if (v->bad)
		fwrite(v->bad, 1, v->badlen, f);
	else
		for (int k = 0; k < 70000; k++)
			putc('y', f);
}

/* Write variant v to path. */
static void write_file(const char *path, const variant *v)
{
	FILE *f = fopen(path, "wb");
	int edge_done = 0;

	ck_assert_ptr_nonnull(f);
	rng = 12345;
	if (v->bom)
		fputs("\xef\xbb\xbf", f);
	for (int i = 0; i < LINES; i++) {
		int bad = (v->where == BAD_MID && i == LINES / 2) ||
			  (v->where == BAD_LAST && i == LINES - 1) ||
			  (v->where == BAD_EDGE && !edge_done &&
			   ftell(f) > BLOCK - 40);

		if (bad && v->where == BAD_EDGE)
			edge_done = 1;
		if (bad)
			put_bad(f, v);
		else
			put_line(f, i);
		if (i < LINES - 1 || !v->nonl)
			fputs(v->crlf ? "\r\n" : "\n", f);
	}
	ck_assert_int_eq(fclose(f), 0);
}

/* The arch the runs predict with. */
static const char *arch = "textbook";

/*
 * Run $BANKSCOPE predict --arch ARCH --format csv path with threads;
 * its stdout and stderr in *out and *err, its wait status returned.
 */
/* As run(), with BANKSCOPE_THREADS set to the text n. */
static int run_env(const char *path, const char *n, char **out,
		   size_t *outlen, char **err)
{
	const char *prog = getenv("BANKSCOPE");
	char opath[256], epath[256];
	int ofd, efd, status;
	pid_t pid;

	ck_assert_msg(prog && *prog, "BANKSCOPE is not set: run make check");
	snprintf(opath, sizeof opath, "%s.out", path);
	snprintf(epath, sizeof epath, "%s.err", path);
	ofd = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	efd = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert(ofd >= 0 && efd >= 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(ofd, 1);
		dup2(efd, 2);
		setenv("BANKSCOPE_THREADS", n, 1);
		execl(prog, prog, "predict", "--arch", arch, "--format",
		      "csv", path, (char *)NULL);
		_exit(127);
	}
	close(ofd);
	close(efd);
	while (waitpid(pid, &status, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	*out = tu_slurp(opath, outlen);
	*err = tu_slurp(epath, NULL);
	unlink(opath);
	unlink(epath);
	ck_assert(*out && *err);
	return status;
}

static int run(const char *path, int threads, char **out, size_t *outlen,
	       char **err)
{
	char n[16];

	snprintf(n, sizeof n, "%d", threads);
	return run_env(path, n, out, outlen, err);
}

static void temp_path(char *path, size_t size)
{
	close(tu_mkstemp(path, size, "bankscope-stream"));
}

START_TEST(test_same_bytes)
{
	static const int threads[] = { 2, 4, 7 };
	const variant *v = &variants[_i];
	char path[256], *out1, *err1;
	size_t len1;
	int st1;

	temp_path(path, sizeof path);
	write_file(path, v);
	st1 = run(path, 1, &out1, &len1, &err1);
	ck_assert_msg(WIFEXITED(st1), "%s: killed", v->what);
	ck_assert_msg(WEXITSTATUS(st1) == (v->where == BAD_NONE ? 0 : 2),
		      "%s: exit %d, stderr:\n%s", v->what, WEXITSTATUS(st1),
		      err1);
	/* the bad line's rows stop the output: the file is past 1 MiB and
	 * so is, but for the edge case, what comes before */
	ck_assert_msg(v->where == BAD_EDGE || len1 > 256 * 1024,
		      "%s: %zu bytes out", v->what, len1);
	for (int t = 0; t < 3; t++) {
		char *out, *err, msg[512];
		size_t len;
		int st = run(path, threads[t], &out, &len, &err);

		ck_assert_msg(st == st1, "%s, %d threads: status %d, not %d",
			      v->what, threads[t], st, st1);
		ck_assert_msg(!strcmp(err, err1), "%s, %d threads: stderr\n%s"
			      "not\n%s", v->what, threads[t], err, err1);
		tu_first_difference(v->what, "stdout", out1, out, msg,
				    sizeof msg);
		ck_assert_msg(len == len1 && !memcmp(out, out1, len),
			      "%s, %d threads: %zu bytes, not %zu: %s",
			      v->what, threads[t], len, len1, msg);
		free(out);
		free(err);
	}
	free(out1);
	free(err1);
	unlink(path);
}
END_TEST

/*
 * The reader of standard output leaves after one line (`| head -1`): with
 * SIGPIPE as it comes, the run dies of it; with SIGPIPE ignored, it ends
 * with exit 2 and the write error.  Either way as the serial loop does,
 * and no thread is left waiting.
 */
static int run_head(const char *path, int threads, int ignore_pipe)
{
	const char *prog = getenv("BANKSCOPE");
	char n[16], c = 0;
	int fd[2], status;
	pid_t pid;

	snprintf(n, sizeof n, "%d", threads);
	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(fd[1], 1);
		dup2(null, 2);
		close(fd[0]);
		signal(SIGPIPE, ignore_pipe ? SIG_IGN : SIG_DFL);
		setenv("BANKSCOPE_THREADS", n, 1);
		execl(prog, prog, "predict", "--format", "csv", path,
		      (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (c != '\n' && read(fd[0], &c, 1) == 1)
		;
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	return status;
}

/*
 * Remote accesses among the others (a dsmem.ld every seventh line), under
 * sm_90: the header ends in the sectors column, a remote row in its
 * sectors, a bank row in an empty field, on threads as serially (issue
 * 30: --format csv had no sectors; the file is looked through for a
 * remote kind before the header).
 */
START_TEST(test_sectors_column)
{
	char path[256], *out1, *err1, *out, *err;
	size_t len1, len;
	FILE *f;
	int st;

	temp_path(path, sizeof path);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	rng = 12345;
	for (int i = 0; i < LINES; i++) {
		if (i % 7 == 3) {
			fprintf(f, "d%d 4 dsmem.ld", i);
			for (int l = 0; l < 32; l++)
				fprintf(f, " %u", next_rand() % 4096 * 4);
		} else {
			put_line(f, i);
		}
		fputc('\n', f);
	}
	ck_assert_int_eq(fclose(f), 0);
	arch = "sm_90";
	st = run(path, 1, &out1, &len1, &err1);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", err1);
	ck_assert_msg(!strncmp(out1, "name,width,op,active_lanes,phases,packed,"
			       "wavefronts,ideal_wavefronts,bank_conflicts,"
			       "max_way,latency_cycles,sectors\n", 98),
		      "%.120s", out1);
	ck_assert_ptr_nonnull(strstr(out1, "\nd3,4,dsmem.ld,32,"));
	ck_assert_msg(strchr(strstr(out1, "\nd3,4,dsmem.ld,32,") + 1,
			     '\n')[-1] != ',', "a remote row without sectors");
	ck_assert_ptr_nonnull(strstr(out1, "\nr1,2,ld,"));
	ck_assert(strchr(strstr(out1, "\nr1,2,ld,") + 1, '\n')[-1] == ',');
	for (int t = 2; t <= 4; t += 2) {
		st = run(path, t, &out, &len, &err);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", err);
		ck_assert_uint_eq(len, len1);
		ck_assert_msg(!memcmp(out, out1, len), "%d threads: other "
			      "bytes", t);
		ck_assert_str_eq(err, err1);
		free(out);
		free(err);
	}
	arch = "textbook";
	free(out1);
	free(err1);
	unlink(path);
}
END_TEST

START_TEST(test_head)
{
	char path[256];
	int ignore = _i;

	temp_path(path, sizeof path);
	write_file(path, &variants[0]);
	for (int t = 1; t <= 4; t += 3) {
		int st = run_head(path, t, ignore);

		if (ignore)
			ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 2,
				      "%d threads: status %d", t, st);
		else
			ck_assert_msg(WIFSIGNALED(st) &&
				      WTERMSIG(st) == SIGPIPE,
				      "%d threads: status %d", t, st);
	}
	unlink(path);
}
END_TEST

/*
 * A BANKSCOPE_THREADS that is no number of threads is refused before
 * anything is read, with its value in the message and status 2, even for
 * a file the threads would not serve; any count above 64, however long,
 * is taken as 64.  Only digits are a number, the first not 0: a blank
 * before or after, a sign or a leading zero is refused alike (issue 30,
 * item 16).
 */
static const struct {
	const char *value, *shown;   /* shown: as the message quotes it */
	int status;
} settings[] = {
	{ "abc", "abc", 2 }, { "0", "0", 2 }, { "-3", "-3", 2 },
	{ "4x", "4x", 2 }, { "\033[2J", "\\x1b[2J", 2 },
	{ " 2", " 2", 2 }, { "2 ", "2 ", 2 }, { "+2", "+2", 2 },
	{ "00002", "00002", 2 },
	{ "99999999999999999999", NULL, 0 }, { "9999999999999999999", NULL, 0 },
	{ "1000", NULL, 0 }, { "2", NULL, 0 },
};

START_TEST(test_bad_setting)
{
	char path[256], *out, *err, want[160];
	size_t len;
	int fd, st;
	static const char line[] = "a 4 ld 0 4 8 12 16 20 24 28 32 36 40 44 "
		"48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 "
		"120 124\n";

	fd = tu_mkstemp(path, sizeof path, "bankscope-stream");
	ck_assert_int_eq(write(fd, line, sizeof line - 1),
			 (ssize_t)(sizeof line - 1));
	close(fd);
	st = run_env(path, settings[_i].value, &out, &len, &err);
	unlink(path);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), settings[_i].status);
	if (settings[_i].status) {
		snprintf(want, sizeof want, "bankscope: BANKSCOPE_THREADS: "
			 "'%s' is not a number of threads (1 or more)\n",
			 settings[_i].shown);
		ck_assert_str_eq(err, want);
		ck_assert_uint_eq(len, 0);
	} else {
		ck_assert_str_eq(err, "");
		ck_assert_uint_gt(len, 0);
	}
	free(out);
	free(err);
}
END_TEST

Suite *stream_suite(void)
{
	Suite *s = suite_create("stream");

	/* each test runs the program 4 times on 5 MiB */
	tu_add_tcase(s, "threads", 120, (const tu_test[]){
		{ test_same_bytes, NVARIANTS }, { test_head, 2 },
		{ test_bad_setting, TU_ROWS(settings) },
		{ test_sectors_column, 1 }, { NULL, 0 } });
	return s;
}
