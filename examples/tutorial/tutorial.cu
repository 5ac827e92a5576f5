/*
 * tutorial.cu - bankscope-tutorial: the kernels tutorials use to teach
 * shared memory, each in its plain and its fixed form.
 *
 *   bankscope-tutorial            run every kernel; print a timing CSV
 *   bankscope-tutorial --patterns print, in the pattern-file format, the
 *                                 access of warp 0 for every shared-memory
 *                                 statement of every kernel
 *
 * Run it under `bankscope profile` to get each shared-memory instruction's
 * measured wavefronts; `bankscope profile --patterns` joins them with the
 * patterns printed here (kernel name, op, and the statement's rank among
 * that kernel's statements of that op, in source order), so every
 * instruction gets the analyzer's prediction beside its measurement.
 *
 * The kernels:
 *   micro_*      one warp: shared[0]++, shared[tid*2]++, shared[tid*32]++
 *                (tutorials quote 30, 64 and 124 clocks), and the array of
 *                struct { float f[32]; } with and without a padding float
 *                (quoted 124 and 75 clocks); clock64 around the statement
 *                and a __syncwarp, min and median over 32 repetitions after
 *                a warm-up, cycles in the CSV.  The arrays are reached
 *                through volatile pointers, as in the tutorials: otherwise
 *                the compiler drops an increment nothing reads back.  The shared arrays are not
 *                initialized: an initializing loop would add shared-memory
 *                instructions of its own to the profile, and the values
 *                do not change what the hardware does.
 *   transpose_*  a 4096 x 4096 float transpose through tile[32][32],
 *                tile[32][33], an XOR-swizzled tile[32][32], and a dynamic
 *                extern tile with the padded stride; 32 x 8 threads a block,
 *                each thread moving 4 elements (NVIDIA's classic blog
 *                kernel); time per launch from CUDA events, median of 9.
 *   matmul_*     C = A B for 1024 x 1024 floats with 16 x 16 and 32 x 32
 *                tiles (As[ty][k], Bs[k][tx]), static and dynamic shared
 *                arrays.
 * Inputs are random; every result is checked against a CPU reference (the
 * transposes exactly, the products to 1e-4 relative), and the program
 * exits 1 on a wrong result.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

/* CHECK_CUDA(call), from cudabase/check.h: a failed CUDA call prints
 * "bankscope-tutorial: TEXT [FILE:LINE: CALL: NAME]" on stderr and exits
 * 1.  This block is as long as the macro that stood here, so that the
 * source lines named by the committed profiles (data/h100-sxm/
 * profile-tutorial-*, README.md, docs/labs) are still the lines of
 * the same statements.  Keep it so: a line added above the kernels
 * breaks every committed reference to them.
 */
#define BS_CHECK_PROGRAM "bankscope-tutorial"
#include "check.h"

#define REPS 32
#define N_TR 4096
#define N_MM 1024

__device__ __forceinline__ long long clock_read(void)
{
	long long t;

	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : : "memory");
	return t;
}

/* ---- one-warp micro-kernels ------------------------------------------------ */

/* MODE 0: shared[0]++; 1: shared[tid*2]++; 2: shared[tid*32]++ */
template <int MODE>
__global__ void micro_inc(long long *cycles, int *sink)
{
	__shared__ int shared_[32 * 32];
	volatile int *shared = shared_;   /* or the compiler drops it */
	const int tid = threadIdx.x;
	const int idx = MODE == 0 ? 0 : MODE == 1 ? tid * 2 : tid * 32;

	for (int r = -1; r < REPS; r++) {
		long long t0, t1;

		__syncwarp();
		t0 = clock_read();
		shared[idx]++;
		__syncwarp();
		t1 = clock_read();
		if (tid == 0 && r >= 0)
			cycles[r] = t1 - t0;
	}
	sink[tid] = idx;
}

