#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# MPI jobs, launched every way a user does it, with Open MPI and MPICH
# (test/programs/mpiranks.openmpi and .mpich, built when configure found
# mpicc.openmpi and mpicc.mpich):
#   mpirun -np 4 mapsample -- ./mpiranks: one log per rank in the job's
#     folder PROG-4p-<JOB>/rank-R.maplog (the ranks agree on it without
#     talking), each log's process is its rank (JOB records, from the
#     launcher's variables and from MPI), mapreport DIR reads the job;
#   mapsample -- mpirun -np 4 ./mpiranks: one log, the launchers (mpirun,
#     hydra_pmi_proxy) recorded as launchers and left out of the report
#     unless --launchers, the ranks 0 to 3 recorded as ranks;
#   a rank's own children (a rank running "sh -c", a subshell): recorded
#     as children of the rank, not as a second process of that rank, and
#     the job report counts only the ranks;
#   bad input: a job folder with one damaged rank log (the rest
#     reported, the damage named with its rank, exit 1), a rank that
#     crashed (the crash on its row), two jobs' folders (refused; with
#     --merge a warning), two jobs of one command run at the same time
#     (told apart by their job ids: refused);
#   MPICH's Hydra with two hosts (proxies started by a stand-in for ssh,
#     outside mpiexec's process tree): one job folder, one job id (the
#     proxies' control port and pgid), another id for another job;
#   each rank's collective share: its MPI time split by the wrappers'
#     times of the collective calls, not by where its samples fell;
#   -o with %r, %j, %h: the names asked for; %x unknown and %r outside a
#     job: one line, exit 125; mapreport on a folder with no log: exit 2.
# Skips (77) only when neither MPI is installed; with MAPSAMPLE_NO_SKIP=mpi
# (CI) a missing MPI, either of the two, is a failure.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

# Open MPI refuses root without these, and 4 ranks on fewer cores
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# no MAPSAMPLE_JOB_ID from the caller's environment
unset MAPSAMPLE_JOB_ID || true

mpis=
missing=
for m in openmpi mpich; do
	if [ -x "$programs/mpiranks.$m" ] && command -v "mpirun.$m" >/dev/null; then
		mpis="$mpis $m"
	else
		missing="$missing $m"
	fi
done
if [ -z "$mpis" ]; then
	skip mpi "neither Open MPI nor MPICH is installed (mpirun.openmpi," \
		"mpicc.openmpi; mpirun.mpich, mpicc.mpich): apt-get install" \
		"openmpi-bin libopenmpi-dev mpich libmpich-dev, configure again"
fi
for m in $missing; do
	skip_part mpi "$m: mpirun.$m or $programs/mpiranks.$m (mpicc.$m)" \
		"missing: apt-get install the $m packages, configure again"
done

# jobs LOG...: the JOB records of the logs, as "ROLE RANK SIZE SOURCE",
# sorted, one per record
jobs() {
	"$mapreport" -D "$@" | awk '$4 == "job" {
		for (i = 5; i <= NF; i++) {
			if ($i == "rank") r = $(i + 1)
			if ($i == "size") s = $(i + 1)
			if ($i == "from") f = $(i + 1)
		}
		role = ($0 ~ / launcher job /) ? "launcher" : \
			($0 ~ / rank-child job /) ? "rank-child" : "application"
		print role, r, s, f
	}' | sort
}

# ranks_in N LOG...: each rank 0..N-1 has an application JOB record from
# MPI and one from the launcher's variables
ranks_in() {
	n=$1
	shift
	jobs "$@" >"$tmp/jobs"
	r=0
	while [ "$r" -lt "$n" ]; do
		grep -q "^application $r $n 'MPI'\$" "$tmp/jobs" || {
			show "$tmp/jobs"
			fail "rank $r of $n: no JOB record from MPI"
		}
		grep -q "^application $r $n '[A-Z_]*RANK'\$" "$tmp/jobs" || {
			show "$tmp/jobs"
			fail "rank $r of $n: no JOB record from the launcher's variables"
		}
		r=$((r + 1))
	done
}

