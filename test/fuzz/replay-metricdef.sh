#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# replay-metricdef.sh: the regression test of the metric definition fuzz
# target.  test/fuzz/replay_metricdef is test/fuzz/replay.c linked with
# fuzz_metricdef.c; this runs it over the seed corpus
# test/fuzz/corpus/metricdef (replay.c, without an argument, would read
# the log parser's corpus).  Exit status: replay's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$here/../..}
top_builddir=${top_builddir:-.}
exec "$top_builddir/test/fuzz/replay_metricdef" \
	"$top_srcdir/test/fuzz/corpus/metricdef"
