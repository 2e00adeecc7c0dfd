/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * readfile: reads a definition file whole, for the metric definition
 * parser (metricdef.c) and the partial-report parser (lib/report).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "defs/metricdef.h"

int metricdef_read_file(const char *path, size_t limit, char **out,
			size_t *len)
{
	struct stat sb;
	char *buf = NULL;
	size_t n = 0, cap;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	if (fd < 0)
		return errno;
	if (fstat(fd, &sb)) {
		err = errno;
		goto fail;
	}
	if (S_ISDIR(sb.st_mode)) {
		err = EISDIR;
		goto fail;
	}
	if (sb.st_size > (off_t)limit) {
		err = EFBIG;
		goto fail;
	}
	cap = (size_t)sb.st_size + 1;
	if (!(buf = malloc(cap))) {
		err = ENOMEM;
		goto fail;
	}
	for (;;) {
		ssize_t r;
		if (n == cap) {
			if (cap > limit) {
				err = EFBIG;
				goto fail;
			}
			char *b = realloc(buf, cap * 2);
			if (!b) {
				err = ENOMEM;
				goto fail;
			}
			buf = b;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*out = buf;
	*len = n;
	return 0;
fail:
	free(buf);
	close(fd);
	return err;
}
