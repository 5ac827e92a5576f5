/*
 * check_util.c - the helpers every reader and writer shares: UTF-8
 * decoding, the escaping of input bytes before they reach a terminal,
 * and bs_output, the one way a file is written in a path's place.
 *
 * Every row is a byte string and exactly what must come out.  The
 * bs_output tests work in a temporary folder on a regular file, a FIFO,
 * a symbolic link and a character device (skipped where mknod is not
 * allowed), and check what each path is afterwards.
 */
#define _XOPEN_SOURCE 700       /* mknod */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bankscope.h"
#include "testutil.h"

static const struct {
	const char *s;
	int len;
} utf8[] = {
	{ "a", 1 }, { "", 0 }, { "\x7f", 1 },
	{ "\xc3\xa9", 2 },              /* é */
	{ "\xc2\x80", 2 },              /* U+0080, the first 2-byte form */
	{ "\xe2\x82\xac", 3 },          /* € */
	{ "\xef\xbf\xbd", 3 },          /* U+FFFD */
	{ "\xf0\x9f\x98\x80", 4 },      /* U+1F600 */
	{ "\xf4\x8f\xbf\xbf", 4 },      /* U+10FFFF, the last */
	{ "\x80", 0 },                  /* a continuation byte alone */
	{ "\xc0\xaf", 0 },              /* overlong '/' */
	{ "\xc1\xbf", 0 },
	{ "\xe0\x80\xaf", 0 },          /* overlong, 3 bytes */
	{ "\xf0\x80\x80\xaf", 0 },      /* overlong, 4 bytes */
	{ "\xed\xa0\x80", 0 },          /* U+D800, a surrogate */
	{ "\xf4\x90\x80\x80", 0 },      /* U+110000 */
	{ "\xf5\x80\x80\x80", 0 },
	{ "\xff", 0 },
	{ "\xc3", 0 },                  /* cut short */
	{ "\xe2\x82", 0 },
	{ "\xe2\x82x", 0 },
};

START_TEST(test_utf8_next)
{
	ck_assert_msg(bs_utf8_next(utf8[_i].s) == utf8[_i].len,
		      "row %d: %d, expected %d", _i, bs_utf8_next(utf8[_i].s),
		      utf8[_i].len);
}
END_TEST

