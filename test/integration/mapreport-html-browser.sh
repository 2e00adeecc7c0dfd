#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The page of mapreport --html in a real browser: headless Chromium
# (--headless --no-sandbox --disable-gpu) opens the report of a synthetic
# log (2 processes, 8 threads, metrics, marks) and of the metrics
# scenario.  The page must run with no console message at all (script
# errors and Content-Security-Policy refusals are console messages); its
# script must have drawn the flame graph (frames in the DOM after it ran)
# and run the search given in the address (#fg-search=...); the charts
# must be there.  Read as a browser without JavaScript reads it, the page
# must still show the summary, charts and functions, and the call tree
# instead of the flame graph.  A click on a function of the top-functions
# table (test/programs/linehot's hot_loop, given as #fn=hot_loop) must
# show its callers, its callees and its source with samples per line,
# the hottest line marked; narrowing to one thread (#tid=N) must make the
# flame graph's total and the selection's self samples per function
# those of mapreport --tid N --folded, and the thread activity chart
# must then show that thread's row alone; narrowing to a time range
# (#time=FROM:TO on the page's time bins) must give the totals of
# mapreport --time FROM:TO --folded in the same way.  The function view
# follows a selection (#time=0:HALF&fn=hot_loop): hot_loop's total and
# its callers' samples are those of --time 0:HALF --folded, its source
# lines hold fewer samples than the whole run's.  A function outside
# the page's top functions (#fn=NAME) gets its callers and callees from
# the flame graph: those of mapreport --callers/--callees NAME.  Narrowed,
# the run's facts, performance summary, ranks, MPI and metric figures
# say they are of the whole run, the run's facts get a row of the
# selection, the marks table and the metric charts follow (the charts
# and the thread activity chart zoom to the time range; a thread
# selected, the charts are of its process and say they are the whole
# process's).  Narrowed to a process (#pid=N), each metric chart shows
# that process's series, which against the whole run's chart are its
# band's ends and line, and the Ranks table marks its row.  Narrowed
# to a time range on a run of test/programs/iowrite, the selection's
# performance summary (verdict, compute/MPI/I/O shares) is that of
# --time --json.  On test/programs/
# longnames.cc (built with the C++ compiler), the tables made for a
# selection and the function view's title and call tables show the
# short names, the whole name in data-fn and the tooltip, and the whole
# names with --full-names.  Saves a screenshot (1400x2000) as
# $top_builddir/mapreport-html.png, which CI keeps as an artifact.
# Skipped (77) when no Chromium is installed: CHROMIUM names one, else
# chromium, chromium-browser or google-chrome from PATH.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/html-browser-lib.sh"
shot=$top_builddir/mapreport-html.png

