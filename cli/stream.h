/*
 * stream.h - predict --format csv over a large regular file, on several
 * threads (stream.c); predict.c's serial loop does everything else.
 */
#ifndef STREAM_H
#define STREAM_H

#include "cli.h"

/*
 * What the rows of a stream go through predict.c for: start before the
 * first row (the CSV header), not_modeled for the row and note of an
 * access the arch has no rule for (written in order between the rows).
 */
typedef struct {
	void (*start)(void *ctx);
	void (*not_modeled)(void *ctx, const bs_access *a);
	void *ctx;
	int sectors;             /* rows with the sectors column (csv_row) */
} stream_hooks;

/*
 * The threads to stream f with: 0 to read it in predict.c's loop (not a
 * regular file, a small one, one CPU, BANKSCOPE_THREADS=1); else the
 * online CPUs up to 8, or BANKSCOPE_THREADS.
 */
int stream_threads(FILE *f);
/*
 * BANKSCOPE_THREADS: 0 when unset or empty, else the count it asks for
 * (above 64, however many digits: 64), or -1 when it is not digits alone
 * with the first not 0 (no blank, sign or leading zero; predict
 * refuses it before reading anything).
 */
int stream_threads_set(void);

/*
 * Predict every access of f, name in messages, and write its CSV rows to
 * stdout in order, with threads workers: the bytes and the error
 * predict.c's loop would give.  0; -1 with err: the first bad line (the
 * rows before it written); 1: writing stdout failed (ferror(stdout)).
 * *count: the accesses written.
 */
int stream_csv(FILE *f, const char *name, const bs_arch *arch, int threads,
	       const stream_hooks *h, unsigned long *count, bs_error *err);

#endif
