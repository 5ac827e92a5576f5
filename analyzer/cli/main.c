/*
 * main.c - the bankscope command: dispatch to a subcommand.
 *
 *   bankscope predict [options] [INPUT...]   wavefronts, conflicts, latency
 *   bankscope check FILE.csv...              measured against predicted
 *   bankscope profiles                       the architecture profiles
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
	"usage: bankscope COMMAND [OPTIONS] [ARGS]\n"
	"\n"
	"Predict and check what a warp's shared-memory access costs on an\n"
	"NVIDIA GPU: wavefronts, bank conflicts, latency.\n"
	"\n"
	"commands:\n"
	"  predict   predict wavefronts, conflicts and latency of accesses\n"
	"            given as pattern files, an index expression, a tile or\n"
	"            a struct array (bankscope predict --help)\n"
	"  check     compare a measured dataset with the predictions\n"
	"            (bankscope check --help)\n"
	"  report    write the characterization report of a dataset\n"
	"            (bankscope report --help)\n"
	"  profiles  list the architecture profiles\n"
	"  fix       find the padding, swizzle or width change that removes\n"
	"            an access's conflicts (bankscope fix --help)\n"
	"  profile   per-instruction shared-memory wavefronts of any CUDA\n"
	"            program (bankscope profile --help)\n"
	"\n"
	"Exit status: 0 success, 1 a check found disagreements, 2 bad input\n"
	"or standard output could not be written.\n"
	"See docs/bankscope.md.\n";

/*
 * Every message quotes input (file names, tokens, option values), so it
 * goes out through bs_escape_text: an escape sequence planted in a
 * pattern file is shown as \x1b[..., never run by the terminal.
 */
static void message(const char *text)
{
	char safe[4096];

	bs_escape_text(safe, sizeof safe, text);
	fprintf(stderr, "bankscope: %s\n", safe);
}

int report_error(const bs_error *err)
{
	char buf[1024];

	bs_error_format(err, buf, sizeof buf);
	message(buf);
	return EXIT_BADINPUT;
}

int usage_error(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	message(buf);
	return EXIT_BADINPUT;
}

int opt_value(int argc, char **argv, int *i, const char *name,
	      const char **value)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (strncmp(a, name, n) != 0)
		return 0;
	if (a[n] == '=') {
		*value = a + n + 1;
		return 1;
	}
	if (a[n] != '\0')
		return 0;
	if (*i + 1 >= argc) {
		usage_error("option %s needs a value", name);
		return -1;
	}
	*value = argv[++*i];
	return 1;
}

int opt_u64(const char *name, const char *value, uint64_t max, uint64_t *out)
{
	int rc = bs_parse_u64(value, max, out);

	if (rc == -1)
		usage_error("option %s: '%s' is not a non-negative integer",
			    name, value);
	else if (rc == -2)
		usage_error("option %s: %s is larger than %llu", name, value,
			    (unsigned long long)max);
	return rc < 0 ? -1 : 0;
}

int cmd_profiles(int argc, char **argv)
{
	static const char *const wname[BS_NWIDTHS] = { "1", "2", "4", "8",
							"16" };

	if (argc > 1) {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
			puts("usage: bankscope profiles\n\nList the "
			     "architecture profiles and their parameters.");
			return 0;
		}
		return usage_error("profiles: unexpected argument '%s'",
				   argv[1]);
	}
	for (const bs_profile *const *pp = bs_profiles(); *pp; pp++) {
		const bs_profile *p = *pp;

		printf("%s%s: %s\n", p->name,
		       p == bs_profile_default() ? " (default)" : "",
		       p->description);
		printf("  banks %u x %u bytes\n", p->banks, p->bank_bytes);
		printf("  width_bytes  phase_lanes  packed_load_phase_lanes  "
		       "load_latency_base_cycles  packed_base_cycles\n");
		for (int w = 0; w < BS_NWIDTHS; w++) {
			char packed[16] = "never";

			if (p->packed_phase_lanes[w])
				snprintf(packed, sizeof packed, "%u",
					 p->packed_phase_lanes[w]);
			printf("  %11s  %11u  %23s  ", wname[w],
			       p->phase_lanes[w], packed);
			if (p->load_base[w] > 0)
				printf("%24.2f  ", p->load_base[w]);
			else
				printf("%24s  ", "not modeled");
			if (p->load_base_packed[w] > 0)
				printf("%18.2f\n", p->load_base_packed[w]);
			else
				printf("%18s\n", "-");
		}
		if (p->load_slope > 0)
			printf("  load latency slope: %.2f cycles per "
			       "wavefront\n", p->load_slope);
		putchar('\n');
	}
	return 0;
}

/*
 * Flush and close standard output, once, after the command: a full disk,
 * /dev/full, a file-size limit or a closed descriptor must not look like
 * success.  The commands print with plain stdio and never check each
 * write; the stream's error flag is sticky, so this one check sees every
 * failure.  -1 (after one message, unless the command has already
 * failed with its own) when anything written was lost.
 */
static int close_stdout(int rc)
{
	int bad, e;

	errno = 0;
	bad = fflush(stdout) != 0 || ferror(stdout);
	e = errno;
	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad)
		return 0;
	if (rc != EXIT_BADINPUT)
		fprintf(stderr, "bankscope: cannot write to standard "
			"output%s%s\n", e ? ": " : "", e ? strerror(e) : "");
	return -1;
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_BADINPUT;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "predict"))
		return cmd_predict(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "profiles"))
		return cmd_profiles(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "fix"))
		return cmd_fix(argc - 1, argv + 1);
	if (!strcmp(argv[1], "profile"))
		return cmd_profile(argc - 1, argv + 1);
	return usage_error("unknown command '%s' (try bankscope --help)",
			   argv[1]);
}

int main(int argc, char **argv)
{
	int rc = run(argc, argv);

	return close_stdout(rc) < 0 ? EXIT_BADINPUT : rc;
}
