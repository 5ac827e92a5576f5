/*
 * options.c - what every bankscope command shares on its command line:
 * the error printers, "--name value" options, the argument loop and the
 * --arch NAME|PATH resolution.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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

/* The errno of the first write to standard output that a command saw
 * fail (one large fwrite loses it by the time stdout is closed); 0 when
 * none.  Here rather than in main.c, which the fuzz targets leave out. */
static int stdout_err;

void stdout_failed(void)
{
	if (!stdout_err)
		stdout_err = errno;
}

int stdout_errno(void)
{
	return stdout_err;
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

int cli_parse(const char *cmd, const char *usage, int argc, char **argv,
	      const cli_option *own, size_t nown, shape_options *shape,
	      char ***files, int *nfiles)
{
	int opts = 1;

	*nfiles = 0;
	*files = calloc((size_t)argc + 1, sizeof **files);
	if (!*files)
		return usage_error("out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int got = 0;

		if (!opts || a[0] != '-' || !strcmp(a, "-")) {
			(*files)[(*nfiles)++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			opts = 0;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return CLI_HELP;
		}
		for (size_t k = 0; !got && k < nown; k++) {
			if (own[k].flag) {
				got = !strcmp(a, own[k].name);
				if (got)
					*own[k].flag = 1;
			} else {
				got = opt_value(argc, argv, &i, own[k].name,
						own[k].value);
			}
		}
		if (!got && shape)
			got = shape_option(argc, argv, &i, shape);
		if (got < 0)
			return EXIT_BADINPUT;
		if (!got)
			return usage_error("%s: unknown option '%s' (try "
					   "bankscope %s --help)", cmd, a, cmd);
	}
	return 0;
}

void builtin_names(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const bs_arch *const *p = bs_archs(); *p && n < size; p++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
				      (*p)->name);
}

int arch_option(const char *value, const bs_arch **out)
{
	static bs_arch loaded[4];
	static unsigned nloaded;
	char names[128];
	bs_error err;
	FILE *f;
	int rc;

	if ((*out = bs_arch_find(value)))
		return 0;
	f = fopen(value, "r");
	if (!f) {
		builtin_names(names, sizeof names);
		if (errno == ENOENT && !strchr(value, '/'))
			return usage_error("option --arch: '%s' is neither a "
					   "built-in architecture (%s) nor an "
					   "arch file", value, names);
		return usage_error("option --arch: %s: cannot open: %s", value,
				   strerror(errno));
	}
	if (nloaded == sizeof loaded / sizeof *loaded) {
		fclose(f);
		return usage_error("option --arch: too many arch files");
	}
	rc = bs_arch_read(f, value, &loaded[nloaded], &err);
	fclose(f);
	if (rc < 0)
		return report_error(&err);
	/* outputs name an architecture by its name alone: a file must not
	   take a built-in's, or nothing would tell the two apart */
	if (bs_arch_find(loaded[nloaded].name)) {
		bs_error_set(&err, value, 0, 0, "arch %s is the name of a "
			     "built-in architecture: rename it in the file's "
			     "'arch' line (arch %s-mine), so that what "
			     "bankscope prints tells the two apart",
			     loaded[nloaded].name, loaded[nloaded].name);
		return report_error(&err);
	}
	*out = &loaded[nloaded++];
	return 0;
}

int input_open(const char *path, FILE **f, const char **name)
{
	int is_stdin = !strcmp(path, "-");

	*name = is_stdin ? "<stdin>" : path;
	if (!(*f = is_stdin ? stdin : fopen(path, "r")))
		return usage_error("%s: cannot open: %s", path,
				   strerror(errno));
	return 0;
}

void input_close(FILE *f)
{
	if (f && f != stdin)
		fclose(f);
}
