#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Programs that exec other programs, as wrapper scripts do
# (#!/usr/bin/env bash, exec python3 ..., pyenv shims, module systems):
# each exec'd image is a row of its own with its own samples and rate,
# and the report lists a process's images together in the order of the
# exec chain.
#
# chain3: sh burns, execs sh (found through a PATH of two missing folders
# first: three attempts), which burns less and execs python3, which burns
# too.  Each image has its own row and its threads their own CPU time;
# samples over an image's own CPU time are the rate of the others (an
# image given another's samples shows twice the rate); the chain is
# named in image order; the image that exec'd says "exec" and, in JSON,
# what it exec'd and in how many attempts.  One process is no job: no
# Ranks table.
#
# chain60: a script execs itself 59 times, burning a little each time.
# The Processes table shows the process (IMAGE 0-59, the chain) with its
# first 5 and last 5 images and one line for the 50 between (their
# samples, the images' numbers); the Threads table likewise; --images
# all lists all 60 in chain order; the HTML report does as the text.
# rawexec: see test_rawexec.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

validate=$top_srcdir/test/integration/json/validate.py

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

[ -x /usr/bin/python3 ] || { echo "SKIP: /usr/bin/python3 missing"; exit 77; }

# the line of the Processes table for a process of several images
chain_line() {
	awk '$0 == "Processes" { s = 1; getline; next }
		s && NF == 0 { s = 0 }
		s && $2 ~ /^[0-9]+-[0-9]+$/' "$tmp/$1.report"
}

# the images' programs in image order, from the JSON report, "a -> b"
# with a run of one program as "a xN", as the chain line names them
json_chain() {
	python3 - "$tmp/$1.json" <<'EOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
ps = sorted(d["processes"], key=lambda p: p["image"])
names = [os.path.basename(p["exe"] or "[unknown]") for p in ps]
out = []
i = 0
while i < len(names):
    j = i
    while j < len(names) and names[j] == names[i]:
        j += 1
    out.append(names[i] + (" x%d" % (j - i) if j - i > 1 else ""))
    i = j
print(" -> ".join(out))
EOF
}

