/*
 * bench_predict.c - how many accesses a second bs_predict() turns into counts.
 *
 *   bench_predict [COUNT]      COUNT accesses per width (10000000)
 *
 * For each width (1, 2, 4, 8, 16 bytes) a pool of 4096 accesses is built
 * once with a fixed-seed xorshift: every lane active, each at a random
 * address aligned to the width in 0..16 KiB; for 8 and 16 bytes every
 * fourth access is made pairwise uniform (lane l copies lane l^1, or l^2
 * on alternate ones) so the packed path is timed too.  Then bs_predict()
 * under sm_90 runs over COUNT accesses cycling through the pool, between
 * two CLOCK_MONOTONIC reads; the counts are summed into a volatile sink so
 * the work cannot be dropped.  The last line is the peak resident set
 * (getrusage ru_maxrss): the pool is all the memory there is, whatever
 * COUNT is.
 *
 * Goals: >= 20 million accesses/s at width 4, >= 10 million at width 16;
 * each line says "met" or "MISSED".  Exit status 2 on an error, else 0,
 * so that make bench goes on to the streaming benchmark either way.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "bankscope.h"

#define POOL 4096
#define WINDOW (16 * 1024)

static uint64_t rng = 0x2545f4914f6cdd1dull;
static volatile uint64_t sink;   /* the counts, so the work stays */

static uint32_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32);
}

static void build_pool(bs_access *pool, unsigned width)
{
	for (unsigned i = 0; i < POOL; i++) {
		bs_access *a = &pool[i];

		snprintf(a->name, sizeof a->name, "r%u", i);
		a->width = width;
		a->kind = BS_KIND_LD;
		a->active = UINT32_MAX;
		for (unsigned l = 0; l < BS_LANES; l++)
			a->addr[l] = xorshift() % (WINDOW / width) * width;
		if (width >= 8 && i % 4 == 3) {
			unsigned m = i % 8 == 3 ? 1 : 2;

			for (unsigned l = 0; l < BS_LANES; l++)
				if (l & m)
					a->addr[l] = a->addr[l ^ m];
		}
	}
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	const bs_arch *p = bs_arch_default();
	unsigned long count = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000000;
	bs_access *pool = malloc(POOL * sizeof *pool);
	struct rusage ru;

	if (!pool || count == 0) {
		fprintf(stderr, "bench_predict: %s\n", pool ?
			"COUNT must be a positive number" : "out of memory");
		return 2;
	}
	for (size_t k = 0; k < BS_NWIDTHS; k++) {
		unsigned w = bs_widths[k];
		double goal = w == 4 ? 20.0 : w == 16 ? 10.0 : 0.0;
		double t0, secs, rate;
		uint64_t sum = 0;
		bs_summary s;
		bs_error err;

		build_pool(pool, w);
		for (unsigned i = 0; i < POOL; i++)
			if (bs_predict(p, &pool[i], &s, &err) < 0) {
				fprintf(stderr, "bench_predict: %s\n",
					err.text);
				return 2;
			}
		t0 = now();
		for (unsigned long n = 0; n < count; n++) {
			bs_predict(p, &pool[n % POOL], &s, NULL);
			sum += s.wavefronts + s.ideal_wavefronts +
			       (unsigned)s.packed;
		}
		secs = now() - t0;
		sink += sum;
		rate = (double)count / secs / 1e6;
		printf("width %u: %lu accesses in %.3f s = %.1f million "
		       "accesses/s", w, count, secs, rate);
		if (goal > 0) {
			printf("   goal >= %.0f M/s: %s", goal,
			       rate >= goal ? "met" : "MISSED");
		}
		putchar('\n');
		fflush(stdout);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("peak resident set: %ld KB (pool of %d accesses, %zu bytes "
	       "each; no growth with the count)\n", ru.ru_maxrss, POOL,
	       sizeof *pool);
	free(pool);
	return 0;
}