# procs REPORT: the "Processes:" count of a text report
procs() {
	sed -n 's/^ *Processes: *\([0-9]*\) .*/\1/p' "$1"
}

rank_per_log() {
	m=$1
	d=$tmp/$m-job
	mkdir -p "$d"
	(cd "$d" && timeout 60 "mpirun.$m" -np 4 "$mapsample" -q -- \
		"$programs/mpiranks.$m" 100 >"$tmp/$m-job.out" 2>"$tmp/$m-job.err") || {
		show "$tmp/$m-job.err"
		fail "$m: mpirun -np 4 mapsample -- mpiranks failed"
	}
	n=$(ls -d "$d"/mpiranks.$m-4p-*/ 2>/dev/null | wc -l)
	[ "$n" = 1 ] || { ls -R "$d" >&2; fail "$m: $n job folders, want 1"; }
	job=$(ls -d "$d"/mpiranks.$m-4p-*/)
	for r in 0 1 2 3; do
		[ -s "$job/rank-$r.maplog" ] || { ls -R "$d" >&2; fail "$m: no $job/rank-$r.maplog"; }
		jobs "$job/rank-$r.maplog" | grep -q "^application $r 4 'MPI'\$" ||
			fail "$m: rank-$r.maplog is not rank $r's"
	done
	[ "$(ls "$job" | wc -l)" = 4 ] || { ls -a "$job" >&2; fail "$m: other files in $job"; }
	ranks_in 4 "$job"
	"$mapreport" "$job" >"$tmp/$m-job.report" 2>"$tmp/$m-job.rerr" || {
		show "$tmp/$m-job.rerr"
		fail "$m: mapreport $job failed"
	}
	[ "$(procs "$tmp/$m-job.report")" = 4 ] || {
		show "$tmp/$m-job.report"
		fail "$m: mapreport DIR: not 4 processes"
	}
	grep -q 'rank_work' "$tmp/$m-job.report" ||
		fail "$m: mapreport DIR: rank_work not in the report"
	coll_split "$m" "$job"
}

# coll_split M JOBDIR: each rank's collective share of its time is its
# MPI share (from the time-in-MPI metric) split as the wrappers' times
# split it: time in MPI_Barrier and MPI_Allreduce over time in all MPI
# calls (its MPI_CALLS records), not as its samples fall (CPU time: an
# MPI that waits off the CPU leaves few samples in a waiting collective)
coll_split() {
	m=$1
	job=$2
	"$mapreport" --json "$job" >"$tmp/$m-coll.json" 2>/dev/null ||
		fail "$m: mapreport --json $job failed"
	for r in 0 1 2 3; do
		"$mapreport" -D "$job/rank-$r.maplog" | awk -v r=$r '$4 == "mpi-calls" {
			for (i = 5; i < NF; i++) if ($i == "time") t = $(i + 1)
			all += t
			if ($5 == "MPI_Barrier" || $5 == "MPI_Allreduce") c += t
		} END { print r, c, all }'
	done >"$tmp/$m-coll.ns"
	python3 - "$tmp/$m-coll.json" "$tmp/$m-coll.ns" <<'EOP' || fail "$m: the ranks' collective share is not their MPI share split by the wrappers' times"
import json, sys
rows = {r["rank"]: r for r in json.load(open(sys.argv[1]))["ranks"]["rows"]}
for line in open(sys.argv[2]):
    r, c, a = line.split()
    r, c, a = int(r), float(c), float(a)
    assert a > 0 and c > 0, (r, c, a)
    row = rows[r]
    want = row["mpi"] * c / a
    assert abs(row["mpi_collective"] - want) <= 1e-6 * max(want, 1e-3), \
        "rank %d: collective %.6f, want %.6f (MPI %.6f x %.0f / %.0f ns)" % (
            r, row["mpi_collective"], want, row["mpi"], c, a)
