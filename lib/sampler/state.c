/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * state: the state the sampler's modules share, defined once (struct
 * sampler S and the handler's walk flag; sampler_i.h describes them and
 * who writes what).  Data only: the bottom of lib/sampler, it calls
 * nothing.
 */
#include <pthread.h>

#include "sampler/sampler_i.h"

struct sampler S = {
	.fd = -1,
	.wake_fd = -1,
	.proc_lock = PTHREAD_MUTEX_INITIALIZER,
};

__thread int in_handler __attribute__((tls_model("initial-exec")));
