#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The mpi plugin's wrappers beyond mpiwork's calls, under Open MPI and
# under MPICH: mpirun -np 4 mapsample -- test/programs/mpimore.c, which
# calls the non-blocking collectives, MPI_Alltoallw, the neighbourhood
# collectives (a line of 4 ranks, not periodic), persistent requests,
# matched probes, one-sided calls and MPI-IO with known sizes.  Checks:
#   - every rank's MPI_CALLS record (mapreport -D) of each function has
#     the calls and the exact bytes sent and received the table below
#     computes for that rank (mapsample-metrics(5) says how each call
#     counts), and mapreport --merge --json's mpi_calls has their mean,
#     min and max, valid against the schema;
#   - the wrapper's class of each function (its mapsample_mpiwrap_state,
#     read with ctypes) is the table's: one-sided is point-to-point but
#     MPI_Win_fence collective, MPI-IO its own class;
#   - each rank's time-in-MPI metrics, integrated over the run, match the
#     calls' times by those classes (collective, point-to-point, all);
#     ranks 1-3 wait for rank 0 in MPI_Neighbor_alltoall and the last
#     MPI_Win_fence, which shows as collective time;
#   - the summary's point-to-point bytes (--json performance) are those of
#     the point-to-point functions only, not of MPI-IO or the new
#     collectives;
#   - a Fortran program (test/programs/mpifort.f90, mpif.h bindings,
#     built with the MPI's Fortran compiler wrapper configure found and
#     checked, $MPIFC_OPENMPI or $MPIFC_MPICH; run by hand, without
#     them, mpif90.openmpi and mpifort.mpich from PATH) has each of its calls
#     counted once with its exact bytes, and no other: under MPICH the
#     bindings call the C functions, which the C wrappers count; under
#     Open MPI they call PMPI_ directly, and the wrapper's Fortran
#     bindings (mpiwrap_fort.c) count them;
# An MPI whose compiler and mpirun are not installed is skipped with a
# message; with neither, the test is skipped; with MAPSAMPLE_NO_SKIP=mpi
# (CI) either is a failure.
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"
mpi_test_setup
wrap=$top_builddir/plugins/mpi/.libs/libmapsample-mpiwrap.so

# The expected figures: for each function, its class and, for a rank r
# of 4, its calls, bytes sent and bytes received (mpimore.c's sizes:
# int 4 bytes, double and long 8).  "calls" None: at least one (a
# polling loop).
cat >"$tmp/expect.py" <<'EOP'
P2P, COLL, OTHER, FILE = 0, 1, 2, 3
NP = 4

def k(r):  # real neighbours on the line of 4
    return (r > 0) + (r < NP - 1)

def v_s(r):  # 15 ints down, 25 up
    return (r > 0) * 60 + (r < NP - 1) * 100

def v_r(r):  # 25 from below, 15 from above
    return (r > 0) * 100 + (r < NP - 1) * 60

