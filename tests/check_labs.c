/*
 * check_labs.c - every command of the student labs, run as the labs show it.
 *
 * The labs (the .md files of docs/labs/ and their answer keys, those of
 * docs/labs/answers/) hold their commands as transcripts in fenced blocks
 * marked ```sh:
 *
 *   ```sh
 *   $ bankscope predict --format csv --expr 'lane*2'
 *   name,width,op,...
 *   expr,4,ld,...
 *   $ bankscope check --arch textbook --quiet FILE
 *   ...
 *   [exit 1]
 *   ```
 *
 * A line that starts with "$ " is a command; the lines after it, up to the
 * next command or the closing fence, are exactly what it writes on stdout
 * and stderr together (both go to one file, in the order written).  A last
 * line "[exit N]" gives its exit status; without one the status must be 0.
 * Each command runs alone, from the repository root (where make check
 * runs), through /bin/sh -c, with stdin from /dev/null, LC_ALL=C, and the
 * folder of $BANKSCOPE (build/, make check sets it) first on PATH, so the
 * labs write plain `bankscope ...`.  Commands share no state: a command
 * that needs a file makes it in a pipe.
 *
 * Each command is one loop test, named by file and line in its failure
 * message, which quotes the first line where output and transcript part.
 * The parse itself is a test too: it fails on a ```sh block that does not
 * start with a command, an unclosed block, an indented ```sh fence or a
 * "$ " line in another block (neither would run), and a command that
 * needs a GPU or a build (make, nvcc, ncu, nvidia-smi, bankscope-probe,
 * bankscope-tutorial, bankscope profile without --replay), which is
 * reported and not run: those belong in ```text blocks, since CI has no
 * GPU.  Every lab file and answer key
 * must hold a command, and every docs/labs/labN-*.md its
 * docs/labs/answers/labN.md.  $BANKSCOPE_LABS overrides docs/labs.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

extern char **environ;

#define LABS_DIR "docs/labs"

struct lab_cmd {
	char *where;	/* FILE:LINE of the "$ " line */
	char *command;
	char *expected;	/* stdout and stderr, exactly */
	int status;
};

static struct lab_cmd *cmds;
static int ncmds, cmds_cap;
static char *problems;	/* one "FILE:LINE: text" a line */
static size_t problems_len;
static int parsed;