EOP
}

launcher_outside() {
	m=$1
	log=$tmp/$m-all.maplog
	timeout 60 "$mapsample" -q -o "$log" -- "mpirun.$m" -np 4 \
		"$programs/mpiranks.$m" 100 >"$tmp/$m-all.out" 2>"$tmp/$m-all.err" || {
		show "$tmp/$m-all.err"
		fail "$m: mapsample -- mpirun -np 4 mpiranks failed"
	}
	ranks_in 4 "$log"
	grep -q "^launcher -1 0 ''\$" "$tmp/jobs" || {
		show "$tmp/jobs"
		fail "$m: no launcher JOB record"
	}
	"$mapreport" "$log" >"$tmp/$m-all.report" 2>"$tmp/$m-all.rerr" ||
		fail "$m: mapreport failed"
	[ "$(procs "$tmp/$m-all.report")" = 4 ] || {
		show "$tmp/$m-all.report"
		fail "$m: launchers not left out: want the 4 ranks"
	}
	if grep -Eq ' (mpirun|orterun|mpiexec|hydra_pmi_proxy)' "$tmp/$m-all.report"; then
		show "$tmp/$m-all.report"
		fail "$m: a launcher in the report without --launchers"
	fi
	"$mapreport" --launchers "$log" >"$tmp/$m-l.report" 2>&1 ||
		fail "$m: mapreport --launchers failed"
	n=$(procs "$tmp/$m-l.report")
	[ "$n" -gt 4 ] || { show "$tmp/$m-l.report"; fail "$m: --launchers: $n processes"; }
	grep -Eq 'mpirun|orterun|mpiexec' "$tmp/$m-l.report" ||
		fail "$m: --launchers: mpirun not listed"
}

patterns() {
	m=$1
	d=$tmp/$m-pat
	mkdir -p "$d"
	host=$(uname -n | tr -c 'A-Za-z0-9._\n-' '_')
	(cd "$d" && timeout 60 "mpirun.$m" -np 2 "$mapsample" -q \
		-o 'out/%j/r%r-%h.maplog' -- "$programs/mpiranks.$m" 50 \
		>/dev/null 2>"$tmp/$m-pat.err") || {
		show "$tmp/$m-pat.err"
		fail "$m: -o out/%j/r%r-%h.maplog failed"
	}
	for r in 0 1; do
		f=$(ls "$d"/out/*/"r$r-$host.maplog" 2>/dev/null | head -1)
		[ -n "$f" ] || { ls -R "$d" >&2; fail "$m: no out/JOB/r$r-$host.maplog"; }
	done
	[ "$(ls -d "$d"/out/*/ | wc -l)" = 1 ] || fail "$m: the ranks' %j differ"
}

