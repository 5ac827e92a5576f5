/*
 * bs_base.h - what every wing of the library stands on: errors and how
 * they print, safe text, the version, the small token parsers and the
 * CSV rule every reader and writer shares, the one way a file is written
 * in a path's place, and the one text-line reader (pattern files,
 * datasets, profile and explain records take the same limits and give
 * the same errors).  Part of bankscope.h; analyzer/base/ implements it.
 */
#ifndef BS_BASE_H
#define BS_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	char source[256];        /* file name, "<stdin>", or an option like "--expr" */
	long line;               /* 1-based; 0 when not about a line */
	long column;             /* 1-based; 0 when not about a column */
	char text[320];
} bs_error;

/* Fill err (when not NULL) and return -1; printf-style. */
int bs_error_set(bs_error *err, const char *source, long line, long column,
		 const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/*
 * "source:line:column: text", "source:line: text", "source: column C: text"
 * (an option's text has columns but no lines) or "source: text".  source
 * and text may hold the bytes of the input they quote: pass the line
 * through bs_escape_text() before it reaches a terminal.
 */
void bs_error_format(const bs_error *err, char *buf, size_t size);

/*
 * The length of the UTF-8 character s starts with (1 for ASCII, 2..4), or
 * 0 for NUL and for a byte that starts no valid character (a stray
 * continuation byte, an overlong form, a surrogate, beyond U+10FFFF, a
 * sequence cut short).
 */
int bs_utf8_next(const char *s);
/*
 * s made safe to print on a terminal: control bytes (C0, DEL, and the C1
 * controls U+0080..U+009F) and bytes that are no valid UTF-8 as \xHH, a
 * backslash as two; valid printable UTF-8 as is.  Cut at a whole
 * character or escape to fit size (NUL included).
 */
void bs_escape_text(char *buf, size_t size, const char *s);

/* This build's version: `git describe --always --dirty` where it was
 * built (e.g. "32abdea-dirty"), "unknown" outside a git checkout. */
const char *bs_version(void);

/* ---- small helpers shared by the readers ------------------------------- */

/* Parse a whole unsigned decimal or 0x-hex token: 0, -1 on junk, -2 when > max. */
int bs_parse_u64(const char *s, uint64_t max, uint64_t *out);
/* The same for a field that is decimal alone: -3 for a 0x-hex token. */
int bs_parse_dec_u64(const char *s, uint64_t max, uint64_t *out);
/*
 * The one number grammar of arch files and datasets: the n bytes of s
 * are a whole decimal, [+-] then digits with an optional '.' and fraction
 * (or '.' and a fraction), then an optional exponent e[+-]digits; no hex,
 * inf or nan.  Any length; the value as strtod rounds it, subnormals and
 * underflow to zero included.  0, -1 when s is no such number, -2 when it
 * is too large for a double.  A sign is the caller's to refuse: "-0" gives
 * -0.0 (signbit).
 */
int bs_parse_decimal(const char *s, size_t n, double *out);
/*
 * The tokens of a line of words (arch files, pattern files): blanks
 * are ' ' and '\t', a token runs to a blank, '#' (a comment) or the end.
 * bs_skip_blanks: s past its blanks.  bs_token_len: the length of the
 * token at s (0 at a blank, '#' or the end).  bs_copy_token: up to size -
 * 1 of the n bytes at s into dst, NUL-terminated (size > 0), for messages
 * and lookups that quote no more.
 */
const char *bs_skip_blanks(const char *s);
size_t bs_token_len(const char *s);
void bs_copy_token(char *dst, size_t size, const char *s, size_t n);
/*
 * Write s as one CSV field, the rule of every CSV bankscope writes:
 * quoted (RFC 4180, quotes doubled) when it holds a comma, a quote, a CR
 * or LF, starts with '#' (a comment to the dataset reader), or starts or
 * ends with a blank; as is otherwise.  Errors are f's (ferror).
 */
void bs_csv_field(FILE *f, const char *s);
/* 1 when bs_csv_field writes s as is, 0 when it quotes it (for writers
 * that build a row in memory). */
int bs_csv_plain(const char *s);

/*
 * Writing a file in PATH's place, the one way every writer does it.
 * PATH absent or a regular file: the text goes to a temporary beside it,
 * PATH.new-XXXXXX, which bs_output_commit() renames over PATH when whole,
 * so a reader sees the old file or the new one, never half of one; the
 * new file keeps the replaced file's mode, or has 0666 less the umask.
 * A symbolic link to a regular file stays a link: the file it leads to
 * is replaced the same way, so a failed run leaves it as it was.
 * Anything else is never replaced: a character or block device, a FIFO,
 * or a link to one is opened for writing and written through, so
 * /dev/null, /dev/stdout or a FIFO stays what it was (a FIFO's open waits
 * for its reader: a caller that holds signals back around the open must
 * not for a FIFO).  A folder, a socket or a link to nothing is an error.
 *
 * bs_output_open(): 0, or -1 with err naming PATH ("cannot write: ...");
 * o->f is where to write, o->tmp the temporary's name ("" when written
 * through), for a caller that removes it on a signal.
 * bs_output_commit(): flushes and closes o->f, then renames; 0, or -1
 * with err (a write error, or the rename's), the temporary removed.
 * bs_output_abort() closes o->f and removes the temporary.  Both consume
 * o; neither prints.
 */
#define BS_OUTPUT_PATH 4096
typedef struct {
	FILE *f;
	char path[BS_OUTPUT_PATH];
	char tmp[BS_OUTPUT_PATH];
} bs_output;

int bs_output_open(bs_output *o, const char *path, bs_error *err);
/* 1 when path, links followed, is the file open on fd (one device and
 * inode): the input a writer must refuse to replace; else 0. */
int bs_same_file(int fd, const char *path);
int bs_output_commit(bs_output *o, bs_error *err);
void bs_output_abort(bs_output *o);

/* ---- growing arrays -------------------------------------------------------
 * Room for element n of the array whose address is array (a T **, passed
 * as void *) of *cap elements of size bytes: when n reaches *cap, the
 * array is reallocated to twice *cap (first when *cap is 0).  0, or -1
 * out of memory (the array and *cap as they were).
 */
int bs_grow(void *array, size_t *cap, size_t n, size_t first, size_t size);

/* ---- directories ------------------------------------------------------------
 * dir and the folders above it, made where missing (mkdir -p, mode 0777
 * less the umask): 0, or -1 with errno from the mkdir that failed.  An
 * existing path, a folder or not, is not an error here: the caller opens
 * what it wants in it.
 */
int bs_make_dirs(const char *dir);

/* ---- text lines -----------------------------------------------------------
 * The library's one text-line reader (analyzer/base/lines.c).
 */
#define BS_LINE_MAX_BYTES (64 * 1024)

/*
 * Read the next line of f into *buf (grown as needed, *cap its size; at
 * least 1 byte on entry), without its newline and a CR before it, and
 * without a UTF-8 byte-order mark that opens line 1; *len its length,
 * *line counts lines.  *skip (0 at the start) is the reader's state: set
 * when an error left the rest of a line unread.  1: a line; 2: the last
 * line, ended by the end of the file instead of a newline (a file cut
 * short, or written without a final newline: the caller decides); 0: end
 * of file; -1: an error naming name, the line and column, returned as
 * soon as it is seen: a NUL byte, more than BS_LINE_MAX_BYTES bytes
 * besides the line end, a read error, out of memory.
 */
int bs_read_line(FILE *f, const char *name, long *line, int *skip,
		 char **buf, size_t *cap, size_t *len, bs_error *err);

/*
 * The same lines, limits, errors and return values as bs_read_line, for
 * a stream of many short lines (pattern files), into buffers allocated
 * once.  A regular file is read in blocks of 128 KiB and its lines taken
 * from them where they lie (it is read ahead: the reader owns the FILE
 * until it is closed); anything else (a pipe, a terminal, fmemopen) by
 * one fgets a line, which returns at a newline, so a pipe or a terminal
 * is served line by line as before.
 * bs_lines_open: 0, or -1 out of memory; name must outlive the reader.
 * bs_lines_next: as bs_read_line, the line in *text (NUL-terminated,
 * valid until the next call) and its length in *len; BS_LINES_PAD bytes
 * after its NUL can be read too (word-at-a-time parsing).
 */
#define BS_LINES_PAD 64
typedef struct {
	FILE *f;
	const char *name;
	long line;
	int skip;        /* the rest of a bad line is still unread */
	size_t used;     /* fgets: bytes it wrote last time, its NUL included */
	char *buf;       /* fgets: its buffer */
	char *blk;       /* blocks: the bytes read ahead, [pos, end) unused */
	size_t pos, end;
	int eof;         /* blocks: fread found the end or an error */
	int inner;       /* bs_lines_block: not the file's first block */
} bs_lines;

int bs_lines_open(bs_lines *r, FILE *f, const char *name);
int bs_lines_next(bs_lines *r, const char **text, size_t *len,
		  bs_error *err);
void bs_lines_close(bs_lines *r);
/*
 * The same reader over the len bytes at data instead of a file: a block
 * of whole lines cut from a file (but the file's last line may lack its
 * newline), that a thread reads while others read the next ones.  Its
 * lines are numbered from 1; first: the block opens the file (a
 * byte-order mark may open its line 1).  data must hold len + 1 +
 * BS_LINES_PAD bytes, written where the lines end; nothing to close.
 */
void bs_lines_block(bs_lines *r, char *data, size_t len, const char *name,
		    int first);

#ifdef __cplusplus
}
#endif

#endif
