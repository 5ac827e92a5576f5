/*
 * metrics.c - CUPTI's SASS metrics, in the call order of NVIDIA's sample
 * sass_metrics (inject.c lists it): configure the device, enable a
 * context, flush its records into records.tsv summed per (cubin,
 * function, pc), disable.
 *
 * Per instruction (GPU-wide sums, names without .sum; probes/metrics.h's
 * BS_SASS_METRIC_*):
 *   smsp__sass_inst_executed                               warp instructions
 *   smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared        wavefronts
 *   smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal  ideal wavefronts
 *   smsp__sass_inst_executed_op_dshared                    warp instructions
 *        that accessed another CTA's shared memory (distributed shared
 *        memory; an H100 counts no access of a CTA to its own shared
 *        memory through a cluster address: data/h100-sxm/dsmem-20261128)
 * The last is optional: a chip without it (before sm_90) writes "-".
 */
#include "inject.h"
#include "metrics.h"

#include <stdlib.h>
#include <string.h>

#include <cupti_activity.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#define NO_METRIC UINT64_MAX

static const char *const metric_name[NMETRICS] = {
	BS_SASS_METRIC_INSTRUCTIONS,
	BS_SASS_METRIC_WAVEFRONTS,
	BS_SASS_METRIC_WAVEFRONTS_IDEAL,
	BS_SASS_METRIC_DSHARED,
};

typedef struct {
	uint32_t crc, fidx, pc;
	const char *fn;
	uint64_t v[NMETRICS];
} pc_sum;

/* ---- SASS metrics ------------------------------------------------------ */

/* Everything up to cuptiSassMetricsSetConfig, for device dev. */
static int configure(uint32_t dev)
{
	CUpti_Profiler_Initialize_Params init;
	CUpti_Profiler_DeviceSupported_Params sup;
	CUpti_Device_GetChipName_Params chip;
	CUpti_SassMetrics_GetNumOfMetrics_Params num;
	CUpti_SassMetrics_GetMetrics_Params list;
	CUpti_SassMetrics_Config cfg[NMETRICS];
	CUpti_SassMetricsSetConfig_Params set;
	CUpti_SassMetrics_MetricDetails *all;
	int found[NMETRICS] = { 0 };
	size_t ncfg = 0;

	if (!inj.profiler_inited) {
		memset(&init, 0, sizeof init);
		init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
		CHECK_CUPTI(cuptiProfilerInitialize(&init));
		inj.profiler_inited = 1;
	}
	trace("configure device %u", dev);
	memset(&sup, 0, sizeof sup);
	sup.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
	sup.cuDevice = (CUdevice)dev;
	sup.api = CUPTI_PROFILER_SASS_METRICS;
	CHECK_CUPTI(cuptiProfilerDeviceSupported(&sup));
	if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
		inj_stop("GPU not supported by CUPTI's SASS metrics (device "
			 "%u: architecture %d, vGPU %d, confidential computing "
			 "%d, CMP %d, WSL %d)", dev, (int)sup.architecture,
			 (int)sup.vGpu, (int)sup.confidentialCompute,
			 (int)sup.cmp, (int)sup.wsl);
		return -1;
	}
	memset(&chip, 0, sizeof chip);
	chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
	chip.deviceIndex = dev;
	CHECK_CUPTI(cuptiDeviceGetChipName(&chip));

	memset(&num, 0, sizeof num);
	num.structSize = CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE;
	num.pChipName = chip.pChipName;
	CHECK_CUPTI(cuptiSassMetricsGetNumOfMetrics(&num));
	if (!(all = calloc(num.numOfMetrics + 1, sizeof *all))) {
		inj_stop("out of memory");
		return -1;
	}
	memset(&list, 0, sizeof list);
	list.structSize = CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE;
	list.pChipName = chip.pChipName;
	list.numOfMetrics = num.numOfMetrics;
	list.pMetricsList = all;
	if (cuptiSassMetricsGetMetrics(&list) != CUPTI_SUCCESS) {
		free(all);
		CHECK_CUPTI(cuptiSassMetricsGetMetrics(&list));
	}
	for (size_t i = 0; i < num.numOfMetrics; i++)
		for (int m = 0; m < NMETRICS; m++)
			if (all[i].pMetricName &&
			    !strcmp(all[i].pMetricName, metric_name[m]))
				found[m] = 1;
	free(all);
	for (int m = 0; m < NREQUIRED; m++)
		if (!found[m]) {
			inj_stop("SASS metric '%s' is unknown to CUPTI for "
				 "chip %s", metric_name[m], chip.pChipName);
			return -1;
		}

	for (int m = 0; m < NMETRICS; m++) {
		CUpti_SassMetrics_GetProperties_Params prop;

		inj.have[m] = found[m];
		if (!found[m]) {
			trace("SASS metric '%s' not offered for chip %s",
			      metric_name[m], chip.pChipName);
			continue;
		}
		memset(&prop, 0, sizeof prop);
		prop.structSize =
			CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE;
		prop.pChipName = chip.pChipName;
		prop.pMetricName = metric_name[m];
		CHECK_CUPTI(cuptiSassMetricsGetProperties(&prop));
		inj.id[m] = prop.metric.metricId;
		cfg[ncfg].metricId = prop.metric.metricId;
		cfg[ncfg++].outputGranularity =
			CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
	}
	memset(&set, 0, sizeof set);
	set.structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE;
	set.numOfMetricConfig = ncfg;
	set.pConfigs = cfg;
	set.deviceIndex = dev;
	CHECK_CUPTI(cuptiSassMetricsSetConfig(&set));
	return 0;
}

