/*
 * check_kinds.c - every row of the kinds table has what a kind needs
 * elsewhere (docs/extending.md, "An access kind"), so that a new row
 * without one of them fails here, with the step it lacks, rather than
 * later on a GPU:
 *
 *   - a probe family that makes points of it (analyzer/families/), or
 *     `make probe-all` never measures it and calibrate cannot settle it;
 *   - its device accessor: a row of the accessor table in
 *     probes/kernels.cu with kernels for exactly the widths the kind
 *     allows (the runner refuses the others), whose counters name only
 *     metrics that probes/metrics.h defines; for a remote kind
 *     (distributed shared memory), a row of probes/dsmem/dsmem.cu's;
 *   - its SASS opcode: the sass column reads back as the kind
 *     (bs_sass_kind: what `bankscope profile` joins on); `make sass`
 *     takes the opcode groups from this table (bankscope archs --kinds).
 *
 * The probes are CUDA, which this test binary does not link: it reads
 * kernels.cu and metrics.h as text, the accessor table's rows in the one
 * form that file keeps them ({ "kind", "class", &ctr_x, warp, widths }).
 * Tests run from the repository's root.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

#define KERNELS "probes/kernels.cu"
#define DSMEM_CU "probes/dsmem/dsmem.cu"
#define METRICS "probes/metrics.h"
#define MAKEFILE "Makefile"

#define MAX_FIELDS 8
#define FIELD_MAX 200

static const bs_kind_info *kind_of(int i)
{
	const bs_kind_info *ki = bs_kind_get((bs_kind)i);

	ck_assert_ptr_nonnull(ki);
	return ki;
}

static char *source(const char *path)
{
	char *text = tu_slurp(path, NULL);

	ck_assert_msg(text != NULL, "cannot read %s (tests run from the "
		      "repository's root)", path);
	return text;
}

/* ---- (a) a family point -------------------------------------------------- */

START_TEST(test_family_point)
{
	const bs_kind_info *ki = kind_of(_i);
	bs_points pts = { 0 };
	size_t n = 0;

	ck_assert_int_eq(bs_family_points(NULL, &pts), 0);
	for (size_t i = 0; i < pts.n; i++)
		n += pts.v[i].kind == (bs_kind)_i;
	bs_points_free(&pts);
	ck_assert_msg(n > 0, "kind %s: no probe family makes a point of it "
		      "(analyzer/families/, docs/extending.md)", ki->name);
}
END_TEST

/* ---- (b) the device accessor --------------------------------------------- */

/*
 * The top-level fields of the brace group at *p ("{ a, f(b, c), { d } }"
 * gives "a", "f(b, c)", "{ d }"), blanks trimmed; how many, -1 when the
 * group does not close.  *p ends past the closing brace.
 */
static int split_group(const char **p, char field[][FIELD_MAX], int max)
{
	const char *s = *p, *start;
	int depth = 0, n = 0;

	s = strchr(s, '{');
	if (!s)
		return -1;
	start = s + 1;
	for (; *s; s++) {
		if (*s == '{' || *s == '(')
			depth++;
		else if (*s == '}' || *s == ')')
			depth--;
		if (!(depth == 1 && *s == ',') && depth)
			continue;
		if (n < max) {
			size_t len;

			start += strspn(start, " \t\n");
			len = (size_t)(s - start);
			while (len && strchr(" \t\n", start[len - 1]))
				len--;
			snprintf(field[n], FIELD_MAX, "%.*s", (int)len, start);
		}
		n++;
		start = s + 1;
		if (!depth) {
			*p = s + 1;
			return n;
		}
	}
	return -1;
}

