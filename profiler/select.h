/*
 * select.h - which kernel launches the two injection libraries take:
 * inject/ (the counters of `bankscope profile`) and
 * explain/explain.c (the addresses of --explain) read the one selection
 * the profile command sets, with the same rule:
 *
 *   BANKSCOPE_PROFILE_KERNEL  a POSIX extended regular expression matched
 *                             against the demangled kernel name
 *   BANKSCOPE_PROFILE_SKIP    the matching launches to let pass first
 *   BANKSCOPE_PROFILE_COUNT   the matching launches to take
 *
 * Unset (or empty), each takes every launch.  A bad value stops the
 * library through its own stop() (inject/: status.txt, explain.c:
 * explain-status.txt) with the same words in both.  Static inline: each
 * .so compiles its own copy and exports none of it.
 */
#ifndef BANKSCOPE_PROFILER_SELECT_H
#define BANKSCOPE_PROFILER_SELECT_H

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>

/* No BANKSCOPE_PROFILE_COUNT: every matching launch after the skipped. */
#define BS_SELECT_NO_LIMIT ULONG_MAX

typedef struct {
	int have_re;                /* BANKSCOPE_PROFILE_KERNEL given */
	regex_t re;
	unsigned long skip, count;  /* of the matching launches */
	unsigned long matched;      /* matching launches seen so far */
} bs_select;

/* A library's stop(): collection ends, the reason goes to its status. */
typedef void (*bs_select_stop)(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* An unsigned variable: 0 when unset, 1 when set, -1 (stopped) when it
 * is not a count. */
static inline int bs_select_env_ulong(const char *name, unsigned long *out,
				      bs_select_stop stop)
{
	const char *t = getenv(name);
	char *end;

	if (!t || !*t)
		return 0;
	errno = 0;
	*out = strtoul(t, &end, 10);
	if (errno || *end || *t == '-') {
		stop("%s=%s is not a count", name, t);
		return -1;
	}
	return 1;
}

/* The selection from the environment into s; 0, or -1 (stopped).
 * zero_count_stops: BANKSCOPE_PROFILE_COUNT=0 is an error (inject/: it
 * would measure nothing), else it takes no launch (explain.c). */
static inline int bs_select_read(bs_select *s, int zero_count_stops,
				 bs_select_stop stop)
{
	const char *re = getenv("BANKSCOPE_PROFILE_KERNEL");
	int rc;

	if (bs_select_env_ulong("BANKSCOPE_PROFILE_SKIP", &s->skip, stop) < 0)
		return -1;
	s->count = BS_SELECT_NO_LIMIT;
	if ((rc = bs_select_env_ulong("BANKSCOPE_PROFILE_COUNT", &s->count,
				      stop)) < 0)
		return -1;
	if (zero_count_stops && rc && !s->count) {
		stop("BANKSCOPE_PROFILE_COUNT=0 measures nothing");
		return -1;
	}
	if (re && *re) {
		if (regcomp(&s->re, re, REG_EXTENDED | REG_NOSUB)) {
			stop("BANKSCOPE_PROFILE_KERNEL=%s is not a regular "
			     "expression", re);
			return -1;
		}
		s->have_re = 1;
	}
	return 0;
}

/* Does the kernel's name match BANKSCOPE_PROFILE_KERNEL (any name does
 * without one)? */
static inline int bs_select_name(const bs_select *s, const char *kernel)
{
	return !s->have_re || !regexec(&s->re, kernel, 0, NULL, 0);
}

/* Is this launch one of the selected ones?  A matching launch is counted
 * whether taken or not.  *last (where given): it is the last one
 * BANKSCOPE_PROFILE_COUNT takes. */
static inline int bs_select_launch(bs_select *s, const char *kernel,
				   int *last)
{
	unsigned long k;

	if (last)
		*last = 0;
	if (!bs_select_name(s, kernel))
		return 0;
	k = s->matched++;
	if (k < s->skip ||
	    (s->count != BS_SELECT_NO_LIMIT && k - s->skip >= s->count))
		return 0;
	if (last)
		*last = s->count != BS_SELECT_NO_LIMIT &&
			k - s->skip + 1 == s->count;
	return 1;
}

/* Is any selection given (a kernel, a skip or a count)? */
static inline int bs_select_any(const bs_select *s)
{
	return s->have_re || s->skip || s->count != BS_SELECT_NO_LIMIT;
}

#endif
