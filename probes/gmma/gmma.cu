/*
 * gmma.cu - bankscope-gmma: what the wgmma operand reads (HGMMA, IGMMA,
 * QGMMA) and TMA copies (UTMALDG, UTMASTG) cost in shared memory on
 * sm_90a, measured per instruction where CUPTI's counters see it and per
 * kernel where only aggregates do, and timed with clock64.
 *
 * wgmma rows (--out): one CTA of one or two consumer warpgroups, both
 * reading the same B, issuing wgmma.mma_async m64nNk(32 bytes) from a
 * 1024-aligned operand image (gmma_dev.cuh).  The grid (systematic rows,
 * holdout 0): f16 SS with N 8 ... 256, the four layouts (interleave, 32B,
 * 64B, 128B swizzle, A and B alike), A and B each K- or MN-major, 1 and 2
 * warpgroups; f16 RS the same without A's layout and major; s8 and e4m3
 * SS and RS, K-major, N 64, 128, 256.  Held out (holdout 1, to report a
 * model fitted on the others): f16 with N 24, 96, 192; K-major k-blocks
 * 1-3 of a swizzle row (the start address advanced 32 bytes a k-block,
 * as CUTLASS does); A and B under different layouts; an interleave with
 * gaps between core matrices (SBO 256).  Every descriptor is CUTLASS's
 * canonical one (bs_gmma_canonical) unless the row says otherwise.
 *
 * Per row:
 *   check   one wgmma, D = A x B, compared exactly with the product of
 *           the small values the host placed where bs_gmma_addr says the
 *           descriptor reads them ("ok", or how many of D's elements
 *           differ): a misread layout fails here, on the device;
 *   cycles  per wgmma, (t(80) - t(16)) / 64, median and minimum of 5:
 *           lat = one wgmma per commit group, waited for; tp = 8 to a
 *           group; each again with a warp keeping 4 TMA loads of 8 KB in
 *           flight beside them (tma_B_per_clk: what it moved);
 *   counters  per warpgroup instruction, (m(128) - m(64)) / 64 / warpgroups,
 *           through CUPTI's range profiler (probes/counters.c).
 *
 * TMA rows (--tma-out): one warp moves boxes of f16 (inner x rows) by
 * cp.async.bulk.tensor.2d, loads and stores under each swizzle mode, and
 * multicast loads into a cluster of two CTAs; counters per operation
 * ((m(2R) - m(R)) / R, R = 64), cycles per operation (issue to
 * completion, median and minimum of 9).
 *
 * Counters: the candidates of probes/metrics.h (BS_GMMA_METRICS), each
 * tried alone on the device's chip with CUPTI's host API; the ones it
 * refuses are left out (the CSV's header and --metrics-out say so); the
 * rest are packed greedily into groups of one pass each.
 *
 * Robustness (scripts/gmma-sweep.sh): a row whose launch fails with a
 * recoverable error records it in its err column; one that leaves the
 * context broken (a sticky error) is appended to the --fatal file
 * ("NAME reason") and the program exits 3, so that a rerun with --skip
 * on that file goes on without it.  --preflight runs only the checks.
 * Every launch first writes its row's name to --progress, so that a
 * hang names its row.
 *
 * Usage: bankscope-gmma [--quick] [--no-counters] [--preflight]
 *   [--only TEXT] [--skip FILE] [--fatal FILE] [--progress FILE]
 *   [--out CSV] [--tma-out CSV] [--metrics-out FILE] | --list | --help |
 *   --version
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda.h>
#include <cuda_runtime.h>

#define BS_CHECK_PROGRAM "bankscope-gmma"
#include "bankscope.h"
#include "say.h"
#include "check.h"
#include "counters.h"
#include "metrics.h"
#include "gmma.h"

enum { FAM_H16 = 0, FAM_I8 = 1, FAM_F8 = 2 };   /* as wgmma_ops.cuh */
static const char *const fam_name[3] = { "hgmma", "igmma", "qgmma" };
static const unsigned fam_op[3] = { BS_GMMA_OP_H16, BS_GMMA_OP_I8,
				    BS_GMMA_OP_F8 };

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bs_vsay("bankscope-gmma", fmt, ap);
	va_end(ap);
}

/* ---- the rows ---------------------------------------------------------------- */

#define MAX_ROWS 1024

typedef struct {
	char name[96];
	int fam, n, rs, ta, tb, nwg, kblock, padded, holdout;
	unsigned la, lb;
	uint64_t desc_a[2], desc_b;
	gm_kernel_fn fn;
	size_t img;               /* offset of its image in the image buffer */
	char skip[200];           /* from --skip: not launched */
	char check[120];
	char err[240];
	double cyc[4][2];         /* lat, tp, lat+tma, tp+tma: median, min */
	double tma_rate;          /* bytes a clock the TMA warp moved */
	unsigned tma_gave_up;
} gm_row;

typedef struct {
	char name[96];
	int op;                   /* TM_* */
	unsigned inner, rows, swizzle;   /* box: elements, rows; bytes */
	int holdout;
	char skip[200];
	char check[120];
	char err[240];
	double cyc[2];
	CUtensorMap map;
	int map_ok;
} tm_row;

static gm_row *rows;
static int nrows;
static tm_row tmrows[64];
static int ntm;

static const gm_entry *const tables[] = {
	gm_table_h16_small, gm_table_h16_mid, gm_table_h16_large,
	gm_table_h16_256, gm_table_i8f8,
};

static gm_kernel_fn find_kernel(int fam, int n, int rs, int ta, int tb)
{
	for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
		for (const gm_entry *e = tables[t]; e->fn; e++)
			if (e->fam == fam && e->n == n && e->rs == rs &&
			    e->ta == ta && e->tb == tb)
				return e->fn;
	return NULL;
}

static const char *lay(unsigned l)
{
	static const char *const s[4] = { "inter", "sw128", "sw64", "sw32" };

	return l < 4 ? s[l] : "?";
}

static unsigned elem_bytes(int fam)
{
	return bs_gmma_op_elem_bytes(fam_op[fam]);
}

