# SPDX-License-Identifier: BSD-2-Clause
#
# html-browser-lib.sh: what the tests of the HTML page in a real browser
# share (sourced, not run): the paths of the build, the browser (CHROMIUM,
# else chromium, chromium-browser or google-chrome from PATH; the test
# exits 77 when there is none), a temporary folder $tmp removed on exit,
# fail, chrome (headless Chromium with a profile of its own),
# no_console (the page wrote nothing on the console) and bins_range (a
# time range on the page's bins).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mklog=$top_builddir/test/common/mklog
mapsample=$top_builddir/cmd/mapsample/mapsample
programs=$top_builddir/test/programs

browser=${CHROMIUM:-}
if [ -z "$browser" ]; then
	for b in chromium chromium-browser google-chrome; do
		if command -v "$b" >/dev/null 2>&1; then
			browser=$b
			break
		fi
	done
fi
if [ -z "$browser" ]; then
	echo "SKIP: no Chromium (apt-get install chromium, or set CHROMIUM)"
	exit 77
fi

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# chrome OUT ERR ARGS...: headless Chromium with a profile of its own
# and nothing fetched in the background.
chrome() {
	out=$1
	err=$2
	shift 2
	set +e
	HOME=$tmp timeout 180 "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/profile" --no-first-run \
		--disable-extensions --disable-background-networking \
		--disable-component-update --disable-sync \
		--enable-logging=stderr --v=0 "$@" >"$out" 2>"$err"
	rc=$?
	set -e
	[ "$rc" = 0 ] || {
		tail -n 20 "$err" >&2
		fail "$browser exited $rc"
	}
}

# no_console ERR: the page wrote nothing on the console.
no_console() {
	if grep -q "CONSOLE" "$1"; then
		grep "CONSOLE" "$1" >&2
		fail "console messages"
	fi
}


# bins_range PAGE A B: FROM:TO (seconds, for --time and #time=) of bins
# A to B of PAGE's "nr-data" (Python expressions of n, its bin count)
bins_range() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script type="application/json" id="nr-data">(.*?)</script>', html, re.S).group(1))
w = d["seconds"] / d["bins"]
a, b = eval(sys.argv[2], {"n": d["bins"]}), eval(sys.argv[3], {"n": d["bins"]})
print("%.9f:%.9f" % (w * a, w * b))
PY
}
