#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapreport --lines on test/programs/linehot (-O2 -g): hot_loop runs its
# loop between the comments HOT BEGIN and HOT END, with mix() (between
# HELPER BEGIN and HELPER END) inlined into it.  The source view of
# hot_loop must put at least 80% of the samples of its own lines in the
# HOT range, show the code of those lines, and its rows must add up to
# the samples its title gives; mix's lines must be shown with samples,
# in the HELPER range: in hot_loop's view, marked inlined, when the
# symbolizer gives the chain of inlined callers (mix called by
# hot_loop), else in mix's own view.  mapreport runs from another folder,
# so the source is found through the build folder DWARF names; with a
# --source-map rule sending it nowhere the line table comes alone with
# the reason, and --source-map or --source-dir to a copy finds the copy.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

need_programs linehot
src=$top_srcdir/test/programs/linehot.c
hot_from=$(grep -n '/\* HOT BEGIN \*/' "$src" | cut -d: -f1)
hot_to=$(grep -n '/\* HOT END \*/' "$src" | cut -d: -f1)
mix_from=$(grep -n '/\* HELPER BEGIN \*/' "$src" | cut -d: -f1)
mix_to=$(grep -n '/\* HELPER END \*/' "$src" | cut -d: -f1)
sample lh -F 1000 -- "$programs/linehot" 150
[ "$rc" = 0 ] || { show "$tmp/lh.err"; fail "linehot: mapsample exited $rc"; }
mkdir "$tmp/elsewhere"

# view OUT FUNC [OPTIONS]: mapreport --lines=FUNC OPTIONS on the log, run
# from another folder, into $tmp/OUT.
view() {
	out=$1 fn=$2
	shift 2
	(cd "$tmp/elsewhere" && "$mapreport" -n 0 --lines="$fn" "$@" \
		"$tmp/lh.log") >"$tmp/$out" 2>"$tmp/$out.err" || {
		show "$tmp/$out.err"
		fail "mapreport --lines=$fn $*: exit status $?"
	}
}

# rows OUT FUNC: the sampled rows of FUNC's section of $tmp/OUT as "SELF
# LINE INLINED" (INLINED: the function the line is inlined from, or -).
rows() {
	awk -v t="Source lines of $2 (" '
		index($0, t) == 1 { s = 1; next }
		s && /^Source lines of / { s = 0 }
		s && NF == 0 { s = 0 }
		s { sub(/^ \* /, "   ")
		    if ($1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+\.[0-9]+$/) {
			inl = "-"
			if (match($0, /\[inlined [^]]*\]/))
				inl = substr($0, RSTART + 9, RLENGTH - 10)
			print $1, $5, inl } }' "$tmp/$1"
}

test_hot_range() {
	view hl hot_loop
	rows hl hot_loop >"$tmp/hl.rows"
	title=$(sed -n 's/^Source lines of hot_loop ([^)]*): \([0-9]*\) samples.*/\1/p' "$tmp/hl")
	sum=$(awk '{ s += $1 } END { print s + 0 }' "$tmp/hl.rows")
	[ -n "$title" ] && [ "$title" -ge 100 ] && [ "$sum" = "$title" ] || {
		show "$tmp/hl"
		fail "hot_loop: rows add up to $sum samples, the title says ${title:-nothing} (100 or more wanted)"
	}
	awk -v a="$hot_from" -v b="$hot_to" '$3 == "-" { all += $1
		if ($2 >= a && $2 <= b) in_ += $1 }
		END { printf "%d of %d own samples in lines %d-%d\n", in_, all, a, b
		      exit !(all > 0 && in_ >= 0.8 * all) }' "$tmp/hl.rows" \
		>"$tmp/share" || {
		show "$tmp/hl"
		fail "hot_loop: $(cat "$tmp/share"); want 80% or more"
	}
	grep -q 'HOT BEGIN' "$tmp/hl" || {
		show "$tmp/hl"
		fail "hot_loop: the source (run from another folder) is not shown"
	}
}

test_inlined() {
	report lh --callers mix -n 0
	if section_has_hot_loop; then
		rows hl hot_loop | awk '$3 == "mix"' >"$tmp/inl"
		where="hot_loop's view, as inlined"
	else
		echo "note: the symbolizer gives no inlined caller for mix; its lines are looked for in its own view" >&2
		view mx mix
		rows mx mix >"$tmp/inl"
		where="mix's own view"
	fi
	awk -v a="$mix_from" -v b="$mix_to" '$2 >= a && $2 <= b { s += $1 }
		END { exit !(s > 0) }' "$tmp/inl" || {
		show "$tmp/hl" "$tmp/inl"
		fail "mix's lines ($mix_from-$mix_to) are not in $where"
	}
}

# section_has_hot_loop: the report lh's "Callers of mix" lists hot_loop.
section_has_hot_loop() {
	awk '/^Callers of mix: / { s = 1; next } s && NF == 0 { s = 0 }
		s && $3 == "hot_loop" { f = 1 } END { exit !f }' "$tmp/lh.report"
}

test_source_paths() {
	file=$(awk '/^Source lines of hot_loop / { getline; print $1; exit }' "$tmp/hl")
	dir=${file%/*}
	base=${file##*/}
	[ -f "$file" ] || fail "hot_loop's source file '$file' is not a file"
	view nowhere hot_loop --source-map "$dir=/nonexistent"
	grep -q "(source not shown: /nonexistent/$base: No such file or directory" \
		"$tmp/nowhere" || {
		show "$tmp/nowhere"
		fail "--source-map to nowhere: no line giving the reason"
	}
	[ "$(rows nowhere hot_loop | wc -l)" = "$(wc -l <"$tmp/hl.rows")" ] || {
		show "$tmp/nowhere"
		fail "--source-map to nowhere: the line table is not the same"
	}
	! grep -q 'HOT BEGIN' "$tmp/nowhere" || fail "--source-map to nowhere: source shown"
	mkdir "$tmp/copy"
	sed 's|HOT BEGIN|HOT BEGIN (the copy)|' "$src" >"$tmp/copy/$base"
	view mapped hot_loop --source-map "$dir=$tmp/copy"
	grep -q 'HOT BEGIN (the copy)' "$tmp/mapped" || {
		show "$tmp/mapped"
		fail "--source-map $dir=$tmp/copy: the copy is not shown"
	}
	view indir hot_loop --source-map "$dir=/nonexistent" --source-dir "$tmp/copy"
	grep -q 'HOT BEGIN (the copy)' "$tmp/indir" || {
		show "$tmp/indir"
		fail "--source-dir $tmp/copy: the copy is not shown"
	}
	set +e
	"$mapreport" --source-map nofrom "$tmp/lh.log" >/dev/null 2>"$tmp/bad"
	r=$?
	set -e
	[ "$r" = 2 ] && grep -q '^mapreport: --source-map nofrom: give FROM=TO' "$tmp/bad" ||
		fail "--source-map nofrom: exit status $r, or no line saying what to give"
}

test_top() {
	(cd "$tmp/elsewhere" && "$mapreport" --lines "$tmp/lh.log") >"$tmp/top"
	grep -q '^Source lines of hot_loop (linehot): ' "$tmp/top" || {
		show "$tmp/top"
		fail "--lines: no view of hot_loop, the hottest function"
	}
}

test_hot_range
test_inlined
test_source_paths
test_top
echo "mapreport-lines: ok"
