// launches.cu - the cost of a launch under `bankscope profile` (issue 28):
//   launches short N   N short launches, round robin over three kernels
//                      that use shared memory (a padded tile transpose, a
//                      tree reduction, a strided store), 8 blocks each
//   launches long N    N launches of one long kernel, a shared-memory
//                      tiled SGEMM (1024 x 1024 x 1024, fp32)
//   launches nbstream N  as short, on a stream made with
//                      cudaStreamNonBlocking (the smallest program on which
//                      the Sanitizer API's unpatching from a launch
//                      callback never returned)
//   launches procs N   two child processes on the GPU, as a
//                      multiprocessing job runs them: `short N` and
//                      `long 2`, started at once (fork and exec); the
//                      parent touches no GPU and waits for both
// Prints the number of launches and a checksum; exit status 0, or 1 on a
// CUDA error.  Built `nvcc -arch=sm_90 -lineinfo -O3` by
// scripts/launch-bench.sh.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(x)                                                              \
	do {                                                                  \
		cudaError_t e_ = (x);                                         \
		if (e_ != cudaSuccess) {                                      \
			fprintf(stderr, "launches: %s: %s\n", #x,             \
				cudaGetErrorString(e_));                      \
			exit(1);                                              \
		}                                                             \
	} while (0)

__global__ void transpose_tile(float *out, const float *in, int n)
{
	__shared__ float tile[32][33];
	int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;

	for (int j = 0; j < 32; j += 8)
		tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x;
	y = blockIdx.x * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8)
		out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void reduce_sum(float *out, const float *in)
{
	__shared__ float s[256];
	unsigned t = threadIdx.x;

	s[t] = in[blockIdx.x * 256 + t];
	__syncthreads();
	for (unsigned k = 128; k > 0; k >>= 1) {
		if (t < k)
			s[t] += s[t + k];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = s[0];
}

__global__ void strided_store(float *out, int stride)
{
	__shared__ float s[256 * 8];
	unsigned t = threadIdx.x;

	s[(t * stride) % (256 * 8)] = (float)t;
	__syncthreads();
	out[blockIdx.x * 256 + t] = s[t];
}

#define TS 32
__global__ void sgemm_tiled(float *c, const float *a, const float *b, int n)
{
	__shared__ float as[TS][TS + 1], bs[TS][TS + 1];
	int row = blockIdx.y * TS + threadIdx.y, col = blockIdx.x * TS + threadIdx.x;
	float acc = 0.f;

	for (int k0 = 0; k0 < n; k0 += TS) {
		as[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
		bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
		__syncthreads();
		for (int k = 0; k < TS; k++)
			acc += as[threadIdx.y][k] * bs[k][threadIdx.x];
		__syncthreads();
	}
	c[row * n + col] = acc;
}

int main(int argc, char **argv)
{
	char *end;
	long n;
	double sum = 0;

	if (argc != 3 || (strcmp(argv[1], "short") && strcmp(argv[1], "long") &&
			  strcmp(argv[1], "procs") && strcmp(argv[1], "nbstream")) ||
	    (n = strtol(argv[2], &end, 10)) < 1 || *end) {
		fprintf(stderr, "usage: launches short|long|nbstream|procs N (N >= 1)\n");
		return 2;
	}
	if (!strcmp(argv[1], "procs")) {
		const char *kids[2][3] = { { argv[0], "short", argv[2] },
					   { argv[0], "long", "2" } };
		pid_t pid[2];
		int bad = 0;

		for (int k = 0; k < 2; k++) {
			if ((pid[k] = fork()) < 0)
				return 1;
			if (pid[k] == 0) {
				execl(kids[k][0], kids[k][0], kids[k][1],
				      kids[k][2], (char *)NULL);
				_exit(127);
			}
		}
		for (int k = 0; k < 2; k++) {
			int st;

			if (waitpid(pid[k], &st, 0) != pid[k] ||
			    !WIFEXITED(st) || WEXITSTATUS(st))
				bad = 1;
		}
		printf("launches procs: two children, %s\n", bad ? "one failed" : "both ok");
		return bad;
	}
	if (!strcmp(argv[1], "short") || !strcmp(argv[1], "nbstream")) {
		const int m = 128;   /* the transpose's side: 4 x 4 tiles */
		float *in, *out, h[256];
		cudaStream_t st = 0;

		if (!strcmp(argv[1], "nbstream"))
			CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));

		CHECK(cudaMalloc(&in, m * m * sizeof(float)));
		CHECK(cudaMalloc(&out, m * m * sizeof(float)));
		CHECK(cudaMemset(in, 0, m * m * sizeof(float)));
		for (long i = 0; i < n; i++) {
			switch (i % 3) {
			case 0:
				transpose_tile<<<dim3(m / 32, m / 32), dim3(32, 8), 0, st>>>(out, in, m);
				break;
			case 1:
				reduce_sum<<<8, 256, 0, st>>>(out, in);
				break;
			default:
				strided_store<<<8, 256, 0, st>>>(out, 1 + (int)(i % 5));
			}
		}
		CHECK(cudaGetLastError());
		CHECK(cudaStreamSynchronize(st));
		CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
		for (int i = 0; i < 256; i++)
			sum += h[i];
		CHECK(cudaFree(in));
		CHECK(cudaFree(out));
	} else {
		const int m = 1024;
		size_t bytes = (size_t)m * m * sizeof(float);
		float *a, *b, *c, *h = (float *)malloc(bytes);

		if (!h)
			return 1;
		for (size_t i = 0; i < (size_t)m * m; i++)
			h[i] = (float)(i % 7) * 0.25f;
		CHECK(cudaMalloc(&a, bytes));
		CHECK(cudaMalloc(&b, bytes));
		CHECK(cudaMalloc(&c, bytes));
		CHECK(cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice));
		CHECK(cudaMemcpy(b, h, bytes, cudaMemcpyHostToDevice));
		for (long i = 0; i < n; i++)
			sgemm_tiled<<<dim3(m / TS, m / TS), dim3(TS, TS)>>>(c, a, b, m);
		CHECK(cudaGetLastError());
		CHECK(cudaMemcpy(h, c, bytes, cudaMemcpyDeviceToHost));
		for (size_t i = 0; i < (size_t)m * m; i += 4099)
			sum += h[i];
		CHECK(cudaFree(a));
		CHECK(cudaFree(b));
		CHECK(cudaFree(c));
		free(h);
	}
	CHECK(cudaDeviceSynchronize());
	printf("launches %s %ld: checksum %.6g\n", argv[1], n, sum);
	return 0;
}
