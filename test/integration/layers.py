#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""layers.py: checks the module map of README.md, "Layout", on the sources.

Reads every .c file of lib/, cmd/ and plugins/, finds the functions and
variables each defines with external linkage and the names each uses, and
from that which file calls (or takes the address of) which.  A module is a
folder.  Fails, with one line per problem, when
  - a module uses a module that is not below it in ALLOWED (a call up or
    sideways), or
  - two files call each other (within a module or across), or
  - a .c or .h file has more than MAX_LINES lines and its opening comment
    does not say why (the words "one file" or "stays whole" there).
Usage: layers.py TOP_SRCDIR.  Prints "layers: N files, M uses between
files: OK" when all is well.
"""
import os
import re
import sys

# What each module may use (besides itself).  Lowest first.
ALLOWED = {
    "lib/common": set(),
    "lib/log": set(),
    "lib/model": {"lib/log", "lib/common"},
    "lib/defs": {"lib/log", "lib/common"},
    "lib/report": {"lib/model", "lib/defs", "lib/log", "lib/common"},
    "lib/report/out": {"lib/report", "lib/model", "lib/defs", "lib/log",
                       "lib/common"},
    "lib/launch": {"lib/model", "lib/defs", "lib/log", "lib/common"},
    "lib/pluginapi": set(),
    "lib/sampler": {"lib/pluginapi", "lib/log"},
    "cmd/mapreport": {"lib/report/out", "lib/report", "lib/model",
                      "lib/defs", "lib/log", "lib/common"},
    "cmd/mapsample": {"lib/launch", "lib/model", "lib/defs", "lib/log",
                      "lib/common"},
}
# plugins/<name>/ may use the plugin API only.
PLUGIN_ALLOWED = {"lib/pluginapi", "lib/sampler"}
MAX_LINES = 1000

C_KEYWORDS = set("""if for while switch return sizeof do else case default
goto break continue typedef struct union enum static extern const volatile
inline register restrict _Alignof _Static_assert __attribute__ defined
""".split())


def strip(src):
    """Source without comments, string and character literals, and
    preprocessor lines (their line breaks kept)."""
    out = []
    i, n = 0, len(src)
    bol = True
    while i < n:
        c = src[i]
        if bol and c == "#":
            # a preprocessor line, with its continuations
            while i < n and src[i] != "\n":
                if src[i] == "\\" and i + 1 < n and src[i + 1] == "\n":
                    out.append("\n")
                    i += 2
                    continue
                i += 1
            continue
        if c == "/" and src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * src.count("\n", i, j) or " ")
            i = j
            continue
        if c == "/" and src.startswith("//", i):
            while i < n and src[i] != "\n":
                i += 1
            continue
        if c in "\"'":
            q = c
            i += 1
            while i < n and src[i] != q:
                i += 2 if src[i] == "\\" else 1
            i += 1
            out.append(" 0 ")
            bol = False
            continue
        out.append(c)
        if c == "\n":
            bol = True
        elif not c.isspace():
            bol = False
        i += 1
    return "".join(out)


TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[{}();=,\[\]]")


def scan(path):
    """(defined external functions, defined external variables, used
    names) of one C file."""
    text = strip(open(path, encoding="utf-8", errors="replace").read())
    toks = TOKEN.findall(text)
    defined, variables, used = set(), set(), set()
    depth = 0          # brace depth
    paren = 0
    stmt = []          # tokens of the current top-level declaration
    for k, t in enumerate(toks):
        if t == "{":
            if depth == 0 and paren == 0:
                # a function body (or an initializer/struct body)
                name = top_name(stmt, body=True)
                if name and "static" not in stmt and "=" not in stmt \
                        and "struct" != stmt[0] and "enum" != stmt[0] \
                        and "union" != stmt[0] and "typedef" not in stmt:
                    defined.add(name)
            depth += 1
            continue
        if t == "}":
            depth -= 1
            if depth == 0 and stmt and "=" not in stmt:
                stmt = []
            continue
        if depth > 0:
            if t not in C_KEYWORDS and (t[0].isalpha() or t[0] == "_"):
                used.add(t)
            continue
        if t == "(":
            paren += 1
        elif t == ")":
            paren -= 1
        if t == ";" and paren == 0:
            if stmt and "static" not in stmt and "extern" not in stmt \
                    and "typedef" not in stmt and "(" not in stmt[:3] \
                    and stmt[0] not in ("struct", "enum", "union") \
                    or (stmt and stmt[0] in ("struct", "enum", "union")
                        and "=" in stmt and "static" not in stmt):
                # a variable definition with external linkage
                name = top_name(stmt, body=False)
                if name:
                    variables.add(name)
            if "=" in stmt:
                for u in stmt[stmt.index("="):]:
                    if u not in C_KEYWORDS and (u[0].isalpha() or u[0] == "_"):
                        used.add(u)
            stmt = []
            continue
        stmt.append(t)
    return defined, variables, used


def top_name(stmt, body):
    """The name a top-level declaration defines."""
    if body:
        # NAME ( ... ) {
        for k in range(len(stmt) - 1):
            if stmt[k + 1] == "(" and stmt[k] not in C_KEYWORDS \
                    and stmt[k] != "__attribute__":
                return stmt[k]
        return None
    upto = stmt.index("=") if "=" in stmt else len(stmt)
    if "[" in stmt[:upto]:
        upto = stmt.index("[")
    names = [t for t in stmt[:upto] if t[0].isalpha() or t[0] == "_"]
    names = [t for t in names if t not in C_KEYWORDS]
    return names[-1] if names else None


def libc_names():
    """A set-like view of the names the C library defines."""
    import ctypes

    class Libc:
        def __init__(self):
            self.lib = ctypes.CDLL("libc.so.6")

        def __contains__(self, name):
            try:
                getattr(self.lib, name)
                return True
            except AttributeError:
                return False
    return Libc()


def module_of(rel):
    d = os.path.dirname(rel)
    if d.startswith("plugins/"):
        return d
    return d


def long_file_ok(path):
    head = open(path, encoding="utf-8", errors="replace").read(4000)
    end = head.find("*/")
    head = head[:end if end > 0 else len(head)]
    return "one file" in head or "stays whole" in head


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    files = []
    for root in ("lib", "cmd", "plugins"):
        for d, _, names in os.walk(os.path.join(top, root)):
            for f in names:
                if f.endswith(".c") or f.endswith(".h"):
                    files.append(os.path.relpath(os.path.join(d, f), top))
    files.sort()
    problems = []
    for rel in files:
        with open(os.path.join(top, rel), encoding="utf-8",
                  errors="replace") as fh:
            n = sum(1 for _ in fh)
        if n > MAX_LINES and not long_file_ok(os.path.join(top, rel)):
            problems.append("%s: %d lines, over %d, and its opening comment "
                            "does not say why it stays one file"
                            % (rel, n, MAX_LINES))
    cfiles = [f for f in files if f.endswith(".c")]
    uses, owner, is_func = {}, {}, {}
    libc = libc_names()
    for rel in cfiles:
        d, v, u = scan(os.path.join(top, rel))
        uses[rel] = u
        for name in d | v:
            if name in libc:
                continue   # an interposed libc function: not ours to call
            owner.setdefault(name, set()).add(rel)
            is_func[name] = name in d
    edges, calls = {}, {}
    for rel in cfiles:
        for name in uses[rel]:
            o = owner.get(name)
            if not o or len(o) != 1:
                continue   # unknown, or defined in several (main, stubs)
            (target,) = o
            if target != rel:
                edges.setdefault((rel, target), set()).add(name)
                if is_func[name]:
                    calls.setdefault((rel, target), set()).add(name)
    for (a, b), names in sorted(edges.items()):
        ma, mb = module_of(a), module_of(b)
        if ma != mb:
            if ma.startswith("plugins/"):
                ok = mb in PLUGIN_ALLOWED
            else:
                ok = mb in ALLOWED.get(ma, set())
            if not ok:
                problems.append("%s uses %s of %s: module %s may not use %s "
                                "(test/integration/layers.py, ALLOWED)"
                                % (a, ", ".join(sorted(names)[:3]), b, ma,
                                   mb))
    for (a, b), names in sorted(calls.items()):
        if a < b and (b, a) in calls:
            problems.append("%s and %s call each other (%s; %s)"
                            % (a, b, ", ".join(sorted(names)[:3]),
                               ", ".join(sorted(calls[(b, a)])[:3])))
    for p in problems:
        print("layers: " + p)
    if problems:
        print("layers: %d problem%s" % (len(problems),
                                        "" if len(problems) == 1 else "s"))
        return 1
    print("layers: %d files, %d uses between files: OK"
          % (len(files), len(edges)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
