/*
 * runner.cu - bankscope-probe: measure warp accesses on the GPU.
 *
 *   bankscope-probe --probe NAME|all [--out DIR] [--measure LIST]
 *   bankscope-probe --file PATTERNS [--file ...] [--out DIR]
 *   bankscope-probe --list
 *   bankscope-probe --version
 *
 * Every point (one warp access) is measured the same way (kernels.cu):
 * latency (a dependent chain, reps repetitions after a warm-up, min and
 * median cycles per access), throughput (one 1024-thread block per SM,
 * bytes and wavefronts per clock per SM, median over SMs) and the CUPTI
 * counters (wavefronts, bank conflicts and instructions of one warp doing
 * exactly PROBE_CHAIN accesses, divided per instruction, or per source
 * operation for the atomics that are retry loops).  Which counters see a
 * kind is the accessor table's (kernels.cu): one CUPTI pass per metric
 * group the points need (metrics.h), ld and st first.  A point the build
 * or the GPU cannot measure is kept with a note saying why.  Timing runs
 * first for every point, counters after, so the profiler never runs
 * during a timed launch.
 *
 * Output: one CSV per run in DIR (default data/<gpu-slug>/), written to a
 * temporary file and linked to <probe>-<UTC time>.csv when complete, never
 * overwriting; its path on stdout.  Progress on stderr.  Ctrl-C stops
 * after the current point and keeps what was measured, marked incomplete.
 *
 * Exit status: 0 written; 1 no CUDA device or a CUDA failure; 2 bad
 * options or pattern files; 130 interrupted (the partial file written).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>
#include <cuda_runtime.h>

#include "check.h"
#include "counters.h"
#include "driver_version.h"
#include "metrics.h"
#include "probe.h"
#include "say.h"

#define BATCH 256
#define MAX_PASS_METRICS 16

enum { M_LATENCY = 1, M_THROUGHPUT = 2, M_COUNTERS = 4, M_LAUNCH = 8 };

typedef struct {
	const char *probe;       /* family name, "all" or "file" */
	const char *label;       /* names the file's run: --label, else probe */
	const char *out_dir;
	const char *files[64];
	int nfiles;
	unsigned measure;
	int reps, tp_iters;
} options;

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* A message line on stderr, escaped (cudabase/say.h). */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bs_vsay("bankscope-probe", fmt, ap);
	va_end(ap);
}

static int die_usage(const char *fmt, const char *arg)
{
	char msg[1024];

	snprintf(msg, sizeof msg, fmt, arg);
	say("%s (try bankscope-probe --help)", msg);
	return 2;
}

static void usage(void)
{
	printf("usage: bankscope-probe --probe NAME|all [options]\n"
	       "       bankscope-probe --file PATTERNS [--file ...] [options]\n"
	       "       bankscope-probe --list | --version\n\n"
	       "Measure shared-memory accesses on the GPU: latency and\n"
	       "throughput in cycles, wavefronts and bank conflicts from\n"
	       "CUPTI counters.  Writes one CSV per run and prints its path.\n\n"
	       "  --out DIR        where the CSV goes (data/<gpu>)\n"
	       "  --label NAME     the run's name in the file name and the\n"
	       "                   probe column (the probe, or \"file\")\n"
	       "  --measure LIST   latency,throughput,counters (all three), or\n"
	       "                   launch: only the counted launches, for an\n"
	       "                   external profiler\n"
	       "  --reps N         timed repetitions, >= 11 (15)\n"
	       "  --tp-iters N     throughput loop iterations of 8 accesses (256)\n");
}

