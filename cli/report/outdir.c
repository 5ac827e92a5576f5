/*
 * outdir.c - the output folder, replaced whole, never written into.
 *
 * The report is built in a new folder made by mkdtemp beside OUT
 * (".NAME.new-XXXXXX", in OUT's parent), each file created there with
 * O_EXCL|O_NOFOLLOW, and put in OUT's place by renameat2():
 * RENAME_NOREPLACE when there is no OUT, RENAME_EXCHANGE when there is,
 * after which the previous report (now under the temporary name) is
 * removed.  A reader therefore sees the old report or the new one, never
 * a mix, and two reports into one OUT at once leave one of them whole.
 * No symbolic link is followed: OUT itself may not be one, and links
 * planted in it are removed with the old folder, never written through.
 * OUT must be new, empty, or hold only what a report writes (index.html,
 * report.md, the charts' PNG and SVG, and the index.html.tmp and
 * report.md.tmp of earlier versions); anything else is refused with its
 * name, so that --out never deletes a user's files.  SIGINT, SIGTERM and
 * SIGHUP remove the temporary folder (then the signal ends the program as
 * it would have); on a file system without renameat2() flags the old
 * folder is moved aside and the new one renamed in, with the same
 * cleanup.
 */
#define _GNU_SOURCE     /* renameat2 and its flags */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

/*
 * The names a report folder may hold: what this program writes and what
 * earlier versions left.  Filled by out_begin() before it arms the
 * cleanup, so before the signal handler reads them.
 */
#define NNAMES (2 + 2 * NCHARTS + 2)
static char names_buf[NNAMES][64];
static const char *report_name[NNAMES];

static void out_names(void)
{
	int n = 0;

	report_name[n++] = "index.html";
	report_name[n++] = "report.md";
	for (size_t i = 0; i < NCHARTS; i++)
		for (int k = 0; k < 2; k++) {
			snprintf(names_buf[n], sizeof names_buf[n], "%s.%s",
				 report_charts[i].name, k ? "svg" : "png");
			report_name[n] = names_buf[n];
			n++;
		}
	report_name[n++] = "index.html.tmp";
	report_name[n++] = "report.md.tmp";
}

static int is_report_name(const char *name)
{
	for (size_t i = 0; i < NNAMES; i++)
		if (!strcmp(report_name[i], name))
			return 1;
	return 0;
}

/*
 * Remove the report folder at path: its report names, then the folder.
 * Async-signal-safe (open, unlinkat, close, rmdir); 0 when the folder is
 * gone or was never there.
 */
static int remove_report_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0) {
		for (size_t i = 0; i < NNAMES; i++)
			unlinkat(fd, report_name[i], 0);
		close(fd);
	}
	return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* What a signal must remove: the new report's folder while it is built,
 * the old one once swapped out (CLEANUP_DIR), or --plot-data's temporary
 * file (CLEANUP_FILE). */
enum { CLEANUP_DIR = 1, CLEANUP_FILE = 2 };
static char cleanup_path[PATH_BYTES];
static volatile sig_atomic_t cleanup_armed;
static const int caught[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	int saved = errno;

	if (cleanup_armed == CLEANUP_FILE)
		unlink(cleanup_path);
	else if (cleanup_armed)
		remove_report_dir(cleanup_path);
	errno = saved;
	/* SA_RESETHAND restored the default action; delivered on return. */
	raise(sig);
}