struct plain_s {
	float f[32];
};
struct padded_s {
	float f[32];
	float pad;
};

template <typename S>
__global__ void micro_struct(long long *cycles, float *sink)
{
	__shared__ S s_[32];
	volatile S *s = s_;
	const int tid = threadIdx.x;

	for (int r = -1; r < REPS; r++) {
		long long t0, t1;

		__syncwarp();
		t0 = clock_read();
		s[tid].f[0] += 1.0f;
		__syncwarp();
		t1 = clock_read();
		if (tid == 0 && r >= 0)
			cycles[r] = t1 - t0;
	}
	sink[tid] = (float)tid;
}

/* ---- transposes, 32 x 8 threads, 4 rows each --------------------------------- */

#define T 32
#define ROWS 8

/* PAD 0 or 1 extra float per row; XOR: column c of row r at c ^ r. */
template <int PAD, int XOR>
__global__ void transpose_static(float *out, const float *in)
{
	__shared__ float tile[T][T + PAD];
	const int x = blockIdx.x * T + threadIdx.x;
	const int y = blockIdx.y * T + threadIdx.y;
	const int ox = blockIdx.y * T + threadIdx.x;
	const int oy = blockIdx.x * T + threadIdx.y;

#pragma unroll
	for (int j = 0; j < T; j += ROWS) {
		const int r = threadIdx.y + j;
		const int c = XOR ? threadIdx.x ^ r : threadIdx.x;
		tile[r][c] = in[(size_t)(y + j) * N_TR + x];
	}
	__syncthreads();
#pragma unroll
	for (int j = 0; j < T; j += ROWS) {
		const int r = threadIdx.x;
		const int c = XOR ? (threadIdx.y + j) ^ r : threadIdx.y + j;
		out[(size_t)(oy + j) * N_TR + ox] = tile[r][c];
	}
}

/* The padded transpose through dynamic shared memory, stride T+1. */
__global__ void transpose_dynamic(float *out, const float *in)
{
	extern __shared__ float dtile[];
	const int x = blockIdx.x * T + threadIdx.x;
	const int y = blockIdx.y * T + threadIdx.y;
	const int ox = blockIdx.y * T + threadIdx.x;
	const int oy = blockIdx.x * T + threadIdx.y;

#pragma unroll
	for (int j = 0; j < T; j += ROWS) {
		const int r = threadIdx.y + j;
		dtile[r * (T + 1) + threadIdx.x] = in[(size_t)(y + j) * N_TR + x];
	}
	__syncthreads();
#pragma unroll
	for (int j = 0; j < T; j += ROWS) {
		const int r = threadIdx.x;
		out[(size_t)(oy + j) * N_TR + ox] = dtile[r * (T + 1) + threadIdx.y + j];
	}
}

/* ---- tiled matrix multiply ------------------------------------------------------ */

template <int TILE>
__global__ void matmul_static(float *c, const float *a, const float *b)
{
	__shared__ float As[TILE][TILE];
	__shared__ float Bs[TILE][TILE];
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
	float sum = 0.0f;

	for (int t = 0; t < N_MM; t += TILE) {
		As[ty][tx] = a[(size_t)row * N_MM + t + tx];
		Bs[ty][tx] = b[(size_t)(t + ty) * N_MM + col];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < TILE; k++) {
			float av = As[ty][k];
			float bv = Bs[k][tx];
			sum += av * bv;
		}
		__syncthreads();
	}
	c[(size_t)row * N_MM + col] = sum;
}

template <int TILE>
__global__ void matmul_dynamic(float *c, const float *a, const float *b)
{
	extern __shared__ float smem[];
	float *As = smem, *Bs = smem + TILE * TILE;
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
	float sum = 0.0f;

	for (int t = 0; t < N_MM; t += TILE) {
		As[ty * TILE + tx] = a[(size_t)row * N_MM + t + tx];
		Bs[ty * TILE + tx] = b[(size_t)(t + ty) * N_MM + col];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < TILE; k++) {
			float av = As[ty * TILE + k];
			float bv = Bs[k * TILE + tx];
			sum += av * bv;
		}
		__syncthreads();
	}
	c[(size_t)row * N_MM + col] = sum;
}

