/*
 * chartfiles.c - the charts into the report.  --charts DIR is the folder
 * `make plots` draws into, NAME.png and NAME.svg for each NAME of the
 * charts table, and not-drawn.txt with a line "NAME: reason" for each
 * chart the data could not support.  Those present are copied into the
 * report (regular files only: a symbolic link there is refused); the
 * others are named as not drawn, with the reason when not-drawn.txt
 * gives one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

#define NOT_DRAWN "not-drawn.txt"
#define REASON_BYTES 400

/* Open dir/name for reading, a regular file, not a link (O_NONBLOCK: a
 * FIFO there is refused at once, not waited on); -1 with errno
 * (ENOENT when absent, ELOOP for a link, EINVAL not a regular file). */
static int open_regular(const char *dir, const char *name)
{
	char path[PATH_BYTES];
	struct stat st;
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

static int copy_chart(outdir *o, const char *dir, const char *name,
		      int *copied)
{
	char buf[65536];
	ssize_t n = 0;
	FILE *out;
	int in = open_regular(dir, name), rc = 0;

	*copied = 0;
	if (in < 0 && errno == ENOENT)
		return 0;
	if (in < 0)
		return usage_error("%s/%s: %s: not copied into the report", dir,
				   name, errno == ELOOP ? "a symbolic link"
				   : errno == EINVAL ? "not a regular file"
				   : strerror(errno));
	if (!(out = out_create(o, name))) {
		close(in);
		return EXIT_BADINPUT;
	}
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (fwrite(buf, 1, (size_t)n, out) != (size_t)n)
			break;
	if (n < 0)
		rc = usage_error("%s/%s: cannot read: %s", dir, name,
				 strerror(errno));
	close(in);
	if (out_close(o, out, name) != 0 && !rc)
		rc = EXIT_BADINPUT;
	*copied = !rc;
	return rc;
}

/* not-drawn.txt: "NAME: reason" a line, NAME one of the charts. */
static int read_not_drawn(chart_set *cs)
{
	char line[REASON_BYTES + 64], path[PATH_BYTES];
	long no = 0;
	FILE *f;
	int fd = open_regular(cs->dir, NOT_DRAWN);

	snprintf(path, sizeof path, "%s/%s", cs->dir, NOT_DRAWN);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		if (fd >= 0)
			close(fd);
		return usage_error("%s: cannot read: %s", path,
				   errno == ELOOP ? "a symbolic link"
				   : strerror(errno));
	}
	while (fgets(line, sizeof line, f)) {
		size_t len = strlen(line), i;
		char *colon = strchr(line, ':');

		no++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		else if (!feof(f)) {
			fclose(f);
			return usage_error("%s:%ld: a line over %d bytes", path,
					   no, REASON_BYTES + 62);
		}
		if (!colon || colon[1] != ' ') {
			fclose(f);
			return usage_error("%s:%ld:1: expected 'CHART: reason'",
					   path, no);
		}
		*colon = '\0';
		for (i = 0; i < NCHARTS; i++)
			if (!strcmp(report_charts[i].name, line))
				break;
		if (i == NCHARTS) {
			fclose(f);
			return usage_error("%s:%ld:1: '%s' is not a chart of the "
					   "report", path, no, line);
		}
		free(cs->reason[i]);
		if (!(cs->reason[i] = strdup(colon + 2))) {
			fclose(f);
			return usage_error("out of memory");
		}
	}
	fclose(f);
	return 0;
}

int charts_gather(outdir *o, chart_set *cs)
{
	int rc;

	if ((rc = read_not_drawn(cs)) != 0)
		return rc;
	for (size_t i = 0; i < NCHARTS; i++)
		for (int k = 0; k < 2; k++) {
			char name[80];
			int copied;

			snprintf(name, sizeof name, "%s.%s",
				 report_charts[i].name, k ? "svg" : "png");
			if ((rc = copy_chart(o, cs->dir, name, &copied)) != 0)
				return rc;
			*(k ? &cs->svg : &cs->have) |= (unsigned)copied << i;
		}
	cs->svg &= cs->have;
	return 0;
}