/* One operand's descriptor: canonical, or the gapped interleave. */
static int operand_desc(const gm_row *r, unsigned layout, int mn,
			unsigned nrow, uint32_t start, uint64_t *out)
{
	bs_gmma_desc d;
	bs_error err;

	if (r->padded) {
		/* core (g, c) at g x 256 + c x 128: K-major, SBO 256, LBO 128 */
		if (bs_gmma_encode(start, 128, 256, 0, BS_GMMA_INTERLEAVE, out,
				   r->name, &err) < 0)
			goto bad;
		return 0;
	}
	if (bs_gmma_canonical(layout, mn, nrow, elem_bytes(r->fam),
			      start + (uint32_t)r->kblock * 32, &d, &err) < 0)
		goto bad;
	*out = d.raw;
	return 0;
bad:
	say("row %s: %s", r->name, err.text);
	return -1;
}

static void add_row(int fam, int n, int rs, int ta, int tb, unsigned la,
		    unsigned lb, int nwg, int kblock, int padded, int holdout)
{
	gm_row *r;

	if (nrows == MAX_ROWS)
		return;
	r = &rows[nrows];
	memset(r, 0, sizeof *r);
	r->fam = fam;
	r->n = n;
	r->rs = rs;
	r->ta = rs ? 0 : ta;
	r->tb = tb;
	r->la = la;
	r->lb = lb;
	r->nwg = nwg;
	r->kblock = kblock;
	r->padded = padded;
	r->holdout = holdout;
	snprintf(r->name, sizeof r->name, "%s_%s_n%d_a%s%s_b%s%s_wg%d%s%s",
		 fam_name[fam], rs ? "rs" : "ss", n,
		 rs ? "reg" : lay(la), rs ? "" : ta ? "_mn" : "_k", lay(lb),
		 tb ? "_mn" : "_k", nwg,
		 kblock ? (kblock == 1 ? "_kb1" : kblock == 2 ? "_kb2"
					 : "_kb3") : "",
		 padded ? "_gap" : "");
	r->fn = find_kernel(fam, n, rs, r->ta, tb);
	if (!r->fn) {
		say("no kernel for row %s", r->name);
		return;
	}
	if ((!rs && (operand_desc(r, la, r->ta, 64, GM_A0, &r->desc_a[0]) ||
		     operand_desc(r, la, r->ta, 64, GM_A1, &r->desc_a[1]))) ||
	    operand_desc(r, lb, tb, (unsigned)n, GM_B, &r->desc_b))
		return;
	nrows++;
}

static void make_rows(int quick)
{
	static const int ns[] = { 8, 16, 32, 64, 128, 256 };
	static const int held[] = { 24, 96, 192 };
	static const int ns8[] = { 64, 128, 256 };

	if (quick) {
		for (unsigned l = 0; l < 4; l++) {
			add_row(FAM_H16, 128, 0, 0, 0, l, l, 1, 0, 0, 0);
			add_row(FAM_H16, 64, 1, 0, 1, l, l, 1, 0, 0, 0);
		}
		add_row(FAM_H16, 256, 0, 1, 1, 1, 1, 2, 0, 0, 0);
		add_row(FAM_I8, 128, 0, 0, 0, 1, 1, 1, 0, 0, 0);
		return;
	}
	for (int nw = 1; nw <= 2; nw++)
		for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
			for (unsigned l = 0; l < 4; l++) {
				for (int t = 0; t < 4; t++)
					add_row(FAM_H16, ns[i], 0, t >> 1,
						t & 1, l, l, nw, 0, 0, 0);
				for (int tb = 0; tb < 2; tb++)
					add_row(FAM_H16, ns[i], 1, 0, tb, l, l,
						nw, 0, 0, 0);
			}
	for (int f = FAM_I8; f <= FAM_F8; f++)
		for (size_t i = 0; i < sizeof ns8 / sizeof *ns8; i++)
			for (unsigned l = 0; l < 4; l++)
				for (int rs = 0; rs < 2; rs++)
					add_row(f, ns8[i], rs, 0, 0, l, l, 1, 0,
						0, 0);
	/* held out */
	for (size_t i = 0; i < sizeof held / sizeof *held; i++)
		for (unsigned l = 0; l < 4; l++) {
			add_row(FAM_H16, held[i], 0, 0, 0, l, l, 1, 0, 0, 1);
			add_row(FAM_H16, held[i], 0, 1, 1, l, l, 1, 0, 0, 1);
			add_row(FAM_H16, held[i], 1, 0, 0, l, l, 1, 0, 0, 1);
		}
	for (int n = 64; n <= 128; n *= 2) {
		add_row(FAM_H16, n, 0, 0, 0, BS_GMMA_B64, BS_GMMA_B64, 1, 1, 0,
			1);
		for (int kb = 1; kb <= 3; kb++)
			add_row(FAM_H16, n, 0, 0, 0, BS_GMMA_B128, BS_GMMA_B128,
				1, kb, 0, 1);
		add_row(FAM_H16, n, 0, 0, 0, BS_GMMA_INTERLEAVE,
			BS_GMMA_INTERLEAVE, 1, 0, 1, 1);
	}
	add_row(FAM_H16, 128, 0, 0, 0, BS_GMMA_B128, BS_GMMA_B32, 1, 0, 0, 1);
	add_row(FAM_H16, 128, 0, 0, 1, BS_GMMA_INTERLEAVE, BS_GMMA_B64, 2, 0,
		0, 1);
	add_row(FAM_H16, 64, 1, 0, 0, 0, BS_GMMA_B128, 2, 3, 0, 1);
}

static void add_tm(int op, unsigned inner, unsigned nr, unsigned swz,
		   int holdout)
{
	tm_row *t = &tmrows[ntm++];
	static const char *const opn[3] = { "load", "store", "mcast" };

	memset(t, 0, sizeof *t);
	t->op = op;
	t->inner = inner;
	t->rows = nr;
	t->swizzle = swz;
	t->holdout = holdout;
	snprintf(t->name, sizeof t->name, "tma_%s_%ux%u_%s", opn[op], inner,
		 nr, swz ? (swz == 32 ? "sw32" : swz == 64 ? "sw64" : "sw128")
			 : "none");
}

