/*
 * predict_rows.c - sm_90's prediction of every access of a srcprobe run
 * (research/cpasync/srcprobe.cu's CSV on stdin), each with its recorded
 * sources, against the measured wavefronts; prints per set and kind how
 * many agree, and the misses with -v.  Build from the repository root:
 *   cc -std=c11 -O2 -Ianalyzer research/cpasync/predict_rows.c \
 *      build/libbankscope.a -lm -o build/predict_rows
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"

static int lanes(char *t, uint32_t *v, uint32_t *mask)
{
	int l = 0;

	for (char *p = strtok(t, " "); p && l < 32; p = strtok(NULL, " "), l++)
		if (strcmp(p, "-")) {
			v[l] = (uint32_t)strtoul(p, NULL, 10);
			*mask |= 1u << l;
		}
	return l == 32 ? 0 : -1;
}

int main(int argc, char **argv)
{
	const bs_arch *p = bs_arch_find("sm_90");
	char line[8192], *f[9];
	unsigned ok[2][4] = { { 0 } }, all[2][4] = { { 0 } };
	int verbose = argc > 1 && !strcmp(argv[1], "-v");
	const char *kinds[4] = { "cp.async.ca 4", "cp.async.ca 8",
				 "cp.async.ca 16", "cp.async.cg 16" };

	if (!fgets(line, sizeof line, stdin))
		return 2;
	while (fgets(line, sizeof line, stdin)) {
		bs_access a;
		bs_summary s;
		uint32_t src[32] = { 0 }, m = 0, sm = 0;
		int n = 0, set, k;

		for (char *q = line; n < 9; n++) {
			f[n] = q;
			q = strchr(q, ',');
			if (!q)
				break;
			*q++ = '\0';
		}
		if (n < 8 || strcmp(f[4], "0"))   /* rep 0: reps are equal */
			continue;
		f[8][strcspn(f[8], "\n")] = '\0';
		memset(&a, 0, sizeof a);
		if (bs_kind_find(f[2], &a.kind) < 0)
			return 2;
		a.width = (unsigned)atoi(f[3]);
		if (lanes(f[7], a.addr, &m) < 0 || lanes(f[8], src, &sm) < 0)
			return 2;
		a.active = m;
		a.src = src;
		snprintf(a.name, sizeof a.name, "%s", f[1]);
		if (bs_predict(p, &a, &s, NULL) < 0)
			return 2;
		set = !strcmp(f[0], "held");
		k = !strcmp(f[2], "cp.async.cg") ? 3 : a.width == 4 ? 0
		    : a.width == 8 ? 1 : 2;
		all[set][k]++;
		if (s.wavefronts == (unsigned)atof(f[6]))
			ok[set][k]++;
		else if (verbose)
			printf("miss %s: measured %s, predicted %u\n", f[1],
			       f[6], s.wavefronts);
	}
	for (int set = 0; set < 2; set++)
		for (int k = 0; k < 4; k++)
			printf("%s %-15s %3u of %3u\n", set ? "held" : "sys ",
			       kinds[k], ok[set][k], all[set][k]);
	return 0;
}
