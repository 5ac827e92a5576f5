/*
 * predict.c - bankscope predict: wavefronts, conflicts and latency of
 * accesses given as pattern files, an index expression, a 2-D tile or an
 * array of structs.  Pattern files are streamed: one line in memory at a
 * time, whatever their length.  A bad line stops the run with one message
 * naming file, line and column, before anything of that line is printed;
 * nothing at all is printed before the first access is predicted.  An
 * access the architecture has no rule for is no error: its row, without
 * predictions, carries a note (emit_not_modeled), and the run goes on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "stream.h"

static const char predict_usage[] =
	"usage: bankscope predict [--arch NAME] [--format text|csv|json|map]\n"
	"                         [ACCESS OPTIONS] [PATTERN-FILE...]\n"
	"\n"
	"Predict, for each warp access, its wavefronts, the ideal wavefronts,\n"
	"bank conflicts (the bank slots beyond the ideal: (wavefronts - ideal)\n"
	"/ slot_waves, 1 but for a compare-and-swap's 2), the worst n-way\n"
	"degree and the dependent-chain latency in cycles.\n"
	"\n"
	"  --arch NAME|FILE   a built-in architecture, sm_90 (default: Hopper,\n"
	"                     measured on an H100) or textbook (one phase for\n"
	"                     every width), or an arch file (bankscope archs\n"
	"                     lists them; bankscope calibrate makes one)\n"
	"  --format FMT       text (default: phases and bank maps), csv, json,\n"
	"                     or map (one CSV row per bank cell, for plots)\n"
	"\n"
	"Pattern files ('-' reads stdin): one access a line,\n"
	"  NAME WIDTH KIND A0 ... A31   byte addresses, '-' for an inactive\n"
	"                             lane; KIND ld, st, ldsm.x4, ... (bankscope\n"
	"                             archs --kinds)\n"
	"\n"
	"An index expression (element index; address = base + index*width):\n"
	"  --expr EXPR        C integer expression over lane, warp, tid\n"
	"  --active EXPR      lanes where EXPR is non-zero take part (all)\n"
	"  --warp N           value of warp (0); tid = warp*32 + lane\n"
	"A 2-D tile, T tile[ROWS][COLS+PAD]:\n"
	"  --tile ROWSxCOLS   --pad P (0)   --elem BYTES (the access width)\n"
	"  --access MODE      row: lane l reads the l-th access of row I;\n"
	"                     col: lane l reads column I of row l (default);\n"
	"                     chunks: lane l the l-th access of the tile, row\n"
	"                     by row from row I; for ldsm/stsm (the default:\n"
	"                     stack), lanes 8m..8m+7 give the 16-byte rows of\n"
	"                     matrix m, at rows I+8m.. (stack), 16 bytes m to\n"
	"                     the right (side), or row block m%2, column block\n"
	"                     m/2 (mma)\n"
	"  --index I          the row (column for col) (0)\n"
	"  --column C         matrix modes: the first column, elements (0)\n"
	"  --swizzle SW       none; xor (column c of row r at c ^ (r % COLS));\n"
	"                     tma32, tma64, tma128 (TMA SWIZZLE_32B/64B/128B on\n"
	"                     byte addresses); cute:B,M,S (CuTe Swizzle<B,M,S>)\n"
	"An array of structs, lane l reads array[l].field:\n"
	"  --struct BYTES     sizeof the struct\n"
	"  --field OFFSET     offsetof the field (0)\n"
	"Common to the three:\n"
	"  --width W          bytes per lane: 1, 2, 4 (default), 8, 16\n"
	"  --kind KIND        ld (default), st or another kind (bankscope\n"
	"                     archs --kinds); --op is its older name\n"
	"  --base BYTES       address of element 0 (0)\n"
	"  --name NAME        name of the access\n"
	"\n"
	"An access of a kind and width the architecture has no rule for is\n"
	"printed without predictions, with a note saying it is not modeled.\n"
	"\n"
	"Exit status: 0 success, 2 bad input (message names file, line and\n"
	"column, or the option).\n";

typedef struct {
	const bs_arch *arch;
	enum { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_MAP } format;
	unsigned long count;
	unsigned long wavefronts, ideal, conflicts;
	unsigned long not_modeled;   /* accesses of a kind and width the
					arch has no rule for */
	int first_json;
	int started;    /* the CSV header or JSON '[' is out */
	int each_row;   /* stdout is a terminal: no row waits in rows */
	/*
	 * CSV: the sectors column, for a run that may predict a remote
	 * (dsmem.*) kind: 1 with it, 0 without, -1 not known before the
	 * first access (standard input, a FIFO), which then decides.
	 */
	int sectors;
} run;

