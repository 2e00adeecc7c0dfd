#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The data the HTML report embeds for its function view and for
# narrowing (read out of the page, no browser), on a run of
# test/programs/linehot (-O2 -g, mix() inlined into hot_loop) and on a
# synthetic log of 2 processes and 8 threads:
# - hot_loop's sampled lines (line, self, total, inlined-from) are those
#   of mapreport --lines=hot_loop, and its source is embedded, escaped
#   (the lines HOT BEGIN and HOT END are there, as in the file);
# - its callers and callees are those of --callers and --callees;
# - with --html-sources 0 no source text is embedded, each file says
#   why, and the page is smaller;
# - --html-source-max and --html-sources-max cut the embedded source at
#   their sizes (the text the file's start, "cut" the bytes kept), and
#   a bad size is refused with one line naming the option and value;
# - the samples per (frame, thread, time bin) of each thread add up to
#   the counts of mapreport --tid N --folded, the frames' own samples
#   summed over all cells are the flame graph's, and every bin is
#   within the bins the page names.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

mklog=$top_builddir/test/common/mklog
tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs linehot

# page HTML OUT: the JSON data elements of HTML as one JSON object
# {"fn": fn-data, "nr": nr-data, "fg": fg-data} in OUT.
page() {
	python3 - "$1" >"$2" <<'EOF' || fail "$1: embedded data unreadable"
import json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
out = {}
for key, id_ in (("fn", "fn-data"), ("nr", "nr-data"), ("fg", "fg-data")):
    m = re.search(r'<script type="application/json" id="%s">(.*?)</script>'
                  % id_, html, re.S)
    out[key] = json.loads(m.group(1)) if m else None
json.dump(out, sys.stdout)
EOF
}

test_source_lines() {
	sample lh -F 1000 -- "$programs/linehot" 150
	[ "$rc" = 0 ] || { show "$tmp/lh.err"; fail "linehot: mapsample exited $rc"; }
	mkdir "$tmp/elsewhere"
	(cd "$tmp/elsewhere" && "$mapreport" -n 20 --html "$tmp/lh.html" \
		--lines=hot_loop --callers hot_loop --callees hot_loop \
		"$tmp/lh.log") >"$tmp/lh.txt" 2>"$tmp/lh.rerr" || {
		show "$tmp/lh.rerr"
		fail "mapreport --html --lines: exit status $?"
	}
	page "$tmp/lh.html" "$tmp/lh.json"
	# the text report's rows of hot_loop as "LINE SELF TOTAL INLINED"
	awk 'index($0, "Source lines of hot_loop (") == 1 { s = 1; next }
		s && /^Source lines of / { s = 0 }
		s && NF == 0 { s = 0 }
		s { sub(/^ \* /, "   ")
		    if ($1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+\.[0-9]+$/) {
			inl = "-"
			if (match($0, /\[inlined [^]]*\]/))
				inl = substr($0, RSTART + 9, RLENGTH - 10)
			print $5, $1, $3, inl } }' "$tmp/lh.txt" | sort >"$tmp/text.rows"
	[ -s "$tmp/text.rows" ] || { show "$tmp/lh.txt"; fail "no --lines rows"; }
	python3 - "$tmp/lh.json" >"$tmp/html.rows" <<'EOF' || fail "hot_loop not in the page's function data"
import json, sys
d = json.load(open(sys.argv[1]))["fn"]
f = [f for f in d["funcs"] if f["name"] == "hot_loop"][0]
for fi, line, self, total, inl in f["lines"]:
    if self or total:
        print(line if line > 0 else "?", self, total, inl or "-")
EOF
	sort "$tmp/html.rows" >"$tmp/html.sorted"
	cmp -s "$tmp/text.rows" "$tmp/html.sorted" || {
		diff "$tmp/text.rows" "$tmp/html.sorted" >&2 || true
		fail "hot_loop: the page's lines differ from --lines (< text, > page)"
	}
	python3 - "$tmp/lh.json" "$top_srcdir/test/programs/linehot.c" <<'EOF' || fail "source of linehot.c not embedded as it is"