/* The widths (bits as in bs_kind_info) an accessor row's last field gives. */
static unsigned row_widths(const char *by_width)
{
	char w[MAX_FIELDS][FIELD_MAX];
	const char *p = by_width;
	unsigned bits = 0;
	int n;

	if (!strncmp(by_width, "ALL_WIDTHS(", 11))
		return 0x1f;
	if (!strncmp(by_width, "ONLY16(", 7))
		return 0x10;
	if (!strncmp(by_width, "ONLY4(", 6))
		return 0x04;
	n = split_group(&p, w, MAX_FIELDS);
	ck_assert_msg(n == BS_NWIDTHS, "accessor widths '%s': not one kernel "
		      "set per width", by_width);
	for (int i = 0; i < n; i++)
		bits |= (unsigned)(strcmp(w[i], "NONE") != 0) << i;
	return bits;
}

/* The text of the accessor table: from its opening to its "};". */
static const char *accessor_table(const char *text, const char *opening,
				  const char *file, const char **end)
{
	const char *t = strstr(text, opening);

	ck_assert_msg(t != NULL, "%s: no accessor table", file);
	*end = strstr(t, "\n};");
	ck_assert_ptr_nonnull(*end);
	return strchr(t, '{');
}

#define WORD_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

/* name stands in text as a whole word. */
static int has_word(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *s = text; (s = strstr(s, name)); s += n)
		if ((s == text || !strchr(WORD_CHARS, s[-1])) &&
		    (!s[n] || !strchr(WORD_CHARS, s[n])))
			return 1;
	return 0;
}

/* Every BS_ name in text[0, len) is defined in metrics.h. */
static void names_defined(const char *kind, const char *text, size_t len,
			  const char *metrics)
{
	unsigned named = 0;

	for (const char *s = text; (s = strstr(s, "BS_")) && s < text + len;
	     s += 3) {
		char name[80], def[96];
		int metric;

		snprintf(name, sizeof name, "%.*s", (int)strspn(s, WORD_CHARS),
			 s);
		/* a metric's name is a #define, an index an enum member */
		snprintf(def, sizeof def, "#define %s ", name);
		metric = strstr(name, "METRIC") != NULL;
		ck_assert_msg(metric ? strstr(metrics, def) != NULL
				     : has_word(metrics, name),
			      "kind %s: its counters name %s, which " METRICS
			      " does not define", kind, name);
		named += metric;
	}
	ck_assert_msg(named > 0, "kind %s: its counters name no metric of "
		      METRICS, kind);
}

/*
 * Kind ki's row in an accessor table of file, from table to end: found,
 * split into f, its n fields, the last one its kernels by width.
 */
static void accessor_row(const bs_kind_info *ki, const char *table,
			 const char *end, const char *file, int n,
			 char f[MAX_FIELDS][FIELD_MAX])
{
	char want[80];
	const char *row;
	int got;

	snprintf(want, sizeof want, "{ \"%s\", ", ki->name);
	row = strstr(table, want);
	ck_assert_msg(row && row < end, "kind %s: no row in the accessor "
		      "table of %s (its device accessor)", ki->name, file);
	got = split_group(&row, f, MAX_FIELDS);
	ck_assert_msg(got == n, "kind %s: its accessor row has %d fields, not "
		      "%d", ki->name, got, n);
	ck_assert_msg(row_widths(f[n - 1]) == ki->widths, "kind %s: the "
		      "accessor has kernels for widths 0x%x, the kinds table "
		      "allows 0x%x", ki->name, row_widths(f[n - 1]),
		      ki->widths);
}

/*
 * A remote kind's accessor: a row of probes/dsmem/dsmem.cu's table, { "kind",
 * OP, { kernel by width } } (its counters are that file's own groups of
 * dshared metrics, which it checks against the device before a run).
 */
static void remote_accessor(const bs_kind_info *ki)
{
	char *dsmem = source(DSMEM_CU), f[MAX_FIELDS][FIELD_MAX];
	const char *end, *t = accessor_table(dsmem, "remote_row "
		"remote_accessors[] = {", DSMEM_CU, &end);

	accessor_row(ki, t, end, DSMEM_CU, 3, f);
	free(dsmem);
}

