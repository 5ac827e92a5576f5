/*
 * sassprof_finish.c - a per-instruction profile finished (sassprof.h):
 * the instructions kept (shared memory, any that moved shared wavefronts
 * or went to another CTA's shared memory, and those CUPTI's metrics do
 * not count), their launches counted, sorted
 * in the report's order; then what the finished profile answers.
 */
#include <stdlib.h>
#include <string.h>

#include "sassprof.h"

/* ---- filtering and order ------------------------------------------------- */

/* The opcode of a SASS line (after an @P predicate), and its length up
 * to the first '.' or blank. */
static const char *opcode(const char *sass, size_t *n)
{
	const char *p = sass + strspn(sass, " \t");

	if (*p == '@') {
		p += strcspn(p, " \t");
		p += strspn(p, " \t");
	}
	*n = strcspn(p, ". \t");
	return p;
}

/* The opcodes of the kinds table (bs_sass_kind), the one list of them. */
int bs_sass_is_shared(const char *sass)
{
	return bs_sass_kind(sass, NULL, NULL) == 1;
}

const char *bs_sass_not_counted(const char *sass)
{
	static const struct {
		const char *op, *why;
	} op[] = {
		{ "UTMALDG", "TMA load: the tensor memory accelerator writes "
			     "shared memory, outside the LSU pipe" },
		{ "UTMASTG", "TMA store: the tensor memory accelerator reads "
			     "shared memory, outside the LSU pipe" },
		{ "UTMAREDG", "TMA reduction: the tensor memory accelerator "
			      "reads shared memory, outside the LSU pipe" },
		{ "UBLKCP", "bulk copy: the tensor memory accelerator moves "
			    "it, outside the LSU pipe" },
		{ "UBLKRED", "bulk reduction: the tensor memory accelerator "
			     "moves it, outside the LSU pipe" },
		{ "HGMMA", "warpgroup MMA: reads its operands from shared "
			   "memory through descriptors, outside the LSU pipe" },
		{ "IGMMA", "warpgroup MMA: reads its operands from shared "
			   "memory through descriptors, outside the LSU pipe" },
		{ "QGMMA", "warpgroup MMA: reads its operands from shared "
			   "memory through descriptors, outside the LSU pipe" },
		{ "BGMMA", "warpgroup MMA: reads its operands from shared "
			   "memory through descriptors, outside the LSU pipe" },
	};
	size_t n;
	const char *p = opcode(sass, &n);

	for (size_t i = 0; i < sizeof op / sizeof *op; i++)
		if (strlen(op[i].op) == n && !strncmp(p, op[i].op, n))
			return op[i].why;
	return NULL;
}

static int by_report_order(const void *a, const void *b)
{
	const bs_sass_insn *x = &((const entry *)a)->in;
	const bs_sass_insn *y = &((const entry *)b)->in;
	int c;

	if (!x->not_counted != !y->not_counted)
		return x->not_counted ? 1 : -1;
	if (x->excess != y->excess)
		return x->excess > y->excess ? -1 : 1;
	if ((c = strcmp(x->kernel, y->kernel)))
		return c;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if ((c = strcmp(x->function, y->function)))
		return c;
	return (x->cubin_crc > y->cubin_crc) - (x->cubin_crc < y->cubin_crc);
}

/* Exact: both sums are at most COUNT_MAX (add_record). */
static int64_t excess(uint64_t w, uint64_t ideal)
{
	return (int64_t)w - (int64_t)ideal;
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const char *const *)a;
	uintptr_t y = (uintptr_t)*(const char *const *)b;

	return (x > y) - (x < y);
}

/* The distinct interned names of v[0..n), sorted by address, in place;
 * returns how many. */
static size_t distinct(const char **v, size_t n)
{
	size_t d = 0;

	qsort(v, n, sizeof *v, by_address);
	for (size_t i = 0; i < n; i++)
		if (!d || v[i] != v[d - 1])
			v[d++] = v[i];
	return d;
}

static int among(const char *const *v, size_t n, const char *k)
{
	return k && bsearch(&k, v, n, sizeof *v, by_address) != NULL;
}

/* A kernel and the launches of it inside a measured window. */
typedef struct {
	const char *kernel;
	unsigned long n;
} kernel_count;

static int by_kernel_address(const void *a, const void *b)
{
	return by_address(&((const kernel_count *)a)->kernel,
			  &((const kernel_count *)b)->kernel);
}

/*
 * The counts: launches and kernels come from launches.tsv (records alone
 * when there is none), kernels are told apart by name, a launch is
 * measured when a run measured it alone (its records carry its index) or
 * it was inside a window and its kernel has records; a measured launch
 * whose run gave no record for it is empty.  Records of kernels no launch
 * line names (a launch the library could not see) are counted apart, so
 * every total adds up.  Instructions drained from a window count the
 * measured launches of their kernel.
 */
