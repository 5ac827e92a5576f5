/*
 * check_pattern.c - the pattern-file reader, line by line and streamed.
 *
 * Lines are built from a row: a head (NAME WIDTH KIND), then lane fields
 * for lanes 0..nlanes-1, lane l written as base + l*step in `fmt` ('-'
 * for the lanes in `dash`), one field replaced by a literal token where a
 * row says so, then a tail.  With head "a 4 ld", base 1024 and step 4,
 * every address has four digits, so lane k's field starts at column
 * 8 + 5k and a line of 32 fields is 166 bytes long; the columns in the
 * error rows are that arithmetic.  The streaming tests feed whole files
 * both ways the reader reads, through fmemopen (a line at a time, as a
 * pipe) and from a temporary file (in blocks): the error must name the
 * right line, and reading goes on after a bad line.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bankscope.h"
#include "testutil.h"

#define ALL 0xffffffffu
#define NOLANES (-1)

typedef struct {
	const char *head;
	const char *sep;        /* between lane fields; NULL: " " */
	const char *fmt;        /* one address; NULL: "%u" */
	unsigned base, step;
	uint32_t dash;          /* lanes written as '-' */
	int nlanes;             /* 0: 32; NOLANES: none */
	int lane;               /* field replaced by `token`; -1: none */
	const char *token;
	const char *tail;
} line_spec;

static void build(const line_spec *s, char *buf, size_t size)
{
	unsigned nlanes = s->nlanes < 0 ? 0
			  : s->nlanes ? (unsigned)s->nlanes : BS_LANES;
	size_t n = (size_t)snprintf(buf, size, "%s", s->head);

	for (unsigned l = 0; l < nlanes && n < size; l++) {
		const char *sep = s->sep ? s->sep : " ";

		n += (size_t)snprintf(buf + n, size - n, "%s", sep);
		if ((int)l == s->lane)
			n += (size_t)snprintf(buf + n, size - n, "%s",
					      s->token);
		else if (l < BS_LANES && (s->dash >> l & 1))
			n += (size_t)snprintf(buf + n, size - n, "-");
		else
			n += (size_t)snprintf(buf + n, size - n,
					      s->fmt ? s->fmt : "%u",
					      s->base + l * s->step);
	}
	if (n < size)
		snprintf(buf + n, size - n, "%s", s->tail ? s->tail : "");
}

/*
 * The size bytes of text as a file to read: through fmemopen (the reader
 * takes it a line at a time, as a pipe) or, when regular, a temporary
 * file (read in blocks).
 */
static FILE *text_file(const char *text, size_t size, int regular)
{
	FILE *f;

	if (!regular)
		return fmemopen((void *)text, size, "r");
	f = tmpfile();
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, size, f), size);
	rewind(f);
	return f;
}

/* ---- valid lines ---------------------------------------------------- */

typedef struct {
	const char *what;
	line_spec line;
	const char *name;
	unsigned width;
	const char *kind;
} valid_row;

#define NAME63 "n23456789012345678901234567890123456789012345678901234567890123"
#define ZEROS40 "0000000000000000000000000000000000000000"

