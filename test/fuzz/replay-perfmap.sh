#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# replay-perfmap.sh: the regression test of the perf map parser's fuzz
# target.  test/fuzz/replay_perfmap is test/fuzz/replay.c linked with
# fuzz_perfmap.c; this runs it over the seed corpus test/fuzz/corpus/perfmap.
# Exit status: replay's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$here/../..}
top_builddir=${top_builddir:-.}
exec "$top_builddir/test/fuzz/replay_perfmap" \
	"$top_srcdir/test/fuzz/corpus/perfmap"