/* ---- the patterns of warp 0 ------------------------------------------------------ */

/*
 * One line per shared-memory statement, in source order within a kernel:
 * NAME = kernel:op:rank (the demangled kernel name without blanks), the
 * access of warp 0 (threads 0..31 of block 0,
 * the first iteration), byte offsets from the array's start as laid out
 * in shared memory (As before Bs).  Elements are 4-byte floats or ints;
 * when the compiler merges a statement's accesses into a wider one, the
 * join takes the width from the SASS.
 */
typedef unsigned (*lane_addr)(unsigned lane);

static void pattern(const char *kernel, const char *op, int rank,
		    lane_addr f)
{
	printf("%s:%s:%d 4 %s", kernel, op, rank, op);
	for (unsigned l = 0; l < 32; l++)
		printf(" %u", f(l));
	printf("\n");
}

static unsigned a_zero(unsigned l) { (void)l; return 0; }
static unsigned a_tid2(unsigned l) { return l * 2 * 4; }
static unsigned a_tid32(unsigned l) { return l * 32 * 4; }
static unsigned a_struct32(unsigned l) { return l * 32 * 4; }
static unsigned a_struct33(unsigned l) { return l * 33 * 4; }
static unsigned a_row(unsigned l) { return l * 4; }
static unsigned a_col32(unsigned l) { return l * 32 * 4; }
static unsigned a_col33(unsigned l) { return l * 33 * 4; }
static unsigned a_xor_col(unsigned l) { return (l * 32 + (0 ^ l)) * 4; }
/* 16 x 16 tiles: warp 0 is rows 0 and 1, lane l = (ty, tx) = (l/16, l%16) */
static unsigned a_mm16_store(unsigned l) { return l * 4; }
static unsigned a_mm16_bstore(unsigned l) { return 16 * 16 * 4 + l * 4; }
static unsigned a_mm16_as(unsigned l) { return (l / 16) * 16 * 4; }
static unsigned a_mm16_bs(unsigned l) { return 16 * 16 * 4 + (l % 16) * 4; }
static unsigned a_mm32_bstore(unsigned l) { return 32 * 32 * 4 + l * 4; }
static unsigned a_mm32_bs(unsigned l) { return 32 * 32 * 4 + l * 4; }

static void print_patterns(void)
{
	printf("# bankscope-tutorial: warp 0's access for each shared-memory "
	       "statement, kernel:op:rank in source order\n");
	pattern("micro_inc<0>", "ld", 0, a_zero);
	pattern("micro_inc<0>", "st", 0, a_zero);
	pattern("micro_inc<1>", "ld", 0, a_tid2);
	pattern("micro_inc<1>", "st", 0, a_tid2);
	pattern("micro_inc<2>", "ld", 0, a_tid32);
	pattern("micro_inc<2>", "st", 0, a_tid32);
	pattern("micro_struct<plain_s>", "ld", 0, a_struct32);
	pattern("micro_struct<plain_s>", "st", 0, a_struct32);
	pattern("micro_struct<padded_s>", "ld", 0, a_struct33);
	pattern("micro_struct<padded_s>", "st", 0, a_struct33);
	pattern("transpose_static<0,0>", "st", 0, a_row);
	pattern("transpose_static<0,0>", "ld", 0, a_col32);
	pattern("transpose_static<1,0>", "st", 0, a_row);
	pattern("transpose_static<1,0>", "ld", 0, a_col33);
	pattern("transpose_static<0,1>", "st", 0, a_row);
	pattern("transpose_static<0,1>", "ld", 0, a_xor_col);
	pattern("transpose_dynamic", "st", 0, a_row);
	pattern("transpose_dynamic", "ld", 0, a_col33);
	pattern("matmul_static<16>", "st", 0, a_mm16_store);
	pattern("matmul_static<16>", "st", 1, a_mm16_bstore);
	pattern("matmul_static<16>", "ld", 0, a_mm16_as);
	pattern("matmul_static<16>", "ld", 1, a_mm16_bs);
	pattern("matmul_static<32>", "st", 0, a_row);
	pattern("matmul_static<32>", "st", 1, a_mm32_bstore);
	pattern("matmul_static<32>", "ld", 0, a_zero);
	pattern("matmul_static<32>", "ld", 1, a_mm32_bs);
	pattern("matmul_dynamic<16>", "st", 0, a_mm16_store);
	pattern("matmul_dynamic<16>", "st", 1, a_mm16_bstore);
	pattern("matmul_dynamic<16>", "ld", 0, a_mm16_as);
	pattern("matmul_dynamic<16>", "ld", 1, a_mm16_bs);
	pattern("matmul_dynamic<32>", "st", 0, a_row);
	pattern("matmul_dynamic<32>", "st", 1, a_mm32_bstore);
	pattern("matmul_dynamic<32>", "ld", 0, a_zero);
	pattern("matmul_dynamic<32>", "ld", 1, a_mm32_bs);
}