static void make_tm_rows(int quick)
{
	for (int op = TM_LOAD; op <= TM_STORE; op++) {
		add_tm(op, 64, 64, 128, 0);
		add_tm(op, 64, 64, 0, 0);
		if (quick)
			continue;
		add_tm(op, 64, 8, 0, 0);
		add_tm(op, 8, 64, 0, 0);
		add_tm(op, 256, 32, 0, 0);
		add_tm(op, 16, 64, 32, 0);
		add_tm(op, 32, 64, 64, 0);
		add_tm(op, 64, 8, 128, 0);
		add_tm(op, 64, 256, 128, 0);
		add_tm(op, 32, 32, 64, 1);
		add_tm(op, 64, 128, 128, 1);
	}
	add_tm(TM_MULTICAST, 64, 64, 128, 0);
	if (!quick) {
		add_tm(TM_MULTICAST, 64, 64, 0, 0);
		add_tm(TM_MULTICAST, 64, 256, 128, 1);
	}
}

/* ---- images and the reference product ----------------------------------------- */

static uint32_t lcg_state;

static int small_value(void)
{
	lcg_state = lcg_state * 1664525u + 1013904223u;
	return (int)(lcg_state >> 24) % 9 - 4;        /* -4 .. 4 */
}

/* The bytes of value code k (-4..4) in family f, and back. */
static uint32_t encode(int f, int k)
{
	static const uint16_t h[5] = { 0x0000, 0x3800, 0x3c00, 0x3e00,
				       0x4000 };     /* 0, .5, 1, 1.5, 2 */
	static const uint8_t e4m3[5] = { 0x00, 0x30, 0x38, 0x3c, 0x40 };
	unsigned m = (unsigned)(k < 0 ? -k : k);

	if (f == FAM_H16)
		return h[m] | (k < 0 ? 0x8000u : 0u);
	if (f == FAM_I8)
		return (uint8_t)(int8_t)k;
	return e4m3[m] | (k < 0 ? 0x80u : 0u);
}

static double decode(int f, uint32_t bits)
{
	int neg, m;

	if (f == FAM_I8)
		return (double)(int8_t)(uint8_t)bits;
	neg = f == FAM_H16 ? bits >> 15 & 1 : bits >> 7 & 1;
	bits &= f == FAM_H16 ? 0x7fffu : 0x7fu;
	for (m = 0; m < 5; m++)
		if (encode(f, m) == bits)
			return (neg ? -1 : 1) * m / 2.0;
	return NAN;   /* never written: a zero byte pair decodes as 0 */
}

static uint32_t get_elem(const uint8_t *img, uint32_t addr, unsigned eb)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < eb; i++)
		v |= (uint32_t)img[addr + i] << (8 * i);
	return v;
}

static void put_elem(uint8_t *img, uint32_t addr, unsigned eb, uint32_t v)
{
	for (unsigned i = 0; i < eb; i++)
		img[addr + i] = (uint8_t)(v >> (8 * i));
}

/*
 * Row r's operand image (GM_IMG bytes), its A fragments (rs), and the
 * reference D of each warpgroup ([wg][64][N] doubles), from the values the
 * descriptors place: the reference reads the elements back from the
 * image, so overlapping descriptors give what the hardware reads.
 */
static int build(const gm_row *r, uint8_t *img, uint32_t *afrag,
		 double *ref)
{
	unsigned eb = elem_bytes(r->fam), kel = 32 / eb;
	static double a[2][64][32], b[256][32];
	bs_gmma_desc da[2], db;

	memset(img, 0, GM_IMG);
	lcg_state = 12345u + (uint32_t)(r - rows) * 7919u;
	bs_gmma_decode(r->desc_b, &db);
	for (int w = 0; w < r->nwg; w++) {
		bs_gmma_decode(r->desc_a[w], &da[w]);
		for (unsigned m = 0; m < 64; m++)
			for (unsigned k = 0; k < kel; k++) {
				uint32_t v = encode(r->fam, small_value());

				if (r->rs) {
					a[w][m][k] = decode(r->fam, v);
					continue;
				}
				uint32_t ad = bs_gmma_addr(&da[w], r->ta, eb, m, k);
				if (ad + eb > GM_A1 * (w + 1u) ||
				    ad < (uint32_t)GM_A1 * (unsigned)w)
					return -1;
				put_elem(img, ad, eb, v);
			}
	}
	for (unsigned n = 0; n < (unsigned)r->n; n++)
		for (unsigned k = 0; k < kel; k++) {
			uint32_t ad = bs_gmma_addr(&db, r->tb, eb, n, k);

			if (ad < GM_B || ad + eb > GM_IMG)
				return -1;
			put_elem(img, ad, eb, encode(r->fam, small_value()));
		}
	/* read back what the descriptors see */
	for (unsigned n = 0; n < (unsigned)r->n; n++)
		for (unsigned k = 0; k < kel; k++)
			b[n][k] = decode(r->fam, get_elem(img,
				bs_gmma_addr(&db, r->tb, eb, n, k), eb));
	for (int w = 0; w < r->nwg; w++) {
		if (!r->rs)
			for (unsigned m = 0; m < 64; m++)
				for (unsigned k = 0; k < kel; k++)
					a[w][m][k] = decode(r->fam, get_elem(
						img, bs_gmma_addr(&da[w], r->ta,
								  eb, m, k),
						eb));
		for (unsigned m = 0; m < 64; m++)
			for (unsigned n = 0; n < (unsigned)r->n; n++) {
				double s = 0;

				for (unsigned k = 0; k < kel; k++)
					s += a[w][m][k] * b[n][k];
				ref[(w * 64 + m) * r->n + n] = s;
			}
		/* A's register fragment (the m16n8k16 / m16n8k32 A layout of
		 * each warp's 16 rows) */
		if (r->rs)
			for (unsigned t = 0; t < 128; t++) {
				unsigned wp = t / 32, l = t % 32;
				unsigned row0 = 16 * wp + l / 4;

				for (unsigned i = 0; i < 4; i++) {
					unsigned row = row0 + 8 * (i & 1);
					unsigned col = eb == 2
						? 2 * (l % 4) + 8 * (i >> 1)
						: 4 * (l % 4) + 16 * (i >> 1);
					uint32_t v = 0;

					for (unsigned e = 0; e < 4 / eb; e++) {
						double x = a[w][row][col + e];
						int code = (int)lrint(x * (r->fam == FAM_I8 ? 1 : 2));

						v |= encode(r->fam, code) << (8 * eb * e);
					}
					afrag[(w * 128 + t) * 4 + i] = v;
				}
			}
	}
	return 0;
}

