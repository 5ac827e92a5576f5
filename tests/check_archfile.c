/*
 * check_archfile.c - access kinds and architectures as data: the kinds
 * table and SASS opcodes, arch files read and written, the built-in
 * architectures, and rules beyond sm_90's (serial words, ideal by
 * lanes, kinds with fewer address lanes), each worked by hand.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

/* ---- kinds ----------------------------------------------------------- */

START_TEST(test_kind_rows)
{
	bs_kind k;

	/* ld and st keep rows 0 and 1: every older file reads the same */
	ck_assert_int_eq(bs_kind_find("ld", &k), 0);
	ck_assert_uint_eq(k, BS_KIND_LD);
	ck_assert_int_eq(bs_kind_find("load", &k), 0);
	ck_assert_uint_eq(k, BS_KIND_LD);
	ck_assert_int_eq(bs_kind_find("store", &k), 0);
	ck_assert_uint_eq(k, BS_KIND_ST);
	ck_assert_int_eq(bs_kind_find("LD", &k), -1);
	ck_assert_int_eq(bs_kind_find("", &k), -1);
	/* every row is found by its own name, and its widths are allowed */
	for (unsigned i = 0; i < bs_kind_count(); i++) {
		const bs_kind_info *ki = bs_kind_get((bs_kind)i);

		ck_assert_int_eq(bs_kind_find(ki->name, &k), 0);
		ck_assert_uint_eq(k, i);
		ck_assert_uint_ne(ki->widths, 0);
		ck_assert_uint_ne(ki->addr_lanes, 0);
		ck_assert_str_eq(bs_kind_name((bs_kind)i), ki->name);
	}
	ck_assert_ptr_null(bs_kind_get((bs_kind)bs_kind_count()));
	ck_assert_str_eq(bs_kind_name(BS_KIND_NONE), "?");
	ck_assert_int_eq(bs_kind_find("ldsm.x1", &k), 0);
	ck_assert_uint_eq(bs_kind_get(k)->addr_lanes, 0xffu);
	ck_assert(bs_kind_allows_width(k, 16));
	ck_assert(!bs_kind_allows_width(k, 4));
	ck_assert_int_eq(bs_kind_find("atom.add.u64", &k), 0);
	ck_assert(bs_kind_allows_width(k, 8));
	ck_assert(!bs_kind_allows_width(k, 4));
}
END_TEST

START_TEST(test_kind_width_text)
{
	char buf[32];
	bs_kind k;
	bs_error err;

	bs_kind_widths_text(BS_KIND_LD, buf, sizeof buf);
	ck_assert_str_eq(buf, "1, 2, 4, 8 or 16");
	ck_assert_int_eq(bs_kind_find("cp.async.ca", &k), 0);
	bs_kind_widths_text(k, buf, sizeof buf);
	ck_assert_str_eq(buf, "4, 8 or 16");
	ck_assert_int_eq(bs_kind_find("ldsm.x4", &k), 0);
	bs_kind_widths_text(k, buf, sizeof buf);
	ck_assert_str_eq(buf, "16");
	ck_assert_int_eq(bs_kind_check_width(k, 4, "--width", &err), -1);
	ck_assert_str_eq(err.text, "ldsm.x4 takes a width of 16 bytes, not 4");
	ck_assert_int_eq(bs_kind_check_width(BS_KIND_LD, 3, "x", &err), -1);
	ck_assert_str_eq(err.text, "width 3 is not 1, 2, 4, 8 or 16 bytes");
	ck_assert_int_eq(bs_kind_check_width(BS_KIND_ST, 16, "x", &err), 0);
}
END_TEST

/* SASS text to kind and width: the one parser of opcodes. */
static const struct {
	const char *sass;
	int shared;
	const char *kind;        /* NULL: a shared opcode of no kind */
	unsigned width;
} sass_rows[] = {
	{ "LDS R3, [R2]", 1, "ld", 4 },
	{ "LDS.U8 R3, [R2+0x4]", 1, "ld", 1 },
	{ "LDS.S16 R3, [R2]", 1, "ld", 2 },
	{ "@!P0 LDS.128 R4, [R2]", 1, "ld", 16 },
	{ "@P1 STS.64 [R2], R4", 1, "st", 8 },
	{ "STS.U16 [R2], R4", 1, "st", 2 },
	{ "LDSM.16.M88.4 R4, [R2]", 1, "ldsm.x4", 16 },
	{ "LDSM.16.M88 R4, [R2]", 1, "ldsm.x1", 16 },
	{ "LDSM.16.MT88.2 R4, [R2]", 1, "ldsm.x2.t", 16 },
	{ "STSM.16.M88.4 [R2], R4", 1, "stsm.x4", 16 },
	{ "ATOMS.ADD RZ, [R2], R3", 1, "atom.add.u32", 4 },
	{ "ATOMS.EXCH R5, [R2], R3", 1, "atom.exch.b32", 4 },
	{ "ATOMS.CAST.SPIN.64 P0, [R2], R4, R6", 1, "atom.add.u64", 8 },
	{ "ATOMS.CAST.SPIN P0, [R2], R4, R6", 1, "atom.add.f32", 4 },
	{ "ATOMS.POPC.INC.32 RZ, [R2]", 1, "red.add1.u32", 4 },
	{ "ATOMS.POPC.INC RZ, [R2]", 1, NULL, 4 },
	{ "ATOMS.ADD.64 RZ, [R2], R4", 1, NULL, 8 },
	{ "LDGSTS.E [R2], desc[UR4][R4.64]", 1, "cp.async.ca", 4 },
	{ "LDGSTS.E.64 [R2], [R4.64]", 1, "cp.async.ca", 8 },
	{ "LDGSTS.E.LTC128B.128 [R2], [R4.64]", 1, "cp.async.ca", 16 },
	{ "LDGSTS.E.BYPASS.128 [R2], [R4.64]", 1, "cp.async.cg", 16 },
	{ "LDG.E R2, [R4.64]", 0, NULL, 0 },
	{ "LDSX R2, [R4]", 0, NULL, 0 },
	{ "", 0, NULL, 0 },
};

