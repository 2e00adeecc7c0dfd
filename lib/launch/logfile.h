/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logfile: the launcher creates the log that every process of the run
 * then writes into (mapsample-log(5)).
 */
#ifndef MAPSAMPLE_LOGFILE_H
#define MAPSAMPLE_LOGFILE_H

/* Creates (or truncates) the log at path with its file header, mode
 * 0644.  Returns 0, or -1 with errno set (ENOSPC for a short write). */
int launch_make_log(const char *path);

#endif
