#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# replay-rules.sh: the regression test of the --compare rule parser's
# fuzz target.  test/fuzz/replay_rules is test/fuzz/replay.c linked with
# fuzz_rules.c; this runs it over the seed corpus test/fuzz/corpus/rules.
# Exit status: replay's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$here/../..}
top_builddir=${top_builddir:-.}
exec "$top_builddir/test/fuzz/replay_rules" \
	"$top_srcdir/test/fuzz/corpus/rules"