START_TEST(test_sass_kind)
{
	bs_kind k = 99;
	unsigned w = 99;
	int rc = bs_sass_kind(sass_rows[_i].sass, &k, &w);

	ck_assert_msg(rc == sass_rows[_i].shared, "%s: %d",
		      sass_rows[_i].sass, rc);
	if (!rc)
		return;
	ck_assert_msg(w == sass_rows[_i].width, "%s: width %u",
		      sass_rows[_i].sass, w);
	if (sass_rows[_i].kind)
		ck_assert_str_eq(bs_kind_name(k), sass_rows[_i].kind);
	else
		ck_assert_uint_eq(k, BS_KIND_NONE);
	ck_assert_int_eq(bs_sass_kind(sass_rows[_i].sass, NULL, NULL), 1);
}
END_TEST

/* ---- built-in architectures -------------------------------------------- */

START_TEST(test_builtins)
{
	const bs_arch *const *all = bs_archs();
	const bs_arch *p = bs_arch_default();
	const bs_rule *r;
	bs_kind k;

	ck_assert_ptr_nonnull(all[0]);
	ck_assert_ptr_nonnull(all[1]);
	ck_assert_ptr_null(all[2]);
	ck_assert_str_eq(p->name, "sm_90");
	ck_assert_ptr_eq(bs_arch_for_cc("9.0"), p);
	ck_assert_ptr_null(bs_arch_for_cc("8.9"));
	ck_assert_ptr_null(bs_arch_for_cc("9"));
	ck_assert_ptr_null(bs_arch_for_cc(""));
	ck_assert_ptr_eq(bs_arch_find("textbook"), all[1]);
	ck_assert_uint_eq(p->nrules, 46);
	r = bs_arch_rule(p, BS_KIND_LD, 8);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->phase_lanes, 16);
	ck_assert_uint_eq(r->packed_lanes, 32);
	ck_assert_uint_eq(r->pack_partners, (1u << 1) | (1u << 2));
	ck_assert(r->lat_base == 32 && r->lat_packed == 31 &&
		  r->lat_slope == 2);
	ck_assert_str_eq(p->source[r->source].tag, "h100");
	r = bs_arch_rule(p, BS_KIND_ST, 16);
	ck_assert_uint_eq(r->phase_lanes, 8);
	ck_assert_uint_eq(r->packed_lanes, 0);
	ck_assert(isnan(r->lat_base));
	ck_assert_ptr_null(bs_arch_rule(p, BS_KIND_LD, 3));
	/* measured: ldmatrix, one phase a matrix, the source of its own */
	ck_assert_int_eq(bs_kind_find("ldsm.x4", &k), 0);
	r = bs_arch_rule(p, k, 16);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->phase_lanes, 8);
	ck_assert(r->lat_base == 31 && r->lat_slope == 2);
	ck_assert_str_eq(p->source[r->source].tag, "h100");
	/* the float atomicAdd: a retry loop, CAS two wavefronts a phase,
	   no latency line (its cycles follow its passes) */
	ck_assert_int_eq(bs_kind_find("atom.add.f32", &k), 0);
	r = bs_arch_rule(p, k, 4);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->loop, BS_LOOP_CAS);
	ck_assert_uint_eq(r->phase_lanes, 32);
	ck_assert_uint_eq(r->slot_waves, 2);
	ck_assert(isnan(r->lat_base));
	/* the 8-byte loop: phases of 16 lanes; cp.async.cg by lines */
	ck_assert_int_eq(bs_kind_find("atom.add.u64", &k), 0);
	r = bs_arch_rule(p, k, 8);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->loop, BS_LOOP_CAS);
	ck_assert_uint_eq(r->phase_lanes, 16);
	ck_assert_uint_eq(r->slot_waves, 2);
	ck_assert_int_eq(bs_kind_find("cp.async.cg", &k), 0);
	r = bs_arch_rule(p, k, 16);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->copy, BS_COPY_LINES);
	ck_assert_uint_eq(r->loop, BS_LOOP_NONE);
}
END_TEST

