/*
 * check_report.c - bankscope report as a program, on the committed H100
 * dataset and on small hostile inputs.
 *
 * The program is $BANKSCOPE (make check sets it), started with posix_spawn
 * from the repository root, its outputs into temporary files and folders
 * that are removed afterwards.  One report of DATASET is written once for
 * the whole "h100" case (an unchecked fixture; a failure to write it shows
 * in every test) and every row of `expect` is one loop test: a line of the
 * page that must hold the dataset's numbers, in the HTML or the Markdown.
 * The "escape" case feeds markup through the dataset and --note; "charts"
 * hands over a folder with one chart; "bad" runs rows of arguments that
 * must exit 2 (or 0 for --help) with a "bankscope: " message and leave no
 * page behind.  No gnuplot is needed.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

extern char **environ;

#define DATASET "data/h100-sxm/all-20261122-052715.csv"

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "cannot write %s: %s", path, strerror(errno));
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void temp_dir(char *path, size_t size)
{
	snprintf(path, size, "%s/bankscope-report-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(path))
		path[0] = '\0';
}

/* Remove dir and the files in it (the folders here hold no folders). */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(dir);
}

/*
 * Run $BANKSCOPE with args (NULL-terminated, without the program name);
 * its exit status, or -1 when it could not run or died.  *err (when not
 * NULL) receives its stderr, to be freed.
 */