root = lambda r, a, b=0: a if r == 0 else b
E = {
    # non-blocking collectives and Alltoallw
    "MPI_Alltoallw": (COLL, lambda r: (1, 400, 160 * (r + 1))),
    "MPI_Ialltoallw": (COLL, lambda r: (1, 400, 160 * (r + 1))),
    "MPI_Iallgather": (COLL, lambda r: (1, 400, 1600)),
    "MPI_Iallgatherv": (COLL, lambda r: (1, 40 * (r + 1), 400)),
    "MPI_Ialltoall": (COLL, lambda r: (1, 800, 800)),
    "MPI_Ialltoallv": (COLL, lambda r: (1, 200, 80 * (r + 1))),
    "MPI_Igather": (COLL, lambda r: (1, 256, root(r, 1024))),
    "MPI_Iscatter": (COLL, lambda r: (1, root(r, 1024), 256)),
    "MPI_Igatherv": (COLL, lambda r: (1, 32 * (r + 1), root(r, 320))),
    "MPI_Iscatterv": (COLL, lambda r: (1, root(r, 320), 32 * (r + 1))),
    "MPI_Ireduce_scatter": (COLL, lambda r: (1, 240, 24 * (r + 1))),
    "MPI_Ireduce_scatter_block": (COLL, lambda r: (1, 224, 56)),
    "MPI_Iscan": (COLL, lambda r: (1, 72, 72)),
    "MPI_Iexscan": (COLL, lambda r: (1, 88, 88)),
    # neighbourhood collectives
    "MPI_Neighbor_allgather": (COLL, lambda r: (1, 80 * k(r), 80 * k(r))),
    "MPI_Ineighbor_allgather": (COLL, lambda r: (1, 80 * k(r), 80 * k(r))),
    "MPI_Neighbor_allgatherv": (COLL, lambda r: (1, 80 * k(r), 80 * k(r))),
    "MPI_Ineighbor_allgatherv": (COLL, lambda r: (1, 80 * k(r), 80 * k(r))),
    "MPI_Neighbor_alltoall": (COLL, lambda r: (1, 120 * k(r), 120 * k(r))),
    "MPI_Ineighbor_alltoall": (COLL, lambda r: (1, 120 * k(r), 120 * k(r))),
    "MPI_Neighbor_alltoallv": (COLL, lambda r: (1, v_s(r), v_r(r))),
    "MPI_Ineighbor_alltoallv": (COLL, lambda r: (1, v_s(r), v_r(r))),
    "MPI_Neighbor_alltoallw": (COLL, lambda r: (1, v_s(r), v_r(r))),
    "MPI_Ineighbor_alltoallw": (COLL, lambda r: (1, v_s(r), v_r(r))),
    # persistent requests: 256 doubles started 3 + 2 (Startall) times,
    # 128 doubles once
    "MPI_Send_init": (P2P, lambda r: (1, 0, 0)),
    "MPI_Ssend_init": (P2P, lambda r: (1, 0, 0)),
    "MPI_Recv_init": (P2P, lambda r: (2, 0, 0)),
    "MPI_Start": (P2P, lambda r: (8, 3 * 2048 + 1024, 3 * 2048 + 1024)),
    "MPI_Startall": (P2P, lambda r: (2, 2 * 2048, 2 * 2048)),
    # matched probes: 300 ints twice
    "MPI_Isend": (P2P, lambda r: (2, 2400, 0)),
    "MPI_Mprobe": (P2P, lambda r: (1, 0, 0)),
    "MPI_Mrecv": (P2P, lambda r: (1, 0, 1200)),
    "MPI_Improbe": (P2P, lambda r: (None, 0, 0)),
    "MPI_Imrecv": (P2P, lambda r: (1, 0, 1200)),
    # one-sided: the origin's bytes
    "MPI_Put": (P2P, lambda r: (2, 800 + 32, 0)),
    "MPI_Get": (P2P, lambda r: (1, 0, 400)),
    "MPI_Accumulate": (P2P, lambda r: (1, 200, 0)),
    "MPI_Get_accumulate": (P2P, lambda r: (2, 80, 160)),  # one MPI_NO_OP
    "MPI_Fetch_and_op": (P2P, lambda r: (1, 8, 8)),
    "MPI_Compare_and_swap": (P2P, lambda r: (1, 16, 8)),
    "MPI_Rput": (P2P, lambda r: (1, 160, 0)),
    "MPI_Rget": (P2P, lambda r: (1, 0, 240)),
    "MPI_Raccumulate": (P2P, lambda r: (1, 40, 0)),
    "MPI_Rget_accumulate": (P2P, lambda r: (1, 48, 48)),
    "MPI_Win_fence": (COLL, lambda r: (3, 0, 0)),
    "MPI_Win_lock": (P2P, lambda r: (2, 0, 0)),
    "MPI_Win_unlock": (P2P, lambda r: (2, 0, 0)),
    "MPI_Win_lock_all": (P2P, lambda r: (1, 0, 0)),
    "MPI_Win_unlock_all": (P2P, lambda r: (1, 0, 0)),
    "MPI_Win_flush": (P2P, lambda r: (1, 0, 0)),
    "MPI_Win_flush_all": (P2P, lambda r: (1, 0, 0)),
    "MPI_Win_flush_local": (P2P, lambda r: (1, 0, 0)),
    "MPI_Win_flush_local_all": (P2P, lambda r: (1, 0, 0)),
    "MPI_Win_post": (P2P, lambda r: (1, 0, 0)),
    "MPI_Win_start": (P2P, lambda r: (1, 0, 0)),
    "MPI_Win_complete": (P2P, lambda r: (1, 0, 0)),
    "MPI_Win_wait": (P2P, lambda r: (1, 0, 0)),
    "MPI_Win_sync": (P2P, lambda r: (1, 0, 0)),
    # MPI-IO: written bytes as sent, read as received
    "MPI_File_open": (FILE, lambda r: (1, 0, 0)),
    "MPI_File_close": (FILE, lambda r: (1, 0, 0)),
    "MPI_File_sync": (FILE, lambda r: (1, 0, 0)),
    "MPI_File_set_view": (FILE, lambda r: (1, 0, 0)),
    "MPI_File_write_at": (FILE, lambda r: (1, 16000, 0)),
    "MPI_File_write_at_all": (FILE, lambda r: (1, 4000, 0)),
    "MPI_File_write": (FILE, lambda r: (1, 40, 0)),
    "MPI_File_write_all": (FILE, lambda r: (1, 40, 0)),
    "MPI_File_write_shared": (FILE, lambda r: (1, 80, 0)),
    "MPI_File_write_ordered": (FILE, lambda r: (1, 80, 0)),
    "MPI_File_iwrite": (FILE, lambda r: (1, 20, 0)),
    "MPI_File_iwrite_all": (FILE, lambda r: (1, 20, 0)),
    "MPI_File_iwrite_at": (FILE, lambda r: (1, 24, 0)),
    "MPI_File_iwrite_at_all": (FILE, lambda r: (1, 24, 0)),
    "MPI_File_iwrite_shared": (FILE, lambda r: (1, 28, 0)),
    "MPI_File_read_at": (FILE, lambda r: (1, 0, 1200)),
    "MPI_File_read_at_all": (FILE, lambda r: (1, 0, 1200)),
    "MPI_File_read": (FILE, lambda r: (1, 0, 800)),
    "MPI_File_read_all": (FILE, lambda r: (1, 0, 800)),
    "MPI_File_read_shared": (FILE, lambda r: (1, 0, 400)),
    "MPI_File_read_ordered": (FILE, lambda r: (1, 0, 400)),
    "MPI_File_iread": (FILE, lambda r: (1, 0, 200)),
    "MPI_File_iread_all": (FILE, lambda r: (1, 0, 200)),
    "MPI_File_iread_at": (FILE, lambda r: (1, 0, 120)),
    "MPI_File_iread_at_all": (FILE, lambda r: (1, 0, 120)),
    "MPI_File_iread_shared": (FILE, lambda r: (1, 0, 40)),
}
# classes of the functions mpimore calls besides (mpiwork's families)
CLASS = {f: c for f, (c, _) in E.items()}
for f in ("MPI_Wait", "MPI_Waitall", "MPI_Send", "MPI_Recv", "MPI_Irecv"):
    CLASS[f] = P2P