static const struct {
	const char *in, *out;
} escapes[] = {
	{ "plain text, 'quoted' #1", "plain text, 'quoted' #1" },
	{ "", "" },
	{ "a\x1b[2Jb", "a\\x1b[2Jb" },
	{ "\x1b]0;title\x07", "\\x1b]0;title\\x07" },
	{ "tab\there\r\n", "tab\\x09here\\x0d\\x0a" },
	{ "del\x7f", "del\\x7f" },
	{ "back\\slash", "back\\\\slash" },
	{ "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	  "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
	{ "csi\xc2\x9b" "31m", "csi\\xc2\\x9b31m" },   /* U+009B */
	{ "nbsp\xc2\xa0", "nbsp\xc2\xa0" },            /* U+00A0 prints */
	{ "\xff\xfe", "\\xff\\xfe" },
	{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },
	{ "cut \xe2\x82", "cut \\xe2\\x82" },
};

START_TEST(test_escape)
{
	char buf[256];

	bs_escape_text(buf, sizeof buf, escapes[_i].in);
	ck_assert_str_eq(buf, escapes[_i].out);
}
END_TEST

/* Cut to fit, never inside an escape or a character. */
START_TEST(test_escape_cut)
{
	char buf[8];

	bs_escape_text(buf, 6, "ab\x1b" "cd");
	ck_assert_str_eq(buf, "ab");
	bs_escape_text(buf, 7, "ab\x1b" "cd");
	ck_assert_str_eq(buf, "ab\\x1b");
	bs_escape_text(buf, 4, "ab\xe2\x82\xac");
	ck_assert_str_eq(buf, "ab");
	bs_escape_text(buf, 1, "abc");
	ck_assert_str_eq(buf, "");
	memset(buf, 'x', sizeof buf);
	bs_escape_text(buf, 0, "abc");
	ck_assert_int_eq(buf[0], 'x');
}
END_TEST

/* A whole unsigned token against its bound, the digit alone included. */
static const struct {
	const char *s;
	uint64_t max;
	int rc;
	uint64_t v;
} u64_rows[] = {
	{ "4", 4, 0, 4 },
	{ "5", 4, -2, 0 },          /* one digit above the bound: no wrap */
	{ "9", 0, -2, 0 },
	{ "0", 0, 0, 0 },
	{ "17", 16, -2, 0 },
	{ "16", 16, 0, 16 },
	{ "0x10", 16, 0, 16 },
	{ "0x11", 16, -2, 0 },
	{ "0xf", 9, -2, 0 },
	{ "18446744073709551615", UINT64_MAX, 0, UINT64_MAX },
	{ "18446744073709551616", UINT64_MAX, -2, 0 },
	{ "", 9, -1, 0 },
	{ "0x", 9, -1, 0 },
	{ "4a", 99, -1, 0 },
};

START_TEST(test_parse_u64)
{
	uint64_t v = 12345;
	int rc = bs_parse_u64(u64_rows[_i].s, u64_rows[_i].max, &v);

	ck_assert_msg(rc == u64_rows[_i].rc, "'%s' max %llu: %d",
		      u64_rows[_i].s, (unsigned long long)u64_rows[_i].max, rc);
	if (!rc)
		ck_assert_msg(v == u64_rows[_i].v, "'%s': %llu", u64_rows[_i].s,
			      (unsigned long long)v);
}
END_TEST

/* The one number grammar of arch files and datasets: decimal only,
 * any length, finite; the sign left to the caller. */
static const struct {
	const char *s;
	int rc;
	double v;
} dec_rows[] = {
	{ "0", 0, 0 }, { "32", 0, 32 }, { "1.5", 0, 1.5 }, { "5.", 0, 5 },
	{ ".5", 0, 0.5 }, { "+2", 0, 2 }, { "-1", 0, -1 }, { "1e3", 0, 1000 },
	{ "2.5E-1", 0, 0.25 }, { "1e+2", 0, 100 },
	{ "1e-320", 0, 1e-320 },                        /* subnormal */
	{ "1e-400", 0, 0 },                             /* underflows to 0 */
	{ "0.1000000000000000000000000000000000000000000000000000000000000000"
	  "0000000001", 0, 0.1 },                       /* longer than 64 */
	{ "1e309", -2, 0 }, { "1e999999", -2, 0 },
	{ "", -1, 0 }, { ".", -1, 0 }, { "-", -1, 0 }, { "e5", -1, 0 },
	{ "1e", -1, 0 }, { "1e+", -1, 0 }, { "1.2.3", -1, 0 },
	{ "0x20", -1, 0 }, { "0x1p4", -1, 0 }, { "inf", -1, 0 },
	{ "nan", -1, 0 }, { "infinity", -1, 0 }, { " 1", -1, 0 },
	{ "1 ", -1, 0 }, { "1,5", -1, 0 }, { "--1", -1, 0 },
};

START_TEST(test_parse_decimal)
{
	double v = 12345;
	int rc = bs_parse_decimal(dec_rows[_i].s, strlen(dec_rows[_i].s), &v);

	ck_assert_msg(rc == dec_rows[_i].rc, "'%s': %d", dec_rows[_i].s, rc);
	if (!rc)
		ck_assert_msg(v == dec_rows[_i].v, "'%s': %.17g", dec_rows[_i].s,
			      v);
}
END_TEST

/* Only the n bytes count: a token inside a longer line. */
START_TEST(test_parse_decimal_span)
{
	double v = 0;

	ck_assert_int_eq(bs_parse_decimal("12.5 lat", 4, &v), 0);
	ck_assert(v == 12.5);
	ck_assert_int_eq(bs_parse_decimal("-0", 2, &v), 0);
	ck_assert(v == 0 && signbit(v));
}
END_TEST

/* ---- bs_output ------------------------------------------------------------ */

static char out_dir[256];

static void out_setup(void)
{
	snprintf(out_dir, sizeof out_dir, "%s/bankscope-util-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_msg(mkdtemp(out_dir) != NULL, "mkdtemp: %s",
		      strerror(errno));
}

static void out_teardown(void)
{
	DIR *d = opendir(out_dir);
	struct dirent *e;
	char path[512];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof path, "%s/%s", out_dir,
				 e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(out_dir);
}

static void out_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", out_dir, name);
}

