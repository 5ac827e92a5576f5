/*
 * remote.c - what a warp access to another CTA's shared memory touches:
 * its 32-byte sectors, 128-byte lines and, per sector, the most lanes on
 * one 4-byte word (bs_remote_geometry, bs_model.h).
 *
 * A remote access (ld/st/red/atom.shared::cluster to a CTA on another SM)
 * crosses the SM-to-SM network, and no shared-memory bank counter sees it:
 * the crossbar moves 32-byte sectors (docs/model.md, "Distributed shared
 * memory"; measured in data/h200/dsmem-20261127).  The counts here are
 * what the rules of such kinds price: loads and stores the distinct
 * sectors, atomics one read and one write of each sector per pass, where
 * a sector takes as many passes as the most lanes that update one of its
 * words.  Every active lane's bytes count, [address, address + width).
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorted v[0..n) to its distinct values; how many. */
static unsigned distinct(uint32_t *v, unsigned n)
{
	unsigned k = 0;

	qsort(v, n, sizeof *v, cmp_u32);
	for (unsigned i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/*
 * BS_REMOTE_WRITES's count from the sector list and the distinct 16-byte
 * halves (ascending): per 128-byte line its sectors, or 2 when it has one
 * sector and both of that sector's halves hold a byte.
 */
static unsigned written(const bs_remote *g, const uint32_t *half,
			unsigned nh)
{
	unsigned n = 0, h = 0;

	for (unsigned i = 0; i < g->sectors;) {
		uint32_t line = g->sector[i] / 4;
		unsigned k = i, halves = 0;

		while (k < g->sectors && g->sector[k] / 4 == line)
			k++;
		while (h < nh && half[h] / 8 < line)
			h++;
		while (h < nh && half[h] / 8 == line) {
			halves++;
			h++;
		}
		n += k - i == 1 && halves == 2 ? 2 : k - i;
		i = k;
	}
	return n;
}

/* Lane l's bytes fall in sector x: into out's ascending list. */
static void add_sector(bs_remote *out, uint32_t x, unsigned l)
{
	unsigned i = out->sectors;

	while (i > 0 && out->sector[i - 1] > x)
		i--;
	if (i == 0 || out->sector[i - 1] != x) {
		memmove(&out->sector[i + 1], &out->sector[i],
			(out->sectors - i) * sizeof *out->sector);
		memmove(&out->sector_lanes[i + 1], &out->sector_lanes[i],
			(out->sectors - i) * sizeof *out->sector_lanes);
		out->sector[i] = x;
		out->sector_lanes[i] = 0;
		out->sectors++;
		i++;
	}
	out->sector_lanes[i - 1] |= 1u << l;
}

int bs_remote_geometry(const bs_access *a, bs_remote *out)
{
	/* a 16-byte lane touches 4 words but 1 sector and 1 line */
	uint32_t line[BS_LANES * 4], word[BS_LANES * 4], half[BS_LANES * 4];
	unsigned nl = 0, nw = 0, nh = 0;

	memset(out, 0, sizeof *out);
	if (a->width == 0 || a->width > 16)
		return -1;
	for (unsigned l = 0; l < BS_LANES; l++) {
		uint32_t first, last;

		if (!(a->active >> l & 1))
			continue;
		first = a->addr[l];
		last = first + a->width - 1;
		if (last < first)
			return -1;      /* past 4 GiB */
		for (uint32_t s = first / 32; s <= last / 32; s++)
			add_sector(out, s, l);
		for (uint32_t s = first / 128; s <= last / 128; s++)
			line[nl++] = s;
		for (uint32_t w = first / 4; w <= last / 4; w++)
			word[nw++] = w;
		for (uint32_t h = first / 16; h <= last / 16; h++)
			half[nh++] = h;
	}
	out->lines = distinct(line, nl);
	out->written = written(out, half, distinct(half, nh));
	/*
	 * Passes: word[] sorted keeps a word's lanes together and a sector's
	 * words together (8 words a sector); per sector, the longest run.
	 */
	qsort(word, nw, sizeof *word, cmp_u32);
	for (unsigned i = 0; i < nw;) {
		uint32_t s = word[i] / 8;
		unsigned most = 0;

		while (i < nw && word[i] / 8 == s) {
			unsigned j = i;

			while (j < nw && word[j] == word[i])
				j++;
			if (j - i > most)
				most = j - i;
			i = j;
		}
		out->passes += most;
		if (most > out->most_on_word)
			out->most_on_word = most;
	}
	return 0;
}

int bs_remote_predict(const bs_rule *r, const bs_access *a, bs_summary *s)
{
	bs_remote g;

	memset(s, 0, sizeof *s);
	if (bs_remote_geometry(a, &g) < 0)
		return -1;
	s->active_lanes = (unsigned)__builtin_popcount(a->active);
	s->lines = g.lines;
	if (r->remote == BS_REMOTE_RMW) {
		s->passes = g.passes;
		s->sectors = 2 * g.passes;
	} else if (r->remote == BS_REMOTE_WRITES) {
		s->sectors = g.written;
	} else {
		s->sectors = g.sectors;
	}
	/*
	 * dshared wavefronts: a wavefront serves up to 4 lines (measured on
	 * strided accesses; random ones are open, docs/model.md), and an
	 * atomic's lanes on one word take one wavefront each: 34 of 34
	 * systematic atomic rows on the H200 and the H100 (24 with lines
	 * alone), 16 of 32 held-out ones (0), and the CUDA Programming
	 * Guide's cluster histogram, 32 lanes on one word: 32 a remote
	 * execution (data/h200/dsmem-profile-20261128)
	 */
	s->wavefronts = (g.lines + 3) / 4;
	if (r->remote == BS_REMOTE_RMW && g.most_on_word > s->wavefronts)
		s->wavefronts = g.most_on_word;
	s->ideal_wavefronts = s->wavefronts;
	s->phases = a->active != 0;     /* no lane active: none, as banks */
	s->latency_cycles = model_latency(r, 0, s->sectors);
	return 0;
}