for f in ("MPI_Barrier", "MPI_Allreduce", "MPI_Bcast"):
    CLASS[f] = COLL
for f in ("MPI_Init", "MPI_Init_thread", "MPI_Finalize"):
    CLASS[f] = OTHER
EOP

# classes: the wrapper's own table against the expected one
python3 - "$wrap" "$tmp" >"$tmp/why" 2>&1 <<'EOP' ||
import ctypes, sys
sys.path.insert(0, sys.argv[2])
from expect import CLASS
class State(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("nfn", ctypes.c_uint32),
                ("names", ctypes.POINTER(ctypes.c_char_p)),
                ("classes", ctypes.POINTER(ctypes.c_uint8)),
                ("threads", ctypes.c_void_p)]
lib = ctypes.CDLL(sys.argv[1])
lib.mapsample_mpiwrap_state.restype = ctypes.POINTER(State)
st = lib.mapsample_mpiwrap_state().contents
have = {st.names[i].decode(): st.classes[i] for i in range(st.nfn)}
bad = [(f, have.get(f), c) for f, c in sorted(CLASS.items()) if have.get(f) != c]
assert not bad, ("function, wrapper's class, expected", bad)
print("classes of", len(CLASS), "functions as expected;", st.nfn, "functions wrapped")
EOP
	{ show "$tmp/why"; fail "the wrapper's classes: $(tail -n 1 "$tmp/why")"; }
cat "$tmp/why"