/*
 * CSV rows wait here and go out a block at a time: one fwrite a row was a
 * third of writing it.  flush_rows() comes before anything else is
 * written to stdout, before an error is reported, and at the end; on a
 * terminal after every row, so that typed lines are answered at once.
 */
static struct {
	char buf[64 * 1024];
	size_t n;
} rows;

static void flush_rows(void)
{
	if (rows.n)
		fwrite(rows.buf, 1, rows.n, stdout);
	rows.n = 0;
}

static void put_row(const run *r, const bs_access *a, const bs_summary *s)
{
	size_t n;

	if (rows.n > sizeof rows.buf - CSV_ROW_MAX)
		flush_rows();
	n = csv_row(rows.buf + rows.n, a, s, r->sectors);
	if (!n) {               /* a name to quote: print_csv's */
		flush_rows();
		print_csv(stdout, a, s, r->sectors);
	}
	rows.n += n;
	/* a remote access after a header without the column (standard
	 * input that began with a bank kind): its sectors on a line of
	 * their own, as a not-modeled row's note */
	if (!r->sectors && bs_kind_get(a->kind)->remote) {
		flush_rows();
		printf("# sectors: %u (no column: the header went out before "
		       "the first remote access)\n", s->sectors);
	}
	if (r->each_row)
		flush_rows();
}

/*
 * The CSV header and the JSON '[' go out with the first access (or at the
 * end of a run that had none), so that an error found before it, in an
 * option, a file that cannot be opened or the first line, leaves standard
 * output empty.
 */
static void start(run *r, const bs_access *first)
{
	if (r->started)
		return;
	r->started = 1;
	if (r->sectors < 0)
		r->sectors = first && bs_kind_get(first->kind)->remote;
	if (r->format == FMT_CSV)
		printf("%s%s\n", predict_csv_header,
		       r->sectors ? predict_csv_sectors : "");
	else if (r->format == FMT_JSON)
		printf("[\n");
}

static void emit(run *r, const bs_access *a, const bs_detail *d)
{
	start(r, a);
	switch (r->format) {
	case FMT_TEXT:
		print_text(stdout, r->arch, a, d);
		break;
	case FMT_CSV:
		put_row(r, a, &d->sum);
		break;
	case FMT_JSON:
		print_json(stdout, r->arch, a, d, r->first_json);
		r->first_json = 0;
		break;
	case FMT_MAP:
		print_map(stdout, r->arch, a, d, r->first_json);
		r->first_json = 0;
		break;
	}
	r->count++;
	r->wavefronts += d->sum.wavefronts;
	r->ideal += d->sum.ideal_wavefronts;
	r->conflicts += d->sum.bank_conflicts;
}

/*
 * An access of a kind and width the architecture has no rule for: its row with
 * the predictions left out and a note, as check counts such rows (not
 * modeled, not an error): text says so, csv leaves the predicted columns
 * empty and adds a "# not modeled: ..." line, json has null predictions
 * and a "note", map a comment and an empty table.
 */
static void emit_not_modeled(run *r, const bs_access *a)
{
	const bs_arch *p = r->arch;
	const char *kind = bs_kind_name(a->kind);
	unsigned active = (unsigned)__builtin_popcount(a->active);
	char note[256], name[4 * BS_NAME_MAX];

	flush_rows();
	start(r, a);
	snprintf(note, sizeof note, "not modeled: arch %s has no rule "
		 "for %u-byte %s (bankscope archs %s lists its rules)",
		 p->name, a->width, kind, p->name);
	switch (r->format) {
	case FMT_TEXT:
		bs_escape_text(name, sizeof name, a->name);
		printf("%s: %u-byte %s, %u of 32 lanes active, arch %s\n"
		       "  %s\n\n", name, a->width, a->kind == BS_KIND_LD ? "load" : a->kind == BS_KIND_ST
		       ? "store" : kind, active, p->name, note);
		break;
	case FMT_CSV:
		csv_field(stdout, name_shown(a->name, name, sizeof name));
		printf(",%u,%s,%u,,,,,,,%s\n# %s\n", a->width, kind,
		       active, r->sectors ? "," : "", note);
		break;
	case FMT_JSON:
		printf("%s{\"name\":", r->first_json ? "" : ",\n");
		json_string(stdout, a->name);
		printf(",\"profile\":\"%s\",\"width\":%u,\"op\":\"%s\","
		       "\"active_lanes\":%u,\"packed\":null,\"wavefronts\":null,"
		       "\"ideal_wavefronts\":null,\"bank_conflicts\":null,"
		       "\"max_way\":null,\"latency_cycles\":null,\"addresses\":[",
		       p->name, a->width, kind, active);
		for (unsigned l = 0; l < BS_LANES; l++)
			if (a->active >> l & 1)
				printf("%s%u", l ? "," : "",
				       (unsigned)a->addr[l]);
			else
				printf("%snull", l ? "," : "");
		printf("],\"phases\":null,\"note\":");
		json_string(stdout, note);
		printf("}");
		r->first_json = 0;
		break;
	case FMT_MAP:
		printf("%s# access: %s, %u-byte %s, arch %s, "
		       "%s\nwavefront,phase,bank,word,first_lane,lane_count,"
		       "lanes\n", r->first_json ? "" : "\n\n", a->name,
		       a->width, kind, p->name, note);
		r->first_json = 0;
		break;
	}
	r->count++;
	r->not_modeled++;
}

