/*
 * srcprobe.cu - cp.async's shared-memory wavefronts when the global source
 * is not one coalesced run (issue 27, item 3).
 *
 * One warp, one cp.async per lane, one launch per access: lane l copies W
 * bytes from gsrc + src[l] to shared + dst[l] (cp.async.ca of 4, 8 or 16
 * bytes, or cp.async.cg of 16), then cp.async.wait_all.  Between the two
 * ends of each launch the project's counters (probes/counters.h, CUPTI's
 * range profiler) read the LDGSTS executions and wavefronts,
 * smsp__sass_inst_executed_op_ldgsts and smsp__sass_l1tex_data_pipe_lsu_
 * wavefronts_mem_shared_op_ldgsts, so a row is one warp execution.  Each
 * access runs three times in a row (rep 0 reads its source from DRAM or
 * L2, reps 1 and 2 from the caches), every rep its own range: the
 * wavefronts of a copy can depend on when its data comes back.
 *
 * The accesses are made here, from the axes the issue names: pieces of
 * 4 to 128 bytes per row, row strides, misaligned starts, random rows,
 * repeated sources, against destinations that are contiguous, padded,
 * 128-byte swizzled and transposed (cuBLAS's 528-byte pitch).  Set
 * "sys" is systematic; set "held" is drawn from a seed for checking a rule
 * found on "sys" (the lanes' sources and destinations random within the
 * same shapes).  Prints CSV to stdout:
 *   set,name,kind,width,rep,inst,wavefronts,dst,src
 * dst and src are the 32 lanes' byte offsets, space-separated, '-' for an
 * inactive lane.  Exit status 1 when the counters cannot be read.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "counters.h"

#define CK(x)                                                                \
	do {                                                                 \
		cudaError_t e_ = (x);                                        \
		if (e_ != cudaSuccess) {                                     \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__,         \
				__LINE__, #x, cudaGetErrorString(e_));       \
			exit(1);                                             \
		}                                                            \
	} while (0)

#define NONE 0xffffffffu
#define SMEM (48 * 1024)
#define GSIZE (8u << 20)

template <unsigned W, bool CG>
__global__ void copy_kernel(const unsigned *dst, const unsigned *src,
			    const unsigned char *g)
{
	extern __shared__ __align__(128) unsigned char sm[];
	unsigned l = threadIdx.x & 31, d = dst[l], s = src[l];

	if (d != NONE) {
		unsigned sa = (unsigned)__cvta_generic_to_shared(sm + d);
		const unsigned char *gp = g + s;

		if (CG)
			asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
				     : : "r"(sa), "l"(gp) : "memory");
		else if (W == 4)
			asm volatile("cp.async.ca.shared.global [%0], [%1], 4;"
				     : : "r"(sa), "l"(gp) : "memory");
		else if (W == 8)
			asm volatile("cp.async.ca.shared.global [%0], [%1], 8;"
				     : : "r"(sa), "l"(gp) : "memory");
		else
			asm volatile("cp.async.ca.shared.global [%0], [%1], 16;"
				     : : "r"(sa), "l"(gp) : "memory");
	}
	asm volatile("cp.async.wait_all;" : : : "memory");
}

struct access {
	std::string set, name;
	unsigned w;
	bool cg;
	unsigned dst[32], src[32];
};

static unsigned long long rng = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* Destinations: 0 contiguous, 1 rows of (piece) padded by 16 bytes,
 * 2 128-byte swizzle of 16-byte chunks (row = 128 bytes), 3 transposed
 * (lane l of a row of R lanes at pitch 528 * (l % R) + W * (l / R)). */
static unsigned dst_of(int shape, unsigned l, unsigned w, unsigned per_row)
{
	unsigned row = l / per_row, in = l % per_row, off;

	switch (shape) {
	case 0:
		return l * w;
	case 1:
		return row * (per_row * w + 16) + in * w;
	case 2:
		off = l * w;
		return (off & ~127u) | ((off & 127u) ^ (((off >> 7) & 7u) << 4));
	default:
		return 528 * in + w * row;
	}
}

static const char *dst_name[] = { "lin", "pad16", "sw128", "tr528" };

