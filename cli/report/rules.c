/*
 * rules.c - the measured rules (bank count and width, phases per width,
 * packing, multicast, stores), each read off named rows of probes stride
 * and broadcast and set beside what the architecture predicts for the same
 * rows; and the list of those rows, which rows.c keeps.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/*
 * The rows the rules read are named as their families name them
 * (bs_stride_name, bs_broadcast_name): probe stride's, of a width index,
 * op and element stride, and probe broadcast's 4-byte loads of k words,
 * interleaved (lane l takes word l % k), the k words in k banks or in one.
 */
enum { W_F32 = 2, W_U64 = 3, W_V4 = 4 };   /* bs_widths[]: 4, 8, 16 bytes */
static const unsigned ks[] = { 2, 4, 8, 16, 32 };     /* broadcast's k > 1 */
#define NKS (sizeof ks / sizeof *ks)

static void want_stride(data *D, int w, bs_kind op, unsigned s)
{
	char name[BS_NAME_MAX];

	bs_stride_name(name, w, op, s);
	data_want(D, "stride", name);
}

static void want_broadcast(data *D, unsigned k, int bank)
{
	char name[BS_NAME_MAX];

	bs_broadcast_name(name, W_F32, BS_KIND_LD, k, 1, bank);
	data_want(D, "broadcast", name);
}

/* Every row the rules (below) and the throughput table read. */
void rules_want(data *D)
{
	for (unsigned s = 1; s <= 64; s++)
		want_stride(D, W_F32, BS_KIND_LD, s);
	for (int w = 0; w < BS_NWIDTHS; w++)
		for (bs_kind o = 0; o < bs_kind_count(); o++)
			if (kind_group(o) == G_LDST &&
			    (w != W_F32 || o != BS_KIND_LD))
				want_stride(D, w, o, 1);
	for (int w = W_U64; w < BS_NWIDTHS; w++)
		for (bs_kind o = 0; o < bs_kind_count(); o++)
			if (kind_group(o) == G_LDST)
				want_stride(D, w, o, 0);
	want_stride(D, W_F32, BS_KIND_ST, 32);
	want_broadcast(D, 1, 0);
	for (size_t i = 0; i < NKS; i++) {
		want_broadcast(D, ks[i], 0);
		want_broadcast(D, ks[i], 1);
	}
}

/*
 * Wavefronts of the row named name (probe preferred) into *v: measured
 * (m) or predicted.  -1 with the reason in buf when there is no such row
 * or it has no counters.
 */
static int wf(const data *D, const char *probe, const char *name, int m,
	      double *v, char *buf, size_t size)
{
	const item *it = data_find(D, probe, name);

	if (!it) {
		snprintf(buf, size, "no row %s", name);
		return -1;
	}
	*v = m ? it->r.wavefronts_measured : it->s.wavefronts;
	if (isnan(*v)) {
		snprintf(buf, size, "not measured (%s has no counters)", name);
		return -1;
	}
	return 0;
}

/* wf() of probe stride's row of width index w, op and stride s. */
static int stride_wf(const data *D, int w, bs_kind op, unsigned s, int m,
		     double *v, char *buf, size_t size)
{
	char name[BS_NAME_MAX];

	bs_stride_name(name, w, op, s);
	return wf(D, "stride", name, m, v, buf, size);
}

/* wf() of probe broadcast's 4-byte load of k words, in one bank or not. */
static int broadcast_wf(const data *D, unsigned k, int bank, int m,
			double *v, char *buf, size_t size)
{
	char name[BS_NAME_MAX];

	bs_broadcast_name(name, W_F32, BS_KIND_LD, k, 1, bank);
	return wf(D, "broadcast", name, m, v, buf, size);
}

/* The stride at which 4-byte loads first take 32 wavefronts. */
static int banks_of(const data *D, int m, int *banks, char *buf, size_t size)
{
	double v;

	for (unsigned k = 1; k <= 64; k++) {
		if (stride_wf(D, W_F32, BS_KIND_LD, k, m, &v, buf, size) < 0)
			return -1;
		if (v >= BS_LANES) {
			*banks = (int)k;
			return 0;
		}
	}
	snprintf(buf, size, "no 4-byte load up to stride 64 takes 32 "
		 "wavefronts");
	return -1;
}

