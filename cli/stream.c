/*
 * stream.c - predict --format csv on several threads (issue 20: 5 M
 * lines/s; one core parses, predicts and formats about 3 M).
 *
 * The calling thread reads the file in blocks of whole lines (a line cut
 * by a block's end goes on to the next block) and hands each block to a
 * pool of workers; a worker reads the block's lines as bs_lines would the
 * file's (bs_lines_block: the same pieces, limits and errors), parses,
 * predicts and formats its rows into the block's own buffer, and stops at
 * its first bad line.  The calling thread writes the blocks in input
 * order, so the bytes are the serial loop's: the rows before the first
 * bad line, then its error, nothing after.  A worker numbers a block's
 * lines from 1; the writer, which has counted the lines of the blocks
 * before, adds them to an error's line (cheaper than counting newlines
 * before handing a block out).  An access the arch has no rule for is
 * kept aside (where its row goes) and written by predict.c's own code
 * between the rows, so that its note has one source.
 *
 * Memory: 2 blocks a worker in flight, each BLOCK bytes in and its rows
 * out (a buffer that grows to the most one block needed), whatever the
 * length of the file.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stream.h"

/* Bytes read a block: at least a piece bs_lines_next takes (a byte-order
 * mark, the longest line, CR, LF), so that a block without a newline
 * holds a line already too long. */
#define BLOCK (128 * 1024)
_Static_assert(BLOCK >= 3 + BS_LINE_MAX_BYTES + 2,
	       "a block holds the longest line");
#define SMALL (1024 * 1024)     /* files below this stay serial */
#define DEFAULT_MAX 8           /* threads at most, by default */
#define THREADS_MAX 64          /* ... and through BANKSCOPE_THREADS */

/* A not-modeled access: what predict.c's note and row print of it. */
typedef struct {
	size_t at;              /* where in the rows it goes */
	char name[BS_NAME_MAX];
	unsigned width;
	bs_kind kind;
	uint32_t active;
} aside;

typedef struct {
	/* the reader's: */
	char *in;               /* BLOCK + 1 + BS_LINES_PAD bytes */
	size_t len;
	int first;              /* the file's first block */
	int read_errno;         /* a read error after these lines */
	int done;               /* under the lock: the worker is through */
	/* the worker's: */
	char *out;              /* the rows */
	size_t n, cap;
	aside *aside;
	size_t naside, capaside;
	unsigned long rows;     /* accesses predicted */
	long lines;             /* lines read */
	int failed;             /* err holds the first bad line's error */
	bs_error err;
} block;

typedef struct {
	const char *name;
	const bs_arch *arch;
	int sectors;             /* rows with the sectors column */
	block *b;
	unsigned nb;
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	unsigned long submitted, taken;   /* blocks, counted from 0 */
	int quit;
} stream;

int stream_threads_set(void)
{
	const char *e = getenv("BANKSCOPE_THREADS");
	int n = 0;

	if (!e || !*e)
		return 0;
	/* Digits alone, the first not 0: no sign, blank or leading zero.
	 * However many digits, a count above THREADS_MAX is THREADS_MAX. */
	if (*e < '1' || *e > '9')
		return -1;
	for (const char *p = e; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if (n <= THREADS_MAX)
			n = n * 10 + (*p - '0');
	}
	return n > THREADS_MAX ? THREADS_MAX : n;
}

int stream_threads(FILE *f)
{
	struct stat st;
	long n = stream_threads_set();

	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) ||
	    st.st_size < SMALL)
		return 0;
	if (n <= 0) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		if (n > DEFAULT_MAX)
			n = DEFAULT_MAX;
	}
	return n > 1 ? (int)n : 0;
}

/* Room for one more row (or aside); -1 out of memory. */
static int room(void **p, size_t *cap, size_t used, size_t need,
		size_t size)
{
	size_t grow = *cap ? *cap : 64 * 1024 / size;
	void *q;

	if (*cap - used >= need)
		return 0;
	while (grow - used < need)
		grow *= 2;
	q = realloc(*p, grow * size);
	if (!q)
		return -1;
	*p = q;
	*cap = grow;
	return 0;
}