test_chain3() {
	cat >"$tmp/stage2.sh" <<'EOF'
i=0; while [ $i -lt 120000 ]; do i=$((i+1)); done
exec /usr/bin/python3 -c '
i = 0
while i < 6000000:
    i += 1
'
EOF
	# stage 1 burns more than stage 2; stage 2, the least of the three,
	# still about 30 samples at 250 Hz (60000 loops gave 9 under asan and
	# load in ci12, below the floor of 10)
	sample c3 -F 250 -- /bin/sh -c '
i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done
PATH=/nonexistent-a:/nonexistent-b:/bin:/usr/bin; export PATH
exec sh "$0"' "$tmp/stage2.sh"
	[ "$rc" = 0 ] || { show "$tmp/c3.err"; fail "chain3: mapsample exited $rc"; }
	report c3
	"$mapreport" --json="$tmp/c3.json" "$tmp/c3.log" >/dev/null 2>"$tmp/c3.jerr" ||
		{ show "$tmp/c3.jerr"; fail "chain3: mapreport --json failed"; }
	python3 "$validate" "$top_srcdir/share/mapsample/mapreport.schema.json" \
		"$tmp/c3.json" || fail "chain3: the JSON report breaks the schema"

	# one row per image, numbered 0 1 2 under one pid, exits exec exec status 0
	got=$(processes c3 | awk '{ print $2, $4, $5 }' | sed 's/ *$//')
	want="0 exec
1 exec
2 status 0"
	[ "$got" = "$want" ] || {
		show "$tmp/c3.report"
		fail "chain3: images (image exit) are
$got
expected
$want"
	}
	[ "$(processes c3 | awk '{ print $1 }' | sort -u | wc -l)" = 1 ] ||
		{ show "$tmp/c3.report"; fail "chain3: the images are not one pid"; }
	# the process's line: IMAGE 0-2, all samples, the chain in order
	line=$(chain_line c3)
	want=$(json_chain c3)
	echo "$line" | grep -q "^ *[0-9][0-9]* *0-2 .*status 0 *exec chain of 3 images: $want\$" || {
		show "$tmp/c3.report"
		fail "chain3: no process line with the chain '$want' (got '$line')"
	}
	total=$(samples c3)
	[ "$(echo "$line" | awk '{ print $3 }')" = "$total" ] ||
		fail "chain3: the process line has not all $total samples: $line"

	# each image's samples against its own CPU time, from the JSON
	python3 - "$tmp/c3.json" <<'EOF' || { show "$tmp/c3.report"; fail "chain3: see above"; }
import json, sys
d = json.load(open(sys.argv[1]))
th = sorted(d["threads"], key=lambda t: t["image"])
ps = sorted(d["processes"], key=lambda p: p["image"])
keys = [(p["pid"], p["image"]) for p in ps]
assert len(keys) == len(set(keys)) == 3, "image numbers repeat: %s" % keys
assert [t["image"] for t in th] == [0, 1, 2], [t["image"] for t in th]
rates = sorted(t["samples"] / t["seconds"] for t in th)
mid = rates[1]
for t in th:
    assert t["measured"], "image %d: no measured CPU time" % t["image"]
    assert t["samples"] >= 10, "image %d: %d samples" % (t["image"], t["samples"])
    r = t["samples"] / t["seconds"]
    # another image's samples in this row would double its rate
    assert 0.6 * mid < r < 1.6 * mid, \
        "image %d: %.1f samples per CPU-second, the images' median %.1f" % (t["image"], r, mid)
    assert abs(t["rate_hz"] - r) < 0.5, t
# the images burnt 300000 and 120000 shell loops, then python3 6000000
assert th[0]["seconds"] > th[1]["seconds"], "image 0 burnt more than image 1"
# what each image exec'd; stage 1's search of PATH took three attempts
assert ps[0]["exec"] == {"path": "/bin/sh", "attempts": 3}, ps[0]["exec"]
assert ps[1]["exec"]["path"] == "/usr/bin/python3", ps[1]["exec"]
assert ps[2]["exec"] is None, ps[2]["exec"]
assert all(p["process_images"] == 3 for p in ps), ps
assert all(p["merged_programs"] == 0 for p in ps), ps
# one process: one row of the per-process figures, with its 3 images
rows = d["ranks"]["rows"] if d["ranks"] else []
assert len(rows) == 1 and rows[0]["images"] == 3, rows
EOF
	! grep -q "^Ranks" "$tmp/c3.report" || {
		show "$tmp/c3.report"
		fail "chain3: a Ranks table for one process"
	}
	echo "ok - chain3: three images, each its own samples and rate, chain in order"
}

