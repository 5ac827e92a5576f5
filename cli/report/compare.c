/*
 * compare.c - bankscope report DATA1.csv DATA2.csv ...: two or more GPUs
 * side by side, the comparison the browser lab's dataset view draws
 * (web/lab.js, drawCompare), printed as Markdown on standard output.
 *
 * Each dataset is read whole and judged by its own architecture (the
 * file's "# arch:", else "# profile:" in older files, else sm_90; --arch
 * overrides), as bankscope check does.
 * Per access kind and width:
 *
 *   rows          the rows with measured wavefronts, in each dataset;
 *   both, differ  for each dataset after the first: the rows of one
 *                 probe and name that it and the first both measured,
 *                 and how many of them measured other wavefronts (a bank
 *                 rule that differs between the GPUs shows there);
 *   latency       a least-squares line of cycles_per_access_median over
 *                 measured wavefronts, the unpacked rows with a median
 *                 ("-" under two points);
 *   throughput    the median tp_bytes_per_clk_per_sm of the rows with
 *                 every lane active, unpacked, that measured the ideal
 *                 wavefronts.
 *
 * Then the rows that differ (the first MAX_DIFFER).  A bad row stops the
 * run with one message naming file, line and column, before anything is
 * printed.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define MAX_DIFFER 50

typedef struct {
	char key[32 + BS_NAME_MAX + 1];    /* "probe/name" */
	uint8_t kind, width, packed, active;
	double wf, ideal, cycles, tp;
} crow;

typedef struct {
	const char *name;
	char gpu[128];
	crow *row;
	size_t n;
} cset;

static int by_key(const void *a, const void *b)
{
	return strcmp(((const crow *)a)->key, ((const crow *)b)->key);
}

static int read_set(cset *s, const char *path, const bs_arch *arch)
{
	FILE *f;
	const bs_arch *p;
	const char *meta;
	bs_dataset *d;
	bs_error err;
	bs_row r;
	size_t cap = 0;
	int rc;

	if (input_open(path, &f, &s->name))
		return EXIT_BADINPUT;
	if (!(d = bs_dataset_open(f, s->name, &err))) {
		input_close(f);
		return report_error(&err);
	}
	meta = bs_dataset_meta(d, "gpu");
	snprintf(s->gpu, sizeof s->gpu, "%s", meta ? meta : s->name);
	meta = bs_dataset_arch(d, NULL);
	p = arch ? arch : meta && !strncmp(meta, "none", 4) ? NULL
		: meta ? bs_arch_find(meta) : bs_arch_default();
	while ((rc = bs_dataset_next(d, &r, &err)) > 0) {
		bs_summary sum;
		crow *c;

		if (r.note[0] || isnan(r.wavefronts_measured))
			continue;
		if (bs_grow(&s->row, &cap, s->n, 1024, sizeof *s->row) < 0) {
			rc = bs_error_set(&err, s->name, 0, 0,
					  "out of memory");
			break;
		}
		c = &s->row[s->n];
		snprintf(c->key, sizeof c->key, "%s/%s", r.probe,
			 r.access.name);
		c->kind = r.access.kind;
		c->width = (uint8_t)r.access.width;
		c->active = (uint8_t)__builtin_popcount(r.access.active);
		c->wf = r.wavefronts_measured;
		c->cycles = r.cycles_per_access_median;
		c->tp = r.tp_bytes_per_clk_per_sm;
		c->packed = 0;
		c->ideal = NAN;
		if (p && bs_arch_rule(p, r.access.kind, r.access.width)) {
			if ((rc = bs_predict(p, &r.access, &sum, &err)) < 0) {
				err.line = bs_dataset_line(d);
				snprintf(err.source, sizeof err.source, "%s",
					 s->name);
				break;
			}
			c->packed = (uint8_t)sum.packed;
			c->ideal = sum.ideal_wavefronts;
		}
		s->n++;
	}
	bs_dataset_close(d);
	input_close(f);
	if (rc < 0)
		return report_error(&err);
	qsort(s->row, s->n, sizeof *s->row, by_key);
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One dataset's figures for (kind, width). */
typedef struct {
	size_t n;
	bs_fit_acc lat;
	double *tp;
	size_t ntp;
} cgroup;

static int group(const cset *s, unsigned kind, unsigned width, cgroup *g)
{
	memset(g, 0, sizeof *g);
	g->tp = malloc((s->n + 1) * sizeof *g->tp);
	if (!g->tp)
		return usage_error("out of memory");
	for (size_t i = 0; i < s->n; i++) {
		const crow *c = &s->row[i];

		if (c->kind != kind || c->width != width)
			continue;
		g->n++;
		if (!c->packed && !isnan(c->cycles))
			bs_fit_add(&g->lat, c->wf, c->cycles);
		if (!c->packed && c->active == 32 && c->wf == c->ideal &&
		    !isnan(c->tp))
			g->tp[g->ntp++] = c->tp;
	}
	return 0;
}

static void put_latency(const cgroup *g)
{
	bs_fit f;

	if (g->n && bs_fit_end(&g->lat, &f) == 0)
		printf(" %.2f + %.3f x wf |", f.intercept, f.slope);
	else
		printf(" - |");
}

static void put_throughput(cgroup *g)
{
	size_t m = g->ntp / 2;

	if (!g->ntp) {
		printf(" - |");
		return;
	}
	qsort(g->tp, g->ntp, sizeof *g->tp, by_value);
	printf(" %.2f |", g->ntp & 1 ? g->tp[m]
			   : (g->tp[m - 1] + g->tp[m]) / 2);
}

/* The rows of set s also in set 0, and those whose wavefronts differ. */
static void cross(const cset *a, const cset *b, unsigned kind,
		  unsigned width, size_t *both, size_t *differ)
{
	size_t i = 0, j = 0;

	*both = *differ = 0;
	while (i < a->n && j < b->n) {
		int c = strcmp(a->row[i].key, b->row[j].key);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			if (a->row[i].kind == kind && a->row[i].width == width &&
			    b->row[j].kind == kind && b->row[j].width == width) {
				(*both)++;
				if (fabs(a->row[i].wf - b->row[j].wf) > 1e-6)
					(*differ)++;
			}
			i++;
			j++;
		}
	}
}