static int run(const char *const *args, char **err)
{
	const char *prog = getenv("BANKSCOPE");
	char errpath[256], *argv[16];
	posix_spawn_file_actions_t fa;
	int fd, status, n = 0;
	pid_t pid;

	if (err)
		*err = NULL;
	if (!prog || !*prog)
		return -1;
	argv[n++] = (char *)prog;
	while (*args && n < 15)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	snprintf(errpath, sizeof errpath, "%s/bankscope-report-err-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if ((fd = mkstemp(errpath)) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd, 2);
	if (posix_spawn(&pid, prog, &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		close(fd);
		unlink(errpath);
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	posix_spawn_file_actions_destroy(&fa);
	close(fd);
	if (err)
		*err = tu_slurp(errpath, NULL);
	unlink(errpath);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *page(const char *dir, const char *file)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	return tu_slurp(path, NULL);
}

static void assert_holds(const char *text, const char *what,
			 const char *needle)
{
	ck_assert_msg(text != NULL, "%s was not written", what);
	ck_assert_msg(strstr(text, needle) != NULL, "%s does not hold: %s",
		      what, needle);
}

/* ---- the committed H100 dataset ------------------------------------------ */

static char h100_dir[256];
static int h100_status = -1;
static char *h100_err;

static void h100_setup(void)
{
	const char *args[] = { "report", "--out", h100_dir, DATASET, NULL };

	temp_dir(h100_dir, sizeof h100_dir);
	if (h100_dir[0])
		h100_status = run(args, &h100_err);
}

static void h100_teardown(void)
{
	if (h100_dir[0])
		remove_dir(h100_dir);
	free(h100_err);
}

static const struct {
	const char *file, *needle;
} expect[] = {
	{ "report.md", "| Bank count | 32 | same |" },
	{ "report.md", "| Bank width | 4 bytes (128 bytes per wavefront) | "
		       "same |" },
	{ "report.md", "| Phases per width (1, 2, 4, 8, 16 bytes) | "
		       "1, 1, 1, 2, 4 (32, 32, 32, 16, 8 lanes per phase) | "
		       "same |" },
	{ "report.md", "| Packing | 8-byte load 1, store 2; 16-byte load 2, "
		       "store 4 wavefronts: loads pack two phases into one, "
		       "stores do not | same |" },
	{ "report.md", "| Multicast | one word for all 32 lanes: 1; k words "
		       "in k banks (k = 2, 4, 8, 16, 32): 1, 1, 1, 1, 1; k "
		       "words in one bank: 2, 4, 8, 16, 32 wavefronts: " },
	{ "report.md", "| Stores | phases per width 1, 1, 1, 2, 4; 4-byte "
		       "stride 32: 32 wavefronts; one address for all lanes: "
		       "8-byte 2, 16-byte 4: stores never pack | same |" },
	{ "report.md", "| 4 | ld | no | 158 | 2.000 | 31.00 | 1.0000 |" },
	{ "report.md", "| 8 | ld | yes | 34 | 2.000 | 31.00 | 1.0000 |" },
	{ "report.md", "| 16 | st | no | 137 | 1.943 | 2.18 | 0.9950 |" },
	{ "report.md", "| 1 | ld | 116 | 31.750 | 0.997 | 31.775 | "
		       "`u8_ld_s4` |" },
	{ "report.md", "**AGREES: 1309 rows, 1309 agree, 0 disagree** "
		       "(1309 measured, 0 skipped for a note, 0 timing only; "
		       "profile sm\\_90)." },
	{ "report.md", "| `gpu` | NVIDIA H100 80GB HBM3 |" },
	{ "report.md", "| `counters` | CUPTI range profiler, in process |" },
	{ "report.md", "# bankscope report: NVIDIA H100 80GB HBM3\n" },
	{ "index.html", "<title>bankscope report: NVIDIA H100 80GB HBM3"
			"</title>" },
	{ "index.html", "<tr><td>Bank count</td><td>32</td><td>same</td>" },
	{ "index.html", "<tr><td>Phases per width (1, 2, 4, 8, 16 bytes)"
			"</td><td>1, 1, 1, 2, 4 (32, 32, 32, 16, 8 lanes per "
			"phase)</td><td>same</td>" },
	{ "index.html", "<tr><td>4</td><td>ld</td><td>no</td><td>158</td>"
			"<td>2.000</td><td>31.00</td><td>1.0000</td></tr>" },
	{ "index.html", "<strong>AGREES: 1309 rows, 1309 agree, 0 disagree"
			"</strong>" },
	{ "index.html", "<tr><td><code>sm_count</code></td><td>132</td></tr>" },
	{ "index.html", "<p>No chart was drawn for this report.</p>" },
	{ "index.html", "</body>\n</html>\n" },
};

START_TEST(test_h100_written)
{
	ck_assert_msg(h100_dir[0], "no temporary folder");
	ck_assert_msg(h100_status == 0, "bankscope report exit status %d: %s",
		      h100_status, h100_err ? h100_err : "");
	ck_assert_str_eq(h100_err ? h100_err : "", "");
}
END_TEST

START_TEST(test_h100_holds)
{
	char *text = page(h100_dir, expect[_i].file);

	assert_holds(text, expect[_i].file, expect[_i].needle);
	free(text);
}
END_TEST

/* The HTML page uses no external resource. */
START_TEST(test_h100_offline)
{
	char *text = page(h100_dir, "index.html");

	ck_assert_ptr_nonnull(text);
	ck_assert_msg(!strstr(text, "http:") && !strstr(text, "https:") &&
		      !strstr(text, "<script") && !strstr(text, "<link"),
		      "index.html refers to something outside it");
	free(text);
}
END_TEST

/* ---- markup in the dataset and the note is escaped ----------------------- */

START_TEST(test_escape)
{
	char dir[256], data[300], row[512];
	const char *args[] = { "report", "--out", dir, "--note",
			       "<script>alert(\"x\")</script> & 'q'", data,
			       NULL };
	char *html, *md, *err;
	size_t n;

	temp_dir(dir, sizeof dir);
	ck_assert_msg(dir[0], "no temporary folder");
	snprintf(data, sizeof data, "%s/evil.csv", dir);
	n = (size_t)snprintf(row, sizeof row, "# gpu: <b>G & \"co\"</b>\n"
			     "probe,name,width,op,wavefronts_measured,"
			     "addresses\nstride,\"a<b>|c`d\",4,ld,5,0");
	for (int l = 1; l < 32; l++)
		n += (size_t)snprintf(row + n, sizeof row - n, " %d", 4 * l);
	snprintf(row + n, sizeof row - n, "\n");
	spit(data, row);
	ck_assert_int_eq(run(args, &err), 0);
	html = page(dir, "index.html");
	md = page(dir, "report.md");
	assert_holds(html, "index.html", "<p class=\"note\">&lt;script&gt;"
		     "alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"
		     "</p>");
	assert_holds(html, "index.html", "<title>bankscope report: &lt;b&gt;G "
		     "&amp; &quot;co&quot;&lt;/b&gt;</title>");
	assert_holds(html, "index.html",
		     "<td><code>a&lt;b&gt;|c`d</code></td>");
	assert_holds(html, "index.html", "DISAGREES: 1 rows, 0 agree, "
		     "1 disagree");
	ck_assert_msg(!strstr(html, "<script") && !strstr(html, "<b>"),
		      "markup from the input reached index.html");
	assert_holds(md, "report.md", "> \\<script\\>alert(\"x\")\\</script\\> "
		     "\\& 'q'\n");
	assert_holds(md, "report.md", "# bankscope report: \\<b\\>G \\& "
		     "\"co\"\\</b\\>\n");
	assert_holds(md, "report.md", "| 3 | `` a<b>\\|c`d `` | stride, 4, ld "
		     "| 5, - | 1, 0 |");
	free(html);
	free(md);
	free(err);
	remove_dir(dir);
}
END_TEST

/* ---- charts are copied and referenced by relative path ------------------- */

START_TEST(test_charts)
{
	char charts[256], out[256], path[600];
	const char *args[] = { "report", "--charts", charts, "--out", out,
			       DATASET, NULL };
	char *html, *md, *copy, *err;

	temp_dir(charts, sizeof charts);
	temp_dir(out, sizeof out);
	ck_assert_msg(charts[0] && out[0], "no temporary folder");
	snprintf(path, sizeof path, "%s/stride.png", charts);
	spit(path, "not really a PNG");
	snprintf(path, sizeof path, "%s/stride.svg", charts);
	spit(path, "<svg/>");
	ck_assert_int_eq(run(args, &err), 0);
	snprintf(path, sizeof path, "%s/stride.png", out);
	copy = tu_slurp(path, NULL);
	ck_assert_msg(copy && !strcmp(copy, "not really a PNG"),
		      "stride.png was not copied into --out");
	html = page(out, "index.html");
	md = page(out, "report.md");
	assert_holds(html, "index.html", "<a href=\"stride.svg\"><img "
		     "src=\"stride.png\" alt=\"Wavefronts and cycles by "
		     "element stride\"></a>");
	assert_holds(html, "index.html", "<code>latency</code>");
	assert_holds(md, "report.md", "[![Wavefronts and cycles by element "
		     "stride](stride.png)](stride.svg)");
	assert_holds(md, "report.md", "Not drawn (no PNG in ");
	ck_assert_msg(!strstr(html, "src=\"latency.png\""),
		      "a chart that is not there is shown");
	free(html);
	free(md);
	free(copy);
	free(err);
	remove_dir(charts);
	remove_dir(out);
}
END_TEST

/* ---- bad input: exit 2, one message, no page ----------------------------- */

static const struct {
	const char *dataset;     /* written to BAD.csv when not NULL */
	const char *args[6];     /* after "report --out DIR"; BAD: the file */
	int status;
	const char *message;     /* the start of stderr */
} bad[] = {
	{ "probe,name,width,op,addresses\nstride,a,4,ld,0 1\n",
	  { "BAD", NULL }, 2, "bankscope: BAD:2:" },
	{ "# gpu: x\nprobe,name,width,addresses\n", { "BAD", NULL }, 2,
	  "bankscope: BAD:2:" },
	{ "# profile: sm_1\nprobe,name,width,op,addresses\n", { "BAD", NULL },
	  2, "bankscope: BAD: metadata 'profile: sm_1' names no known" },
	{ NULL, { "no/such/file.csv", NULL }, 2,
	  "bankscope: no/such/file.csv: cannot open" },
	{ NULL, { NULL }, 2, "bankscope: report: no dataset given" },
	{ NULL, { "--bogus", DATASET, NULL }, 2,
	  "bankscope: report: unknown option '--bogus'" },
	{ NULL, { DATASET, DATASET, NULL }, 2,
	  "bankscope: report: one dataset only" },
	{ NULL, { DATASET, "--note", NULL }, 2,
	  "bankscope: option --note needs a value" },
	{ NULL, { "--help", NULL }, 0, "" },
};

START_TEST(test_bad)
{
	char dir[256], file[300], *args[10], *err, *html, want[400];
	const char *b = bad[_i].message;
	int n = 0, status;

	temp_dir(dir, sizeof dir);
	ck_assert_msg(dir[0], "no temporary folder");
	snprintf(file, sizeof file, "%s/BAD.csv", dir);
	if (bad[_i].dataset)
		spit(file, bad[_i].dataset);
	args[n++] = "report";
	args[n++] = "--out";
	args[n++] = dir;
	for (int i = 0; bad[_i].args[i]; i++)
		args[n++] = strcmp(bad[_i].args[i], "BAD")
				    ? (char *)bad[_i].args[i] : file;
	args[n] = NULL;
	status = run((const char *const *)args, &err);
	ck_assert_msg(status == bad[_i].status, "row %d: exit status %d, "
		      "expected %d; stderr: %s", _i, status, bad[_i].status,
		      err ? err : "");
	if (!strncmp(b, "bankscope: BAD", 14))
		snprintf(want, sizeof want, "bankscope: %s%s", file, b + 14);
	else
		snprintf(want, sizeof want, "%s", b);
	ck_assert_msg(err && !strncmp(err, want, strlen(want)),
		      "row %d: stderr does not start with '%s': %s", _i, want,
		      err ? err : "(none)");
	ck_assert_msg(!*want || !strchr(err, '\n') ||
		      strchr(err, '\n')[1] == '\0',
		      "row %d: more than one line on stderr: %s", _i, err);
	html = page(dir, "index.html");
	ck_assert_msg(!html, "row %d: a page was written", _i);
	free(err);
	remove_dir(dir);
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("h100");

	tcase_add_unchecked_fixture(tc, h100_setup, h100_teardown);
	tcase_add_test(tc, test_h100_written);
	tcase_add_loop_test(tc, test_h100_holds, 0,
			    (int)(sizeof expect / sizeof *expect));
	tcase_add_test(tc, test_h100_offline);
	suite_add_tcase(s, tc);

	tc = tcase_create("escape");
	tcase_add_test(tc, test_escape);
	suite_add_tcase(s, tc);

	tc = tcase_create("charts");
	tcase_add_test(tc, test_charts);
	suite_add_tcase(s, tc);

	tc = tcase_create("bad");
	tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof bad / sizeof *bad));
	suite_add_tcase(s, tc);
	return s;
}
