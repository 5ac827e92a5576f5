/*
 * gpu.c - bs_gpu_slug(): the folder a GPU's datasets go to, data/<slug>/.
 */
#include <stdio.h>
#include <string.h>

#include "bs_input.h"

/* s starts with word w: followed by the end or a blank. */
static int starts_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(s, w, n) && (s[n] == '\0' || s[n] == ' ');
}

static int is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

void bs_gpu_slug(const char *name, char *out, size_t size)
{
	const char *p = name;
	const char *fixed = NULL;
	size_t n = 0;
	int dash = 0;

	if (!size)
		return;
	if (!strncmp(p, "NVIDIA ", 7))
		p += 7;
	if (starts_word(p, "H100"))
		fixed = strstr(p, "PCIe") ? "h100-pcie"
			: strstr(p, "NVL") ? "h100-nvl" : "h100-sxm";
	else if (starts_word(p, "H200"))
		fixed = strstr(p, "NVL") ? "h200-nvl" : "h200";
	if (fixed)
		p = fixed;
	for (; *p && n + 1 < size; p++) {
		if (!is_alnum(*p)) {
			dash = n > 0;
			continue;
		}
		if (dash) {
			if (n + 2 >= size)
				break;
			out[n++] = '-';
			dash = 0;
		}
		out[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	}
	if (!n)
		snprintf(out, size, "%s", "gpu");
	else
		out[n] = '\0';
}
