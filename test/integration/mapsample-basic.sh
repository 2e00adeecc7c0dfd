#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# mapsample on single-threaded programs whose profile is known in
# advance: test/programs/hot spends 90% of its CPU time in burn_hot and
# 10% in burn_cold (same loop, nine times the iterations), so burn_hot must
# lead the self table with about 90%, main must hold about 100% in total,
# and the collapsed stacks must nest main;work;burn_hot.  In wall-clock
# mode, test/programs/sleepburn's one-second sleep must be sampled (about
# 200 samples at 200 Hz in sleep_part), while CPU mode sees only its burn.
# The two stack walks (MAPSAMPLE_UNWIND=fast|step) give hot the same stacks,
# and the fast trace stays fast from the first sample at 10 kHz: libunwind's
# step walk, counted by test/programs/libstepcount, runs about once a frame
# in step mode and only while the caches warm up in fast mode.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

test_hot() {
	sample hot -F 1000 -- "$programs/hot" 600
	[ "$rc" = 0 ] || { show "$tmp/hot.err"; fail "hot: mapsample exited $rc"; }
	report hot
	n=$(samples hot)
	# 0.6 s of CPU at 1000 Hz: 600 samples, give or take the timer kind
	[ "$n" -ge 100 ] || { show "$tmp/hot.report"; fail "hot: only $n samples"; }
	first=$(first_self hot)
	[ "$first" = burn_hot ] || {
		show "$tmp/hot.report"
		fail "hot: '$first' leads the self table, not burn_hot"
	}
	hot=$(func_self_pct hot burn_hot)
	cold=$(func_self_pct hot burn_cold)
	main=$(func_total_pct hot main)
	check "$hot >= 80 && $hot <= 97" || {
		show "$tmp/hot.report"
		fail "hot: burn_hot has $hot% self, expected 80-97%"
	}
	check "$cold >= 4 && $cold <= 16" || {
		show "$tmp/hot.report"
		fail "hot: burn_cold has $cold% self, expected 4-16%"
	}
	check "$main >= 95" || {
		show "$tmp/hot.report"
		fail "hot: main has $main% total, expected about 100%"
	}
	# samples in the sampler's own start-up and exit code are charged to
	# no function, and are not in the folded stacks either
	own=$(sed -n "s/^\([0-9]*\) samples (.*) were taken in mapsample's own .*/\1/p" \
		"$tmp/hot.report")
	n=$((n - ${own:-0}))
	# the stacks: burn_hot under work under main, and every sample counted
	report hot --folded
	grep -q '^hot;.*;main;work;burn_hot [0-9]*$' "$tmp/hot.report" || {
		show "$tmp/hot.report"
		fail "hot: no folded stack ending in main;work;burn_hot"
	}
	sum=$(awk '{ s += $NF } END { print s }' "$tmp/hot.report")
	[ "$sum" = "$n" ] || fail "hot: folded counts add up to $sum, not $n"
}

# walk_count NAME fast|step: from the sampler's "stack walks:" line, which
# MAPSAMPLE_UNWIND=fast|step makes it print at the end
walk_count() {
	sed -n "s/^mapsample: stack walks: pid [0-9]* fast \([0-9]*\) step \([0-9]*\)\$/\1 \2/p" \
		"$tmp/$1.err" | awk -v w="$2" '{ s += (w == "fast" ? $1 : $2) } END { print s + 0 }'
}

test_walks() {
	# libunwind's fast trace (the default) and its step walk must give
	# the same stacks, and the fast trace must be the one that ran
	for w in fast step; do
		MAPSAMPLE_UNWIND=$w
		export MAPSAMPLE_UNWIND
		sample "walk-$w" -F 1000 -- "$programs/hot" 300
		unset MAPSAMPLE_UNWIND
		[ "$rc" = 0 ] || { show "$tmp/walk-$w.err"; fail "walk-$w: mapsample exited $rc"; }
		grep -q '^mapsample: stack walks:' "$tmp/walk-$w.err" || {
			show "$tmp/walk-$w.err"
			fail "walk-$w: the sampler printed no 'stack walks' line"
		}
		report "walk-$w"
		n=$(samples "walk-$w")
		f=$(walk_count "walk-$w" fast)
		s=$(walk_count "walk-$w" step)
		[ $((f + s)) = "$n" ] || fail "walk-$w: $f fast + $s step walks, but $n samples"
		if [ "$w" = fast ]; then
			# every sample here: the program never unloads code
			[ "$s" = 0 ] || fail "walk-fast: $s of $n samples fell back to the step walk"
		else
			[ "$f" = 0 ] || fail "walk-step: $f samples took the fast trace"
		fi
		# the stacks that hold 2% of the samples or more, without counts
		report "walk-$w" --folded
		awk -v n="$n" '$NF * 50 >= n { NF--; print }' "$tmp/walk-$w.report" |
			sort >"$tmp/walk-$w.stacks"
	done
	cmp -s "$tmp/walk-fast.stacks" "$tmp/walk-step.stacks" || {
		show "$tmp/walk-fast.stacks" "$tmp/walk-step.stacks"
		fail "walks: the fast trace and the step walk gave different stacks"
	}
	grep -q ';main;work;burn_hot$' "$tmp/walk-fast.stacks" || {
		show "$tmp/walk-fast.stacks"
		fail "walks: no main;work;burn_hot stack"
	}
}