# rank_children M: ranks that start processes of their own (a shell
# running "sh -c" and a subshell: exec from a fork, and a fork alone),
# launched both ways: the children inherit the rank's variables but are
# recorded as the rank's children, and the job report counts 2 ranks,
# one row each
rank_children() {
	m=$1
	d=$tmp/$m-kids
	mkdir -p "$d"
	cat >"$d/r.sh" <<'EOS'
i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done
sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
( i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done )
EOS
	(cd "$d" && timeout 60 "mpirun.$m" -np 2 "$mapsample" -q -o 'job/rank-%r.maplog' \
		-- sh r.sh >"$tmp/$m-kids.out" 2>"$tmp/$m-kids.err") || {
		show "$tmp/$m-kids.err"
		fail "$m: mpirun -np 2 mapsample -- sh r.sh failed"
	}
	timeout 60 "$mapsample" -q -o "$d/all.maplog" -- "mpirun.$m" -np 2 sh "$d/r.sh" \
		>"$tmp/$m-kids2.out" 2>"$tmp/$m-kids2.err" || {
		show "$tmp/$m-kids2.err"
		fail "$m: mapsample -- mpirun -np 2 sh r.sh failed"
	}
	for r in 0 1; do
		for log in "$d/job/rank-$r.maplog" "$d/all.maplog"; do
			jobs "$log" >"$tmp/kids.jobs"
			n=$(grep -c "^application $r 2 " "$tmp/kids.jobs" || true)
			k=$(grep -c "^rank-child $r 2 " "$tmp/kids.jobs" || true)
			[ "$n" = 1 ] && [ "$k" -ge 2 ] || {
				show "$tmp/kids.jobs"
				fail "$m: $(basename "$log"): rank $r: $n processes recorded as the rank, $k as its children; want 1 and 2 or more"
			}
		done
	done
	for what in "$d/job" "$d/all.maplog"; do
		"$mapreport" "$what" >"$tmp/kids.report" 2>"$tmp/kids.rerr" || {
			show "$tmp/kids.rerr"
			fail "$m: mapreport $what failed"
		}
		awk '/^Ranks:/ { on = 1; head = $0; next }
			on && $1 ~ /^[0-9]+$/ { n[$1]++; rows++ }
			on && /^  Across/ { on = 0 }
			END { if (head != "Ranks: 2 ranks" || rows != 2 || n[0] != 1 || n[1] != 1) exit 1 }' \
			"$tmp/kids.report" || {
			show "$tmp/kids.report"
			fail "$m: mapreport $(basename "$what"): the ranks' children counted as ranks (want 'Ranks: 2 ranks', one row each)"
		}
	done
}

# bad_input M: job folders a user may hand mapreport.  One rank's log
# damaged: the other ranks reported, one line naming the file and its
# rank, exit 1.  A rank that crashed (killed by SIGSEGV mid-run): its
# log read, the crash on its row of the per-rank figures (text, JSON,
# HTML).  Two jobs' folders (different runs): refused with exit 2, and
# with --merge reported as one after a warning.
bad_input() {
	m=$1
	d=$tmp/$m-bad
	mkdir -p "$d"
	cp -r "$(ls -d "$tmp/$m-job"/mpiranks.$m-4p-*/)" "$d/job"
	size=$(wc -c <"$d/job/rank-2.maplog")
	# a run of bytes in the middle of rank 2's log made garbage
	dd if=/dev/urandom of="$d/job/rank-2.maplog" bs=1 seek=$((size / 2)) \
		count=2048 conv=notrunc 2>/dev/null
	set +e
	"$mapreport" "$d/job" >"$d/dam.report" 2>"$d/dam.err"
	rc=$?
	set -e
	[ "$rc" = 1 ] || { show "$d/dam.err"; fail "$m: a damaged rank log: exit $rc, want 1"; }
	grep -q "rank-2\.maplog: .* (rank 2)\$" "$d/dam.err" || {
		show "$d/dam.err"
		fail "$m: a damaged rank log: no line naming rank-2.maplog and its rank"
	}
	for r in 0 1 3; do
		awk -v r=$r '/^Ranks:/ { on = 1; next } on && $1 == r { f = 1 }
			on && /^  Across/ { exit } END { exit !f }' "$d/dam.report" || {
			show "$d/dam.report"
			fail "$m: a damaged rank log: rank $r not reported"
		}
	done

	cat >"$d/crash.sh" <<'EOS'
