/* SPDX-License-Identifier: BSD-2-Clause */
/* maps_strerror(): the one table of error phrases for MAPS_E* codes. */
#include <mapsample/maps_error.h>

const char *maps_strerror(int code)
{
	switch (code) {
	case MAPS_OK: return "success";
	case MAPS_ENOMEM: return "out of memory";
	case MAPS_EINVAL: return "invalid argument";
	case MAPS_EIO: return "read or write failed";
	case MAPS_ENOSPC: return "no room for the record";
	case MAPS_EMAGIC: return "not a mapsample log (bad magic)";
	case MAPS_EVERSION: return "log format version not supported";
	case MAPS_ECHECKSUM: return "checksum mismatch";
	case MAPS_EBADSIZE: return "impossible size";
	case MAPS_EBADRECORD: return "record does not decode";
	case MAPS_EBADSTACK: return "sample names an undefined stack";
	case MAPS_EGARBAGE: return "bytes that are not a chunk";
	case MAPS_ETRUNCATED: return "stream ends inside a chunk";
	case MAPS_ENOTSUP: return "not supported on this handle";
	}
	return "unknown error";
}
