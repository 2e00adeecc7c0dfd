#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""watch.py: runs a command with a time limit and, when it hangs, says where.

Usage: watch.py SECONDS REPORT COMMAND [ARG...]

Runs COMMAND in its own process group with the caller's standard input,
output and error, and exits with its status (128 + N when signal N ended
it).  When it is still running after SECONDS, writes to the file REPORT,
for every process descended from it and every thread of each, where the
thread waits: its state, kernel wait channel, the system call it is in
with the first argument (a futex's address) and the user-mode PC, each
address named by the mapping that holds it (file and offset) so that a
lock held across a fork can be told apart by library.  Then kills the
whole tree with SIGKILL and exits 124, as timeout(1) does.

The hang tests (mapsample-forkdl.sh and others) ran under timeout(1),
which says only that something hung; a hang seen once in some hundreds
of CI runs needs the where in the log of that run.  Needs only /proc.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

SYSCALLS = {202: "futex", 61: "wait4", 7: "poll", 232: "epoll_wait",
            0: "read", 1: "write", 35: "nanosleep", 230: "clock_nanosleep",
            24: "sched_yield", 247: "waitid", 23: "select", 270: "pselect6",
            271: "ppoll", 281: "epoll_pwait", 130: "rt_sigsuspend",
            128: "rt_sigtimedwait", 34: "pause"}


def children_of():
    kids = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                s = f.read()
        except OSError:
            continue
        # the name may hold spaces and parentheses: fields follow the last ')'
        rest = s[s.rfind(")") + 2:].split()
        kids.setdefault(int(rest[1]), []).append(int(d))
    return kids


def tree(root):
    kids = children_of()
    out, todo = [], [root]
    while todo:
        p = todo.pop(0)
        out.append(p)
        todo.extend(sorted(kids.get(p, [])))
    return out


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError as e:
        return "(%s)" % e.strerror


def mappings(pid):
    maps = []
    try:
        with open("/proc/%d/maps" % pid) as f:
            for line in f:
                parts = line.split(None, 5)
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                off = int(parts[2], 16)
                name = parts[5].strip() if len(parts) > 5 else "[anon]"
                maps.append((lo, hi, off, name, "x" in parts[1]))
    except OSError:
        pass
    return maps


SYMS = {}  # (file, offset) -> function, filled by symbolize()


def where(maps, addr):
    for lo, hi, off, name, _ in maps:
        if lo <= addr < hi:
            o = addr - lo + off
            fn = SYMS.get((name, o))
            return "%s+0x%x%s" % (os.path.basename(name) or name, o,
                                  " (%s)" % fn if fn else "")
    return "?"


def symbolize(pid, maps, addrs):
    """Function names by addr2line (binutils), one call per file; a
    file offset is taken for the address, as it is in the text of the
    shared objects and executables ld makes."""
    if not shutil.which("addr2line"):
        return
    per = {}
    for a in addrs:
        for lo, hi, off, name, x in maps:
            if x and lo <= a < hi and name.startswith("/"):
                per.setdefault(name, set()).add(a - lo + off)
    for name, offs in per.items():
        offs = sorted(o for o in offs if (name, o) not in SYMS)
        if not offs:
            continue
        try:
            r = subprocess.run(["addr2line", "-f", "-e", name] +
                               ["0x%x" % o for o in offs],
                               capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.SubprocessError):
            continue
        lines = r.stdout.splitlines()
        for i, o in enumerate(offs):
            if 2 * i < len(lines) and lines[2 * i] != "??":
                SYMS[(name, o)] = lines[2 * i]


def stack_code(pid, maps, sp, words=512, keep=16):
    """The words on the stack from sp on that point into code: most are
    return addresses, so they name the callers of the waiting call (a
    scan, not an unwind: a stale word now and then)."""
    try:
        with open("/proc/%d/mem" % pid, "rb") as f:
            f.seek(sp)
            data = f.read(words * 8)
    except (OSError, OverflowError, ValueError):
        return []
    found = []
    for i in range(0, len(data) - 7, 8):
        v = int.from_bytes(data[i:i + 8], "little")
        for lo, hi, off, name, x in maps:
            if x and lo <= v < hi and not name.startswith("["):
                found.append(v)
                break
        if len(found) >= keep:
            break
    symbolize(pid, maps, found)
    return [where(maps, v) for v in found]


def describe(pid, out):
    maps = mappings(pid)
    cmd = read("/proc/%d/cmdline" % pid).replace("\0", " ")
    out.write("process %d: %s\n" % (pid, cmd[:200]))
    try:
        tids = sorted(int(t) for t in os.listdir("/proc/%d/task" % pid))
    except OSError:
        out.write("  (gone)\n")
        return
    for tid in tids:
        base = "/proc/%d/task/%d" % (pid, tid)
        st = read(base + "/stat").rpartition(")")[2].split()
        state = st[0] if st else "gone"
        comm = read(base + "/comm")
        wchan = read(base + "/wchan")
        sc = read(base + "/syscall").split()
        line = "  thread %d (%s) state %s wchan %s" % (tid, comm, state, wchan)
        if sc and sc[0].lstrip("-").isdigit():
            nr = int(sc[0])
            if nr >= 0 and len(sc) >= 9:
                arg0 = int(sc[1], 16)
                pc = int(sc[8], 16)
                symbolize(pid, maps, [pc])
                line += "; in %s(0x%x = %s) from pc %s" % (
                    SYSCALLS.get(nr, "syscall %d" % nr), arg0,
                    where(maps, arg0), where(maps, pc))
                code = stack_code(pid, maps, int(sc[7], 16))
                if code:
                    line += "\n    stack words into code: " + " ".join(code)
            elif nr == -1 and len(sc) >= 3:
                line += "; running at pc %s" % where(maps, int(sc[2], 16))
        elif sc:
            line += "; " + " ".join(sc)
        out.write(line + "\n")


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: watch.py SECONDS REPORT COMMAND [ARG...]")
    limit = float(sys.argv[1])
    report = sys.argv[2]
    proc = subprocess.Popen(sys.argv[3:], start_new_session=True)
    end = time.monotonic() + limit
    while time.monotonic() < end:
        rc = proc.poll()
        if rc is not None:
            sys.exit(rc if rc >= 0 else 128 - rc)
        time.sleep(0.05)
    if proc.poll() is not None:
        sys.exit(proc.returncode if proc.returncode >= 0
                 else 128 - proc.returncode)
    pids = tree(proc.pid)
    try:
        with open(report, "w") as out:
            out.write("still running after %g s: %s\n" %
                      (limit, " ".join(sys.argv[3:])))
            for p in pids:
                describe(p, out)
    finally:
        kill(proc, pids)
    sys.exit(124)


def kill(proc, pids):
    for p in tree(proc.pid) + pids:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
    proc.wait()


if __name__ == "__main__":
    main()