static const valid_row valid[] = {
	{ "decimal", { "a 4 ld", .base = 1024, .step = 4, .lane = -1 },
	  "a", 4, "ld" },
	{ "0x hex", { "h 8 st", .fmt = "0x%x", .base = 0x400, .step = 8,
		      .lane = -1 }, "h", 8, "st" },
	{ "0X HEX", { "H 16 ld", .fmt = "0X%X", .base = 0xABC0, .step = 16,
		      .lane = -1 }, "H", 16, "ld" },
	{ "'-' lanes at both ends and in the middle",
	  { "d 2 ld", .base = 0, .step = 2, .dash = 0x80ff0f01u, .lane = -1 },
	  "d", 2, "ld" },
	{ "every lane inactive", { "none 1 st", .dash = ALL, .lane = -1 },
	  "none", 1, "st" },
	{ "tabs between every token", { "t\t4\tld", .sep = "\t", .base = 0,
					.step = 4, .lane = -1 },
	  "t", 4, "ld" },
	{ "blanks around and between", { "   b  1  ld", .sep = " \t ",
					 .step = 1, .lane = -1, .tail = " \t" },
	  "b", 1, "ld" },
	{ "comment after the last field", { "c 4 ld", .base = 1024, .step = 4,
					    .lane = -1, .tail = " # c 1 2" },
	  "c", 4, "ld" },
	{ "comment right against the last field",
	  { "c 4 ld", .base = 1024, .step = 4, .lane = -1, .tail = "#x" },
	  "c", 4, "ld" },
	{ "load spelled out", { "l 4 load", .step = 4, .lane = -1 }, "l", 4,
	  "ld" },
	{ "store spelled out", { "s 8 store", .step = 8, .lane = -1 }, "s", 8,
	  "st" },
	{ "width with a leading zero", { "z 08 ld", .step = 8, .lane = -1 },
	  "z", 8, "ld" },
	{ "width in hex", { "x 0x4 ld", .step = 4, .lane = -1 }, "x", 4,
	  "ld" },
	{ "the last addresses of the 32-bit window",
	  { "top 4 ld", .base = 4294967168u, .step = 4, .lane = -1 }, "top", 4,
	  "ld" },
	{ "byte access at 0xffffffff", { "b 1 ld", .base = 0xffffffe0u,
					 .step = 1, .lane = -1 }, "b", 1,
	  "ld" },
	{ "a 63-byte name", { NAME63 " 4 ld", .step = 4, .lane = -1 },
	  NAME63, 4, "ld" },
	{ "a name that looks like a number", { "7 4 st", .step = 4,
					       .lane = -1 }, "7", 4, "st" },
	{ "ldmatrix x4: 16-byte rows", { "m 16 ldsm.x4", .step = 16,
					 .lane = -1 }, "m", 16, "ldsm.x4" },
	{ "ldmatrix x1: lanes 8-31 give no address",
	  { "m1 16 ldsm.x1", .step = 16, .dash = 0xffffff00u, .lane = -1 },
	  "m1", 16, "ldsm.x1" },
	{ "a shared atomic", { "a 4 atom.add.u32", .step = 4, .lane = -1 },
	  "a", 4, "atom.add.u32" },
	{ "cp.async of 8 bytes", { "c 8 cp.async.ca", .step = 8, .lane = -1 },
	  "c", 8, "cp.async.ca" },
	{ "an address of 40 zeros", { "z 4 ld", .step = 4, .lane = 0,
				      .token = ZEROS40 }, "z", 4, "ld" },
	{ "40 zeros then 4, in hex", { "z 4 ld", .step = 4, .lane = 1,
				       .token = "0x" ZEROS40 "4" },
	  "z", 4, "ld" },
	/* the edges of the reader's 8-byte step: 7 digits in it, 8 not */
	{ "7 digits, leading zeros", { "s 4 ld", .fmt = "%07u", .base = 1024,
				       .step = 4, .lane = -1 }, "s", 4, "ld" },
	{ "7-digit addresses", { "s 4 ld", .base = 9999872, .step = 4,
				 .lane = -1 }, "s", 4, "ld" },
	{ "8 digits, leading zeros", { "s 4 ld", .fmt = "%08u", .base = 1024,
				       .step = 4, .lane = -1 }, "s", 4, "ld" },
	{ "8-digit addresses", { "s 4 ld", .base = 99999872, .step = 4,
				 .lane = -1 }, "s", 4, "ld" },
	{ "hex amid decimals", { "s 16 ld", .step = 16, .lane = 3,
				 .token = "0x30" }, "s", 16, "ld" },
	{ "'-' against a comment", { "d 4 ld", .step = 4, .dash = 1u << 31,
				     .lane = -1, .tail = "#c" },
	  "d", 4, "ld" },
};

static void expect_access(const bs_access *a, const valid_row *v)
{
	ck_assert_str_eq(a->name, v->name);
	ck_assert_uint_eq(a->width, v->width);
	ck_assert_str_eq(bs_kind_name(a->kind), v->kind);
	ck_assert_uint_eq(a->active, ~v->line.dash);
	for (unsigned l = 0; l < BS_LANES; l++)
		if (a->active >> l & 1)
			ck_assert_msg(a->addr[l] ==
				      v->line.base + l * v->line.step,
				      "%s: lane %u address %u", v->what, l,
				      (unsigned)a->addr[l]);
}

START_TEST(test_valid_line)
{
	const valid_row *v = &valid[_i];
	char line[512];
	bs_access a;
	bs_error err;
	int rc;

	build(&v->line, line, sizeof line);
	rc = bs_parse_line(line, "f", 1, &a, &err);
	ck_assert_msg(rc == 1, "%s: rc %d (%s) for '%s'", v->what, rc,
		      rc < 0 ? err.text : "", line);
	expect_access(&a, v);
}
END_TEST

/* The same lines through the streaming reader (its own buffer, read 8
 * bytes at a time past the line's end). */
