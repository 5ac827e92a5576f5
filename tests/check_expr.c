/*
 * check_expr.c - index expressions: values, errors with their columns, and
 * the accesses bs_access_from_expr() builds from them.
 *
 * Every value row means what the same text means in C with int64_t lane,
 * warp and tid (tid = warp*32 + lane); the tricky precedence rows were
 * checked against a C compiler.  Error rows give the 1-based column the
 * error must name (the operator's, for evaluation errors) and the whole
 * sentence it must say.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

#define ALL 0xffffffffu

typedef struct {
	const char *text;
	int64_t lane, warp;
	int64_t want;
} value_row;

static const value_row values[] = {
	/* precedence and associativity */
	{ "1+2*3", 0, 0, 7 },
	{ "(1+2)*3", 0, 0, 9 },
	{ "2*3%4", 0, 0, 2 },
	{ "1<<2+1", 0, 0, 8 },
	{ "8>>1>>1", 0, 0, 2 },
	{ "1|2^3&4", 0, 0, 3 },
	{ "6&3^5|8", 0, 0, 15 },
	{ "10-4-3", 0, 0, 3 },
	{ "100/10/5", 0, 0, 2 },
	{ "64%10%3", 0, 0, 1 },
	{ "1?2:0?3:4", 0, 0, 2 },
	{ "0?2:0?3:4", 0, 0, 4 },
	{ "0?2:1?3:4", 0, 0, 3 },
	{ "1?0?5:6:7", 0, 0, 6 },
	{ "1==1==1", 0, 0, 1 },
	{ "2==2==2", 0, 0, 0 },
	{ "3<2<1", 0, 0, 1 },
	{ "5&3==3", 0, 0, 1 },
	{ "1<2==1", 0, 0, 1 },
	{ "1+2<<3", 0, 0, 24 },
	{ "2<1<<3", 0, 0, 1 },
	{ "0||1&&0", 0, 0, 0 },
	{ "1||0&&0", 0, 0, 1 },
	{ "1|0&&0", 0, 0, 0 },
	{ "2*-3", 0, 0, -6 },
	{ "-2*-3", 0, 0, 6 },
	{ "-lane*2", 5, 0, -10 },
	{ "- -lane", 3, 0, 3 },
	{ "-(-lane)", 3, 0, 3 },
	{ "+lane", 4, 0, 4 },
	{ "~0", 0, 0, -1 },
	{ "~lane", 5, 0, -6 },
	{ "!5", 0, 0, 0 },
	{ "!0", 0, 0, 1 },
	{ "!!7", 0, 0, 1 },
	{ "!lane", 0, 0, 1 },
	{ "~!lane", 0, 0, -2 },
	{ "-~lane", 5, 0, 6 },
	/* comparisons and logic give 0 or 1 */
	{ "lane%4==0", 8, 0, 1 },
	{ "lane%4==0", 9, 0, 0 },
	{ "lane!=3", 3, 0, 0 },
	{ "lane<=3", 3, 0, 1 },
	{ "lane>=4", 3, 0, 0 },
	{ "lane>2", 3, 0, 1 },
	{ "2&&3", 0, 0, 1 },
	{ "0||5", 0, 0, 1 },
	{ "0||0", 0, 0, 0 },
	{ "lane<16&&lane%2", 3, 0, 1 },
	/* arithmetic */
	{ "lane/2*2", 7, 0, 6 },
	{ "lane*33", 31, 0, 1023 },
	{ "-7/2", 0, 0, -3 },
	{ "-7%2", 0, 0, -1 },
	{ "7%-2", 0, 0, 1 },
	{ "-8>>1", 0, 0, -4 },
	{ "-7>>1", 0, 0, -4 },
	{ "-1>>63", 0, 0, -1 },
	{ "1<<62", 0, 0, INT64_C(4611686018427387904) },
	{ "lane<<62", 1, 0, INT64_C(4611686018427387904) },
	{ "0<<63", 0, 0, 0 },
	{ "0x1F", 0, 0, 31 },
	{ "0XfF", 0, 0, 255 },
	{ "0", 0, 0, 0 },
	{ "0x0", 0, 0, 0 },
	{ "9223372036854775807", 0, 0, INT64_MAX },
	{ "0x7fffffffffffffff", 0, 0, INT64_MAX },
	{ "-9223372036854775807-1", 0, 0, INT64_MIN },
	{ "(-9223372036854775807-1)/1", 0, 0, INT64_MIN },
	{ "(-9223372036854775807-1)%2", 0, 0, 0 },
	/* variables */
	{ "tid", 5, 2, 69 },
	{ "warp", 5, 2, 2 },
	{ "tid-warp*32", 7, 3, 7 },
	{ "lane", 31, 0, 31 },
	/* the shapes of real kernels */
	{ "(lane^(lane>>3))*4", 9, 0, 32 },
	{ "lane<16?lane:31-lane", 20, 0, 11 },
	{ "lane<16?lane:31-lane", 4, 0, 4 },
	{ "(lane&7)<<2|lane>>3", 13, 0, 21 },
	{ "lane*32+lane/4", 9, 0, 290 },
	/* short-circuit: the untaken side is never evaluated */
	{ "lane ? 8/lane : 0", 0, 0, 0 },
	{ "lane ? 8/lane : 0", 3, 0, 2 },
	{ "lane ? 8/lane : 8/0", 1, 0, 8 },
	{ "0 && 1/0", 0, 0, 0 },
	{ "1 || 1/0", 0, 0, 1 },
	{ "0 && 1<<64 || 7", 0, 0, 1 },
	{ "lane != 0 && 32/lane > 4", 0, 0, 0 },
	{ "lane != 0 && 32/lane > 4", 4, 0, 1 },
	{ "lane == 0 || 32/lane > 4", 0, 0, 1 },
	/* blanks anywhere between tokens */
	{ " \t lane \n+\r1 \f\v", 1, 0, 2 },
	{ "((((lane))))", 7, 0, 7 },
};