/* The folder's names, sorted, one a line. */
static void out_listing(char *buf, size_t size)
{
	struct dirent **e;
	int n = scandir(out_dir, &e, NULL, alphasort);
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (e[i]->d_name[0] != '.' && used < size)
			used += (size_t)snprintf(buf + used, size - used,
						 "%s\n", e[i]->d_name);
		free(e[i]);
	}
	free(e);
}

/* The folder holds names (sorted, one a line) and nothing else. */
static void assert_listing(const char *names)
{
	char got[256];

	out_listing(got, sizeof got);
	ck_assert_str_eq(got, names);
}

/* path is (still) of type (S_IFREG, S_IFIFO...), its lstat in *st. */
static void assert_type(const char *path, mode_t type, struct stat *st)
{
	ck_assert_int_eq(lstat(path, st), 0);
	ck_assert_uint_eq(st->st_mode & S_IFMT, type);
}

/* Write text to path through bs_output: its commit's result. */
static int write_via(const char *path, const char *text, bs_error *err)
{
	bs_output o;

	if (bs_output_open(&o, path, err) < 0)
		return -1;
	fputs(text, o.f);
	return bs_output_commit(&o, err);
}

static void assert_text(const char *path, const char *text)
{
	char *got = tu_slurp(path, NULL);

	ck_assert_msg(got != NULL, "%s: not readable", path);
	ck_assert_str_eq(got, text);
	free(got);
}

/* A new file: 0666 less the umask, not mkstemp's 0600. */
START_TEST(test_output_new)
{
	char path[512];
	bs_error err;
	struct stat st;
	mode_t old = umask(027);

	out_path(path, sizeof path, "new.csv");
	ck_assert_int_eq(write_via(path, "a\n", &err), 0);
	umask(old);
	assert_text(path, "a\n");
	assert_type(path, S_IFREG, &st);
	ck_assert_uint_eq(st.st_mode & 07777, 0640);
	assert_listing("new.csv\n");
}
END_TEST

/* A regular file is replaced, a new inode, and keeps its mode. */
START_TEST(test_output_regular)
{
	char path[512];
	struct stat before, after;
	bs_error err;
	mode_t old = umask(022);

	out_path(path, sizeof path, "kept.csv");
	ck_assert_int_eq(write_via(path, "old\n", &err), 0);
	ck_assert_int_eq(chmod(path, 0604), 0);
	ck_assert_int_eq(stat(path, &before), 0);
	ck_assert_int_eq(write_via(path, "new\n", &err), 0);
	umask(old);
	assert_text(path, "new\n");
	assert_type(path, S_IFREG, &after);
	ck_assert_uint_eq(after.st_mode & 07777, 0604);
	ck_assert_msg(after.st_ino != before.st_ino, "written in place, not "
		      "renamed over");
	assert_listing("kept.csv\n");
}
END_TEST