START_TEST(test_accessor)
{
	const bs_kind_info *ki = kind_of(_i);
	char *kernels, *metrics;
	char f[MAX_FIELDS][FIELD_MAX], ctr[FIELD_MAX + 32];
	const char *end, *row, *def;

	if (ki->remote) {
		remote_accessor(ki);
		return;
	}
	kernels = source(KERNELS);
	metrics = source(METRICS);
	row = accessor_table(kernels, "accessor_row accessors[] = {", KERNELS,
			     &end);
	accessor_row(ki, row, end, KERNELS, 5, f);
	/* its counters: "&ctr_x", defined above the table */
	ck_assert_msg(f[2][0] == '&', "kind %s: counters '%s'", ki->name,
		      f[2]);
	snprintf(ctr, sizeof ctr, "probe_counters %.100s = {", f[2] + 1);
	def = strstr(kernels, ctr);
	ck_assert_msg(def != NULL, "kind %s: no counters %s in " KERNELS,
		      ki->name, f[2] + 1);
	names_defined(ki->name, def, strcspn(def, ";"), metrics);
	free(kernels);
	free(metrics);
}
END_TEST

/* ---- (c) the SASS opcode ------------------------------------------------- */

/*
 * The sass column reads back as this kind, or as an earlier row with the
 * same column (red.add.u32 compiles to atom.add.u32's ATOMS.ADD: the
 * first row wins the tie), at a width the kind allows.
 */
START_TEST(test_sass_reads_back)
{
	const bs_kind_info *ki = kind_of(_i);
	bs_kind k;
	unsigned width;

	/*
	 * A remote kind's SASS is a generic LD.E / ST.E / ATOM.E, which is
	 * a global access as often: the opcode must never read as it.
	 */
	if (ki->remote) {
		ck_assert_msg(bs_sass_kind(ki->sass, &k, &width) != 1 ||
			      k == BS_KIND_NONE, "kind %s: the generic %s "
			      "reads as a shared-memory kind", ki->name,
			      ki->sass);
		return;
	}

	ck_assert_msg(bs_sass_kind(ki->sass, &k, &width) == 1, "kind %s: "
		      "its SASS %s is not a shared-memory opcode of the table",
		      ki->name, ki->sass);
	ck_assert_msg(k == (bs_kind)_i ||
		      (k < (bs_kind)_i && !strcmp(kind_of(k)->sass, ki->sass)),
		      "kind %s: its SASS %s reads as %s", ki->name, ki->sass,
		      bs_kind_name(k));
	ck_assert_msg(bs_kind_allows_width((bs_kind)_i, width), "kind %s: %s "
		      "reads as width %u", ki->name, ki->sass, width);
}
END_TEST

/*
 * `make sass` counts the probes' shared-memory opcodes by group, and
 * takes the groups from the kinds table (bankscope archs --kinds), so a
 * new kind's opcode needs no second list: the rule must keep asking the
 * CLI, and must not grow a literal list again.
 */
START_TEST(test_make_sass_from_table)
{
	char *make = source(MAKEFILE);
	char *rule = strstr(make, "\nsass:");
	size_t len;

	ck_assert_msg(rule != NULL, MAKEFILE ": no sass rule");
	len = strcspn(rule + 1, "\n") + 1;
	while (rule[len] == '\n' && rule[len + 1] == '\t')
		len += strcspn(rule + len + 1, "\n") + 1;
	make[rule - make + len] = 0;
	ck_assert_msg(strstr(rule, "archs --kinds") != NULL,
		      "`make sass` (" MAKEFILE ") no longer takes its opcodes "
		      "from bankscope archs --kinds");
	ck_assert_msg(strstr(rule, "(LDS") == NULL,
		      "`make sass` (" MAKEFILE ") lists opcodes by hand again");
	free(make);
}
END_TEST

Suite *kinds_suite(void)
{
	int n = (int)bs_kind_count();

	return tu_suite("kinds", "every kind", 60, (const tu_test[]){
		{ test_family_point, n }, { test_accessor, n },
		{ test_sass_reads_back, n }, { test_make_sass_from_table, 1 },
		{ NULL, 0 } });
}
