/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * preloadmark: a library a metric definition names in <preload>, for
 * test/integration/metrics-host.sh.  Its constructor appends
 * "preloaded PID" to the file $PRELOADMARK_FILE, which shows that the
 * launcher put it into the program's LD_PRELOAD.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void mark(void)
{
	const char *f = getenv("PRELOADMARK_FILE");
	if (!f)
		return;
	int fd = open(f, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	char line[64];
	int n = snprintf(line, sizeof(line), "preloaded %ld\n", (long)getpid());
	if (n > 0 && write(fd, line, (size_t)n) != n)
		n = 0;
	close(fd);
}