/* Written and read back, every built-in is the same architecture. */
START_TEST(test_round_trip)
{
	const bs_arch *p = bs_archs()[_i];
	static bs_arch back;
	char *text = NULL, *again = NULL;
	size_t len, len2;
	bs_error err;
	FILE *f = open_memstream(&text, &len);

	ck_assert_int_eq(bs_arch_write(f, p), 0);
	fclose(f);
	ck_assert_msg(bs_arch_parse(text, "mem", &back, &err) == 0, "%s",
		      err.text);
	ck_assert_str_eq(back.name, p->name);
	ck_assert_str_eq(back.description, p->description);
	ck_assert_str_eq(back.compute_capability, p->compute_capability);
	ck_assert_uint_eq(back.nrules, p->nrules);
	f = open_memstream(&again, &len2);
	bs_arch_write(f, &back);
	fclose(f);
	ck_assert_str_eq(again, text);
	free(text);
	free(again);
}
END_TEST

/* ---- malformed arch files (the old spelling 'profile NAME') ----------- */

#define HEAD "profile p\nbanks 32\nbank_bytes 4\nsource s a test\n"

static const struct {
	const char *what;
	const char *text;
	long line, column;
	const char *expect;
} bad[] = {
	{ "unknown statement", HEAD "bank 4\n", 5, 1,
	  "unknown statement 'bank'" },
	{ "no profile line", "banks 32\nbank_bytes 4\n", 0, 0,
	  "no 'arch NAME' line" },
	{ "no banks", "profile p\nbank_bytes 4\n", 0, 0, "no 'banks N' line" },
	{ "banks not a power of two", "profile p\nbanks 24\n", 2, 7,
	  "banks: 24 is not a power of two" },
	{ "banks too many", "profile p\nbanks 128\n", 2, 7,
	  "banks: '128' is not a whole number from 2 to 64" },
	{ "banks 1", "profile p\nbanks 1\n", 2, 7,
	  "banks: '1' is not a whole number from 2 to 64" },
	{ "banks in hex", "profile p\nbanks 0x20\n", 2, 7,
	  "banks: '0x20' is not a whole number from 2 to 64" },
	{ "bank_bytes 3", "profile p\nbanks 32\nbank_bytes 3\n", 3, 12,
	  "bank_bytes: 3 is not 1, 2, 4, 8 or 16" },
	{ "two values", "profile p\nbanks 32 64\n", 2, 10,
	  "one value after 'banks'" },
	{ "profile twice", "profile p\nprofile q\n", 2, 1,
	  "profile given twice (first on line 1)" },
	{ "bad name", "profile p/q\n", 1, 10,
	  "an architecture name takes letters" },
	{ "bad compute capability", "profile p\ncompute_capability 9\n", 2,
	  20, "'9' is not a compute capability" },
	{ "unknown kind", HEAD "rule ldx 4 phase=32 source=s\n", 5, 6,
	  "unknown kind 'ldx'" },
	{ "width the kind lacks", HEAD "rule ldsm.x4 4 phase=8 source=s\n", 5,
	  14, "ldsm.x4 takes a width of 16 bytes, not 4" },
	{ "no phase", HEAD "rule ld 4 source=s\n", 5, 9,
	  "rule ld 4 needs phase=LANES" },
	{ "no source", HEAD "rule ld 4 phase=32\n", 5, 9,
	  "rule ld 4 needs source=TAG" },
	{ "undeclared source", HEAD "rule ld 4 phase=32 source=x\n", 5, 27,
	  "source 'x' is not declared" },
	{ "phase 3", HEAD "rule ld 4 phase=3 source=s\n", 5, 17,
	  "phase: 3 is not 1, 2, 4, 8, 16 or 32 lanes" },
	{ "packed without partners", HEAD
	  "rule ld 8 phase=16 packed=32 source=s\n", 5, 20,
	  "packed= and partners= go together" },
	{ "packed not wider", HEAD
	  "rule ld 8 phase=16 packed=16 partners=1 source=s\n", 5, 20,
	  "packed=16 is not wider than phase=16" },
	{ "partner 0", HEAD
	  "rule ld 8 phase=16 packed=32 partners=0 source=s\n", 5, 39,
	  "partners: '0' is not a whole number from 1 to 31" },
	{ "partner twice", HEAD
	  "rule ld 8 phase=16 packed=32 partners=1,1 source=s\n", 5, 41,
	  "partners: 1 given twice" },
	{ "trailing comma", HEAD
	  "rule ld 8 phase=16 packed=32 partners=1, source=s\n", 5, 41,
	  "partners: a number after ','" },
	{ "unknown key", HEAD "rule ld 4 phase=32 speed=9 source=s\n", 5, 20,
	  "unknown key 'speed' (phase, packed, partners, same_word, ideal, "
	  "slot_waves, loop, copy, remote, lat_base, lat_packed, lat_slope, "
	  "tp, source)" },
	{ "remote on a bank kind", HEAD "rule ld 4 remote=sectors source=s\n",
	  5, 18, "remote= is for the distributed shared memory kinds "
	  "(dsmem.*): ld is not one" },
	{ "dsmem without remote", HEAD "rule dsmem.ld 4 phase=32 source=s\n",
	  5, 15, "rule dsmem.ld 4 needs remote=sectors, rmw or writes" },
	{ "bank key with remote", HEAD "rule dsmem.ld 4 remote=sectors "
	  "phase=32 source=s\n", 5, 32, "phase= does not apply with "
	  "remote=" },
	{ "remote word", HEAD "rule dsmem.st 4 remote=banks source=s\n", 5,
	  24, "remote is sectors, rmw or writes" },
	{ "remote latency half", HEAD "rule dsmem.ld 4 remote=sectors "
	  "lat_base=200 source=s\n", 5, 32,
	  "lat_base= and lat_slope= go together" },
	{ "phase in hex", HEAD "rule ld 4 phase=0x20 source=s\n", 5, 17,
	  "phase: '0x20' is not a whole number from 1 to 32" },
	{ "key without '='", HEAD "rule ld 4 phase=32 fast source=s\n", 5, 20,
	  "expected KEY=VALUE, not 'fast'" },
	{ "key twice", HEAD "rule ld 4 phase=32 phase=16 source=s\n", 5, 20,
	  "phase given twice" },
	{ "same_word junk", HEAD "rule ld 4 phase=32 same_word=x source=s\n",
	  5, 30, "same_word is share or serial" },
	{ "negative latency", HEAD
	  "rule ld 4 phase=32 lat_base=-1 lat_slope=2 source=s\n", 5, 29,
	  "lat_base: '-1' is not a number from 0 to 1e9" },
	{ "negative zero latency", HEAD
	  "rule ld 4 phase=32 lat_base=-0 lat_slope=2 source=s\n", 5, 29,
	  "lat_base: '-0' is not a number from 0 to 1e9" },
	{ "hex float latency", HEAD
	  "rule ld 4 phase=32 lat_base=0x1p4 lat_slope=2 source=s\n", 5, 29,
	  "lat_base: '0x1p4' is not a number from 0 to 1e9" },
	{ "infinite latency", HEAD
	  "rule ld 4 phase=32 lat_base=inf lat_slope=2 source=s\n", 5, 29,
	  "lat_base: 'inf' is not a number from 0 to 1e9" },
	{ "latency above 1e9", HEAD
	  "rule ld 4 phase=32 lat_base=2e9 lat_slope=2 source=s\n", 5, 29,
	  "lat_base: '2e9' is not a number from 0 to 1e9" },
	{ "nan latency", HEAD
	  "rule ld 4 phase=32 lat_base=nan lat_slope=2 source=s\n", 5, 29,
	  "lat_base: 'nan' is not a number" },
	{ "base without slope", HEAD "rule ld 4 phase=32 lat_base=3 source=s\n",
	  5, 20, "lat_base= and lat_slope= go together" },
	{ "lat_packed without packing", HEAD
	  "rule ld 4 phase=32 lat_base=3 lat_packed=2 lat_slope=2 "
	  "source=s\n", 5, 31, "lat_packed= needs packed=" },
	{ "a second rule", HEAD "rule ld 4 phase=32 source=s\n"
	  "rule ld 4 phase=16 source=s\n", 6, 6, "a second rule for ld 4" },
	{ "source twice", HEAD "source s again\n", 5, 8,
	  "source 's' declared twice" },
	{ "wider than the banks", "profile p\nbanks 2\nbank_bytes 4\n"
	  "source s x\nrule ld 16 phase=32 source=s\n", 5, 0,
	  "a 16-byte access is wider than the 8 bytes all banks deliver" },
	{ "description empty", "profile p\ndescription   \n", 2, 15,
	  "description needs a value" },
	{ "slot_waves 0", HEAD "rule ld 4 phase=32 slot_waves=0 source=s\n", 5,
	  31, "slot_waves: '0' is not a whole number from 1 to 4" },
	{ "slot_waves 5", HEAD "rule ld 4 phase=32 slot_waves=5 source=s\n", 5,
	  31, "slot_waves: '5' is not a whole number from 1 to 4" },
	{ "loop junk", HEAD "rule ld 4 phase=32 source=s\n"
	  "rule atom.add.f32 4 phase=32 loop=yes source=s\n", 6, 35,
	  "loop is none or cas" },
	{ "loop on a load", HEAD "rule ld 4 phase=32 loop=cas source=s\n", 5,
	  25, "loop=cas is for atomics: ld is not one" },
	{ "loop without its loads", HEAD "rule ld 8 phase=16 source=s\n"
	  "rule atom.add.f32 4 phase=32 loop=cas source=s\n", 6, 0,
	  "rule atom.add.f32 4 has loop=cas, whose loads need a rule for "
	  "ld 4" },
	{ "loop that packs", HEAD "rule ld 8 phase=16 source=s\n"
	  "rule atom.add.u64 8 phase=16 packed=32 partners=1 loop=cas "
	  "source=s\n", 6, 30, "packed= does not apply with loop=cas" },
};