# check_job MPI: the four logs $tmp/$MPI.R.log of mpimore
check_job() {
	mpi=$1
	logs=
	for r in 0 1 2 3; do
		l=$tmp/$mpi.$r.log
		[ -s "$l" ] || fail "$mpi: no log of rank $r"
		"$mapreport" -D "$l" >"$tmp/$mpi.$r.dump" || fail "$mpi: mapreport -D $l failed"
		logs="$logs $l"
	done
	# shellcheck disable=SC2086
	"$mapreport" --merge --json $logs >"$tmp/$mpi.json" 2>"$tmp/$mpi.jerr" ||
		{ show "$tmp/$mpi.jerr"; fail "$mpi: mapreport --json failed"; }
	python3 - "$tmp" "$mpi" "$top_srcdir/share/mapsample/mapreport.schema.json" \
		>"$tmp/why" 2>&1 <<'EOP' ||
import json, re, sys
tmp, mpi, schema = sys.argv[1:4]
sys.path.insert(0, tmp)
from expect import E, CLASS, NP, P2P, COLL, FILE
doc = json.load(open("%s/%s.json" % (tmp, mpi)))
try:
    import jsonschema
    jsonschema.validate(doc, json.load(open(schema)))
except ImportError:
    pass
got, ids, vals = {}, {}, {}
for r in range(NP):
    got[r], ids[r], vals[r] = {}, {}, {}
    for l in open("%s/%s.%d.dump" % (tmp, mpi, r)):
        m = re.search(r" mpi-calls +(\S+) calls (\d+) time (\d+) sent (\d+) received (\d+)$", l)
        if m:
            got[r][m.group(1)] = tuple(int(x) for x in m.group(2, 3, 4, 5))
        m = re.search(r" metric-def +#(\d+) (\S+) ", l)
        if m:
            ids[r][m.group(1)] = m.group(2)
        m = re.match(r"\s*\d+ ([0-9.]+) \S+ metric-value #(\d+) ([0-9.]+)$", l)
        if m:
            vals[r].setdefault(ids[r].get(m.group(2)), []).append(
                (float(m.group(1)), float(m.group(3))))
# each rank's figures, exactly
for f, (cls, fn) in sorted(E.items()):
    for r in range(NP):
        calls, sent, recv = fn(r)
        g = got[r].get(f)
        assert g, ("rank %d: no MPI_CALLS of %s" % (r, f))
        if calls is None:
            assert g[0] >= 1, (r, f, g)
        else:
            assert g[0] == calls, ("rank %d %s calls" % (r, f), g[0], calls)
        assert (g[2], g[3]) == (sent, recv), ("rank %d %s sent, received" % (r, f), g[2:], (sent, recv))
# the merged statistics: mean, min and max across the ranks
calls = {c["function"]: c for c in doc["mpi_calls"]}
for f, (cls, fn) in sorted(E.items()):
    c = calls.get(f)
    assert c and c["ranks_calling"] == NP, ("--json mpi_calls", f, c)
    for q, i in (("calls", 0), ("sent", 1), ("received", 2)):
        want = [fn(r)[i] for r in range(NP)]
        if None in want:
            continue
        s = c[q]
        assert (s["min"], s["max"]) == (min(want), max(want)), (f, q, s, want)
        assert abs(s["mean"] - sum(want) / NP) < 1e-6, (f, q, s, want)
        if want.count(max(want)) == 1:
            assert s["max_rank"] == want.index(max(want)), (f, q, s, want)
# the time metrics, integrated per rank (a value is the share of the
# time since the previous reading, in percent), against the calls'
# times by class; calls of functions no table names would fail here
def integral(r, metric):
    # one series per process (the plugin's previous reading is the
    # process's), whichever thread's record holds a value: by time
    v = sorted(vals[r].get("com.mapsample.metrics.mpi." + metric, []))
    return sum(x / 100 * (t - p[0]) for p, (t, x) in zip(v, v[1:]))
out = []
for r in range(NP):
    unknown = [f for f in got[r] if f not in CLASS]
    assert not unknown, ("rank %d: functions of no known class" % r, unknown)
    by = {c: sum(g[1] for f, g in got[r].items() if CLASS[f] == c) / 1e9
          for c in (P2P, COLL, FILE)}
    total = sum(g[1] for g in got[r].values()) / 1e9
    coll, p2p, all_ = (integral(r, m) for m in ("collective_time", "p2p_time", "time"))
    slack = lambda x: 0.03 + 0.1 * x
    assert abs(coll - by[COLL]) <= slack(by[COLL]), ("rank %d collective time: metric %.3f s, calls %.3f s" % (r, coll, by[COLL]))
    assert abs(p2p - by[P2P]) <= slack(by[P2P]), ("rank %d point-to-point time: metric %.3f s, calls %.3f s" % (r, p2p, by[P2P]))
    # time in MPI counts MPI-IO and the rest too, and part of MPI_Init
    # and MPI_Finalize (the metric's readings span from the first sample
    # to the last, which may come before either ends)
    part = by[P2P] + by[COLL] + by[FILE]
    assert part - slack(part) <= all_ <= total + slack(total), ("rank %d time in MPI: metric %.3f s, calls %.3f s, without MPI_Init and MPI_Finalize %.3f s" % (r, all_, total, part))
    if r > 0:
        assert by[COLL] >= 0.2, ("rank %d waited %.3f s in collectives, want >= 0.2 (rank 0 spins 0.3 s twice)" % (r, by[COLL]))
    out.append("rank %d: coll %.3f/%.3f p2p %.3f/%.3f all %.3f/%.3f-%.3f file %.3f" % (r, coll, by[COLL], p2p, by[P2P], all_, part, total, by[FILE]))
# the summary's point-to-point messages: the point-to-point functions'
# bytes, none of MPI-IO's or of the collectives'
perf = doc["performance"]
pb = sum(g[2] + g[3] for r in range(NP) for f, g in got[r].items() if CLASS[f] == P2P)
pc = sum(sum(got[r][f][0] for r in range(NP) if f in got[r])
         for f in {f for r in range(NP) for f in got[r] if CLASS[f] == P2P}
         if sum(got[r][f][2] + got[r][f][3] for r in range(NP) if f in got[r]) > 0)
assert perf["mpi_p2p_bytes"] == pb, ("performance mpi_p2p_bytes", perf["mpi_p2p_bytes"], pb)
assert perf["mpi_p2p_calls"] == pc, ("performance mpi_p2p_calls", perf["mpi_p2p_calls"], pc)
print("; ".join(out))
EOP
		{ show "$tmp/why"; fail "$mpi: $(tail -n 1 "$tmp/why")"; }
	echo "$mpi: $(cat "$tmp/why")"
}