/* A FIFO is written through and stays a FIFO. */
START_TEST(test_output_fifo)
{
	char path[512], buf[64];
	struct stat st;
	bs_error err;
	ssize_t n;
	int rd;

	out_path(path, sizeof path, "fifo");
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	rd = open(path, O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(rd, 0);
	ck_assert_int_eq(write_via(path, "through\n", &err), 0);
	n = read(rd, buf, sizeof buf - 1);
	close(rd);
	ck_assert_int_eq(n, 8);
	buf[n] = '\0';
	ck_assert_str_eq(buf, "through\n");
	assert_type(path, S_IFIFO, &st);
	assert_listing("fifo\n");
}
END_TEST

/* A symbolic link stays a link; its target gets the text. */
START_TEST(test_output_symlink)
{
	char path[512], target[512];
	struct stat st;
	bs_error err;

	out_path(target, sizeof target, "target.csv");
	out_path(path, sizeof path, "link.csv");
	ck_assert_int_eq(write_via(target, "old text, longer\n", &err), 0);
	ck_assert_int_eq(symlink("target.csv", path), 0);
	ck_assert_int_eq(write_via(path, "new\n", &err), 0);
	assert_type(path, S_IFLNK, &st);
	assert_text(target, "new\n");
	assert_listing("link.csv\ntarget.csv\n");
}
END_TEST

/*
 * A link's target is replaced as a regular file is (issue 30, item 1): a
 * run that fails after the open leaves it as it was, the link a link, no
 * temporary beside either; and the same file as an open input is known.
 */
START_TEST(test_output_symlink_failed)
{
	char path[512], target[512];
	struct stat st;
	bs_output o;
	bs_error err;
	FILE *in;

	out_path(target, sizeof target, "precious.txt");
	out_path(path, sizeof path, "plink");
	ck_assert_int_eq(write_via(target, "precious\n", &err), 0);
	ck_assert_int_eq(symlink("precious.txt", path), 0);
	ck_assert_int_eq(bs_output_open(&o, path, &err), 0);
	fputs("half", o.f);
	bs_output_abort(&o);
	assert_type(path, S_IFLNK, &st);
	assert_text(target, "precious\n");
	assert_listing("plink\nprecious.txt\n");
	in = fopen(target, "r");
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(bs_same_file(fileno(in), path), 1);
	ck_assert_int_eq(bs_same_file(fileno(in), target), 1);
	ck_assert_int_eq(bs_same_file(fileno(stdin), path), 0);
	fclose(in);
}
END_TEST

/* A character device (the null device, 1:3) stays one.  Skipped where
 * mknod is not allowed (not root). */
START_TEST(test_output_device)
{
	char path[512];
	struct stat st;
	bs_error err;

	out_path(path, sizeof path, "null");
	if (mknod(path, S_IFCHR | 0666, makedev(1, 3)) < 0) {
		fprintf(stderr, "check_util: mknod: %s: device case skipped\n",
			strerror(errno));
		return;
	}
	ck_assert_int_eq(write_via(path, "gone\n", &err), 0);
	assert_type(path, S_IFCHR, &st);
	ck_assert_uint_eq(st.st_rdev, makedev(1, 3));
	assert_listing("null\n");
}
END_TEST

/* What cannot be written: one error naming the path, nothing made. */
START_TEST(test_output_refused)
{
	char dir[512], dangling[512];
	bs_error err;

	out_path(dir, sizeof dir, "folder");
	out_path(dangling, sizeof dangling, "dangling");
	ck_assert_int_eq(mkdir(dir, 0777), 0);
	ck_assert_int_eq(symlink("nowhere", dangling), 0);
	ck_assert_int_eq(write_via(dir, "x\n", &err), -1);
	ck_assert_str_eq(err.source, dir);
	ck_assert_str_eq(err.text, "cannot write: Is a directory");
	ck_assert_int_eq(write_via(dangling, "x\n", &err), -1);
	ck_assert_str_eq(err.source, dangling);
	ck_assert_str_eq(err.text, "cannot write: No such file or directory");
	if (access("/dev/full", W_OK) == 0) {
		ck_assert_int_eq(write_via("/dev/full", "x\n", &err), -1);
		ck_assert_str_eq(err.source, "/dev/full");
		ck_assert_str_eq(err.text,
				 "cannot write: No space left on device");
	}
	assert_listing("dangling\nfolder\n");
}
END_TEST

Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc;

	tu_add_tcase(s, "text", 0, (const tu_test[]){
		{ test_utf8_next, TU_ROWS(utf8) },
		{ test_escape, TU_ROWS(escapes) }, { test_escape_cut, 1 },
		{ test_parse_u64, TU_ROWS(u64_rows) },
		{ test_parse_decimal, TU_ROWS(dec_rows) },
		{ test_parse_decimal_span, 1 }, { NULL, 0 } });
	tc = tu_add_tcase(s, "output", 0, (const tu_test[]){
		{ test_output_new, 1 }, { test_output_regular, 1 },
		{ test_output_fifo, 1 }, { test_output_symlink, 1 },
		{ test_output_symlink_failed, 1 },
		{ test_output_device, 1 }, { test_output_refused, 1 },
		{ NULL, 0 } });
	tcase_add_checked_fixture(tc, out_setup, out_teardown);
	return s;
}