START_TEST(test_bad_profile)
{
	static bs_arch p;
	bs_error err;

	ck_assert_msg(bs_arch_parse(bad[_i].text, "t.profile", &p, &err) ==
		      -1, "%s: accepted", bad[_i].what);
	ck_assert_str_eq(err.source, "t.profile");
	ck_assert_msg(err.line == bad[_i].line && err.column == bad[_i].column,
		      "%s: at %ld:%ld, expected %ld:%ld (%s)", bad[_i].what,
		      err.line, err.column, bad[_i].line, bad[_i].column,
		      err.text);
	ck_assert_msg(strstr(err.text, bad[_i].expect), "%s: '%s' lacks '%s'",
		      bad[_i].what, err.text, bad[_i].expect);
	/* the stream reader gives the same error */
	{
		FILE *f = fmemopen((void *)bad[_i].text, strlen(bad[_i].text),
				   "r");
		bs_error e2;

		ck_assert_int_eq(bs_arch_read(f, "t.profile", &p, &e2), -1);
		fclose(f);
		ck_assert_str_eq(e2.text, err.text);
		ck_assert_int_eq(e2.line, err.line);
		ck_assert_int_eq(e2.column, err.column);
	}
}
END_TEST

/* The numbers datasets take, arch files take: any decimal strtod reads
 * that is finite, subnormals and long decimals too, and written back so
 * that they read the same. */
