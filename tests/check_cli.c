/*
 * check_cli.c - the bankscope command as a program, against golden files.
 *
 * Every folder tests/cases/cli/NAME/ is one case, run in name order:
 *
 *   args              the arguments after the program name, one a line
 *   stdin             optional: the program's standard input (else /dev/null)
 *   expected_stdout   exactly what it must write on stdout
 *   expected_stderr   optional: exactly what it must write on stderr (else
 *                     nothing)
 *   expected_status   its exit status, a decimal number
 *
 * In args and in the expected files @DIR@ stands for the case folder's
 * path, so messages that name an input file stay comparable wherever the
 * tree lies.  The program is $BANKSCOPE (make check sets it), started with
 * posix_spawn, no shell in between; its outputs go to temporary files.
 * $BANKSCOPE_CASES overrides the cases folder.  A mismatch names the case,
 * the stream and its first differing line.  A new case needs no code.
 *
 * The "write errors" cases run commands whose standard output cannot be
 * written (/dev/full; a file-size limit with SIGXFSZ ignored, as `ulimit
 * -f` in a shell that traps it leaves it): each must exit 2 with the one
 * line naming standard output and the reason, never 0.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

extern char **environ;

#define CASES_DIR "tests/cases/cli"

static struct dirent **cases;
static int ncases = -1;

static const char *cases_dir(void)
{
	const char *d = getenv("BANKSCOPE_CASES");

	return d && *d ? d : CASES_DIR;
}

static int visible(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* s with every @DIR@ replaced by dir; a new string. */
static char *subst(const char *s, const char *dir)
{
	static const char mark[] = "@DIR@";
	size_t n = 0, cap = strlen(s) + 1, dl = strlen(dir);
	char *out;
	const char *p;

	for (p = s; (p = strstr(p, mark)); p += sizeof mark - 1)
		cap += dl;
	out = malloc(cap);
	ck_assert_ptr_nonnull(out);
	while ((p = strstr(s, mark))) {
		memcpy(out + n, s, (size_t)(p - s));
		n += (size_t)(p - s);
		memcpy(out + n, dir, dl);
		n += dl;
		s = p + sizeof mark - 1;
	}
	strcpy(out + n, s);
	return out;
}

static char *case_file(const char *dir, const char *name, int required)
{
	char path[4096];
	char *text, *out;
	size_t len;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	text = tu_slurp(path, &len);
	ck_assert_msg(text || !required, "%s is missing", path);
	if (!text)
		return NULL;
	ck_assert_msg(strlen(text) == len, "%s holds a NUL byte", path);
	out = subst(text, dir);
	free(text);
	return out;
}

