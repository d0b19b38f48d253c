#!/usr/bin/env python3
"""Checks the stream benchmark's host reference independently of C++.

Reads `stream-clang --reference-dump N` on stdin:
    word I W      word I of the input stream is W (hex)
    sum A B S     add.rn.f16x2 of words A and B is S (hex), per the C++ reference
and recomputes each in plain Python: the generator from its definition
(bench/stream/data.h), the sum exactly (a double holds the sum of two halves
exactly) and rounded once to half by struct's 'e' format (round to nearest,
ties to even; past 65520 it overflows, which is infinity). Exit status 1 on
any difference, 2 if nothing was read.
"""
import math
import struct
import sys

M = 0xFFFFFFFF


def hash32(x):
    x ^= x >> 16
    x = (x * 0x7FEB352D) & M
    x ^= x >> 15
    x = (x * 0x846CA68B) & M
    x ^= x >> 16
    return x


def finite_half(h):
    return h ^ 0x4000 if (h & 0x7C00) == 0x7C00 else h


def input_word(i):
    h = hash32((i & M) ^ (((i >> 32) * 0x9E3779B9) & M))
    return finite_half(h & 0xFFFF) | (finite_half(h >> 16) << 16)


def half_value(h):
    return struct.unpack("<e", struct.pack("<H", h))[0]


def half_bits(x):
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return 0xFC00 if x < 0 else 0x7C00


def add_half(a, b):
    s = half_value(a) + half_value(b)  # exact in binary64
    if s == 0 and math.copysign(1, half_value(a)) < 0 and math.copysign(1, half_value(b)) < 0:
        s = -0.0  # (-0) + (-0); Python already gives -0.0, kept explicit
    return half_bits(s)


def add_f16x2(a, b):
    return add_half(a & 0xFFFF, b & 0xFFFF) | (add_half(a >> 16, b >> 16) << 16)


def main():
    words = sums = bad = 0
    for line in sys.stdin:
        f = line.split()
        if not f:
            continue
        if f[0] == "word":
            i, w = int(f[1]), int(f[2], 16)
            want = input_word(i)
            words += 1
        elif f[0] == "sum":
            a, b, w = (int(x, 16) for x in f[1:4])
            want = add_f16x2(a, b)
            sums += 1
        else:
            continue
        if w != want:
            bad += 1
            if bad <= 10:
                print("MISMATCH %s: C++ %08x, Python %08x" % (line.strip(), w, want))
    print("checked %d generator words and %d f16x2 sums: %d mismatches" % (words, sums, bad))
    if words + sums == 0:
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
