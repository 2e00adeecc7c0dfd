/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * solo: makes the calls that want a process with no thread but the
 * program's own, between two hot functions.  before_calls() burns CPU;
 * then setresgid() and setresuid() to the ids it has (allowed to
 * everyone, and repeated by glibc on every thread it knows), setgroups()
 * to its groups when it may, and unshare(CLONE_NEWUSER) (EPERM where
 * user namespaces are not allowed is fine; EINVAL means "not a
 * single-threaded process"); after_calls() burns CPU again.  Exits 0, or
 * 1 naming the call that failed on standard error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void before_calls(void)
{
	for (unsigned long i = 0; i < 150000000ul; i++)
		sink += i ^ (i >> 3);
}

__attribute__((noinline)) static void after_calls(void)
{
	for (unsigned long i = 0; i < 150000000ul; i++)
		sink += i ^ (i >> 5);
}

static int bad(const char *call)
{
	fprintf(stderr, "solo: %s: %s\n", call, strerror(errno));
	return 1;
}

int main(void)
{
	before_calls();
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	if (getresuid(&ru, &eu, &su) || getresgid(&rg, &eg, &sg))
		return bad("getresuid");
	if (setresgid(rg, eg, sg))
		return bad("setresgid");
	if (setresuid(ru, eu, su))
		return bad("setresuid");
	gid_t groups[256];
	int n = getgroups(256, groups);
	if (n >= 0 && setgroups((size_t)n, groups) && errno != EPERM)
		return bad("setgroups");
	if (unshare(CLONE_NEWUSER) && errno != EPERM && errno != ENOSPC &&
	    errno != EUSERS)
		return bad("unshare(CLONE_NEWUSER)");
	after_calls();
	return 0;
}
