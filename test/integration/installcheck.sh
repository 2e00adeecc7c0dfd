#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# installcheck: the installed mapsample, as a user gets it (run by
# `make installcheck`, and so by `make distcheck`):
#   - the reference's custom1.c compiles against the installed headers
#     with the installed mapsample-plugin.pc, exactly as the documentation
#     says, and runs under the installed mapsample with its XML;
#   - the installed built-in metrics (share/mapsample/metrics, naming
#     the installed plugin libraries) are found and record values;
#   - the installed mapreport reads the log;
#   - test/programs/marks.c builds with the flags of the installed
#     mapsample-mark.pc, as mapsample_mark(3) says, runs without
#     mapsample, and under the installed mapsample records its regions,
#     which the installed mapreport lists.
#
# Usage: installcheck.sh BINDIR PKGCONFIGDIR SRCDIR
set -eu

bindir=$1
pcdir=$2
srcdir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
LC_ALL=C
export LC_ALL

fail() {
	echo "FAIL: installcheck: $*" >&2
	exit 1
}

command -v pkg-config >/dev/null 2>&1 || { echo "installcheck: SKIP: no pkg-config"; exit 0; }
cc=${CC:-cc}
mkdir "$tmp/m"
cp "$srcdir/test/plugins/custom1.xml" "$tmp/m/"
cflags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags mapsample-plugin) ||
	fail "pkg-config does not find the installed mapsample-plugin.pc in $pcdir"
# shellcheck disable=SC2086
$cc -fPIC -shared $cflags "$srcdir/test/plugins/custom1.c" \
	-o "$tmp/m/libcustom1.so" 2>"$tmp/cc.err" ||
	{ cat "$tmp/cc.err" >&2; fail "custom1.c does not compile against the installed headers"; }

"$bindir/mapsample" -q -o "$tmp/run.log" --metrics-dir "$tmp/m" \
	--metrics default,Custom1 --metric-interval 10 -- /bin/sh -c \
	'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' \
	2>"$tmp/run.err" || { cat "$tmp/run.err" >&2; fail "the installed mapsample failed"; }
"$bindir/mapreport" -D "$tmp/run.log" >"$tmp/dump" 2>"$tmp/rep.err" ||
	{ cat "$tmp/rep.err" >&2; fail "the installed mapreport failed"; }
for id in com.allinea.metrics.custom1.interrupts com.mapsample.metrics.cpu.user \
	com.mapsample.metrics.io.write com.mapsample.metrics.memory.rss; do
	i=$(awk -v id="$id" '$4 == "metric-def" && $6 == id { print $5; exit }' "$tmp/dump")
	[ -n "$i" ] || fail "$id is not recorded"
	n=$(awk -v i="$i" '$4 == "metric-value" && $5 == i && $6 != "(no"' "$tmp/dump" | wc -l)
	[ "$n" -ge 2 ] || fail "$id has $n values"
done
if grep -q 'plugin-error\|metric-error' "$tmp/dump"; then
	grep 'plugin-error\|metric-error' "$tmp/dump" >&2
	fail "plugin or metric errors"
fi

flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs mapsample-mark) ||
	fail "pkg-config does not find the installed mapsample-mark.pc in $pcdir"
libdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=libdir mapsample-mark)
# shellcheck disable=SC2086
$cc -O1 -pthread -o "$tmp/marks" "$srcdir/test/programs/marks.c" $flags \
	-Wl,-rpath,"$libdir" 2>"$tmp/cc.err" ||
	{ cat "$tmp/cc.err" >&2; fail "marks.c does not build with the installed mapsample-mark"; }
[ "$("$tmp/marks" 20)" = "marks: done" ] || fail "marks does not run without mapsample"
"$bindir/mapsample" -q -o "$tmp/marks.log" -- "$tmp/marks" 20 >/dev/null \
	2>"$tmp/run.err" || { cat "$tmp/run.err" >&2; fail "the installed mapsample failed on marks"; }
"$bindir/mapreport" "$tmp/marks.log" >"$tmp/report" 2>"$tmp/rep.err" ||
	{ cat "$tmp/rep.err" >&2; fail "the installed mapreport failed on marks.log"; }
for r in phase1 phase2; do
	awk -v r="$r" '$0 == "Regions" { s = 1; next } s && NF == 0 { s = 0 }
		s && $1 == r && $2 == 1 { found = 1 } END { exit !found }' \
		"$tmp/report" || { cat "$tmp/report" >&2; fail "marks: region $r not listed"; }
done

# substrate plugins: print_events is installed where mapsample-plugin.pc's
# substratedir says and --substrate finds it there by name; the installed
# <mapsample/substrate.h> is the one that variable names
sdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=substratedir mapsample-plugin)
[ -f "$sdir/libmapsample_substrate_print_events.so" ] ||
	fail "print_events not installed in substratedir $sdir"
[ -f "$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=substrate_header mapsample-plugin)" ] ||
	fail "mapsample-plugin.pc's substrate_header is not installed"
"$bindir/mapsample" --list-substrates | grep -q "^print_events .*$sdir/" ||
	fail "the installed mapsample --list-substrates does not list print_events"
MAPSAMPLE_PRINT_EVENTS_FILE=$tmp/ev.txt "$bindir/mapsample" -q \
	-o "$tmp/ev.log" --substrate print_events -- "$tmp/marks" 20 >/dev/null \
	2>"$tmp/run.err" || { cat "$tmp/run.err" >&2; fail "the installed print_events failed"; }
grep -q ' REGION_ENTER phase1$' "$tmp/ev.txt" ||
	fail "the installed print_events wrote no region line"
echo "installcheck: ok: custom1.c built against the installed headers and the installed metrics ran; marks.c built with mapsample-mark.pc and its regions recorded"
