// two_subscribers.cu - can CUPTI's callback API and the CUDA Sanitizer API's
// both get callbacks in one process?  The smallest program that shows the
// answer behind `bankscope profile --explain`'s second run.
//
//   ./two_subscribers ORDER      ORDER: cupti-first, sanitizer-first,
//                                cupti-only, sanitizer-only
//
// Each subscriber counts the kernel launches it is told of (CUPTI: the
// runtime's cudaLaunchKernel callbacks at API enter; the Sanitizer: its
// LAUNCH_BEGIN callbacks); the program launches one empty kernel 3 times
// and prints the subscribe results and both counts.  No SASS metrics, no
// patching: subscribing alone.  research/evidence/two_subscribers.sh builds
// and runs every order.
#include <cstdio>
#include <cstring>
#include <cupti.h>

/* two_subscribers_san.c: the Sanitizer side (its header and cupti.h
 * cannot share a translation unit) */
extern "C" void sub_sanitizer(void);
extern "C" int sanitizer_launches;

static int cupti_launches;

__global__ void empty() {}

static void CUPTIAPI on_cupti(void *, CUpti_CallbackDomain dom,
                              CUpti_CallbackId id, const void *data)
{
    const CUpti_CallbackData *cb = (const CUpti_CallbackData *)data;
    if (dom == CUPTI_CB_DOMAIN_RUNTIME_API &&
        id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000 &&
        cb->callbackSite == CUPTI_API_ENTER)
        cupti_launches++;
}

static void sub_cupti()
{
    CUpti_SubscriberHandle h;
    CUptiResult r = cuptiSubscribe(&h, on_cupti, NULL);
    const char *s = "";
    if (r == CUPTI_SUCCESS)
        r = cuptiEnableCallback(1, h, CUPTI_CB_DOMAIN_RUNTIME_API,
                                CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
    cuptiGetResultString(r, &s);
    printf("cuptiSubscribe: %s\n", s);
}

int main(int argc, char **argv)
{
    const char *order = argc > 1 ? argv[1] : "";
    if (!strcmp(order, "cupti-first")) { sub_cupti(); sub_sanitizer(); }
    else if (!strcmp(order, "sanitizer-first")) { sub_sanitizer(); sub_cupti(); }
    else if (!strcmp(order, "cupti-only")) sub_cupti();
    else if (!strcmp(order, "sanitizer-only")) sub_sanitizer();
    else { fprintf(stderr, "usage: %s cupti-first|sanitizer-first|cupti-only|sanitizer-only\n", argv[0]); return 2; }
    for (int i = 0; i < 3; i++)
        empty<<<1, 32>>>();
    cudaError_t e = cudaDeviceSynchronize();
    printf("RESULT %s: cuda %s; launches seen by CUPTI %d, by the Sanitizer %d (of 3)\n",
           order, cudaGetErrorString(e), cupti_launches, sanitizer_launches);
    return e != cudaSuccess;
}
