/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * otf2slow: a library preloaded (LD_PRELOAD) into a program profiled with
 * the otf2 substrate plugin, so that the plugin falls behind and the host
 * drops its events (test/integration/substrate-otf2.sh).  It defines
 * OTF2_EvtWriter_CallingContextSample, which the plugin then calls
 * instead of libotf2's (the program's global scope comes before the
 * plugin's own libraries): it sleeps OTF2SLOW_MS milliseconds (default
 * 20) and calls libotf2's, found in the library OTF2SLOW_LIB names (the
 * path of the libotf2 the plugin loaded; dlopen with RTLD_NOLOAD, as the
 * plugin has loaded it by then).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <otf2/otf2.h>

typedef OTF2_ErrorCode (*ccs_fn)(OTF2_EvtWriter *, OTF2_AttributeList *,
				 OTF2_TimeStamp, OTF2_CallingContextRef,
				 uint32_t, OTF2_InterruptGeneratorRef);

OTF2_ErrorCode OTF2_EvtWriter_CallingContextSample(
	OTF2_EvtWriter *writer, OTF2_AttributeList *attributes,
	OTF2_TimeStamp time, OTF2_CallingContextRef context,
	uint32_t unwind_distance, OTF2_InterruptGeneratorRef generator)
{
	static ccs_fn real;
	if (!real) {
		const char *lib = getenv("OTF2SLOW_LIB");
		void *h = lib ? dlopen(lib, RTLD_LAZY | RTLD_NOLOAD) : NULL;
		real = h ? (ccs_fn)dlsym(h, "OTF2_EvtWriter_CallingContextSample") : NULL;
	}
	const char *ms = getenv("OTF2SLOW_MS");
	long n = ms ? atol(ms) : 20;
	struct timespec d = { n / 1000, (n % 1000) * 1000000L };
	while (nanosleep(&d, &d) < 0 && errno == EINTR)
		;
	if (!real)
		return OTF2_ERROR_INVALID_CALL;
	return real(writer, attributes, time, context, unwind_distance, generator);
}