test_page() {
	"$mklog" -n 20000 -p 2 -t 4 -s 3 "$tmp/r.log" >/dev/null
	"$mapreport" --html "$tmp/r.html" "$tmp/r.log" >"$tmp/r.txt" 2>&1 ||
		fail "mapreport --html failed"
	chrome "$tmp/dom" "$tmp/dom.err" --dump-dom \
		"file://$tmp/r.html#fg-search=libm"
	no_console "$tmp/dom.err"
	d=$tmp/dom
	grep -q 'data-js="ready"' "$d" || fail "the page's script did not finish"
	grep -Eq 'data-fg-nodes="[1-9][0-9]*"' "$d" ||
		fail "flame graph not drawn"
	[ "$(grep -o 'class="fr' "$d" | wc -l)" -ge 10 ] ||
		fail "flame graph: fewer than 10 frames"
	grep -q 'class="fr hl"' "$d" || fail "search: no frame highlighted"
	grep -Eq 'id="fg-status" data-matched="[1-9][0-9]*">Matched: [0-9.]+% of samples' "$d" ||
		fail "search: no matched share"
	grep -q '<div id="fg-controls">' "$d" || fail "flame graph controls hidden"
	[ "$(grep -o '<figure class="chart"' "$d" | wc -l)" = 2 ] ||
		fail "charts missing"
	grep -q '<polyline class="mean"' "$d" || fail "no chart lines"
	grep -q '<section id="activity">' "$d" || fail "no thread activity"
	check_whole "$d" whole 0

	chrome "$tmp/shot.out" "$tmp/shot.err" --screenshot="$tmp/r.png" \
		--window-size=1400,2000 --hide-scrollbars "file://$tmp/r.html"
	no_console "$tmp/shot.err"
	[ -s "$tmp/r.png" ] || fail "no screenshot"
	[ "$(od -An -tx1 -N4 "$tmp/r.png" | tr -d ' ')" = 89504e47 ] ||
		fail "screenshot is not a PNG"
	cp "$tmp/r.png" "$shot"
	echo "screenshot: $shot"
}

test_metrics_scenario() {
	"$mklog" --metrics "$tmp/m.log" >/dev/null
	"$mapreport" --html "$tmp/m.html" "$tmp/m.log" >/dev/null 2>&1 ||
		fail "mapreport --html failed"
	chrome "$tmp/mdom" "$tmp/mdom.err" --dump-dom "file://$tmp/m.html"
	no_console "$tmp/mdom.err"
	grep -q 'data-js="ready"' "$tmp/mdom" ||
		fail "scenario: the page's script did not finish"
	grep -Eq 'data-fg-nodes="[1-9]' "$tmp/mdom" ||
		fail "scenario: flame graph not drawn"
	[ "$(grep -o '<figure class="chart"' "$tmp/mdom" | wc -l)" = 7 ] ||
		fail "scenario: charts missing"
}

test_script_off() {
	# without JavaScript (headless Chromium cannot switch it off and
	# still dump the page, so the page is made into what such a browser
	# reads: scripts out, <noscript> content in): the summary, charts
	# and functions are there as written, the call tree stands in for
	# the flame graph, and the empty flame graph box stays hidden
	[ -s "$tmp/m.html" ] || fail "no page of the scenario"
	awk '/<script/ { skip = 1 } !skip { print } /<\/script>/ { skip = 0 }' \
		"$tmp/m.html" | sed -e 's/<noscript>/<div>/' \
		-e 's/<\/noscript>/<\/div>/' >"$tmp/off.html"
	grep -q '<script' "$tmp/off.html" && fail "scripts left in the copy"
	chrome "$tmp/off" "$tmp/off.err" --dump-dom "file://$tmp/off.html"
	no_console "$tmp/off.err"
	grep -q '<table class="tree">' "$tmp/off" ||
		fail "no call tree without JavaScript"
	[ "$(grep -c '<tr><td class="f" style="padding-left' "$tmp/off")" -ge 3 ] ||
		fail "call tree without rows"
	grep -q '<td>node001.example</td>' "$tmp/off" || fail "no summary"
	[ "$(grep -o '<figure class="chart"' "$tmp/off" | wc -l)" = 7 ] ||
		fail "charts missing without JavaScript"
	grep -q '<h3>By self samples</h3>' "$tmp/off" || fail "no functions"
	grep -q '<div id="fg" hidden' "$tmp/off" ||
		fail "empty flame graph box shown without JavaScript"
	grep -q '<div id="fg-controls" hidden' "$tmp/off" ||
		fail "flame graph controls shown without JavaScript"
}

# The function view after a click on hot_loop in the table of top
# functions: callers, callees, source lines with samples, a hot line.
test_function_view() {
	[ -x "$programs/linehot" ] ||
		fail "$programs/linehot missing: run 'make check' first"
	"$mapsample" -q -o "$tmp/lh.log" -F 1000 -- "$programs/linehot" 150 \
		</dev/null >/dev/null 2>"$tmp/lh.err" || {
		cat "$tmp/lh.err" >&2
		fail "linehot: mapsample failed"
	}
	"$mapreport" --html "$tmp/lh.html" "$tmp/lh.log" >/dev/null 2>&1 ||
		fail "mapreport --html (linehot) failed"
	chrome "$tmp/fdom" "$tmp/fdom.err" --dump-dom \
		"file://$tmp/lh.html#fn=hot_loop"
	no_console "$tmp/fdom.err"
	f=$tmp/fdom
	grep -q 'data-js="ready"' "$f" || fail "function view: script did not finish"
	grep -q '<div id="fn-view" data-fn="hot_loop">' "$f" ||
		fail "function view: hot_loop not shown after the click"
	grep -q '<h3>Callers (who calls it)</h3>' "$f" || fail "no callers"
	grep -q '<h3>Callees (whom it calls)</h3>' "$f" || fail "no callees"
	grep -Eq '<table class="calls">.*<td class="f">main</td>' "$f" ||
		fail "main not among hot_loop's callers"
	[ "$(grep -o '<tr class="src[^"]*" data-line="[0-9]*" data-self="[1-9]' "$f" | wc -l)" -ge 2 ] ||
		fail "fewer than 2 source lines with samples"
	grep -q '<tr class="src hot top"' "$f" || fail "no hottest line marked"
	grep -q 'HOT BEGIN' "$f" || fail "source code not shown"
}

# The function view follows a selection: hot_loop of linehot in the
# first half of the run (#time=0:HALF&fn=hot_loop) has the total and
# the callers of mapreport --time 0:HALF --folded (stacks holding
# hot_loop; those holding main;hot_loop), and its source lines the
# selection's samples, fewer than the whole run's.
test_function_view_narrowed() {
	[ -s "$tmp/lh.html" ] || fail "no page of linehot"
	half=$(python3 - "$tmp/lh.html" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="nr-data">(.*?)</script>', html, re.S)
d = json.loads(m.group(1))
print("%.9f" % (d["seconds"] / d["bins"] * (d["bins"] // 2)))
PY
)
	"$mapreport" --time "0:$half" --folded "$tmp/lh.log" >"$tmp/lhf" 2>/dev/null ||
		fail "mapreport --time 0:$half --folded failed"
	total=$(awk '/(^|;)hot_loop(;| )/ { s += $NF } END { print s + 0 }' "$tmp/lhf")
	bymain=$(awk '/(^|;)main;hot_loop(;| )/ { s += $NF } END { print s + 0 }' "$tmp/lhf")
	[ "$total" -gt 0 ] || { cat "$tmp/lhf" >&2; fail "no hot_loop in the first half"; }
	chrome "$tmp/fndom" "$tmp/fndom.err" --dump-dom \
		"file://$tmp/lh.html#time=0:$half&fn=hot_loop"
	no_console "$tmp/fndom.err"
	f=$tmp/fndom
	grep -q "<div id=\"fn-view\" data-fn=\"hot_loop\" data-narrowed=\"yes\" data-self=\"[0-9]*\" data-total=\"$total\">" "$f" || {
		grep -o '<div id="fn-view"[^>]*>' "$f" >&2
		fail "function view in the selection: hot_loop's total is not $total (--time --folded)"
	}
	python3 - "$f" "$tmp/fdom" "$bymain" <<'PY' || fail "function view: callers or source lines do not follow the selection"
import re, sys
def view(path):
    page = open(path).read()
    callers = re.search(r'<h3>Callers \(who calls it\)</h3><table class="calls">(.*?)</table>', page, re.S).group(1)
    rows = dict(re.findall(r'<td class="f">([^<]*)</td><td class="n">([0-9,]+)</td>', callers))
    lines = [int(x) for x in re.findall(r'<tr class="src[^"]*" data-line="[0-9]*" data-self="([0-9]+)"', page)]
    return rows, lines
rows, lines = view(sys.argv[1])
whole_rows, whole_lines = view(sys.argv[2])
want = int(sys.argv[3])
assert int(rows.get("main", "0").replace(",", "")) == want, (rows, want)
assert int(whole_rows["main"].replace(",", "")) > want, (whole_rows, want)
assert 0 < sum(lines) < sum(whole_lines), (sum(lines), sum(whole_lines))
PY
}

# Narrowed to one thread: the graph's total and the self samples of the
# selection's functions are those of --tid N --folded.
test_narrow() {
	[ -s "$tmp/r.html" ] || fail "no page of the synthetic log"
	tid=$(awk '/^Threads/ { s = 1; next } s && $3 ~ /^[0-9]+$/ && $1 ~ /^[0-9]+$/ { print $3; exit }' \
		"$tmp/r.txt")
	[ -n "$tid" ] || { cat "$tmp/r.txt" >&2; fail "no thread id in the text report"; }
	"$mapreport" --tid "$tid" --folded "$tmp/r.log" >"$tmp/tf" 2>/dev/null ||
		fail "mapreport --tid $tid --folded failed"
	want=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/tf")
	chrome "$tmp/ndom" "$tmp/ndom.err" --dump-dom "file://$tmp/r.html#tid=$tid"
	no_console "$tmp/ndom.err"
	n=$tmp/ndom
	grep -q 'data-narrowed="yes"' "$n" || fail "narrowing: page not narrowed"
	got=$(sed -n 's/.*id="fg"[^>]*data-fg-total="\([0-9]*\)".*/\1/p' "$n")
	[ "$got" = "$want" ] ||
		fail "narrowing to thread $tid: flame graph total ${got:-none}, --folded $want"
	grep -q "<div id=\"fn-narrowed\" data-total=\"$want\">" "$n" ||
		fail "narrowing: the functions' selection total is not $want"
	check_whole "$n" tid "$want" "$tid"
	# self per function: the last frame of each folded stack
	awk '{ c = $NF; $NF = ""; n = split($0, f, ";"); sub(/ +$/, "", f[n])
		s[f[n]] += c } END { for (k in s) print k, s[k] }' "$tmp/tf" |
		sort >"$tmp/tself"
	tr '<' '\n' <"$n" | awk '
		/^table class="funcs nr-self"/ { s = 1 }
		/^\/table/ { s = 0 }
		s && /^tr data-self=/ { split($0, q, "\""); self = q[2] }
		s && /^td class="f">/ { sub(/^td class="f">/, ""); print $0, self }' |
		sort >"$tmp/hself"
	[ -s "$tmp/hself" ] || fail "narrowing: no table of functions"
	join "$tmp/hself" "$tmp/tself" | awk '$2 != $3 { bad = 1; print }
		END { exit bad }' >&2 ||
		fail "narrowing: self samples differ from --tid $tid --folded"
	[ "$(join "$tmp/hself" "$tmp/tself" | wc -l)" = "$(wc -l <"$tmp/hself")" ] ||
		fail "narrowing: functions not in --tid $tid --folded"
	# rows of other threads hidden
	grep -q "<tr data-pid=\"[0-9]*\" data-tid=\"$tid\" data-proc=\"[0-9]*\">" "$n" ||
		fail "narrowing: the thread's row hidden"
	grep -q '<tr data-pid="[0-9]*" data-tid="[0-9]*" data-proc="[0-9]*" hidden' "$n" ||
		fail "narrowing: other threads' rows shown"
	# the thread activity chart: the thread's row shown at the top,
	# the others hidden
	grep -Eq "<g class=\"act-row\" data-pid=\"[0-9]+\" data-tid=\"$tid\" data-proc=\"[0-9]+\" transform=\"translate\(0,-?[0-9.]+\)\">" "$n" ||
		fail "narrowing: the thread's row of the activity chart not shown"
	[ "$(grep -Eo '<g class="act-row" data-pid="[0-9]+" data-tid="[0-9]+" data-proc="[0-9]+"[^>]* display="none"' "$n" | wc -l)" -ge 7 ] ||
		fail "narrowing: other threads' rows of the activity chart shown"
	grep -Eq '<svg [^>]*data-rowh="16"[^>]*data-rows="1"' "$n" ||
		fail "narrowing: the activity chart does not hold one row"
}

# Narrowed to a time range given in the address: the graph's total and
# the selection's self samples per function are those of mapreport
# --time FROM:TO --folded, FROM and TO on the page's time bins.
test_narrow_time() {
	[ -s "$tmp/r.html" ] || fail "no page of the synthetic log"
	range=$(python3 - "$tmp/r.html" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="nr-data">(.*?)</script>', html, re.S)
d = json.loads(m.group(1))
w = d["seconds"] / d["bins"]
print("%.9f:%.9f" % (w * (d["bins"] // 4), w * (3 * d["bins"] // 4)))
PY
)
	"$mapreport" --time "$range" --folded "$tmp/r.log" >"$tmp/tt" 2>/dev/null ||
		fail "mapreport --time $range --folded failed"
	want=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/tt")
	all=$(sed -n 's/.*id="fg"[^>]*data-fg-total="\([0-9]*\)".*/\1/p' "$tmp/dom")
	[ "$want" -gt 0 ] && [ "$want" -lt "${all:-0}" ] ||
		fail "--time $range keeps $want samples of ${all:-?}"
	chrome "$tmp/tdom" "$tmp/tdom.err" --dump-dom "file://$tmp/r.html#time=$range"
	no_console "$tmp/tdom.err"
	n=$tmp/tdom
	grep -q 'data-narrowed="yes"' "$n" || fail "time range: page not narrowed"
	got=$(sed -n 's/.*id="fg"[^>]*data-fg-total="\([0-9]*\)".*/\1/p' "$n")
	[ "$got" = "$want" ] ||
		fail "time range $range: flame graph total ${got:-none}, --time --folded $want"
	grep -q "<div id=\"fn-narrowed\" data-total=\"$want\">" "$n" ||
		fail "time range: the functions' selection total is not $want"
	check_whole "$n" time "$want" "$range"
	awk '{ c = $NF; $NF = ""; n = split($0, f, ";"); sub(/ +$/, "", f[n])
		s[f[n]] += c } END { for (k in s) print k, s[k] }' "$tmp/tt" |
		sort >"$tmp/ttself"
	tr '<' '\n' <"$n" | awk '
		/^table class="funcs nr-self"/ { s = 1 }
		/^\/table/ { s = 0 }
		s && /^tr data-self=/ { split($0, q, "\""); self = q[2] }
		s && /^td class="f">/ { sub(/^td class="f">/, ""); print $0, self }' |
		sort >"$tmp/thself"
	[ -s "$tmp/thself" ] || fail "time range: no table of functions"
	join "$tmp/thself" "$tmp/ttself" | awk '$2 != $3 { bad = 1; print }
		END { exit bad }' >&2 ||
		fail "time range: self samples differ from --time $range --folded"
	[ "$(join "$tmp/thself" "$tmp/ttself" | wc -l)" = "$(wc -l <"$tmp/thself")" ] ||
		fail "time range: functions not in --time $range --folded"
}

# Long C++ names (test/programs/longnames.cc): the tables the page makes
# for a selection show the short names, the whole one in data-fn and the
# tooltip, as the tables of the whole run; with --full-names the whole
# names.
test_narrow_names() {
	cxx=${CXX:-}
	[ -n "$cxx" ] || cxx=$(command -v g++ || command -v c++ || true)
	[ -n "$cxx" ] || fail "no C++ compiler (g++) for test/programs/longnames.cc"
	"$cxx" -O1 -g -fno-omit-frame-pointer -o "$tmp/longnames" \
		"$top_srcdir/test/programs/longnames.cc" ||
		fail "$cxx cannot build test/programs/longnames.cc"
	"$mapsample" -q -o "$tmp/ln.log" -F 1000 -- "$tmp/longnames" 300 \
		</dev/null >/dev/null 2>"$tmp/ln.err" || {
		cat "$tmp/ln.err" >&2
		fail "longnames: mapsample failed"
	}
	"$mapreport" --html "$tmp/ln.html" "$tmp/ln.log" >"$tmp/ln.txt" 2>&1 ||
		fail "mapreport --html (longnames) failed"
	"$mapreport" --full-names --html "$tmp/lnf.html" "$tmp/ln.log" \
		>/dev/null 2>&1 || fail "mapreport --full-names --html failed"
	ltid=$(awk '/^Threads/ { s = 1; next } s && $3 ~ /^[0-9]+$/ && $1 ~ /^[0-9]+$/ { print $3; exit }' \
		"$tmp/ln.txt")
	[ -n "$ltid" ] || { cat "$tmp/ln.txt" >&2; fail "longnames: no thread id"; }
	chrome "$tmp/lndom" "$tmp/lndom.err" --dump-dom "file://$tmp/ln.html#tid=$ltid"
	no_console "$tmp/lndom.err"
	chrome "$tmp/lnfdom" "$tmp/lnfdom.err" --dump-dom "file://$tmp/lnf.html#tid=$ltid"
	no_console "$tmp/lnfdom.err"
	python3 - "$tmp/lndom" "$tmp/lnfdom" <<'PY' || fail "the selection's tables do not show the short names (--full-names: the whole ones)"
import html as h, re, sys
def cells(path):
    page = open(path).read()
    m = re.search(r'<div id="fn-narrowed"[^>]*>(.*?)</div>', page, re.S)
    assert m, "no selection tables in " + path
    return re.findall(r'<td class="f"([^>]*)>([^<]*)</td>', m.group(1))
short = [c for c in cells(sys.argv[1]) if "spin_hot" in h.unescape(c[1])]
assert short, "spin_hot not in the selection's tables"
for attrs, text in short:
    text = h.unescape(text)
    assert text == "Engine<...>::spin_hot(...)", text[:80]
    full = re.search(r'data-fn="([^"]*)"', attrs)
    title = re.search(r'title="([^"]*)"', attrs)
    assert full and title, attrs[:80]
    full, title = h.unescape(full.group(1)), h.unescape(title.group(1))
    assert full == title and len(full) > 1000 and "::spin_hot(" in full, full[:80]
longc = [c for c in cells(sys.argv[2]) if "spin_hot" in h.unescape(c[1])]
assert longc, "--full-names: spin_hot not in the selection's tables"
for attrs, text in longc:
    assert len(h.unescape(text)) > 1000 and "data-fn" not in attrs, text[:80]
PY
	# the function view: main's callees (fn-data) and the view of
	# spin_hot itself (its title) show the short name, the whole one in
	# data-fn and the tooltip; with --full-names the whole name
	full=$(python3 - "$tmp/ln.html" <<'PY'
import json, re, sys, urllib.parse
html = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="fg-data">(.*?)</script>', html, re.S)
print(urllib.parse.quote([n for n in json.loads(m.group(1))["names"] if "::spin_hot(" in n][0], safe=""))
PY
)
	chrome "$tmp/lnm" "$tmp/lnm.err" --dump-dom "file://$tmp/ln.html#fn=main"
	no_console "$tmp/lnm.err"
	chrome "$tmp/lnfm" "$tmp/lnfm.err" --dump-dom "file://$tmp/lnf.html#fn=main"
	no_console "$tmp/lnfm.err"
	chrome "$tmp/lns" "$tmp/lns.err" --dump-dom "file://$tmp/ln.html#fn=$full"
	no_console "$tmp/lns.err"
	python3 - "$tmp/lnm" "$tmp/lnfm" "$tmp/lns" <<'PY' || fail "the function view does not show the short names (--full-names: the whole ones)"
import html as h, re, sys
def view(path):
    m = re.search(r'<div id="fn-view"[^>]*>(.*?)</section>', open(path).read(), re.S)
    assert m, "no function view in " + path
    return m.group(1)
def callees(path):
    t = re.search(r'<h3>Callees \(whom it calls\)</h3><table class="calls">(.*?)</table>', view(path), re.S)
    assert t, "no callees of main in " + path
    return [(h.unescape(a), h.unescape(b)) for a, b in re.findall(r'<td class="f"([^>]*)>([^<]*)</td>', t.group(1))]
rows = [r for r in callees(sys.argv[1]) if "spin_hot" in r[1]]
assert rows, "spin_hot not among main's callees"
attrs, text = rows[0]
assert text == "Engine<...>::spin_hot(...)", text[:80]
full = re.search(r'data-fn="([^"]*)"', attrs).group(1)
assert len(full) > 1000 and re.search(r'title="([^"]*)"', attrs).group(1) == full, attrs[:80]
rows = [r for r in callees(sys.argv[2]) if "spin_hot" in r[1]]
assert rows and len(rows[0][1]) > 1000 and "data-fn" not in rows[0][0], rows[:1]
title = re.search(r'<h3 class="f"( title="[^"]*")?>([^<]*)</h3>', view(sys.argv[3]))
assert title and h.unescape(title.group(2)) == "Engine<...>::spin_hot(...)", title and title.group(2)[:80]
assert title.group(1) and len(title.group(1)) > 1000, "no whole name in the title's tooltip"
PY
}

# check_calls DOM TEXT NAME [nosrc | narrowed]: the function view in the
# page DOM shows function NAME with the total (and, narrowed, the self
# samples), the callers and the callees of mapreport --callers NAME
# --callees NAME in TEXT (the same selection); nosrc: it says its source
# lines are not in the page.
check_calls() {
	python3 - "$@" <<'PY'
import html as h, re, sys
page, text, name = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
v = re.search(r'<div id="fn-view" ([^>]*)>(.*?)</section>', page, re.S)
assert v, "no function view"
attrs, body = dict(re.findall(r'([a-z-]+)="([^"]*)"', v.group(1))), v.group(2)
assert h.unescape(attrs.get("data-fn", "")) == name, attrs
def text_rows(kind):
    global self_
    sec = re.search(r'^%s of .*?: total (\d+) samples.*?, self (\d+) .*?\n.*?\n(.*?)(?:\n\n|\Z)' % kind, text, re.S | re.M)
    assert sec, kind + " missing in the text"
    rows, self_ = {}, int(sec.group(2))
    for line in sec.group(3).split("\n"):
        f = line.split()
        if len(f) >= 3 and f[2] != "(self)":
            nm = "(program start)" if f[2] == "(none:" else f[2]
            rows[nm] = int(f[0])
    return int(sec.group(1)), rows
def page_rows(title):
    t = re.search(r'<h3>%s</h3><table class="calls">(.*?)</table>' % re.escape(title), body, re.S)
    if not t and re.search(r'<h3>%s</h3><p class="nodata">None.</p>' % re.escape(title), body):
        return {}, (0, 0)
    assert t, title + " missing in the view"
    rows = {h.unescape(a): int(b.replace(",", "")) for a, b in
            re.findall(r'<td class="f"[^>]*>([^<]*)</td><td class="n">([0-9,]+)</td>', t.group(1))}
    more = re.search(r'<td class="nodata">([0-9,]+) more</td><td class="n">([0-9,]+)</td>', t.group(1))
    return rows, (int(more.group(1).replace(",", "")), int(more.group(2).replace(",", ""))) if more else (0, 0)
total, callers = text_rows("Callers")
_, callees = text_rows("Callees")
assert int(attrs.get("data-total", -1)) == total, (attrs, total)
for title, want in (("Callers (who calls it)", callers), ("Callees (whom it calls)", callees)):
    got, (more, rest) = page_rows(title)
    assert got or not want, title + ": no rows"
    for k, n in got.items():
        assert want.get(k) == n, (title, k, n, want.get(k))
    assert len(got) + more == len(want), (title, len(got), more, len(want))
    assert sum(got.values()) + rest == sum(want.values()), title
if len(sys.argv) > 4 and sys.argv[4] == "nosrc":
    assert "no source lines embedded for this function" in body, "no word on the missing source lines"
if len(sys.argv) > 4 and sys.argv[4] == "narrowed":
    assert attrs.get("data-narrowed") == "yes", attrs
    assert int(attrs.get("data-self", -1)) == self_, (attrs, self_)
PY
}

# The function view of a function outside the page's top functions
# (fn-data holds 30): on the synthetic log (over 100 functions) a
# function of the flame graph with a caller and callees but no entry in
# fn-data, shown as an address ending in #fn=NAME shows it: its total,
# its callers and the callees shown must be those of mapreport
# --callers NAME --callees NAME (the graph keeps every frame of a run of
# 20000 samples), and the view must say its source lines are not in the
# page.
test_function_view_any() {
	[ -s "$tmp/r.html" ] || fail "no page of the synthetic log"
	name=$(python3 - "$tmp/r.html" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
def data(i):
    m = re.search(r'<script type="application/json" id="%s">(.*?)</script>' % i, html, re.S)
    return json.loads(m.group(1))
fg, fn = data("fg-data"), data("fn-data")
have = {f["name"] for f in fn["funcs"]}
raw, tot, kids, stack = fg["nodes"], {}, set(), []
for i in range(len(raw) // 3):
    nm, v, d = raw[3 * i:3 * i + 3]
    stack[d:] = [i]
    if d >= 2:
        tot[nm] = tot.get(nm, 0) + v
    if d >= 3:
        kids.add(raw[3 * stack[d - 1]])
c = sorted((t, fg["names"][k]) for k, t in tot.items()
           if fg["names"][k] not in have and k in kids and t >= 20)
print(c[-1][1] if c else "")
PY
)
	[ -n "$name" ] || fail "no function outside the page's top functions with callees"
	"$mapreport" --callers "$name" --callees "$name" "$tmp/r.log" \
		>"$tmp/any.txt" 2>/dev/null || fail "mapreport --callers $name failed"
	chrome "$tmp/anydom" "$tmp/anydom.err" --dump-dom "file://$tmp/r.html#fn=$name"
	no_console "$tmp/anydom.err"
	check_calls "$tmp/anydom" "$tmp/any.txt" "$name" nosrc ||
		fail "function view of $name (outside the top functions): not as --callers/--callees"
}

# Narrowed (thread or time range), the figures the page holds for the
# whole run only say so, the run's facts get a row of the selection,
# the marks table keeps the selection's marks, the metric charts zoom
# to the time range (or say they are the whole process's when a thread
# is chosen); on the whole-run page none of that.  check_whole DOM KIND
# SAMPLES [TID | FROM:TO].
check_whole() {
	python3 - "$@" <<'PY' || fail "narrowed ($2): whole-run figures not labelled, or tables/charts not following"
import html as h, re, sys
page, kind, want = open(sys.argv[1]).read(), sys.argv[2], int(sys.argv[3])
arg = sys.argv[4] if len(sys.argv) > 4 else ""
notes = re.findall(r'<p class="note nr-whole">([^<]*)</p>', page)
zoom = re.findall(r'<svg [^>]*class="timed"[^>]*data-zoom="([0-9.]+):([0-9.]+)"', page)
if kind == "whole":
    assert not notes and not zoom and 'class="nr-row"' not in page, (notes, zoom)
    sys.exit(0)
# the performance summary of the selection says so in its box
notes += re.findall(r'<div class="nr-whole nr-perf-sel"><p class="note">([^<]*)</p>', page)
for sec in ("The run's facts", "performance summary", "ranks' table", "MPI call", "metrics' figures"):
    assert any(sec in h.unescape(n) for n in notes), (sec, notes)
row = re.search(r'<tr class="nr-row"><th>Selection</th><td>([0-9,]+) samples', page)
assert row and int(row.group(1).replace(",", "")) == want, (row and row.group(1), want)
marks = re.findall(r'<tr data-pid="\d+" data-proc="\d+" data-tid="(\d+)" data-t="([0-9.]+)"( hidden="")?>', page)
assert marks, "no marks rows"
charts = re.findall(r'<figure class="chart".*?</figure>', re.search(r'<section id="metrics">.*?</section>', page, re.S).group(0), re.S)
assert charts, "no metric charts"
if kind == "tid":
    for tid, t, hid in marks:
        assert bool(hid) == (tid != arg), ("mark", tid, t, hid)
    assert any("the whole process" in h.unescape(n) for n in notes), notes
    assert not zoom, zoom
    # the charts are of the thread's process, said to be the whole
    # process's
    for c in charts:
        assert re.match(r'<figure class="chart"[^>]*data-proc="\d+"', c), c[:120]
        leg = h.unescape(re.search(r'<div class="legend"[^>]*>([^<]*)</div>', c).group(1))
        assert "(the whole process" in leg, leg
else:
    a, b = (float(x) for x in arg.split(":"))
    for tid, t, hid in marks:
        assert bool(hid) != (a - 1e-6 <= float(t) < b - 1e-6), ("mark", t, a, b, hid)
    # the metric charts and the thread activity chart
    assert len(zoom) == len(charts) + 1, (len(zoom), len(charts))
    for z0, z1 in zoom:
        assert abs(float(z0) - a) < 1e-5 and abs(float(z1) - b) < 1e-5, (z0, z1, a, b)
    for c in charts:
        plot = re.search(r'<g class="plot" transform="translate\(([-0-9.]+),0\) scale\(([0-9.]+),1\)">', c)
        span = float(re.search(r'data-span="([0-9.e+-]+)"', c).group(1))
        assert plot and abs(float(plot.group(2)) - span / (b - a)) < 1e-3 * span / (b - a), (plot and plot.groups(), span)
        assert re.search(r'<g class="xaxis" display="none">', c), "the run's time axis still shown"
        ticks = [float(x) for x in re.findall(r'>([0-9.]+) s</text>', re.search(r'<g class="nr-axis">(.*?)</g>', c, re.S).group(1))]
        assert len(ticks) >= 3 and min(ticks) >= a - 1e-6 and max(ticks) <= b + 1e-6, ticks
    # the thread activity chart zoomed too: every lane's cells and the
    # marks stretched by span / (TO - FROM), the run's ticks hidden, the
    # range's drawn
    act = re.search(r'<section id="activity">.*?</section>', page, re.S).group(0)
    sv = re.search(r'<svg [^>]*data-rowh[^>]*>', act).group(0)
    z = re.search(r'data-zoom="([0-9.]+):([0-9.]+)"', sv)
    assert z and abs(float(z.group(1)) - a) < 1e-5 and abs(float(z.group(2)) - b) < 1e-5, sv
    span = float(re.search(r'data-span="([0-9.e+-]+)"', sv).group(1))
    plots = re.findall(r'<g class="act-plot[^"]*"( transform="[^"]*")?>', act)
    assert len(plots) >= 9, len(plots)
    for p in plots:
        k = re.search(r'scale\(([0-9.]+),1\)', p)
        assert k and abs(float(k.group(1)) - span / (b - a)) < 1e-3 * span / (b - a), p
    foot = re.search(r'<g class="act-foot"[^>]*>(.*)</svg>', act, re.S).group(1)
    assert re.search(r'<g class="xaxis" display="none">', foot), "activity: the run's time axis still shown"
    ticks = [float(x) for x in re.findall(r'>([0-9.]+) s</text>', re.search(r'<g class="nr-axis">(.*?)</g>', foot, re.S).group(1))]
    assert len(ticks) >= 3 and min(ticks) >= a - 1e-6 and max(ticks) <= b + 1e-6, ticks
PY
}

# Narrowed to a process (#pid=N): each metric chart shows that process's
# series alone (data-proc, a legend naming it, its own y axis), drawn
# from the per-process series the page embeds.  Checked against the
# whole run's charts, which the page draws from every series: with two
# processes, in each column the whole chart's band runs from the lower
# to the higher of the two processes' means and its line is their mean;
# where one process alone has a value, the whole chart's line is it.
test_narrow_process() {
	[ -s "$tmp/r.html" ] || fail "no page of the synthetic log"
	pids=$(awk '/^Processes/ { s = 1; next } /^$/ { s = 0 } s && $1 ~ /^[0-9]+$/ { print $1 }' "$tmp/r.txt")
	[ "$(echo "$pids" | wc -l)" = 2 ] || { cat "$tmp/r.txt" >&2; fail "not 2 processes: $pids"; }
	set -- $pids
	chrome "$tmp/p1dom" "$tmp/p1dom.err" --dump-dom "file://$tmp/r.html#pid=$1"
	no_console "$tmp/p1dom.err"
	chrome "$tmp/p2dom" "$tmp/p2dom.err" --dump-dom "file://$tmp/r.html#pid=$2"
	no_console "$tmp/p2dom.err"
	python3 - "$tmp/dom" "$tmp/p1dom" "$tmp/p2dom" "$1" "$2" <<'PY' || fail "narrowed to a process: the metric charts are not that process's"
import html as h, json, re, sys
def charts(path):
    page = open(path).read()
    sec = re.search(r'<section id="metrics">.*?</section>', page, re.S).group(0)
    return re.findall(r'<figure class="chart"([^>]*)>(.*?)</figure>', sec, re.S)
def pts(s):
    return [tuple(float(v) for v in p.split(",")) for p in s.split()]
def whole_cols(body):
    # whole-run chart: x -> (line y, band high y, band low y)
    g = re.search(r'<g class="series">(.*?)</g>', body, re.S).group(1)
    cols = {}
    for band, line in zip(re.findall(r'<polygon class="band" points="([^"]*)"', g),
                          re.findall(r'<polyline class="mean" points="([^"]*)"', g)):
        b, l = pts(band), pts(line)
        n = len(l)
        for i, (x, y) in enumerate(l):
            cols[round(x, 1)] = (y, b[i][1], b[2 * n - 1 - i][1])
    for x, y1, _, y2, _, cy in re.findall(r'<line class="mean" x1="([0-9.]+)" y1="([0-9.]+)" x2="([0-9.]+)" y2="([0-9.]+)"(?:/>|></line>)<circle class="dot" cx="([0-9.]+)" cy="([0-9.]+)"', g):
        cols[round(float(x), 1)] = (float(cy), float(y2), float(y1))
    return cols
def proc_means(attrs, body, pid):
    assert 'data-proc="' in attrs, ("chart not narrowed", attrs)
    leg = h.unescape(re.search(r'<div class="legend"[^>]*>([^<]*)</div>', body).group(1))
    # "Process PID (NAME)", or a rank's name with its pid
    assert leg.startswith("Process %s " % pid) or ("(pid %s," % pid) in leg, leg
    assert re.search(r'<g class="series" display="none">', body), "the whole run's series still shown"
    assert re.search(r'<g class="yaxis" display="none">', body), "the whole run's y axis still shown"
    g = re.search(r'<g class="nr-series">(.*?)</g>', body, re.S)
    assert g, "no series of the process"
    ms = msd[re.search(r'data-metric="([^"]*)"', attrs).group(1)]
    y0, y1 = ms["y"]
    bot, top = ms["procs"][re.search(r'data-proc="(\d+)"', attrs).group(1)][:2]
    val = lambda y: bot + (y1 - y) / (y1 - y0) * (top - bot)
    out = {}
    for line in re.findall(r'<polyline class="mean" points="([^"]*)"', g.group(1)):
        for x, y in pts(line):
            out[round(x, 1)] = val(y)
    for cx, cy in re.findall(r'<circle class="dot" cx="([0-9.]+)" cy="([0-9.]+)"', g.group(1)):
        out[round(float(cx), 1)] = val(float(cy))
    # the y axis of the process drawn in place of the run's
    labels = re.findall(r'<text[^>]*>([^<]*)</text>', re.search(r'<g class="nr-yaxis">(.*?)</g>', body, re.S).group(1))
    assert len(labels) >= 2, labels
    return out, (top - bot) / (y1 - y0)
whole, p1, p2 = charts(sys.argv[1]), charts(sys.argv[2]), charts(sys.argv[3])
# the page's per-process series: the plot area, each chart's axis
raw = json.loads(re.search(r'<script type="application/json" id="ms-data">(.*?)</script>', open(sys.argv[1]).read(), re.S).group(1))
msd = {}
for e in raw["charts"]:
    e["y"] = raw["y"]
    msd[e["id"]] = e
assert len(whole) == len(p1) == len(p2) >= 2, (len(whole), len(p1), len(p2))
checked = 0
for (wa, wb), (a1, b1), (a2, b2) in zip(whole, p1, p2):
    assert "data-proc" not in wa, "whole-run chart marked as a process's"
    ms = msd[re.search(r'data-metric="([^"]*)"', wa).group(1)]
    (y0, y1), (bot, top) = ms["y"], ms["all"]
    val = lambda y: bot + (y1 - y) / (y1 - y0) * (top - bot)
    cols = whole_cols(wb)
    m1, u1 = proc_means(a1, b1, sys.argv[4])
    m2, u2 = proc_means(a2, b2, sys.argv[5])
    assert m1 and m2, "a process without values"
    assert set(cols) == set(m1) | set(m2), sorted(set(cols) ^ (set(m1) | set(m2)))[:5]
    # pixels are printed to 0.1: half of that in each chart, and the
    # quantized values of the processes (1/4095 of their axes)
    tol = 0.06 * (top - bot) / (y1 - y0) + 0.06 * max(u1, u2) + 1e-9
    for x, (ly, hi, lo) in cols.items():
        a, b = m1.get(x), m2.get(x)
        if a is None or b is None:
            one = a if b is None else b
            assert abs(val(ly) - one) <= tol, (x, val(ly), one, tol)
        else:
            assert abs(val(lo) - min(a, b)) <= tol and abs(val(hi) - max(a, b)) <= tol, (x, val(lo), val(hi), a, b, tol)
            assert abs(val(ly) - (a + b) / 2) <= tol, (x, val(ly), a, b, tol)
        checked += 1
assert checked > 20, checked
# the Ranks table of the selection: the selected process's row only
# (mapreport-html-ranks.sh checks its figures)
for path in sys.argv[2:4]:
    t = re.search(r'<table class="nr-whole ranks-sel">.*?</table>', open(path).read(), re.S)
    rows = re.findall(r'<tr[^>]* data-proc="(\d+)"', t.group(0)) if t else None
    assert rows == ["1" if path == sys.argv[2] else "2"], (path, rows)
PY
	# the metrics table: the selected process's rows, those of the text
	# report's --pid
	for p in 1 2; do
		eval "pid=\$$p"
		"$mapreport" --pid "$pid" "$tmp/r.log" >"$tmp/pm$p.txt" 2>/dev/null ||
			fail "mapreport --pid $pid failed"
		python3 - "$tmp/p${p}dom" "$tmp/pm$p.txt" "$p" <<'PY' || fail "narrowed to process $pid: the metrics table is not that of --pid $pid"
import html as h, re, sys
page, text, num = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
t = re.search(r'<table class="msum">(.*?)</table>', page, re.S).group(1)
bodies = re.findall(r'<tbody([^>]*)>(.*?)</tbody>', t, re.S)
shown = [b for a, b in bodies if "hidden" not in a]
assert len(shown) == 1, [a for a, b in bodies]
assert [a for a, b in bodies if "hidden" not in a][0].strip() == 'data-proc="%s"' % num, bodies[0][0]
rows = re.findall(r'<tr>(.*?)</tr>', shown[0], re.S)
lines = {" ".join(l.split()) for l in text.split("\n")}
assert len(rows) >= 2, rows
for r in rows:
    cells = [h.unescape(c) for c in re.findall(r'<td[^>]*>([^<]*)</td>', r)][:7]
    want = " ".join(" ".join(cells).split())
    assert want in lines, (want, sorted(l for l in lines if l.startswith(cells[0]))[:3])
note = re.findall(r'<p class="note nr-whole">([^<]*)</p>\s*<table class="msum">', page)
assert note and note[0].startswith("The metrics' figures of the selected process"), note
PY
	done
}

# The performance summary follows a selection: on a run of
# test/programs/iowrite (time in write and read calls, its writes
# first), narrowed to a time range on the page's bins (from an eighth to
# half of the run), the selection's verdict and compute, MPI and I/O
# shares are those of mapreport --time FROM:TO --json's performance
# object (mapreport-html-perf.sh checks the advice on more runs).
test_narrow_perf() {
	[ -x "$programs/iowrite" ] ||
		fail "$programs/iowrite missing: run 'make check' first"
	"$mapsample" -q -o "$tmp/io.log" -F 2000 -- "$programs/iowrite" \
		"$tmp/io.data" 100000 </dev/null >/dev/null 2>"$tmp/io.err" || {
		cat "$tmp/io.err" >&2
		fail "iowrite: mapsample failed"
	}
	rm -f "$tmp/io.data"
	"$mapreport" --html "$tmp/io.html" "$tmp/io.log" >/dev/null 2>&1 ||
		fail "mapreport --html (iowrite) failed"
	range=$(python3 - "$tmp/io.html" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="nr-data">(.*?)</script>', html, re.S)
d = json.loads(m.group(1))
w = d["seconds"] / d["bins"]
print("%.9f:%.9f" % (w * (d["bins"] // 8), w * (d["bins"] // 2)))
PY
)
	"$mapreport" --time "$range" --json "$tmp/io.log" >"$tmp/io.json" 2>/dev/null ||
		fail "mapreport --time $range --json failed"
	"$mapreport" --time "$range" --folded "$tmp/io.log" >"$tmp/io.folded" 2>/dev/null ||
		fail "mapreport --time $range --folded failed"
	want=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/io.folded")
	chrome "$tmp/iodom" "$tmp/iodom.err" --dump-dom "file://$tmp/io.html#time=$range"
	no_console "$tmp/iodom.err"
	python3 - "$tmp/iodom" "$tmp/io.json" "$want" <<'PY' || fail "time range $range: the performance summary is not that of --time --json"
import html as h, json, re, sys
page, perf, want = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))["performance"], int(sys.argv[3])
box = re.search(r'<div class="nr-whole nr-perf-sel">(.*?)</div>', page, re.S)
assert box, "no performance summary of the selection"
verdict = h.unescape(re.search(r'<p class="verdict"><b>(.*?)</b>', box.group(1)).group(1))
assert verdict == perf["verdict"], (verdict, perf["verdict"])
rows = dict((k, float(v)) for k, v in re.findall(r'<tr><th>([^<]*)</th><td class="n">([0-9.]+)%', box.group(1)))
for k, j in (("Compute", "compute"), ("MPI", "mpi"), ("I/O", "io")):
    assert abs(rows[k] - perf[j] * 100) <= 0.006, (k, rows[k], perf[j])
assert rows["I/O"] > 0 and rows["Compute"] > 0 and want > 0, ("no I/O or no compute in the range: a weak check", rows)
PY
}

# Where the page's frames are coarser than the run's stacks (a run of
# 40000 samples or more: the flame graph leaves out frames under 1/20000
# of them), a selection's function view and tables still count every
# stack: on a log of 50000 samples over 2000 stacks, narrowed to one
# thread (#tid=N&fn=NAME), a function the flame graph has no frame of
# (only the page's nodes left out of it name it) and the thread's hottest
# function show the self, total, callers and callees of mapreport
# --tid N --callers NAME --callees NAME, and the selection's tables
# of functions give their rows the self and total samples of mapreport
# --tid N's tables; unnarrowed, the first shows the whole run's.  The
# page says nothing of merged frames there.  On a recursion through 3
# functions on 16 threads (mklog --recursive, 400000 samples), whose
# cells must merge deep frames, the page's exact call data gives a
# thread's hottest function the calls of mapreport --tid N --callers.
test_function_view_exact() {
	"$mklog" -n 50000 -p 1 -t 2 -k 2000 -s 7 "$tmp/c.log" >/dev/null
	"$mapreport" --html "$tmp/c.html" "$tmp/c.log" >"$tmp/c.txt" 2>&1 ||
		fail "mapreport --html (50000 samples) failed"
	ctid=$(awk '/^Threads/ { s = 1; next } s && $3 ~ /^[0-9]+$/ && $1 ~ /^[0-9]+$/ { print $3; exit }' "$tmp/c.txt")
	# the function of the selection with the most self samples that the
	# flame graph has no frame of, and the selection's hottest one,
	# from the page's cells of the call tree's nodes (decoded as
	# narrow.js decodes them)
	names=$(python3 - "$tmp/c.html" "$ctid" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
def data(i):
    m = re.search(r'<script type="application/json" id="%s">(.*?)</script>' % i, html, re.S)
    return json.loads(m.group(1))
fg, nr = data("fg-data"), data("nr-data")
kept = len(fg["nodes"]) // 3
names = fg["names"] + nr["xnames"]
th = [i for i, t in enumerate(nr["threads"]) if t[1] == int(sys.argv[2])]
END, MORE = "0123456789abcdefghijklmnopqrstuv", "wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"
s, pos = "".join(nr["ext"]), 0
def num():
    global pos
    v = 0
    while s[pos] in MORE:
        v, pos = v * 32 + MORE.index(s[pos]), pos + 1
    v, pos = v * 32 + END.index(s[pos]), pos + 1
    return v
name = [fg["nodes"][3 * i] for i in range(kept)]
while pos < len(s):
    num()
    name.append(num())
c, self_ = nr["cells"], {}
for i in range(0, len(c), 4):
    if c[i + 1] in th:
        self_[name[c[i]]] = self_.get(name[c[i]], 0) + c[i + 3]
extra = [k for k in self_ if k >= len(fg["names"])]
if not extra:
    sys.exit("no function outside the flame graph in the thread")
print(names[max(extra, key=lambda k: (self_[k], -k))])
print(names[max(self_, key=lambda k: (self_[k], -k))])
PY
) || fail "page of 50000 samples: no call data for a function outside the flame graph ($names)"
	for name in $names; do
		"$mapreport" --tid "$ctid" --callers "$name" --callees "$name" "$tmp/c.log" \
			>"$tmp/ce.txt" 2>/dev/null || fail "mapreport --tid $ctid --callers $name failed"
		chrome "$tmp/cdom" "$tmp/cdom.err" --dump-dom "file://$tmp/c.html#tid=$ctid&fn=$name"
		no_console "$tmp/cdom.err"
		check_calls "$tmp/cdom" "$tmp/ce.txt" "$name" narrowed ||
			fail "function view of $name in thread $ctid (50000 samples): not as --tid $ctid --callers/--callees"
		! grep -q '<p class="note fn-coarse">' "$tmp/cdom" ||
			fail "function view with exact call data says frames merge"
	done
	# and the whole run's calls of the function the graph leaves out
	name=$(echo "$names" | head -n 1)
	"$mapreport" --callers "$name" --callees "$name" "$tmp/c.log" \
		>"$tmp/cw.txt" 2>/dev/null || fail "mapreport --callers $name failed"
	chrome "$tmp/cwdom" "$tmp/cwdom.err" --dump-dom "file://$tmp/c.html#fn=$name"
	no_console "$tmp/cwdom.err"
	check_calls "$tmp/cwdom" "$tmp/cw.txt" "$name" ||
		fail "function view of $name (50000 samples, whole run): not as --callers/--callees"

	# a recursion on 16 threads: too many nodes for the cells, whose
	# frames deeper than a cut merge; the page's exact call data then
	# gives a thread's calls of the hottest function
	"$mklog" -n 400000 -p 1 -t 16 -k 2000 -d 30:60 -s 5 --recursive \
		"$tmp/k.log" >/dev/null
	"$mapreport" --html "$tmp/k.html" "$tmp/k.log" >"$tmp/k.txt" 2>&1 ||
		fail "mapreport --html (recursion) failed"
	grep -Eq '^\{"seconds":[0-9.e+-]+,"bins":[0-9]+,"cut":[1-9]' "$tmp/k.html" ||
		fail "recursion on 16 threads: the cells were not cut (the test no longer covers the call data)"
	grep -q '^"fn":{"keys":' "$tmp/k.html" || fail "recursion: no call data in the page"
	! grep -q '"partial":' "$tmp/k.html" || fail "recursion: call data left keys out"
	ktid=$(awk '/^Threads/ { s = 1; next } s && $3 ~ /^[0-9]+$/ && $1 ~ /^[0-9]+$/ { n++; if (n == 4) { print $3; exit } }' "$tmp/k.txt")
	"$mapreport" --tid "$ktid" "$tmp/k.log" >"$tmp/kt.txt" 2>/dev/null ||
		fail "mapreport --tid $ktid failed"
	name=$(awk '/^Top functions by self/ { s = 1; next } s && $1 ~ /^[0-9.]+%$/ { print $5; exit }' "$tmp/kt.txt")
	"$mapreport" --tid "$ktid" --callers "$name" --callees "$name" "$tmp/k.log" \
		>"$tmp/kc.txt" 2>/dev/null || fail "mapreport --tid $ktid --callers $name failed"
	chrome "$tmp/kdom" "$tmp/kdom.err" --dump-dom "file://$tmp/k.html#tid=$ktid&fn=$name"
	no_console "$tmp/kdom.err"
	check_calls "$tmp/kdom" "$tmp/kc.txt" "$name" narrowed ||
		fail "function view of $name in thread $ktid (recursion, cells cut): not as --tid $ktid --callers/--callees"
	# the selection's tables: each row's self and total as the
	# text report's tables of the thread
	python3 - "$tmp/cdom" "$tmp/ce.txt" <<'PY' || fail "tables of functions of thread $ctid (50000 samples): not as --tid $ctid"
import html as h, re, sys
page, text = open(sys.argv[1]).read(), open(sys.argv[2]).read()
want = {}
for m in re.finditer(r'^\s+[0-9.]+%\s+(\d+)\s+[0-9.]+%\s+(\d+)\s+(\S+)', text, re.M):
    want[m.group(3)] = (int(m.group(1)), int(m.group(2)))
box = re.search(r'<div id="fn-narrowed"[^>]*>(.*?)</div>', page, re.S).group(1)
rows = re.findall(r'<tr data-self="(\d+)" data-total="(\d+)">.*?<td class="f"[^>]*>([^<]*)</td>', box, re.S)
assert len(rows) >= 20, len(rows)
seen = 0
for s_, t_, nm in rows:
    nm = h.unescape(nm)
    if nm in want:
        assert want[nm] == (int(s_), int(t_)), (nm, want[nm], s_, t_)
        seen += 1
assert seen >= 20, seen
PY
}

# The Regions and MPI call statistics tables follow a selection.  On a
# run of test/programs/marks (regions phase1 and phase2 on the main
# thread, a second thread in none): narrowed to the second thread
# (#tid=N) and to a time range on the page's bins (#time=FROM:TO), the
# selection's table (rows with data-entered, data-ns, data-samples)
# holds the entries, time inside and samples of mapreport --tid N /
# --time FROM:TO --json (time within 2 us: the bins' edges in ns against
# --time's seconds), the whole run's table hidden; on the whole run's
# page no such table.  On the synthetic log (2 ranks with MPI totals),
# narrowed to a process (#pid=N), the MPI table of the selection is the
# text report's with --pid N, cell for cell; narrowed to a thread the
# note says the figures are its whole process's, to a time range the
# whole run's.
test_narrow_seltab() {
	[ -x "$programs/marks" ] ||
		fail "$programs/marks missing: run 'make check' first"
	"$mapsample" -q -o "$tmp/mk.log" -F 1000 -- "$programs/marks" 150 \
		</dev/null >/dev/null 2>"$tmp/mk.err" || {
		cat "$tmp/mk.err" >&2
		fail "marks: mapsample failed"
	}
	"$mapreport" --html "$tmp/mk.html" "$tmp/mk.log" >"$tmp/mk.txt" 2>&1 ||
		fail "mapreport --html (marks) failed"
	other=$(awk '/^Threads/ { s = 1; next } /^$/ { s = 0 } s && $1 ~ /^[0-9]+$/ && $3 != $1 { print $3; exit }' "$tmp/mk.txt")
	[ -n "$other" ] || { cat "$tmp/mk.txt" >&2; fail "marks: no second thread"; }
	range=$(python3 - "$tmp/mk.html" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="nr-data">(.*?)</script>', html, re.S)
d = json.loads(m.group(1))
w = d["seconds"] / d["bins"]
print("%.9f:%.9f" % (w * (d["bins"] // 4), w * (3 * d["bins"] // 4)))
PY
)
	chrome "$tmp/mkw" "$tmp/mkw.err" --dump-dom "file://$tmp/mk.html"
	no_console "$tmp/mkw.err"
	! grep -q '<table class="nr-whole regions-sel"' "$tmp/mkw" || fail "regions: a selection's table on the whole run's page"
	for sel in "tid=$other" "time=$range"; do
		opts="--${sel%%=*} ${sel#*=}"
		# shellcheck disable=SC2086
		"$mapreport" $opts --json "$tmp/mk.log" >"$tmp/mk.json" 2>/dev/null ||
			fail "mapreport $opts --json (marks) failed"
		chrome "$tmp/mks" "$tmp/mks.err" --dump-dom "file://$tmp/mk.html#$sel"
		no_console "$tmp/mks.err"
		python3 - "$tmp/mks" "$tmp/mk.json" "$sel" <<'PY' || fail "regions narrowed ($opts): not the figures of mapreport $opts --json"
import json, re, sys
page, want, sel = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))["regions"], sys.argv[3]
t = re.search(r'<table class="nr-whole regions-sel">(.*?)</table>', page, re.S)
assert t, "no table of the selection's regions"
assert re.search(r'<table class="regions" hidden="">', page), "the whole run's regions table still shown"
rows = {n: (int(e), int(ns), int(s)) for n, e, ns, s in re.findall(
    r'<tr data-region="([^"]*)" data-entered="(\d+)" data-ns="(\d+)" data-samples="(\d+)">', t.group(1))}
assert len(rows) == len(want) == 2, (rows, want)
for r in want:
    e, ns, s = rows[r["name"]]
    assert e == r["count"] and s == r["samples"], (sel, r, rows[r["name"]])
    assert abs(ns / 1e9 - r["seconds"]) < 2e-6, (sel, r, ns)
if sel.startswith("tid"):
    assert all(v == (0, 0, 0) for v in rows.values()), rows
else:
    assert sum(v[2] for v in rows.values()) > 0 and any(v[0] == 0 and v[1] > 0 for v in rows.values()), rows
PY
	done
	[ -s "$tmp/r.html" ] || fail "no page of the synthetic log"
	pid=$(awk '/^Processes/ { s = 1; next } /^$/ { s = 0 } s && $1 ~ /^[0-9]+$/ { p = $1 } END { print p }' "$tmp/r.txt")
	"$mapreport" --pid "$pid" "$tmp/r.log" >"$tmp/rp.txt" 2>/dev/null ||
		fail "mapreport --pid $pid failed"
	chrome "$tmp/rpdom" "$tmp/rpdom.err" --dump-dom "file://$tmp/r.html#pid=$pid"
	no_console "$tmp/rpdom.err"
	python3 - "$tmp/rpdom" "$tmp/rp.txt" "$tmp/ndom" "$tmp/tdom" <<'PY' || fail "MPI call statistics narrowed: not those of the text report with --pid $pid, or not labelled"
import html as h, re, sys
page, text = open(sys.argv[1]).read(), open(sys.argv[2]).read()
sec = text.split("\nMPI call statistics (", 1)[1].split("\n\n", 1)[0].split("\n")
nranks = int(sec[0].split()[0])
want = [re.split(r"\s{2,}", l.strip()) for l in sec[2:] if l.startswith("  MPI_")]
t = re.search(r'<table class="nr-whole mpi-sel" data-ranks="(\d+)">(.*?)</table>', page, re.S)
assert t, "no MPI table of the selection"
assert int(t.group(1)) == nranks == 1, (t.group(1), nranks)
assert re.search(r'<section id="mpi">.*?<table hidden="">', page, re.S), "the whole run's MPI table still shown"
got = [[h.unescape(c) for c in re.findall(r'<td[^>]*>([^<]*)</td>', r)]
       for r in re.findall(r'<tr data-fn[^>]*>(.*?)</tr>', t.group(2))]
assert got and got == want, (got, want)
notes = lambda p: [h.unescape(n) for n in re.findall(r'<p class="note nr-whole">([^<]*)</p>', open(p).read()) if "MPI call" in n]
tid, tim = notes(sys.argv[3]), notes(sys.argv[4])
assert any("the selected thread's whole process" in n for n in tid), tid
assert any("of the whole run, not of the selected time range" in n for n in tim), tim
assert not any("whole process" in n or "whole run" in n for n in notes(sys.argv[1])), notes(sys.argv[1])
PY
}

test_page
test_narrow
test_narrow_process
test_narrow_perf
test_narrow_time
test_narrow_seltab
test_narrow_names
test_function_view
test_function_view_narrowed
test_function_view_any
test_function_view_exact
test_metrics_scenario
test_script_off
echo "mapreport-html-browser: all cases passed"