START_TEST(test_value)
{
	const value_row *r = &values[_i];
	bs_vars v = { r->lane, r->warp, r->warp * 32 + r->lane };
	bs_error err = { .text = "" };
	bs_expr *e = bs_expr_parse(r->text, "--expr", &err);
	int64_t got = -12345;

	ck_assert_msg(e != NULL, "'%s': %s", r->text, err.text);
	ck_assert_msg(bs_expr_eval(e, &v, &got, &err) == 0, "'%s': %s",
		      r->text, err.text);
	ck_assert_msg(got == r->want, "'%s' at lane %lld warp %lld: %lld, "
		      "expected %lld", r->text, (long long)r->lane,
		      (long long)r->warp, (long long)got, (long long)r->want);
	bs_expr_free(e);
}
END_TEST

typedef struct {
	const char *text;
	long column;
	const char *msg;
} parse_error_row;

static const parse_error_row parse_errors[] = {
	{ "", 1, "empty expression" },
	{ "   ", 4, "empty expression" },
	{ "lane +", 7, "expected an operand (number, lane, warp, tid or '(') "
	  "at the end of the expression" },
	{ "lane * * 2", 8, "expected an operand (number, lane, warp, tid or "
	  "'('), found '*'" },
	{ "(", 2, "expected an operand (number, lane, warp, tid or '(') at "
	  "the end of the expression" },
	{ "()", 2, "expected an operand (number, lane, warp, tid or '('), "
	  "found ')'" },
	{ "? 1", 1, "expected an operand (number, lane, warp, tid or '('), "
	  "found '?'" },
	{ "lane ?", 7, "expected an operand (number, lane, warp, tid or '(') "
	  "at the end of the expression" },
	{ "lane @ 2", 6, "unexpected character '@'" },
	{ "lane = 2", 6, "unexpected character '=' (did you mean '==')" },
	{ "lane; 2", 5, "unexpected character ';'" },
	{ "lane \x01", 6, "unexpected byte 0x01" },
	{ "lane \xc3\xa9", 6, "unexpected byte 0xc3" },
	{ "(lane + 1", 10, "missing ')' to close the '(' at column 1" },
	{ "((lane) * 2", 12, "missing ')' to close the '(' at column 1" },
	{ "2 * (lane 3)", 11, "missing ')' to close the '(' at column 5" },
	{ "lane ? 1", 9, "missing ':' for the '?' at column 6" },
	{ "lane ? 1 2", 10, "missing ':' for the '?' at column 6" },
	{ "lane 2", 6, "unexpected '2' after a complete expression" },
	{ "lane)", 5, "unexpected ')' after a complete expression" },
	{ "(lane))", 7, "unexpected ')' after a complete expression" },
	{ "1 ? 2 : 3 : 4", 11, "unexpected ':' after a complete expression" },
	{ "lanes", 1, "unknown identifier 'lanes': expected lane, warp or "
	  "tid" },
	{ "2 * threadIdx", 5, "unknown identifier 'threadIdx': expected "
	  "lane, warp or tid" },
	{ "lane + _x", 8, "unknown identifier '_x': expected lane, warp or "
	  "tid" },
	{ "9223372036854775808", 1, "literal 9223372036854775808 overflows "
	  "64-bit signed arithmetic" },
	{ "lane + 0x8000000000000000", 8, "literal 0x8000000000000000 "
	  "overflows 64-bit signed arithmetic" },
	{ "-9223372036854775808", 2, "literal 9223372036854775808 overflows "
	  "64-bit signed arithmetic" },
	{ "012", 1, "octal literal '012' is not supported: write decimal or "
	  "0x hex" },
	{ "12abc", 1, "malformed number '12abc'" },
	{ "0x", 1, "malformed number '0x'" },
	{ "1 + 0xg", 5, "malformed number '0xg'" },
	{ "08", 1, "octal literal '08' is not supported: write decimal or "
	  "0x hex" },
	{ "0b101", 1, "malformed number '0b101'" },
	{ "32u", 1, "malformed number '32u'" },
};

