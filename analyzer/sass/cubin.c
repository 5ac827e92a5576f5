/*
 * cubin.c - the symbol table of a cubin, for disassembling only the
 * functions a profile recorded.
 *
 * A cubin is an ELF64 little-endian file (machine EM_CUDA).  Its .symtab
 * names each kernel and device function with an STT_FUNC symbol, whose
 * index nvdisasm's --cuda-function-index (-fun) takes: disassembling the
 * dozen functions of a library cubin that a profile recorded, instead of
 * its thousands, is what keeps `bankscope profile` of a PyTorch or
 * Triton program from spending most of its time in nvdisasm (15 of 37 s
 * and 25 of 36 s on the H100, docs/profile.md).
 *
 * Every offset and size read from the file is checked against its length
 * before use: a cubin in a replayed directory is input like any other.
 */
#include <stdint.h>
#include <string.h>

#include "bs_sass.h"

#define SHT_SYMTAB 2
#define STT_FUNC 2

static uint64_t rd(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* [off, off + size) lies in [0, len). */
static int inside(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

int bs_cubin_function_indexes(const unsigned char *buf, size_t len,
			      const char *const *names, size_t n,
			      unsigned long *idx, bs_error *err)
{
	uint64_t shoff, shentsize, shnum, symoff = 0, symsize = 0;
	uint64_t stroff = 0, strsize = 0, entsize = 0;
	size_t found = 0;
	int have = 0;

	for (size_t i = 0; i < n; i++)
		idx[i] = 0;
	if (len < 64 || memcmp(buf, "\177ELF", 4))
		return bs_error_set(err, NULL, 0, 0, "not an ELF file");
	if (buf[4] != 2 || buf[5] != 1)
		return bs_error_set(err, NULL, 0, 0, "not a 64-bit "
				    "little-endian ELF file (a cubin is)");
	shoff = rd(buf + 0x28, 8);
	shentsize = rd(buf + 0x3a, 2);
	shnum = rd(buf + 0x3c, 2);
	if (shentsize < 64 || !inside(shoff, shnum * shentsize, len))
		return bs_error_set(err, NULL, 0, 0, "section headers past "
				    "the end of the file");
	for (uint64_t s = 0; s < shnum; s++) {
		const unsigned char *h = buf + shoff + s * shentsize;
		uint64_t link;

		if (rd(h + 4, 4) != SHT_SYMTAB)
			continue;
		symoff = rd(h + 0x18, 8);
		symsize = rd(h + 0x20, 8);
		link = rd(h + 0x28, 4);
		entsize = rd(h + 0x38, 8);
		if (link >= shnum)
			return bs_error_set(err, NULL, 0, 0, "symbol table "
					    "names no string table");
		stroff = rd(buf + shoff + link * shentsize + 0x18, 8);
		strsize = rd(buf + shoff + link * shentsize + 0x20, 8);
		have = 1;
		break;
	}
	if (!have)
		return bs_error_set(err, NULL, 0, 0, "no symbol table");
	if (entsize < 24 || !inside(symoff, symsize, len) ||
	    !inside(stroff, strsize, len) || !strsize ||
	    buf[stroff + strsize - 1] != '\0')
		return bs_error_set(err, NULL, 0, 0, "symbol or string table "
				    "past the end of the file");
	/* symbol 0 is ELF's null symbol, never a function, whatever the
	   file says (0 means "not found" in idx) */
	for (uint64_t k = 1; k < symsize / entsize; k++) {
		const unsigned char *sym = buf + symoff + k * entsize;
		uint64_t name = rd(sym, 4);
		const char *s;

		if ((sym[4] & 0xf) != STT_FUNC || name >= strsize)
			continue;
		s = (const char *)buf + stroff + name;
		for (size_t i = 0; i < n; i++)
			if (!idx[i] && !strcmp(s, names[i])) {
				idx[i] = (unsigned long)k;
				found++;
			}
	}
	return (int)(found > (size_t)INT32_MAX ? INT32_MAX : found);
}
