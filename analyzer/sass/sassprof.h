/*
 * sassprof.h - what the files of a per-instruction profile (bs_sassprof,
 * bs_sass.h) share; private to the sass wing:
 *
 *   sassprof.c         storage, and reading records.tsv and launches.tsv
 *   sassprof_disasm.c  SASS text and source lines from a disassembly
 *   sassprof_finish.c  filtering to shared memory, counting launches,
 *                      the report's order, and the finished profile
 *
 * Storage.  Names are interned (one copy of each kernel and function
 * name); instructions live in an open-addressing hash on (crc, function,
 * pc), whose slots are indexes into one array; finish() drops the hash and
 * sorts the array in place.  A second hash, on (instruction, launch),
 * keeps the line of each record for the duplicate check.
 *
 */
#ifndef BS_SASSPROF_H
#define BS_SASSPROF_H

#include <stdio.h>

#include "bs_sass.h"

#define COUNT_MAX ((uint64_t)INT64_MAX)   /* a count, or a sum of them */

typedef struct {
	char **slot;
	size_t n, cap;
} strtab;

/* A record's key and line, for the duplicate check. */
typedef struct {
	size_t entry;                /* index + 1; 0 = empty slot */
	unsigned long launch;        /* DRAINED for "-" */
	long line;
} seen;

typedef struct {
	bs_sass_insn in;
	unsigned long last_launch;   /* for counting launches per insn */
	int drained;                 /* has records not tied to a launch */
} entry;

struct bs_sassprof {
	strtab names;
	entry *e;
	size_t n, cap;
	size_t *hash;                /* index + 1; 0 = empty */
	size_t hcap;
	uint32_t *crcs;              /* distinct, ascending */
	size_t ncrc, crccap;
	bs_sass_launch *launch;      /* sorted by index after each read */
	size_t nl, lcap;
	size_t *lhash;               /* launch index -> position + 1 */
	size_t lhcap;
	int lsorted;                 /* launch[] is in index order */
	seen *seen;                  /* every record's key and line */
	size_t nseen, seencap;
	bs_sassprof_totals tot;
	size_t kept;
	int finished;
	char *line;
	size_t linecap;
};

/* A file being read, and its line number. */
typedef struct {
	bs_sassprof *p;
	FILE *f;
	const char *name;
	long line;
	int fields;                  /* records.tsv: its header's fields */
} src;

/* The interned copy of s; NULL when out of memory (sp_intern) or absent
 * (sp_str_find, which gives the empty slot where s belongs in *at). */
char *sp_str_find(const strtab *t, const char *s, size_t *at);
char *sp_intern(strtab *t, const char *s);
/* Slot of (crc, fn, pc): its entry, or the empty slot where it belongs. */
size_t *sp_lookup(const bs_sassprof *p, uint32_t crc, const char *fn,
		  uint32_t pc);
/* One line into p->line without its newline (and CR); 1, 2 the last
 * line, ended by the end of the file and not a newline, 0 at end, -1. */
int sp_read_line(src *s, bs_error *err);
/* The error for a last line without its newline. */
int sp_truncated(const src *s, bs_error *err);
/* -1 with err once the profile is finished: it takes no more input. */
int sp_refuse_finished(const bs_sassprof *p, const char *name, bs_error *err);

#endif