START_TEST(test_parse_error)
{
	const parse_error_row *r = &parse_errors[_i];
	bs_error err = { .text = "" };

	ck_assert_ptr_null(bs_expr_parse(r->text, "--expr", &err));
	ck_assert_str_eq(err.source, "--expr");
	ck_assert_int_eq(err.line, 0);
	ck_assert_msg(err.column == r->column, "'%s': column %ld, expected "
		      "%ld", r->text, err.column, r->column);
	ck_assert_str_eq(err.text, r->msg);
}
END_TEST

typedef struct {
	const char *text;
	int64_t lane, warp;
	long column;
	const char *msg;
} eval_error_row;

static const eval_error_row eval_errors[] = {
	{ "8/lane", 0, 0, 2, "division by zero (lane 0)" },
	{ "8 % (lane - 3)", 3, 0, 3, "modulo by zero (lane 3)" },
	{ "lane ? 8/lane : 8/0", 0, 0, 18, "division by zero (lane 0)" },
	{ "1/(lane-5)", 5, 2, 2, "division by zero (lane 5, warp 2)" },
	{ "1 && 1/0", 0, 0, 7, "division by zero (lane 0)" },
	{ "0 || 1%0", 0, 0, 7, "modulo by zero (lane 0)" },
	{ "0x7fffffffffffffff + lane", 1, 0, 20,
	  "integer overflow in '+' (lane 1)" },
	{ "-9223372036854775807 - 2", 0, 0, 22,
	  "integer overflow in '-' (lane 0)" },
	{ "4611686018427387904 * 2", 0, 0, 21,
	  "integer overflow in '*' (lane 0)" },
	{ "-(-9223372036854775807 - 1)", 0, 0, 1,
	  "integer overflow in unary '-' (lane 0)" },
	{ "(-9223372036854775807 - 1) / -1", 0, 0, 28,
	  "integer overflow in '/' (lane 0)" },
	{ "(-9223372036854775807 - 1) % -1", 0, 0, 28,
	  "integer overflow in '%' (lane 0)" },
	{ "1 << 64", 0, 0, 3, "shift count 64 is outside 0..63 (lane 0)" },
	{ "1 >> -1", 0, 0, 3, "shift count -1 is outside 0..63 (lane 0)" },
	{ "lane << 70 - lane", 2, 0, 6,
	  "shift count 68 is outside 0..63 (lane 2)" },
	{ "-1 << 1", 0, 0, 4, "left shift of negative value -1 (lane 0)" },
	{ "1 << 63", 0, 0, 3, "integer overflow in '<<' (lane 0)" },
	{ "3 << 62", 0, 0, 3, "integer overflow in '<<' (lane 0)" },
	{ "lane << 62", 2, 0, 6, "integer overflow in '<<' (lane 2)" },
	{ "tid * 0x4000000000000000", 1, 1, 5,
	  "integer overflow in '*' (lane 1, warp 1)" },
};