int inj_enable(CUcontext ctx)
{
	CUpti_SassMetricsEnable_Params p;

	memset(&p, 0, sizeof p);
	p.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE;
	p.ctx = ctx;
	p.enableLazyPatching = (uint8_t)inj.lazy;
	trace("enable ctx %p, lazy patching %d", (void *)ctx, inj.lazy);
	CHECK_CUPTI(cuptiSassMetricsEnable(&p));
	inj.on = ctx;
	return 0;
}

int inj_disable(CUcontext ctx)
{
	CUpti_SassMetricsDisable_Params p;

	memset(&p, 0, sizeof p);
	p.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE;
	p.ctx = ctx;
	inj.on = NULL;
	CHECK_CUPTI(cuptiSassMetricsDisable(&p));
	trace("disable ctx %p: %zu records dropped", (void *)ctx,
	      p.numOfDroppedRecords);
	return 0;
}


/* Set up and enable collection on ctx, the context of the next launch. */
int inj_start(CUcontext ctx)
{
	uint32_t dev = 0;

	if (!ctx || inj.on || inj.closed)
		return 0;
	CHECK_CUPTI(cuptiGetDeviceId(ctx, &dev));
	inj_write_device(dev);
	if (!inj.sass) {
		trace("BANKSCOPE_INJECT_SASS=0: SASS metrics not enabled");
		return 0;
	}
	if (configure(dev) < 0)
		return -1;
	return inj_enable(ctx);
}

static int by_pc(const void *a, const void *b)
{
	const pc_sum *x = a, *y = b;

	if (x->crc != y->crc)
		return x->crc < y->crc ? -1 : 1;
	/* by name, not index: CUPTI 13.0 gives every record function
	 * index 0 (data/h200/profile-bench-20261127a), so with every
	 * kernel of a cubin in one window, an index would merge them */
	if (x->fn != y->fn && strcmp(x->fn, y->fn))
		return strcmp(x->fn, y->fn);
	if (x->fidx != y->fidx)
		return x->fidx < y->fidx ? -1 : 1;
	return (x->pc > y->pc) - (x->pc < y->pc);
}

/*
 * Which lines of a flush to keep, and with what in the launch column:
 * those of kernel `only` with `launch`; those of a kernel no launch
 * callback named, from the first flush that has them, with "-" (the
 * selection's regular expression still applies); with `all`, every line,
 * with "-".  NULL: drop the kernel's lines.
 */
static const char *keep_as(const char *kernel, const char *only,
			   const char *launch, int all)
{
	kernel_seen *k = inj_seen_kernel(kernel);

	if (!k)
		return NULL;
	if (only && !strcmp(kernel, only)) {
		k->kept = inj.flushes;
		return launch;
	}
	if (all || (!k->named && (!k->kept || k->kept == inj.flushes) &&
		    bs_select_name(&inj.sel, kernel))) {
		k->kept = inj.flushes;
		return "-";
	}
	return NULL;
}

/* Write the records of one flush, summed per (cubin, function, pc), in
 * one write(2), the lines keep_as() keeps; returns the lines of `only`. */