/*
 * Predict one access; the CSV path takes the fast counts-only route.  An
 * access the architecture does not model is a row with a note, not an error.
 */
static int predict_one(run *r, const bs_access *a, bs_error *err)
{
	static bs_detail d;

	if (!bs_arch_rule(r->arch, a->kind, a->width)) {
		if (bs_access_check(a, err) < 0)
			return -1;
		emit_not_modeled(r, a);
		return 0;
	}
	if (r->format == FMT_CSV) {
		if (bs_predict(r->arch, a, &d.sum, err) < 0)
			return -1;
	} else if (bs_predict_detail(r->arch, a, &d, err) < 0) {
		return -1;
	}
	emit(r, a, &d);
	return 0;
}

static void stream_start(void *ctx)
{
	start(ctx, NULL);
}

static void stream_not_modeled(void *ctx, const bs_access *a)
{
	emit_not_modeled(ctx, a);
}

/*
 * A large regular file as CSV: read, predicted and formatted on threads
 * (stream.c), the same bytes and error as the loop below.
 */
static int predict_stream(run *r, FILE *f, const char *name, int threads)
{
	stream_hooks h = { stream_start, stream_not_modeled, r, r->sectors };
	bs_error err;
	int rc;

	flush_rows();
	rc = stream_csv(f, name, r->arch, threads, &h, &r->count, &err);
	if (ferror(stdout))
		stdout_failed();
	fclose(f);
	return rc < 0 ? report_error(&err) : 0;
}

static int predict_file(run *r, const char *path)
{
	const char *name;
	FILE *f;
	bs_reader *rd;
	bs_access a;
	bs_error err;
	int rc = 0;

	if (input_open(path, &f, &name))
		return EXIT_BADINPUT;
	/* (a regular file: its remote kinds were looked for, sectors is
	   known) */
	if (r->format == FMT_CSV && f != stdin && r->sectors >= 0 &&
	    (rc = stream_threads(f)))
		return predict_stream(r, f, name, rc);
	rd = bs_reader_new(f, name);
	if (!rd) {
		input_close(f);
		return usage_error("out of memory");
	}
	/* stdout failing (main.c reports it) ends a long stream early */
	while (!ferror(stdout) && (rc = bs_reader_next(rd, &a, &err)) > 0) {
		if (predict_one(r, &a, &err) < 0) {
			/* the access passed the reader, so name its line */
			snprintf(err.source, sizeof err.source, "%s", name);
			err.line = bs_reader_line(rd);
			rc = -1;
			break;
		}
	}
	flush_rows();
	if (ferror(stdout))
		stdout_failed();
	bs_reader_free(rd);
	input_close(f);
	return rc < 0 ? report_error(&err) : 0;
}

/*
 * Whether a pattern file may name a remote kind: it holds "dsmem." (every
 * remote kind's name starts so; a name field that holds it only adds an
 * empty column).  1 yes, 0 no, -1 not a regular file (standard input, a
 * FIFO: not read twice) or one that cannot be read here (predict_file
 * says why).
 */
static int names_remote(const char *path)
{
	static const char key[] = "dsmem.";
	enum { KEY = sizeof key - 1, CHUNK = 65536 };
	char buf[KEY + CHUNK];
	size_t keep = 0, n;
	struct stat st;
	FILE *f;
	int found = 0;

	if (!strcmp(path, "-") || stat(path, &st) < 0 ||
	    !S_ISREG(st.st_mode) || !(f = fopen(path, "r")))
		return -1;
	while (!found && (n = fread(buf + keep, 1, CHUNK, f)) > 0) {
		n += keep;
		for (const char *p = buf; !found &&
		     (p = memchr(p, 'd', (size_t)(buf + n - p))); p++)
			found = (size_t)(buf + n - p) >= KEY &&
				!memcmp(p, key, KEY);
		/* a key cut by the chunk's end: its first KEY - 1 bytes */
		keep = n < KEY - 1 ? n : KEY - 1;
		memmove(buf, buf + n - keep, keep);
	}
	fclose(f);
	return found;
}

typedef struct {
	const char *arch, *format, *base;
	shape_options s;
} options;