START_TEST(test_valid_line_read)
{
	const valid_row *v = &valid[_i];
	char line[512];
	bs_access a;
	bs_error err;
	bs_reader *r;
	FILE *f;
	int rc;

	build(&v->line, line, sizeof line);
	strcat(line, "\n");
	for (int regular = 0; regular < 2; regular++) {
		f = text_file(line, strlen(line), regular);
		ck_assert_ptr_nonnull(f);
		r = bs_reader_new(f, "f");
		ck_assert_ptr_nonnull(r);
		rc = bs_reader_next(r, &a, &err);
		ck_assert_msg(rc == 1, "%s: rc %d (%s) for '%s'", v->what, rc,
			      rc < 0 ? err.text : "", line);
		expect_access(&a, v);
		ck_assert_int_eq(bs_reader_next(r, &a, &err), 0);
		bs_reader_free(r);
		fclose(f);
	}
}
END_TEST

/* Format, parse back, get the same access; the text is canonical. */
START_TEST(test_format_round_trip)
{
	const valid_row *v = &valid[_i];
	char line[512], out[512], again[512];
	bs_access a, b;

	build(&v->line, line, sizeof line);
	ck_assert_int_eq(bs_parse_line(line, "f", 1, &a, NULL), 1);
	ck_assert_int_eq(bs_format_pattern(&a, out, sizeof out),
			 (int)strlen(out));
	ck_assert_msg(out[strlen(out) - 1] == '\n', "%s: no newline", v->what);
	out[strlen(out) - 1] = '\0';
	ck_assert_int_eq(bs_parse_line(out, "f", 1, &b, NULL), 1);
	expect_access(&b, v);
	ck_assert_int_gt(bs_format_pattern(&b, again, sizeof again), 0);
	again[strlen(again) - 1] = '\0';
	ck_assert_str_eq(again, out);
}
END_TEST

START_TEST(test_format_text)
{
	bs_access a = { .name = "t", .width = 8, .kind = BS_KIND_ST,
			.active = ALL & ~2u };
	char buf[512], small[64];
	int n;

	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = l * 8;
	a.addr[1] = 12345;   /* inactive: not written */
	n = bs_format_pattern(&a, buf, sizeof buf);
	ck_assert_int_eq(n, (int)strlen(buf));
	ck_assert_msg(!strncmp(buf, "t 8 st 0 - 16 24 32 ", 20), "'%s'", buf);
	ck_assert_str_eq(buf + n - 9, " 240 248\n");
	ck_assert_int_eq(bs_format_pattern(&a, small, sizeof small), -1);
	ck_assert_int_eq(bs_format_pattern(&a, buf, (size_t)n), -1);
	ck_assert_int_eq(bs_format_pattern(&a, buf, (size_t)n + 1), n);
}
END_TEST

START_TEST(test_blank_and_comment)
{
	static const char *const lines[] = {
		"", " ", "\t", " \t \t", "#", "# NAME WIDTH KIND", "   # x",
		"\t#\tx 4 ld",
	};
	bs_access a;

	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
		ck_assert_msg(bs_parse_line(lines[i], "f", 1, &a, NULL) == 0,
			      "'%s' is not skipped", lines[i]);
}
END_TEST

/* ---- every error, with its column ------------------------------------ */

typedef struct {
	const char *what;
	line_spec line;
	long column;
	const char *expect;     /* a phrase of the message */
} error_row;

#define A4(...) { "a 4 ld", .base = 1024, .step = 4, __VA_ARGS__ }
#define NAME64 NAME63 "4"
#define LONGJUNK "12345678901234567890123456789012345678z"
#define LONGNUM "1234567890123456789012345678901234567890"