# fortran MPI FC MPIRUN [OPTIONS]: mpifort.f90 on 4 ranks, each call of
# each rank exactly as the table says, nothing counted twice or missed
fortran() {
	mpi=$1 fc=$2 run=$3
	shift 3
	if [ -z "$fc" ]; then
		skip_part mpi "$mpi: configure found no working Fortran compiler wrapper (apt-get install gfortran, then configure again) to test the Fortran bindings"
		return 0
	fi
	if ! command -v "$fc" >/dev/null || ! command -v gfortran >/dev/null; then
		skip_part mpi "$mpi: no Fortran compiler ($fc, gfortran); apt-get install gfortran to test the Fortran bindings"
		return 0
	fi
	"$fc" -O1 -w -fallow-argument-mismatch -o "$tmp/mpifort-$mpi" \
		"$top_srcdir/test/programs/mpifort.f90" ||
		fail "$mpi: $fc cannot build mpifort.f90"
	timeout 120 "$run" "$@" -np 4 "$mapsample" -q --metrics-dir "$metrics" \
		--metrics default,mpi -o "$tmp/$mpi.f.%r.log" -- "$tmp/mpifort-$mpi" \
		>"$tmp/$mpi.f.out" 2>"$tmp/$mpi.f.err" ||
		{ show "$tmp/$mpi.f.out" "$tmp/$mpi.f.err"; fail "$mpi: mpirun -np 4 mapsample -- mpifort failed"; }
	grep -q "mpifort: 4 ranks done" "$tmp/$mpi.f.out" ||
		{ show "$tmp/$mpi.f.out" "$tmp/$mpi.f.err"; fail "$mpi: mpifort did not finish"; }
	for r in 0 1 2 3; do
		"$mapreport" -D "$tmp/$mpi.f.$r.log" >"$tmp/$mpi.f.$r.dump" ||
			fail "$mpi: mapreport -D of mpifort's rank $r failed"
	done
	python3 - "$tmp" "$mpi" >"$tmp/why" 2>&1 <<'EOP' ||
import re, sys
tmp, mpi = sys.argv[1:3]
r0 = lambda r, a, b: a if r == 0 else b
# mpifort.f90's calls: (calls, sent, received) of rank r
F = {
    "MPI_Init": lambda r: (1, 0, 0),
    "MPI_Finalize": lambda r: (1, 0, 0),
    "MPI_Isend": lambda r: (1, 8000, 0),
    "MPI_Recv": lambda r: r0(r, (4, 0, 8000 + 3 * 1200), (1, 0, 8000)),
    "MPI_Wait": lambda r: (1, 0, 0),
    "MPI_Send": lambda r: r0(r, (1, 400, 0), (2, 1200 + 400, 0)),
    "MPI_Allreduce": lambda r: (2, 8000, 8000),
    "MPI_Bcast": lambda r: r0(r, (1, 2000, 0), (1, 0, 2000)),
    "MPI_Reduce": lambda r: r0(r, (1, 800, 800), (1, 800, 0)),
    "MPI_Barrier": lambda r: (1, 0, 0),
    "MPI_Irecv": lambda r: (1, 0, 400),
    "MPI_Waitall": lambda r: (1, 0, 0),
}
for r in range(4):
    got = {}
    for l in open("%s/%s.f.%d.dump" % (tmp, mpi, r)):
        m = re.search(r" mpi-calls +(\S+) calls (\d+) time \d+ sent (\d+) received (\d+)$", l)
        if m:
            got[m.group(1)] = tuple(int(x) for x in m.group(2, 3, 4))
    want = {f: fn(r) for f, fn in F.items()}
    assert got == want, ("rank %d: (calls, sent, received)" % r,
                         {f: (got.get(f), want.get(f)) for f in set(got) | set(want) if got.get(f) != want.get(f)})
print("the Fortran calls of 4 ranks counted once each, with their exact bytes")
EOP
		{ show "$tmp/why"; fail "$mpi: Fortran: $(tail -n 1 "$tmp/why")"; }
	echo "$mpi: $(cat "$tmp/why")"
}

