#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# substrate-man-example: the example of mapsample-substrate(3) is the
# print_events plugin shipped in plugins/substrates/print_events.c, word
# for word; it compiles on its own as the page says (-fPIC -shared,
# -std=gnu11 -Wall -Wextra -Werror, the source tree's headers, and with
# the page's pkg-config command against the build tree's uninstalled
# .pc) and, loaded with --substrate PATH, writes one SAMPLE line per
# sample mapreport counts.
#
# Environment: top_srcdir, top_builddir (exported by make check),
# PLUGIN_HEADERS_CC (the build's compiler), else CC (default cc).
# Exit 77 (skip) without a C compiler.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "${top_srcdir:-$here/../..}" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
cc=${PLUGIN_HEADERS_CC:-${CC:-cc}}
page=$top_srcdir/man/mapsample-substrate.3
LC_ALL=C
export LC_ALL

command -v "${cc%% *}" >/dev/null 2>&1 ||
	{ echo "SKIP: no C compiler (${cc%% *})"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

# the literal block under EXAMPLES that has an #include, escapes undone
awk '
/^\.Sh / { ex = ($2 == "EXAMPLES") }
ex && /^\.Bd -literal/ { inb = 1; buf = ""; next }
inb && /^\.Ed/ { inb = 0; if (buf ~ /#include/ && !done) { printf "%s", buf; done = 1 } next }
inb {
	line = $0
	sub(/^\\&/, "", line)
	gsub(/\\e/, "\\", line)
	buf = buf line "\n"
}' "$page" >"$tmp/print_events.c"
[ -s "$tmp/print_events.c" ] || fail "$page: no C example under EXAMPLES"
cmp -s "$tmp/print_events.c" "$top_srcdir/plugins/substrates/print_events.c" || {
	diff "$top_srcdir/plugins/substrates/print_events.c" "$tmp/print_events.c" | head -20
	fail "the page's example differs from plugins/substrates/print_events.c"
}
lib=$tmp/libmapsample_substrate_print_events.so
$cc -std=gnu11 -Wall -Wextra -Werror -fPIC -shared \
	-I"$top_srcdir/lib/include" -o "$lib" "$tmp/print_events.c" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the example does not compile cleanly"; }
if command -v pkg-config >/dev/null 2>&1; then
	flags=$(PKG_CONFIG_PATH=$top_builddir pkg-config --cflags mapsample-plugin) ||
		fail "pkg-config --cflags mapsample-plugin failed in the build tree"
	# shellcheck disable=SC2086
	$cc -fPIC -shared $flags -o "$tmp/pc.so" "$tmp/print_events.c" 2>"$tmp/err" ||
		{ cat "$tmp/err"; fail "the page's build command fails"; }
fi
MAPSAMPLE_PRINT_EVENTS_FILE=$tmp/ev.txt "$top_builddir/cmd/mapsample/mapsample" \
	-q -o "$tmp/run.maplog" --substrate "$lib" \
	-- "$top_builddir/test/programs/threadsrun" 2 1 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the run with the example plugin failed"; }
n=$(grep -c ' SAMPLE ' "$tmp/ev.txt" || true)
m=$("$top_builddir/cmd/mapreport/mapreport" --json "$tmp/run.maplog" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["samples"])')
[ "$n" -gt 0 ] && [ "$n" = "$m" ] ||
	fail "the example wrote $n SAMPLE lines, mapreport counts $m"
echo "PASS: the example is print_events.c, compiles, and wrote $n SAMPLE lines"