static const error_row errors[] = {
	{ "unknown width 3", { "a 3 ld", .lane = -1 }, 3,
	  "unknown width '3': expected 1, 2, 4, 8 or 16 bytes" },
	{ "unknown width 32", { "a 32 ld", .lane = -1 }, 3,
	  "unknown width '32'" },
	{ "width 0", { "a 0 ld", .lane = -1 }, 3, "unknown width '0'" },
	{ "width with junk", { "a 4x ld", .lane = -1 }, 3,
	  "unknown width '4x'" },
	{ "width with a sign", { "a -4 ld", .lane = -1 }, 3,
	  "unknown width '-4'" },
	{ "long width token", { "abc 000000000000004 ld", .lane = -1 }, 5,
	  "unknown width '000000000000004'" },
	{ "unknown kind", { "a 4 lds", .lane = -1 }, 5,
	  "unknown kind 'lds': expected ld, st or another kind" },
	{ "kind in capitals", { "a 4 LD", .lane = -1 }, 5, "unknown kind 'LD'" },
	{ "op where the width goes", { "a ld 4", .lane = -1 }, 3,
	  "unknown width 'ld'" },
	{ "name alone", { "a", .nlanes = NOLANES, .lane = -1 }, 2,
	  "expected WIDTH KIND and 32 lane addresses after the name" },
	{ "name then a comment", { "name   # 4 ld", .lane = -1 }, 8,
	  "expected WIDTH KIND" },
	{ "'#' inside the name starts a comment", { "a#b 4 ld", .lane = -1 },
	  2, "expected WIDTH KIND" },
	{ "missing op", { "a 4", .nlanes = NOLANES, .lane = -1 }, 4,
	  "expected KIND (ld, st, ...) after the width" },
	{ "missing op before a comment", { "a 16\t# ld", .lane = -1 }, 6,
	  "expected KIND" },
	{ "a width the kind does not take", { "m 4 ldsm.x4", .lane = -1 }, 3,
	  "ldsm.x4 takes a width of 16 bytes, not 4" },
	{ "an atomic of 8 bytes", { "m 8 atom.add.u32", .step = 8,
				      .lane = -1 }, 3,
	  "atom.add.u32 takes a width of 4 bytes, not 8" },
	{ "an address from a lane ldsm.x1 does not read",
	  { "m 16 ldsm.x1", .step = 16, .dash = 0xfffffe00u, .lane = -1 }, 38,
	  "lane 8: ldsm.x1 takes addresses from lanes 0-7 only" },
	{ "name of 64 bytes", { NAME64 " 4 ld", .lane = -1 }, 1,
	  "access name longer than 63 bytes" },
	{ "no lane field", { "a 4 ld", .nlanes = NOLANES, .lane = -1 }, 7,
	  "0 lane fields, expected 32" },
	{ "31 lane fields", A4(.nlanes = 31, .lane = -1), 162,
	  "31 lane fields, expected 32" },
	{ "31 lane fields and a comment", A4(.nlanes = 31, .lane = -1,
					     .tail = "  # lane 31"), 164,
	  "31 lane fields, expected 32" },
	{ "33 lane fields", A4(.nlanes = 33, .lane = -1), 168,
	  "more than 32 lane fields" },
	{ "33rd field a '-'", A4(.nlanes = 33, .lane = 32, .token = "-"), 168,
	  "more than 32 lane fields" },
	{ "junk address", A4(.lane = 5, .token = "12z"), 33,
	  "lane 5: '12z' is not an address (decimal, 0x hex, or - for "
	  "inactive)" },
	{ "0x without digits", A4(.lane = 0, .token = "0x"), 8,
	  "lane 0: '0x' is not an address" },
	{ "bad hex digit", A4(.lane = 31, .token = "0x40g"), 163,
	  "lane 31: '0x40g' is not an address" },
	{ "negative address", A4(.lane = 3, .token = "-4"), 23,
	  "lane 3: '-4' is not an address" },
	{ "two dashes", A4(.lane = 3, .token = "--"), 23,
	  "lane 3: '--' is not an address" },
	{ "decimal point", A4(.lane = 1, .token = "1.5"), 13,
	  "lane 1: '1.5' is not an address" },
	{ "long junk", A4(.lane = 2, .token = LONGJUNK), 18,
	  "lane 2: '1234567890123456789012345678901' is not an address" },
	{ "2^32", A4(.lane = 7, .token = "4294967296"), 43,
	  "lane 7: address '4294967296' overflows 32 bits" },
	{ "2^32 in hex", A4(.lane = 8, .token = "0x100000000"), 48,
	  "lane 8: address '0x100000000' overflows 32 bits" },
	{ "2^64", A4(.lane = 9, .token = "18446744073709551616"), 53,
	  "overflows 32 bits" },
	{ "a 40-digit number", A4(.lane = 10, .token = LONGNUM), 58,
	  "lane 10: address '1234567890123456789012345678901' overflows "
	  "32 bits" },
	{ "misaligned 4-byte address", A4(.lane = 2, .token = "1026"), 18,
	  "lane 2: address 1026 is not aligned to the 4-byte width" },
	{ "misaligned hex address", A4(.lane = 4, .token = "0x402"), 28,
	  "lane 4: address 0x402 is not aligned to the 4-byte width" },
	{ "misaligned 16-byte address, last lane",
	  { "a 16 ld", .base = 1024, .step = 16, .lane = 31, .token = "1032" },
	  164, "lane 31: address 1032 is not aligned to the 16-byte width" },
	{ "misaligned 2-byte address", { "a 2 st", .base = 1024, .step = 2,
					 .lane = 0, .token = "4294967295" },
	  8, "lane 0: address 4294967295 is not aligned to the 2-byte width" },
	{ "a dash amid digits", A4(.lane = 4, .token = "10-2"), 28,
	  "lane 4: '10-2' is not an address" },
	{ "a dash after digits", A4(.lane = 0, .token = "1024-"), 8,
	  "lane 0: '1024-' is not an address" },
	{ "misaligned 7-digit address", A4(.lane = 3, .token = "1000001"), 23,
	  "lane 3: address 1000001 is not aligned to the 4-byte width" },
	{ "tab-separated, junk in lane 1",
	  { "a\t4\tld", .sep = "\t", .base = 1024, .step = 4, .lane = 1,
	    .token = "x" }, 13, "lane 1: 'x' is not an address" },
};