/* ---- host ------------------------------------------------------------------------ */

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static int cmp_f(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

static void micro_row(const char *kernel, const char *what,
		      long long *d_cycles)
{
	long long c[REPS];

	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaMemcpy(c, d_cycles, sizeof c, cudaMemcpyDeviceToHost));
	qsort(c, REPS, sizeof *c, cmp_ll);
	printf("%s,\"%s\",%lld,%.1f,,\n", kernel, what, c[0],
	       (c[REPS / 2 - 1] + c[REPS / 2]) / 2.0);
}

static float rnd(unsigned *s)
{
	*s = *s * 1664525u + 1013904223u;
	return (float)(*s >> 8) / 16777216.0f - 0.5f;
}

typedef void (*tr_kernel)(float *, const float *);
typedef void (*mm_kernel)(float *, const float *, const float *);

/* Median of 9 timed launches after one warm-up, in ms. */
#define TIME_LAUNCHES(launch, ms_out)                                         \
	do {                                                                  \
		float t_[9];                                                  \
		cudaEvent_t e0_, e1_;                                         \
		CHECK_CUDA(cudaEventCreate(&e0_));                            \
		CHECK_CUDA(cudaEventCreate(&e1_));                            \
		launch;                                                       \
		for (int i_ = 0; i_ < 9; i_++) {                              \
			CHECK_CUDA(cudaEventRecord(e0_));                     \
			launch;                                               \
			CHECK_CUDA(cudaEventRecord(e1_));                     \
			CHECK_CUDA(cudaEventSynchronize(e1_));                \
			CHECK_CUDA(cudaEventElapsedTime(&t_[i_], e0_, e1_));  \
		}                                                             \
		CHECK_CUDA(cudaGetLastError());                               \
		qsort(t_, 9, sizeof *t_, cmp_f);                              \
		ms_out = t_[4];                                               \
		CHECK_CUDA(cudaEventDestroy(e0_));                            \
		CHECK_CUDA(cudaEventDestroy(e1_));                            \
	} while (0)

