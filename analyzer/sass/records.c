/*
 * records.c - reading a records directory (bs_sass.h lists its files):
 * each file opened without blocking and only when regular, status.txt,
 * the tables into a bs_sassprof, the disassembly of each cubin (a
 * cubin-CRC.sass there, else what the caller's disassembler hook makes),
 * device.txt, and explain.tsv with its status.  Nothing here runs a
 * program or prints: what a report should say about the files comes
 * back in the structs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bs_sass.h"

#define STATUS_MAX 65536       /* status.txt's bytes, at most */
#define BOM "\xef\xbb\xbf"         /* a UTF-8 byte-order mark: dropped */

static void path_join(char *buf, size_t size, const char *dir,
		      const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

int bs_records_open_fd(const char *path, bs_error *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		if (errno != ENOENT)
			bs_error_set(err, path, 0, 0, "cannot open: %s",
				     strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || fcntl(fd, F_SETFL, 0) < 0) {
		bs_error_set(err, path, 0, 0, "cannot read: %s",
			     strerror(errno));
		close(fd);
		errno = EIO;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		bs_error_set(err, path, 0, 0, "not a regular file (a %s): a "
			     "records directory holds only files",
			     S_ISFIFO(st.st_mode) ? "FIFO"
			     : S_ISCHR(st.st_mode) ? "character device"
			     : S_ISDIR(st.st_mode) ? "directory"
			     : "special file");
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

FILE *bs_records_open(const char *path, bs_error *err)
{
	int fd = bs_records_open_fd(path, err);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "r"))) {
		bs_error_set(err, path, 0, 0, "out of memory");
		close(fd);
		errno = ENOMEM;
	}
	return f;
}

/* buf[0..len) (len <= STATUS_MAX) as status.txt's lines into st. */
static int parse_status(char *buf, size_t len, const char *path,
			bs_records_status *st, bs_error *err)
{
	size_t n = strcspn(buf, "\r\n");
	char *line, *nl, *z;

	for (size_t i = 0; i < n || (i < len && !buf[i]); i++)
		if ((unsigned char)buf[i] < 0x20 && buf[i] != '\t')
			return bs_error_set(err, path, 1, (long)i + 1,
					    "not a status line: control "
					    "character 0x%02x",
					    (unsigned char)buf[i]);
	if (n >= sizeof st->reason)
		return bs_error_set(err, path, 1, 0, "not a status line: "
				    "longer than %zu bytes",
				    sizeof st->reason - 1);
	if ((z = memchr(buf, '\0', len))) {
		long ln = 1;

		for (char *c = buf; c < z; c++)
			ln += *c == '\n';
		return bs_error_set(err, path, ln, 0, "not a status file: a "
				    "NUL byte");
	}
	memcpy(st->reason, buf, n);
	st->reason[n] = '\0';
	st->nlater = 0;
	for (line = buf + n + (buf[n] != '\0');
	     st->nlater < BS_RECORDS_LATER_MAX && line < buf + len;
	     line = nl + 1) {
		char *l = st->later[st->nlater];
		size_t k;

		if (!(nl = strchr(line, '\n')))
			nl = buf + len;
		k = strcspn(line, "\r\n");
		snprintf(l, sizeof st->later[0], "%.*s", (int)k, line);
		st->nlater += l[0] != '\0';
	}
	if (!strcmp(st->reason, "ok")) {
		st->state = BS_RECORDS_OK;
	} else {
		st->state = BS_RECORDS_FAILED;
		if (!st->reason[0])
			snprintf(st->reason, sizeof st->reason,
				 "status.txt is empty");
	}
	return 0;
}