START_TEST(test_error_line)
{
	const error_row *e = &errors[_i];
	char line[512];
	bs_access a = { .name = "untouched" };
	bs_error err;

	build(&e->line, line, sizeof line);
	ck_assert_msg(bs_parse_line(line, "in.pat", 7, &a, &err) == -1,
		      "%s: '%s' accepted", e->what, line);
	ck_assert_str_eq(err.source, "in.pat");
	ck_assert_int_eq(err.line, 7);
	ck_assert_msg(err.column == e->column, "%s: column %ld, expected %ld "
		      "(%s)", e->what, err.column, e->column, err.text);
	ck_assert_msg(strstr(err.text, e->expect), "%s: message '%s' lacks "
		      "'%s'", e->what, err.text, e->expect);
	ck_assert_str_eq(a.name, "untouched");
	ck_assert_int_eq(bs_parse_line(line, "in.pat", 7, &a, NULL), -1);
}
END_TEST

/* The same errors from the streaming reader, which reads a line's fields
 * its own way first: the same column and message, on line 1. */
START_TEST(test_error_line_read)
{
	const error_row *e = &errors[_i];
	char line[512];
	bs_access a = { .name = "untouched" };
	bs_error err;
	bs_reader *r;
	FILE *f;

	build(&e->line, line, sizeof line);
	strcat(line, "\n");
	for (int regular = 0; regular < 2; regular++) {
		f = text_file(line, strlen(line), regular);
		ck_assert_ptr_nonnull(f);
		r = bs_reader_new(f, "in.pat");
		ck_assert_ptr_nonnull(r);
		ck_assert_msg(bs_reader_next(r, &a, &err) == -1,
			      "%s: '%s' accepted", e->what, line);
		ck_assert_int_eq(err.line, 1);
		ck_assert_msg(err.column == e->column, "%s: column %ld, "
			      "expected %ld (%s)", e->what, err.column,
			      e->column, err.text);
		ck_assert_msg(strstr(err.text, e->expect), "%s: message '%s' "
			      "lacks '%s'", e->what, err.text, e->expect);
		ck_assert_str_eq(a.name, "untouched");
		bs_reader_free(r);
		fclose(f);
	}
}
END_TEST

/* ---- the streaming reader ------------------------------------------- */

#define LINE32 "a 4 ld 0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 " \
	       "72 76 80 84 88 92 96 100 104 108 112 116 120 124"
#define NULTEXT LINE32 "\na 4 ld 0 4\0 8\n" LINE32 "\n"
#define BAD3 "c 3 ld 0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 " \
	     "72 76 80 84 88 92 96 100 104 108 112 116 120 124"

/*
 * A file and what successive bs_reader_next calls give: 'A' an access
 * (named for its line number: "aN" lines are checked by name), 'E' an
 * error at line and column, '0' the end.
 */
typedef struct {
	const char *what;
	const char *text;
	size_t size;            /* 0: strlen(text) */
	const char *steps;
	long err_line, err_col;
	const char *expect;
	long last_line;         /* bs_reader_line at the end */
} stream_row;

static const stream_row streams[] = {
	{ "empty file", "", 0, "0", 0, 0, NULL, 0 },
	{ "blank lines and comments only", "\n\n# x\n   \n\t# y\n", 0, "0",
	  0, 0, NULL, 5 },
	{ "one line, no newline at the end", LINE32, 0, "A0", 0, 0, NULL, 1 },
	{ "CRLF line ends", "# c\r\n" LINE32 "\r\n\r\n" LINE32 "\r\n", 0,
	  "AA0", 0, 0, NULL, 4 },
	{ "a lone CR at the end of the file", LINE32 "\r", 0, "A0", 0, 0,
	  NULL, 1 },
	{ "bad width on line 3", "# head\n" LINE32 "\n" BAD3 "\n" LINE32 "\n",
	  0, "AEA0", 3, 3, "unknown width '3'", 4 },
	{ "33 lanes on line 2 after a CRLF line", LINE32 "\r\n" LINE32
	  " 128\r\n", 0, "AE0", 2, 108, "more than 32 lane fields", 2 },
	{ "31 lanes on the last line, no newline", "\n\n\n\n" "a 4 ld 0", 0,
	  "E0", 5, 9, "1 lane fields, expected 32", 5 },
	{ "NUL byte in line 2", NULTEXT, sizeof NULTEXT - 1, "AEA0", 2, 11,
	  "NUL byte in a text line", 3 },
	{ "NUL byte first", "\0" LINE32 "\n", 1 + sizeof LINE32, "E0", 1, 1,
	  "NUL byte", 1 },
	{ "NUL byte in the last line, no newline", LINE32 "\nx\0y",
	  sizeof LINE32 + 3, "AE0", 2, 2, "NUL byte in a text line", 2 },
	{ "UTF-8 byte-order mark", "\xef\xbb\xbf" LINE32 "\n" LINE32 "\n", 0,
	  "AA0", 0, 0, NULL, 2 },
	{ "byte-order mark, then a bad width", "\xef\xbb\xbf" BAD3 "\n", 0,
	  "E0", 1, 3, "unknown width '3'", 1 },
};