static int run_transposes(void)
{
	static const struct {
		const char *name, *what;
		tr_kernel k;
		size_t dyn;
	} tr[] = {
		{ "transpose_static<0, 0>", "tile[32][32]",
		  transpose_static<0, 0>, 0 },
		{ "transpose_static<1, 0>", "tile[32][33]",
		  transpose_static<1, 0>, 0 },
		{ "transpose_static<0, 1>", "tile[32][32], column c ^ row",
		  transpose_static<0, 1>, 0 },
		{ "transpose_dynamic", "extern tile, stride 33",
		  transpose_dynamic, T * (T + 1) * sizeof(float) },
	};
	size_t n = (size_t)N_TR * N_TR;
	float *h_in = (float *)malloc(n * sizeof *h_in);
	float *h_out = (float *)malloc(n * sizeof *h_out);
	float *d_in, *d_out;
	unsigned seed = 12345;
	int bad = 0;

	for (size_t i = 0; i < n; i++)
		h_in[i] = rnd(&seed);
	CHECK_CUDA(cudaMalloc(&d_in, n * sizeof *d_in));
	CHECK_CUDA(cudaMalloc(&d_out, n * sizeof *d_out));
	CHECK_CUDA(cudaMemcpy(d_in, h_in, n * sizeof *h_in,
			      cudaMemcpyHostToDevice));
	for (size_t t = 0; t < sizeof tr / sizeof *tr; t++) {
		dim3 grid(N_TR / T, N_TR / T), block(T, ROWS);
		float ms;

		CHECK_CUDA(cudaMemset(d_out, 0xff, n * sizeof *d_out));
		TIME_LAUNCHES((tr[t].k<<<grid, block, tr[t].dyn>>>(d_out, d_in)),
			      ms);
		CHECK_CUDA(cudaMemcpy(h_out, d_out, n * sizeof *h_out,
				      cudaMemcpyDeviceToHost));
		for (size_t y = 0; y < N_TR && !bad; y++)
			for (size_t x = 0; x < N_TR; x++)
				if (h_out[x * N_TR + y] != h_in[y * N_TR + x]) {
					fprintf(stderr, "bankscope-tutorial: %s "
						"wrong at (%zu, %zu)\n",
						tr[t].name, y, x);
					bad = 1;
					break;
				}
		printf("%s,\"%s\",,,%.4f,%.1f\n", tr[t].name, tr[t].what, ms,
		       2.0 * n * sizeof(float) / (ms * 1e6));
	}
	CHECK_CUDA(cudaFree(d_in));
	CHECK_CUDA(cudaFree(d_out));
	free(h_in);
	free(h_out);
	return bad;
}