static int parse_measure(const char *s, unsigned *out)
{
	char buf[128], *tok, *save = NULL;

	snprintf(buf, sizeof buf, "%s", s);
	*out = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "latency"))
			*out |= M_LATENCY;
		else if (!strcmp(tok, "throughput"))
			*out |= M_THROUGHPUT;
		else if (!strcmp(tok, "counters"))
			*out |= M_COUNTERS;
		else if (!strcmp(tok, "launch"))
			*out |= M_LAUNCH;
		else
			return -1;
	}
	return *out ? 0 : -1;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
	o->measure = M_LATENCY | M_THROUGHPUT | M_COUNTERS;
	o->reps = 15;
	o->tp_iters = 256;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			exit(0);
		}
		if (!strcmp(a, "--version")) {
			printf("bankscope-probe %s\n", bs_version());
			exit(0);
		}
		if (!strcmp(a, "--list")) {
			for (const bs_family *f = bs_families; f->name; f++)
				printf("%-10s %s%s%s%s\n", f->name,
				       f->description,
				       f->runner ? " (measured by " : "",
				       f->runner ? f->runner : "",
				       f->runner ? ")" : "");
			exit(0);
		}
		if (!v)
			return die_usage("option %s needs a value (or is unknown)",
					 a);
		i++;
		if (!strcmp(a, "--probe")) {
			o->probe = v;
		} else if (!strcmp(a, "--file")) {
			if (o->nfiles == 64)
				return die_usage("at most 64 --file options%s",
						 "");
			o->files[o->nfiles++] = v;
		} else if (!strcmp(a, "--label")) {
			o->label = v;
		} else if (!strcmp(a, "--out")) {
			o->out_dir = v;
		} else if (!strcmp(a, "--measure")) {
			if (parse_measure(v, &o->measure) < 0)
				return die_usage("--measure: '%s' is not a list "
						 "of latency, throughput, "
						 "counters, launch", v);
		} else if (!strcmp(a, "--reps")) {
			if (parse_int(v, 11, 1000, &o->reps) < 0)
				return die_usage("--reps: '%s' is not a number "
						 "from 11 to 1000", v);
		} else if (!strcmp(a, "--tp-iters")) {
			if (parse_int(v, 1, 100000, &o->tp_iters) < 0)
				return die_usage("--tp-iters: '%s' is not a "
						 "number from 1 to 100000", v);
		} else {
			return die_usage("unknown option '%s'", a);
		}
	}
	if (!o->probe == !o->nfiles)
		return die_usage("give --probe NAME|all or --file PATTERNS%s",
				 "");
	return 0;
}

/* Collect the points: one family, all of them, or pattern files. */
static int collect(const options *o, bs_points *pl)
{
	int found = 0;

	for (int i = 0; i < o->nfiles; i++) {
		FILE *f = fopen(o->files[i], "r");
		bs_reader *r;
		bs_access a;
		bs_error err;
		int rc;
		char msg[1024];

		if (!f) {
			say("%s: cannot open: %s", o->files[i],
			    strerror(errno));
			return 2;
		}
		r = bs_reader_new(f, o->files[i]);
		pl->family = o->label ? o->label : "file";
		while (r && (rc = bs_reader_next(r, &a, &err)) > 0)
			bs_points_add(pl, &a);
		bs_reader_free(r);
		fclose(f);
		if (!r)
			return 2;
		if (rc < 0) {
			bs_error_format(&err, msg, sizeof msg);
			say("%s", msg);
			return 2;
		}
	}
	if (o->probe) {
		const bs_family *fam = bs_family_find(o->probe);

		/* a family of another runner (clusters: bankscope-dsmem) */
		if (fam && fam->runner) {
			fprintf(stderr, "bankscope-probe: probe '%s' is "
				"measured by %s: make probe-%s\n", fam->name,
				fam->runner, fam->name);
			return 2;
		}
		found = !strcmp(o->probe, "all") || fam;
		for (const bs_family *f = bs_families; found && f->name; f++)
			if (!f->runner && (fam ? f == fam : 1))
				bs_family_points(f->name, pl);
	}
	if (o->probe && !found)
		return die_usage("unknown probe '%s' (bankscope-probe --list)",
				 o->probe);
	if (pl->failed) {
		fprintf(stderr, "bankscope-probe: out of memory\n");
		return 1;
	}
	return 0;
}

static void progress(const char *what, size_t done, size_t total)
{
	static size_t last_decile = (size_t)-1;

	if (isatty(2)) {
		fprintf(stderr, "\r%s: %zu/%zu points", what, done, total);
		if (done == total)
			fputc('\n', stderr);
	} else if (done == total || done * 10 / total != last_decile) {
		last_decile = done * 10 / total;
		fprintf(stderr, "%s: %zu/%zu points\n", what, done, total);
	}
}

typedef struct {
	bs_meta m[BS_META_MAX];
	int n;
} meta_list;