static void run_stream_in(const stream_row *s, FILE *f)
{
	bs_reader *r;
	bs_access a;
	bs_error err;

	ck_assert_ptr_nonnull(f);
	r = bs_reader_new(f, "mem.pat");
	ck_assert_ptr_nonnull(r);
	for (const char *st = s->steps; *st; st++) {
		int rc = bs_reader_next(r, &a, &err);

		if (*st == 'A') {
			ck_assert_msg(rc == 1, "%s: step %d: rc %d (%s)",
				      s->what, (int)(st - s->steps), rc,
				      rc < 0 ? err.text : "");
			ck_assert_str_eq(a.name, "a");
			ck_assert_uint_eq(a.active, ALL);
			ck_assert_uint_eq(a.addr[31], 124);
		} else if (*st == 'E') {
			ck_assert_msg(rc == -1, "%s: step %d: rc %d", s->what,
				      (int)(st - s->steps), rc);
			ck_assert_str_eq(err.source, "mem.pat");
			ck_assert_msg(err.line == s->err_line &&
				      err.column == s->err_col,
				      "%s: error at %ld:%ld, expected %ld:%ld "
				      "(%s)", s->what, err.line, err.column,
				      s->err_line, s->err_col, err.text);
			ck_assert_msg(strstr(err.text, s->expect), "%s: '%s' "
				      "lacks '%s'", s->what, err.text,
				      s->expect);
			ck_assert_int_eq(bs_reader_line(r), s->err_line);
		} else {
			ck_assert_msg(rc == 0, "%s: rc %d at the end", s->what,
				      rc);
		}
	}
	ck_assert_int_eq(bs_reader_next(r, &a, &err), 0);
	ck_assert_int_eq(bs_reader_line(r), s->last_line);
	bs_reader_free(r);
	fclose(f);
}

/* The file read both ways: a line at a time, and in blocks. */
static void run_stream(const stream_row *s, const char *text, size_t size)
{
	run_stream_in(s, text_file(text, size, 0));
	run_stream_in(s, text_file(text, size, 1));
}

START_TEST(test_stream)
{
	const stream_row *s = &streams[_i];

	run_stream(s, s->text, s->size ? s->size : strlen(s->text));
}
END_TEST

/*
 * The 64 KiB limit: a line of exactly 65536 bytes (padding blanks before
 * the comment) is read, with or without a CR; one byte more is an error
 * at line 2, column 65537, and the next line still reads.
 */
#define LIMIT (64 * 1024)

static char *long_line_file(size_t line_bytes, const char *end, size_t *size)
{
	size_t head = strlen(LINE32 " #"), n = 0;
	size_t cap = 2 * sizeof LINE32 + line_bytes + 16;
	char *buf = malloc(cap);

	ck_assert_ptr_nonnull(buf);
	n += (size_t)snprintf(buf, cap, "%s\n%s #", LINE32, LINE32);
	memset(buf + n, 'x', line_bytes - head);
	n += line_bytes - head;
	n += (size_t)snprintf(buf + n, cap - n, "%s%s\n", end, LINE32);
	*size = n;
	return buf;
}