static int count(bs_sassprof *p)
{
	const char **rk = malloc((p->n + 1) * sizeof *rk);
	const char **lk = malloc((p->nl + 1) * sizeof *lk);
	const char **mk = malloc((p->nl + 1) * sizeof *mk);
	kernel_count *wc = malloc((p->nl + 1) * sizeof *wc);
	size_t nrk = 0, nlk = 0, nmk = 0, nwc = 0;

	if (!rk || !lk || !mk || !wc) {
		free(rk);
		free(lk);
		free(mk);
		free(wc);
		return -1;
	}
	for (size_t i = 0; i < p->n; i++)
		rk[nrk++] = p->e[i].in.kernel;
	nrk = distinct(rk, nrk);
	p->tot.launches = (unsigned long)p->nl;
	for (size_t i = 0; i < p->nl; i++) {
		bs_sass_launch *l = &p->launch[i];
		int has = among(rk, nrk, l->kernel);

		if (l->kernel)
			lk[nlk++] = l->kernel;
		if (l->window && !l->measured)
			l->measured = has;
		p->tot.measured += (unsigned long)l->measured;
		p->tot.empty_launches += (l->measured && !l->records &&
					  !l->window) ||
					 (l->window && !has);
		if (has && l->kernel)
			mk[nmk++] = l->kernel;
		if (l->window && has)
			wc[nwc++] = (kernel_count){ l->kernel, 1 };
	}
	nlk = distinct(lk, nlk);
	p->tot.kernels = (unsigned long)(p->nl ? nlk : nrk);
	p->tot.kernels_measured = (unsigned long)distinct(mk, nmk);
	for (size_t i = 0; p->nl && i < nrk; i++)
		p->tot.kernels_unlaunched += !among(lk, nlk, rk[i]);
	qsort(wc, nwc, sizeof *wc, by_kernel_address);
	for (size_t i = 0, k = 0; i < nwc; i = k) {
		for (k = i + 1; k < nwc && wc[k].kernel == wc[i].kernel; k++)
			;
		wc[i].n = (unsigned long)(k - i);
		for (size_t j = i + 1; j < k; j++)
			wc[j].n = 0;
	}
	for (size_t i = 0; i < p->n; i++) {
		entry *e = &p->e[i];
		kernel_count key = { e->in.kernel, 0 }, *c;

		if (!e->drained)
			continue;
		c = bsearch(&key, wc, nwc, sizeof *wc, by_kernel_address);
		while (c && c > wc && c[-1].kernel == key.kernel)
			c--;
		e->in.launches += c ? c->n : 0;
	}
	free(rk);
	free(lk);
	free(mk);
	free(wc);
	return 0;
}

size_t bs_sassprof_finish(bs_sassprof *p)
{
	size_t k = 0;

	if (p->finished)
		return p->kept;
	p->tot.instructions = (unsigned long)p->n;
	if (count(p) < 0)
		p->tot.kernels = 0;
	for (size_t i = 0; i < p->n; i++) {
		bs_sass_insn *in = &p->e[i].in;
		int shared = in->sass && bs_sass_is_shared(in->sass);
		const char *why = in->sass ? bs_sass_not_counted(in->sass)
					   : NULL;

		in->excess = excess(in->wavefronts, in->ideal);
		if (!shared && !in->wavefronts && !in->dshared && why &&
		    in->executions) {
			in->not_counted = why;
			p->tot.not_counted++;
		} else if (!shared && !in->wavefronts && !in->dshared) {
			continue;
		}
		p->tot.remote += in->dshared > 0;
		p->e[k++] = p->e[i];
	}
	if (k)
		qsort(p->e, k, sizeof *p->e, by_report_order);
	free(p->hash);
	p->hash = NULL;
	p->hcap = 0;
	p->kept = k;
	p->finished = 1;
	return k;
}

const bs_sass_insn *bs_sassprof_get(const bs_sassprof *p, size_t i)
{
	return p->finished && i < p->kept ? &p->e[i].in : NULL;
}

void bs_sassprof_get_totals(const bs_sassprof *p, bs_sassprof_totals *out)
{
	*out = p->tot;
}

size_t bs_sassprof_undisassembled(const bs_sassprof *p, uint32_t crc,
				  size_t *recorded)
{
	size_t n = 0, all = 0;

	for (size_t i = 0; i < p->n; i++)
		if (p->e[i].in.cubin_crc == crc) {
			all++;
			n += !p->e[i].in.sass;
		}
	if (recorded)
		*recorded = all;
	return n;
}

size_t bs_sassprof_launch_count(const bs_sassprof *p)
{
	return p->nl;
}

const bs_sass_launch *bs_sassprof_launch_at(const bs_sassprof *p, size_t i)
{
	return i < p->nl ? &p->launch[i] : NULL;
}