static const char *labs_dir(void)
{
	const char *d = getenv("BANKSCOPE_LABS");

	return d && *d ? d : LABS_DIR;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (!p)
		abort();
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static void problem(const char *file, long line, const char *fmt,
		    const char *arg)
{
	char text[1024];
	int n;

	n = snprintf(text, sizeof text / 2, "%s:%ld: ", file, line);
	if (n >= (int)sizeof text / 2)
		n = (int)sizeof text / 2 - 1;
	n += snprintf(text + n, sizeof text - (size_t)n, fmt, arg);
	if (n >= (int)sizeof text - 1)
		n = (int)sizeof text - 2;
	text[n++] = '\n';
	problems = realloc(problems, problems_len + (size_t)n + 1);
	if (!problems)
		abort();
	memcpy(problems + problems_len, text, (size_t)n);
	problems_len += (size_t)n;
	problems[problems_len] = '\0';
}

/* Why a command cannot run in CI, or NULL.  Words are split at blanks
 * and at the shell's ; | & ( ) so that "a | make x" is seen. */
static const char *needs_gpu(const char *cmd)
{
	static const char *const banned[] = { "make", "nvcc", "ncu",
					      "nvidia-smi", NULL };
	const char *p = cmd;
	int after_bankscope = 0, profile = 0, replay = 0;

	while (*p) {
		size_t n;
		char word[256];

		p += strspn(p, " \t;|&()");
		n = strcspn(p, " \t;|&()");
		if (!n)
			break;
		snprintf(word, sizeof word, "%.*s", (int)n, p);
		p += n;
		for (int i = 0; banned[i]; i++)
			if (!strcmp(word, banned[i]))
				return "needs a build or a GPU";
		if (strstr(word, "bankscope-probe") ||
		    strstr(word, "bankscope-tutorial"))
			return "runs a GPU program";
		if (after_bankscope && !strcmp(word, "profile"))
			profile = 1;
		replay |= !strcmp(word, "--replay");
		n = strlen(word);
		after_bankscope = !strcmp(word, "bankscope") ||
				  (n > 10 && !strcmp(word + n - 10, "/bankscope"));
	}
	return profile && !replay ?
	       "profiles a GPU program (use --replay DIR)" : NULL;
}

static void add_cmd(const char *file, long line, const char *command,
		    const char *out, size_t outlen)
{
	struct lab_cmd *c;
	char where[4200];
	const char *last;
	size_t n;
	int status = 0;
	const char *why = needs_gpu(command);

	if (why) {	/* reported, and not run */
		char m[600];

		snprintf(m, sizeof m, "'%.400s' %s: show it in a ```text block",
			 command, why);
		problem(file, line, "%s", m);
		return;
	}
	/* a last line "[exit N]" is the status, not output */
	n = outlen;
	last = out + n;
	if (n && out[n - 1] == '\n') {
		const char *s = out + n - 1;

		while (s > out && s[-1] != '\n')
			s--;
		if (!strncmp(s, "[exit ", 6)) {
			char *end;
			long v = strtol(s + 6, &end, 10);

			if (end > s + 6 && !strcmp(end, "]\n") && v >= 0 &&
			    v < 256) {
				status = (int)v;
				last = s;
			} else {
				problem(file, line, "bad status line after "
					"'%s': expected [exit N]", command);
			}
		}
	}
	if (ncmds == cmds_cap) {
		cmds_cap = cmds_cap ? cmds_cap * 2 : 64;
		cmds = realloc(cmds, (size_t)cmds_cap * sizeof *cmds);
		if (!cmds)
			abort();
	}
	c = &cmds[ncmds++];
	snprintf(where, sizeof where, "%s:%ld", file, line);
	c->where = xstrndup(where, strlen(where));
	c->command = xstrndup(command, strlen(command));
	c->expected = xstrndup(out, (size_t)(last - out));
	c->status = status;
}

/* The ```sh transcripts of one Markdown file; returns its commands. */
static int parse_file(const char *path)
{
	enum { PROSE, OTHER, SH } state = PROSE;
	size_t len, outlen = 0, outcap = 0;
	char *text = tu_slurp(path, &len), *p, *out = NULL, *cmd = NULL;
	long lineno = 0, cmd_line = 0, open_line = 0;
	int count = 0;

	if (!text) {
		problem(path, 0, "cannot read: %s", strerror(errno));
		return 0;
	}
	if (strlen(text) != len)
		problem(path, 0, "%s", "holds a NUL byte");
	for (p = text; *p;) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);
		const char *lead = line + strspn(line, " \t");

		lineno++;
		p += n + (p[n] == '\n');
		if (state == PROSE) {
			if (!strncmp(line, "```", 3)) {
				state = strcmp(line, "```sh") ? OTHER : SH;
				open_line = lineno;
			} else if (lead != line && !strncmp(lead, "```sh", 5)) {
				problem(path, lineno, "%s", "indented ```sh "
					"fence: its commands would not run; "
					"start it at column 0");
			}
		} else if (!strcmp(line, "```")) {
			if (state == SH && cmd) {
				add_cmd(path, cmd_line, cmd, out ? out : "",
					outlen);
				count++;
			} else if (state == SH) {
				problem(path, open_line, "%s",
					"empty ```sh block");
			}
			free(cmd);
			cmd = NULL;
			outlen = 0;
			state = PROSE;
		} else if (state == OTHER) {
			if (!strncmp(line, "$ ", 2))
				problem(path, lineno, "'%s' is in a block "
					"that is not ```sh: it would not run",
					line);
		} else if (!strncmp(line, "$ ", 2)) {
			if (cmd) {
				add_cmd(path, cmd_line, cmd, out ? out : "",
					outlen);
				count++;
				free(cmd);
			}
			cmd = xstrndup(line + 2, n - 2);
			cmd_line = lineno;
			outlen = 0;
		} else if (!cmd) {
			problem(path, lineno, "'%s': a ```sh block starts "
				"with a '$ ' command", line);
		} else {
			if (outlen + n + 2 > outcap) {
				outcap = (outlen + n + 2) * 2;
				out = realloc(out, outcap);
				if (!out)
					abort();
			}
			memcpy(out + outlen, line, n);
			outlen += n;
			out[outlen++] = '\n';
			out[outlen] = '\0';
		}
		free(line);
	}
	if (state != PROSE)
		problem(path, open_line, "%s", "block not closed");
	free(cmd);
	free(out);
	free(text);
	return count;
}

static int is_md(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 3 &&
	       !strcmp(e->d_name + n - 3, ".md");
}

/* Every .md of DIR, in name order; with labs set, each labN-*.md must
 * have answers/labN.md. */
static void parse_dir(const char *dir, int labs)
{
	struct dirent **e;
	int n = scandir(dir, &e, is_md, alphasort);

	if (n < 0) {
		problem(dir, 0, "cannot list: %s", strerror(errno));
		return;
	}
	if (!n)
		problem(dir, 0, "%s", "no .md file");
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];
		int lab;

		snprintf(path, sizeof path, "%s/%s", dir, e[i]->d_name);
		if (!parse_file(path))
			problem(path, 0, "%s", "no ```sh command: nothing of "
				"it is tested");
		if (labs && sscanf(e[i]->d_name, "lab%d-", &lab) == 1) {
			char key[PATH_MAX];

			snprintf(key, sizeof key, "%s/answers/lab%d.md", dir,
				 lab);
			if (access(key, R_OK))
				problem(path, 0, "no answer key %s", key);
		}
		free(e[i]);
	}
	free(e);
}

