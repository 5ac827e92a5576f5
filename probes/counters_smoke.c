/*
 * counters_smoke.c - standalone check of probes/counters.c, on a GPU.
 *
 * make check builds it (build/counters-smoke, with gcc: probes/counters.c,
 * cudabase/cupti_reason.c, -lcupti -lcudart, and the CUDA lib folder as a
 * DT_RPATH: --disable-new-dtags, which libcupti's dlopen of
 * libnvperf_host.so honours; see counters.h), so it keeps compiling.  No
 * libcuda link: the program starts, and says "no CUDA device", on a
 * machine without a driver.
 *
 * Run:
 *   build/counters-smoke [--metrics m1,m2,...]
 *                             open with the six shared-memory metrics (or the
 *                             ones given), print
 *                             "counters: ok ..." or "counters: unavailable: <reason>",
 *                             close.  Exit 0 if ok, 1 if unavailable, 2 if no GPU.
 *   build/counters-smoke --run [batches [ranges_per_batch]]   (default 3 3,
 *                             ranges_per_batch at most 16 = max_ranges here;
 *                             17 shows the "more than max_ranges" error)
 *                             also launch a tiny PTX kernel (one warp; every
 *                             thread stores then loads one shared word at
 *                             tid*stride) with strides 1, 2, 32, 1, 2, 32, ...
 *                             in each batch, and print the counters of each
 *                             range (the six metrics of BS_KERNEL_METRICS,
 *                             probes/metrics.h, in that order).
 *                             Expect per range: 1 shared ld and 1 shared st
 *                             instruction, and 1, 2, 32 wavefronts (0, 1, 31
 *                             bank conflicts) for strides 1, 2, 32 - as seen
 *                             on an H100 (CUDA 13.0, driver 580), as root.
 *   build/counters-smoke --passes CHIP [--metrics m1,m2,...]
 *                             no GPU needed (CUPTI's host API): the passes
 *                             each metric group of probes/metrics.h needs
 *                             on CHIP (GH100 ...), or the given metrics',
 *                             one line each: "passes: GH100 ldst 1" (on a
 *                             chip without stmatrix counters, the SASS
 *                             group without them: "sassk-before-sm_90").  Exit
 *                             0 when every group is one pass (the runner
 *                             reads each in one), 1 when one is not, 2 on
 *                             an error (an unknown chip or metric).
 *                             make check runs it for GH100.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "counters.h"
#include "metrics.h"

static const char *const k_metrics[] = BS_KERNEL_METRICS;
enum { NMETRICS = (int)(sizeof k_metrics / sizeof k_metrics[0]), MAX_RANGES = 16 };

/* out[tid] = sm[(tid*stride) & 1023] after sm[(tid*stride) & 1023] = tid */
static const char k_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry bank(.param .u32 stride, .param .u64 out)\n"
    "{\n"
    "  .shared .align 4 .b8 sm[4096];\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  ld.param.u32 %r2, [stride];\n"
    "  mul.lo.u32 %r3, %r1, %r2;\n"
    "  and.b32 %r3, %r3, 1023;\n"
    "  shl.b32 %r4, %r3, 2;\n"
    "  mov.u32 %r5, sm;\n"
    "  add.u32 %r6, %r5, %r4;\n"
    "  st.shared.u32 [%r6], %r1;\n"
    "  bar.sync 0;\n"
    "  ld.shared.u32 %r7, [%r6];\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r7;\n"
    "  ret;\n"
    "}\n";

static double now_s(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC); /* C11 */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The kernel and its output buffer. */
static int load(cudaLibrary_t *lib, cudaKernel_t *kern, unsigned **out,
                char *why, size_t whylen)
{
    CHECK_CUDA(cudaLibraryLoadData(lib, k_ptx, NULL, NULL, 0, NULL, NULL, 0));
    CHECK_CUDA(cudaLibraryGetKernel(kern, *lib, "bank"));
    CHECK_CUDA(cudaMalloc((void **)out, 32 * sizeof(unsigned)));
    return 0;
}

/* One warp's launch with stride s, waited for. */
static int launch(cudaKernel_t kern, unsigned s, unsigned *out, char *why,
                  size_t whylen)
{
    void *args[2];
    dim3 grid = {1, 1, 1}, block = {32, 1, 1};
    args[0] = &s;
    args[1] = &out;
    /* a cudaKernel_t is launched by casting it to const void * */
    CHECK_CUDA(cudaLaunchKernel((const void *)kern, grid, block, args, 0, NULL));
    CHECK_CUDA(cudaDeviceSynchronize());
    return 0;
}