static void meta(meta_list *ml, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void meta(meta_list *ml, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (ml->n == BS_META_MAX)
		return;
	snprintf(ml->m[ml->n].key, sizeof ml->m[ml->n].key, "%s", key);
	va_start(ap, fmt);
	vsnprintf(ml->m[ml->n].value, sizeof ml->m[ml->n].value, fmt, ap);
	va_end(ap);
	ml->n++;
}

/* Timing modes for one point; fills the row's timing columns. */
static int time_point(const options *o, const probe_device *dev,
		      bs_row *row, char *why, size_t whylen)
{
	double cyc[1024], min, med, count;

	if (o->measure & M_LATENCY) {
		if (probe_latency(dev, &row->access, o->reps, cyc, why,
				  whylen) < 0)
			return -1;
		bs_min_median(cyc, (size_t)o->reps, &min, &med);
		row->cycles_per_access_min = min;
		row->cycles_per_access_median = med;
		row->chain_length = PROBE_CHAIN;
		row->repetitions = o->reps;
	}
	if (o->measure & M_THROUGHPUT) {
		if (probe_throughput(dev, &row->access, o->tp_iters, &med,
				     &count, why, whylen) < 0)
			return -1;
		row->tp_warps_per_sm = PROBE_TP_THREADS / 32;
		row->tp_bytes_per_clk_per_sm = count *
			__builtin_popcount(row->access.active) *
			row->access.width / med;
		/* per access; turned into wavefronts once counted */
		row->tp_wavefronts_per_clk_per_sm = count / med;
	}
	return 0;
}

/* One row's figures from its pass's values (metrics.h, kernels.cu). */
static void row_counters(bs_row *row, const probe_counters *pc,
			 const double *v)
{
	double inst = 0, wf = 0, div;

	for (int j = 0; j < 2; j++) {
		if (pc->instructions[j] >= 0)
			inst += v[pc->instructions[j]];
		if (pc->wavefronts[j] >= 0)
			wf += v[pc->wavefronts[j]];
	}
	row->instructions = inst;
	div = pc->per_operation ? (inst > 0 ? PROBE_CHAIN : 0) : inst;
	if (div > 0) {
		row->wavefronts_measured = wf / div;
		if (pc->conflicts >= 0)
			row->bank_conflicts_measured = v[pc->conflicts] / div;
	}
}

/*
 * One counter pass: the measurable rows whose kind pass `pass` sees, in
 * batches, in one CUPTI object opened for the pass's metrics.  0, or -1
 * with why (the rows of batches read before the failure keep their
 * values, the others none).
 */
static int count_pass(int pass, int cc, bs_row *rows, size_t n,
		      size_t *counted, char *why, size_t whylen)
{
	bs_counters *c;
	static double values[BATCH * MAX_PASS_METRICS];
	size_t idx[BATCH], total = 0, done = 0;
	const char *name;
	int nm;
	const char *const *metrics = probe_pass_metrics(pass, cc, &nm, &name);
	char what[64];

	*counted = 0;
	for (size_t i = 0; i < n; i++)
		total += !rows[i].note[0] &&
			 probe_counters_of(&rows[i].access)->pass == pass;
	if (!total)
		return 0;
	if (nm > MAX_PASS_METRICS) {
		snprintf(why, whylen, "pass %s: %d metrics, at most %d", name,
			 nm, MAX_PASS_METRICS);
		return -1;
	}
	if (bs_counters_open(&c, metrics, nm, BATCH, why, whylen) < 0)
		return -1;
	snprintf(what, sizeof what, "counters (%s)", name);
	for (size_t i = 0; i < n && !interrupted;) {
		int nb = 0, nr = 0;

		for (; i < n && nb < BATCH && !interrupted; i++) {
			const bs_access *a = &rows[i].access;

			if (rows[i].note[0] ||
			    probe_counters_of(a)->pass != pass)
				continue;
			/* the warm-up, when the kind has one, outside the range */
			if (probe_warm_launch(a, why, whylen) < 0 ||
			    bs_counters_begin(c, a->name) < 0 ||
			    probe_counted_launch(a, why, whylen) < 0 ||
			    bs_counters_end(c) < 0)
				break;
			idx[nb++] = i;
			progress(what, ++done, total);
		}
		if (bs_counters_flush(c, values, &nr, why, whylen) < 0 ||
		    nr != nb) {
			if (nr != nb)
				snprintf(why, whylen, "CUPTI returned %d ranges "
					 "for %d kernels", nr, nb);
			bs_counters_close(c);
			return -1;
		}
		for (int r = 0; r < nr; r++)
			row_counters(&rows[idx[r]],
				     probe_counters_of(&rows[idx[r]].access),
				     &values[r * nm]);
		*counted += (size_t)nr;
	}
	bs_counters_close(c);
	return 0;
}

/*
 * Every counter pass the rows need, one CUPTI object each, in a fixed
 * order (ld and st first, as before the other kinds came).  The counters
 * metadata says what was read; a pass that fails leaves its rows timing
 * only and says why, the other passes still run.
 */
static void count_points(int cc, bs_row *rows, size_t n, meta_list *ml)
{
	char why[512], text[464] = "";
	size_t len = 0;
	int failed = 0, ok = 0;

	for (int p = 0; p < PROBE_NPASSES && !interrupted; p++) {
		size_t counted;
		const char *name;
		int nm;

		probe_pass_metrics(p, cc, &nm, &name);
		why[0] = '\0';
		if (count_pass(p, cc, rows, n, &counted, why, sizeof why) < 0) {
			fprintf(stderr, "bankscope-probe: counters of pass %s "
				"not read, its rows timing only: %s\n", name,
				why);
			len += (size_t)snprintf(text + len, sizeof text - len,
						"%spass %s not read: %s",
						len ? "; " : "", name, why);
			failed++;
		} else if (counted) {
			len += (size_t)snprintf(text + len, sizeof text - len,
						"%spass %s: %zu points",
						len ? "; " : "", name, counted);
			ok++;
		}
		if (len >= sizeof text)
			len = sizeof text - 1;
	}
	if (failed && !ok)
		meta(ml, "counters", "not read: %s", text);
	else if (!ok)
		meta(ml, "counters", "CUPTI range profiler, in process: no "
		     "point to count");
	else
		meta(ml, "counters", "CUPTI range profiler, in process, one "
		     "pass per metric group: %s", text);
}

static int device_properties(cudaDeviceProp *prop, char *why, size_t whylen)
{
	CHECK_CUDA(cudaGetDeviceProperties(prop, 0));
	return 0;
}

/*
 * counter_method: how the counters are read, and for each class of kinds
 * among the measured rows its pass; then one counters_<class> line each
 * with the kinds and the metrics (kernels.cu's descriptions).
 */
static void counter_meta(meta_list *ml, const bs_row *rows, size_t n)
{
	enum { MAXC = 16 };
	const char *cls[MAXC];
	const probe_counters *pc[MAXC];
	char kinds[MAXC][160], line[464];
	int nc = 0;
	size_t len;

	for (size_t i = 0; i < n; i++) {
		const bs_access *a = &rows[i].access;
		const char *c, *k = bs_kind_name(a->kind);
		int j;

		if (rows[i].note[0] || !(c = probe_counters_class(a)))
			continue;
		for (j = 0; j < nc && strcmp(cls[j], c); j++)
			;
		if (j == nc) {
			if (nc == MAXC)
				continue;
			cls[nc] = c;
			pc[nc] = probe_counters_of(a);
			kinds[nc++][0] = '\0';
		}
		if (!strstr(kinds[j], k)) {
			len = strlen(kinds[j]);
			snprintf(kinds[j] + len, sizeof kinds[j] - len, "%s%s",
				 len ? " " : "", k);
		}
	}
	len = (size_t)snprintf(line, sizeof line, "one warp, %d operations of "
			       "the kind, CUPTI range profiler, one pass per "
			       "metric group; per warp instruction, per "
			       "operation for loops; ", PROBE_CHAIN);
	for (int j = 0; j < nc && len < sizeof line; j++) {
		const char *pname;
		int nm;

		probe_pass_metrics(pc[j]->pass, 90, &nm, &pname);
		len += (size_t)snprintf(line + len, sizeof line - len,
					"%s%s: pass %s (counters_%s)",
					j ? ", " : "", cls[j], pname, cls[j]);
	}
	meta(ml, "counter_method", "%s", line);
	for (int j = 0; j < nc; j++) {
		char key[48];

		snprintf(key, sizeof key, "counters_%s", cls[j]);
		meta(ml, key, "%s: %s", kinds[j], pc[j]->what);
	}
}

static void fill_device_meta(meta_list *ml, const cudaDeviceProp *prop,
			     const probe_device *dev, double mhz,
			     const bs_arch *arch, const options *o,
			     const bs_row *rows, size_t nrows, int argc,
			     char **argv)
{
	int drv = 0, rt = 0;
	char cmd[400] = "", release[160];
	char date[32];
	time_t now = time(NULL);
	size_t n = 0;

	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	for (int i = 0; i < argc && n < sizeof cmd; i++)
		n += (size_t)snprintf(cmd + n, sizeof cmd - n, "%s%s",
				      i ? " " : "", argv[i]);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	meta(ml, "gpu", "%s", prop->name);
	meta(ml, "compute_capability", "%d.%d", prop->major, prop->minor);
	meta(ml, "sm_count", "%d", prop->multiProcessorCount);
	meta(ml, "sm_clock_mhz_measured", "%.0f", mhz);
	meta(ml, "clock_overhead_cycles", "%.0f", dev->clock_overhead);
	driver_release(release, sizeof release);
	meta(ml, "driver_version", "%s", release);
	meta(ml, "cuda_driver_api_version", "%d.%d", drv / 1000,
	     drv % 1000 / 10);
	meta(ml, "runtime_version", "%d.%d", rt / 1000, rt % 1000 / 10);
	meta(ml, "cupti_version", "%s", bs_counters_version());
	meta(ml, "git_describe", "%s", bs_version());
	meta(ml, "date", "%s", date);
	meta(ml, "command", "%s", cmd);
	if (arch)
		meta(ml, "arch", "%s", arch->name);
	else
		meta(ml, "arch", "none (sm_%d%d)", prop->major, prop->minor);
	meta(ml, "probe", "%s", o->probe ? o->probe : "file");
	meta(ml, "latency_method", "(t(%d operations) - t(%d operations)) / "
	     "%d; a kind with a value back (ld, ldsm, atom): dependent chain "
	     "v = op(a); a += v & zero, a latency; the others (st, stsm, red, "
	     "cp.async): back-to-back operations, the issue interval "
	     "(cp.async: each chain ends in cp.async.wait_all); %d "
	     "repetitions after a warm-up", PROBE_CHAIN + 32, 32, PROBE_CHAIN,
	     o->reps);
	meta(ml, "throughput_method", "%d blocks x %d threads, one per SM, "
	     "%d independent accesses per warp between __syncthreads; median "
	     "over blocks", prop->multiProcessorCount, PROBE_TP_THREADS,
	     o->tp_iters * PROBE_TP_UNROLL);
	counter_meta(ml, rows, nrows);
}

static int write_dataset(const char *dir, const char *probe,
			 const meta_list *ml, const bs_row *rows, size_t n)
{
	bs_error err;
	bs_dataset_out *out = bs_dataset_create(dir, &err);
	char name[96], path[1024], date[32], msg[1024];
	time_t now = time(NULL);
	FILE *f;

	if (!out) {
		bs_error_format(&err, msg, sizeof msg);
		say("%s", msg);
		return 1;
	}
	f = bs_dataset_file(out);
	bool ok = bs_dataset_write_header(f, ml->m, ml->n, &err) == 0;
	for (size_t i = 0; ok && i < n; i++)
		ok = bs_dataset_write_row(f, &rows[i], &err) == 0;
	if (!ok) {
		bs_dataset_abort(out);
		bs_error_format(&err, msg, sizeof msg);
		say("%s: nothing written to %s", msg, dir);
		return 1;
	}
	strftime(date, sizeof date, "%Y%m%d-%H%M%S", gmtime(&now));
	snprintf(name, sizeof name, "%.40s-%s", probe, date);
	if (bs_dataset_commit(out, name, path, sizeof path, &err) < 0) {
		bs_error_format(&err, msg, sizeof msg);
		say("%s", msg);
		return 1;
	}
	printf("%s\n", path);
	return 0;
}

int main(int argc, char **argv)
{
	options o = { };
	bs_points pl = { };
	probe_device dev = { };
	cudaDeviceProp prop;
	meta_list ml = { };
	bs_row *rows;
	char why[512], slug[64], dir[512], label[128], cc[16];
	const bs_arch *arch;
	double mhz = 0;
	int ndev = 0, rc;
	size_t done = 0;
	cudaError_t e;

	if ((rc = parse_options(argc, argv, &o)) != 0)
		return rc;
	if ((rc = collect(&o, &pl)) != 0)
		return rc;
	e = cudaGetDeviceCount(&ndev);
	if (e != cudaSuccess || ndev == 0) {
		fprintf(stderr, "bankscope-probe: no CUDA device (%s); the "
			"committed datasets in data/ need none\n",
			e != cudaSuccess ? bs_cuda_error_text(e)
					 : "cudaGetDeviceCount found 0");
		return 1;
	}
	if (device_properties(&prop, why, sizeof why) < 0 ||
	    probe_kernels_init(&dev, why, sizeof why) < 0 ||
	    probe_sm_clock_mhz(&mhz, why, sizeof why) < 0) {
		fprintf(stderr, "bankscope-probe: %s\n", why);
		return 1;
	}
	rows = (bs_row *)calloc(pl.n, sizeof *rows);
	if (!rows) {
		fprintf(stderr, "bankscope-probe: out of memory\n");
		return 1;
	}
	snprintf(label, sizeof label, "%s",
		 o.label ? o.label : o.probe ? o.probe : "file");
	say("%s: %zu points on %s (%d SMs, %.0f MHz measured)", label, pl.n,
	    prop.name, prop.multiProcessorCount, mhz);
	signal(SIGINT, on_sigint);

	snprintf(cc, sizeof cc, "%d.%d", prop.major, prop.minor);
	arch = bs_arch_for_cc(cc);
	for (size_t i = 0; i < pl.n; i++) {
		bs_row *row = &rows[i];
		size_t need = probe_smem_bytes(&pl.v[i]);
		bs_error err;

		bs_row_init(row);
		row->access = pl.v[i];
		snprintf(row->probe, sizeof row->probe, "%s", pl.family_of[i]);
		if (bs_access_check(&row->access, &err) < 0)
			snprintf(row->note, sizeof row->note, "the analyzer "
				 "rejects this access: %.100s", err.text);
		else if (!probe_can_measure(&dev, &row->access, why,
					    sizeof why))
			snprintf(row->note, sizeof row->note, "%.150s", why);
		else if (need > dev.smem_optin)
			snprintf(row->note, sizeof row->note,
				 "needs %zu bytes of shared memory, the GPU "
				 "gives a block at most %zu", need,
				 dev.smem_optin);
		/* predicted where the device's architecture models the access */
		if (arch && !row->note[0] &&
		    bs_arch_rule(arch, row->access.kind,
				    row->access.width))
			bs_row_predict(arch, row, NULL);
	}
	for (; done < pl.n && !interrupted; done++) {
		if (!rows[done].note[0] &&
		    (o.measure & (M_LATENCY | M_THROUGHPUT)) &&
		    time_point(&o, &dev, &rows[done], why, sizeof why) < 0) {
			say("%s: %s", rows[done].access.name, why);
			return 1;
		}
		if (o.measure & (M_LATENCY | M_THROUGHPUT))
			progress("timing", done + 1, pl.n);
	}
	if (o.measure & M_LAUNCH) {
		for (size_t i = 0; i < done && !interrupted; i++)
			if (!rows[i].note[0] &&
			    (probe_warm_launch(&rows[i].access, why,
					       sizeof why) < 0 ||
			     probe_counted_launch(&rows[i].access, why,
						  sizeof why) < 0)) {
				say("%s", why);
				return 1;
			}
	}
	fill_device_meta(&ml, &prop, &dev, mhz, arch, &o, rows, done,
			 argc, argv);
	if (o.measure & M_COUNTERS)
		count_points(dev.cc, rows, done, &ml);
	for (size_t i = 0; i < done; i++) {
		bs_row *row = &rows[i];
		double wf = row->wavefronts_measured == row->wavefronts_measured
				    ? row->wavefronts_measured
				    : row->wavefronts_predicted;

		row->tp_wavefronts_per_clk_per_sm *= wf;
	}
	if (interrupted)
		meta(&ml, "complete", "no: interrupted after %zu of %zu points",
		     done, pl.n);
	else
		meta(&ml, "complete", "yes: %zu points", pl.n);
	bs_gpu_slug(prop.name, slug, sizeof slug);
	snprintf(dir, sizeof dir, "%s", o.out_dir ? o.out_dir : "data");
	if (!o.out_dir)
		snprintf(dir, sizeof dir, "data/%s", slug);
	if (write_dataset(dir, label, &ml, rows, done) != 0)
		return 1;
	return interrupted ? 130 : 0;
}