START_TEST(test_eval_error)
{
	const eval_error_row *r = &eval_errors[_i];
	bs_vars v = { r->lane, r->warp, r->warp * 32 + r->lane };
	bs_error err = { .text = "" };
	bs_expr *e = bs_expr_parse(r->text, "--active", &err);
	int64_t got;

	ck_assert_msg(e != NULL, "'%s': %s", r->text, err.text);
	ck_assert_int_eq(bs_expr_eval(e, &v, &got, &err), -1);
	ck_assert_str_eq(err.source, "--active");
	ck_assert_int_eq(err.line, 0);
	ck_assert_msg(err.column == r->column, "'%s': column %ld, expected "
		      "%ld", r->text, err.column, r->column);
	ck_assert_str_eq(err.text, r->msg);
	bs_expr_free(e);
}
END_TEST

/* text made of n copies of pre, then mid, then n copies of post */
static char *repeat(const char *pre, int n, const char *mid,
		    const char *post)
{
	size_t size = (strlen(pre) + strlen(post)) * (size_t)n + strlen(mid) + 1;
	char *s = malloc(size), *p = s;

	ck_assert_ptr_nonnull(s);
	for (int i = 0; i < n; i++)
		p += sprintf(p, "%s", pre);
	p += sprintf(p, "%s", mid);
	for (int i = 0; i < n; i++)
		p += sprintf(p, "%s", post);
	return s;
}

/* s (freed here) parses as source and evaluates to want for v. */
static void evaluates(char *s, const char *source, bs_vars v, int64_t want)
{
	bs_expr *e;
	bs_error err;
	int64_t got;

	e = bs_expr_parse(s, source, &err);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(bs_expr_eval(e, &v, &got, &err), 0);
	ck_assert_int_eq(got, want);
	bs_expr_free(e);
	free(s);
}

/* s (freed here) is refused as --expr: too deep, at column (0: any). */
static void too_deep(char *s, long column)
{
	bs_error err;

	ck_assert_ptr_null(bs_expr_parse(s, "--expr", &err));
	if (column)
		ck_assert_int_eq(err.column, column);
	ck_assert_str_eq(err.text, "expression nested deeper than 256 levels");
	free(s);
}

/* 255 parentheses and 255 unary operators nest; 256 do not. */
START_TEST(test_nesting)
{
	bs_vars v = { 3, 0, 3 };

	evaluates(repeat("(", 255, "lane", ")"), "--expr", v, 3);
	too_deep(repeat("(", 256, "lane", ")"), 257);
	evaluates(repeat("-", 255, "lane", ""), "--expr", v, -3);
	too_deep(repeat("~", 256, "lane", ""), 256);
	/* 255 right operands waiting on the stack: lane + (lane + (...)) */
	evaluates(repeat("lane+(", 255, "lane", ")"), "--expr", v, 256 * 3);
	/* ?: nests to the right */
	evaluates(repeat("0?1:", 255, "lane", ""), "--expr", v, 3);
	too_deep(repeat("0?1:", 256, "lane", ""), 0);
	/*
	 * Every level leaves 8 operands waiting (one per operator before the
	 * parenthesis) and evaluates to 1: 31 levels and the inner lane fill
	 * 249 slots; at 32 levels the inner lane would be the 257th.
	 */
	evaluates(repeat("1|1^1&1==1<1<<1+1*(", 31, "lane", ")"), "--expr", v,
		  1);
	too_deep(repeat("1|1^1&1==1<1<<1+1*(", 32, "lane", ")"), 32 * 19 + 1);
	/* a long flat chain is not nesting: 4004 bytes */
	evaluates(repeat("lane+", 800, "lane", ""), "--expr", v, 801 * 3);
}
END_TEST

/* Exactly 4096 bytes parse; 4097 do not, and the error points past 4096. */
START_TEST(test_length)
{
	char *s = repeat(" ", 4092, "lane", "");
	bs_error err;

	ck_assert_uint_eq(strlen(s), 4096);
	evaluates(s, "--expr", (bs_vars){ 9, 0, 9 }, 9);
	s = repeat(" ", 4093, "lane", "");
	ck_assert_ptr_null(bs_expr_parse(s, "pattern.txt", &err));
	ck_assert_str_eq(err.source, "pattern.txt");
	ck_assert_int_eq(err.column, 4097);
	ck_assert_str_eq(err.text, "expression longer than 4096 bytes");
	free(s);
}
END_TEST

