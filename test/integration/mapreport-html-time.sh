#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --time FROM:TO with --html: the page's time axes span the
# range, in seconds from the run's start, not the whole run.  On the
# metrics scenario of test/common/mklog: a metric chart's axis labels run
# from FROM to TO, its columns' tooltips ("a-b s:") lie in the range, at
# the place of their time on that axis, and hold the range's values (as
# the record dump, -D, has them); the thread activity chart's axis and
# cells likewise, its cells holding the range's samples; the page says
# which range it shows.  On a random log of two processes with marks:
# only the range's marks are drawn and listed, the Ranks heat map's axis
# is the range's, the MPI call statistics say --time does not narrow
# them, and the --trace export holds only the range's marks; with --pid
# or --tid, the page and the trace hold the chosen threads' marks only.
# Without --time, the axes start at 0 s and no range is said.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"
mklog=$top_builddir/test/common/mklog

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

# what the cases' python scripts share: check(ok, what) notes a failure,
# done() says them all and exits 1 if there was one; t0(dump) is the
# run's start, the earliest record of a dump (mapreport -D, its lines
# split into fields)
cat >"$tmp/pagecheck.py" <<'PY'
import sys
bad = []
def check(ok, what):
    if not ok:
        bad.append(what)
def done():
    for b in bad:
        print("  " + b, file=sys.stderr)
    sys.exit(1 if bad else 0)
def t0(dump):
    return min(float(l[1]) for l in dump if len(l) > 3)
PY
export PYTHONPATH="$tmp"

# report LOG OUT OPTIONS...: mapreport OPTIONS --html OUT LOG, which
# must exit 0.
report() {
	log=$1 out=$2
	shift 2
	"$mapreport" "$@" --html "$out" "$log" >"$out.txt" 2>"$out.err" || {
		cat "$out.err" >&2
		fail "mapreport $* --html: exit status $?"
	}
}

test_metrics_range() {
	"$mklog" --metrics "$tmp/m.log" >/dev/null
	"$mapreport" -D "$tmp/m.log" >"$tmp/m.dump"
	report "$tmp/m.log" "$tmp/m.html" --time 0.3:0.9
	python3 - "$tmp/m.html" "$tmp/m.dump" 0.3 0.9 <<'EOF' || fail "--time 0.3:0.9: the page's time axes (above)"
import re, sys
from pagecheck import check, done, t0
page = open(sys.argv[1]).read()
dump = [l.split() for l in open(sys.argv[2])]
lo, hi = float(sys.argv[3]), float(sys.argv[4])
start = t0(dump)
def in_range(ts):
    return lo <= float(ts) - start < hi

def labels(svg_part):
    return [float(x) for x in re.findall(r'>([0-9.]+) s</text>', svg_part)]

# the CPU utilization chart: its axis from lo to hi
i = page.find('<figure class="chart" data-metric="com.example.cpu.util"')
check(i >= 0, "no CPU utilization chart")
fig = page[i:page.find('</figure>', i)]
ax = labels(re.search(r'<g class="xaxis">(.*?)</g>', fig, re.S).group(1))
check(ax and abs(ax[0] - lo) < 1e-9 and abs(ax[-1] - hi) < 1e-9,
      "chart axis labels %s, want %g s to %g s" % (ax, lo, hi))
# its columns: in the range, where their time is on that axis, with the
# range's values (the dump's, pid 6000, the metric's index there)
idx = [l[4] for l in dump if len(l) > 5 and l[3] == 'metric-def' and
       l[2].startswith('6000/') and l[5] == 'com.example.cpu.util'][0]
want = sorted(float(l[5]) for l in dump if len(l) > 5 and
              l[3] == 'metric-value' and l[4] == idx and
              l[2].startswith('6000/') and l[5] != '(no' and in_range(l[1]))
check(len(want) >= 2, "the dump has %d values in the range" % len(want))
got = []
for x, a, b, mean in re.findall(r'<rect class="hit" x="([0-9.]+)"[^>]*>'
                                r'<title>([0-9.]+)-([0-9.]+) s: mean '
                                r'([0-9.]+) %', fig):
    a, b, x = float(a), float(b), float(x)
    check(lo - 1e-9 <= a <= b <= hi + 1e-9,
          "chart column %g-%g s outside the range" % (a, b))
    xw = 74 + (a - lo) / (hi - lo) * (790 - 74)
    check(abs(x - xw) < 1, "chart column of %g s at x %g, want %.1f" %
          (a, x, xw))
    got.append(float(mean))
check(sorted(got) == want, "chart means %s, the dump's %s" % (sorted(got), want))

# thread activity: its axis, and its cells the range's samples
act = page[page.find('<section id="activity">'):]
act = act[:act.find('</section>')]
ax = labels(act[act.find('class="act-foot"'):])
check(ax and abs(ax[0] - lo) < 1e-9 and abs(ax[-1] - hi) < 1e-9,
      "activity axis labels %s" % ax)
n = 0
for a, b, k in re.findall(r'([0-9.]+)-([0-9.]+) s: ([0-9]+) samples</title>',
                          act):
    check(lo - 1e-9 <= float(a) <= float(b) <= hi + 1e-9,
          "activity cell %s-%s s outside the range" % (a, b))
    n += int(k)
want = sum(1 for l in dump if len(l) > 3 and l[3] == 'sample' and
           in_range(l[1]))
check(n == want and n > 0, "activity cells hold %d samples, the dump %d in "
      "the range" % (n, want))
# the page says which range the axes show
check("Time axes: %.3f s to %.3f s from the run's start" % (lo, hi) in page,
      "no note of the range")
# the data report.js draws a process's series with: the same axis
ms = re.search(r'id="ms-data">\{"s0":[^,]*,"w":[^,]*,"t0":([0-9.e-]+),'
               r'"span":([0-9.e-]+),', page)
check(ms and abs(float(ms.group(1)) - lo) < 1e-9 and
      abs(float(ms.group(2)) - (hi - lo)) < 1e-9, "ms-data's axis")
done()
EOF
	# the whole run: from 0 s, no range said
	report "$tmp/m.log" "$tmp/w.html"
	grep -q 'Time axes:' "$tmp/w.html" && fail "a range said without --time"
	grep -q '<g class="xaxis"><line class="axis"[^>]*/><line class="axis"[^>]*/><text[^>]*>0 s</text>' \
		"$tmp/w.html" || fail "without --time: a chart axis not from 0 s"
}

