/*
 * main.c - the bankscope command: one table of commands, and dispatch.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"

static const cli_command commands[] = {
	{ "predict", cmd_predict,
	  "predict wavefronts, conflicts and latency of accesses given\n"
	  "as pattern files, an index expression, a tile or a struct array" },
	{ "check", cmd_check, "compare a measured dataset with the predictions" },
	{ "report", cmd_report,
	  "write the characterization report of a dataset" },
	{ "archs", cmd_archs,
	  "list the architecture profiles, their rules and where each\n"
	  "comes from; the access kinds (--kinds)" },
	{ "profiles", cmd_archs, NULL },
	{ "calibrate", cmd_calibrate,
	  "derive the profile that explains a probe run's datasets" },
	{ "fix", cmd_fix,
	  "find the padding, swizzle or width change that removes an\n"
	  "access's conflicts" },
	{ "profile", cmd_profile,
	  "per-instruction shared-memory wavefronts of any CUDA program" },
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

const cli_command *cli_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *out)
{
	fputs("usage: bankscope COMMAND [OPTIONS] [ARGS]\n"
	      "       bankscope --version\n"
	      "\n"
	      "Predict and check what a warp's shared-memory access costs on "
	      "an\nNVIDIA GPU: wavefronts, bank conflicts, latency.\n"
	      "\n"
	      "commands (bankscope COMMAND --help for each):\n", out);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		const char *s = commands[i].summary;

		if (!s)
			continue;
		fprintf(out, "  %-11s", commands[i].name);
		while (*s) {
			size_t n = strcspn(s, "\n");

			fprintf(out, "%.*s\n", (int)n, s);
			s += n;
			if (*s == '\n' && *++s)
				fprintf(out, "  %-11s", "");
		}
	}
	fputs("\nExit status: 0 success, 1 a check found disagreements, 2 bad "
	      "input\nor standard output could not be written.\n"
	      "See docs/bankscope.md.\n", out);
}

/*
 * Flush and close standard output, once, after the command: a full disk,
 * /dev/full, a file-size limit or a closed descriptor must not look like
 * success.  The commands print with plain stdio and never check each
 * write; the stream's error flag is sticky, so this one check sees every
 * failure.  -1 (after one message with the reason, unless the command
 * has already failed with its own) when anything written was lost.
 */
static int close_stdout(int rc)
{
	int bad, e;

	errno = 0;
	bad = fflush(stdout) != 0 || ferror(stdout);
	e = errno;
	if (bad && !e) {
		/* A failed flush (a command's own, or one large write) drops
		 * the buffer, and its errno is long gone: one more byte
		 * finds out why; what was written is incomplete already. */
		clearerr(stdout);
		if (putc('\n', stdout) == EOF || fflush(stdout) != 0)
			e = errno;
	}
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
	const cli_command *c;

	if (argc < 2) {
		usage(stderr);
		return EXIT_BADINPUT;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("bankscope %s\n", bs_version());
		return 0;
	}
	c = cli_find(argv[1]);
	if (!c)
		return usage_error("unknown command '%s' (try bankscope "
				   "--help)", argv[1]);
	return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	int rc = run(argc, argv);

	return close_stdout(rc) < 0 ? EXIT_BADINPUT : rc;
}