START_TEST(test_line_limit)
{
	static const struct {
		size_t bytes;
		const char *end;
		const char *steps;
	} cases[] = {
		{ LIMIT - 1, "\n", "AAA0" }, { LIMIT, "\n", "AAA0" },
		{ LIMIT, "\r\n", "AAA0" },   { LIMIT + 1, "\n", "AEA0" },
		{ LIMIT + 1, "\r\n", "AEA0" }, { 5 * LIMIT, "\n", "AEA0" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		stream_row s = { "long line", NULL, 0, cases[i].steps, 2,
				 LIMIT + 1, "line longer than 65536 bytes", 3 };
		size_t size;
		char *buf = long_line_file(cases[i].bytes, cases[i].end, &size);

		run_stream(&s, buf, size);
		free(buf);
	}
}
END_TEST

/*
 * A line that never ends: a child writes byte c into a pipe forever.  The
 * reader must fail on line 1 once the line is known to be bad (at the
 * first NUL, or past 64 KiB), not wait for a newline that never comes.
 */
START_TEST(test_endless_line)
{
	static const struct {
		char c;
		long column;
		const char *text;
	} cases[] = {
		{ 'x', LIMIT + 1, "line longer than 65536 bytes" },
		{ '\0', 1, "NUL byte in a text line" },
	};
	int fd[2], status;
	pid_t pid;
	FILE *f;
	bs_reader *r;
	bs_access a;
	bs_error err;

	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char buf[4096];

		close(fd[0]);
		memset(buf, cases[_i].c, sizeof buf);
		while (write(fd[1], buf, sizeof buf) > 0)
			;
		_exit(0);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	ck_assert_ptr_nonnull(f);
	r = bs_reader_new(f, "endless");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(bs_reader_next(r, &a, &err), -1);
	tu_error_is(&err, NULL, 1, cases[_i].column, cases[_i].text);
	bs_reader_free(r);
	fclose(f);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}
END_TEST

START_TEST(test_reader_name)
{
	FILE *f = fmemopen((void *)"x 4 ld\n", 7, "r");
	bs_reader *r = bs_reader_new(f, NULL);
	bs_access a;
	bs_error err;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(bs_reader_next(r, &a, &err), -1);
	tu_error_is(&err, "<stdin>", 1, 7, NULL);
	bs_reader_free(r);
	bs_reader_free(NULL);
	fclose(f);
}
END_TEST

/* ---- the reader's fast path against the general code ---------------- */

/*
 * Random lines near the common form, through the reader (which tries
 * its fast path on every line) and through bs_parse_line (the general
 * code alone): the same access, or the same error at the same column.
 * The lines mix every width and kind the fast path knows or declines,
 * '-' lanes, addresses of 1 to 10 digits (with leading zeros, in hex,
 * misaligned, beyond 32 bits), junk fields ("--", "-5", "5-", "1a",
 * "#"), 31 to 33 fields, blanks and tabs, comments, long lines and
 * names of 63 and 64 bytes.
 */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state >> 32) % n;
}

static const char *pick(const char *const *v, size_t n)
{
	return v[rnd((unsigned)n)];
}
#define PICK(v) pick(v, sizeof v / sizeof *v)

/*
 * One lane field for an access of width w: '-' or an aligned decimal of
 * 1 to 7 digits, but for odd (0: none) one in odd: 8 to 10 digits, a
 * leading zero, hex, misaligned, or junk.
 */
static size_t random_field(char *b, size_t size, unsigned w, unsigned odd)
{
	static const char *const junk[] = {
		"--", "-5", "5-", "1a", "#", "x", "0x", "+4", "4#", "-#",
		"00000000", "99999999", "4294967296", "0x100000000", "1-2",
		"\xff", "5\r6",
	};
	unsigned r = odd && !rnd(odd) ? 1 + rnd(5) : 0;
	unsigned digits = r == 1 ? 8 + rnd(3) : 1 + rnd(7);
	uint64_t v = 0;

	if (!r && !rnd(12))
		return (size_t)snprintf(b, size, "-");
	if (r == 2)
		return (size_t)snprintf(b, size, "%s", PICK(junk));
	for (unsigned i = 0; i < digits; i++)
		v = v * 10 + rnd(10);
	if (r != 3)
		v -= v % w;
	else if (v % w == 0)
		v++;
	if (r == 4)
		return (size_t)snprintf(b, size, "0x%llx",
					(unsigned long long)v);
	if (r == 5)
		return (size_t)snprintf(b, size, "0%llu",
					(unsigned long long)v);
	return (size_t)snprintf(b, size, "%llu", (unsigned long long)v);
}

