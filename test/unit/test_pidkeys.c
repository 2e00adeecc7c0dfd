/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_pidkeys: the keys of the pids of several logs (model/pidkeys.h):
 * the first log to have a pid keeps it, a later one gets a key of its
 * own numbered in the order such pids appear; keys do not depend on who
 * reads the logs; every pid of a record is keyed.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model/pidkeys.h"

static struct maplog_ev rec(uint32_t pid)
{
	struct maplog_ev ev;
	memset(&ev, 0, sizeof(ev));
	ev.ev_type = MAPLOG_TYPE_SAMPLE;
	ev.ev_pid = pid;
	return ev;
}

/* Reads the logs given as pids (0 ends a log, two 0s the logs), with a
 * pidkeys of its own, as model.c and regions.c each do. */
static void read_logs(struct pidkeys *k, const uint32_t *pids)
{
	uint32_t log = 0;
	pidkeys_log(k, 0);
	for (; pids[0] || pids[1]; pids++) {
		if (!pids[0]) {
			pidkeys_log(k, ++log);
			continue;
		}
		struct maplog_ev ev = rec(pids[0]);
		ck_assert_int_eq(pidkeys_see(k, &ev), 0);
	}
}

START_TEST(pidkeys_first_log_keeps)
{
	/* log 0: 10, 11; log 1: 11, 12, 10, 11; log 2: 10 */
	static const uint32_t logs[] = {10, 11, 10, 0, 11, 12, 10, 11, 0,
					10, 0, 0};
	struct pidkeys k = {0};
	read_logs(&k, logs);
	ck_assert_uint_eq(pidkeys_key(&k, 0, 10), 10);
	ck_assert_uint_eq(pidkeys_key(&k, 0, 11), 11);
	ck_assert_uint_eq(pidkeys_key(&k, 1, 11), PIDKEYS_REMAP);
	ck_assert_uint_eq(pidkeys_key(&k, 1, 12), 12);
	ck_assert_uint_eq(pidkeys_key(&k, 1, 10), PIDKEYS_REMAP + 1);
	ck_assert_uint_eq(pidkeys_key(&k, 2, 10), PIDKEYS_REMAP + 2);
	ck_assert_uint_eq(k.n, 3);
	const struct pidkey *e = pidkeys_of(&k, PIDKEYS_REMAP + 1);
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->log, 1);
	ck_assert_uint_eq(e->os_pid, 10);
	ck_assert_ptr_null(pidkeys_of(&k, 10));
	ck_assert_ptr_null(pidkeys_of(&k, PIDKEYS_REMAP + 3));
	/* a second reader of the same logs gives the same keys */
	struct pidkeys k2 = {0};
	read_logs(&k2, logs);
	ck_assert_uint_eq(k2.n, k.n);
	for (size_t i = 0; i < k.n; i++) {
		ck_assert_uint_eq(k2.v[i].log, k.v[i].log);
		ck_assert_uint_eq(k2.v[i].os_pid, k.v[i].os_pid);
		ck_assert_uint_eq(k2.v[i].pid, k.v[i].pid);
	}
	pidkeys_free(&k);
	pidkeys_free(&k2);
}
END_TEST

START_TEST(pidkeys_rekey_every_pid)
{
	static const uint32_t logs[] = {20, 21, 0, 20, 0, 0};
	struct pidkeys k = {0};
	read_logs(&k, logs);
	/* a fork record of log 1: its child and parent keyed too */
	struct maplog_ev ev = rec(21), out;
	ev.ev_type = MAPLOG_TYPE_PROC_FORK;
	ev.ev_u.fork.fk_pid = 21;
	ev.ev_u.fork.fk_ppid = 20;
	pidkeys_log(&k, 1);
	ck_assert_int_eq(pidkeys_see(&k, &ev), 0);
	const struct maplog_ev *r = pidkeys_rekey(&k, 1, &ev, &out);
	ck_assert_ptr_eq(r, &out);
	ck_assert_uint_eq(r->ev_pid, PIDKEYS_REMAP + 1);
	ck_assert_uint_eq(r->ev_u.fork.fk_pid, PIDKEYS_REMAP + 1);
	ck_assert_uint_eq(r->ev_u.fork.fk_ppid, PIDKEYS_REMAP);
	/* a record whose pid keeps its number is given back as it is */
	struct maplog_ev same = rec(20);
	ck_assert_ptr_eq(pidkeys_rekey(&k, 0, &same, &out), &same);
	/* no pid of any log taken twice: nothing keyed anew */
	struct pidkeys none = {0};
	static const uint32_t apart[] = {30, 0, 31, 0, 0};
	read_logs(&none, apart);
	ck_assert_uint_eq(none.n, 0);
	ck_assert_ptr_eq(pidkeys_rekey(&none, 1, &same, &out), &same);
	pidkeys_free(&k);
	pidkeys_free(&none);
}
END_TEST

static Suite *pidkeys_suite(void)
{
	Suite *s = suite_create("pidkeys");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, pidkeys_first_log_keeps);
	tcase_add_test(tc, pidkeys_rekey_every_pid);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(pidkeys_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
