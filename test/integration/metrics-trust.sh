#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# metrics-trust: mapsample loads no code that another user could have
# written, and no plugin that was not chosen (mapsample-metrics(5),
# "Where definitions are searched").  With test/plugins/ctormark.c, whose
# constructor notes every process that loads it:
#   - --metrics none: no process loads the plugin (before, the launcher
#     opened every library it found, to check it);
#   - the plugin chosen: the launcher and the program load it;
#   - a definitions folder writable by others: not searched, one line
#     naming it and the reason; a folder writable by a group that is
#     neither root's nor the caller's: the same;
#   - a definition file, or a library, owned by another user (nobody):
#     not loaded, one line naming it and the reason; the library's
#     constructor never runs, in --list-metrics either.
# Changing owners needs root: as another user those cases are skipped
# (CI runs as root).
#
# Environment: top_srcdir, top_builddir (exported by make check).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/mapsample-lib.sh"
LC_ALL=C
export LC_ALL

plugdir=$top_builddir/test/plugins/.libs
[ -f "$plugdir/libctormark.so" ] ||
	fail "$plugdir/libctormark.so missing: run 'make check' first"
chmod 755 "$tmp"
CTORMARK_FILE=$tmp/loaded
export CTORMARK_FILE

# fresh DIR MODE: a definitions folder with the plugin
fresh() {
	rm -rf "$1"
	mkdir "$1"
	cp "$top_srcdir/test/plugins/ctormark.xml" "$plugdir/libctormark.so" "$1/"
	chmod "$2" "$1"
	rm -f "$CTORMARK_FILE"
}

# run DIR METRICS: mapsample on true; stderr in $tmp/err
run() {
	set +e
	"$mapsample" -q -o "$tmp/r.log" --metrics-dir "$1" --metrics "$2" \
		-- /bin/true </dev/null >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
}

loaded_by() { grep -c "^loaded by $1\$" "$CTORMARK_FILE" 2>/dev/null || true; }

# ---- not chosen: never loaded ----
fresh "$tmp/m" 755
run "$tmp/m" none
[ "$rc" = 0 ] || { show "$tmp/err"; fail "--metrics none: exit $rc"; }
[ ! -s "$CTORMARK_FILE" ] ||
	{ show "$CTORMARK_FILE"; fail "--metrics none: a plugin nobody chose was loaded"; }

# ---- chosen: loaded ----
run "$tmp/m" none,org.mapsample.test.ctormark_src
[ "$rc" = 0 ] || { show "$tmp/err"; fail "chosen: exit $rc"; }
[ "$(loaded_by true)" -ge 1 ] ||
	{ show "$CTORMARK_FILE" "$tmp/err"; fail "chosen: the program did not load the plugin"; }

# ---- a folder writable by others ----
fresh "$tmp/m" 777
run "$tmp/m" none,org.mapsample.test.ctormark_src
grep -qF "mapsample: $tmp/m: warning: not searched: $tmp/m is writable by others (mode 0777); remove that (chmod o-w $tmp/m)" "$tmp/err" ||
	{ show "$tmp/err"; fail "world-writable folder: no line naming it"; }
[ "$rc" = 125 ] || { show "$tmp/err"; fail "world-writable folder: exit $rc (its metric must be unknown)"; }
[ ! -s "$CTORMARK_FILE" ] || fail "world-writable folder: the plugin was loaded"
"$mapsample" --metrics-dir "$tmp/m" --list-metrics >"$tmp/list" 2>&1 || true
grep -q 'not searched' "$tmp/list" || { show "$tmp/list"; fail "--list-metrics: no line for the folder"; }
[ ! -s "$CTORMARK_FILE" ] || fail "--list-metrics loaded a plugin from a world-writable folder"

# ---- a substrate plugin in a folder writable by others ----
sub=$top_builddir/plugins/substrates/.libs/libmapsample_substrate_print_events.so
if [ -f "$sub" ]; then
	mkdir "$tmp/s"
	cp "$sub" "$tmp/s/"
	chmod 777 "$tmp/s"
	set +e
	"$mapsample" -q -o "$tmp/s.log" --substrate "$tmp/s/libmapsample_substrate_print_events.so" \
		-- /bin/true </dev/null >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	grep -qF "refusing to load $tmp/s/libmapsample_substrate_print_events.so: $tmp/s is writable by others" "$tmp/err" ||
		{ show "$tmp/err"; fail "substrate plugin in a world-writable folder: no line naming it"; }
	[ "$rc" != 0 ] || fail "substrate plugin in a world-writable folder: the run went on with it"
fi

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: the cases that change owners need root"
	echo "PASS: metrics-trust (as $(id -un): owner cases skipped)"
	exit 0
fi

# ---- a folder writable by a foreign group ----
fresh "$tmp/m" 775
chgrp nogroup "$tmp/m"
run "$tmp/m" none,org.mapsample.test.ctormark_src
grep -qF "$tmp/m is writable by its group" "$tmp/err" ||
	{ show "$tmp/err"; fail "group-writable folder: no line naming it"; }
[ ! -s "$CTORMARK_FILE" ] || fail "group-writable folder: the plugin was loaded"

# ---- a library owned by nobody ----
fresh "$tmp/m" 755
chown nobody "$tmp/m/libctormark.so"
run "$tmp/m" none,org.mapsample.test.ctormark_src
grep -qF "refusing to load $tmp/m/libctormark.so: $tmp/m/libctormark.so is owned by nobody, not by root or you" "$tmp/err" ||
	{ show "$tmp/err"; fail "foreign library: no line naming it"; }
[ "$rc" = 125 ] || { show "$tmp/err"; fail "foreign library: exit $rc"; }
"$mapsample" --metrics-dir "$tmp/m" --list-metrics >"$tmp/list" 2>&1 || true
[ ! -s "$CTORMARK_FILE" ] ||
	{ show "$CTORMARK_FILE"; fail "a library owned by nobody was loaded"; }

# ---- a definition file owned by nobody ----
fresh "$tmp/m" 755
chown nobody "$tmp/m/ctormark.xml"
run "$tmp/m" none
grep -qF "mapsample: $tmp/m/ctormark.xml: warning: not loaded: $tmp/m/ctormark.xml is owned by nobody" "$tmp/err" ||
	{ show "$tmp/err"; fail "foreign definition file: no line naming it"; }

echo "PASS: metrics-trust"