/* args split at newlines into argv[1..]; argv[0] is the program. */
static char **split_args(const char *prog, char *args)
{
	size_t n = 2;
	char **argv, *p;

	for (p = args; *p; p++)
		n += *p == '\n';
	argv = calloc(n + 1, sizeof *argv);
	ck_assert_ptr_nonnull(argv);
	n = 0;
	argv[n++] = (char *)prog;
	for (p = args; *p;) {
		char *nl = strchr(p, '\n');

		argv[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	argv[n] = NULL;
	return argv;
}

static int temp_file(char *path, size_t size)
{
	return tu_mkstemp(path, size, "bankscope-cli");
}

START_TEST(test_case)
{
	const char *prog = getenv("BANKSCOPE");
	const char *name = cases[_i]->d_name;
	char dir[2048], inpath[2100], outpath[256], errpath[256], msg[1024];
	char *args, *want_out, *want_err, *want_status, *got_out, *got_err;
	char **argv, *end;
	posix_spawn_file_actions_t fa;
	int in, out, err, rc, status;
	long want_code;
	size_t len;
	pid_t pid;

	ck_assert_msg(prog && *prog, "BANKSCOPE is not set: run make check");
	snprintf(dir, sizeof dir, "%s/%s", cases_dir(), name);
	args = case_file(dir, "args", 1);
	want_out = case_file(dir, "expected_stdout", 1);
	want_err = case_file(dir, "expected_stderr", 0);
	want_status = case_file(dir, "expected_status", 1);
	want_code = strtol(want_status, &end, 10);
	ck_assert_msg(end != want_status && (!*end || !strcmp(end, "\n")),
		      "%s/expected_status: '%s' is not a number", dir,
		      want_status);

	snprintf(inpath, sizeof inpath, "%s/stdin", dir);
	in = open(inpath, O_RDONLY);
	if (in < 0)
		in = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(in, 0);
	out = temp_file(outpath, sizeof outpath);
	err = temp_file(errpath, sizeof errpath);
	argv = split_args(prog, args);

	ck_assert_int_eq(posix_spawn_file_actions_init(&fa), 0);
	posix_spawn_file_actions_adddup2(&fa, in, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, err, 2);
	rc = posix_spawn(&pid, prog, &fa, NULL, argv, environ);
	ck_assert_msg(rc == 0, "cannot run %s: %s", prog, strerror(rc));
	while (waitpid(pid, &status, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	posix_spawn_file_actions_destroy(&fa);
	close(in);
	close(out);
	close(err);

	got_out = tu_slurp(outpath, &len);
	got_err = tu_slurp(errpath, &len);
	unlink(outpath);
	unlink(errpath);
	ck_assert_ptr_nonnull(got_out);
	ck_assert_ptr_nonnull(got_err);

	ck_assert_msg(WIFEXITED(status), "%s: killed by signal %d; stderr:\n%s",
		      name, WTERMSIG(status), got_err);
	if (strcmp(got_err, want_err ? want_err : "")) {
		tu_first_difference("stderr", "expected",
				    want_err ? want_err : "", got_err,
				    msg, sizeof msg);
		ck_abort_msg("%s: %s", name, msg);
	}
	if (strcmp(got_out, want_out)) {
		tu_first_difference("stdout", "expected", want_out, got_out,
				    msg, sizeof msg);
		ck_abort_msg("%s: %s", name, msg);
	}
	ck_assert_msg(WEXITSTATUS(status) == want_code, "%s: exit status %d, "
		      "expected %ld", name, WEXITSTATUS(status), want_code);

	free(argv);
	free(args);
	free(want_out);
	free(want_err);
	free(want_status);
	free(got_out);
	free(got_err);
}
END_TEST

/* ---- write errors on standard output ----------------------------------- */

static const char *const full_cmds[][8] = {
	{ "--help" },
	{ "profiles" },
	{ "predict", "--expr", "lane" },
	{ "predict", "--format", "csv", "--expr", "lane" },
	{ "predict", "--format", "json", "--tile", "32x32" },
	{ "predict", "--help" },
	{ "check", "tests/cases/check/agree.csv" },
	{ "check", "--quiet", "tests/cases/check/disagree.csv" },
	{ "fix", "--tile", "32x32" },
	{ "profile", "--replay", "tests/cases/profile/tutorial" },
};
#define NFULL (int)(sizeof full_cmds / sizeof *full_cmds)

/*
 * Run $BANKSCOPE with args, stdout on out_fd; fsize > 0: under that file
 * size limit, SIGXFSZ ignored.  Its exit status; its stderr in *err.
 */
static int run_out(const char *const *args, int out_fd, rlim_t fsize,
		   char **err)
{
	const char *prog = getenv("BANKSCOPE");
	char errpath[256];
	char *argv[10];
	int efd, n = 0, status;
	pid_t pid;

	ck_assert_msg(prog && *prog, "BANKSCOPE is not set: run make check");
	argv[n++] = (char *)prog;
	for (int i = 0; i < 8 && args[i]; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	efd = temp_file(errpath, sizeof errpath);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);

		if (fsize) {
			struct rlimit rl = { fsize, fsize };

			signal(SIGXFSZ, SIG_IGN);
			setrlimit(RLIMIT_FSIZE, &rl);
		}
		dup2(in, 0);
		dup2(out_fd, 1);
		dup2(efd, 2);
		execv(prog, argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	close(efd);
	*err = tu_slurp(errpath, NULL);
	unlink(errpath);
	ck_assert_ptr_nonnull(*err);
	ck_assert_msg(WIFEXITED(status), "%s: killed by signal %d", args[0],
		      WTERMSIG(status));
	return WEXITSTATUS(status);
}

START_TEST(test_dev_full)
{
	int out = open("/dev/full", O_WRONLY);
	char *err;
	int rc;

	ck_assert_int_ge(out, 0);
	rc = run_out(full_cmds[_i], out, 0, &err);
	close(out);
	ck_assert_msg(rc == 2, "bankscope %s %s > /dev/full: exit %d, "
		      "stderr:\n%s", full_cmds[_i][0],
		      full_cmds[_i][1] ? full_cmds[_i][1] : "", rc, err);
	/* with the reason, also where a command flushed (and failed)
	 * itself, as profile does (issue 20) */
	ck_assert_msg(!strcmp(err, "bankscope: cannot write to standard "
			      "output: No space left on device\n"),
		      "stderr:\n%s", err);
	free(err);
}
END_TEST

/*
 * A CSV cut by a 4 KiB file-size limit (500 accesses, about 15 KiB):
 * exit 2 and the one line, the file holding exactly 4 KiB.
 */
START_TEST(test_file_size_limit)
{
	const char *args[] = { "predict", "--format", "csv", NULL, NULL };
	char pat[256], path[256], *err, *out;
	size_t len;
	FILE *f;
	int fd, rc;

	fd = temp_file(pat, sizeof pat);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < 500; i++) {
		fprintf(f, "r%d 4 ld", i);
		for (int l = 0; l < 32; l++)
			fprintf(f, " %d", 4 * l * (i % 33));
		putc('\n', f);
	}
	ck_assert_int_eq(fclose(f), 0);
	args[3] = pat;
	fd = temp_file(path, sizeof path);
	rc = run_out(args, fd, 4096, &err);
	close(fd);
	out = tu_slurp(path, &len);
	unlink(path);
	unlink(pat);
	ck_assert_ptr_nonnull(out);
	ck_assert_msg(rc == 2, "exit %d, stderr:\n%s", rc, err);
	ck_assert_str_eq(err, "bankscope: cannot write to standard output: "
			 "File too large\n");
	ck_assert_uint_eq(len, 4096);
	free(out);
	free(err);
}
END_TEST

/*
 * profile --dataset whose rows cannot be written (a 1 KiB file-size
 * limit): one message saying why, never what the stack held (issue 13:
 * MemorySanitizer saw the message built from an unset bs_error).
 */
START_TEST(test_dataset_write_error)
{
	char dir[] = "/tmp/bankscope-cli-XXXXXX", path[64], *err;
	const char *args[] = { "profile", "--replay",
			       "tests/cases/profile/tutorial", "--patterns",
			       "tests/cases/profile/tutorial/patterns",
			       "--dataset", NULL, NULL };
	int out = open("/dev/null", O_WRONLY), rc;

	ck_assert_int_ge(out, 0);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/big.csv", dir);
	args[6] = path;
	rc = run_out(args, out, 1024, &err);
	close(out);
	ck_assert_msg(rc == 2, "exit %d, stderr:\n%s", rc, err);
	ck_assert_msg(!strncmp(err, "bankscope: ", 11) &&
		      strstr(err, "File too large\n") &&
		      strchr(err, '\n') == err + strlen(err) - 1,
		      "stderr:\n%s", err);
	free(err);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_cases_found)
{
	ck_abort_msg("no case folders in %s", cases_dir());
}
END_TEST

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("golden");

	/* a case runs a whole program: calibrate takes seconds under ASan */
	tcase_set_timeout(tc, 60);
	if (ncases < 0)
		ncases = scandir(cases_dir(), &cases, visible, alphasort);
	if (ncases > 0)
		tcase_add_loop_test(tc, test_case, 0, ncases);
	else
		tcase_add_test(tc, test_cases_found);
	suite_add_tcase(s, tc);
	tu_add_tcase(s, "write errors", 0, (const tu_test[]){
		{ test_dev_full, NFULL }, { test_file_size_limit, 1 },
		{ test_dataset_write_error, 1 }, { NULL, 0 } });
	return s;
}