static void parse_all(void)
{
	char answers[PATH_MAX];

	if (parsed)
		return;
	parsed = 1;
	parse_dir(labs_dir(), 1);
	snprintf(answers, sizeof answers, "%s/answers", labs_dir());
	parse_dir(answers, 0);
}

START_TEST(test_parse)
{
	ck_assert_msg(!problems, "the labs' transcripts:\n%s", problems);
	ck_assert_int_gt(ncmds, 0);
}
END_TEST

/* environ with PATH = BIN:$PATH and LC_ALL=C: a new array, whose new
 * PATH string is *pathvar. */
static char **lab_env(const char *bin, char **pathvar)
{
	size_t n = 0, k = 0;
	const char *path = getenv("PATH");
	char **env, *p;

	while (environ[n])
		n++;
	env = calloc(n + 3, sizeof *env);
	ck_assert_ptr_nonnull(env);
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "PATH=", 5) &&
		    strncmp(environ[i], "LC_ALL=", 7))
			env[k++] = environ[i];
	p = malloc(strlen(bin) + strlen(path ? path : "/usr/bin:/bin") + 7);
	ck_assert_ptr_nonnull(p);
	sprintf(p, "PATH=%s:%s", bin, path ? path : "/usr/bin:/bin");
	env[k++] = *pathvar = p;
	env[k++] = "LC_ALL=C";
	env[k] = NULL;
	return env;
}

START_TEST(test_command)
{
	const struct lab_cmd *c = &cmds[_i];
	const char *prog = getenv("BANKSCOPE");
	char bin[PATH_MAX], dir[PATH_MAX], outpath[256], msg[1024];
	char *argv[] = { "sh", "-c", c->command, NULL };
	char **env, *got, *slash, *pathvar;
	posix_spawn_file_actions_t fa;
	int in, out, rc, status;
	size_t len;
	pid_t pid;

	ck_assert_msg(prog && *prog, "BANKSCOPE is not set: run make check");
	/* PATH gets the absolute folder of $BANKSCOPE */
	snprintf(dir, sizeof dir, "%s", prog);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	if (dir[0] == '/') {
		snprintf(bin, sizeof bin, "%s", dir);
	} else {
		char cwd[PATH_MAX];

		ck_assert_msg(getcwd(cwd, sizeof cwd), "getcwd: %s",
			      strerror(errno));
		ck_assert_int_lt(snprintf(bin, sizeof bin, "%s/%s", cwd, dir),
				 (int)sizeof bin);
	}
	env = lab_env(bin, &pathvar);

	snprintf(outpath, sizeof outpath, "%s/bankscope-lab-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	out = mkstemp(outpath);
	ck_assert_msg(out >= 0, "mkstemp %s: %s", outpath, strerror(errno));
	in = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(in, 0);
	ck_assert_int_eq(posix_spawn_file_actions_init(&fa), 0);
	posix_spawn_file_actions_adddup2(&fa, in, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, out, 2);
	rc = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, env);
	ck_assert_msg(rc == 0, "cannot run /bin/sh: %s", strerror(rc));
	while (waitpid(pid, &status, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	posix_spawn_file_actions_destroy(&fa);
	close(in);
	close(out);
	got = tu_slurp(outpath, &len);
	unlink(outpath);
	ck_assert_ptr_nonnull(got);

	ck_assert_msg(WIFEXITED(status), "%s: $ %s\nkilled by signal %d",
		      c->where, c->command, WTERMSIG(status));
	if (strcmp(got, c->expected)) {
		tu_first_difference("output", "transcript", c->expected, got, msg,
				    sizeof msg);
		ck_abort_msg("%s: $ %s\n%s", c->where, c->command, msg);
	}
	ck_assert_msg(WEXITSTATUS(status) == c->status,
		      "%s: $ %s\nexit status %d, the transcript says %d",
		      c->where, c->command, WEXITSTATUS(status), c->status);
	free(got);
	free(pathvar);
	free(env);
}
END_TEST

Suite *labs_suite(void)
{
	Suite *s = suite_create("labs");
	TCase *tp = tcase_create("transcripts");
	TCase *tc = tcase_create("commands");

	parse_all();
	tcase_add_test(tp, test_parse);
	suite_add_tcase(s, tp);
	tcase_set_timeout(tc, 30);
	if (ncmds > 0)
		tcase_add_loop_test(tc, test_command, 0, ncmds);
	suite_add_tcase(s, tc);
	return s;
}