/* Predict a and put its row in b (aside when not modeled); -1 with err. */
static int put_access(const stream *s, block *b, const bs_access *a,
		      bs_error *err)
{
	bs_summary sum;
	aside *x;

	if (!bs_arch_rule(s->arch, a->kind, a->width)) {
		if (bs_access_check(a, err) < 0)
			return -1;
		if (room((void **)&b->aside, &b->capaside, b->naside, 1,
			 sizeof *b->aside) < 0)
			return bs_error_set(err, s->name, 0, 0, "out of memory");
		x = &b->aside[b->naside++];
		x->at = b->n;
		memcpy(x->name, a->name, sizeof x->name);
		x->width = a->width;
		x->kind = a->kind;
		x->active = a->active;
		return 0;
	}
	if (bs_predict(s->arch, a, &sum, err) < 0)
		return -1;
	if (room((void **)&b->out, &b->cap, b->n, CSV_ROW_ANY_MAX, 1) < 0)
		return bs_error_set(err, s->name, 0, 0, "out of memory");
	b->n += csv_row_any(b->out + b->n, a, &sum, s->sectors);
	b->rows++;
	return 0;
}

/* A worker's block: its rows, up to its first bad line. */
static void run_block(const stream *s, block *b)
{
	bs_lines lr;
	const char *text;
	size_t len;
	bs_access a;
	int rc;

	b->n = b->naside = 0;
	b->rows = 0;
	b->failed = 0;
	bs_lines_block(&lr, b->in, b->len, s->name, b->first);
	while ((rc = bs_lines_next(&lr, &text, &len, &b->err)) > 0) {
		rc = bs_parse_lines_text(text, len, s->name, lr.line, &a,
					 &b->err);
		if (rc > 0 && put_access(s, b, &a, &b->err) < 0) {
			/* as predict.c's loop: the access's file and line */
			snprintf(b->err.source, sizeof b->err.source, "%s",
				 s->name);
			b->err.line = lr.line;
			rc = -1;
		}
		if (rc < 0)
			break;
	}
	b->lines = lr.line;
	b->failed = rc < 0;
}

static void *worker(void *arg)
{
	stream *s = arg;
	block *b;

	for (;;) {
		pthread_mutex_lock(&s->mu);
		while (!s->quit && s->taken == s->submitted)
			pthread_cond_wait(&s->work, &s->mu);
		if (s->quit) {
			pthread_mutex_unlock(&s->mu);
			return NULL;
		}
		b = &s->b[s->taken++ % s->nb];
		pthread_mutex_unlock(&s->mu);
		run_block(s, b);
		pthread_mutex_lock(&s->mu);
		b->done = 1;
		pthread_cond_broadcast(&s->done);
		pthread_mutex_unlock(&s->mu);
	}
}

/*
 * The next block of whole lines: the line the last block cut (carry),
 * then what the file holds, up to the last newline; the rest is carried
 * on.  0 when it is the last (the end of the file, a read error, or a
 * line longer than a block, which fails in it).
 */
static int read_block(FILE *f, block *b, char *carry, size_t *ncarry)
{
	size_t want = BLOCK - *ncarry, got, cut;

	memcpy(b->in, carry, *ncarry);
	got = fread(b->in + *ncarry, 1, want, f);
	b->len = *ncarry + got;
	*ncarry = 0;
	b->read_errno = 0;
	if (got < want) {
		if (ferror(f)) {
			/* the lines read are predicted, then the error */
			b->read_errno = errno ? errno : EIO;
			while (b->len && b->in[b->len - 1] != '\n')
				b->len--;
		}
		return 0;
	}
	for (cut = b->len; cut && b->in[cut - 1] != '\n'; cut--)
		;
	if (!cut)
		return 0;
	*ncarry = b->len - cut;
	memcpy(carry, b->in + cut, *ncarry);
	b->len = cut;
	return 1;
}

/* Write bytes of rows, the header first. */
static void put(const stream_hooks *h, const char *p, size_t n)
{
	if (!n)
		return;
	h->start(h->ctx);
	fwrite(p, 1, n, stdout);
}

/*
 * Write a finished block: its rows with the not-modeled ones in their
 * places, then its error with the line counted from the file's start.
 * 0, -1 with err, 1 when stdout failed.
 */