static void add(std::vector<access> &v, const char *set, const std::string &n,
		unsigned w, bool cg, const unsigned *dst, const unsigned *src)
{
	access a;

	a.set = set;
	a.name = n;
	a.w = w;
	a.cg = cg;
	memcpy(a.dst, dst, sizeof a.dst);
	memcpy(a.src, src, sizeof a.src);
	v.push_back(a);
}

/* The systematic set: for each kind, piece (bytes per row), row stride
 * and start offset, against every destination shape. */
static void systematic(std::vector<access> &v)
{
	const unsigned widths[] = { 4, 8, 16, 16 };
	const unsigned pieces[] = { 4, 8, 16, 32, 64, 128 };
	const unsigned strides[] = { 128, 256, 2048, 2064 };
	const unsigned starts[] = { 0, 16, 64 };

	for (int k = 0; k < 4; k++) {
		unsigned w = widths[k];
		bool cg = k == 3;

		for (unsigned p : pieces) {
			if (p < w)
				continue;
			for (unsigned rs : strides) {
				if (rs < p)
					continue;
				for (unsigned st : starts) {
					for (int sh = 0; sh < 4; sh++) {
						unsigned dst[32], src[32],
							per = p / w;
						char n[96];

						for (unsigned l = 0; l < 32; l++) {
							src[l] = st + (l / per) * rs + (l % per) * w;
							dst[l] = dst_of(sh, l, w, per);
						}
						snprintf(n, sizeof n, "%s%u.p%u.rs%u.o%u.%s",
							 cg ? "cg" : "ca", w, p, rs, st,
							 dst_name[sh]);
						add(v, "sys", n, w, cg, dst, src);
					}
				}
			}
		}
		/* random rows: each group of lanes a random 128-byte line */
		for (unsigned p : { 16u, 32u, 128u }) {
			if (p < w)
				continue;
			for (int sh = 0; sh < 4; sh++) {
				unsigned dst[32], src[32], per = p / w, line = 0;
				char n[96];

				for (unsigned l = 0; l < 32; l++) {
					if (l % per == 0)
						line = rnd(GSIZE / 128 - 1);
					src[l] = line * 128 + (l % per) * w;
					dst[l] = dst_of(sh, l, w, per);
				}
				snprintf(n, sizeof n, "%s%u.p%u.rndrows.%s",
					 cg ? "cg" : "ca", w, p, dst_name[sh]);
				add(v, "sys", n, w, cg, dst, src);
			}
		}
		/* repeated sources: every lane one source; pairs of lanes */
		for (int rep = 1; rep <= 2; rep++) {
			for (int sh = 0; sh < 4; sh++) {
				unsigned dst[32], src[32];
				char n[96];

				for (unsigned l = 0; l < 32; l++) {
					src[l] = rep == 1 ? 0 : (l / 2) * w;
					dst[l] = dst_of(sh, l, w, 128 / w > 32 ? 32 : 128 / w);
				}
				snprintf(n, sizeof n, "%s%u.repeat%s.%s",
					 cg ? "cg" : "ca", w, rep == 1 ? "all" : "pairs",
					 dst_name[sh]);
				add(v, "sys", n, w, cg, dst, src);
			}
		}
	}
}

/* The held-out set: shapes drawn at random, lanes shuffled, some lanes
 * off. */
static void held_out(std::vector<access> &v, int n)
{
	const unsigned widths[] = { 4, 8, 16, 16 };
	const unsigned pieces[] = { 4, 8, 16, 32, 64, 128 };

	rng = 0x2545f4914f6cdd1dull;
	for (int i = 0; i < n; i++) {
		int k = rnd(4), sh = rnd(4);
		unsigned w = widths[k], p, per, rs, st, dst[32], src[32],
			perm[32];
		bool cg = k == 3;
		char name[96];

		do
			p = pieces[rnd(6)];
		while (p < w);
		per = p / w;
		rs = 128 * (1 + rnd(32)) + 16 * rnd(2);
		st = (rnd(128 / w) * w) & ~(w - 1);
		if (st + p > 128 && rnd(2))
			st = 0;
		for (unsigned l = 0; l < 32; l++)
			perm[l] = l;
		if (rnd(2))
			for (unsigned l = 31; l > 0; l--) {
				unsigned j = rnd(l + 1), t = perm[l];
				perm[l] = perm[j];
				perm[j] = t;
			}
		for (unsigned l = 0; l < 32; l++) {
			unsigned q = perm[l];
			src[l] = st + (q / per) * rs + (q % per) * w;
			dst[l] = dst_of(sh, l, w, per);
			if (rnd(8) == 0)
				dst[l] = NONE;
		}
		if (dst[0] == NONE)
			dst[0] = dst_of(sh, 0, w, per);
		snprintf(name, sizeof name, "held%03d.%s%u.p%u.rs%u.o%u.%s", i,
			 cg ? "cg" : "ca", w, p, rs, st, dst_name[sh]);
		add(v, "held", name, w, cg, dst, src);
	}
}

