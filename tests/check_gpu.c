/*
 * check_gpu.c - bs_gpu_slug(): the folder of a GPU's datasets, for any
 * name the CUDA runtime gives, without a GPU.
 */
#include <check.h>
#include <string.h>

#include "bankscope.h"
#include "testutil.h"

typedef struct {
	const char *name, *slug;
} slug_case;

static const slug_case slugs[] = {
	/* the folders of the committed data stay */
	{ "NVIDIA H100 80GB HBM3", "h100-sxm" },
	{ "NVIDIA H100 PCIe", "h100-pcie" },
	{ "NVIDIA H200", "h200" },
	/* other Hopper boards get their own */
	{ "NVIDIA H100 NVL", "h100-nvl" },
	{ "NVIDIA H200 NVL", "h200-nvl" },
	{ "NVIDIA GH200 480GB", "gh200-480gb" },
	{ "NVIDIA H20", "h20" },
	/* any other name */
	{ "NVIDIA GeForce RTX 4090", "geforce-rtx-4090" },
	{ "NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb" },
	{ "NVIDIA L40S", "l40s" },
	{ "NVIDIA B200", "b200" },
	{ "Tesla V100-SXM2-16GB", "tesla-v100-sxm2-16gb" },
	{ "NVIDIA RTX 6000 Ada Generation", "rtx-6000-ada-generation" },
	{ "  NVIDIA--A10G  (MIG 1g.5gb) ", "nvidia-a10g-mig-1g-5gb" },
	{ "Quadro/RTX  8000", "quadro-rtx-8000" },
	{ "---", "gpu" },
	{ "", "gpu" },
	{ "NVIDIA ", "gpu" },
};

START_TEST(test_slug)
{
	const slug_case *c = &slugs[_i];
	char out[64];

	memset(out, 'x', sizeof out);
	bs_gpu_slug(c->name, out, sizeof out);
	ck_assert_msg(!strcmp(out, c->slug), "'%s' -> '%s', expected '%s'",
		      c->name, out, c->slug);
}
END_TEST

/* Cut to fit, never ending in a dash, never past the buffer. */
START_TEST(test_slug_cut)
{
	static const struct {
		const char *name;
		size_t size;
		const char *slug;
	} cuts[] = {
		{ "NVIDIA GeForce RTX 4090", 12, "geforce-rtx" },
		{ "NVIDIA GeForce RTX 4090", 8, "geforce" },
		{ "NVIDIA GeForce RTX 4090", 9, "geforce" },
		{ "NVIDIA GeForce RTX 4090", 10, "geforce-r" },
		{ "NVIDIA H100 PCIe", 5, "h100" },
		{ "NVIDIA A100", 1, "" },
	};
	char out[12];

	memset(out, 'x', sizeof out);
	for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
		bs_gpu_slug(cuts[i].name, out, cuts[i].size);
		ck_assert_str_eq(out, cuts[i].slug);
	}
	out[0] = 'x';
	bs_gpu_slug("NVIDIA A100", out, 0);
	ck_assert_int_eq(out[0], 'x');
}
END_TEST

Suite *gpu_suite(void)
{
	return tu_suite("gpu", "slug", 0, (const tu_test[]){
		{ test_slug, TU_ROWS(slugs) }, { test_slug_cut, 1 },
		{ NULL, 0 } });
}
