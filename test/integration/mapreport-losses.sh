#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Losses a reader can detect are reported (issue 13, item 8).  A real log
# (test/programs/threads8 and test/programs/forkexec under mapsample) is
# cut at every chunk boundary, and, one at a time, every chunk in use is
# zeroed (read as unused space): each cut log is shorter than its header
# says, each zeroed chunk leaves a numbering gap, samples its thread's end
# record counts, an end record or a process's records missing.  For
# every case mapreport must exit 1 (mapreport(1), EXIT STATUS) and name
# the file and what is missing on stderr; it used to exit 0 in silence
# with threads of 0 samples.  The whole logs stay clean: exit 0, nothing
# on stderr.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
need_programs threads8 forkexec

# u32 FILE OFFSET: the little-endian 32-bit number at OFFSET of FILE
u32() {
	od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '
}

# u64 FILE OFFSET: the little-endian 64-bit number at OFFSET of FILE
u64() {
	od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '
}

# boundaries FILE: the byte offset of every chunk of FILE up to its
# header's alloc_end, and a line "used OFFSET" for those that hold a
# chunk (the rest is unused space of the sampler's 256 KiB chunks).
# Past alloc_end the file holds only space given back (spare chunks a
# process did not use, punched): a cut there loses nothing.
boundaries() {
	size=$(wc -c <"$1")
	end=$(u64 "$1" 24)
	[ "$end" -lt "$size" ] && size=$end
	off=$(u32 "$1" 16)
	while [ "$off" -lt "$size" ]; do
		if [ "$(u32 "$1" "$off")" = 827016013 ]; then # "MCK1"
			echo "used $off"
			off=$((off + $(u32 "$1" $((off + 4)))))
		else
			echo "unused $off"
			off=$((off + 262144))
		fi
	done
}

# damaged NAME WHAT: mapreport on $tmp/NAME.log exits 1 and says what is
# missing, naming the file
damaged() {
	set +e
	"$mapreport" "$tmp/$1.log" >/dev/null 2>"$tmp/$1.rerr"
	r=$?
	set -e
	[ "$r" = 1 ] || { show "$tmp/$1.rerr"; fail "$2: mapreport exited $r, expected 1"; }
	grep -q "^mapreport: $tmp/$1.log: .*\(lost\|missing\)" "$tmp/$1.rerr" ||
		{ show "$tmp/$1.rerr"; fail "$2: no line naming the file and what is lost"; }
}

cases() {
	name=$1
	log=$tmp/$name.log
	report "$name"
	[ ! -s "$tmp/$name.rerr" ] || { show "$tmp/$name.rerr"; fail "$name: the whole log is not clean"; }
	boundaries "$log" >"$tmp/$name.chunks"
	used=$(grep -c "^used" "$tmp/$name.chunks" || true)
	[ "$used" -ge 3 ] || { cat "$tmp/$name.chunks"; fail "$name: only $used chunks"; }
	while read -r kind off; do
		head -c "$off" "$log" >"$tmp/cut.log"
		damaged cut "$name cut at byte $off"
		[ "$kind" = used ] || continue
		cp "$log" "$tmp/zero.log"
		cap=$(u32 "$log" $((off + 4)))
		dd if=/dev/zero of="$tmp/zero.log" bs=8 seek=$((off / 8)) \
			count=$((cap / 8)) conv=notrunc 2>/dev/null
		damaged zero "$name: chunk at byte $off zeroed"
	done <"$tmp/$name.chunks"
	echo "$name: $(wc -l <"$tmp/$name.chunks") cuts, $used zeroed chunks reported"
}

sample threads -F 1000 -- "$programs/threads8"
[ "$rc" = 0 ] || { show "$tmp/threads.err"; fail "threads8 exited $rc"; }
cases threads
sample procs -F 1000 -- "$programs/forkexec"
[ "$rc" = 4 ] || { show "$tmp/procs.err"; fail "forkexec exited $rc, expected 4"; }
cases procs
