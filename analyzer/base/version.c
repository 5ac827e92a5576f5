/*
 * version.c - bs_version(): the version of this build.
 *
 * The Makefile passes -DBS_VERSION with `git describe --always --dirty`
 * and rebuilds this one file when that changes (its stamp,
 * build/stamp/version), so the CLI, the probe runner and the datasets it
 * writes name the commit they were built from, also right after a new
 * commit.  Built some other way, the version is "unknown".
 */
#include "bs_base.h"

#ifndef BS_VERSION
#define BS_VERSION "unknown"
#endif

const char *bs_version(void)
{
	return BS_VERSION;
}
