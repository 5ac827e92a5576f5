/*
 * fuzz_cubin.c - libFuzzer target for the cubin symbol-table reader
 * (bs_cubin_function_indexes), which reads the cubins of a replayed
 * profile directory before nvdisasm -fun.
 *
 * The input is a cubin's bytes.  The reader must return -1 with a
 * message, or how many of the names it found, each found name with a
 * nonzero index and each other with 0.  Crashes, sanitizer reports (a
 * read past the end) and broken invariants (abort) are findings.  Seed:
 * the sample transpose's cubin (tests/cases/profile/sample-transpose).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		"_Z4copyPfS_ii", "_Z14transposeNaivePfS_ii", "", "x",
	};
	unsigned long idx[4];
	unsigned char *buf = malloc(size ? size : 1);   /* exact size: ASan */
	bs_error err;
	int n, nz = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	err.text[0] = '\0';
	n = bs_cubin_function_indexes(buf, size, names, 4, idx, &err);
	if (n == -1) {
		if (!err.text[0])
			abort();
	} else {
		for (int i = 0; i < 4; i++)
			nz += idx[i] != 0;
		if (n != nz)
			abort();
	}
	free(buf);
	return 0;
}