static int run_matmuls(void)
{
	static const struct {
		const char *name, *what;
		mm_kernel k;
		int tile;
		size_t dyn;
	} mm[] = {
		{ "matmul_static<16>", "As[16][16], Bs[16][16]",
		  matmul_static<16>, 16, 0 },
		{ "matmul_static<32>", "As[32][32], Bs[32][32]",
		  matmul_static<32>, 32, 0 },
		{ "matmul_dynamic<16>", "extern As, Bs, 16 x 16",
		  matmul_dynamic<16>, 16, 2 * 16 * 16 * sizeof(float) },
		{ "matmul_dynamic<32>", "extern As, Bs, 32 x 32",
		  matmul_dynamic<32>, 32, 2 * 32 * 32 * sizeof(float) },
	};
	size_t n = (size_t)N_MM * N_MM;
	float *h_a = (float *)malloc(n * sizeof(float));
	float *h_b = (float *)malloc(n * sizeof(float));
	float *h_c = (float *)malloc(n * sizeof(float));
	double *ref = (double *)calloc(n, sizeof(double));
	float *d_a, *d_b, *d_c;
	unsigned seed = 777;
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		h_a[i] = rnd(&seed);
		h_b[i] = rnd(&seed);
	}
	for (size_t i = 0; i < N_MM; i++)
		for (size_t k = 0; k < N_MM; k++) {
			double a = h_a[i * N_MM + k];

			for (size_t j = 0; j < N_MM; j++)
				ref[i * N_MM + j] += a * h_b[k * N_MM + j];
		}
	CHECK_CUDA(cudaMalloc(&d_a, n * sizeof(float)));
	CHECK_CUDA(cudaMalloc(&d_b, n * sizeof(float)));
	CHECK_CUDA(cudaMalloc(&d_c, n * sizeof(float)));
	CHECK_CUDA(cudaMemcpy(d_a, h_a, n * sizeof(float),
			      cudaMemcpyHostToDevice));
	CHECK_CUDA(cudaMemcpy(d_b, h_b, n * sizeof(float),
			      cudaMemcpyHostToDevice));
	for (size_t t = 0; t < sizeof mm / sizeof *mm; t++) {
		dim3 grid(N_MM / mm[t].tile, N_MM / mm[t].tile);
		dim3 block(mm[t].tile, mm[t].tile);
		double num = 0, den = 0;
		float ms;

		CHECK_CUDA(cudaMemset(d_c, 0xff, n * sizeof(float)));
		TIME_LAUNCHES((mm[t].k<<<grid, block, mm[t].dyn>>>(d_c, d_a, d_b)),
			      ms);
		CHECK_CUDA(cudaMemcpy(h_c, d_c, n * sizeof(float),
				      cudaMemcpyDeviceToHost));
		for (size_t i = 0; i < n; i++) {
			num += (h_c[i] - ref[i]) * (h_c[i] - ref[i]);
			den += ref[i] * ref[i];
		}
		if (!(sqrt(num / den) < 1e-4)) {
			fprintf(stderr, "bankscope-tutorial: %s: relative error "
				"%g\n", mm[t].name, sqrt(num / den));
			bad = 1;
		}
		printf("%s,\"%s\",,,%.4f,%.1f\n", mm[t].name, mm[t].what, ms,
		       2.0 * N_MM * N_MM * N_MM / (ms * 1e6));
	}
	CHECK_CUDA(cudaFree(d_a));
	CHECK_CUDA(cudaFree(d_b));
	CHECK_CUDA(cudaFree(d_c));
	free(h_a);
	free(h_b);
	free(h_c);
	free(ref);
	return bad;
}

int main(int argc, char **argv)
{
	long long *d_cycles;
	int *d_isink;
	float *d_fsink;
	int ndev = 0, bad;

	if (argc > 1 && !strcmp(argv[1], "--patterns")) {
		print_patterns();
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "usage: bankscope-tutorial [--patterns]\n");
		return 2;
	}
	CHECK_CUDA(cudaGetDeviceCount(&ndev));
	if (ndev == 0) {
		fprintf(stderr, "bankscope-tutorial: no CUDA device\n");
		return 1;
	}
	CHECK_CUDA(cudaMalloc(&d_cycles, REPS * sizeof *d_cycles));
	CHECK_CUDA(cudaMalloc(&d_isink, 32 * sizeof *d_isink));
	CHECK_CUDA(cudaMalloc(&d_fsink, 32 * sizeof *d_fsink));
	/* the last two columns: GB/s for transposes, GFLOP/s for products */
	printf("kernel,what,cycles_min,cycles_median,time_ms,rate\n");
	micro_inc<0><<<1, 32>>>(d_cycles, d_isink);
	micro_row("micro_inc<0>", "shared[0]++", d_cycles);
	micro_inc<1><<<1, 32>>>(d_cycles, d_isink);
	micro_row("micro_inc<1>", "shared[tid*2]++", d_cycles);
	micro_inc<2><<<1, 32>>>(d_cycles, d_isink);
	micro_row("micro_inc<2>", "shared[tid*32]++", d_cycles);
	micro_struct<plain_s><<<1, 32>>>(d_cycles, d_fsink);
	micro_row("micro_struct<plain_s>", "struct { float f[32]; } s[tid].f[0] += 1",
		  d_cycles);
	micro_struct<padded_s><<<1, 32>>>(d_cycles, d_fsink);
	micro_row("micro_struct<padded_s>",
		  "struct { float f[32]; float pad; } s[tid].f[0] += 1", d_cycles);
	bad = run_transposes();
	bad |= run_matmuls();
	return bad;
}
