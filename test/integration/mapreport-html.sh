#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --html FILE: one self-contained file (nothing fetched: no
# http(s):// or // in src or href, no <link>, no @import or url()), with
# the run summary, the flame graph's data, a chart per metric that has
# values, thread activity, top functions and the plugin and metric
# errors; on the metrics scenario of test/common/mklog, on a random
# synthetic log, and on a real run of test/programs/threadsrun under
# mapsample.  The page in a browser: mapreport-html-browser.sh.
set -eu

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
mapreport=$top_builddir/cmd/mapreport/mapreport
mapsample=$top_builddir/cmd/mapsample/mapsample
mklog=$top_builddir/test/common/mklog
programs=$top_builddir/test/programs

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# html LOG OUT: mapreport --html OUT LOG, which must exit 0; the text
# report in OUT.txt.
html() {
	set +e
	"$mapreport" --html "$2" "$1" >"$2.txt" 2>"$2.err"
	rc=$?
	set -e
	[ "$rc" = 0 ] || {
		cat "$2.err" >&2
		fail "$1: mapreport --html exited $rc"
	}
	[ -s "$2" ] || fail "$2: not written"
}

# self_contained FILE: nothing in FILE loads from elsewhere.
self_contained() {
	if grep -Eiq "(src|href|action|data)[[:space:]]*=[[:space:]]*[\"']?[[:space:]]*(https?:)?//" "$1"; then
		grep -Eio ".{0,40}(src|href)=[\"']?(https?:)?//.{0,40}" "$1" >&2
		fail "$1: refers to another host"
	fi
	if grep -Eiq "https?://" "$1"; then
		grep -Eio ".{0,40}https?://.{0,40}" "$1" | head -5 >&2
		fail "$1: holds a URL"
	fi
	if grep -Eiq "<link|@import|url\(|<iframe|<object|<embed|<script[^>]*src=" "$1"; then
		fail "$1: loads a stylesheet, frame or script"
	fi
	grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$1" ||
		fail "$1: no Content-Security-Policy"
	# scripts: the JSON data (the flame graph's, the function view's, the
	# narrowing's when there are samples) and the code, nothing else
	[ "$(grep -o '<script' "$1" | wc -l)" = \
		"$(($(grep -o '<script type="application/json" id="[a-z]*-data">' "$1" | wc -l) + 1))" ] ||
		fail "$1: scripts other than the data and the code"
	[ "$(grep -o '<script nonce="[0-9a-f]*">' "$1" | wc -l)" = 1 ] ||
		fail "$1: not one script of code"
}

# charts FILE: the number of metric charts in FILE.
charts() {
	grep -o '<figure class="chart"' "$1" | wc -l | tr -d ' '
}

test_metrics_scenario() {
	"$mklog" --metrics "$tmp/m.log" >/dev/null
	html "$tmp/m.log" "$tmp/m.html"
	f=$tmp/m.html
	self_contained "$f"
	# only the report file was written
	[ "$(ls "$tmp" | grep -c '\.html$')" = 1 ] || fail "more than one file"
	# the summary, readable as it stands
	grep -q '<section id="summary">' "$f" || fail "no summary"
	grep -q "synthapp --size large &#39;input file.dat&#39;" "$f" ||
		fail "no command line"
	grep -q "<th>Host</th><td>node001.example</td>" "$f" || fail "no host"
	grep -q "39 samples, 0 dropped" "$f" || fail "no sample count"
	grep -q "2 processes, 3 threads" "$f" || fail "no process count"
	# the text report still goes to standard output
	grep -q "^mapsample report" "$f.txt" || fail "no text report"
	# flame graph data: all 39 samples
	grep -q '<script type="application/json" id="fg-data">' "$f" ||
		fail "no flame graph data"
	grep -q '{"total":39,"names":\["all","synthapp"' "$f" ||
		fail "flame graph data: wrong total or root"
	grep -q '<noscript>' "$f" || fail "no call tree for readers without JavaScript"
	# a chart per metric with values (Flaky counter has none)
	[ "$(charts "$f")" = 7 ] || fail "$(charts "$f") charts, want 7"
	for m in "CPU utilization" "Read rate" "Node power" \
		"com.example.syscalls" "RSS" "Lock wait" "CPU busy"; do
		grep -q "<figcaption>$m" "$f" || fail "no chart of $m"
	done
	grep -q "<figcaption>Flaky counter" "$f" && fail "a chart without values"
	# two processes: the band is per process
	grep -q "2 processes: line = mean of the processes" "$f" ||
		fail "no per-process band"
	# the charts' values: 5 % to 90.5 %
	grep -q 'min 5 % &middot; mean 36.8 % &middot; max 90.5 %' "$f" ||
		fail "CPU utilization row"
	# thread activity: one lane per thread with samples
	[ "$(grep -o 'class="lane"' "$f" | wc -l)" = 3 ] || fail "activity lanes"
	# top functions, with locations
	grep -q '<h3>By self samples</h3>' "$f" || fail "no top functions"
	grep -q '(libm.so.6)</td>' "$f" || fail "no module in locations"
	# the errors
	grep -q '<td class="f">libbroken.so</td><td>could not open /sys/class/powercap</td><td class="n">2</td>' "$f" ||
		fail "plugin error"
	grep -q '<td>Flaky counter</td><td class="n">13</td><td>counter read failed: EIO</td>' "$f" ||
		fail "metric error"
}