START_TEST(test_numbers)
{
	static bs_arch p, back;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	bs_error err;
	const bs_rule *r;

	ck_assert_msg(bs_arch_parse(HEAD "rule ld 4 phase=32 lat_base=1e-320 "
				       "lat_slope=0.1000000000000000000000000"
				       "00000000000000000001 tp=+128. "
				       "source=s\n", "t", &p, &err) == 0,
		      "%s", err.text);
	r = bs_arch_rule(&p, BS_KIND_LD, 4);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->lat_base == 1e-320);
	ck_assert(r->lat_slope == 0.1);
	ck_assert(r->tp_bytes_per_clk == 128);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(bs_arch_write(f, &p), 0);
	fclose(f);
	ck_assert_msg(bs_arch_parse(text, "again", &back, &err) == 0, "%s",
		      err.text);
	ck_assert(bs_arch_rule(&back, BS_KIND_LD, 4)->lat_base == 1e-320);
	free(text);
}
END_TEST

/* ---- rules beyond sm_90's ------------------------------------------------ */

static bs_access uniform(const char *kind, unsigned width, uint32_t addr)
{
	bs_access a = { .name = "a", .width = width, .active = ~0u };

	ck_assert_int_eq(bs_kind_find(kind, &a.kind), 0);
	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = addr;
	return a;
}

START_TEST(test_serial_words)
{
	const bs_arch *p = tu_arch(HEAD
		"rule atom.add.u32 4 phase=32 same_word=serial source=s\n"
		"rule ld 4 phase=32 source=s\n");
	bs_access a = uniform("atom.add.u32", 4, 64);
	bs_summary s;
	static bs_detail d;

	/* 32 lanes on one word: served one by one, 32 wavefronts */
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 32);
	ck_assert_uint_eq(s.ideal_wavefronts, 1);
	ck_assert_uint_eq(s.bank_conflicts, 31);
	ck_assert_int_eq(bs_predict_detail(p, &a, &d, NULL), 0);
	ck_assert_uint_eq(d.sum.wavefronts, 32);
	ck_assert_uint_eq(d.ncells, 32);
	ck_assert_uint_eq(d.cell[5].lanes, 1u << 5);
	/* the same request as a load shares the word: 1 */
	a.kind = BS_KIND_LD;
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 1);
	/* distinct words in distinct banks: 1 either way */
	a = uniform("atom.add.u32", 4, 0);
	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = 4 * l;
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 1);
}
END_TEST

