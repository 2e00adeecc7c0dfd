/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * substrates: the launcher's side of substrate plugins
 * (mapsample-substrate(3)): find them by name, list them.
 * NAME means libmapsample_substrate_NAME.so, searched in
 * $MAPSAMPLE_CONFIG_DIR/substrates, ~/.mapsample/substrates, the build
 * tree's plugins/substrates/.libs when this mapsample runs from the build
 * tree, then $(pkglibdir)/substrates; anything with a '/' is a path.
 */
#ifndef MAPSAMPLE_CMD_SUBSTRATES_H
#define MAPSAMPLE_CMD_SUBSTRATES_H

#include <stddef.h>

/* Resolves the items of MAPSAMPLE_SUBSTRATE_PLUGINS (comma-separated)
 * and then the --substrate options (opts[0..n)) to absolute paths and
 * sets MAPSAMPLE_SUBSTRATE_PLUGINS to them for the program (unset when
 * there are none).  Returns 0, or -1 after one line on stderr naming the
 * plugin that was not found. */
int substrates_resolve(const char **opts, size_t n);

/* --list-substrates: one line per plugin found (name, interface version,
 * path).  Returns the exit status. */
int substrates_list(void);

#endif
