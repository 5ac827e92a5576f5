/*
 * fuzz_calibrate.c - libFuzzer target for calibrate's input: a dataset
 * (the CSV a probe run writes, which a user may hand over) read into
 * bs_calib and calibrated.
 *
 * The input is the file (fmemopen).  A dataset that reads is calibrated;
 * the architecture it gives must be one --arch reads: written and parsed back
 * (bs_arch_write, bs_arch_parse).  Crashes, leaks, sanitizer
 * reports, an error without text, and broken invariants (abort) are
 * findings: an architecture that does not read back, more distinct accesses or
 * named or remote rows than rows, a latency tolerance (bank or remote)
 * under BS_CALIB_CYCLES_TOL.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_result(const bs_calib_result *res, const bs_arch *p)
{
	static bs_arch back;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bs_error err;

	if (res->distinct > res->rows || res->miss_rows > res->rows ||
	    res->remote_rows > res->rows ||
	    !(res->cycles_tol >= BS_CALIB_CYCLES_TOL) ||
	    !(res->remote.cycles >= BS_CALIB_CYCLES_TOL))
		abort();
	if (!f || bs_arch_write(f, p) < 0 || fclose(f) != 0)
		abort();
	if (bs_arch_parse(text, "calibrated", &back, &err) < 0)
		abort();
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bs_arch out;
	FILE *f = fmemopen((void *)data, size, "r");
	bs_calib *c;
	bs_calib_result res;
	bs_dataset *d;
	bs_error err;

	if (!f || !size)
		goto done;
	c = bs_calib_new();
	err.text[0] = '\0';
	d = bs_dataset_open(f, "fuzz.csv", &err);
	if (!d) {
		if (!err.text[0])
			abort();
		bs_calib_free(c);
		goto done;
	}
	if (bs_calib_add_dataset(c, d, "fuzz.csv", &err) == 0) {
		err.text[0] = '\0';
		if (bs_calib_run(c, NULL, &out, &res, &err) == 0) {
			check_result(&res, &out);
			bs_calib_result_free(&res);
		} else if (!err.text[0]) {
			abort();
		}
	}
	bs_dataset_close(d);
	bs_calib_free(c);
done:
	if (f)
		fclose(f);
	return 0;
}