START_TEST(test_null_text)
{
	bs_error err;

	ck_assert_ptr_null(bs_expr_parse(NULL, "--expr", &err));
	ck_assert_str_eq(err.text, "empty expression");
	ck_assert_ptr_null(bs_expr_parse("lane +", "--expr", NULL));
	bs_expr_free(NULL);
}
END_TEST

/* One parse, many evaluations: the expression keeps no state. */
START_TEST(test_reuse)
{
	bs_error err;
	bs_expr *e = bs_expr_parse("lane ? 96 / lane : -1", "--expr", &err);
	int64_t got;

	ck_assert_ptr_nonnull(e);
	for (int64_t l = 0; l < 32; l++) {
		bs_vars v = { l, 0, l };

		ck_assert_int_eq(bs_expr_eval(e, &v, &got, &err), 0);
		ck_assert_int_eq(got, l ? 96 / l : -1);
	}
	bs_expr_free(e);
}
END_TEST

/* ---- bs_access_from_expr ------------------------------------------------ */

/* The access of spec s, which must be made. */
static bs_access from_expr(const bs_expr_spec *s)
{
	bs_access a;
	bs_error err;

	ck_assert_msg(bs_access_from_expr(s, &a, &err) == 0, "%s", err.text);
	return a;
}

START_TEST(test_access_stride33)
{
	bs_expr_spec s = { .index = "lane*33", .width = 4 };
	const bs_arch *p = bs_arch_find("sm_90");
	bs_access a = from_expr(&s);
	bs_summary sum;
	bs_error err;

	ck_assert_str_eq(a.name, "expr");
	ck_assert_uint_eq(a.width, 4);
	ck_assert_int_eq(a.kind, BS_KIND_LD);
	ck_assert_uint_eq(a.active, ALL);
	for (unsigned l = 0; l < BS_LANES; l++)
		ck_assert_uint_eq(a.addr[l], l * 132);
	ck_assert_int_eq(bs_predict(p, &a, &sum, &err), 0);
	ck_assert_uint_eq(sum.wavefronts, 1);

	s.index = "lane*32";
	a = from_expr(&s);
	ck_assert_int_eq(bs_predict(p, &a, &sum, &err), 0);
	ck_assert_uint_eq(sum.wavefronts, 32);
}
END_TEST

START_TEST(test_access_active)
{
	bs_expr_spec s = { .name = "half", .index = "lane", .active =
			   "lane < 16", .width = 8, .kind = BS_KIND_ST,
			   .base = 256 };
	bs_access a = from_expr(&s);

	ck_assert_str_eq(a.name, "half");
	ck_assert_int_eq(a.kind, BS_KIND_ST);
	ck_assert_uint_eq(a.width, 8);
	ck_assert_uint_eq(a.active, 0xffff);
	for (unsigned l = 0; l < 16; l++)
		ck_assert_uint_eq(a.addr[l], 256 + 8 * l);
	for (unsigned l = 16; l < BS_LANES; l++)
		ck_assert_uint_eq(a.addr[l], 0);
}
END_TEST

/* Inactive lanes never evaluate the index: 64 / (16 - lane) is safe. */
START_TEST(test_access_inactive_not_evaluated)
{
	bs_expr_spec s = { .index = "64 / (16 - lane)", .active = "lane < 16",
			   .width = 4 };
	bs_access a = from_expr(&s);

	ck_assert_uint_eq(a.active, 0xffff);
	ck_assert_uint_eq(a.addr[0], 16);
	ck_assert_uint_eq(a.addr[8], 32);
	ck_assert_uint_eq(a.addr[15], 256);
}
END_TEST

START_TEST(test_access_tid)
{
	bs_expr_spec s = { .index = "tid", .width = 4, .warp = 2 };
	bs_access a = from_expr(&s);

	for (unsigned l = 0; l < BS_LANES; l++)
		ck_assert_uint_eq(a.addr[l], (64 + l) * 4);
}
END_TEST

/* base 2^32 - 128 and 32 floats: lane 31 ends at the last byte. */
START_TEST(test_access_top_of_window)
{
	bs_expr_spec s = { .index = "lane", .width = 4, .base = 0xffffff80 };
	bs_access a = from_expr(&s);
	bs_error err;

	ck_assert_uint_eq(a.addr[31], 0xfffffffcu);
	s.index = "lane + 1";
	ck_assert_int_eq(bs_access_from_expr(&s, &a, &err), -1);
	ck_assert_str_eq(err.text, "lane 31: address 4294967296 is beyond "
			 "the 32-bit shared window");
}
END_TEST

