/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pidkeys: the keys of the pids of several logs (see pidkeys.h).
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/pidkeys.h"

void pidkeys_free(struct pidkeys *k)
{
	free(k->v);
	keymap_free(&k->map);
	keymap_free(&k->first);
	memset(k, 0, sizeof(*k));
}

void pidkeys_log(struct pidkeys *k, uint32_t log)
{
	k->log = log;
	k->have_last = 0;
}

/* Gives os_pid of the current log its key.  0 or MAPS_ENOMEM. */
static int see(struct pidkeys *k, uint32_t os_pid)
{
	long f = keymap_find(&k->first, os_pid, 0, 0);
	if (f < 0)
		return keymap_put(&k->first, os_pid, 0, 0, k->log) ? MAPS_ENOMEM
								  : 0;
	if ((uint32_t)f == k->log || keymap_find(&k->map, k->log, os_pid, 0) >= 0)
		return 0;
	/* an earlier log had it: a key of its own */
	if (mem_grow(&k->v, &k->cap, k->n, sizeof(*k->v)) ||
	    keymap_put(&k->map, k->log, os_pid, 0, k->n))
		return MAPS_ENOMEM;
	k->v[k->n] = (struct pidkey){k->log, os_pid,
				     PIDKEYS_REMAP + (uint32_t)k->n};
	k->n++;
	return 0;
}

int pidkeys_see(struct pidkeys *k, const struct maplog_ev *ev)
{
	uint32_t pids[3] = {ev->ev_pid, 0, 0};
	if (ev->ev_type == MAPLOG_TYPE_PROC_FORK) {
		pids[1] = ev->ev_u.fork.fk_pid;
		pids[2] = ev->ev_u.fork.fk_ppid;
	}
	for (int i = 0; i < 3; i++) {
		if (!pids[i] || (k->have_last && pids[i] == k->last))
			continue;
		if (see(k, pids[i]))
			return MAPS_ENOMEM;
		if (i == 0) {
			k->have_last = 1;
			k->last = pids[i];
		}
	}
	return 0;
}

uint32_t pidkeys_key(const struct pidkeys *k, uint32_t log, uint32_t os_pid)
{
	if (!k->n || !os_pid)
		return os_pid;
	long i = keymap_find(&k->map, log, os_pid, 0);
	return i < 0 ? os_pid : k->v[i].pid;
}

const struct maplog_ev *pidkeys_rekey(const struct pidkeys *k, uint32_t log,
				      const struct maplog_ev *ev,
				      struct maplog_ev *out)
{
	if (!k->n)
		return ev;
	uint32_t key = pidkeys_key(k, log, ev->ev_pid);
	if (key == ev->ev_pid && ev->ev_type != MAPLOG_TYPE_PROC_FORK)
		return ev;
	*out = *ev;
	out->ev_pid = key;
	switch (ev->ev_type) {
	case MAPLOG_TYPE_INITIALIZE:
		out->ev_u.init.in_pid = pidkeys_key(k, log, ev->ev_u.init.in_pid);
		break;
	case MAPLOG_TYPE_PROC_FORK:
		out->ev_u.fork.fk_pid = pidkeys_key(k, log, ev->ev_u.fork.fk_pid);
		out->ev_u.fork.fk_ppid =
			pidkeys_key(k, log, ev->ev_u.fork.fk_ppid);
		break;
	case MAPLOG_TYPE_PROC_EXEC:
		out->ev_u.exec.ex_pid = pidkeys_key(k, log, ev->ev_u.exec.ex_pid);
		break;
	case MAPLOG_TYPE_PROC_EXIT:
		out->ev_u.exit.px_pid = pidkeys_key(k, log, ev->ev_u.exit.px_pid);
		break;
	default:
		break;
	}
	return out;
}

const struct pidkey *pidkeys_of(const struct pidkeys *k, uint32_t pid)
{
	return pid >= PIDKEYS_REMAP && pid - PIDKEYS_REMAP < k->n
		       ? &k->v[pid - PIDKEYS_REMAP]
		       : NULL;
}