static void rule_banks(const data *D, int m, char *buf, size_t size)
{
	int banks;

	if (banks_of(D, m, &banks, buf, size) == 0)
		snprintf(buf, size, "%d", banks);
}

static void rule_bank_width(const data *D, int m, char *buf, size_t size)
{
	char name[BS_NAME_MAX], a[32], b[32];
	const item *it;
	double v, bytes;
	int banks, lanes = 0;

	bs_stride_name(name, W_F32, BS_KIND_LD, 1);
	it = data_find(D, "stride", name);
	if (banks_of(D, m, &banks, buf, size) < 0 ||
	    wf(D, "stride", name, m, &v, buf, size) < 0)
		return;
	for (uint32_t rest = it->r.access.active; rest; rest &= rest - 1)
		lanes++;
	bytes = (double)lanes * it->r.access.width / v;
	verdict_num(a, sizeof a, bytes / banks);
	verdict_num(b, sizeof b, bytes);
	snprintf(buf, size, "%s bytes (%s bytes per wavefront)", a, b);
}

static void rule_phases(const data *D, int m, char *buf, size_t size)
{
	char list[128] = "", lanes[128] = "", a[32];
	size_t nl = 0, nn = 0;
	double v;

	for (int w = 0; w < BS_NWIDTHS; w++) {
		if (stride_wf(D, w, BS_KIND_LD, 1, m, &v, buf, size) < 0)
			return;
		verdict_num(a, sizeof a, v);
		nl += (size_t)snprintf(list + nl, sizeof list - nl, "%s%s",
				       w ? ", " : "", a);
		verdict_num(a, sizeof a, BS_LANES / v);
		nn += (size_t)snprintf(lanes + nn, sizeof lanes - nn, "%s%s",
				       w ? ", " : "", a);
	}
	snprintf(buf, size, "%s (%s lanes per phase)", list, lanes);
}

static void rule_packing(const data *D, int m, char *buf, size_t size)
{
	char a[32], b[32], part[2][96];
	int pack = 0;

	for (int w = W_U64; w < BS_NWIDTHS; w++) {
		double ld, st;

		if (stride_wf(D, w, BS_KIND_LD, 0, m, &ld, buf, size) < 0 ||
		    stride_wf(D, w, BS_KIND_ST, 0, m, &st, buf, size) < 0)
			return;
		verdict_num(a, sizeof a, ld);
		verdict_num(b, sizeof b, st);
		snprintf(part[w - W_U64], sizeof part[w - W_U64],
			 "%u-byte load %s, store %s", bs_widths[w], a, b);
		pack += ld < st;
	}
	snprintf(buf, size, "%s; %s wavefronts: %s", part[0], part[1],
		 pack == 2 ? "loads pack two phases into one, stores do not"
		 : pack ? "only some loads pack" : "no packing");
}

static void rule_multicast(const data *D, int m, char *buf, size_t size)
{
	char a[32], spread[96] = "", bank[96] = "";
	size_t ns = 0, nb = 0;
	double one, v;
	int shared = 1;

	if (broadcast_wf(D, 1, 0, m, &one, buf, size) < 0)
		return;
	shared = one == 1;
	for (size_t i = 0; i < NKS; i++) {
		if (broadcast_wf(D, ks[i], 0, m, &v, buf, size) < 0)
			return;
		verdict_num(a, sizeof a, v);
		ns += (size_t)snprintf(spread + ns, sizeof spread - ns, "%s%s",
				       i ? ", " : "", a);
		shared &= v == 1;
		if (broadcast_wf(D, ks[i], 1, m, &v, buf, size) < 0)
			return;
		verdict_num(a, sizeof a, v);
		nb += (size_t)snprintf(bank + nb, sizeof bank - nb, "%s%s",
				       i ? ", " : "", a);
		shared &= v == ks[i];
	}
	verdict_num(a, sizeof a, one);
	snprintf(buf, size, "one word for all 32 lanes: %s; k words in k banks "
		 "(k = 2, 4, 8, 16, 32): %s; k words in one bank: %s "
		 "wavefronts: %s", a, spread, bank,
		 shared ? "lanes that read one word share its access, the "
		 "cost is the most distinct words in one bank"
		 : "lanes reading one word do not simply share it");
}

