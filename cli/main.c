/*
 * main.c - the bankscope command: one table of commands, and dispatch.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const cli_command commands[] = {
	{ "predict", cmd_predict,
	  "predict wavefronts, conflicts and latency of accesses given\n"
	  "as pattern files, an index expression, a tile or a struct array" },
	{ "check", cmd_check, "compare a measured dataset with the predictions" },
	{ "report", cmd_report,
	  "write the characterization report of a dataset" },
	{ "archs", cmd_archs,
	  "list the architectures, their rules and where each comes\n"
	  "from; the access kinds (--kinds)" },
	{ "profiles", cmd_archs, NULL },
	{ "calibrate", cmd_calibrate,
	  "derive the architecture that explains a probe run's datasets" },
	{ "fix", cmd_fix,
	  "find the padding, swizzle or width change that removes an\n"
	  "access's conflicts" },
	{ "profile", cmd_profile,
	  "per-instruction shared-memory wavefronts of any CUDA program" },
	{ "gmma", cmd_gmma,
	  "a wgmma instruction's operand reads from shared memory: its\n"
	  "descriptors decoded, bytes, wavefronts (sm_90a)" },
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

const cli_command *cli_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/*
 * Where the full manual is: docs/bankscope.md when this executable is
 * the build tree's (ROOT/build/bankscope, or ROOT/build/san/bankscope
 * and the like, with ROOT/docs/bankscope.md beside it), else the man
 * page that make install put beside an installed copy.
 */
static const char *manual(void)
{
	char self[4096], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n <= 0)
		return "man bankscope";
	self[n] = '\0';
	for (int up = 0; up < 2 && (slash = strrchr(self, '/')); up++) {
		*slash = '\0';
		slash = strrchr(self, '/');
		if (slash && !strcmp(slash + 1, "build")) {
			*slash = '\0';
			if ((size_t)n + sizeof "/docs/bankscope.md" >
			    sizeof self)
				break;
			strcat(self, "/docs/bankscope.md");
			if (!access(self, R_OK))
				return "docs/bankscope.md";
			break;
		}
	}
	return "man bankscope";
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
	      "input\nor standard output could not be written.\n", out);
	fprintf(out, "See %s.\n", manual());
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
	if (!e)
		e = stdout_errno();
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
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* help CMD: what CMD --help prints */
		char *help[] = { argv[2], "--help", NULL };

		c = cli_find(argv[2]);
		if (argc > 3)
			return usage_error("help: one command at a time "
					   "(bankscope help COMMAND)");
		if (!c)
			return usage_error("help: unknown command '%s' (try "
					   "bankscope --help)", argv[2]);
		return c->run(2, help);
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