/* A compare-and-swap reads and writes: two wavefronts a bank slot. */
START_TEST(test_slot_waves)
{
	const bs_arch *p = tu_arch(HEAD
		"rule atom.cas.b32 4 phase=32 same_word=serial slot_waves=2 "
		"source=s\n");
	bs_access a = uniform("atom.cas.b32", 4, 0);
	bs_summary s;
	static bs_detail d;

	/* 32 words in 32 banks: one slot, 2 wavefronts, ideal 2 */
	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = 4 * l;
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 2);
	ck_assert_uint_eq(s.ideal_wavefronts, 2);
	ck_assert_uint_eq(s.bank_conflicts, 0);
	/* one word: 32 slots, 64 wavefronts; 31 slots past the ideal */
	a = uniform("atom.cas.b32", 4, 0);
	ck_assert_int_eq(bs_predict_detail(p, &a, &d, NULL), 0);
	ck_assert_uint_eq(d.sum.wavefronts, 64);
	ck_assert_uint_eq(d.sum.ideal_wavefronts, 2);
	ck_assert_uint_eq(d.sum.bank_conflicts, 31);
	ck_assert_uint_eq(d.sum.max_way, 32);
	ck_assert_uint_eq(d.phase[0].slots, 32);
	ck_assert_uint_eq(d.phase[0].wavefronts, 64);
}
END_TEST

START_TEST(test_ideal_by_lanes)
{
	const bs_arch *p = tu_arch(HEAD
		"rule ld 8 phase=32 ideal=lanes source=s\n"
		"rule st 8 phase=32 source=s\n");
	bs_access a = uniform("ld", 8, 8);
	bs_summary s;

	/*
	 * One 8-byte word pair for all 32 lanes: 1 wavefront; ideal by
	 * lanes ceil(32 x 2 / 32) = 2, more than the wavefronts: no conflict
	 */
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 1);
	ck_assert_uint_eq(s.ideal_wavefronts, 2);
	ck_assert_uint_eq(s.bank_conflicts, 0);
	/* by words: ceil(2 / 32) = 1 */
	a.kind = BS_KIND_ST;
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.ideal_wavefronts, 1);
}
END_TEST

START_TEST(test_fewer_address_lanes)
{
	const bs_arch *p = tu_arch(HEAD
		"rule ldsm.x1 16 phase=8 source=s\n"
		"rule ldsm.x4 16 phase=8 source=s\n");
	bs_access a = uniform("ldsm.x4", 16, 0);
	bs_summary s;
	bs_error err;

	/* 32 rows of a 16-byte-pitch tile: 4 matrices, one wavefront each */
	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = 16 * l;
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 4);
	ck_assert_uint_eq(s.phases, 4);
	/* a 128-byte pitch: the 8 rows of a matrix in banks 0-3, 8-way */
	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = 128 * l;
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 32);
	/* x1: lanes 8-31 give no address; one lane past them is refused */
	ck_assert_int_eq(bs_kind_find("ldsm.x1", &a.kind), 0);
	a.active = 0xffu;
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 8);
	a.active = 0x1ffu;
	ck_assert_int_eq(bs_predict(p, &a, &s, &err), -1);
	ck_assert_str_eq(err.text, "lane 8: ldsm.x1 takes addresses from "
		     "lanes 0-7 only");
}
END_TEST

/*
 * The retry loop of atomicAdd on float and on 64-bit integers, pass by
 * pass.  The expected counts are what the H100 measured for these rows of
 * data/h100-sxm/all-20261124-153149.csv (atom_add_f32_s1, _s2, _s0, _s32,
 * atom_add_u64_s1, _s0, _s32: loads and compare-and-stores together, per
 * source operation), worked by hand below.
 */
static const bs_arch *loop_profile(void)
{
	return tu_arch(HEAD
		"rule ld 4 phase=32 source=s\n"
		"rule ld 8 phase=16 packed=32 partners=1,2 source=s\n"
		"rule atom.add.f32 4 phase=32 slot_waves=2 loop=cas source=s\n"
		"rule atom.add.u64 8 phase=16 slot_waves=2 loop=cas "
		"source=s\n");
}

static bs_access strided(const char *kind, unsigned width, unsigned stride)
{
	bs_access a = uniform(kind, width, 0);

	for (unsigned l = 0; l < BS_LANES; l++)
		a.addr[l] = l * stride * width;
	return a;
}