test_random_log() {
	"$mklog" -n 20000 -p 2 -t 4 -s 3 "$tmp/r.log" >/dev/null
	html "$tmp/r.log" "$tmp/r.html"
	f=$tmp/r.html
	self_contained "$f"
	grep -q '{"total":20000,' "$f" || fail "random log: flame graph total"
	# 2 processes x 4 threads
	[ "$(grep -o 'class="lane"' "$f" | wc -l)" = 8 ] ||
		fail "random log: activity lanes"
	# its two metrics (RSS, I/O rate) have charts
	[ "$(charts "$f")" = 2 ] || fail "random log: $(charts "$f") charts"
	# the log's 10 user marks: listed, and drawn on the charts and on
	# the thread activity chart
	grep -q "<h3>Marks</h3>" "$f" || fail "random log: no marks"
	[ "$(grep -o '<line class="mark"' "$f" | wc -l)" = 30 ] ||
		fail "random log: marks on the charts"
}

test_real_run() {
	if [ ! -x "$programs/threadsrun" ]; then
		echo "real run skipped: $programs/threadsrun not built"
		return 0
	fi
	set +e
	"$mapsample" -q -o "$tmp/t.log" -- "$programs/threadsrun" 3 0.6 \
		</dev/null >"$tmp/t.out" 2>"$tmp/t.err"
	rc=$?
	set -e
	[ "$rc" = 0 ] || {
		cat "$tmp/t.err" >&2
		fail "mapsample threadsrun exited $rc"
	}
	html "$tmp/t.log" "$tmp/t.html"
	f=$tmp/t.html
	self_contained "$f"
	grep -q '<section id="summary">' "$f" || fail "real run: no summary"
	grep -q 'threadsrun 3 0.6</td>' "$f" || fail "real run: no command"
	grep -q '"names":\["all","threadsrun"' "$f" ||
		fail "real run: flame graph data"
	grep -q '"work"' "$f" || fail "real run: no frame of work()"
	grep -q 'threadsrun.c:[0-9]*</span>' "$f" ||
		fail "real run: no source location"
	# as many charts as metrics with values in the text report
	want=$(awk '/^Metrics:/ { s = 1; getline; next }
		s && NF == 0 { s = 0 } s && /^  [A-Z]/ && $(NF-1) ~ /^[0-9]+$/ &&
		$(NF-1) > 0 { n++ } END { print n + 0 }' "$f.txt")
	[ "$want" -gt 0 ] || fail "real run: no metrics in the text report"
	[ "$(charts "$f")" = "$want" ] ||
		fail "real run: $(charts "$f") charts for $want metrics"
	# the main thread and three workers
	[ "$(grep -o 'class="lane"' "$f" | wc -l)" -ge 3 ] ||
		fail "real run: activity lanes"
}

test_bad_path() {
	"$mklog" --metrics "$tmp/b.log" >/dev/null
	set +e
	"$mapreport" --html "$tmp/no/such/dir/x.html" "$tmp/b.log" \
		>"$tmp/b.out" 2>"$tmp/b.err"
	rc=$?
	set -e
	[ "$rc" = 1 ] || fail "unwritable --html path: exit $rc, want 1"
	grep -q "^mapreport: $tmp/no/such/dir/x.html: cannot write: " \
		"$tmp/b.err" || fail "unwritable --html path: message"
	grep -q "^mapsample report" "$tmp/b.out" ||
		fail "unwritable --html path: no text report"
	# --html needs a file name (leak checks off: a sanitizer build
	# must not turn mapreport's usage exit into its own)
	set +e
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		"$mapreport" "$tmp/b.log" --html >/dev/null 2>"$tmp/u.err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "--html without FILE: exit $rc, want 2"
	grep -q "^mapreport: option --html needs a value; see mapreport --help$" \
		"$tmp/u.err" || fail "--html without FILE: message"
}

test_metrics_scenario
test_random_log
test_real_run
test_bad_path
echo "mapreport-html: all cases passed"
