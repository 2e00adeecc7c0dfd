#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# replay-partial.sh: the regression test of the partial report fuzz
# target.  test/fuzz/replay_partial is test/fuzz/replay.c linked with
# fuzz_partial.c; this runs it over the seed corpus
# test/fuzz/corpus/partial.  Exit status: replay's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$here/../..}
top_builddir=${top_builddir:-.}
exec "$top_builddir/test/fuzz/replay_partial" \
	"$top_srcdir/test/fuzz/corpus/partial"