r=${OMPI_COMM_WORLD_RANK:-$PMI_RANK}
n=20000
[ "$r" = 1 ] && n=60000
i=0; while [ $i -lt $n ]; do i=$((i+1)); done
[ "$r" = 1 ] && kill -SEGV $$
exit 0
EOS
	(cd "$d" && timeout 60 "mpirun.$m" -np 2 "$mapsample" -q -o 'crash/rank-%r.maplog' \
		-- sh crash.sh >"$d/crash.out" 2>"$d/crash.err") || true
	[ -s "$d/crash/rank-1.maplog" ] || { show "$d/crash.err"; fail "$m: no log of the rank that crashed"; }
	"$mapreport" "$d/crash" >"$d/crash.report" 2>"$d/crash.rerr" || {
		show "$d/crash.rerr"
		fail "$m: mapreport of a job with a crashed rank: exit $?"
	}
	awk '/^Ranks:/ { on = 1; next }
		on && $1 == "1" && / killed by signal 11 \(SEGV\)/ { one = 1 }
		on && $1 == "0" && / killed by / { zero = 1 }
		on && /^  Across/ { exit } END { exit !(one && !zero) }' "$d/crash.report" || {
		show "$d/crash.report"
		fail "$m: the crash of rank 1 not shown on its row (and only there)"
	}
	"$mapreport" --json "$d/crash" >"$d/crash.json" 2>/dev/null ||
		fail "$m: mapreport --json of the crashed job failed"
	python3 - "$d/crash.json" <<'EOP' || fail "$m: --json: the crash not on rank 1's row"
import json, sys
rows = json.load(open(sys.argv[1]))["ranks"]["rows"]
by = {r["rank"]: r["killed_by_signal"] for r in rows}
assert by.get(1) == 11 and by.get(0) is None, by
EOP
	"$mapreport" --html "$d/crash.html" "$d/crash" >/dev/null 2>&1 ||
		fail "$m: mapreport --html of the crashed job failed"
	grep -q 'killed by signal 11 (SEGV)' "$d/crash.html" ||
		fail "$m: --html: the crash of rank 1 not shown"

	set +e
	"$mapreport" "$d/job" "$tmp/$m-kids/job" >/dev/null 2>"$d/two.err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || { show "$d/two.err"; fail "$m: two jobs' folders: exit $rc, want 2"; }
	grep -q "are logs of different runs .*; give --merge" "$d/two.err" || {
		show "$d/two.err"
		fail "$m: two jobs' folders: not said"
	}
	set +e
	"$mapreport" --merge "$tmp/$m-kids/job" "$(ls -d "$tmp/$m-pat"/out/*/)" >"$d/merged.report" 2>"$d/merged.err"
	rc=$?
	set -e
	[ "$rc" = 0 ] || { show "$d/merged.err"; fail "$m: --merge of two jobs: exit $rc, want 0"; }
	grep -q "^mapreport: warning: .* are logs of different runs .*; reported as one (--merge)\$" \
		"$d/merged.err" || { show "$d/merged.err"; fail "$m: --merge of two jobs: no warning"; }
	grep -q '^mapsample report' "$d/merged.report" || fail "$m: --merge of two jobs: no report"
}

