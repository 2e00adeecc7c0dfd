/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trust: may this process load code (or definitions that name code) from
 * a path?  Not when another user could have written it: the file, or any
 * directory on the way to it, is owned by a user other than root and the
 * caller (effective uid), is writable by others (a directory with the
 * sticky bit, such as /tmp, excepted: there others cannot replace what
 * is ours), or is writable by its group when that group is neither
 * root's nor the caller's own.  The checks of ssh's StrictModes and
 * sudo, for the plugin folders and libraries mapsample loads.
 */
#ifndef MAPSAMPLE_TRUST_H
#define MAPSAMPLE_TRUST_H

#include <stddef.h>

/*
 * Returns 0 when path may be trusted (or does not exist: that is for
 * the caller to say), -1 when not, with why filled with the component
 * and the reason, ending in what to do (e.g. "/opt/m is writable by
 * others (mode 0777); remove that (chmod o-w /opt/m)").
 */
int trust_path(const char *path, char *why, size_t len);

#endif /* MAPSAMPLE_TRUST_H */
