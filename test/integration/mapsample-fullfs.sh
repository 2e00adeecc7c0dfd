#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# A log that cannot grow (issue 14, item 2).  Under RLIMIT_FSIZE (ulimit
# -f, any user) the program was killed by SIGXFSZ; with the log on a full
# file system (a 1 MiB tmpfs with 12 KiB free, mounted when root, else
# that case is skipped) program and mapsample died of SIGBUS.  Now the sampler stops
# recording with one line naming the log and the reason (EFBIG, ENOSPC),
# the program runs to its end with its own status, and mapreport reads
# what was recorded.  Reserving space does not make logs take more disk
# space than they hold.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
mnt=
cleanup() {
	[ -z "$mnt" ] || umount "$mnt" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
need_programs cpuburn
ulimit -c 0 2>/dev/null || true

# full NAME LOG WHY: runs a shell that burns 600 ms and exits 7 with the
# log at LOG (in the environment the caller set up); mapsample must exit
# 7 and say once that LOG stopped growing because of WHY
full() {
	set +e
	"$mapsample" -F 1000 -o "$2" -- \
		sh -c "\"$programs/cpuburn\" 600; exit 7" </dev/null \
		>/dev/null 2>"$tmp/$1.err"
	rc=$?
	set -e
	[ "$rc" = 7 ] || { show "$tmp/$1.err"; fail "$1: mapsample exited $rc, expected 7"; }
	grep -q "^mapsample: $2: .*($3); pid [0-9]* records no more samples" "$tmp/$1.err" ||
		{ show "$tmp/$1.err"; fail "$1: no line naming $2 and $3"; }
	# what was recorded is read (1: with its losses, or an empty log
	# when not even one chunk fitted)
	set +e
	"$mapreport" "$2" >"$tmp/$1.report" 2>"$tmp/$1.rerr"
	r=$?
	set -e
	[ "$r" -le 1 ] || { show "$tmp/$1.rerr"; fail "$1: mapreport exited $r"; }
}

test_fsize() {
	# 300 KiB in dash's 512-byte blocks, 600 KiB in bash's KiB: either
	# holds the header and less than the chunks a run maps at its start
	(
		ulimit -f 600
		full fsize "$tmp/fsize.log" EFBIG
	)
}

test_enospc() {
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: full file system: needs root to mount a tmpfs" >&2
		return 77
	fi
	mkdir "$tmp/mnt"
	mount -t tmpfs -o size=1m tmpfs "$tmp/mnt" || {
		echo "SKIP: cannot mount a tmpfs" >&2
		return 77
	}
	mnt=$tmp/mnt
	# 12 KiB left: the header and a few pages of a sparse chunk
	dd if=/dev/zero of="$mnt/fill" bs=1024 count=1012 2>/dev/null
	full enospc "$mnt/x.log" ENOSPC
}

# Space is reserved chunk by chunk, spares ahead included; the spares a
# process never used give their blocks back when it ends or execs, so
# a run of short processes does not take disk space for nothing.
test_spares() {
	need_programs forkexec
	if ! command -v fallocate >/dev/null 2>&1 ||
		! fallocate -l 1M "$tmp/probe" 2>/dev/null ||
		! fallocate -p -o 0 -l 1M "$tmp/probe" 2>/dev/null; then
		echo "spares: no fallocate(1) or no hole punching here; case skipped"
		return 0
	fi
	set +e
	"$mapsample" -q -o "$tmp/spares.log" -- "$programs/forkexec" 50 \
		</dev/null >/dev/null 2>"$tmp/spares.err"
	rc=$?
	set -e
	[ "$rc" = 4 ] || { show "$tmp/spares.err"; fail "spares: forkexec exited $rc"; }
	size=$(stat -c %s "$tmp/spares.log")
	used=$(($(stat -c %b "$tmp/spares.log") * $(stat -c %B "$tmp/spares.log")))
	# three images, each with four spare chunks of 256 KiB mostly unused
	check "$used < $size * 0.6" ||
		fail "spares: $used bytes on disk for a log of $size (unused spares kept their space)"
}

test_fsize
test_spares
test_enospc || exit $?