test_marks_ranks_trace() {
	"$mklog" -n 4000 -p 2 -t 2 "$tmp/r.log" >/dev/null
	"$mapreport" -D "$tmp/r.log" >"$tmp/r.dump"
	report "$tmp/r.log" "$tmp/r.html" --time 0.5:1.5 --trace "$tmp/r.trace"
	python3 - "$tmp/r.html" "$tmp/r.dump" "$tmp/r.trace" 0.5 1.5 <<'EOF' || fail "--time 0.5:1.5: marks, Ranks, MPI or trace (above)"
import json, re, sys
from pagecheck import check, done, t0
page = open(sys.argv[1]).read()
dump = [l.split() for l in open(sys.argv[2])]
trace = json.load(open(sys.argv[3]))
lo, hi = float(sys.argv[4]), float(sys.argv[5])
start = t0(dump)
marks = [float(l[1]) - start for l in dump if len(l) > 3 and l[3] == 'mark']
inside = sorted('%.3f' % t for t in marks if lo <= t < hi)
outside = sorted('%.3f' % t for t in marks if not lo <= t < hi)
check(inside and outside, "the log's marks (%s) are not on both sides of "
      "the range's ends" % marks)
# drawn: the range's marks only
drawn = set(re.findall(r'<title>mark at ([0-9.]+) s:', page))
check(drawn == set(inside), "marks drawn at %s, want %s" % (sorted(drawn), inside))
# listed: the same
listed = sorted('%.3f' % float(t) for t in re.findall(r'data-t="([0-9.]+)"', page))
check(listed == inside, "marks listed at %s, want %s" % (listed, inside))
# the Ranks heat map: from lo to hi
rk = page[page.find('<section id="ranks">'):]
rk = rk[rk.find('class="heat timed"'):rk.find('</svg>', rk.find('class="heat timed"'))]
ends = re.findall(r'>([0-9.]+) s</text>', rk)
check(ends == ['%.2f' % lo, '%.2f' % hi], "heat map axis %s" % ends)
# the MPI call statistics: the processes' totals, which --time cannot
# narrow, as the page says
check(re.search(r'<p class="note" id="mpi-scope">[^<]*whole-run figures'
                r'[^<]*not narrowed by --time\.</p>', page),
      "no note that --time does not narrow the MPI call statistics")
# the trace: the range's marks only
tm = sorted('%.3f' % (e['ts'] / 1e6) for e in trace['traceEvents']
            if e.get('cat') == 'mark')
check(tm == inside, "trace marks at %s, want %s" % (tm, inside))
done()
EOF
}

# --pid and --tid choose the marks too: each process of the log has one
# mark (pid/tid in the record dump), and a page and trace made with
# --pid or --tid of one list and hold that one only (both did before)
test_marks_threads() {
	"$mklog" -n 4000 -p 2 -t 2 "$tmp/t.log" >/dev/null
	"$mapreport" -D "$tmp/t.log" >"$tmp/t.dump"
	set -- $(awk '$4 == "mark" { print $3 }' "$tmp/t.dump")
	[ $# = 2 ] && [ "${1%/*}" != "${2%/*}" ] ||
		fail "mklog -p 2: not one mark in each of two processes: $*"
	for sel in "--pid ${1%/*}" "--tid ${2#*/}"; do
		case $sel in
		--pid*) want=$1 ;;
		*) want=$2 ;;
		esac
		# shellcheck disable=SC2086
		report "$tmp/t.log" "$tmp/t.html" $sel --trace "$tmp/t.trace"
		python3 - "$tmp/t.html" "$tmp/t.dump" "$tmp/t.trace" "$want" <<'EOF2' || fail "$sel: marks (above)"
import json, re, sys
from pagecheck import check, done, t0
page = open(sys.argv[1]).read()
dump = [l.split() for l in open(sys.argv[2])]
trace = json.load(open(sys.argv[3]))
start = t0(dump)
want = ['%.3f' % (float(l[1]) - start) for l in dump if len(l) > 3 and l[3] == 'mark' and l[2] == sys.argv[4]]
listed = sorted('%.3f' % float(t) for t in re.findall(r'data-t="([0-9.]+)"', page))
check(listed == want, "marks listed at %s, want %s" % (listed, want))
tm = sorted('%.3f' % (e['ts'] / 1e6) for e in trace['traceEvents'] if e.get('cat') == 'mark')
check(tm == want, "trace marks at %s, want %s" % (tm, want))
done()
EOF2
	done
}

test_metrics_range
test_marks_ranks_trace
test_marks_threads
