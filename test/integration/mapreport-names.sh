#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport-names.sh: long C++ names shortened.  test/programs/
# longnames.cc (built here with the C++ compiler found; skipped, exit 77,
# without one) spends its time in Engine<L4>::spin_hot(L4 const&,
# unsigned long), a name of over 1000 characters.  The text tables must
# show "Engine<...>::spin_hot(...)" with no line over 200 characters;
# --full-names the whole name; the JSON the whole name always; the HTML
# flame graph the short name as the label and the whole name for the
# tooltip.  The rows of --callers and --callees and the titles of
# --lines and --disasm show the short name too (the whole one with
# --full-names), and --callers takes the short name as the function.
# Inlined code's "[inlined NAME]" in --lines and in the HTML source view
# shows the short NAME too (the whole one with --full-names).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

cxx=${CXX:-}
[ -n "$cxx" ] || cxx=$(command -v g++ || command -v c++ || true)
[ -n "$cxx" ] || { echo "no C++ compiler (g++)"; exit 77; }

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

"$cxx" -O1 -g -fno-omit-frame-pointer -o "$tmp/longnames" \
	"$top_srcdir/test/programs/longnames.cc" ||
	fail "$cxx cannot build test/programs/longnames.cc"
sample ln -F 1000 -- "$tmp/longnames" 400
[ "$rc" = 0 ] || { show "$tmp/ln.err"; fail "mapsample exited $rc"; }

report ln
[ "$r" = 0 ] || { show "$tmp/ln.rerr"; fail "mapreport exited $r"; }
pct=$(func_self_pct ln 'Engine<...>::spin_hot(...)')
check "$pct >= 50" || { cut -c1-300 "$tmp/ln.report" >&2; fail "Engine<...>::spin_hot(...) has $pct% of the self samples, expected >= 50% (shortened name)"; }
long=$(awk 'length($0) > 200' "$tmp/ln.report" | wc -l)
[ "$long" = 0 ] || { awk 'length($0) > 200 { print substr($0, 1, 300) }' "$tmp/ln.report" >&2; fail "$long lines of the text report are over 200 characters"; }

report ln --full-names
grep -q 'Engine<Pair<Pair<Pair<Pair<std::map<.*::spin_hot(Pair<' "$tmp/ln.report" ||
	{ cut -c1-300 "$tmp/ln.report" >&2; fail "--full-names does not show the whole name"; }

report ln --json
grep -q '"name": *"Engine<Pair<Pair<Pair<Pair<std::map<[^"]*::spin_hot(Pair<' "$tmp/ln.report" ||
	fail "the JSON does not hold the whole name"

"$mapreport" --html "$tmp/ln.html" "$tmp/ln.log" >/dev/null 2>&1 ||
	fail "mapreport --html failed"
python3 - "$tmp/ln.html" <<'PY' || fail "the flame graph's labels are not the short names with the full ones kept"
import json, re, sys
html = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="fg-data">\n(.*?)\n?</script>', html, re.S)
d = json.loads(m.group(1))
i = [k for k, n in enumerate(d["names"]) if "::spin_hot(" in n][0]
assert d["names"][i].startswith("Engine<Pair<Pair<"), d["names"][i][:80]
assert len(d["names"][i]) > 1000, len(d["names"][i])
assert d["short"][i] == "Engine<...>::spin_hot(...)", d["short"][i]
assert len(d["short"]) == len(d["names"])
PY
python3 - "$tmp/ln.html" <<'PY' || fail "the HTML function tables do not show the short name with the whole one in the tooltip"
import html as h, re, sys
page = open(sys.argv[1]).read()
cells = re.findall(r'<td class="f" data-fn="([^"]*)" title="([^"]*)">([^<]*)</td>', page)
hot = [c for c in cells if "::spin_hot(" in h.unescape(c[0])]
assert hot, "no function-table cell with data-fn for spin_hot"
full, title, text = (h.unescape(x) for x in hot[0])
assert full == title and len(full) > 1000, len(full)
assert text == "Engine<...>::spin_hot(...)", text
PY
"$mapreport" --full-names --html "$tmp/lnf.html" "$tmp/ln.log" >/dev/null 2>&1 ||
	fail "mapreport --full-names --html failed"
! grep -q 'data-fn=' "$tmp/lnf.html" || fail "--full-names: the HTML tables still shorten"

# --callers/--callees rows and the titles of --lines and --disasm: the
# short name (which is also taken as the name asked for), the whole one
# with --full-names
hot='Engine<...>::spin_hot(...)'
report ln --callees main --callers "$hot" --lines="$hot"
awk '/^Callees of main:/ { s = 1; next } s && NF == 0 { exit }
	s && $3 == "Engine<...>::spin_hot(...)" { found = 1 } END { exit !found }' \
	"$tmp/ln.report" || { cut -c1-300 "$tmp/ln.report" >&2; fail "--callees main: no row of $hot"; }