static void lanes(const unsigned *x, const unsigned *dst)
{
	for (int l = 0; l < 32; l++) {
		if (l)
			putchar(' ');
		if (dst[l] == NONE)
			putchar('-');
		else
			printf("%u", x[l]);
	}
}

static void launch(const access &a, const unsigned *dd, const unsigned *ds,
		   const unsigned char *g)
{
	if (a.cg)
		copy_kernel<16, true><<<1, 32, SMEM>>>(dd, ds, g);
	else if (a.w == 4)
		copy_kernel<4, false><<<1, 32, SMEM>>>(dd, ds, g);
	else if (a.w == 8)
		copy_kernel<8, false><<<1, 32, SMEM>>>(dd, ds, g);
	else
		copy_kernel<16, false><<<1, 32, SMEM>>>(dd, ds, g);
}

int main(int argc, char **argv)
{
	const char *metrics[] = {
		"smsp__sass_inst_executed_op_ldgsts.sum",
		"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
	};
	const int nm = 2, reps = 3, batch = 48;
	std::vector<access> v;
	unsigned *dd, *ds;
	unsigned char *g;
	bs_counters *c;
	char why[512];
	double vals[batch * 2];

	systematic(v);
	held_out(v, argc > 1 ? atoi(argv[1]) : 160);
	CK(cudaFree(0));
	CK(cudaMalloc(&dd, 32 * 4 * v.size()));
	CK(cudaMalloc(&ds, 32 * 4 * v.size()));
	CK(cudaMalloc(&g, GSIZE));
	CK(cudaMemset(g, 7, GSIZE));
	for (size_t i = 0; i < v.size(); i++) {
		CK(cudaMemcpy(dd + 32 * i, v[i].dst, 128, cudaMemcpyHostToDevice));
		CK(cudaMemcpy(ds + 32 * i, v[i].src, 128, cudaMemcpyHostToDevice));
	}
	CK(cudaFuncSetAttribute(copy_kernel<4, false>,
				cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
	if (bs_counters_open(&c, metrics, nm, batch, why, sizeof why)) {
		fprintf(stderr, "srcprobe: counters: %s\n", why);
		return 1;
	}
	fprintf(stderr, "srcprobe: %zu accesses, %d reps each\n", v.size(), reps);
	printf("set,name,kind,width,rep,inst,wavefronts,dst,src\n");
	for (size_t b = 0; b < v.size(); b += batch / reps) {
		size_t e = b + batch / reps < v.size() ? b + batch / reps : v.size();
		int nr = 0;

		for (size_t i = b; i < e; i++)
			for (int r = 0; r < reps; r++) {
				if (bs_counters_begin(c, v[i].name.c_str())) {
					fprintf(stderr, "srcprobe: %s\n",
						bs_counters_last_error(c));
					return 1;
				}
				launch(v[i], dd + 32 * i, ds + 32 * i, g);
				CK(cudaDeviceSynchronize());
				bs_counters_end(c);
			}
		if (bs_counters_flush(c, vals, &nr, why, sizeof why) ||
		    nr != (int)(e - b) * reps) {
			fprintf(stderr, "srcprobe: flush: %s (%d ranges)\n", why, nr);
			return 1;
		}
		for (size_t i = b; i < e; i++)
			for (int r = 0; r < reps; r++) {
				const double *x = vals + ((i - b) * reps + r) * nm;

				printf("%s,%s,cp.async.%s,%u,%d,%.0f,%.0f,", v[i].set.c_str(),
				       v[i].name.c_str(), v[i].cg ? "cg" : "ca", v[i].w,
				       r, x[0], x[1]);
				lanes(v[i].dst, v[i].dst);
				putchar(',');
				lanes(v[i].src, v[i].dst);
				putchar('\n');
			}
		fflush(stdout);
	}
	bs_counters_close(c);
	return 0;
}