int bs_records_read_status(const char *dir, bs_records_status *st,
			   bs_error *err)
{
	char path[4096], *buf;
	FILE *f;
	size_t len;
	int bad, rc;

	path_join(path, sizeof path, dir, "status.txt");
	if (!(f = bs_records_open(path, err))) {
		if (errno == ENOENT) {
			st->state = BS_RECORDS_NONE;
			return 0;
		}
		return -1;
	}
	if (!(buf = malloc(STATUS_MAX + 1))) {
		fclose(f);
		return bs_error_set(err, path, 0, 0, "out of memory");
	}
	len = fread(buf, 1, STATUS_MAX + 1, f);
	bad = ferror(f);
	fclose(f);
	if (bad || len > STATUS_MAX) {
		free(buf);
		return bad ? bs_error_set(err, path, 0, 0, "read error")
			   : bs_error_set(err, path, 0, 0, "longer than %d "
					  "bytes: not a status file",
					  STATUS_MAX);
	}
	buf[len] = '\0';
	if (len >= 3 && !memcmp(buf, BOM, 3)) {
		len -= 3;
		memmove(buf, buf + 3, len + 1);
	}
	rc = parse_status(buf, len, path, st, err);
	free(buf);
	return rc;
}

typedef int (*table_reader)(bs_sassprof *, FILE *, const char *,
			    bs_error *);

static int read_table(const char *dir, bs_sassprof *sp, const char *name,
		      table_reader rd, int required, bs_error *err)
{
	char path[4096];
	FILE *f;
	int rc;

	path_join(path, sizeof path, dir, name);
	if (!(f = bs_records_open(path, err))) {
		if (errno != ENOENT)
			return -1;
		if (!required)
			return 0;
		return bs_error_set(err, path, 0, 0, "cannot open: %s",
				    strerror(ENOENT));
	}
	rc = rd(sp, f, path, err);
	fclose(f);
	return rc;
}

int bs_records_read_tables(const char *dir, bs_sassprof *sp,
			   int records_required, bs_error *err)
{
	if (read_table(dir, sp, "records.tsv", bs_sassprof_read_records,
		       records_required, err) < 0 ||
	    read_table(dir, sp, "launches.tsv", bs_sassprof_read_launches, 0,
		       err) < 0)
		return -1;
	return 0;
}

/* The cubins of sp without a cubin-CRC.sass in dir into q, each with its
 * cubin opened (fd -1 and d->no_cubin when it is not there): how many,
 * or -1 (err) when one cannot be read. */
static long requests(const char *dir, const uint32_t *crc, size_t ncrc,
		     bs_disasm_request *q, bs_records_disasm *d,
		     bs_error *err)
{
	size_t nq = 0;

	for (size_t i = 0; i < ncrc; i++) {
		char path[4096];
		int fd;

		snprintf(path, sizeof path, "%s/cubin-%u.sass", dir, crc[i]);
		if (!access(path, R_OK))
			continue;
		/* the disassembler opens it: a regular file only */
		snprintf(path, sizeof path, "%s/cubin-%u.cubin", dir, crc[i]);
		if ((fd = bs_records_open_fd(path, err)) < 0) {
			if (errno != ENOENT) {
				for (size_t k = 0; k < nq; k++)
					if (q[k].fd >= 0)
						close(q[k].fd);
				return -1;
			}
			d->no_cubin++;
		}
		memset(&q[nq], 0, sizeof q[nq]);
		q[nq].crc = crc[i];
		q[nq++].fd = fd;
	}
	return (long)nq;
}

/* Cubin crc's disassembly: what the hook made for request q, or, for a
 * cubin that had one (q NULL), dir/cubin-CRC.sass; NULL (d->no_disasm)
 * when there is none, with *rc -1 and err when it cannot be read. */
static FILE *disasm_file(const char *dir, uint32_t crc,
			 bs_disasm_request *q, bs_records_disasm *d, int *rc,
			 bs_error *err)
{
	char name[4096];
	FILE *f = NULL;

	if (q && q->out) {
		f = q->out;
		q->out = NULL;           /* read and closed by the caller */
		return f;
	}
	snprintf(name, sizeof name, "%s/cubin-%u.sass", dir, crc);
	if (!q || q->saved) {
		f = bs_records_open(name, err);
		if (!f && errno != ENOENT)
			*rc = -1;
	}
	if (!f && !*rc)
		d->no_disasm++;
	return f;
}