/* ---- the device ---------------------------------------------------------------- */

static cudaDeviceProp prop;
static int drv, clock_khz;
static uint8_t *d_img;           /* every row's image */
static uint32_t *d_afrag, *d_d;  /* [row][2][128][4]; [2][64][256] */
static long long *d_cyc;
static unsigned *d_stat;
static void *d_tensor;           /* the TMA rows' global tensor */
static CUtensorMap beside_map;   /* the TMA traffic beside the wgmmas */
#define TENSOR_INNER 256
#define TENSOR_ROWS 4096
#define BESIDE_ROWS 4096
static void *d_beside;
static const char *fatal_path, *progress_path;

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t,
			      void *, const cuuint64_t *, const cuuint64_t *,
			      const cuuint32_t *, const cuuint32_t *,
			      CUtensorMapInterleave, CUtensorMapSwizzle,
			      CUtensorMapL2promotion,
			      CUtensorMapFloatOOBfill);
static encode_fn encode_tiled;

static int open_device(void)
{
	enum cudaDriverEntryPointQueryResult q;
	void *fn = NULL;

	CHECK_CUDA(cudaSetDevice(0));
	CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
	CHECK_CUDA(cudaDriverGetVersion(&drv));
	CHECK_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
	if (prop.major != 9) {
		say("%s is sm_%d%d: wgmma and these kernels are sm_90a's",
		    prop.name, prop.major, prop.minor);
		return 1;
	}
	CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled",
						    &fn, 12000,
						    cudaEnableDefault, &q));
	if (!fn || q != cudaDriverEntryPointSuccess) {
		say("the driver has no cuTensorMapEncodeTiled");
		return 1;
	}
	memcpy(&encode_tiled, &fn, sizeof fn);
	for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
		for (const gm_entry *e = tables[t]; e->fn; e++)
			CHECK_CUDA(cudaFuncSetAttribute(
				(const void *)e->fn,
				cudaFuncAttributeMaxDynamicSharedMemorySize,
				GM_SMEM));
	for (int k = 0; k < 3; k++)
		CHECK_CUDA(cudaFuncSetAttribute(
			(const void *)tm_kernels[k],
			cudaFuncAttributeMaxDynamicSharedMemorySize, TM_SMEM));
	CHECK_CUDA(cudaMalloc(&d_d, 2 * 64 * 256 * sizeof *d_d));
	CHECK_CUDA(cudaMalloc(&d_cyc, 4096 * sizeof *d_cyc));
	CHECK_CUDA(cudaMalloc(&d_stat, 16 * sizeof *d_stat));
	CHECK_CUDA(cudaMalloc(&d_tensor, (size_t)TENSOR_INNER * TENSOR_ROWS * 2));
	CHECK_CUDA(cudaMemset(d_tensor, 0x3c, (size_t)TENSOR_INNER * TENSOR_ROWS * 2));
	CHECK_CUDA(cudaMalloc(&d_beside, (size_t)64 * BESIDE_ROWS * 2));
	CHECK_CUDA(cudaMemset(d_beside, 0x3c, (size_t)64 * BESIDE_ROWS * 2));
	return 0;
}

/* A 2-D f16 tensor map of inner x rows elements (row pitch pitch
 * elements), box bi x br, swizzle bytes; 0 or a CUresult. */
