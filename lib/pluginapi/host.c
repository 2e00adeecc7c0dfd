/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * host.c: lib/pluginapi's side of its contract with the host that
 * provides the API to plugins, the sampler (pluginapi.h): the depth of
 * API calls, which the host reads in its signal handler; the bytes
 * lib/pluginapi moved with read(2)/write(2), which the host subtracts
 * from /proc/self/io; and the hooks the host passes down with
 * pluginapi_set_host() for the errors plugins report (errors.c).  The
 * bottom of lib/pluginapi: it calls nothing, and no function of the host
 * is named here, so the API links into any program that registers a
 * struct pluginapi_host (the sampler, the unit tests, benchmarks).
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "pluginapi.h"

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2,
	"the byte counters must be lock-free to be async-signal-safe");

/* pluginapi.h: the allocator's spinlock is why the host needs it. */
__thread int pluginapi_depth __attribute__((tls_model("initial-exec")));

_Atomic uint64_t pluginapi_safe_bytes_read;
_Atomic uint64_t pluginapi_safe_bytes_written;

static const struct pluginapi_host *host;

/* Not async-signal-safe with respect to plugins running: call it before
 * any plugin does. */
void pluginapi_set_host(const struct pluginapi_host *h)
{
	__atomic_store_n(&host, h, __ATOMIC_RELEASE);
}

/* Async-signal-safe: one atomic load. */
const struct pluginapi_host *pluginapi_get_host(void)
{
	return __atomic_load_n(&host, __ATOMIC_ACQUIRE);
}