START_TEST(test_cas_loop)
{
	const bs_arch *p = loop_profile();
	static bs_detail d;
	bs_summary s;
	bs_access a;

	/* every lane its own bank: one pass, LDS 1 + CAS 2 = the ideal */
	a = strided("atom.add.f32", 4, 1);
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.passes, 1);
	ck_assert_uint_eq(s.wavefronts, 3);
	ck_assert_uint_eq(s.ideal_wavefronts, 3);
	ck_assert_uint_eq(s.bank_conflicts, 0);
	ck_assert(isnan(s.latency_cycles));
	/*
	 * Stride 2: lanes l and l + 16 share a bank.  Pass 1 loads 2-way (2)
	 * and lanes 0-15 win their banks; pass 2 loads lanes 16-31 (1).
	 * 3 + 2 x 2 = 7.
	 */
	a = strided("atom.add.f32", 4, 2);
	ck_assert_int_eq(bs_predict_detail(p, &a, &d, NULL), 0);
	ck_assert_uint_eq(d.sum.passes, 2);
	ck_assert_uint_eq(d.sum.load_wavefronts, 3);
	ck_assert_uint_eq(d.sum.cas_wavefronts, 4);
	ck_assert_uint_eq(d.sum.wavefronts, 7);
	ck_assert_uint_eq(d.sum.bank_conflicts, 4);
	ck_assert_uint_eq(d.npasses, 2);
	ck_assert_uint_eq(d.pass[0].pending, UINT32_MAX);
	ck_assert_uint_eq(d.pass[0].done, 0x0000ffffu);
	ck_assert_uint_eq(d.pass[0].load_wavefronts, 2);
	ck_assert_uint_eq(d.pass[1].pending, 0xffff0000u);
	ck_assert_uint_eq(d.pass[1].done, 0xffff0000u);
	ck_assert_uint_eq(d.pass[1].load_wavefronts, 1);
	/* the load map is the first pass's: 2-way in phase 0 */
	ck_assert_uint_eq(d.nphases, 1);
	ck_assert_uint_eq(d.phase[0].slots, 2);
	/* one word: a lane a pass, each loading the one word: 32 + 64 */
	a = strided("atom.add.f32", 4, 0);
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.passes, 32);
	ck_assert_uint_eq(s.wavefronts, 96);
	/* 32 words in bank 0: a lane a pass too, and pass k loads 33 - k
	   words of one bank: 528 + 64 */
	a = strided("atom.add.f32", 4, 32);
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.passes, 32);
	ck_assert_uint_eq(s.load_wavefronts, 528);
	ck_assert_uint_eq(s.wavefronts, 592);
	ck_assert_uint_eq(s.max_way, 32);
	/* half a warp on one word: 16 passes */
	a = strided("atom.add.f32", 4, 0);
	a.active = 0xffffu;
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.passes, 16);
	ck_assert_uint_eq(s.wavefronts, 16 + 32);

	/* 8 bytes, phases of 16 lanes: one pass, LDS 2 + CAS 2 x 2 */
	a = strided("atom.add.u64", 8, 1);
	ck_assert_int_eq(bs_predict(p, &a, &s, NULL), 0);
	ck_assert_uint_eq(s.wavefronts, 6);
	ck_assert_uint_eq(s.phases, 2);
	/*
	 * One word: in pass 1 lane 0 stores, and lane 16, first of phase 1,
	 * fails because phase 0 stored to its word.  16 passes with both
	 * phases trying (4 wavefronts), 16 with phase 1 alone (2); every
	 * pass loads one (packed) word: 32 + 96.
	 */
	a = strided("atom.add.u64", 8, 0);
	ck_assert_int_eq(bs_predict_detail(p, &a, &d, NULL), 0);
	ck_assert_uint_eq(d.pass[0].done, 1u);
	ck_assert_uint_eq(d.pass[0].cas_phases, 2);
	ck_assert_uint_eq(d.pass[16].pending, 0xffff0000u);
	ck_assert_uint_eq(d.pass[16].cas_phases, 1);
	ck_assert_uint_eq(d.sum.passes, 32);
	ck_assert_uint_eq(d.sum.load_wavefronts, 32);
	ck_assert_uint_eq(d.sum.wavefronts, 128);
	/* 32 words in banks 0-1: a lane of each phase a pass, 16 passes,
	   loads 2 x (16 + 15 + ... + 1) = 272, CAS 16 x 4 */
	a = strided("atom.add.u64", 8, 32);
	ck_assert_int_eq(bs_predict_detail(p, &a, &d, NULL), 0);
	ck_assert_uint_eq(d.pass[0].done, 0x00010001u);
	ck_assert_uint_eq(d.sum.passes, 16);
	ck_assert_uint_eq(d.sum.wavefronts, 336);
}
END_TEST

/* A loop rule set without its ld rule (not through a file): an error. */
START_TEST(test_cas_loop_no_loads)
{
	static bs_arch p;
	bs_access a = strided("atom.add.f32", 4, 1);
	bs_rule r = *bs_arch_rule(loop_profile(), a.kind, 4);
	bs_summary s;
	bs_error err;

	bs_arch_init(&p);
	snprintf(p.name, sizeof p.name, "bare");
	p.banks = 32;
	p.bank_bytes = 4;
	ck_assert_int_eq(bs_arch_set_rule(&p, &r, NULL), 0);
	ck_assert_int_eq(bs_predict(&p, &a, &s, &err), -1);
	ck_assert_str_eq(err.text, "arch bare models 4-byte atom.add.f32 "
			 "as a loop of loads and compare-and-stores, and has "
			 "no rule for its loads (4-byte ld)");
}
END_TEST

