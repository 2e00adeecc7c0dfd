/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pidkeys: the keys a report gives the pids of several logs.  A pid
 * names a process only on its host and only while it runs: the ranks of
 * a job on two hosts, or two runs merged, can have processes of the same
 * pid, which must stay apart.  The first log to have a pid keeps it as
 * its key; a later log with a pid an earlier log had gets a key of its
 * own, PIDKEYS_REMAP + n, n counting such pids in the order they first
 * appear.  So the keys depend on the logs and their order alone, and
 * every reader of the logs that keys them with a pidkeys of its own gets
 * the same keys: the model (model.c, which keeps its pidkeys for the
 * passes that read the logs again, model_reread()) and the --region
 * pass that reads them before the model does (regions.c).
 *
 * Use: pidkeys_log() before each log (logs 0, 1, ... in order),
 * pidkeys_see() for each of its records, then pidkeys_rekey() of the
 * record.  Memory: the distinct pids of the logs.  Not thread-safe.
 */
#ifndef MAPSAMPLE_MODEL_PIDKEYS_H
#define MAPSAMPLE_MODEL_PIDKEYS_H

#include <stddef.h>
#include <stdint.h>

#include <mapsample/maplog.h>

#include "model/keymap.h"

/* The first key given to a pid an earlier log had (above any pid). */
#define PIDKEYS_REMAP 0x80000000u

/* A pid of a log keyed under another number. */
struct pidkey {
	uint32_t log, os_pid, pid;  /* pid: PIDKEYS_REMAP + its index */
};

/* All zero is empty, before the first log. */
struct pidkeys {
	struct pidkey *v;           /* the pids keyed anew, n of them */
	size_t n, cap;
	struct keymap map;          /* (log, os_pid) -> index in v */
	struct keymap first;        /* os_pid -> the first log that had it */
	uint32_t log;               /* the log being read */
	int have_last;
	uint32_t last;              /* the last pid seen, keyed */
};

void pidkeys_free(struct pidkeys *k);

/* The records that follow are of log number log: 0 for the first, then
 * each next one in order. */
void pidkeys_log(struct pidkeys *k, uint32_t log);

/* Gives every pid of ev (a record of the current log) its key, if it has
 * none yet.  Returns 0 or MAPS_ENOMEM. */
int pidkeys_see(struct pidkeys *k, const struct maplog_ev *ev);

/* The key of pid os_pid of log log (os_pid when it kept it). */
uint32_t pidkeys_key(const struct pidkeys *k, uint32_t log, uint32_t os_pid);

/* ev of log log with every pid in it keyed, into out.  Returns out, or
 * ev itself when no pid of it changes. */
const struct maplog_ev *pidkeys_rekey(const struct pidkeys *k, uint32_t log,
				      const struct maplog_ev *ev,
				      struct maplog_ev *out);

/* The entry of key pid (PIDKEYS_REMAP and up), or NULL when pid is a
 * pid kept as it was. */
const struct pidkey *pidkeys_of(const struct pidkeys *k, uint32_t pid);

#endif
