/*
 * testutil.c - helpers the test suites share (testutil.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#define SHOWN 120   /* characters of a line shown in a message */

char *tu_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static void shown_line(char *buf, size_t size, const char *s)
{
	size_t n = strcspn(s, "\n");

	if (!n && !s[n])
		snprintf(buf, size, "<end of output>");
	else
		snprintf(buf, size, "%.*s%s", (int)(n < SHOWN ? n : SHOWN), s,
			 s[n] ? "" : "<no newline>");
}

void tu_first_difference(const char *what, const char *label,
			 const char *want, const char *got, char *msg,
			 size_t size)
{
	char w[SHOWN + 32], g[SHOWN + 32];
	long line = 1;

	for (;;) {
		size_t wl = strcspn(want, "\n"), gl = strcspn(got, "\n");

		if (wl != gl || memcmp(want, got, wl) || want[wl] != got[wl] ||
		    !want[wl])
			break;
		want += wl + 1;
		got += gl + 1;
		line++;
	}
	shown_line(w, sizeof w, want);
	shown_line(g, sizeof g, got);
	snprintf(msg, size, "%s differs at line %ld:\n  %s: %s\n  actual: %s",
		 what, line, label, w, g);
}

TCase *tu_add_tcase(Suite *s, const char *name, int timeout,
		    const tu_test *tests)
{
	TCase *tc = tcase_create(name);

	if (timeout)
		tcase_set_timeout(tc, timeout);
	for (; tests->test; tests++)
		tcase_add_loop_test(tc, tests->test, 0, tests->n);
	suite_add_tcase(s, tc);
	return tc;
}

Suite *tu_suite(const char *name, const char *tcase, int timeout,
		const tu_test *tests)
{
	Suite *s = suite_create(name);

	tu_add_tcase(s, tcase, timeout, tests);
	return s;
}

const bs_arch *tu_arch(const char *text)
{
	static bs_arch p;
	bs_error err;

	ck_assert_msg(bs_arch_parse(text, "t", &p, &err) == 0, "%s",
		      err.text);
	return &p;
}

void tu_mkdtemp(char *dir)
{
	ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp %s failed", dir);
}

void tu_remove(const char *dir)
{
	char cmd[1200];

	snprintf(cmd, sizeof cmd, "rm -r '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

void tu_error_is(const bs_error *err, const char *source, long line,
		 long column, const char *text)
{
	if (source)
		ck_assert_str_eq(err->source, source);
	ck_assert_int_eq(err->line, line);
	ck_assert_int_eq(err->column, column);
	if (text)
		ck_assert_str_eq(err->text, text);
}

bs_access tu_lanes(unsigned width, const int *off)
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

int tu_offsets(char *text, int *off)
{
	char *tok, *save = NULL;
	int n = 0;

	for (tok = strtok_r(text, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), n++)
		if (n < BS_LANES)
			off[n] = strcmp(tok, "-") ? atoi(tok) : -1;
	return n;
}

/* The fields of one CSV line, cut up in place; how many. */
static int csv_fields(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = 0;
	for (char *p = line; n < max;) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = 0;
	}
	return n;
}

void tu_csv_open(tu_csv *c, const char *path)
{
	c->path = path;
	c->f = fopen(path, "r");
	ck_assert_msg(c->f != NULL, "cannot read %s", path);
	while (fgets(c->head_line, sizeof c->head_line, c->f) &&
	       c->head_line[0] == '#')
		;
	c->nh = csv_fields(c->head_line, c->head, TU_CSV_FIELDS);
}

int tu_csv_column(const tu_csv *c, const char *name)
{
	for (int i = 0; i < c->nh; i++)
		if (!strcmp(c->head[i], name))
			return i;
	ck_abort_msg("%s: no column %s", c->path, name);
	return -1;
}

int tu_csv_next(tu_csv *c)
{
	if (!fgets(c->line, sizeof c->line, c->f))
		return 0;
	return csv_fields(c->line, c->v, TU_CSV_FIELDS);
}

void tu_csv_close(tu_csv *c)
{
	fclose(c->f);
}

int tu_mkstemp(char *path, size_t size, const char *prefix)
{
	int fd;

	snprintf(path, size, "%s/%s-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", prefix);
	fd = mkstemp(path);
	ck_assert_msg(fd >= 0, "mkstemp %s: %s", path, strerror(errno));
	return fd;
}

extern char **environ;

tu_run_result tu_run_bankscope(const char *const *args)
{
	const char *prog = getenv("BANKSCOPE");
	char outp[] = "/tmp/bankscope-run-out-XXXXXX";
	char errp[] = "/tmp/bankscope-run-err-XXXXXX";
	posix_spawn_file_actions_t fa;
	const char *argv[32];
	tu_run_result r;
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

void tu_expect_run(tu_run_result r, int status, const char *out,
		   const char *err)
{
	ck_assert_str_eq(r.err, err);
	ck_assert_str_eq(r.out, out);
	ck_assert_int_eq(r.status, status);
	free(r.out);
	free(r.err);
}

void tu_file_is(const char *dir, const char *name, const char *want)
{
	char path[512], *text;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	text = tu_slurp(path, NULL);
	ck_assert_ptr_nonnull(text);
	ck_assert_str_eq(text, want);
	free(text);
}

char *tu_profile_case(const char *a, const char *b)
{
	const char *d = getenv("BANKSCOPE_PROFILE_CASES");
	char *p;

	if (!d || !*d)
		d = "tests/cases/profile";
	p = malloc(strlen(d) + strlen(a) + strlen(b) + 3);
	ck_assert_ptr_nonnull(p);
	sprintf(p, "%s/%s%s%s", d, a, *b ? "/" : "", b);
	return p;
}