import json, sys
d = json.load(open(sys.argv[1]))["fn"]
src = open(sys.argv[2], encoding="utf-8").read().split("\n")
if src and src[-1] == "":
    src.pop()
files = [f for f in d["files"] if f["name"].endswith("linehot.c")]
assert files and "text" in files[0], files
assert files[0]["text"] == src, "text differs"
assert any("HOT BEGIN" in l for l in files[0]["text"])
EOF
	# callers and callees: "FUNCTION SAMPLES" both ways
	for kind in callers callees; do
		title=Callers
		[ "$kind" = callees ] && title=Callees
		awk -v t="$title of hot_loop" 'index($0, t) == 1 { s = 1; getline; next }
			s && NF == 0 { s = 0 }
			s && $3 != "(self)" { print $3, $1 }' "$tmp/lh.txt" |
			sort >"$tmp/$kind.text"
		python3 - "$tmp/lh.json" "$kind" <<'EOF' | sort >"$tmp/$kind.html"
import json, sys
d = json.load(open(sys.argv[1]))["fn"]
f = [f for f in d["funcs"] if f["name"] == "hot_loop"][0]
for row in f[sys.argv[2]][0]:
    name, n = row[0], row[1]
    print(name, n)
EOF
		[ -s "$tmp/$kind.text" ] || { show "$tmp/lh.txt"; fail "no $kind in the text"; }
		cmp -s "$tmp/$kind.text" "$tmp/$kind.html" || {
			diff "$tmp/$kind.text" "$tmp/$kind.html" >&2 || true
			fail "hot_loop: the page's $kind differ from --$kind"
		}
	done
	grep -q '</script' "$tmp/lh.json" && fail "</script in the data"

	"$mapreport" --html "$tmp/lh0.html" --html-sources 0 "$tmp/lh.log" \
		>/dev/null 2>&1 || fail "mapreport --html-sources 0 failed"
	page "$tmp/lh0.html" "$tmp/lh0.json"
	python3 - "$tmp/lh0.json" <<'EOF' || fail "--html-sources 0: source embedded"
import json, sys
d = json.load(open(sys.argv[1]))["fn"]
assert d["files"], "no files"
for f in d["files"]:
    assert "text" not in f and f["why"], f
EOF
	[ "$(wc -c <"$tmp/lh0.html")" -lt "$(wc -c <"$tmp/lh.html")" ] ||
		fail "--html-sources 0: page not smaller"
	"$mapreport" --html "$tmp/x.html" --html-sources x "$tmp/lh.log" \
		>/dev/null 2>"$tmp/x.err" && fail "--html-sources x accepted"
	grep -q -- '--html-sources x' "$tmp/x.err" ||
		fail "--html-sources x: no message naming it"
}

# The size caps of the embedded sources (--html-source-max,
# --html-sources-max): linehot.c cut at the cap of a file, the text the
# start of the file and "cut" the bytes kept; all files together within
# the cap of all; a value that is not a size from 1 to 1G refused with
# exit status 2 and one line naming the option and the value.
test_source_caps() {
	[ -s "$tmp/lh.log" ] || fail "no log of linehot"
	src=$top_srcdir/test/programs/linehot.c
	for args in "--html-source-max 100" "--html-sources-max 100" \
		"--html-source-max 1K --html-sources-max 300"; do
		# shellcheck disable=SC2086
		"$mapreport" --html "$tmp/cap.html" $args "$tmp/lh.log" \
			>/dev/null 2>"$tmp/cap.err" || {
			show "$tmp/cap.err"
			fail "mapreport --html $args failed"
		}
		page "$tmp/cap.html" "$tmp/cap.json"
		want=100
		case $args in *300) want=300 ;; esac
		python3 - "$tmp/cap.json" "$src" "$want" <<'EOF' || fail "$args: linehot.c not cut at $want bytes"
