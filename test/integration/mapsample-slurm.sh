#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# srun -n N mapsample -- PROGRAM on a one-node Slurm that the test starts
# itself (munged, slurmctld and slurmd on this host, from a slurm.conf
# and a munge key made in a temporary folder, stopped at the end, failed
# or not):
#   srun --mpi=pmi2 -n 4 mapsample -- mpiranks.mpich (and --mpi=pmix
#     with mpiranks.openmpi): one log per rank in PROG-4p-JOB.STEP/, each
#     the log of its rank (JOB records from the variables and from MPI);
#   srun -n 2 mapsample -- hot (a serial program): hot-2p-JOB.STEP/ with
#     rank-0 and rank-1 from SLURM_PROCID; mapreport DIR reads both.
# Skips (77) only when Slurm or munge is not installed, the test is not
# run as root (slurmd must be), or the daemons cannot start here (said
# with their log); with MAPSAMPLE_NO_SKIP=slurm (CI) each of those, and
# an MPI missing, is a failure.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

for t in munged slurmctld slurmd srun sinfo scontrol; do
	command -v "$t" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
	command -v "$t" >/dev/null 2>&1 ||
		skip slurm "$t not found: apt-get install slurm-wlm munge"
done
[ "$(id -u)" = 0 ] || skip slurm "slurmd runs as root: run this test as root"
need_programs hot

tmp=$(mktemp -d /tmp/mapsample-slurm.XXXXXX)
chmod 755 "$tmp"
stop() { # stop PIDFILE: ends the daemon whose pid the file holds
	[ -s "$1" ] || return 0
	p=$(cat "$1")
	kill "$p" 2>/dev/null || return 0
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$p" 2>/dev/null || return 0
		sleep 0.5
	done
	kill -9 "$p" 2>/dev/null || true
}
cleanup() {
	stop "$tmp/slurmd.pid"
	stop "$tmp/slurmctld.pid"
	stop "$tmp/munge/pid"
	rm -rf "$tmp"
}
trap cleanup EXIT

host=$(hostname -s)
port=$((20000 + $$ % 20000))
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/run"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge/key"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=mapsampletest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
PlugStackConfig=/dev/null
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
unset SLURM_JOB_ID SLURM_JOBID SLURM_STEP_ID SLURM_STEPID SLURM_PROCID \
	MAPSAMPLE_JOB_ID 2>/dev/null || true

cannot_start() {
	for f in "$tmp/munge/log" "$tmp/slurmctld.log" "$tmp/slurmd.log"; do
		[ -f "$f" ] && { echo "--- $f:"; tail -n 5 "$f"; }
	done
	skip slurm "the one-node Slurm cannot start here: $1"
}
munged --force --socket="$tmp/munge/sock" --key-file="$tmp/munge/key" \
	--pid-file="$tmp/munge/pid" --seed-file="$tmp/munge/seed" \
	--log-file="$tmp/munge/log" || cannot_start "munged failed"
slurmctld -i || cannot_start "slurmctld failed"
slurmd || cannot_start "slurmd failed"
up=0
for _ in $(seq 1 40); do
	if sinfo -h -o '%T' 2>/dev/null | grep -q '^idle'; then
		up=1
		break
	fi
	sleep 0.5
done
[ "$up" = 1 ] || cannot_start "the node never became idle"

# job_folder PROG N: the one folder PROG-Np-JOB.STEP in $tmp/run
job_folder() {
	n=$(ls -d "$tmp/run/$1-$2p-"*/ 2>/dev/null | wc -l)
	[ "$n" = 1 ] || { ls -R "$tmp/run" >&2; fail "$1: $n job folders, want 1"; }
	d=$(ls -d "$tmp/run/$1-$2p-"*/)
	basename "$d" | grep -Eq "^$1-$2p-[0-9]+\.[0-9]+\$" ||
		fail "$d: not named after Slurm's JOB.STEP"
	echo "$d"
}

# rank_logs DIR N SOURCE: DIR has rank-0..N-1.maplog, each its rank's
# (a JOB record of rank R, size N, from SOURCE)
rank_logs() {
	r=0
	while [ "$r" -lt "$2" ]; do
		f=$1/rank-$r.maplog
		[ -s "$f" ] || { ls -R "$1" >&2; fail "no $f"; }
		"$mapreport" -D "$f" >"$tmp/dump" || fail "mapreport -D $f failed"
		grep -q " job  *rank $r size $2 application job '[0-9]*\.[0-9]*' launcher 'slurm' from '$3'" \
			"$tmp/dump" || {
			grep ' job ' "$tmp/dump" >&2 || true
			fail "$f: no JOB record of rank $r of $2 from $3"
		}
		r=$((r + 1))
	done
}

mpi() { # mpi MPI PLUGIN
	[ -x "$programs/mpiranks.$1" ] || {
		skip_part slurm "srun --mpi=$2 with $1: no $programs/mpiranks.$1" \
			"(configure found no mpicc.$1)"
		return 0
	}
	(cd "$tmp/run" && timeout 60 srun --mpi="$2" -n 4 "$mapsample" -q -- \
		"$programs/mpiranks.$1" 100 >"$tmp/$1.out" 2>"$tmp/$1.err") || {
		show "$tmp/$1.err"
		fail "srun --mpi=$2 -n 4 mapsample -- mpiranks.$1 failed"
	}
	d=$(job_folder "mpiranks.$1" 4)
	rank_logs "$d" 4 MPI
	"$mapreport" "$d" >"$tmp/$1.report" 2>"$tmp/$1.rerr" || {
		show "$tmp/$1.rerr"
		fail "mapreport $d failed"
	}
	grep -q '^ *Processes: *4 ' "$tmp/$1.report" || {
		show "$tmp/$1.report"
		fail "mapreport $d: not 4 processes"
	}
}
mpi mpich pmi2
mpi openmpi pmix

(cd "$tmp/run" && timeout 60 srun -n 2 "$mapsample" -q -- "$programs/hot" 300 \
	>"$tmp/hot.out" 2>"$tmp/hot.err") || {
	show "$tmp/hot.err"
	fail "srun -n 2 mapsample -- hot failed"
}
d=$(job_folder hot 2)
rank_logs "$d" 2 SLURM_PROCID
"$mapreport" "$d" >"$tmp/hot.report" 2>"$tmp/hot.rerr" || {
	show "$tmp/hot.rerr"
	fail "mapreport $d failed"
}
grep -q '^ *Processes: *2 ' "$tmp/hot.report" || {
	show "$tmp/hot.report"
	fail "mapreport $d: not 2 processes"
}
grep -q 'burn_hot' "$tmp/hot.report" || fail "mapreport $d: burn_hot missing"
echo "mapsample-slurm: OK"