int bs_records_read_disasm(const char *dir, bs_sassprof *sp,
			   bs_disasm_hook hook, void *ctx,
			   bs_records_disasm *d, bs_error *err)
{
	size_t ncrc = bs_sassprof_cubins(sp, NULL, 0), k = 0;
	uint32_t *crc = malloc((ncrc ? ncrc : 1) * sizeof *crc);
	bs_disasm_request *q = calloc(ncrc ? ncrc : 1, sizeof *q);
	long nq = 0;
	int rc = 0;

	memset(d, 0, sizeof *d);
	d->gap = calloc(ncrc ? ncrc : 1, sizeof *d->gap);
	if (!crc || !q || !d->gap) {
		free(crc);
		free(q);
		free(d->gap);
		d->gap = NULL;
		return bs_error_set(err, dir, 0, 0, "out of memory");
	}
	bs_sassprof_cubins(sp, crc, ncrc);
	if ((nq = requests(dir, crc, ncrc, q, d, err)) < 0)
		rc = -1;
	else if (nq && hook)
		hook(ctx, dir, sp, q, (size_t)nq);
	for (long i = 0; i < nq; i++)
		if (q[i].fd >= 0)
			close(q[i].fd);
	for (size_t i = 0; i < ncrc && rc == 0; i++) {
		char name[4096];
		bs_disasm_request *r = k < (size_t)nq && q[k].crc == crc[i]
				       ? &q[k++] : NULL;
		FILE *f = disasm_file(dir, crc[i], r, d, &rc, err);
		size_t all, missing;

		if (!f)
			continue;
		snprintf(name, sizeof name, "%s/cubin-%u.sass", dir, crc[i]);
		rc = bs_sassprof_read_disasm(sp, crc[i], f, name, err);
		fclose(f);
		missing = bs_sassprof_undisassembled(sp, crc[i], &all);
		if (rc == 0 && missing) {
			bs_records_gap *g = &d->gap[d->ngap++];

			g->crc = crc[i];
			g->missing = missing;
			g->recorded = all;
			g->fresh = r && r->fresh;
		}
	}
	for (long i = 0; i < nq; i++)
		if (q[i].out)
			fclose(q[i].out);
	free(crc);
	free(q);
	return rc;
}

int bs_records_read_device(const char *dir, char *cc, size_t ccsize,
			   char *gpu, size_t gpusize, bs_error *err)
{
	char path[4096], buf[323], *line = buf, *tab;
	FILE *f;

	path_join(path, sizeof path, dir, "device.txt");
	if (!(f = bs_records_open(path, err)))
		return errno == ENOENT ? 0 : -1;
	if (!fgets(buf, sizeof buf, f))
		buf[0] = '\0';
	if (!strncmp(buf, BOM, 3))
		line += 3;
	tab = strchr(line, '\t');
	fclose(f);
	if (!tab || tab == line)
		return bs_error_set(err, path, 1, 0, "not a compute "
				    "capability, a tab and the GPU's name (as "
				    "the injection library writes it)");
	*tab = '\0';
	tab[strcspn(tab + 1, "\r\n") + 1] = '\0';
	snprintf(cc, ccsize, "%.15s", line);
	snprintf(gpu, gpusize, "%.255s", tab + 1);
	return 1;
}

int bs_records_read_explain(const char *dir, bs_explain **out,
			    char *status, size_t size, bs_error *err)
{
	char path[4096], line[1024];
	FILE *f;
	int rc;

	*out = NULL;
	status[0] = '\0';
	path_join(path, sizeof path, dir, "explain-status.txt");
	if (!(f = bs_records_open(path, err)) && errno != ENOENT)
		return -1;
	if (f) {
		if (fgets(line, sizeof line, f) &&
		    strcmp(line, "ok\n") && strcmp(line, "ok"))
			snprintf(status, size, "%.*s",
				 (int)strcspn(line, "\n"), line);
		fclose(f);
	}
	path_join(path, sizeof path, dir, "explain.tsv");
	if (!(*out = bs_explain_new()))
		return bs_error_set(err, path, 0, 0, "out of memory");
	if (!(f = bs_records_open(path, err)))
		return errno == ENOENT ? 0 : -1;
	rc = bs_explain_read(*out, f, path, err);
	fclose(f);
	if (rc < 0)
		return -1;
	/* the counts beside it, from 2026-12-02's explain library on */
	path_join(path, sizeof path, dir, "explain-counts.tsv");
	if (!(f = bs_records_open(path, err)))
		return errno == ENOENT ? 1 : -1;
	rc = bs_explain_read_counts(*out, f, path, err);
	fclose(f);
	return rc < 0 ? -1 : 1;
}