static int make_map(CUtensorMap *m, void *base, unsigned inner, unsigned nr,
		    unsigned pitch, unsigned bi, unsigned br, unsigned swz)
{
	cuuint64_t dims[2] = { inner, nr }, strides[1] = { (cuuint64_t)pitch * 2 };
	cuuint32_t box[2] = { bi, br }, es[2] = { 1, 1 };
	CUtensorMapSwizzle s = swz == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
			       : swz == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
			       : swz == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
					   : CU_TENSOR_MAP_SWIZZLE_NONE;

	return (int)encode_tiled(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, base,
				 dims, strides, box, es,
				 CU_TENSOR_MAP_INTERLEAVE_NONE, s,
				 CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
				 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

/* Before each launch of --preflight: the row's name, for a hang. */
static void progress(const char *name)
{
	FILE *f;

	if (!progress_path || !(f = fopen(progress_path, "w")))
		return;
	fprintf(f, "%s\n", name);
	fclose(f);
}

/*
 * After a launch: cudaSuccess, or the error in err (the row's) when the
 * context survives it; a sticky error appends "NAME reason" to --fatal
 * and ends the program with status 3.
 */
static cudaError_t settle(const char *name, char *err, size_t errlen)
{
	cudaError_t e = cudaGetLastError(), s;

	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e == cudaSuccess)
		return e;
	s = cudaDeviceSynchronize();
	if (s == cudaSuccess && cudaGetLastError() == cudaSuccess) {
		snprintf(err, errlen, "%s", cudaGetErrorName(e));
		return e;
	}
	say("row %s: %s (%s): the context is lost; rerun with --skip",
	    name, cudaGetErrorName(e), cudaGetErrorString(e));
	if (fatal_path) {
		FILE *f = fopen(fatal_path, "a");

		if (f) {
			fprintf(f, "%s %s\n", name, cudaGetErrorName(e));
			fclose(f);
		}
	}
	exit(3);
}

static cudaError_t launch(gm_row *r, int mode, int reps, int tma)
{
	gm_args a;
	int ri = (int)(r - rows);

	memset(&a, 0, sizeof a);
	a.desc_a[0] = r->desc_a[0];
	a.desc_a[1] = r->desc_a[1];
	a.desc_b = r->desc_b;
	a.img = (const uint4 *)(d_img + r->img);
	a.afrag = d_afrag + (size_t)ri * 2 * 128 * 4;
	a.mode = mode;
	a.reps = reps;
	a.nwg = r->nwg;
	a.tma = tma;
	a.tma_rows = BESIDE_ROWS;
	a.d = d_d;
	a.cyc = d_cyc;
	a.stat = d_stat;
	progress(r->name);
	r->fn<<<1, 128 * r->nwg + (tma ? 32 : 0), GM_SMEM>>>(beside_map, a);
	return settle(r->name, r->err, sizeof r->err);
}

static cudaError_t tm_launch(tm_row *t, int mode, int reps)
{
	tm_args a;

	memset(&a, 0, sizeof a);
	a.mode = mode;
	a.reps = reps;
	a.box_rows = t->rows;
	a.tensor_rows = TENSOR_ROWS;
	a.box_bytes = t->inner * t->rows * 2;
	a.cyc = d_cyc;
	a.stat = d_stat;
	progress(t->name);
	/* the multicast kernel has __cluster_dims__(2, 1, 1): two CTAs */
	tm_kernels[t->op]<<<t->op == TM_MULTICAST ? 2 : 1, 32, TM_SMEM>>>(
		t->map, a);
	return settle(t->name, t->err, sizeof t->err);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Row r's check: one wgmma, D against the reference. */
static void check_row(gm_row *r, const double *ref)
{
	static uint32_t got[2 * 64 * 256];
	unsigned bad = 0, total = (unsigned)r->nwg * 64 * (unsigned)r->n;
	int first = -1;

	CHECK_CUDA(cudaMemset(d_d, 0xff, 2 * 64 * 256 * sizeof *d_d));
	if (launch(r, GM_CHECK, 0, 0) != cudaSuccess) {
		snprintf(r->check, sizeof r->check, "launch-error");
		return;
	}
	CHECK_CUDA(cudaMemcpy(got, d_d, total * sizeof *got,
			      cudaMemcpyDeviceToHost));
	for (unsigned i = 0; i < total; i++) {
		double v;

		if (r->fam == FAM_I8)
			v = (double)(int32_t)got[i];
		else {
			float f;

			memcpy(&f, &got[i], sizeof f);
			v = f;
		}
		if (v != ref[i]) {
			bad++;
			if (first < 0)
				first = (int)i;
		}
	}
	if (!bad)
		snprintf(r->check, sizeof r->check, "ok");
	else
		snprintf(r->check, sizeof r->check, "d-mismatch %u of %u "
			 "(first wg%u row %u col %u)", bad, total,
			 (unsigned)first / (64u * r->n),
			 (unsigned)first / r->n % 64, (unsigned)first % r->n);
}

/* Median and minimum of per-wgmma cycles of kind k (0 lat, 1 tp) of
 * warpgroup 0, from the timed launch's clock64 pairs. */
static void cycles_of(const long long *cyc, int k, double out[2])
{
	double v[GM_TREPS];

	for (int r = 0; r < GM_TREPS; r++) {
		const long long *p = cyc + (k * (GM_TREPS + 1) + r + 1) * 2;

		v[r] = (double)(p[1] - p[0]) / (GM_LONG - GM_SHORT);
	}
	qsort(v, GM_TREPS, sizeof *v, cmp_double);
	out[0] = v[GM_TREPS / 2];
	out[1] = v[0];
}

static void time_row(gm_row *r)
{
	long long cyc[2 * 2 * (GM_TREPS + 1) * 2];
	unsigned stat[4];

	for (int tma = 0; tma <= 1; tma++) {
		CHECK_CUDA(cudaMemset(d_stat, 0, 16 * sizeof *d_stat));
		if (launch(r, GM_TIMED, 0, tma) != cudaSuccess)
			return;
		CHECK_CUDA(cudaMemcpy(cyc, d_cyc, sizeof cyc,
				      cudaMemcpyDeviceToHost));
		CHECK_CUDA(cudaMemcpy(stat, d_stat, sizeof stat,
				      cudaMemcpyDeviceToHost));
		cycles_of(cyc, 0, r->cyc[2 * tma]);
		cycles_of(cyc, 1, r->cyc[2 * tma + 1]);
		if (tma) {
			unsigned span = stat[3] - stat[2];

			r->tma_rate = span ? (double)stat[0] * GM_TMA_STAGE /
					     span : NAN;
			r->tma_gave_up = stat[1];
		}
	}
}

static void time_tm(tm_row *t)
{
	long long cyc[TM_REPS + 1];
	double v[TM_REPS];
	unsigned stat[1];

	CHECK_CUDA(cudaMemset(d_stat, 0, 16 * sizeof *d_stat));
	if (tm_launch(t, GM_TIMED, 0) != cudaSuccess)
		return;
	CHECK_CUDA(cudaMemcpy(cyc, d_cyc, sizeof cyc, cudaMemcpyDeviceToHost));
	CHECK_CUDA(cudaMemcpy(stat, d_stat, sizeof stat,
			      cudaMemcpyDeviceToHost));
	for (int i = 0; i < TM_REPS; i++)
		v[i] = (double)cyc[i + 1];
	qsort(v, TM_REPS, sizeof *v, cmp_double);
	t->cyc[0] = v[TM_REPS / 2];
	t->cyc[1] = v[0];
	snprintf(t->check, sizeof t->check, "%s",
		 stat[0] ? "tma-wait-gave-up" : "ok");
}

/* ---- counters ------------------------------------------------------------------ */

static const char *const cand[] = BS_GMMA_METRICS;
#define NCAND ((int)(sizeof cand / sizeof *cand))
static char cand_why[NCAND][400];   /* "" when available */
static int cand_group[NCAND];       /* its group, -1 when not collected */
static int ngroups;
static double *gvals, *tvals;       /* [row][NCAND], NaN: not collected */
static char chip[64];

/* Try each candidate alone, then pack the available ones greedily into
 * one-pass groups (CUPTI's host API plans the passes). */
static void plan_groups(void)
{
	int left = 0;

	for (int m = 0; m < NCAND; m++) {
		size_t passes = 0;
		char w[300];

		cand_group[m] = -1;
		if (bs_counters_passes(chip, &cand[m], 1, &passes, w, sizeof w))
			snprintf(cand_why[m], sizeof cand_why[m], "%s", w);
		else if (passes != 1)
			snprintf(cand_why[m], sizeof cand_why[m], "needs %zu "
				 "passes alone", passes);
		else {
			cand_why[m][0] = '\0';
			left++;
		}
	}
	for (ngroups = 0; left; ngroups++) {
		const char *g[NCAND];
		int gi[NCAND], n = 0;

		for (int m = 0; m < NCAND; m++) {
			size_t passes = 0;

			if (cand_why[m][0] || cand_group[m] >= 0)
				continue;
			g[n] = cand[m];
			gi[n] = m;
			if (bs_counters_passes(chip, g, n + 1, &passes, NULL,
					       0) == 0 && passes == 1)
				n++;
		}
		if (!n)
			break;
		for (int i = 0; i < n; i++)
			cand_group[gi[i]] = ngroups;
		left -= n;
	}
}

/*
 * Group g for every row that ran: batches of 16 rows, two counted
 * launches each (R and 2R), per operation (m(2R) - m(R)) / R / warpgroups.
 */
static void collect_group(int g)
{
	const char *names[NCAND];
	int idx[NCAND], gm = 0, total = nrows + ntm;
	bs_counters *c = NULL;
	char w[300];
	double buf[32 * NCAND];

	for (int m = 0; m < NCAND; m++)
		if (cand_group[m] == g) {
			idx[gm] = m;
			names[gm++] = cand[m];
		}
	if (bs_counters_open(&c, names, gm, 32, w, sizeof w)) {
		say("counters group %d: %s", g, w);
		for (int i = 0; i < gm; i++) {
			snprintf(cand_why[idx[i]], sizeof cand_why[0], "group "
				 "%d would not open: %s", g, w);
			cand_group[idx[i]] = -1;
		}
		return;
	}
	for (int r0 = 0; r0 < total; r0 += 16) {
		int r1 = r0 + 16 < total ? r0 + 16 : total, nr = 0, ok[16];

		for (int r = r0; r < r1; r++) {
			ok[r - r0] = 1;
			for (int k = 1; k <= 2; k++) {
				cudaError_t e;

				bs_counters_begin(c, "gmma");
				if (r < nrows)
					e = rows[r].skip[0] || rows[r].err[0]
						? cudaErrorNotReady
						: launch(&rows[r], GM_COUNTED,
							 k * GM_COUNT, 0);
				else
					e = tmrows[r - nrows].skip[0] ||
					    tmrows[r - nrows].err[0] ||
					    !tmrows[r - nrows].map_ok
						? cudaErrorNotReady
						: tm_launch(&tmrows[r - nrows],
							    GM_COUNTED,
							    k * GM_COUNT);
				bs_counters_end(c);
				if (e != cudaSuccess)
					ok[r - r0] = 0;
			}
		}
		if (bs_counters_flush(c, buf, &nr, w, sizeof w) ||
		    nr != 2 * (r1 - r0)) {
			say("counters group %d: %s", g, w);
			break;
		}
		for (int r = r0; r < r1; r++)
			for (int i = 0; ok[r - r0] && i < gm; i++) {
				double x = buf[(2 * (r - r0)) * gm + i];
				double y = buf[(2 * (r - r0) + 1) * gm + i];
				double per = r < nrows ? GM_COUNT * rows[r].nwg
						       : GM_COUNT;
				double *v = r < nrows
					? &gvals[(size_t)r * NCAND]
					: &tvals[(size_t)(r - nrows) * NCAND];

				v[idx[i]] = (y - x) / per;
			}
	}
	bs_counters_close(c);
	say("counters group %d of %d done (%d metrics)", g + 1, ngroups, gm);
}

static void list_metric(const char *type, const char *name, void *arg)
{
	fprintf((FILE *)arg, "%s %s\n", type, name);
}

static void write_metrics(const char *path)
{
	FILE *f = fopen(path, "w");
	char w[300];

	if (!f) {
		say("%s: cannot open: %s", path, strerror(errno));
		return;
	}
	fprintf(f, "# bankscope-gmma on %s (chip %s), %s\n", prop.name, chip,
		bs_counters_version());
	fprintf(f, "# candidates (probes/metrics.h BS_GMMA_METRICS): "
		"'group G' collected in one-pass group G, else why not\n");
	for (int m = 0; m < NCAND; m++)
		if (cand_group[m] >= 0)
			fprintf(f, "candidate %s group %d\n", cand[m],
				cand_group[m]);
		else
			fprintf(f, "candidate %s unavailable: %s\n", cand[m],
				cand_why[m][0] ? cand_why[m] : "not collected");
	fprintf(f, "# every base metric CUPTI's host API lists for %s "
		"(add .sum, .max, ... for a rollup)\n", chip);
	if (bs_counters_list(chip, list_metric, f, w, sizeof w))
		fprintf(f, "# could not list them: %s\n", w);
	fclose(f);
}

/* ---- output ------------------------------------------------------------------- */

static void put_num(FILE *f, double v)
{
	if (isnan(v))
		fputs(",", f);
	else
		fprintf(f, ",%.6g", v);
}

static void header_common(FILE *f, int counters, const char *what)
{
	char date[32];
	time_t now = time(NULL);

	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "# bankscope-gmma: %s\n# gpu: %s\n# compute_capability: "
		"%d.%d\n# driver_version: %d\n# date: %s\n# sm_clock_khz: %d\n"
		"# chip: %s\n# counters: %s\n", what, prop.name, prop.major,
		prop.minor, drv, date, clock_khz, chip[0] ? chip : "?",
		counters ? bs_counters_version() : "off");
	for (int m = 0; m < NCAND; m++)
		if (cand_group[m] < 0)
			fprintf(f, "# metric not collected: %s: %s\n", cand[m],
				cand_why[m][0] ? cand_why[m] : "counters off");
}

static void write_gmma_csv(FILE *f, int counters)
{
	header_common(f, counters, "wgmma m64nNk(32 bytes) operand reads from "
		      "shared memory, per warpgroup instruction");
	fprintf(f, "# cycles: per wgmma, clock64 on the CTA's SM, (t(%d) - "
		"t(%d)) / %d, median and min of %d; lat: one wgmma per commit "
		"group, waited for; tp: %d to a group; _tma: with a warp "
		"keeping %d TMA loads of %d bytes in flight beside\n",
		GM_LONG, GM_SHORT, GM_LONG - GM_SHORT, GM_TREPS, GM_BATCH,
		GM_TMA_STAGES, GM_TMA_STAGE);
	fprintf(f, "# counters: per warpgroup instruction, (m(%d) - m(%d)) / "
		"%d / nwg\n", 2 * GM_COUNT, GM_COUNT, GM_COUNT);
	fprintf(f, "name,family,src,n,a_major,b_major,a_layout,b_layout,nwg,"
		"kblock,gap,holdout,desc_a,desc_b,a_bytes,b_bytes,check,err,"
		"lat_cyc_med,lat_cyc_min,tp_cyc_med,tp_cyc_min,"
		"lat_tma_cyc_med,lat_tma_cyc_min,tp_tma_cyc_med,tp_tma_cyc_min,"
		"tma_B_per_clk");
	for (int m = 0; m < NCAND; m++)
		fprintf(f, ",%s", cand[m]);
	fputc('\n', f);
	for (int i = 0; i < nrows; i++) {
		const gm_row *r = &rows[i];

		fprintf(f, "%s,%s,%s,%d,%s,%s,%s,%s,%d,%d,%d,%d,0x%016llx,"
			"0x%016llx,%d,%d,%s,%s", r->name, fam_name[r->fam],
			r->rs ? "rs" : "ss", r->n, r->rs ? "reg" : r->ta ? "mn"
			: "k", r->tb ? "mn" : "k", r->rs ? "-" :
			bs_gmma_layout_name(r->la), bs_gmma_layout_name(r->lb),
			r->nwg, r->kblock, r->padded, r->holdout,
			(unsigned long long)(r->rs ? 0 : r->desc_a[0]),
			(unsigned long long)r->desc_b, r->rs ? 0 : 64 * 32,
			r->n * 32, r->skip[0] ? "skipped" : r->check,
			r->skip[0] ? r->skip : r->err);
		for (int k = 0; k < 4; k++) {
			put_num(f, r->cyc[k][0]);
			put_num(f, r->cyc[k][1]);
		}
		put_num(f, r->tma_rate);
		for (int m = 0; m < NCAND; m++)
			put_num(f, gvals[(size_t)i * NCAND + m]);
		fputc('\n', f);
	}
}

static void write_tma_csv(FILE *f, int counters)
{
	static const char *const opn[3] = { "load", "store", "multicast" };

	header_common(f, counters, "TMA copies between global and shared "
		      "memory, per operation (cp.async.bulk.tensor.2d, f16 "
		      "boxes)");
	fprintf(f, "# cycles: per operation, issue to completion (a load's "
		"mbarrier, a store's wait_group 0), median and min of %d\n",
		TM_REPS);
	fprintf(f, "# counters: per operation issued, (m(%d) - m(%d)) / %d\n",
		2 * GM_COUNT, GM_COUNT, GM_COUNT);
	fprintf(f, "name,op,box_inner,box_rows,box_bytes,swizzle,ctas,holdout,"
		"check,err,cyc_med,cyc_min");
	for (int m = 0; m < NCAND; m++)
		fprintf(f, ",%s", cand[m]);
	fputc('\n', f);
	for (int i = 0; i < ntm; i++) {
		const tm_row *t = &tmrows[i];

		fprintf(f, "%s,%s,%u,%u,%u,%u,%d,%d,%s,%s", t->name, opn[t->op],
			t->inner, t->rows, t->inner * t->rows * 2, t->swizzle,
			t->op == TM_MULTICAST ? 2 : 1, t->holdout,
			t->skip[0] ? "skipped" : t->check,
			t->skip[0] ? t->skip : t->err);
		put_num(f, t->cyc[0]);
		put_num(f, t->cyc[1]);
		for (int m = 0; m < NCAND; m++)
			put_num(f, tvals[(size_t)i * NCAND + m]);
		fputc('\n', f);
	}
}

/* --skip FILE: "NAME reason" lines; those rows are not launched. */
static int read_skip(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[400];

	if (!f)
		return errno == ENOENT ? 0 : (say("%s: cannot open: %s", path,
						  strerror(errno)), 2);
	while (fgets(line, sizeof line, f)) {
		char name[128];
		int n = 0;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%127s %n", name, &n) < 1)
			continue;
		for (int i = 0; i < nrows; i++)
			if (!strcmp(rows[i].name, name))
				snprintf(rows[i].skip, sizeof rows[i].skip,
					 "%s", line + n);
		for (int i = 0; i < ntm; i++)
			if (!strcmp(tmrows[i].name, name))
				snprintf(tmrows[i].skip, sizeof tmrows[i].skip,
					 "%s", line + n);
	}
	fclose(f);
	return 0;
}

static FILE *open_out(const char *path)
{
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdout;
	if (!(f = fopen(path, "w")))
		say("%s: cannot open: %s", path, strerror(errno));
	return f;
}

static const char usage_text[] =
	"usage: bankscope-gmma [--quick] [--no-counters] [--preflight]\n"
	"         [--only TEXT] [--skip FILE] [--fatal FILE] [--progress FILE]\n"
	"         [--out CSV] [--tma-out CSV] [--metrics-out FILE]\n"
	"       bankscope-gmma --list | --help | --version\n"
	"(default: the wgmma rows' CSV on stdout; the TMA rows' CSV only "
	"with --tma-out)\n";

int main(int argc, char **argv)
{
	int quick = 0, counters = 1, preflight = 0, list = 0;
	const char *out = NULL, *tma_out = NULL, *metrics_out = NULL;
	const char *skip = NULL, *only = NULL;
	static uint8_t img[GM_IMG];
	static uint32_t afrag[2 * 128 * 4];
	static double ref[2 * 64 * 256];
	double *refs;
	FILE *f;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **v = !strcmp(a, "--out") ? &out
			: !strcmp(a, "--tma-out") ? &tma_out
			: !strcmp(a, "--metrics-out") ? &metrics_out
			: !strcmp(a, "--skip") ? &skip
			: !strcmp(a, "--fatal") ? &fatal_path
			: !strcmp(a, "--progress") ? &progress_path
			: !strcmp(a, "--only") ? &only : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf("%s", usage_text);
			return 0;
		} else if (!strcmp(a, "--version")) {
			printf("bankscope-gmma %s\n", bs_version());
			return 0;
		} else if (!strcmp(a, "--quick"))
			quick = 1;
		else if (!strcmp(a, "--no-counters"))
			counters = 0;
		else if (!strcmp(a, "--preflight"))
			preflight = 1;
		else if (!strcmp(a, "--list"))
			list = 1;
		else if (v && i + 1 < argc && !*v)
			*v = argv[++i];
		else {
			say(v ? (*v ? "%s given twice" : "%s needs a value")
			      : "unknown option '%s'", a);
			fprintf(stderr, "%s", usage_text);
			return 2;
		}
	}
	rows = (gm_row *)calloc(MAX_ROWS, sizeof *rows);
	if (!rows) {
		say("out of memory");
		return 1;
	}
	make_rows(quick);
	make_tm_rows(quick);
	if (only) {   /* the rows whose name holds TEXT */
		int n = 0, t = 0;

		for (int i = 0; i < nrows; i++)
			if (strstr(rows[i].name, only))
				rows[n++] = rows[i];
		for (int i = 0; i < ntm; i++)
			if (strstr(tmrows[i].name, only))
				tmrows[t++] = tmrows[i];
		nrows = n;
		ntm = t;
	}
	if (list) {   /* with the host's side of each row: its image */
		for (int i = 0; i < nrows; i++)
			printf("%s holdout=%d desc_a=0x%016llx desc_b=0x%016llx "
			       "image=%s\n", rows[i].name, rows[i].holdout,
			       (unsigned long long)rows[i].desc_a[0],
			       (unsigned long long)rows[i].desc_b,
			       build(&rows[i], img, afrag, ref) ? "outside"
								: "ok");
		for (int i = 0; i < ntm; i++)
			printf("%s holdout=%d\n", tmrows[i].name,
			       tmrows[i].holdout);
		return 0;
	}
	if (skip && read_skip(skip))
		return 2;
	if (open_device())
		return 1;
	/* (not under --no-counters: CUPTI's profiler may belong to ncu) */
	if (!counters || bs_counters_chip(chip, sizeof chip, NULL, 0))
		chip[0] = '\0';
	say("%s (%s), %d wgmma rows, %d TMA rows%s", prop.name, chip, nrows,
	    ntm, preflight ? ", preflight: checks only" : "");

	/* every row's image and fragments, once */
	refs = (double *)malloc((size_t)nrows * 2 * 64 * 256 * sizeof *refs);
	CHECK_CUDA(cudaMalloc(&d_img, (size_t)(nrows ? nrows : 1) * GM_IMG));
	CHECK_CUDA(cudaMalloc(&d_afrag, (size_t)(nrows ? nrows : 1) * 2 * 128 *
				       4 * sizeof *d_afrag));
	if (!refs) {
		say("out of memory");
		return 1;
	}
	for (int i = 0; i < nrows; i++) {
		gm_row *r = &rows[i];

		r->img = (size_t)i * GM_IMG;
		for (int k = 0; k < 4; k++)
			r->cyc[k][0] = r->cyc[k][1] = NAN;
		r->tma_rate = NAN;
		memset(afrag, 0, sizeof afrag);
		if (build(r, img, afrag, ref)) {
			snprintf(r->err, sizeof r->err, "operand outside its "
				 "region of the image");
			continue;
		}
		memcpy(refs + (size_t)i * 2 * 64 * 256, ref,
		       sizeof(double) * 2 * 64 * (size_t)r->n);
		CHECK_CUDA(cudaMemcpy(d_img + r->img, img, GM_IMG,
				      cudaMemcpyHostToDevice));
		CHECK_CUDA(cudaMemcpy(d_afrag + (size_t)i * 2 * 128 * 4, afrag,
				      sizeof afrag, cudaMemcpyHostToDevice));
	}
	if (make_map(&beside_map, d_beside, 64, BESIDE_ROWS, 64, 64, 64, 128)) {
		say("the tensor map of the TMA traffic beside the wgmmas: "
		    "cuTensorMapEncodeTiled failed");
		return 1;
	}
	for (int i = 0; i < ntm; i++) {
		tm_row *t = &tmrows[i];
		int e = make_map(&t->map, d_tensor, TENSOR_INNER, TENSOR_ROWS,
				 TENSOR_INNER, t->inner, t->rows, t->swizzle);

		t->cyc[0] = t->cyc[1] = NAN;
		t->map_ok = !e;
		if (e)
			snprintf(t->err, sizeof t->err, "cuTensorMapEncodeTiled "
				 "error %d", e);
	}

	/* checks (all that --preflight does), then the timing */
	for (int i = 0; i < nrows; i++) {
		gm_row *r = &rows[i];

		if (!r->skip[0] && !r->err[0])
			check_row(r, refs + (size_t)i * 2 * 64 * 256);
		if (i % 64 == 63)
			say("checked %d of %d wgmma rows", i + 1, nrows);
	}
	if (preflight) {
		int bad = 0;

		for (int i = 0; i < nrows; i++)
			bad += rows[i].check[0] && strcmp(rows[i].check, "ok");
		say("preflight done: %d of %d rows checked other than ok", bad,
		    nrows);
		return 0;
	}
	for (int i = 0; i < nrows; i++) {
		if (!rows[i].skip[0] && !rows[i].err[0])
			time_row(&rows[i]);
		if (i % 64 == 63)
			say("timed %d of %d wgmma rows", i + 1, nrows);
	}
	for (int i = 0; i < ntm; i++)
		if (!tmrows[i].skip[0] && tmrows[i].map_ok)
			time_tm(&tmrows[i]);
	say("timed the %d TMA rows", ntm);

	gvals = (double *)malloc((size_t)(nrows + 1) * NCAND * sizeof *gvals);
	tvals = (double *)malloc((size_t)(ntm + 1) * NCAND * sizeof *tvals);
	if (!gvals || !tvals) {
		say("out of memory");
		return 1;
	}
	for (size_t i = 0; i < (size_t)(nrows + 1) * NCAND; i++)
		gvals[i] = NAN;
	for (size_t i = 0; i < (size_t)(ntm + 1) * NCAND; i++)
		tvals[i] = NAN;
	for (int m = 0; m < NCAND; m++)
		cand_group[m] = -1;
	if (counters && chip[0]) {
		plan_groups();
		say("%d metric groups of one pass each", ngroups);
		for (int g = 0; g < ngroups; g++)
			collect_group(g);
	} else if (counters) {
		say("counters: CUPTI names no chip for this device");
	}
	if (metrics_out)
		write_metrics(metrics_out);
	if (!(f = open_out(out)))
		return 1;
	write_gmma_csv(f, counters);
	if (f != stdout && fclose(f)) {
		say("%s: %s", out, strerror(errno));
		return 1;
	}
	if (tma_out) {
		if (!(f = open_out(tma_out)))
			return 1;
		write_tma_csv(f, counters);
		if (f != stdout && fclose(f)) {
			say("%s: %s", tma_out, strerror(errno));
			return 1;
		}
	}
	say("done");
	return 0;
}
