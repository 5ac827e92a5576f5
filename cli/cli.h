/*
 * cli.h - what the bankscope command's source files share.
 *
 * Exit status of every command: 0 success, 1 a check found disagreements,
 * 2 bad input or usage (one message on stderr naming where), or standard
 * output could not be written (main.c checks it once, after the command).
 */
#ifndef BANKSCOPE_CLI_H
#define BANKSCOPE_CLI_H

#include <stdio.h>

#include "bankscope.h"

#define EXIT_DISAGREE 1
#define EXIT_BADINPUT 2

/* Print "bankscope: <formatted error>" on stderr; returns EXIT_BADINPUT. */
int report_error(const bs_error *err);
/* Print "bankscope: <message>" on stderr; returns EXIT_BADINPUT. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * A command that sees standard output's error flag right after the write
 * that failed calls this, so that main.c's one message can give errno's
 * reason even when stdio has dropped what it could not write.
 */
void stdout_failed(void);
int stdout_errno(void);

/*
 * A command: its name, what it does (one line for `bankscope --help`),
 * its usage text and its entry point.  main.c holds the table.
 */
typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;     /* NULL: an older name, not listed */
} cli_command;

/* The command table's row for name, or NULL. */
const cli_command *cli_find(const char *name);

/*
 * Long options: "--name value" or "--name=value".  Returns 1 and sets
 * *value when argv[*i] is option `name` (advancing *i past its value), 0
 * when it is not, -1 (after printing) when its value is missing.
 */
int opt_value(int argc, char **argv, int *i, const char *name,
	      const char **value);
/* Parse an unsigned option value: 0, or -1 after a message naming it. */
int opt_u64(const char *name, const char *value, uint64_t max, uint64_t *out);

/*
 * An input operand, for reading: "-" is standard input, named "<stdin>",
 * anything else the file of that path, named by it.  0 with *f and *name,
 * or EXIT_BADINPUT after "PATH: cannot open: REASON".  input_close()
 * closes what input_open() opened (never standard input).
 */
int input_open(const char *path, FILE **f, const char **name);
void input_close(FILE *f);

/*
 * The argument loop every command shares: argv[1..] are its own options
 * (a value "--name V" / "--name=V", or a flag), the access options when
 * shape is not NULL, "--help", "--" (what follows is not an option), and
 * the rest, '-' included, operands, collected into *files (allocated;
 * the caller frees it).  Returns 0, CLI_HELP after printing usage on
 * stdout, or EXIT_BADINPUT after one message naming cmd.
 */
#define CLI_HELP (-1)
typedef struct {
	const char *name;
	const char **value;      /* an option with a value, or */
	int *flag;               /* a flag, set to 1 */
} cli_option;

typedef struct shape_options shape_options;
int cli_parse(const char *cmd, const char *usage, int argc, char **argv,
	      const cli_option *own, size_t nown, shape_options *shape,
	      char ***files, int *nfiles);

/*
 * --arch VALUE: a built-in architecture by name, else an arch file (read
 * whole; errors name file:line:column).  0 and *out, or EXIT_BADINPUT
 * after one message.
 */
int arch_option(const char *value, const bs_arch **out);
/* The built-in architectures' names, "sm_90, textbook", into buf (cut
 * short at size). */
void builtin_names(char *buf, size_t size);

/*
 * shape.c: the access options of predict and fix.  shape_option() takes
 * argv[*i] when it is one of them (1), else 0, -1 after a message; the
 * others return 0, or EXIT_BADINPUT after a message naming the option.
 * The builders fill their spec's shape fields; width, kind and base are
 * the caller's (shape_tile reads the kind for its default --access).
 * bs_tile_warning's text is the caller's to print with tile_warn().
 */
struct shape_options {
	const char *expr, *active, *warp;
	const char *tile, *pad, *access, *index, *swizzle, *elem, *column;
	const char *structure, *field;
	const char *width, *kind, *name;
};

int shape_option(int argc, char **argv, int *i, shape_options *o);
int shape_count(const shape_options *o);        /* of --expr, --tile, --struct */
int shape_companions(const shape_options *o);   /* --pad without --tile, ... */
int shape_width_kind(const shape_options *o, unsigned *width, bs_kind *kind);
int shape_expr(const shape_options *o, bs_expr_spec *s);
int shape_tile(const shape_options *o, bs_tile_spec *t);
int shape_struct(const shape_options *o, bs_struct_spec *s);
/* "bankscope: warning: ..." on stderr when the tile's layout warns. */
void tile_warn(const bs_tile_spec *t);

