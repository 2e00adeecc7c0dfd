/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * badgetter: metric plugins whose getters break the API's rules, for
 * test/integration/metrics-faults.sh.  Each getter misbehaves from its
 * third call on (the first two give values), so the log shows the
 * plugin working before the host stops it:
 *
 *   bg_sleep   sleeps 5 s (nanosleep, retried so a signal does not cut
 *              it short)
 *   bg_spin    spins for ever
 *   bg_malloc  calls malloc and free, which the API forbids: deadlocks
 *              when the sampling signal interrupted the program inside
 *              malloc on the same thread
 *   bg_crash   writes through a null pointer
 *   bg_fine    a well-behaved counter in a second plugin, which must go
 *              on after the first is stopped
 *
 * Written against the public headers only.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <allinea_metric_plugin_api.h>

static unsigned long calls;

int allinea_plugin_initialize(plugin_id_t plugin_id, void *data)
{
	(void)plugin_id;
	(void)data;
	return 0;
}

int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data)
{
	(void)plugin_id;
	(void)data;
	return 0;
}

int bg_sleep(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)id;
	(void)t;
	if (++calls > 2) {
		struct timespec d = {5, 0};
		while (nanosleep(&d, &d) && errno == EINTR)
			;
	}
	*out = calls;
	return 0;
}

int bg_spin(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)id;
	(void)t;
	if (++calls > 2) {
		volatile unsigned long n = 0;
		for (;;)
			n++;
	}
	*out = calls;
	return 0;
}

int bg_malloc(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)id;
	(void)t;
	++calls;
	void *p = malloc(20000 + calls % 4096); /* past the tcache */
	free(p);
	*out = calls;
	return 0;
}

int bg_crash(metric_id_t id, struct timespec *t, uint64_t *out)
{
	(void)id;
	(void)t;
	if (++calls > 2) {
		volatile int *volatile nowhere = NULL;
		*nowhere = 1;
	}
	*out = calls;
	return 0;
}
