/*
 * check_web.c - the browser lab's entry point (web/lab.c, web/data.c),
 * built natively: what the page reads from its arrays, against the
 * library, and that no call writes past them (make check SANITIZE=1).
 * The page itself is tested in Chromium by tests/web_test.sh.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

/* check.h's old fail() macro would rename lab.c's fail() */
#undef fail
#include "../web/lab.c"
#include "../web/data.c"

static void put(int i, const char *s)
{
	size_t n = strlen(s);

	memcpy(web_buf(i, n), s, n);
}

/* The access in lab.c's key=value form, built: 0 or -1. */
static int build(const char *spec)
{
	put(0, spec);
	return web_build();
}

START_TEST(test_predict_arrays)
{
	const uint32_t *r = web_res(0);
	const double *d = web_num(0);
	bs_access a;
	bs_summary s;
	bs_error err;
	bs_expr_spec e = { .index = "lane*2", .width = 8,
			   .kind = BS_KIND_LD };

	ck_assert_int_eq(build("expr=lane*2\nkind=ld\nwidth=8"), 0);
	ck_assert_int_eq(web_predict(0, 0), 0);
	ck_assert_int_eq(bs_access_from_expr(&e, &a, &err), 0);
	ck_assert_int_eq(bs_predict(bs_arch_default(), &a, &s, &err), 0);
	/* 8-byte loads, stride 2: two phases of 16 lanes, 2-way each */
	ck_assert_uint_eq(r[WR_OK], 1);
	ck_assert_uint_eq(r[WR_WAVEFRONTS], 4);
	ck_assert_uint_eq(r[WR_WAVEFRONTS], s.wavefronts);
	ck_assert_uint_eq(r[WR_IDEAL], 2);
	ck_assert_uint_eq(r[WR_CONFLICTS], 2);
	ck_assert_uint_eq(r[WR_PHASES], 2);
	ck_assert_uint_eq(r[WR_NPHASES], 2);
	ck_assert_uint_eq(r[WR_ADDR + 3], 48);
	ck_assert_uint_eq(r[WR_PHASE + 7 + 0], 0xffff0000u);
	ck_assert_uint_eq(r[WR_PIPE_CLOCKS], 4);
	ck_assert(fabs(d[WD_LATENCY] - 40.0) < 1e-9);
	ck_assert_str_eq(web_str(WS_PROFILE), "sm_90");
	/* the textbook picture of the same access: one phase of 32 */
	ck_assert_int_eq(web_predict(2, 1), 0);
	ck_assert_uint_eq(web_res(2)[WR_PHASES], 1);
	ck_assert_uint_eq(web_res(2)[WR_WAVEFRONTS], 4);
}
END_TEST

START_TEST(test_errors_name_the_field)
{
	ck_assert_int_eq(build("expr=lane*\nkind=ld"), -1);
	ck_assert_str_eq(web_str(WS_ERROR), "--expr: column 6: expected an "
			 "operand (number, lane, warp, tid or '(') at the end "
			 "of the expression");
	/* no access is left for a prediction to show */
	ck_assert_int_eq(web_predict(0, 0), -1);
	ck_assert_uint_eq(web_res(0)[WR_OK], 0);
	ck_assert_int_eq(build("addrs=0 4 8 x"), -1);
	ck_assert_str_eq(web_str(WS_ERROR), "--addrs: column 7: lane 3: 'x' "
			 "is not an address (decimal, 0x hex, or - for "
			 "inactive)");
	ck_assert_int_eq(build("width=3\nexpr=lane"), -1);
	ck_assert_str_eq(web_str(WS_ERROR),
			 "option --width: 3 is not 1, 2, 4, 8 or 16");
	ck_assert_int_eq(build("expr=lane\ntile=32x32"), -1);
	ck_assert_int_eq(build("bogus"), -1);
	ck_assert_str_eq(web_str(WS_ERROR), "access: 'bogus' is not key=value");
}
END_TEST

