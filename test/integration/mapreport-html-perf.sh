#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The HTML page's performance summary follows a selection, in headless
# Chromium: narrowed to a time range on the page's bins (#time=FROM:TO),
# a process, or a process and a time range, the page shows in place of
# the whole run's summary the verdict, the CPU seconds and process
# count, the compute, MPI and I/O shares and the advice of mapreport
# --json with the same --time and --pid (its "performance" object),
# sentence for sentence.  The runs: Debian's python3 with a forked child
# (compute-bound: load imbalance, the hottest function), two
# test/programs/iowrite processes (I/O time, the bytes of the io
# plugin's metrics) and, when MPICH is installed, test/programs/mpiwork
# on 3 ranks (MPI-bound: the time-in-MPI metric, collective and
# point-to-point calls).  Before, the page kept the whole run's summary
# with a note, and the selection's split of its samples under it.
# Skipped (77) when no Chromium is installed.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/html-browser-lib.sh"


# case_sel PAGE LABEL HASH "MAPREPORT ARGS" LOG...: the page narrowed by
# HASH shows the performance summary of mapreport --json ARGS LOG...
case_sel() {
	page=$1 label=$2 hash=$3 args=$4
	shift 4
	# shellcheck disable=SC2086
	"$mapreport" --json="$tmp/want.json" $args "$@" >/dev/null 2>&1 ||
		fail "$label: mapreport --json $args failed"
	chrome "$tmp/sel.dom" "$tmp/sel.err" --dump-dom "file://$page#$hash"
	no_console "$tmp/sel.err"
	grep -q 'data-narrowed="yes"' "$tmp/sel.dom" || fail "$label: page not narrowed"
	python3 - "$tmp/sel.dom" "$tmp/want.json" "$label" <<'PY' ||
import html as h, json, re, sys
dom, want, label = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))["performance"], sys.argv[3]
sec = re.search(r'<section id="performance">(.*?)</section>', dom, re.S).group(1)
box = re.search(r'<div class="nr-whole nr-perf-sel">(.*?)</div>', sec, re.S)
assert box, "no performance summary of the selection"
b = box.group(1)
verdict = h.unescape(re.search(r'<p class="verdict"><b>(.*?)</b>', b).group(1))
advice = [h.unescape(x) for x in re.findall(r'<li>(.*?)</li>', b)]
assert verdict == want["verdict"], (verdict, want["verdict"])
assert advice == want["advice"], (advice, want["advice"])
line = re.search(r'<p>([0-9.]+) s of [^<]* in ([0-9]+) process', b)
assert line and line.group(1) == "%.3f" % want["seconds"], (line and line.group(1), want["seconds"])
shares = [float(x) for x in re.findall(r'<td class="n">([0-9.]+)%', b)]
exp = [want["compute"] * 100, want["mpi"] * 100, want["io"] * 100]
assert len(shares) == 3 and all(abs(a - e) <= 0.006 for a, e in zip(shares, exp)), (shares, exp)
# the whole run's summary is hidden meanwhile
assert re.search(r'<p class="verdict nr-hid" hidden=""', sec) or re.search(r'<p class="verdict nr-hid" hidden', sec), "the whole run's verdict still shown"
print("%s: %s; %d advice" % (label, verdict, len(advice)))
PY
	fail "$label (#$hash): the performance summary is not that of mapreport --json $args"
}

# pids_of TEXT: the pids of TEXT's Processes table with samples, most
# samples first (a shell that started the programs may have a few)
pids_of() {
	awk '/^Processes/ { s = 1; next } /^$/ { s = 0 }
		s && $1 ~ /^[0-9]+$/ && $3 + 0 > 0 && !seen[$1]++ { print $3, $1 }' "$1" |
		sort -k1,1nr -k2,2n | awk '{ print $2 }'
}