void signals_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof caught / sizeof *caught; i++)
		sigaddset(&set, caught[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

void signals_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof caught / sizeof *caught; i++) {
		struct sigaction old;

		/* A signal ignored by whoever started us stays ignored. */
		if (sigaction(caught[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(caught[i], &sa, NULL);
	}
}

void signals_arm_file(const char *path)
{
	snprintf(cleanup_path, sizeof cleanup_path, "%s", path);
	cleanup_armed = CLEANUP_FILE;
}

void signals_disarm(void)
{
	cleanup_armed = 0;
}

/* OUT is new, or a folder holding nothing but a report's files. */
static int check_old(const outdir *o)
{
	struct stat st;
	struct dirent *e;
	DIR *dir;
	int fd, rc = 0;

	if (lstat(o->path, &st) < 0)
		return errno == ENOENT ? 0
		       : usage_error("%s: %s", o->path, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return usage_error("%s is a symbolic link: give --out the "
				   "folder itself", o->path);
	if (!S_ISDIR(st.st_mode))
		return usage_error("%s is not a folder", o->path);
	fd = open(o->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(dir = fdopendir(fd))) {
		rc = usage_error("%s: cannot read the folder: %s", o->path,
				 strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	while (!rc && (e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!is_report_name(e->d_name) ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
			rc = usage_error("%s holds %s, which a report does not "
					 "write: the report replaces the whole "
					 "folder, so give --out a new or empty "
					 "folder, or one a report wrote",
					 o->path, e->d_name);
	}
	closedir(dir);
	return rc;
}

/*
 * Check OUT, make its parent, make the temporary folder beside it and
 * arm the cleanup.  EXIT_BADINPUT after a message.
 */
int out_begin(outdir *o, const char *out)
{
	size_t n = strlen(out);
	const char *base;
	sigset_t old;
	int rc, err;

	out_names();
	o->fd = -1;
	while (n > 1 && out[n - 1] == '/')
		n--;
	if (n >= sizeof o->path)
		return usage_error("option --out: the path is too long");
	memcpy(o->path, out, n);
	o->path[n] = '\0';
	base = strrchr(o->path, '/');
	base = base ? base + 1 : o->path;
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return usage_error("option --out: '%s' names no folder that can "
				   "be replaced: give a folder name", out);
	snprintf(o->parent, sizeof o->parent, "%.*s",
		 base == o->path ? 1 : (int)(base - o->path - 1),
		 base == o->path ? "." : o->path);
	if (!o->parent[0])
		snprintf(o->parent, sizeof o->parent, "/");
	if ((rc = check_old(o)) != 0)
		return rc;
	if (bs_make_dirs(o->parent) < 0)
		return usage_error("%s: cannot make the folder: %s", o->parent,
				   strerror(errno));
	if ((size_t)snprintf(o->tmp, sizeof o->tmp, "%s/.%s.new-XXXXXX",
			     o->parent, base) >= sizeof o->tmp)
		return usage_error("option --out: the path is too long");
	signals_block(&old);
	if (mkdtemp(o->tmp)) {
		snprintf(cleanup_path, sizeof cleanup_path, "%s", o->tmp);
		cleanup_armed = CLEANUP_DIR;
	}
	err = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!cleanup_armed)
		return usage_error("%s: cannot make a folder there: %s",
				   o->parent, strerror(err));
	o->fd = open(o->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (o->fd < 0)
		return usage_error("%s: %s", o->tmp, strerror(errno));
	return 0;
}

/* Give up: remove the temporary folder. */
void out_abort(outdir *o)
{
	sigset_t old;

	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	signals_block(&old);
	if (cleanup_armed)
		remove_report_dir(cleanup_path);
	cleanup_armed = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* A new file in the temporary folder, never through a link. */
FILE *out_create(outdir *o, const char *name)
{
	int fd = openat(o->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			O_CLOEXEC, 0666);
	FILE *f;

	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		usage_error("%s/%s: cannot write: %s", o->tmp, name,
			    strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	return f;
}

int out_close(outdir *o, FILE *f, const char *name)
{
	int bad = ferror(f);

	if (fclose(f) != 0 || bad)
		return usage_error("%s/%s: cannot write: %s", o->tmp, name,
				   strerror(errno ? errno : EIO));
	return 0;
}

/*
 * Put the temporary folder in OUT's place, then remove the old report.
 * Signals wait while the names change, so the handler always finds
 * cleanup_path naming the folder to remove.
 */
int out_commit(outdir *o)
{
	mode_t mask = umask(0);
	char aside[PATH_BYTES];
	sigset_t old;
	int rc = 0, had_old = 0, err = 0;

	umask(mask);
	if (fchmod(o->fd, 0777 & ~mask) < 0) {
		rc = usage_error("%s: %s", o->tmp, strerror(errno));
		out_abort(o);
		return rc;
	}
	close(o->fd);
	o->fd = -1;
	signals_block(&old);
	if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path,
		      RENAME_NOREPLACE) == 0) {
		cleanup_armed = 0;
	} else if (errno == EEXIST) {
		if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path,
			      RENAME_EXCHANGE) == 0)
			had_old = 1;    /* the old report is at o->tmp now */
		else
			err = errno;
	} else if (errno == EINVAL || errno == ENOSYS) {
		/* No flags here: move the old folder aside, then rename. */
		snprintf(aside, sizeof aside, "%s", o->tmp);
		memcpy(aside + strlen(aside) - 10, "old-XXXXXX", 10);
		if (!mkdtemp(aside)) {
			err = errno;
		} else if (rename(o->path, aside) < 0 && errno != ENOENT) {
			err = errno;
			rmdir(aside);
		} else if (rename(o->tmp, o->path) < 0) {
			err = errno;
			rename(aside, o->path);
		} else {
			snprintf(cleanup_path, sizeof cleanup_path, "%s",
				 aside);
			snprintf(o->tmp, sizeof o->tmp, "%s", aside);
			had_old = 1;
		}
	} else {
		err = errno;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (err) {
		rc = usage_error("%s: cannot put the report in place: %s",
				 o->path, strerror(err));
		out_abort(o);
		return rc;
	}
	if (had_old) {
		signals_block(&old);
		if (remove_report_dir(o->tmp) < 0)
			fprintf(stderr, "bankscope: the previous report is left "
				"in %s: files a report does not write appeared "
				"in it\n", o->tmp);
		cleanup_armed = 0;
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	return 0;
}