typedef struct {
	bs_expr_spec spec;
	const char *source;
	long column;
	const char *msg;
} access_error_row;

static const access_error_row access_errors[] = {
	{ { .index = "lane == 5 ? -1 : lane", .width = 4 }, "--expr", 0,
	  "lane 5: address -4 is negative" },
	{ { .index = "lane - 2", .width = 8, .base = 8 }, "--expr", 0,
	  "lane 0: address -8 is negative" },
	{ { .index = "lane * 0x40000000", .width = 4 }, "--expr", 0,
	  "lane 1: address 4294967296 is beyond the 32-bit shared window" },
	{ { .index = "lane * 0x4000000000000000", .width = 4 }, "--expr", 0,
	  "lane 1: the address of index 4611686018427387904 overflows 64 "
	  "bits" },
	{ { .index = "lane", .width = 4, .base = 6 }, "--base", 0,
	  "base 6 is not aligned to the 4-byte width" },
	{ { .index = "lane", .width = 16, .base = 8 }, "--base", 0,
	  "base 8 is not aligned to the 16-byte width" },
	{ { .index = "lane", .width = 4, .base = 0x100000000 }, "--base", 0,
	  "base 4294967296 is beyond the 32-bit shared window" },
	{ { .index = "lane", .width = 3 }, "--width", 0,
	  "width 3 is not 1, 2, 4, 8 or 16 bytes" },
	{ { .index = "lane", .width = 0 }, "--width", 0,
	  "width 0 is not 1, 2, 4, 8 or 16 bytes" },
	{ { .index = "lane", .width = 4, .warp = -1 }, "--warp", 0,
	  "warp -1 is outside 0..288230376151711743" },
	{ { .index = "lane +* 2", .width = 4 }, "--expr", 7,
	  "expected an operand (number, lane, warp, tid or '('), found '*'" },
	{ { .index = "", .width = 4 }, "--expr", 1, "empty expression" },
	{ { .index = NULL, .width = 4 }, "--expr", 1, "empty expression" },
	{ { .index = "lane", .active = "lane <", .width = 4 }, "--active", 7,
	  "expected an operand (number, lane, warp, tid or '(') at the end "
	  "of the expression" },
	{ { .index = "lane", .active = "1 / (lane - 7)", .width = 4 },
	  "--active", 3, "division by zero (lane 7)" },
	{ { .index = "1/(tid-33) + 1", .width = 4, .warp = 1 }, "--expr", 2,
	  "division by zero (lane 1, warp 1)" },
};

START_TEST(test_access_error)
{
	const access_error_row *r = &access_errors[_i];
	bs_access a;
	bs_error err = { .text = "" };

	ck_assert_int_eq(bs_access_from_expr(&r->spec, &a, &err), -1);
	tu_error_is(&err, r->source, 0, r->column, r->msg);
}
END_TEST

START_TEST(test_access_long_name)
{
	char name[BS_NAME_MAX + 1];
	bs_expr_spec s = { .name = name, .index = "lane", .width = 4 };
	bs_access a;
	bs_error err;

	memset(name, 'n', BS_NAME_MAX);
	name[BS_NAME_MAX] = '\0';
	ck_assert_int_eq(bs_access_from_expr(&s, &a, &err), -1);
	ck_assert_str_eq(err.source, "--name");
	ck_assert_str_eq(err.text, "access name longer than 63 bytes");
}
END_TEST

Suite *expr_suite(void)
{
	Suite *s = suite_create("expr");

	tu_add_tcase(s, "parse and evaluate", 0, (const tu_test[]){
		{ test_value, TU_ROWS(values) },
		{ test_parse_error, TU_ROWS(parse_errors) },
		{ test_eval_error, TU_ROWS(eval_errors) }, { test_nesting, 1 },
		{ test_length, 1 }, { test_null_text, 1 }, { test_reuse, 1 },
		{ NULL, 0 } });
	tu_add_tcase(s, "access", 0, (const tu_test[]){
		{ test_access_stride33, 1 }, { test_access_active, 1 },
		{ test_access_inactive_not_evaluated, 1 },
		{ test_access_tid, 1 }, { test_access_top_of_window, 1 },
		{ test_access_error, TU_ROWS(access_errors) },
		{ test_access_long_name, 1 }, { NULL, 0 } });
	return s;
}
