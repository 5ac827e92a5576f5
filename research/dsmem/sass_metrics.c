/*
 * sass_metrics.c - the SASS metrics CUPTI offers on this GPU's chip, one
 * "name<TAB>description" a line: which per-instruction counters could
 * show a remote (dshared) access in `bankscope profile` (issue 21, item
 * 4).  Needs the driver: cuptiProfilerInitialize fails without one.
 *
 *   gcc -std=c11 -Iprobes/cinclude -I/usr/local/cuda/include \
 *       -o build/sass-metrics research/dsmem/sass_metrics.c \
 *       -L/usr/local/cuda/lib64 -Wl,--disable-new-dtags,-rpath,/usr/local/cuda/lib64 \
 *       -lcupti -L/usr/local/cuda/lib64/stubs -lcuda
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <cupti_sass_metrics.h>

int main(void)
{
	CUpti_Profiler_Initialize_Params ip;
	CUpti_Device_GetChipName_Params cn;
	CUpti_SassMetrics_GetNumOfMetrics_Params n;
	CUpti_SassMetrics_GetMetrics_Params g;
	CUpti_SassMetrics_MetricDetails *d;
	int rc;

	memset(&ip, 0, sizeof ip);
	ip.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
	memset(&cn, 0, sizeof cn);
	cn.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
	if (cuInit(0) != CUDA_SUCCESS) {
		fprintf(stderr, "sass_metrics: no CUDA driver or device\n");
		return 1;
	}
	if ((rc = cuptiProfilerInitialize(&ip)) != 0 ||
	    (rc = cuptiDeviceGetChipName(&cn)) != 0) {
		fprintf(stderr, "sass_metrics: CUPTI error %d\n", rc);
		return 1;
	}
	memset(&n, 0, sizeof n);
	n.structSize = CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE;
	n.pChipName = cn.pChipName;
	if ((rc = cuptiSassMetricsGetNumOfMetrics(&n)) != 0) {
		fprintf(stderr, "sass_metrics: CUPTI error %d\n", rc);
		return 1;
	}
	d = calloc(n.numOfMetrics, sizeof *d);
	memset(&g, 0, sizeof g);
	g.structSize = CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE;
	g.pChipName = cn.pChipName;
	g.numOfMetrics = n.numOfMetrics;
	g.pMetricsList = d;
	if (!d || (rc = cuptiSassMetricsGetMetrics(&g)) != 0) {
		fprintf(stderr, "sass_metrics: CUPTI error %d\n", rc);
		return 1;
	}
	printf("# chip %s: %zu SASS metrics\n", cn.pChipName, n.numOfMetrics);
	for (size_t i = 0; i < n.numOfMetrics; i++)
		printf("%s\t%s\n", d[i].pMetricName,
		       d[i].pMetricDescription ? d[i].pMetricDescription : "");
	return 0;
}