static int run_batches(bs_counters *c, int batches, int per_batch)
{
    static const unsigned strides[] = {1, 2, 32};
    const int nk = per_batch;
    cudaLibrary_t lib;
    cudaKernel_t kern;
    unsigned *out = NULL;
    double values[MAX_RANGES * NMETRICS];
    char why[512];
    int b, k, m, n, rc = 0;

    if (load(&lib, &kern, &out, why, sizeof why) != 0) {
        printf("counters: run failed: %s\n", why);
        return -1;
    }

    for (b = 0; b < batches && rc == 0; b++) {
        double t0 = now_s(), t1;
        for (k = 0; k < nk; k++) {
            char name[32];
            unsigned s = strides[k % 3];
            snprintf(name, sizeof name, "stride%u", s); /* repeats: fine */
            if (bs_counters_begin(c, name) != 0) {
                printf("counters: begin failed: %s\n", bs_counters_last_error(c));
                break;
            }
            if (launch(kern, s, out, why, sizeof why) != 0) {
                printf("counters: run failed: %s\n", why);
                rc = -1;
                break;
            }
            if (bs_counters_end(c) != 0) {
                printf("counters: end failed: %s\n", bs_counters_last_error(c));
                break;
            }
        }
        if (bs_counters_flush(c, values, &n, why, sizeof why) != 0) {
            printf("counters: batch %d: flush failed: %s\n", b, why);
            rc = -1;
            break;
        }
        t1 = now_s();
        printf("batch %d: %d ranges in %.3f s\n", b, n, t1 - t0);
        for (k = 0; k < n; k++) {
            printf("  range %d (stride %u):", k, strides[k % 3]);
            for (m = 0; m < NMETRICS; m++)
                printf(" %g", values[k * NMETRICS + m]);
            printf("\n");
        }
    }
    cudaFree(out);
    cudaLibraryUnload(lib);
    return rc;
}

/* --passes: each metric group of metrics.h, or the given list. */
static int passes_of(const char *chip, const char *const *given, int ngiven)
{
    static const char *const ldst[] = BS_KERNEL_METRICS;
    static const char *const atom[] = BS_ATOM_METRICS;
    static const char *const sassk[] = BS_SASSK_METRICS;
    const struct {
        const char *name;
        const char *const *m;
        int n;
    } groups[] = {
        { "ldst", ldst, BS_NKERNEL_METRICS },
        { "atom", atom, BS_NATOM_METRICS },
        { "sassk", sassk, BS_NSASSK_METRICS },
        { "given", given, ngiven },
    };
    int rc = 0;

    for (size_t g = given ? 3 : 0; g < (given ? 4 : 3); g++) {
        size_t np = 0;
        char why[512] = "";
        const char *name = groups[g].name;

        if (bs_counters_passes(chip, groups[g].m, groups[g].n, &np, why,
                               sizeof why) != 0 &&
            (groups[g].m != sassk ||
             bs_counters_passes(chip, sassk, BS_NSASSK_METRICS_SM80, &np,
                                why, sizeof why) != 0)) {
            printf("passes: %s %s: %s\n", chip, name, why);
            return 2;
        } else if (groups[g].m == sassk && strstr(why, "stsm")) {
            name = "sassk-before-sm_90";  /* no stmatrix counters */
        }
        printf("passes: %s %s %zu\n", chip, name, np);
        if (np != 1)
            rc = 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    bs_counters *c = NULL;
    char why[512];
    const char *list[64];
    const char *const *metrics = k_metrics;
    int nmetrics = NMETRICS;
    const char *chip = NULL;
    int ndev = 0, run = 0, batches = 3, per_batch = 3, rc, i;
    double t0, t1;
    cudaError_t e;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--run") == 0) {
            run = 1;
            if (i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9')
                batches = atoi(argv[++i]);
            if (i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9')
                per_batch = atoi(argv[++i]);
            if (batches < 1)
                batches = 1;
            if (per_batch < 1)
                per_batch = 1;
        } else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc) {
            chip = argv[++i];
        } else if (strcmp(argv[i], "--metrics") == 0 && i + 1 < argc) {
            char *tok = strtok(argv[++i], ",");
            nmetrics = 0;
            while (tok != NULL && nmetrics < 64) {
                list[nmetrics++] = tok;
                tok = strtok(NULL, ",");
            }
            metrics = list;
        } else {
            printf("usage: %s [--run [batches [ranges_per_batch]]] "
                   "[--passes CHIP] [--metrics m1,m2,...]\n",
                   argv[0]);
            return 2;
        }
    }
    if (chip)
        return passes_of(chip, metrics == k_metrics ? NULL : metrics,
                         metrics == k_metrics ? 0 : nmetrics);
    if (run && metrics != k_metrics) {
        printf("usage: --run prints the six default metrics; not with --metrics\n");
        return 2;
    }

    e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        printf("counters: no CUDA device (%s)\n",
               e != cudaSuccess ? bs_cuda_error_text(e) : "0 devices");
        return 2;
    }

    t0 = now_s();
    if (bs_counters_open(&c, metrics, nmetrics, MAX_RANGES, why, sizeof why) != 0) {
        printf("counters: unavailable: %s\n", why);
        return 1;
    }
    t1 = now_s();
    printf("counters: ok (%s, %d metrics, open %.3f s)\n", bs_counters_version(),
           nmetrics, t1 - t0);
    for (i = 0; i < nmetrics; i++)
        printf("  metric %d: %s\n", i, metrics[i]);

    rc = 0;
    if (run)
        rc = run_batches(c, batches, per_batch) != 0;
    t0 = now_s();
    bs_counters_close(c);
    t1 = now_s();
    if (run)
        printf("close %.3f s\n", t1 - t0);
    return rc;
}