# two_jobs M: two jobs of one command running at the same time (each
# rank waits until all four ranks of the two jobs have started): the job
# ids in their logs tell them apart, where their command lines and times
# cannot: mapreport refuses the two folders (exit 2, both job ids
# named), and with --merge warns; each folder alone is one run
two_jobs() {
	m=$1
	d=$tmp/$m-two
	mkdir -p "$d/started"
	cat >"$d/w.sh" <<EOS
: >"$d/started/\$\$"
i=0
while [ "\$(ls "$d/started" | wc -l)" -lt 4 ] && [ \$i -lt 600 ]; do
	sleep 0.1
	i=\$((i + 1))
done
EOS
	for j in a b; do
		(cd "$d" && timeout 90 "mpirun.$m" -np 2 "$mapsample" -q \
			-o "$j/rank-%r.maplog" -- sh "$d/w.sh" \
			>"$d/$j.out" 2>"$d/$j.err") &
	done
	wait
	[ "$(ls "$d/started" | wc -l)" = 4 ] || {
		show "$d/a.err" "$d/b.err"
		fail "$m: two jobs at once: $(ls "$d/started" | wc -l) ranks started, want 4"
	}
	for j in a b; do
		[ -s "$d/$j/rank-0.maplog" ] && [ -s "$d/$j/rank-1.maplog" ] || {
			show "$d/$j.err"
			fail "$m: two jobs at once: job $j's logs missing"
		}
		"$mapreport" "$d/$j" >/dev/null 2>"$d/$j.rerr" || {
			show "$d/$j.rerr"
			fail "$m: two jobs at once: mapreport of job $j alone failed"
		}
	done
	ida=$(jobs_ids "$d/a") idb=$(jobs_ids "$d/b")
	[ -n "$ida" ] && [ -n "$idb" ] && [ "$ida" != "$idb" ] ||
		fail "$m: two jobs at once: job ids '$ida' and '$idb', want two"
	set +e
	"$mapreport" "$d/a" "$d/b" >/dev/null 2>"$d/ab.err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || {
		show "$d/ab.err"
		fail "$m: two jobs of one command at once: exit $rc, want 2 (merged silently)"
	}
	grep -q "are logs of different runs ('sh $d/w.sh' started .* in job $ida; 'sh $d/w.sh' started .* in job $idb); give --merge" \
		"$d/ab.err" || {
		show "$d/ab.err"
		fail "$m: two jobs of one command at once: the two jobs not named"
	}
	"$mapreport" --merge "$d/a" "$d/b" >/dev/null 2>"$d/abm.err" || {
		show "$d/abm.err"
		fail "$m: two jobs at once, --merge: exit $?"
	}
	grep -q "^mapreport: warning: .* are logs of different runs .*; reported as one (--merge)\$" \
		"$d/abm.err" || { show "$d/abm.err"; fail "$m: two jobs at once, --merge: no warning"; }
}

# jobs_ids DIR: the job id of the ranks' logs in DIR (one line each
# different id)
jobs_ids() {
	"$mapreport" -D "$1"/rank-*.maplog | sed -n "s/.* job  *rank [0-9]* size .* application job '\([^']*\)'.*/\1/p" | sort -u
}