/*
 * Banks of one byte: a 16-byte lane touches 16 bank words, a warp 512,
 * every one a cell of the bank map (BS_MAX_CELLS).  fuzz_arch found the
 * map overflowing here when it held 128.
 */
START_TEST(test_byte_banks)
{
	const bs_arch *p = tu_arch("profile p\nbanks 32\nbank_bytes 1\n"
				      "source s a test\n"
				      "rule ld 16 phase=32 source=s\n");
	bs_access a = strided("ld", 16, 1);
	static bs_detail d;

	ck_assert_int_eq(bs_predict_detail(p, &a, &d, NULL), 0);
	/* 512 bytes in 32 one-byte banks: 16 words each */
	ck_assert_uint_eq(d.ncells, 512);
	ck_assert_uint_eq(d.sum.wavefronts, 16);
	ck_assert_uint_eq(d.sum.ideal_wavefronts, 16);
	ck_assert_uint_eq(d.cell[511].lanes, 1u << 31);
}
END_TEST

START_TEST(test_not_modeled)
{
	bs_access a = uniform("cp.async.cg", 16, 0);
	bs_summary s;
	bs_error err;

	ck_assert_int_eq(bs_predict(bs_arch_find("textbook"), &a, &s,
				    &err), -1);
	ck_assert_str_eq(err.text, "arch textbook does not model 16-byte "
		     "cp.async.cg accesses (bankscope archs textbook lists "
		     "what it does)");
}
END_TEST

/* copy=lines: its key, where it applies, and what it needs. */
START_TEST(test_copy_lines_file)
{
	static const struct {
		const char *rule, *error;
	} wrong[] = {
		{ "rule cp.async.cg 16 phase=8 copy=rows source=s",
		  "t:6:34: copy is none, lines or words" },
		{ "rule ld 16 phase=8 copy=lines source=s",
		  "t:6:25: copy=lines is for 16-byte writes (cp.async.cg): "
		  "ld 16 is not one" },
		{ "rule cp.async.ca 8 phase=16 copy=lines source=s",
		  "t:6:34: copy=lines is for 16-byte writes (cp.async.cg): "
		  "cp.async.ca 8 is not one" },
		{ "rule cp.async.cg 16 phase=8 copy=lines same_word=serial "
		  "source=s", "t:6:29: copy=lines counts lines: packed=, "
		  "loop=, same_word=, slot_waves= and ideal= do not apply "
		  "with it" },
	};
	char text[1024];
	static bs_arch p;
	bs_error err;

	for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++) {
		snprintf(text, sizeof text, "profile t\nbanks 32\n"
			 "bank_bytes 4\nsource s a test\nrule ld 4 phase=32 "
			 "source=s\n%s\n", wrong[i].rule);
		ck_assert_int_eq(bs_arch_parse(text, "t", &p, &err), -1);
		snprintf(text, sizeof text, "%s:%ld:%ld: %s", err.source,
			 err.line, err.column, err.text);
		ck_assert_str_eq(text, wrong[i].error);
	}
	ck_assert_int_eq(bs_arch_parse("profile t\nbanks 16\nbank_bytes 4"
					  "\nsource s a test\nrule "
					  "cp.async.cg 16 phase=8 copy=lines "
					  "source=s\n", "t", &p, &err), -1);
	ck_assert_str_eq(err.text, "rule cp.async.cg 16 has copy=lines, "
			 "which needs 128-byte lines (banks x bank_bytes), "
			 "not 64");
	ck_assert_int_eq(bs_arch_parse("profile t\nbanks 32\nbank_bytes 4"
					  "\nsource s a test\nrule "
					  "cp.async.cg 16 phase=8 copy=lines "
					  "source=s\n", "t", &p, &err), 0);
	ck_assert_uint_eq(p.rule[0].copy, BS_COPY_LINES);
}
END_TEST

Suite *archfile_suite(void)
{
	Suite *s = suite_create("archfile");

	tu_add_tcase(s, "kinds", 0, (const tu_test[]){
		{ test_kind_rows, 1 }, { test_kind_width_text, 1 },
		{ test_sass_kind, TU_ROWS(sass_rows) }, { NULL, 0 } });
	tu_add_tcase(s, "profiles", 0, (const tu_test[]){
		{ test_builtins, 1 }, { test_round_trip, 2 },
		{ test_bad_profile, TU_ROWS(bad) }, { test_numbers, 1 },
		{ NULL, 0 } });
	tu_add_tcase(s, "rules", 0, (const tu_test[]){
		{ test_serial_words, 1 }, { test_ideal_by_lanes, 1 },
		{ test_slot_waves, 1 }, { test_fewer_address_lanes, 1 },
		{ test_cas_loop, 1 }, { test_cas_loop_no_loads, 1 },
		{ test_byte_banks, 1 }, { test_not_modeled, 1 },
		{ test_copy_lines_file, 1 }, { NULL, 0 } });
	return s;
}