/* Mostly the common form; one line in two with something odd. */
static void random_line(char *b, size_t size)
{
	static const char *const lead[] = { "", "", "", " ", "\t", "  \t" };
	static const char *const names[] = {
		"a", "r123", "n-1", "7", "-", "\xc3\xa9", "a\rb", NAME63,
		"x#y", NAME63 "4",
	};
	static const char *const widths[] = {
		"1", "2", "4", "8", "16", "08", "0x4", "3", "32", "16x", "6",
		"0", "-",
	};
	static const char *const kinds[] = {
		"ld", "st", "load", "store", "ldsm.x4", "ldsm.x1",
		"atom.add.u32", "cp.async.ca", "lx", "l", "ldd", "st#", "LD",
	};
	static const char *const seps[] = { " ", " ", " ", "\t", " \t", "  " };
	static const char *const tails[] = {
		"", " ", "\t", " # c", "#x", " 0", " -",
	};
	int odd = rnd(2);
	unsigned what = odd ? rnd(8) : 8;
	const char *width = widths[what == 0 ? rnd(13) : rnd(5)];
	unsigned w = (unsigned)atoi(width), nf = 32;
	size_t n = (size_t)snprintf(b, size, "%s%s%s%s%s%s",
				    what == 1 ? PICK(lead) : "",
				    names[what == 2 ? rnd(10) : rnd(7)],
				    PICK(seps), width, PICK(seps),
				    kinds[what == 3 ? rnd(13) : rnd(2)]);

	if (!w || w & (w - 1) || w > 16)
		w = 1;
	if (what == 4)
		nf = 31 + 2 * rnd(2);
	for (unsigned l = 0; l < nf && n + 40 < size; l++) {
		/* what 5: long blanks, past the fast path's 256 bytes */
		n += (size_t)snprintf(b + n, size - n, "%s",
				      what == 5 ? "        " : PICK(seps));
		n += random_field(b + n, size - n, w, what == 6 ? 32 : 0);
	}
	snprintf(b + n, size - n, "%s", what == 7 ? PICK(tails) : "");
}

static void expect_same(const char *line, long lineno, int rc,
			const bs_access *a, const bs_error *err)
{
	bs_access g;
	bs_error ge;
	int grc = bs_parse_line(line, "rand.pat", lineno, &g, &ge);

	ck_assert_msg(rc == grc, "line %ld '%s': reader %d, general %d (%s)",
		      lineno, line, rc, grc, grc < 0 ? ge.text : err->text);
	if (rc < 0) {
		ck_assert_int_eq(err->line, ge.line);
		ck_assert_msg(err->column == ge.column && !strcmp(err->text,
							       ge.text),
			      "'%s': %ld '%s' vs %ld '%s'", line, err->column,
			      err->text, ge.column, ge.text);
		return;
	}
	ck_assert_str_eq(a->name, g.name);
	ck_assert_uint_eq(a->width, g.width);
	ck_assert_uint_eq(a->kind, g.kind);
	ck_assert_uint_eq(a->active, g.active);
	ck_assert_msg(!memcmp(a->addr, g.addr, sizeof g.addr),
		      "'%s': addresses differ", line);
	ck_assert_ptr_null(a->src);
}

START_TEST(test_fast_agrees)
{
	enum { LINES = 20000, MAXLINE = 600 };
	char *text = malloc((size_t)LINES * MAXLINE), *file, **lines;
	size_t n = 0;
	long lineno = 0;
	bs_reader *r;
	FILE *f;

	lines = malloc(LINES * sizeof *lines);
	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(lines);
	rng_state += (uint64_t)_i;
	for (unsigned i = 0; i < LINES; i++) {
		lines[i] = text + n;
		random_line(lines[i], MAXLINE - 1);
		n += strlen(lines[i]);
		text[n++] = '\n';
	}
	file = malloc(n);
	ck_assert_ptr_nonnull(file);
	memcpy(file, text, n);
	f = text_file(file, n, _i & 1);
	ck_assert_ptr_nonnull(f);
	r = bs_reader_new(f, "rand.pat");
	ck_assert_ptr_nonnull(r);
	for (unsigned i = 0; i < LINES; i++)
		*strchr(lines[i], '\n') = '\0';
	for (;;) {
		bs_access a;
		bs_error err;
		int rc = bs_reader_next(r, &a, &err);

		if (rc == 0)
			break;
		/* the lines the reader skipped are blank or comments */
		for (; lineno + 1 < bs_reader_line(r); lineno++)
			expect_same(lines[lineno], lineno + 1, 0, NULL, NULL);
		expect_same(lines[lineno], lineno + 1, rc, &a, &err);
		lineno++;
	}
	ck_assert_int_eq(lineno, LINES);
	bs_reader_free(r);
	fclose(f);
	free(lines);
	free(file);
	free(text);
}
END_TEST

Suite *pattern_suite(void)
{
	Suite *s = suite_create("pattern");

	tu_add_tcase(s, "lines", 0, (const tu_test[]){
		{ test_valid_line, TU_ROWS(valid) },
		{ test_valid_line_read, TU_ROWS(valid) },
		{ test_format_round_trip, TU_ROWS(valid) },
		{ test_format_text, 1 }, { test_blank_and_comment, 1 },
		{ test_error_line, TU_ROWS(errors) },
		{ test_error_line_read, TU_ROWS(errors) }, { NULL, 0 } });
	tu_add_tcase(s, "stream", 0, (const tu_test[]){
		{ test_stream, TU_ROWS(streams) }, { test_line_limit, 1 },
		{ test_endless_line, 2 }, { test_reader_name, 1 },
		{ test_fast_agrees, 4 }, { NULL, 0 } });
	return s;
}
