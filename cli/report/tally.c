/*
 * tally.c - distinct values with their counts, hashed: an exact median in
 * memory that grows with the distinct values, not with the rows (the
 * throughput medians of the report).  A named tally keeps, for each value,
 * the first row that had it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static size_t tally_slot(const tally *t, double v)
{
	uint64_t h;

	memcpy(&h, &v, sizeof h);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1))
		if (!t->count[i] || t->v[i] == v)
			return i;
}

void tally_free(tally *t)
{
	free(t->v);
	free(t->count);
	free(t->name);
	free(t->line);
	memset(t, 0, sizeof *t);
}

/* Add v (seen in row `name` at line `line` of the dataset: a named
 * tally keeps the first); -1 out of memory. */
int tally_add_row(tally *t, double v, const char *name, long line)
{
	size_t i;

	if (v == 0)
		v = 0;          /* -0 and 0 are one value */
	if (2 * (t->used + 1) > t->cap) {
		tally g = { NULL, NULL, 0, t->cap ? 2 * t->cap : 64, t->total,
			    t->named, NULL, NULL };

		g.v = malloc(g.cap * sizeof *g.v);
		g.count = calloc(g.cap, sizeof *g.count);
		if (g.named) {
			g.name = malloc(g.cap * sizeof *g.name);
			g.line = malloc(g.cap * sizeof *g.line);
		}
		if (!g.v || !g.count || (g.named && (!g.name || !g.line))) {
			tally_free(&g);
			return -1;
		}
		for (size_t k = 0; k < t->cap; k++)
			if (t->count[k]) {
				i = tally_slot(&g, t->v[k]);
				g.v[i] = t->v[k];
				g.count[i] = t->count[k];
				if (g.named) {
					memcpy(g.name[i], t->name[k],
					       sizeof g.name[i]);
					g.line[i] = t->line[k];
				}
				g.used++;
			}
		tally_free(t);
		*t = g;
	}
	i = tally_slot(t, v);
	if (!t->count[i]) {
		t->v[i] = v;
		t->used++;
		if (t->named) {
			snprintf(t->name[i], sizeof t->name[i], "%s",
				 name ? name : "");
			t->line[i] = line;
		}
	}
	t->count[i]++;
	t->total++;
	return 0;
}

int tally_add(tally *t, double v)
{
	return tally_add_row(t, v, NULL, 0);
}

typedef struct {
	double v;
	size_t count, slot;
} tally_entry;

static int cmp_entry(const void *pa, const void *pb)
{
	double a = ((const tally_entry *)pa)->v, b = ((const tally_entry *)pb)->v;

	return (a > b) - (a < b);
}

/*
 * The median as bs_min_median() gives it (the mean of the middle two for
 * an even count), and the slots of the values it comes from (*lo_slot ==
 * *hi_slot for an odd count, or when the middle two are one value); -1
 * when there is no value or no memory.
 */
int tally_middle(const tally *t, double *median, size_t *lo_slot,
		 size_t *hi_slot)
{
	tally_entry *e;
	size_t n = 0, k = t->total / 2, below = 0, ls = 0, hs = 0;
	double lo = NAN, hi = NAN;

	if (!t->total || !(e = malloc(t->used * sizeof *e)))
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->count[i])
			e[n++] = (tally_entry){ t->v[i], t->count[i], i };
	qsort(e, n, sizeof *e, cmp_entry);
	/* hi: the value at rank k (0-based); lo: the one at rank k - 1. */
	for (size_t i = 0; i < n; i++) {
		if (k >= 1 && below <= k - 1 && k - 1 < below + e[i].count) {
			lo = e[i].v;
			ls = e[i].slot;
		}
		if (below <= k && k < below + e[i].count) {
			hi = e[i].v;
			hs = e[i].slot;
			break;
		}
		below += e[i].count;
	}
	free(e);
	*median = t->total % 2 ? hi : (lo + hi) / 2;
	if (lo_slot)
		*lo_slot = t->total % 2 ? hs : ls;
	if (hi_slot)
		*hi_slot = hs;
	return 0;
}

int tally_median(const tally *t, double *median)
{
	return tally_middle(t, median, NULL, NULL);
}