static void rule_stores(const data *D, int m, char *buf, size_t size)
{
	char list[96] = "", a[32], b[32], c[32];
	size_t nl = 0;
	double v, s32, s0[2], s1[2] = { 0, 0 };

	for (int w = 0; w < BS_NWIDTHS; w++) {
		if (stride_wf(D, w, BS_KIND_ST, 1, m, &v, buf, size) < 0)
			return;
		if (w >= W_U64)
			s1[w - W_U64] = v;
		verdict_num(a, sizeof a, v);
		nl += (size_t)snprintf(list + nl, sizeof list - nl, "%s%s",
				       w ? ", " : "", a);
	}
	if (stride_wf(D, W_F32, BS_KIND_ST, 32, m, &s32, buf, size) < 0 ||
	    stride_wf(D, W_U64, BS_KIND_ST, 0, m, &s0[0], buf, size) < 0 ||
	    stride_wf(D, W_V4, BS_KIND_ST, 0, m, &s0[1], buf, size) < 0)
		return;
	verdict_num(a, sizeof a, s32);
	verdict_num(b, sizeof b, s0[0]);
	verdict_num(c, sizeof c, s0[1]);
	snprintf(buf, size, "phases per width %s; 4-byte stride 32: %s "
		 "wavefronts; one address for all lanes: 8-byte %s, 16-byte "
		 "%s: %s", list, a, b, c,
		 s0[0] == s1[0] && s0[1] == s1[1] ? "stores never pack"
		 : "stores of one address take fewer wavefronts");
}

static const struct rule {
	const char *name;
	void (*eval)(const data *D, int measured, char *buf, size_t size);
	const char *from;
} rules[] = {
	{ "Bank count", rule_banks,
	  "f32_ld_s1 ... f32_ld_s64 (probe stride): the smallest element "
	  "stride at which a 4-byte load takes 32 wavefronts" },
	{ "Bank width", rule_bank_width,
	  "f32_ld_s1: 32 lanes x 4 bytes over the wavefronts it takes, "
	  "divided by the bank count" },
	{ "Phases per width (1, 2, 4, 8, 16 bytes)", rule_phases,
	  "u8_ld_s1, u16_ld_s1, f32_ld_s1, u64_ld_s1, v4_ld_s1: the "
	  "wavefronts of the conflict-free stride-1 load" },
	{ "Packing", rule_packing,
	  "u64_ld_s0 and v4_ld_s0 (every lane one address) against the "
	  "stores u64_st_s0 and v4_st_s0" },
	{ "Multicast", rule_multicast,
	  "bc_f32_ld_k1; bc_f32_ld_k{2,4,8,16,32}_interleaved_spread; "
	  "bc_f32_ld_k{2,4,8,16,32}_interleaved_bank (probe broadcast)" },
	{ "Stores", rule_stores,
	  "u8_st_s1 ... v4_st_s1, f32_st_s32, u64_st_s0, v4_st_s0" },
};

void page_rules(doc *d, const data *D)
{
	char prof[64];
	const char *head[4] = { "Rule", "Measured", prof, "From rows" };

	snprintf(prof, sizeof prof, "Arch %s predicts", D->p->name);
	doc_heading(d, 2, "Measured rules");
	doc_para_begin(d);
	doc_text(d, "Each rule is read off named rows of the dataset, from "
		 "their measured wavefronts per warp instruction, and derived "
		 "the same way from the wavefronts arch %s predicts for "
		 "those rows (\"same\" where the two agree).", D->p->name);
	doc_para_end(d);
	doc_table_begin(d, 4, head);
	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
		char mv[512], pv[512];

		rules[i].eval(D, 1, mv, sizeof mv);
		rules[i].eval(D, 0, pv, sizeof pv);
		doc_row_begin(d);
		doc_cell(d, "%s", rules[i].name);
		doc_cell(d, "%s", mv);
		doc_cell(d, "%s", strcmp(mv, pv) ? pv : "same");
		doc_cell(d, "%s", rules[i].from);
		doc_row_end(d);
	}
	doc_table_end(d);
}
