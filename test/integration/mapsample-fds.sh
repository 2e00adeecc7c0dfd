#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample-fds: the sampler never reads or writes a descriptor it does
# not own (issue 14 item 1).  test/programs/fdthief puts a file of its
# own on every number from 1000 to 1023, where the sampler keeps the
# log's descriptor and the writer's eventfd, then works on: the file must
# still hold exactly the 10 bytes the program wrote (the sampler grew it
# with log chunks and wrote its eventfd counter into it), and the work
# after the theft must be in the log (the log is opened again by its
# name).  Small chunks (MAPSAMPLE_CHUNK_SIZE) and 4 kHz make the sampler
# take new chunks after the theft.
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
need_programs fdthief
LC_ALL=C
export LC_ALL

for opt in "" --wall; do
	name=thief${opt:+-wall}
	rm -f "$tmp/file"
	MAPSAMPLE_CHUNK_SIZE=65536
	export MAPSAMPLE_CHUNK_SIZE
	sample "$name" -F 4000 $opt -- "$programs/fdthief" "$tmp/file"
	unset MAPSAMPLE_CHUNK_SIZE
	[ "$rc" = 0 ] || { show "$tmp/$name.err"; fail "$name: exit $rc"; }
	[ "$(cat "$tmp/file")" = 0123456789 ] || {
		echo "--- the program's file: $(wc -c <"$tmp/file") bytes" >&2
		fail "$name: the program's file was written by the sampler"
	}
	report "$name"
	[ -n "$(func_row "$name" total after_theft)" ] ||
		{ show "$tmp/$name.report"; fail "$name: after_theft not sampled"; }
	echo "ok - $name: the program's file untouched, after_theft sampled"
done