run_mpi() {
	mpi=$1 cc=$2 run=$3 fc=$4
	shift 4
	if [ -z "$cc" ] || [ -z "$run" ] || ! command -v "$cc" >/dev/null ||
		! command -v "$run" >/dev/null; then
		skip_part mpi "$mpi: its compiler or mpirun is not installed (configure did not find them); apt-get install it to test $mpi"
		return 1
	fi
	"$cc" -O1 -o "$tmp/mpimore-$mpi" "$top_srcdir/test/programs/mpimore.c" ||
		fail "$mpi: $cc cannot build mpimore.c"
	timeout 120 "$run" "$@" -np 4 "$mapsample" -q --metrics-dir "$metrics" \
		--metrics default,mpi -o "$tmp/$mpi.%r.log" -- \
		"$tmp/mpimore-$mpi" "$tmp/$mpi.dat" 300 \
		>"$tmp/$mpi.out" 2>"$tmp/$mpi.err" ||
		{ show "$tmp/$mpi.out" "$tmp/$mpi.err"; fail "$mpi: mpirun -np 4 mapsample -- mpimore failed"; }
	grep -q "mpimore: 4 ranks done" "$tmp/$mpi.out" ||
		{ show "$tmp/$mpi.out" "$tmp/$mpi.err"; fail "$mpi: mpimore did not finish"; }
	check_job "$mpi"
	fortran "$mpi" "$fc" "$run" "$@"
	return 0
}

ran=0
# the Fortran compilers: each MPI's wrapper that configure found and
# checked (make check sets MPIFC_*, empty when none works), else from PATH
run_mpi openmpi "${MPICC_OPENMPI:-mpicc.openmpi}" "${MPIRUN_OPENMPI:-mpirun.openmpi}" \
	"${MPIFC_OPENMPI-mpif90.openmpi}" --oversubscribe && ran=$((ran + 1)) || true
run_mpi mpich "${MPICC_MPICH:-mpicc.mpich}" "${MPIRUN_MPICH:-mpirun.mpich}" \
	"${MPIFC_MPICH-mpifort.mpich}" && ran=$((ran + 1)) || true
[ "$ran" -gt 0 ] || skip mpi "neither Open MPI nor MPICH is installed"
