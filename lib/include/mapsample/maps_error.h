/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapsample error codes, shared by every library of the project.
 *
 * Library functions return 0 (or a non-negative count) on success and a
 * negative MAPS_E* code on failure, except where an API follows another
 * one's convention: maplog_read() and maplog_feed() return -1 as pmclog(3)
 * does and leave the code in the event or in maplog_error().
 * maps_strerror() turns a code into one short English phrase.
 */
#ifndef MAPSAMPLE_MAPS_ERROR_H
#define MAPSAMPLE_MAPS_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the functions a shared library of the project exports. */
#if defined(__GNUC__)
#define MAPS_API __attribute__((visibility("default")))
#else
#define MAPS_API
#endif

enum maps_error {
	MAPS_OK = 0,
	MAPS_ENOMEM = -1,     /* out of memory */
	MAPS_EINVAL = -2,     /* invalid argument */
	MAPS_EIO = -3,        /* read or write failed (see errno) */
	MAPS_ENOSPC = -4,     /* buffer too small for the record */
	MAPS_EMAGIC = -5,     /* not a mapsample log (bad file magic) */
	MAPS_EVERSION = -6,   /* log format version not supported */
	MAPS_ECHECKSUM = -7,  /* chunk checksum mismatch */
	MAPS_EBADSIZE = -8,   /* impossible size in a chunk or record */
	MAPS_EBADRECORD = -9, /* record body does not decode */
	MAPS_EBADSTACK = -10, /* sample names a stack id not defined */
	MAPS_EGARBAGE = -11,  /* bytes that are no chunk header */
	MAPS_ETRUNCATED = -12,/* stream ends inside a chunk */
	MAPS_ENOTSUP = -13,   /* operation not supported on this handle */
};

/* Returns a static string describing code (any MAPS_E* value). */
MAPS_API const char *maps_strerror(int code);

#ifdef __cplusplus
}
#endif
#endif