START_TEST(test_fix)
{
	ck_assert_int_eq(build("tile=32x32"), 0);
	ck_assert_int_eq(web_fix(1, 0), 1);
	ck_assert_str_eq(web_str(WS_FIX_LABEL), "pad rows by 1 float");
	ck_assert_uint_eq(web_res(1)[WR_WAVEFRONTS], 1);
	ck_assert_int_eq(build("expr=lane"), 0);
	ck_assert_int_eq(web_fix(1, 0), 0);
	ck_assert_str_eq(web_str(WS_FIX_SUMMARY),
			 "no fix needed: 1 wavefronts = ideal");
}
END_TEST

/*
 * Another CTA's shared memory: the sectors it moves and the fewest that
 * hold its bytes, for the numbers table.  A 32x33 tile's column puts each
 * lane in a line of its own (32 sectors); its 128 bytes fit in 4.  The
 * sectors are numbered from address 0, as the lanes' table shows them.
 */
START_TEST(test_remote_sectors)
{
	const uint32_t *r = web_res(0);

	ck_assert_int_eq(build("kind=dsmem.ld\nwidth=4\ntile=32x32\npad=1"), 0);
	ck_assert_int_eq(web_predict(0, 0), 0);
	ck_assert_uint_eq(r[WR_REMOTE], 1);
	ck_assert_uint_eq(r[WR_SECTORS], 32);
	ck_assert_uint_eq(r[WR_MIN_SECTORS], 4);
	ck_assert_uint_eq(r[WR_WAVEFRONTS], 8);
	ck_assert_uint_eq(r[WR_IDEAL], 8);
	/* lane 8 reads byte 8 x 132 = 1056: sector 33 */
	ck_assert_uint_eq(r[WR_CELL + 5 * 8 + 3], 33);
	ck_assert_uint_eq(r[WR_CELL + 5 * 8 + 4], 1u << 8);
	ck_assert_int_eq(build("kind=dsmem.ld\nwidth=4\nexpr=lane"), 0);
	ck_assert_int_eq(web_predict(0, 0), 0);
	ck_assert_uint_eq(r[WR_SECTORS], 4);
	ck_assert_uint_eq(r[WR_MIN_SECTORS], 4);
	/* a bank kind has none */
	ck_assert_int_eq(build("kind=ld\nwidth=4\nexpr=lane"), 0);
	ck_assert_int_eq(web_predict(0, 0), 0);
	ck_assert_uint_eq(r[WR_MIN_SECTORS], 0);
}
END_TEST

/*
 * The tile drawn element by element: where each element lies, as
 * bs_tile_access places the lanes that read it.
 */
START_TEST(test_tile_elements)
{
	const uint32_t *t = web_tile_addr();
	bs_access a;
	bs_error err;
	bs_tile_spec mma = { .rows = 64, .cols = 64, .elem = 2, .width = 16,
			     .dir = BS_MAT_MMA, .swizzle = BS_SWIZZLE_TMA128 };

	ck_assert_int_eq(build("tile=32x32\npad=1"), 0);
	ck_assert_uint_eq(web_tile_shape(0), 32);
	ck_assert_uint_eq(web_tile_shape(1), 32);
	ck_assert_uint_eq(web_tile_shape(2), 1);
	ck_assert_uint_eq(web_tile_shape(3), 4);
	/* all 33 columns, the padding's too: row r starts at 132 r */
	ck_assert_int_eq(web_tile(0, 32, 0, 33), 32 * 33);
	ck_assert_uint_eq(t[0], 0);
	ck_assert_uint_eq(t[32], 128);           /* the padding of row 0 */
	ck_assert_uint_eq(t[33 * 5 + 7], 5 * 132 + 7 * 4);
	ck_assert_int_eq(web_tile(0, 33, 0, 33), -1);      /* past the rows */
	ck_assert_int_eq(web_tile(0, 1, 0, 34), -1);       /* and columns */
	/* XOR: column c of row r at c ^ r */
	ck_assert_int_eq(build("tile=32x32\nswizzle=xor"), 0);
	ck_assert_int_eq(web_tile(3, 2, 0, 32), 64);
	ck_assert_uint_eq(t[1], 3 * 128 + (1 ^ 3) * 4);
	ck_assert_uint_eq(t[32 + 6], 4 * 128 + (6 ^ 4) * 4);
	/* TMA 128B over 2-byte elements: element (1, 0), byte 128, at 144 */
	ck_assert_int_eq(build("kind=ldsm.x4\nwidth=16\ntile=64x64\nelem=2"
			       "\naccess=mma\nswizzle=tma128"), 0);
	ck_assert_int_eq(web_tile(0, 64, 0, 64), 4096);
	ck_assert_uint_eq(t[64], 144);
	/* lane 1 reads row 1's first 16 bytes: those elements' addresses */
	ck_assert_int_eq(bs_kind_find("ldsm.x4", &mma.kind), 0);
	ck_assert_int_eq(bs_tile_access(&mma, &a, &err), 0);
	ck_assert_uint_eq(a.addr[1], t[64]);
	ck_assert_uint_eq(a.addr[9], t[9 * 64]);
	ck_assert_uint_eq(a.addr[17], t[64 + 8]);
	/* not a tile: nothing */
	ck_assert_int_eq(build("expr=lane"), 0);
	ck_assert_uint_eq(web_tile_shape(3), 0);
	ck_assert_int_eq(web_tile(0, 1, 0, 1), -1);
}
END_TEST

