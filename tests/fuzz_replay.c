/*
 * fuzz_replay.c - a fuzz target's seeds run once each, without libFuzzer:
 * main() hands every file named to LLVMFuzzerTestOneInput, so that make
 * check finds a seed the target aborts on (an invariant it breaks)
 * without clang.  Prints how many inputs ran; a finding aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *buf = NULL;
		size_t n = 0, cap = 0, got;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (cap - n < 4096) {
				cap = cap ? 2 * cap : 65536;
				if (!(buf = realloc(buf, cap)))
					abort();
			}
			n += got = fread(buf + n, 1, cap - n, f);
		} while (got > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	printf("fuzz_replay: %d inputs, no finding\n", argc - 1);
	return 0;
}