grep -q "^Callers of $hot: total [1-9]" "$tmp/ln.report" ||
	{ cut -c1-300 "$tmp/ln.report" >&2; fail "--callers '$hot': the short name not taken"; }
grep -Eq '^ +[0-9]+ +[0-9.]+%  main \(' "$tmp/ln.report" ||
	fail "--callers '$hot': main not a caller"
grep -q "^Source lines of $hot (longnames): [1-9]" "$tmp/ln.report" ||
	{ cut -c1-300 "$tmp/ln.report" >&2; fail "--lines: the title does not hold the short name"; }
long=$(awk 'length($0) > 200' "$tmp/ln.report" | wc -l)
[ "$long" = 0 ] || { awk 'length($0) > 200 { print substr($0, 1, 300) }' "$tmp/ln.report" >&2; fail "$long lines of --callers/--callees/--lines over 200 characters"; }
# --disasm: the title (objdump's own lines, labels and jump targets,
# keep the names objdump writes)
if command -v objdump >/dev/null 2>&1; then
	report ln --lines="$hot" --disasm
	grep -q "^  Instructions of $hot (objdump" "$tmp/ln.report" ||
		fail "--disasm: the title does not hold the short name"
fi
report ln --full-names --callees main
grep -Eq '^ +[0-9]+ +[0-9.]+%  Engine<Pair<Pair<.*::spin_hot\(Pair<.* \(longnames\)$' "$tmp/ln.report" ||
	fail "--full-names: --callees main does not show the whole name"
report ln --full-names --lines="$hot"
grep -q '^Source lines of Engine<Pair<Pair<.*::spin_hot(Pair<' "$tmp/ln.report" ||
	fail "--full-names: the --lines title does not hold the whole name"

# inlined code: "longnames MS inline" loops in Engine<L4>::spin_mix,
# whose step Engine<L4>::mix_step (always inlined) has a name as long;
# --lines shows its lines as "[inlined NAME]" with NAME short (whole
# with --full-names), and the HTML source view's data has the short name
# next to the whole one
sample lni -F 1000 -- "$tmp/longnames" 300 inline
[ "$rc" = 0 ] || { show "$tmp/lni.err"; fail "mapsample (inline) exited $rc"; }
mix='Engine<...>::spin_mix(...)'
report lni --lines="$mix"
grep -q "^Source lines of $mix (longnames): [1-9]" "$tmp/lni.report" ||
	{ cut -c1-300 "$tmp/lni.report" >&2; fail "--lines='$mix': no source view"; }
grep -Eq '^ \*? +[0-9]+ .*  \[inlined Engine<\.\.\.>::mix_step\(\.\.\.\)\]$' "$tmp/lni.report" ||
	{ cut -c1-300 "$tmp/lni.report" >&2; fail "--lines: the inlined function's name is not shortened"; }
long=$(awk 'length($0) > 200' "$tmp/lni.report" | wc -l)
[ "$long" = 0 ] || { awk 'length($0) > 200 { print substr($0, 1, 300) }' "$tmp/lni.report" >&2; fail "$long lines of --lines (inlined code) over 200 characters"; }
report lni --full-names --lines="$mix"
grep -q '\[inlined Engine<Pair<Pair<.*::mix_step(Pair<.*\]$' "$tmp/lni.report" ||
	{ cut -c1-300 "$tmp/lni.report" >&2; fail "--full-names: the inlined function's name is not whole"; }
"$mapreport" --html "$tmp/lni.html" "$tmp/lni.log" >/dev/null 2>&1 ||
	fail "mapreport --html (inline) failed"
"$mapreport" --full-names --html "$tmp/lnif.html" "$tmp/lni.log" >/dev/null 2>&1 ||
	fail "mapreport --full-names --html (inline) failed"
python3 - "$tmp/lni.html" "$tmp/lnif.html" <<'PY' || fail "the HTML source view's inlined lines: no short name (--full-names: one)"
import json, re, sys
def lines(path):
    m = re.search(r'<script type="application/json" id="fn-data">(.*?)</script>', open(path).read(), re.S)
    f = [f for f in json.loads(m.group(1))["funcs"] if "::spin_mix(" in f["name"]]
    assert f, "spin_mix not in fn-data"
    return [l for l in f[0]["lines"] if "::mix_step(" in l[4]]
inl = lines(sys.argv[1])
assert inl, "no inlined lines of mix_step"
for l in inl:
    assert len(l) == 6 and l[5] == "Engine<...>::mix_step(...)" and len(l[4]) > 1000, (l[:4], l[5:][:1])
for l in lines(sys.argv[2]):
    assert len(l) == 5, l[:4]
PY

echo "ok: $pct% in Engine<...>::spin_hot(...), full name kept for --full-names, JSON and tooltips; short in --callers/--callees/--lines/--disasm"