test_chain60() {
	cat >"$tmp/self.sh" <<'EOF'
n=$1
i=0; while [ $i -lt 8000 ]; do i=$((i+1)); done
[ "$n" -gt 0 ] && exec /bin/sh "$0" $((n - 1))
exit 0
EOF
	sample c60 -F 1000 -- /bin/sh "$tmp/self.sh" 59
	[ "$rc" = 0 ] || { show "$tmp/c60.err"; fail "chain60: mapsample exited $rc"; }
	report c60
	"$mapreport" --json="$tmp/c60.json" "$tmp/c60.log" >/dev/null \
		2>"$tmp/c60.jerr" ||
		{ show "$tmp/c60.jerr"; fail "chain60: mapreport --json failed"; }
	python3 "$validate" "$top_srcdir/share/mapsample/mapreport.schema.json" \
		"$tmp/c60.json" || fail "chain60: the JSON report breaks the schema"
	want=$(json_chain c60)
	chain_line c60 | grep -q " 0-59 .*exec chain of 60 images: $want\$" || {
		show "$tmp/c60.report"
		fail "chain60: no process line 0-59 with the chain '$want'"
	}
	got=$(processes c60 | awk '{ print $2 }' | tr '\n' ' ')
	[ "$got" = "0 1 2 3 4 55 56 57 58 59 " ] || {
		show "$tmp/c60.report"
		fail "chain60: images listed: $got; want the first and last 5"
	}
	hidden=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(p["samples"] for p in d["processes"] if 5 <= p["image"] <= 54))' "$tmp/c60.json")
	awk '$0 == "Processes" { s = 1; next } s && NF == 0 { s = 0 }
		s && $1 == "..."' "$tmp/c60.report" >"$tmp/more"
	[ "$(wc -l <"$tmp/more")" = 1 ] &&
		grep -q "^ *\.\.\. *\.\.\. *$hidden .*50 more images (5 to 54)\$" "$tmp/more" || {
		show "$tmp/c60.report"
		fail "chain60: no line for the 50 images between, with their $hidden samples"
	}
	grep -q -- "--images all" "$tmp/c60.report" ||
		fail "chain60: the report does not say how to list them all"
	# threads: the first and last 5 images' threads, one line between
	got=$(awk '$0 == "Threads" { s = 1; getline; next } s && NF == 0 { s = 0 }
		s && ($1 ~ /^[0-9]+$/ || $1 == "...") { print $2 }' "$tmp/c60.report" |
		tr '\n' ' ')
	[ "$got" = "0 1 2 3 4 ... 55 56 57 58 59 " ] || {
		show "$tmp/c60.report"
		fail "chain60: threads listed by image: $got"
	}
	# --images all: every image, in chain order, the process line first
	report c60 --images all
	got=$(processes c60 | awk '{ print $2 }' | tr '\n' ' ')
	[ "$got" = "$(seq 0 59 | tr '\n' ' ')" ] || {
		show "$tmp/c60.report"
		fail "chain60: --images all lists $got"
	}
	! grep -q "more images" "$tmp/c60.report" ||
		fail "chain60: --images all still leaves images out"
	# each image: 8000 loops at 1 kHz; exit status 0 of the last only
	[ "$(processes c60 | awk '$4 == "exec"' | wc -l)" = 59 ] &&
		[ "$(processes c60 | awk '$4 == "status"' | wc -l)" = 1 ] ||
		fail "chain60: not 59 images that exec'd and one that exited"
	! grep -q "^Ranks" "$tmp/c60.report" ||
		fail "chain60: a Ranks table for one process"
	# the HTML report: the process row, 10 images, one row between
	"$mapreport" --html "$tmp/c60.html" "$tmp/c60.log" >/dev/null \
		2>"$tmp/c60.herr" ||
		{ show "$tmp/c60.herr"; fail "chain60: mapreport --html failed"; }
	grep -q "<tr class=\"chain\".*exec chain of 60 images: $want<" "$tmp/c60.html" ||
		fail "chain60: HTML: no process row with the chain"
	grep -q "50 more images (5 to 54)" "$tmp/c60.html" ||
		fail "chain60: HTML: no row for the 50 images between"
	echo "ok - chain60: 60 images under one process line, 10 listed, --images all"
}

# mapreport --images takes a number from 2, or all
test_option() {
	set +e
	"$mapreport" --images 1 "$tmp/c60.log" >/dev/null 2>"$tmp/opt.err"
	r=$?
	set -e
	[ "$r" = 2 ] && grep -q "^mapreport: --images 1: give a number" "$tmp/opt.err" ||
		{ show "$tmp/opt.err"; fail "--images 1: exit $r, want 2 and a message"; }
	report c60 --images 4
	[ "$(processes c60 | awk '{ print $2 }' | tr '\n' ' ')" = "0 1 58 59 " ] ||
		{ show "$tmp/c60.report"; fail "--images 4: not the first and last 2"; }
	echo "ok - --images N|all"
}

# rawexec: a program that execs itself with the execve system call made
# directly (as Go's syscall.Exec does), which the sampler's execve never
# sees: each image still gets its own number (the sampler rewrites
# MAPSAMPLE_IMAGE in place in the environment it was given), so the
# report has three rows under one pid, each with its own samples, and no
# warning that programs were counted as one.
test_rawexec() {
	need_programs rawexec
	sample rx -F 250 -- "$programs/rawexec" 2 150
	[ "$rc" = 0 ] || { show "$tmp/rx.err"; fail "rawexec: mapsample exited $rc"; }
	report rx
	got=$(processes rx | awk '{ print $2 }' | tr '\n' ' ')
	[ "$got" = "0 1 2 " ] ||
		{ show "$tmp/rx.report"; fail "rawexec: images '$got', expected '0 1 2 '"; }
	[ "$(processes rx | awk '{ print $1 }' | sort -u | wc -l)" = 1 ] ||
		{ show "$tmp/rx.report"; fail "rawexec: the images are not one pid"; }
	processes rx | awk '$3 < 10 { bad = 1 } END { exit bad }' ||
		{ show "$tmp/rx.report"; fail "rawexec: an image with fewer than 10 samples"; }
	! grep -q "wrote under this pid and image" "$tmp/rx.report" || {
		show "$tmp/rx.report"
		fail "rawexec: images counted as one"
	}
	echo "ok - an exec the sampler did not see"
}

test_chain3
test_chain60
test_option
test_rawexec
