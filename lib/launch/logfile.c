/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logfile: see logfile.h.  Used for the run's log and for the short
 * probe run of mapsample --list-metrics.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "launch/logfile.h"
#include "log/mapwrite_i.h"

int launch_make_log(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	uint8_t hdr[4096];
	memset(hdr, 0, sizeof(hdr));
	mapw_file_header(hdr, sizeof(hdr));
	ssize_t w = write(fd, hdr, sizeof(hdr));
	int e = errno;
	close(fd);
	if (w != (ssize_t)sizeof(hdr)) {
		errno = w < 0 ? e : ENOSPC;
		return -1;
	}
	return 0;
}
