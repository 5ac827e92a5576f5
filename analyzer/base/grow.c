/*
 * grow.c - the library's one growth helper: an array that doubles when
 * full, for the tables the readers build a row at a time.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bs_base.h"

int bs_grow(void *array, size_t *cap, size_t n, size_t first, size_t size)
{
	size_t c = *cap ? 2 * *cap : first;
	void *p, *q;

	if (n < *cap)
		return 0;
	if (!c || c > SIZE_MAX / size)
		return -1;
	memcpy(&p, array, sizeof p);
	if (!(q = realloc(p, c * size)))
		return -1;
	memcpy(array, &q, sizeof q);
	*cap = c;
	return 0;
}