test_python() {
	py=/usr/bin/python3
	[ -x "$py" ] || { echo "no $py: the python3 case skipped"; return 0; }
	cat >"$tmp/work.py" <<'PY'
import os, sys, threading
def work(k):
    s = 0
    for i in range(400000 * k):
        s += i * i % 7
ts = [threading.Thread(target=work, args=(k,)) for k in (1, 2)]
[t.start() for t in ts]
[t.join() for t in ts]
if os.fork() == 0:
    work(1)
    os._exit(0)
work(3)
os.wait()
PY
	"$mapsample" -q -o "$tmp/p.log" -- "$py" "$tmp/work.py" >/dev/null 2>"$tmp/p.err" ||
		{ cat "$tmp/p.err" >&2; fail "mapsample python3 failed"; }
	"$mapreport" --html "$tmp/p.html" "$tmp/p.log" >"$tmp/p.txt" 2>/dev/null ||
		fail "mapreport --html (python3) failed"
	set -- $(pids_of "$tmp/p.txt")
	[ $# -ge 2 ] || fail "python3: not 2 processes with samples: $*"
	r=$(bins_range "$tmp/p.html" "n // 4" "3 * n // 4")
	case_sel "$tmp/p.html" "python3, time range" "time=$r" "--time $r" "$tmp/p.log"
	case_sel "$tmp/p.html" "python3, the child" "pid=$2" "--pid $2" "$tmp/p.log"
}

test_io() {
	"$mapsample" -q -o "$tmp/io.log" -F 1000 -- sh -c \
		"'$programs/iowrite' '$tmp/a' 16384 & '$programs/iowrite' '$tmp/b' 16384; wait" \
		</dev/null >/dev/null 2>"$tmp/io.err" || { cat "$tmp/io.err" >&2; fail "iowrite: mapsample failed"; }
	"$mapreport" --html "$tmp/io.html" "$tmp/io.log" >"$tmp/io.txt" 2>/dev/null ||
		fail "mapreport --html (iowrite) failed"
	set -- $(pids_of "$tmp/io.txt")
	[ $# -ge 2 ] || fail "iowrite: not 2 processes with samples: $*"
	case_sel "$tmp/io.html" "iowrite, one process" "pid=$1" "--pid $1" "$tmp/io.log"
	r=$(bins_range "$tmp/io.html" "n // 3" "n")
	case_sel "$tmp/io.html" "iowrite, time range" "time=$r" "--time $r" "$tmp/io.log"
}

test_mpi() {
	if ! command -v mpicc.mpich >/dev/null || ! command -v mpirun.mpich >/dev/null; then
		echo "no MPICH (mpicc.mpich, mpirun.mpich): the MPI case skipped"
		return 0
	fi
	mpicc.mpich -O1 -o "$tmp/mpiwork" "$top_srcdir/test/programs/mpiwork.c" ||
		fail "mpicc.mpich cannot build mpiwork.c"
	cat >"$tmp/rank.sh" <<EOS
#!/bin/sh
exec "$mapsample" -q --metrics-dir "$top_builddir/plugins/metrics" --metrics default,mpi \
	-o "$tmp/mj.\$PMI_RANK.log" -- "$tmp/mpiwork" 3 24000000
EOS
	chmod +x "$tmp/rank.sh"
	timeout 60 mpirun.mpich -np 3 "$tmp/rank.sh" >"$tmp/mj.out" 2>"$tmp/mj.err" ||
		{ cat "$tmp/mj.out" "$tmp/mj.err" >&2; fail "mpirun.mpich -np 3 mapsample -- mpiwork failed"; }
	"$mapreport" --merge --html "$tmp/mj.html" "$tmp"/mj.*.log >"$tmp/mj.txt" 2>/dev/null ||
		fail "mapreport --html (mpiwork) failed"
	grep -q 'MPI-bound' "$tmp/mj.txt" || { cat "$tmp/mj.txt" >&2; fail "mpiwork: not MPI-bound"; }
	set -- $(pids_of "$tmp/mj.txt")
	r=$(bins_range "$tmp/mj.html" "n // 4" "3 * n // 4")
	case_sel "$tmp/mj.html" "mpiwork, time range" "time=$r" "--merge --time $r" "$tmp"/mj.*.log
	case_sel "$tmp/mj.html" "mpiwork, a rank" "pid=$2" "--merge --pid $2" "$tmp"/mj.*.log
}

test_python
test_io
test_mpi
