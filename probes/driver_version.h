/*
 * driver_version.h - the NVIDIA driver's release number ("580.159.04"),
 * as the probe runner records it in a dataset's driver_version.
 *
 * cudaDriverGetVersion() gives the CUDA version the driver supports
 * (13000: "13.0"), not the driver's release; the runner records that as
 * cuda_driver_api_version.  The release comes from the kernel module's
 * /proc/driver/nvidia/version, whose first line reads
 *
 *   NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ...
 *   NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  ...
 *
 * else from `nvidia-smi --query-gpu=driver_version`.  Header only, plain
 * C that C++ (nvcc) compiles too, so that tests/check_probe.c tests the
 * parsing without a GPU.
 */
#ifndef BANKSCOPE_DRIVER_VERSION_H
#define BANKSCOPE_DRIVER_VERSION_H

#include <stdio.h>
#include <string.h>

/* s[0..n) is a release number: digits, and at least one dot between
 * groups of digits. */
static inline int driver_release_like(const char *s, size_t n)
{
	int dots = 0, digits = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			digits++;
		} else if (s[i] == '.' && digits) {
			dots++;
			digits = 0;
		} else {
			return 0;
		}
	}
	return dots > 0 && digits > 0;
}

/*
 * The release number in text: the first blank-separated word of its
 * "NVRM version:" line that is one (proc 1), or of its first line (proc
 * 0, nvidia-smi's output), into out.  0, or -1 when there is none.
 */
static inline int driver_release_parse(const char *text, int proc, char *out,
				       size_t size)
{
	const char *p = text, *end;

	if (proc) {
		p = strstr(text, "NVRM version:");
		if (!p)
			return -1;
		p += strlen("NVRM version:");
	}
	end = strchr(p, '\n');
	if (!end)
		end = p + strlen(p);
	while (p < end) {
		size_t n;

		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		n = strcspn(p, " \t\r\n");
		if (p + n > end)
			n = (size_t)(end - p);
		if (n && n < size && driver_release_like(p, n)) {
			memcpy(out, p, n);
			out[n] = '\0';
			return 0;
		}
		p += n;
	}
	return -1;
}

/* What f (NULL: not opened) holds, closed by close_fn, parsed as
 * driver_release_parse does: 0 when it gave a release. */
static inline int driver_release_read(FILE *f, int (*close_fn)(FILE *),
				      int proc, char *out, size_t size)
{
	char buf[1024];
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	close_fn(f);
	return driver_release_parse(buf, proc, out, size);
}

/*
 * The driver's release number into out: /proc/driver/nvidia/version,
 * else nvidia-smi; "not recorded (...)" when neither gives one.
 */
static inline void driver_release(char *out, size_t size)
{
	if (driver_release_read(fopen("/proc/driver/nvidia/version", "r"),
				fclose, 1, out, size) == 0 ||
	    driver_release_read(popen("nvidia-smi --query-gpu=driver_version "
				      "--format=csv,noheader 2>/dev/null", "r"),
				pclose, 0, out, size) == 0)
		return;
	snprintf(out, size, "not recorded (neither /proc/driver/nvidia/version "
		 "nor nvidia-smi gave it)");
}

#endif
