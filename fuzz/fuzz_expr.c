/*
 * fuzz_expr.c - libFuzzer target for the index-expression parser.
 *
 * The input, made a C string, is parsed as an expression; one that parses
 * is evaluated for lanes 0..31 of warps 0..2 and, as the index of an
 * access, turned into a warp's addresses.  Errors are expected; crashes,
 * leaks, sanitizer reports and messages without a column are not.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bankscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	bs_expr_spec spec = { .width = 4 };
	bs_access a;
	bs_error err;
	bs_expr *e;
	char msg[640];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	e = bs_expr_parse(text, "fuzz", &err);
	if (!e) {
		if (err.column < 1)
			abort();
		bs_error_format(&err, msg, sizeof msg);
		free(text);
		return 0;
	}
	for (int64_t w = 0; w < 3; w++)
		for (int64_t l = 0; l < BS_LANES; l++) {
			bs_vars v = { l, w, w * BS_LANES + l };
			int64_t out;

			if (bs_expr_eval(e, &v, &out, &err) < 0 &&
			    err.column < 1)
				abort();
		}
	bs_expr_free(e);
	spec.index = text;
	spec.warp = 1;
	if (bs_access_from_expr(&spec, &a, &err) == 0 &&
	    bs_access_check(&a, &err) < 0)
		abort();
	free(text);
	return 0;
}