/* Build the access the --expr, --tile or --struct options describe. */
static int generated_access(const options *o, bs_access *a)
{
	bs_error err;
	unsigned width;
	bs_kind kind;
	uint64_t base = 0;
	int rc;

	if ((rc = shape_width_kind(&o->s, &width, &kind)))
		return rc;
	if (o->base && opt_u64("--base", o->base, UINT32_MAX, &base))
		return EXIT_BADINPUT;
	if (o->s.expr) {
		bs_expr_spec s = { .width = width, .kind = kind, .base = base };

		if ((rc = shape_expr(&o->s, &s)))
			return rc;
		rc = bs_access_from_expr(&s, a, &err);
	} else if (o->s.tile) {
		bs_tile_spec t = { .width = width, .kind = kind, .base = base };

		if ((rc = shape_tile(&o->s, &t)))
			return rc;
		rc = bs_tile_access(&t, a, &err);
		if (!rc)
			tile_warn(&t);
	} else {
		bs_struct_spec s = { .width = width, .kind = kind, .base = base };

		if ((rc = shape_struct(&o->s, &s)))
			return rc;
		rc = bs_struct_access(&s, a, &err);
	}
	return rc < 0 ? report_error(&err) : 0;
}

/* Options that belong to one shape only, and the shape. */
static int check_shape_options(const options *o)
{
	int shapes = shape_count(&o->s), rc;

	if (shapes > 1)
		return usage_error("--expr, --tile and --struct describe one "
				   "access each: give one of them");
	if ((rc = shape_companions(&o->s)))
		return rc;
	if (!shapes && (o->s.width || o->s.kind || o->base || o->s.name))
		return usage_error("options --width, --kind, --base and --name "
				   "go with --expr, --tile or --struct (a "
				   "pattern file names its own)");
	return 0;
}

int cmd_predict(int argc, char **argv)
{
	options o = { 0 };
	run r = { .arch = bs_arch_default(), .first_json = 1,
		  .each_row = isatty(STDOUT_FILENO) };
	const cli_option own[] = {
		{ "--arch", &o.arch, NULL }, { "--format", &o.format, NULL },
		{ "--base", &o.base, NULL },
	};
	int nfiles, rc, i;
	char **files;

	rc = cli_parse("predict", predict_usage, argc, argv, own,
		       sizeof own / sizeof *own, &o.s, &files, &nfiles);
	if (rc) {
		free(files);
		return rc == CLI_HELP ? 0 : rc;
	}
	if (o.arch)
		rc = arch_option(o.arch, &r.arch);
	if (rc)
		;
	else if (o.format && !strcmp(o.format, "csv"))
		r.format = FMT_CSV;
	else if (o.format && !strcmp(o.format, "json"))
		r.format = FMT_JSON;
	else if (o.format && !strcmp(o.format, "map"))
		r.format = FMT_MAP;
	else if (o.format && strcmp(o.format, "text"))
		rc = usage_error("option --format: '%s' is not text, csv, json "
				 "or map", o.format);
	if (!rc && stream_threads_set() < 0)   /* (usage_error escapes it) */
		rc = usage_error("BANKSCOPE_THREADS: '%s' is not a number of "
				 "threads (1 or more)",
				 getenv("BANKSCOPE_THREADS"));
	if (!rc)
		rc = check_shape_options(&o);
	if (!rc && !nfiles && !shape_count(&o.s))
		rc = usage_error("predict: no input (give a pattern file, '-', "
				 "--expr, --tile or --struct)");
	if (rc) {
		free(files);
		return rc;
	}

	/* the sectors column: known before the header where it can be */
	r.sectors = 0;
	for (i = 0; r.format == FMT_CSV && i < nfiles && r.sectors < 1; i++) {
		int k = names_remote(files[i]);

		r.sectors = k < 0 ? -1 : k ? 1 : r.sectors;
	}
	if (shape_count(&o.s)) {
		bs_access a;
		bs_error err;

		rc = generated_access(&o, &a);
		if (!rc && bs_kind_get(a.kind)->remote)
			r.sectors = 1;
		if (!rc && predict_one(&r, &a, &err) < 0)
			rc = report_error(&err);
	}
	for (i = 0; !rc && i < nfiles; i++)
		rc = predict_file(&r, files[i]);
	free(files);
	flush_rows();
	if (!rc)
		start(&r, NULL);
	if (r.format == FMT_JSON && r.started)
		printf("\n]\n");
	else if (r.format == FMT_TEXT && !rc && r.count > 1) {
		printf("total: %lu accesses, %lu wavefronts, ideal %lu, "
		       "bank conflicts %lu", r.count, r.wavefronts, r.ideal,
		       r.conflicts);
		if (r.not_modeled)
			printf(", %lu not modeled", r.not_modeled);
		putchar('\n');
	}
	return rc;
}
