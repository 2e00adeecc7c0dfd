/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logfile: the launcher creates the log that every process of the run
 * then writes into (mapsample-log(5)).
 */
#ifndef MAPSAMPLE_LOGFILE_H
#define MAPSAMPLE_LOGFILE_H

#include <stdint.h>

/*
 * Creates a new log with its file header, mode 0644 (less the umask),
 * named path, or NAME-2.EXT, NAME-3.EXT, ... when path (then each name
 * before) is the log of a run still going; an old log no run holds is
 * replaced (renamed over, never truncated: see logfile.c).  The name
 * taken goes to out (outlen bytes).  Returns a descriptor of the log
 * (O_CLOEXEC) that holds the run's shared lock on it: keep it open until
 * the run is over.  -1 with errno on failure: EINVAL when path names
 * something other than a regular file, EBUSY when 999 names are in use,
 * ENOSPC for a short write of the header, else from open/link/rename.
 */
int launch_make_log(const char *path, char *out, size_t outlen);

/*
 * Records in the log at path that process pid exited (how: a
 * MAPLOG_EXIT_* value, code: its status or signal), unless the log
 * already has an exit record for pid's last image: for a program killed
 * by a signal it could not catch or handle (SIGKILL, or a stack
 * overflow, whose handler has no stack to run on).  Reads the whole log;
 * appends one chunk through the header's allocation cursor, as the
 * sampler does, so processes still writing are not disturbed.  Returns
 * 1 if a record was written, 0 if none was needed or pid wrote nothing,
 * -1 on failure (errno set).
 */
int launch_note_exit(const char *path, uint32_t pid, int how, int code);

#endif