# stepcount NAME: the steps libstepcount counted, summed over the
# processes that printed a count on $tmp/NAME.err (the launcher is one:
# it has the shim preloaded too, and takes no step)
stepcount() {
	sed -n 's/^stepcount: \([0-9]*\)$/\1/p' "$tmp/$1.err" |
		awk '{ s += $1 } END { print s + 0 }'
}

test_fast_steps() {
	# A lookup that finds no object when the first signals come (the
	# handler answers dl_iterate_phdr from a snapshot) is cached by the
	# fast trace as an untraceable frame; every later sample then paid
	# for a full step walk, silently, inside unw_backtrace.
	shim=$top_builddir/test/programs/.libs/libstepcount.so
	[ -f "$shim" ] || fail "$shim missing: run 'make check' first"
	# LD_PRELOAD reaches the launcher too, which in a sanitizer build
	# must then allow its ASan runtime not to come first
	saved_asan=${ASAN_OPTIONS-}
	for w in step fast; do
		MAPSAMPLE_UNWIND=$w LD_PRELOAD=$shim
		ASAN_OPTIONS=${saved_asan:+$saved_asan:}verify_asan_link_order=0
		export MAPSAMPLE_UNWIND LD_PRELOAD ASAN_OPTIONS
		sample "steps-$w" --wall -F 10000 -- "$programs/hot" 300
		unset MAPSAMPLE_UNWIND LD_PRELOAD
		ASAN_OPTIONS=$saved_asan
		[ "$rc" = 0 ] || { show "$tmp/steps-$w.err"; fail "steps-$w: mapsample exited $rc"; }
		report "steps-$w"
		eval "n_$w=\$(samples steps-$w)"
		eval "s_$w=\$(stepcount steps-$w)"
	done
	[ -n "$s_step" ] && [ "$s_step" -ge "$n_step" ] || {
		echo "SKIP: libstepcount saw ${s_step:-no} steps for $n_step samples of the step walk: this libunwind's step is not interposable" >&2
		return 0
	}
	[ "$n_fast" -ge 1000 ] || fail "steps-fast: only $n_fast samples at 10 kHz"
	[ $((s_fast * 2)) -lt "$n_fast" ] || {
		show "$tmp/steps-fast.err"
		fail "steps-fast: $s_fast libunwind steps for $n_fast samples: the fast trace fell back to the step walk"
	}
}

test_wall() {
	# wall-clock time: one second of sleep at 200 Hz is about 200 samples
	sample wall --wall -F 200 -- "$programs/sleepburn" 1000 200
	[ "$rc" = 0 ] || { show "$tmp/wall.err"; fail "wall: mapsample exited $rc"; }
	report wall
	grep -q '^ *Sampling: *wall-clock time' "$tmp/wall.report" || {
		show "$tmp/wall.report"
		fail "wall: the report does not say it sampled wall-clock time"
	}
	slept=$(func_total wall sleep_part)
	burnt=$(func_total wall burn_part)
	n=$(samples wall)
	[ "$slept" -ge 140 ] && [ "$slept" -le 260 ] || {
		show "$tmp/wall.report"
		fail "wall: $slept samples in sleep_part, expected about 200"
	}
	[ "$burnt" -gt 0 ] || {
		show "$tmp/wall.report"
		fail "wall: no samples in burn_part"
	}
	[ "$n" -ge 180 ] || fail "wall: $n samples in all, expected over 200"

	# CPU time: the same program, the sleep all but invisible
	sample cpu -F 200 -- "$programs/sleepburn" 1000 200
	[ "$rc" = 0 ] || { show "$tmp/cpu.err"; fail "cpu: mapsample exited $rc"; }
	report cpu
	grep -q '^ *Sampling: *CPU time' "$tmp/cpu.report" || {
		show "$tmp/cpu.report"
		fail "cpu: the report does not say it sampled CPU time"
	}
	slept=$(func_total cpu sleep_part)
	burnt=$(func_total cpu burn_part)
	[ "$slept" -le 3 ] || {
		show "$tmp/cpu.report"
		fail "cpu: $slept samples in sleep_part, expected almost none"
	}
	[ "$burnt" -ge 10 ] || {
		show "$tmp/cpu.report"
		fail "cpu: $burnt samples in burn_part, expected about 40"
	}
}

need_programs hot sleepburn
test_hot
test_walks
test_fast_steps
test_wall
echo "mapsample-basic: all cases passed"