# hydra_hosts: MPICH's mpiexec with two hosts, each proxy started by a
# remote shell (a stand-in for ssh, as -launcher-exec takes it, that
# runs the proxy outside mpiexec's process tree, as on another host):
# the ranks, without -o, write into one job folder, and their JOB records
# carry one job id, the proxies' "--control-port HOST:PORT" and "--pgid
# N" as HOST:PORT.N; a second job gets another id, and mapreport refuses
# the two folders as one run
hydra_hosts() {
	d=$tmp/hydra
	mkdir -p "$d"
	cat >"$d/rsh" <<'EOS'
#!/bin/sh
# rsh -x HOST COMMAND: COMMAND run by a process outside ours, waited for
shift 2
pf=$(mktemp)
setsid -f sh -c 'echo $$ >"$0"; exec sh -c "$1"' "$pf" "$*"
while [ ! -s "$pf" ]; do sleep 0.05; done
pid=$(cat "$pf")
rm -f "$pf"
while kill -0 "$pid" 2>/dev/null &&
	! grep -q '^[0-9]* ([^)]*) Z' "/proc/$pid/stat" 2>/dev/null; do
	sleep 0.1
done
EOS
	chmod +x "$d/rsh"
	# each rank writes its proxy's command line to proxy.RANK
	cat >"$d/r.sh" <<'EOS'
p=$$
while [ "$p" -gt 1 ] && [ "$(cut -d' ' -f2 "/proc/$p/stat")" != '(hydra_pmi_proxy)' ]; do
	p=$(sed 's/.*) . \([0-9]*\) .*/\1/' "/proc/$p/stat")
done
tr '\0' '\n' <"/proc/$p/cmdline" >"proxy.$PMI_RANK"
i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done
EOS
	for j in 1 2; do
		mkdir "$d/$j"
		(cd "$d/$j" && timeout 60 mpiexec.mpich -launcher ssh \
			-launcher-exec "$d/rsh" -hosts h1,h2 -ppn 1 -np 2 \
			"$mapsample" -q -- sh "$d/r.sh" >"$d/$j.out" 2>"$d/$j.err") || {
			show "$d/$j.err"
			fail "mpich: mpiexec -hosts h1,h2 (two proxies) mapsample -- sh failed"
		}
		want=
		for r in 0 1; do
			[ -s "$d/$j/proxy.$r" ] || { show "$d/$j.err"; fail "mpich: rank $r found no hydra_pmi_proxy above it"; }
			id=$(awk 'p == "--control-port" { port = $0 } p == "--pgid" { g = $0 } { p = $0 }
				END { if (port != "" && g != "") print port "." g }' "$d/$j/proxy.$r")
			[ -n "$id" ] || { show "$d/$j/proxy.$r"; fail "mpich: no --control-port/--pgid in the proxy's command line"; }
			[ -z "$want" ] || [ "$want" = "$id" ] ||
				fail "mpich: the two proxies have different control ports: $want, $id"
			want=$id
		done
		n=$(ls -d "$d/$j"/sh-2p-*/ 2>/dev/null | wc -l)
		[ "$n" = 1 ] || { ls -R "$d/$j" >&2; fail "mpich: ranks on two hosts: $n job folders, want 1"; }
		f=$(ls -d "$d/$j"/sh-2p-*/)
		[ -s "$f/rank-0.maplog" ] && [ -s "$f/rank-1.maplog" ] ||
			{ ls -R "$d/$j" >&2; fail "mpich: ranks on two hosts: not both logs in $f"; }
		got=$(jobs_ids "$f")
		[ "$got" = "$want" ] || fail "mpich: ranks on two hosts: job ids '$got', want '$want' (the proxies' control port and pgid)"
		eval "id$j=\$got"
	done
	[ "$id1" != "$id2" ] || fail "mpich: two jobs, one job id $id1"
	set +e
	"$mapreport" "$d"/1/sh-2p-*/ "$d"/2/sh-2p-*/ >/dev/null 2>"$d/two.err"
	rc=$?
	set -e
	[ "$rc" = 2 ] && grep -q "in job $id1.*in job $id2\|in job $id2.*in job $id1" "$d/two.err" || {
		show "$d/two.err"
		fail "mpich: two jobs on two hosts: exit $rc, want 2 with both job ids named"
	}
}

case " $mpis " in *" mpich "*) hydra_hosts ;; esac
for m in $mpis; do
	two_jobs "$m"
	rank_per_log "$m"
	launcher_outside "$m"
	patterns "$m"
	rank_children "$m"
	bad_input "$m"
done

# -o errors, outside a job
set +e
"$mapsample" -q -o "$tmp/x%q.log" -- true 2>"$tmp/e1"
rc=$?
set -e
[ "$rc" = 125 ] || fail "-o x%q: exit $rc, want 125"
grep -q '%q: unknown' "$tmp/e1" || { show "$tmp/e1"; fail "-o x%q: no message"; }
set +e
env -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK -u SLURM_PROCID \
	"$mapsample" -q -o "$tmp/r%r.log" -- true 2>"$tmp/e2"
rc=$?
set -e
[ "$rc" = 125 ] || fail "-o r%r outside a job: exit $rc, want 125"
grep -q 'no MPI rank' "$tmp/e2" || { show "$tmp/e2"; fail "-o r%r: no message"; }
[ ! -e "$tmp/r%r.log" ] || fail "-o r%r: a log was made"

# mapreport on a folder with no log in it
mkdir "$tmp/empty"
set +e
"$mapreport" "$tmp/empty" >/dev/null 2>"$tmp/e3"
rc=$?
set -e
[ "$rc" = 2 ] || fail "mapreport EMPTY-FOLDER: exit $rc, want 2"
grep -q "$tmp/empty: a folder with no mapsample log" "$tmp/e3" || {
	show "$tmp/e3"
	fail "mapreport EMPTY-FOLDER: the folder is not named"
}
echo "mapsample-mpi: OK ($mpis)"