/* A dataset row's nine numbers fit web_num(3): nothing past it written
   (under SANITIZE=1 an overflow of the last slot stops the test). */
START_TEST(test_dataset_rows)
{
	size_t len;
	char *text = tu_slurp("data/h200/all-20261124-153809.csv", &len);
	const char *name;
	const double *v = web_num(3);

	ck_assert_ptr_nonnull(text);
	put(1, "h200.csv");
	memcpy(web_buf(0, len), text, len);
	free(text);
	ck_assert_int_eq(web_dataset(1, len), 3889);
	web_data_sum(1);
	ck_assert_uint_eq(web_res(2)[1], 3889);      /* agree */
	ck_assert_uint_eq(web_res(2)[2], 0);         /* disagree */
	ck_assert_str_eq(web_data_profile(1), "sm_90");
	name = web_data_row(1, 5);
	ck_assert_str_eq(name, "u8_ld_s5");
	ck_assert_str_eq(web_data_probe(1, 5), "stride");
	ck_assert_uint_eq(web_res(3)[0], 34);        /* its line */
	ck_assert(v[0] == 2 && v[2] == 2 && v[3] == 1);
	ck_assert_ptr_null(web_data_row(1, 3889));
}
END_TEST

START_TEST(test_dataset_bad_line)
{
	const char *csv = "probe,name,width,op,addresses\n"
			  "stride,a,4,ld,0 4 8 12 16 20 24 28 32 36 40 44 48 "
			  "52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 "
			  "112 116 120 124\n"
			  "stride,b,x,ld,0\n";

	put(1, "bad.csv");
	put(0, csv);
	ck_assert_int_eq(web_dataset(0, strlen(csv)), -1);
	ck_assert_str_eq(web_data_error(), "bad.csv:3:10: column 'width': 'x' "
			 "is not 1, 2, 4, 8 or 16 bytes");
	/* the slot is emptied, not left with an older dataset */
	ck_assert_ptr_null(web_data_row(0, 0));
}
END_TEST

START_TEST(test_profile_file)
{
	put(1, "p.profile");
	put(0, "profile x\nbanks 33\n");
	ck_assert_int_eq(web_profile(), -1);
	ck_assert_str_eq(web_str(WS_ERROR), "p.profile:2:7: banks: 33 is not "
			 "a power of two from 2 to 64");
	/* an arch file that failed is not used: arch 2 is sm_90 */
	ck_assert_int_eq(build("expr=lane"), 0);
	ck_assert_int_eq(web_predict(0, 2), 0);
	ck_assert_str_eq(web_str(WS_PROFILE), "sm_90");
}
END_TEST

Suite *web_suite(void)
{
	return tu_suite("web", "web", 0, (const tu_test[]){
		{ test_predict_arrays, 1 }, { test_errors_name_the_field, 1 },
		{ test_fix, 1 }, { test_dataset_rows, 1 },
		{ test_dataset_bad_line, 1 }, { test_profile_file, 1 },
		{ test_remote_sectors, 1 }, { test_tile_elements, 1 },
		{ NULL, 0 } });
}