static int write_block(const stream *s, block *b, const stream_hooks *h,
		       long *base, unsigned long *count, bs_error *err)
{
	size_t at = 0;

	for (size_t i = 0; i < b->naside; i++) {
		const aside *x = &b->aside[i];
		bs_access a = { .width = x->width, .kind = x->kind,
				.active = x->active };

		memcpy(a.name, x->name, sizeof a.name);
		put(h, b->out + at, x->at - at);
		at = x->at;
		h->not_modeled(h->ctx, &a);
	}
	put(h, b->out + at, b->n - at);
	*count += b->rows;
	if (b->failed) {
		*err = b->err;
		if (err->line > 0)
			err->line += *base;
		return -1;
	}
	*base += b->lines;
	if (b->read_errno)
		return bs_error_set(err, s->name, *base + 1, 0,
				    "read error: %s", strerror(b->read_errno));
	return ferror(stdout) ? 1 : 0;
}

static int alloc_blocks(stream *s, unsigned nb)
{
	s->b = calloc(nb, sizeof *s->b);
	if (!s->b)
		return -1;
	s->nb = nb;
	for (unsigned i = 0; i < nb; i++) {
		/* zeroed: the padding after a block's end is read */
		s->b[i].in = calloc(1, BLOCK + 1 + BS_LINES_PAD);
		if (!s->b[i].in)
			return -1;
	}
	return 0;
}

static void free_blocks(stream *s)
{
	for (unsigned i = 0; s->b && i < s->nb; i++) {
		free(s->b[i].in);
		free(s->b[i].out);
		free(s->b[i].aside);
	}
	free(s->b);
}

/*
 * The reading and writing loop: keeps every block in flight, writes the
 * oldest when its worker is through.  Without workers (none could be
 * started) it runs each block itself.
 */
static int pump(stream *s, FILE *f, int workers, const stream_hooks *h,
		unsigned long *count, bs_error *err)
{
	unsigned long next_read = 0, next_write = 0;
	char carry[BLOCK];
	size_t ncarry = 0;
	int reading = 1, rc = 0;
	long base = 0;
	block *b;

	while (!rc) {
		while (reading && next_read - next_write < s->nb) {
			b = &s->b[next_read % s->nb];
			reading = read_block(f, b, carry, &ncarry);
			if (!b->len && !b->read_errno)
				break;
			b->first = next_read == 0;
			b->done = 0;
			pthread_mutex_lock(&s->mu);
			s->submitted = ++next_read;
			pthread_cond_signal(&s->work);
			pthread_mutex_unlock(&s->mu);
		}
		if (next_write == next_read)
			break;
		b = &s->b[next_write++ % s->nb];
		if (!workers)
			run_block(s, b);
		pthread_mutex_lock(&s->mu);
		while (workers && !b->done)
			pthread_cond_wait(&s->done, &s->mu);
		pthread_mutex_unlock(&s->mu);
		rc = write_block(s, b, h, &base, count, err);
	}
	return rc;
}

int stream_csv(FILE *f, const char *name, const bs_arch *arch, int threads,
	       const stream_hooks *h, unsigned long *count, bs_error *err)
{
	stream s = { .name = name, .arch = arch, .sectors = h->sectors };
	pthread_t tid[THREADS_MAX];
	int n = 0, rc;

	if (threads > THREADS_MAX)
		threads = THREADS_MAX;
	if (alloc_blocks(&s, 2 * (unsigned)threads) < 0) {
		free_blocks(&s);
		return bs_error_set(err, name, 0, 0, "out of memory");
	}
	pthread_mutex_init(&s.mu, NULL);
	pthread_cond_init(&s.work, NULL);
	pthread_cond_init(&s.done, NULL);
	while (n < threads && !pthread_create(&tid[n], NULL, worker, &s))
		n++;
	rc = pump(&s, f, n, h, count, err);
	pthread_mutex_lock(&s.mu);
	s.quit = 1;
	pthread_cond_broadcast(&s.work);
	pthread_mutex_unlock(&s.mu);
	while (n)
		pthread_join(tid[--n], NULL);
	pthread_cond_destroy(&s.done);
	pthread_cond_destroy(&s.work);
	pthread_mutex_destroy(&s.mu);
	free_blocks(&s);
	return rc;
}