/*
 * fits.c: cycles against wavefronts (a remote kind: sectors) per width,
 * kind and packing, and the latency model's worst deviation, in constant
 * memory.  fits_add() takes a row and its prediction: 1 when the row is
 * the new worst deviation, 0
 * otherwise (rows without a median are skipped), -1 out of memory (kept
 * for callers; the sums never allocate).  fits_line() is bs_fit_end() of
 * a group: -1 under 2 points or a constant x.  A group's n is its points.
 */
typedef bs_fit_acc fit_series;

typedef struct {
	fit_series by[BS_NWIDTHS][BS_MAX_KINDS][2];   /* width index, kind,
							 packed */
	size_t lat_n;                      /* rows with both latencies */
	double lat_max;                    /* cycles */
} latency_fits;

int fits_add(latency_fits *f, const bs_row *r, const bs_summary *s);
/* 1: kind's groups are fitted against sectors (a remote kind), 0:
 * against wavefronts. */
int fits_remote(int kind);
const fit_series *fits_group(const latency_fits *f, int w, int kind,
			     int packed);
int fits_line(const fit_series *s, bs_fit *out);
void fits_free(latency_fits *f);

/*
 * verdict.c: when a measured row agrees with a prediction (check and
 * report).  verdict_stale() lists the stored prediction columns that
 * differ from s: NaN "now" means the architecture does not model it.
 */
#define VERDICT_FIELDS 7
#define VERDICT_COUNTERS 3     /* wavefronts, conflicts, sectors */
typedef struct {
	const char *name;
	double stored, now;
} verdict_field;

void verdict_num(char *buf, size_t size, double v);   /* 4 decimals, trimmed */
int verdict_counters_agree(const bs_row *r, const bs_summary *s);
/* The measured counters that disagree: "stored" is the measured value. */
size_t verdict_counters(const bs_row *r, const bs_summary *s,
			verdict_field out[VERDICT_COUNTERS]);
size_t verdict_stale(const bs_row *r, const bs_summary *s,
		     verdict_field out[VERDICT_FIELDS]);

extern const char *const predict_csv_header;
/* The column a run that may predict a remote kind adds to the header. */
extern const char *const predict_csv_sectors;
void lane_list(uint32_t mask, char *buf, size_t size);
void csv_field(FILE *out, const char *s);
/* name as is, or escaped into buf (bs_escape_text) when it holds a
 * control byte or a byte that starts no valid UTF-8 character. */
const char *name_shown(const char *name, char *buf, size_t size);
void json_string(FILE *out, const char *s);
void print_text(FILE *out, const bs_arch *p, const bs_access *a,
		const bs_detail *d);
/* A CSV row of predict; sectors: with the sectors column (empty for a
 * bank kind). */
void print_csv(FILE *out, const bs_access *a, const bs_summary *s,
	       int sectors);
/* print_csv's row into row (CSV_ROW_MAX bytes); 0 when the name needs
 * quoting (then print_csv it). */
#define CSV_ROW_MAX (BS_NAME_MAX + 200)
size_t csv_row(char *row, const bs_access *a, const bs_summary *s,
	       int sectors);
/* print_csv's row into row (CSV_ROW_ANY_MAX bytes), whatever the name. */
#define CSV_ROW_ANY_MAX (2 * BS_NAME_MAX + 200)
size_t csv_row_any(char *row, const bs_access *a, const bs_summary *s,
		   int sectors);
void print_json(FILE *out, const bs_arch *p, const bs_access *a,
		const bs_detail *d, int first);
void print_map(FILE *out, const bs_arch *p, const bs_access *a,
	       const bs_detail *d, int first);

int cmd_predict(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_archs(int argc, char **argv);
/* archs.c: one architecture as `bankscope archs` prints it, the rules of
 * the access kinds whose bits are set in kinds; its own text escaped. */
void archs_print(FILE *out, const bs_arch *p, uint32_t kinds);
int cmd_calibrate(int argc, char **argv);
int cmd_report(int argc, char **argv);
/*
 * report/kinds.c: the rule as the arch file writes it (docs/model.md,
 * "Architecture files"), without the timing, which the timing tables show;
 * REPORT_RULE_TEXT_MAX bytes hold any rule.
 */
#define REPORT_RULE_TEXT_MAX 256
void report_rule_text(char *buf, size_t size, const bs_arch *p,
		      const bs_rule *r);
int cmd_fix(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_gmma(int argc, char **argv);


#endif
