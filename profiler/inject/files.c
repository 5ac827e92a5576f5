/*
 * files.c - the injection library's directory (inject.h): status.txt and
 * the reason collection stopped, records.tsv and launches.tsv (shared by
 * the program's processes, so every line or flush goes out in one
 * write(2) on an O_APPEND descriptor), the cubins, device.txt; and the
 * kernels seen, by demangled name.
 */
#include "inject.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cupti_callbacks.h>
#include <cupti_pcsampling.h>

static struct {
	kernel_seen *v;
	size_t cap, n;
} seen;

/* ---- status.txt ---------------------------------------------------------- */

/* The first process in the directory replaces its "ok"; a later one
 * appends a line. */
static void write_status(const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/status.txt", inj.dir);
	if ((f = fopen(path, inj.owner ? "w" : "a"))) {
		fprintf(f, "%s\n", text);
		fclose(f);
	}
}

/* Collection ends; the first reason goes to status.txt. */
void inj_stop(const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	if (!inj.active)
		return;
	inj.active = 0;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	write_status(why);
}

/* ---- names and files ---------------------------------------------------- */

/* The demangled name, whole, in a new string (NULL: out of memory).
 * Launch lines and records must name a kernel alike: names cut at 511
 * characters on launch lines, whole in records, made one PyTorch kernel
 * two ("16 launches of 20 kernels"). */
char *inj_kernel_name(const char *mangled)
{
	return bs_kernel_name(inj.demangle, mangled);
}

/* The name of a launch's kernel (common.h's cache): the symbol, or
 * "(function)" for a launch with none (a graph's). */
static bs_name_cache names;

const char *inj_launch_name(const char *symbol, const char *function)
{
	char key[1024];

	if (!symbol) {
		snprintf(key, sizeof key, "(%s)", function ? function : "launch");
		symbol = key;
	}
	return bs_name_cached(&names, inj.demangle, symbol);
}

/* The entry of kernel name, added when new (a copy); NULL when out of
 * memory. */
kernel_seen *inj_seen_kernel(const char *name)
{
	size_t i;

	if (2 * (seen.n + 1) > seen.cap) {
		size_t cap = seen.cap ? 2 * seen.cap : 256;
		kernel_seen *v = calloc(cap, sizeof *v);

		if (!v)
			return NULL;
		for (size_t k = 0; k < seen.cap; k++) {
			if (!seen.v[k].name)
				continue;
			for (i = bs_name_hash(seen.v[k].name) & (cap - 1);
			     v[i].name; i = (i + 1) & (cap - 1))
				;
			v[i] = seen.v[k];
		}
		free(seen.v);
		seen.v = v;
		seen.cap = cap;
	}
	for (i = bs_name_hash(name) & (seen.cap - 1); seen.v[i].name;
	     i = (i + 1) & (seen.cap - 1))
		if (!strcmp(seen.v[i].name, name))
			return &seen.v[i];
	if (!(seen.v[i].name = strdup(name)))
		return NULL;
	seen.n++;
	return &seen.v[i];
}

/* All of buf in one write(2) (an O_APPEND descriptor shared with other
 * runs: lines never interleave); 0, or -1 with collection stopped. */
int inj_write_all(int fd, const char *what, const char *buf, size_t n)
{
	ssize_t w = write(fd, buf, n);

	if (w == (ssize_t)n)
		return 0;
	inj_stop("cannot write %s/%s: %s", inj.dir, what,
		 w < 0 ? strerror(errno) : "short write");
	return -1;
}

/*
 * launches.tsv's lines, gathered and written whole lines at a time: at
 * 64 KiB, when the oldest waited a second, and at every flush, drain and
 * exit (inj_launches_out).  One write(2) per launch cost more than the
 * launch itself in a program of 10^5 short launches.
 */
static struct {
	char buf[65536];
	size_t n;
	time_t since;
} lines;

int inj_launches_out(void)
{
	size_t n = lines.n;

	lines.n = 0;
	return n ? inj_write_all(inj.launches, "launches.tsv", lines.buf, n) : 0;
}

int inj_launch_line(const char *line, size_t n)
{
	time_t now = time(NULL);

	if (lines.n && (lines.n + n > sizeof lines.buf || now > lines.since) &&
	    inj_launches_out() < 0)
		return -1;
	if (n > sizeof lines.buf)
		return inj_write_all(inj.launches, "launches.tsv", line, n);
	if (!lines.n)
		lines.since = now;
	memcpy(lines.buf + lines.n, line, n);
	lines.n += n;
	return 0;
}

int inj_open_table(const char *name, const char *header)
{
	char path[PATH_MAX], line[256];
	int fd, n;

	snprintf(path, sizeof path, "%s/%s", inj.dir, name);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC,
		  0644);
	if (fd >= 0) {
		n = snprintf(line, sizeof line, "%s\n", header);
		if (inj_write_all(fd, name, line, (size_t)n) < 0) {
			close(fd);
			return -1;
		}
		return fd;
	}
	if (errno == EEXIST)
		fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		inj_stop("cannot open %s: %s", path, strerror(errno));
	return fd;
}

void inj_save_cubin(const CUpti_ModuleResourceData *m)
{
	CUpti_GetCubinCrcParams p;
	char path[PATH_MAX];
	const char *b = m->pCubin;
	size_t left = m->cubinSize;
	int fd;

	if (!b || !left)
		return;
	memset(&p, 0, sizeof p);
	p.size = CUpti_GetCubinCrcParamsSize;
	p.cubin = b;
	p.cubinSize = left;
	if (cuptiGetCubinCrc(&p) != CUPTI_SUCCESS)
		return;
	trace("module %u loaded: %zu bytes, crc %llu", m->moduleId, left,
	      (unsigned long long)p.cubinCrc);
	snprintf(path, sizeof path, "%s/cubin-%u.cubin", inj.dir,
		 (uint32_t)p.cubinCrc);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	while (left) {
		ssize_t n = write(fd, b, left);

		if (n <= 0)
			break;
		b += n;
		left -= (size_t)n;
	}
	close(fd);
	if (left)
		unlink(path);
}


/* device.txt, by the process that made status.txt: the compute
 * capability and name of device ordinal dev.  Nothing when it fails. */
void inj_write_device(uint32_t dev)
{
	char path[PATH_MAX], name[256], line[320];
	int major = 0, minor = 0, fd, n;
	CUdevice d;

	if (!inj.owner || inj.dev_get(&d, (int)dev) != CUDA_SUCCESS ||
	    inj.dev_attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
		       d) != CUDA_SUCCESS ||
	    inj.dev_attr(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
		       d) != CUDA_SUCCESS ||
	    inj.dev_name(name, sizeof name, d) != CUDA_SUCCESS)
		return;
	name[sizeof name - 1] = '\0';
	for (char *p = name; *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	snprintf(path, sizeof path, "%s/device.txt", inj.dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof line, "%d.%d\t%s\n", major, minor, name);
	(void)!write(fd, line, (size_t)n);
	close(fd);
}