import json, sys
d = json.load(open(sys.argv[1]))["fn"]
src = open(sys.argv[2], "rb").read()
want = int(sys.argv[3])
assert len(src) > want
f = [f for f in d["files"] if f["name"].endswith("linehot.c")][0]
assert f.get("cut") == want, f.get("cut")
text = "\n".join(f["text"]).encode()
assert text == src[:want], (text[-20:], src[want - 20:want])
size = sum(len("\n".join(x.get("text", [])).encode()) for x in d["files"])
assert size <= want, size
EOF
	done
	"$mapreport" --html "$tmp/big.html" --html-source-max 1M \
		--html-sources-max 4M "$tmp/lh.log" >/dev/null 2>&1 ||
		fail "mapreport --html with the default caps given failed"
	page "$tmp/big.html" "$tmp/big.json"
	python3 - "$tmp/big.json" "$src" <<'EOF' || fail "linehot.c cut under caps of 1M and 4M"
import json, sys
d = json.load(open(sys.argv[1]))["fn"]
f = [f for f in d["files"] if f["name"].endswith("linehot.c")][0]
assert "cut" not in f and "\n".join(f["text"]) + "\n" == open(sys.argv[2]).read()
EOF
	for opt in --html-source-max --html-sources-max; do
		for v in 0 x 2G 10Q -5 ""; do
			"$mapreport" --html "$tmp/x.html" "$opt" "$v" "$tmp/lh.log" \
				>/dev/null 2>"$tmp/x.err" && fail "$opt '$v' accepted"
			[ "$(wc -l <"$tmp/x.err")" = 1 ] &&
				grep -q -- "^mapreport: $opt $v: give a size from 1 to 1G" "$tmp/x.err" || {
				show "$tmp/x.err"
				fail "$opt '$v': not one line naming it"
			}
		done
	done
}

test_narrow_cells() {
	"$mklog" -n 20000 -p 2 -t 4 -s 3 "$tmp/r.log" >/dev/null
	"$mapreport" --html "$tmp/r.html" "$tmp/r.log" >/dev/null 2>&1 ||
		fail "mapreport --html failed"
	page "$tmp/r.html" "$tmp/r.json"
	python3 - "$tmp/r.json" >"$tmp/cells" <<'EOF' || fail "narrowing data inconsistent"
import json, sys
d = json.load(open(sys.argv[1]))
nr, fg = d["nr"], d["fg"]
nodes = fg["nodes"]
n = len(nodes) // 3
depth = [nodes[3 * i + 2] for i in range(n)]
value = [nodes[3 * i + 1] for i in range(n)]
own = value[:]
stack = []
for i in range(n):
    del stack[depth[i]:]
    if stack:
        own[stack[-1]] -= value[i]
    stack.append(i)
cells = nr["cells"]
per_node = [0] * n
per_thread = {}
for k in range(0, len(cells), 4):
    node, th, b, c = cells[k:k + 4]
    assert 0 <= b < nr["bins"], b
    per_node[node] += c
    tid = nr["threads"][th][1]
    per_thread[tid] = per_thread.get(tid, 0) + c
assert per_node == own, "cells do not add up to the flame graph's frames"
for tid, c in sorted(per_thread.items()):
    print(tid, c)
EOF
	[ "$(wc -l <"$tmp/cells")" -ge 4 ] || fail "fewer than 4 thread ids in the cells"
	while read -r tid n; do
		"$mapreport" --tid "$tid" --folded "$tmp/r.log" >"$tmp/f" 2>/dev/null ||
			fail "mapreport --tid $tid --folded failed"
		want=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/f")
		[ "$n" = "$want" ] ||
			fail "thread $tid: $n samples in the page's cells, --folded says $want"
	done <"$tmp/cells"
}

test_source_lines
test_source_caps
test_narrow_cells
echo "mapreport-html-data: all cases passed"