static unsigned long write_records(const CUpti_SassMetrics_Data *d,
				   size_t nrec, size_t nval, const uint64_t *id,
				   pc_sum *sum, const char *only,
				   const char *launch, int all)
{
	char *kernel = NULL, *buf = NULL;
	const char *named = NULL, *as = NULL;
	size_t n = 0, len = 0;
	unsigned long lines = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		inj_stop("out of memory for the records");
		return 0;
	}
	for (size_t r = 0; r < nrec; r++) {
		pc_sum *s = &sum[n++];

		memset(s, 0, sizeof *s);
		s->crc = d[r].cubinCrc;
		s->fidx = d[r].functionIndex;
		s->pc = d[r].pcOffset;
		s->fn = d[r].functionName ? d[r].functionName : "?";
		for (size_t k = 0; k < nval; k++) {
			const CUpti_SassMetrics_InstanceValue *iv =
				&d[r].pInstanceValues[k];

			for (int j = 0; j < NMETRICS; j++)
				if (inj.have[j] && iv->metricId == id[j])
					s->v[j] += iv->value;
		}
	}
	qsort(sum, n, sizeof *sum, by_pc);
	for (size_t i = 0, k = 0; i < n; i = k) {
		uint64_t v[NMETRICS] = { 0 };

		for (k = i; k < n && !by_pc(&sum[i], &sum[k]); k++)
			for (int j = 0; j < NMETRICS; j++)
				v[j] += sum[k].v[j];
		if (!named || strcmp(sum[i].fn, named)) {
			free(kernel);
			kernel = inj_kernel_name(sum[i].fn);
			named = sum[i].fn;
			as = kernel ? keep_as(kernel, only, launch, all) : NULL;
		}
		if (!as)
			continue;
		fprintf(m, "%s\t%s\t%u\t%u\t%s\t0x%x\t%llu\t%llu\t%llu\t",
			kernel, as, sum[i].crc, sum[i].fidx,
			sum[i].fn, sum[i].pc, (unsigned long long)v[0],
			(unsigned long long)v[1], (unsigned long long)v[2]);
		if (inj.have[3])
			fprintf(m, "%llu\n", (unsigned long long)v[3]);
		else
			fputs("-\n", m);
		lines += as == launch;
	}
	free(kernel);
	if (fclose(m) ||
	    inj_write_all(inj.records, "records.tsv", buf, len) < 0)
		lines = 0;
	free(buf);
	return lines;
}

/* Collect what ran on ctx since Enable (or the last flush), keeping the
 * lines keep_as() keeps; *written: the lines of kernel `only`. */
int inj_flush(CUcontext ctx, const char *only, const char *launch,
	      int all, unsigned long *written)
{
	CUpti_SassMetricsGetDataProperties_Params prop;
	CUpti_SassMetricsFlushData_Params fl;
	CUpti_SassMetrics_Data *d;
	CUpti_SassMetrics_InstanceValue *val;
	pc_sum *sum;
	size_t nrec, nval;
	CUptiResult r;

	*written = 0;
	inj.flushes++;
	memset(&prop, 0, sizeof prop);
	prop.structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE;
	prop.ctx = ctx;
	CHECK_CUPTI(cuptiSassMetricsGetDataProperties(&prop));
	nrec = prop.numOfPatchedInstructionRecords;
	trace("data properties: %zu records, %zu instances", nrec,
	      prop.numOfInstances);
	if (!nrec || !prop.numOfInstances)
		return 0;
	/* CUPTI gave one record per (pc, metric) with numOfInstances values;
	 * room for every metric in each record all the same, slots left alone
	 * keep NO_METRIC */
	nval = prop.numOfInstances * NMETRICS;
	d = calloc(nrec, sizeof *d);
	val = malloc(nrec * nval * sizeof *val);
	sum = malloc(nrec * sizeof *sum);
	if (!d || !val || !sum) {
		free(d);
		free(val);
		free(sum);
		inj_stop("out of memory for %zu SASS records", nrec);
		return -1;
	}
	for (size_t i = 0; i < nrec * nval; i++) {
		val[i].metricId = NO_METRIC;
		val[i].value = 0;
	}
	for (size_t i = 0; i < nrec; i++) {
		d[i].structSize = sizeof d[i];
		d[i].pInstanceValues = &val[i * nval];
	}
	memset(&fl, 0, sizeof fl);
	fl.structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;
	fl.ctx = ctx;
	fl.numOfPatchedInstructionRecords = nrec;
	fl.numOfInstances = prop.numOfInstances;
	fl.pMetricsData = d;
	r = cuptiSassMetricsFlushData(&fl);
	if (r == CUPTI_SUCCESS)
		*written = write_records(d, nrec, nval, inj.id, sum, only,
					 launch, all);
	for (size_t i = 0; i < nrec; i++)
		free((void *)d[i].functionName);
	free(d);
	free(val);
	free(sum);
	CHECK_CUPTI(r);
	return 0;
}
