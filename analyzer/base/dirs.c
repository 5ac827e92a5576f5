/*
 * dirs.c - the library's one directory maker: a path's folders made as
 * `mkdir -p` makes them, for the dataset writer, the report's output
 * folder and the dsmem runner's data/<gpu>/.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bs_base.h"

int bs_make_dirs(const char *dir)
{
	size_t n = strlen(dir);
	char *path = malloc(n + 1);

	if (!path) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(path, dir, n + 1);
	for (char *p = path + 1; n; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST) {
			int e = errno;

			free(path);
			errno = e;
			return -1;
		}
		*p = c;
		if (!c)
			break;
	}
	free(path);
	return 0;
}
