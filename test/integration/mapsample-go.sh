#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample-go: a Go program with cgo (test/programs/gocgo) under
# mapsample.  Go runs goroutines on small stacks and gives every thread
# an alternate signal stack; a signal handler installed without
# SA_ONSTACK runs on the goroutine's stack and corrupts it ("unexpected
# return pc ... called from 0x..."): before the sampler's handlers had
# SA_ONSTACK, 2 runs of 4 at 1 kHz crashed.  Here: 4 runs at 1 kHz and
# one with --signal PROF, each exits 0 with the program's output, and
# the report names the Go and the C function that burn the CPU, the Go
# one with a line of its body in main.go (Go's DWARF).  And the
# symbolizer's inline chains on Go code (test/integration/symwalk over
# every address of main.main.func1): the Mutex's Lock and Unlock that Go
# inlined into it are frames of their own under it.  Their abstract
# definitions are in the sync package's unit, and libdw's
# dwarf_getscopes found no scope there (all 366 addresses were
# main.main.func1 alone) and leaked its array each time, which failed
# this test under the sanitizers.
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
LC_ALL=C
export LC_ALL

command -v go >/dev/null 2>&1 ||
	{ echo "SKIP: no go (Debian's golang-go; build.sh installs it)"; exit 77; }
cp "$top_srcdir/test/programs/gocgo/main.go" "$top_srcdir/test/programs/gocgo/go.mod" "$tmp/"
(cd "$tmp" && HOME=$tmp GOCACHE=$tmp/cache GOPATH=$tmp/gopath GOFLAGS=-mod=mod \
	GOTOOLCHAIN=local CGO_ENABLED=1 go build -o gocgo . ) >"$tmp/build.out" 2>&1 ||
	{ show "$tmp/build.out"; fail "go build failed"; }

for run in 1 2 3 4 prof; do
	opt="-F 1000"
	[ "$run" = prof ] && opt="--signal PROF"
	set +e
	# shellcheck disable=SC2086
	watch 120 "$tmp/hang" "$mapsample" -q -o "$tmp/g$run.log" $opt -- "$tmp/gocgo" \
		</dev/null >"$tmp/g.out" 2>"$tmp/g.err"
	rc=$?
	set -e
	[ "$rc" != 124 ] || { show "$tmp/g.err" "$tmp/hang"; fail "run $run: still running after 120 s (a hang; where each thread waited: above)"; }
	[ "$rc" = 0 ] || { show "$tmp/g.out" "$tmp/g.err"; fail "run $run: exit $rc"; }
	grep -q '^gocgo done' "$tmp/g.out" || { show "$tmp/g.out"; fail "run $run: output lost"; }
done
"$mapreport" "$tmp/g1.log" >"$tmp/r.txt" 2>"$tmp/r.err" ||
	{ show "$tmp/r.err"; fail "mapreport failed"; }
for f in main.goburn cburn; do
	awk '/^Top functions by self samples/ { on = 1; next } on && /^$/ { exit }
	     on { print }' "$tmp/r.txt" | grep -q " $f " ||
		{ show "$tmp/r.txt"; fail "$f not among the top functions"; }
done
# the Go function named with its file and a line of its body, from Go's
# own DWARF: with cgo the system linker's .debug_aranges leaves the Go
# units out, and a Go address was once given a line of the cgo glue's C
# file (runtime/cgo/gcc_mmap.c) or none
first=$(grep -n '^func goburn' "$tmp/main.go" | cut -d: -f1)
last=$(awk -v f="$first" 'NR > f && /^}/ { print NR; exit }' "$tmp/main.go")
loc=$(awk '/^Top functions by self samples/ { on = 1; next } on && /^$/ { exit }
	on && $5 == "main.goburn" { print $6 }' "$tmp/r.txt")
case $loc in
main.go:*) ;;
*) show "$tmp/r.txt"; fail "main.goburn: location '$loc', not main.go:LINE" ;;
esac
line=${loc#main.go:}
[ "$line" -gt "$first" ] && [ "$line" -lt "$last" ] ||
	{ show "$tmp/r.txt"; fail "main.goburn at main.go:$line, outside its body ($first-$last)"; }
echo "ok - main.goburn at main.go:$line (its body: lines $first-$last)"
"$top_builddir/test/integration/symwalk" "$tmp/gocgo" main.main.func1 \
	>"$tmp/walk" 2>"$tmp/walk.err" ||
	{ show "$tmp/walk.err"; fail "symwalk failed on main.main.func1"; }
for f in 'sync.(*Mutex).Lock' 'sync.(*Mutex).Unlock'; do
	awk -v c="$f;main.main.func1" '$2 == c { n++ } END { exit !n }' "$tmp/walk" || {
		awk '{ print $2 }' "$tmp/walk" | sort | uniq -c >&2
		fail "no address of main.main.func1 has the frames $f;main.main.func1"
	}
done
echo "ok - inlined calls of main.main.func1: $(awk '$2 ~ /;/ { n++ } END { print n + 0 }' "$tmp/walk") addresses"
echo "PASS: mapsample-go"