/* A Markdown code span's text: shown as is, a backtick made a quote. */
static void code(const char *s)
{
	putchar('`');
	for (; *s; s++)
		putchar(*s == '`' ? '\'' : (unsigned char)*s < ' ' ? ' ' : *s);
	putchar('`');
}

static void differing(const cset *sets, int nsets)
{
	unsigned shown = 0, total = 0;

	for (int k = 1; k < nsets; k++) {
		const cset *a = &sets[0], *b = &sets[k];
		size_t i = 0, j = 0;

		while (i < a->n && j < b->n) {
			int c = strcmp(a->row[i].key, b->row[j].key);

			if (c) {
				c < 0 ? i++ : j++;
				continue;
			}
			if (fabs(a->row[i].wf - b->row[j].wf) > 1e-6 &&
			    a->row[i].kind == b->row[j].kind &&
			    a->row[i].width == b->row[j].width) {
				if (shown++ < MAX_DIFFER) {
					printf("- %s %u, ", bs_kind_name(
						a->row[i].kind), a->row[i].width);
					code(a->row[i].key);
					printf(": %g wavefronts on %c, %g on %c\n",
					       a->row[i].wf, 'A', b->row[j].wf,
					       'A' + k);
				}
				total++;
			}
			i++;
			j++;
		}
	}
	if (!total)
		printf("The bank rules agree: every row both measured gives the "
		       "same wavefronts on %s.\n",
		       nsets == 2 ? "both GPUs" : "every GPU");
	else if (total > shown)
		printf("- ... and %u more\n", total - shown);
}

static int compare_report(int nfiles, char **files, const bs_arch *arch)
{
	cset *sets = calloc((size_t)nfiles, sizeof *sets);
	int rc = 0;

	if (!sets)
		return usage_error("out of memory");
	for (int i = 0; !rc && i < nfiles; i++)
		rc = read_set(&sets[i], files[i], arch);
	if (!rc) {
		printf("# Side by side\n\n");
		for (int i = 0; i < nfiles; i++) {
			printf("- %c: ", 'A' + i);
			doc_md(stdout, sets[i].gpu);
			printf(", ");
			code(sets[i].name);
			printf("\n");
		}
		printf("\n## The bank rules\n\n");
		differing(sets, nfiles);
		printf("\n## Per kind and width\n\n"
		       "latency: a least-squares line of cycles over measured "
		       "wavefronts, unpacked timed rows; throughput: the median "
		       "bytes per clock per SM of the full-warp, conflict-free, "
		       "unpacked rows.\n\n| kind | width |");
		for (int i = 0; i < nfiles; i++)
			printf(" rows %c |", 'A' + i);
		for (int i = 1; i < nfiles; i++) {
			if (nfiles == 2)
				printf(" rows both | wavefronts differ |");
			else
				printf(" rows A and %c | wavefronts differ |",
				       'A' + i);
		}
		for (int i = 0; i < nfiles; i++)
			printf(" latency %c |", 'A' + i);
		for (int i = 0; i < nfiles; i++)
			printf(" throughput %c |", 'A' + i);
		printf("\n|---|---|");
		for (int i = 0; i < 5 * nfiles - 2; i++)
			printf("---|");
		printf("\n");
	}
	for (unsigned k = 0; !rc && k < bs_kind_count(); k++)
		for (int w = 0; !rc && w < BS_NWIDTHS; w++) {
			cgroup *g = calloc((size_t)nfiles, sizeof *g);
			int any = 0;

			if (!g) {
				rc = usage_error("out of memory");
				break;
			}
			for (int i = 0; !rc && i < nfiles; i++) {
				rc = group(&sets[i], k, bs_widths[w], &g[i]);
				any |= g[i].n > 0;
			}
			if (!rc && any) {
				printf("| %s | %u |", bs_kind_name((bs_kind)k),
				       bs_widths[w]);
				for (int i = 0; i < nfiles; i++) {
					if (g[i].n)
						printf(" %zu |", g[i].n);
					else
						printf(" - |");
				}
				for (int i = 1; i < nfiles; i++) {
					size_t both, differ;

					cross(&sets[0], &sets[i], k, bs_widths[w],
					      &both, &differ);
					printf(" %zu | %zu |", both, differ);
				}
				for (int i = 0; i < nfiles; i++)
					put_latency(&g[i]);
				for (int i = 0; i < nfiles; i++)
					put_throughput(&g[i]);
				printf("\n");
			}
			for (int i = 0; i < nfiles; i++)
				free(g[i].tp);
			free(g);
		}
	for (int i = 0; i < nfiles; i++)
		free(sets[i].row);
	free(sets);
	return rc;
}

int report_several(const char *first, int nmore, char **more, int options,
		   const bs_arch *arch)
{
	char **files;
	int rc;

	if (options)
		return usage_error("report: options --out, --charts, --note, "
				   "--dsmem and --plot-data go with one "
				   "dataset; several are compared on standard "
				   "output");
	files = malloc(((size_t)nmore + 1) * sizeof *files);
	if (!files)
		return usage_error("out of memory");
	files[0] = (char *)first;
	memcpy(files + 1, more, (size_t)nmore * sizeof *files);
	rc = compare_report(nmore + 1, files, arch);
	free(files);
	return rc;
}
