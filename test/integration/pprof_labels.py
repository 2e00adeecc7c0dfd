#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
#
# pprof_labels.py FILE: the label sets of the samples of pprof profile
# FILE (gzip-compressed profile.proto, as mapreport --pprof writes it),
# one line per distinct set, "key=value" pairs joined by spaces in the
# order of the file.  Reads the protocol buffer itself (Profile.sample =
# 2, Sample.label = 3, Label.key/str/num = 1/2/3, Profile.string_table =
# 6), so the tests that use it need no pprof tool.
import gzip
import sys


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    """(field number, wire type, value) of message b; value is an int
    or bytes."""
    i = 0
    while i < len(b):
        k, i = varint(b, i)
        n, t = k >> 3, k & 7
        if t == 0:
            v, i = varint(b, i)
        elif t == 2:
            ln, i = varint(b, i)
            v = b[i:i + ln]
            i += ln
        elif t == 1:
            v = b[i:i + 8]
            i += 8
        elif t == 5:
            v = b[i:i + 4]
            i += 4
        else:
            raise ValueError("wire type %d at byte %d" % (t, i))
        yield n, t, v


def main():
    data = gzip.open(sys.argv[1]).read()
    strings, samples = [], []
    for n, t, v in fields(data):
        if n == 6:
            strings.append(v.decode())
        elif n == 2:
            samples.append(v)
    seen = set()
    for s in samples:
        labels = []
        for n, t, v in fields(s):
            if n != 3:
                continue
            key, sv, num = 0, 0, 0
            for ln, lt, lv in fields(v):
                if ln == 1:
                    key = lv
                elif ln == 2:
                    sv = lv
                elif ln == 3:
                    num = lv
            labels.append("%s=%s" % (strings[key],
                                     strings[sv] if sv else num))
        line = " ".join(labels)
        if line not in seen:
            seen.add(line)
            print(line)


main()
