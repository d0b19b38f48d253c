#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (test/fuzz/corpus/{opcode,pass}).

Seeds use the input format of test/fuzz/FuzzInput.h:
  * every marker call of test/lit/pass/*.ll with a constant opcode string and
    layout array, as a raw-layout input (mode bit 1): the real layouts;
  * spellings (valid ones, and misspellings for the did-you-mean search) with
    a generated layout (mode 0);
  * table forms by index (mode bit 0) with generated layouts.
The output is deterministic; re-run after changing the format:
  python3 test/fuzz/make_seeds.py
"""
import glob
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

STR = re.compile(r'^(@[\w.$]+) = [^\n]*?c"((?:[^"\\]|\\[0-9A-Fa-f]{2})*)\\00"', re.M)
ARR = re.compile(r'^(@[\w.$]+) = [^\n]*?\[\d+ x i32\] \[([^\]]*)\]', re.M | re.S)
CALL = re.compile(r'@__tileapply_apply\(ptr (@[\w.$]+),[^@\n]*(@[\w.$]+)')


def unescape(s):
    return re.sub(r'\\([0-9A-Fa-f]{2})', lambda m: chr(int(m.group(1), 16)), s)


def raw_seed(opcode, words, tail):
    b = bytes([2]) + opcode.encode() + b"\0" + struct.pack("<H", len(words))
    b += b"".join(struct.pack("<i", w) for w in words)
    return b + tail


def generated_seed(opcode, choices):
    return bytes([0]) + opcode.encode() + b"\0" + bytes(choices)


def indexed_seed(index, choices):
    return bytes([1]) + struct.pack("<H", index) + bytes(choices)


def real_layouts():
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "lit", "pass", "*.ll"))):
        text = open(path).read()
        strs = {m.group(1): unescape(m.group(2)) for m in STR.finditer(text)}
        arrs = {m.group(1): [int(x) for x in re.findall(r'i32 (-?\d+)', m.group(2))]
                for m in ARR.finditer(text)}
        for m in CALL.finditer(text):
            op, lay = m.group(1), m.group(2)
            if op in strs and lay in arrs:
                item = (strs[op], tuple(arrs[lay]))
                if item not in out:
                    out.append(item)
    return out


SPELLINGS = [
    "add.rn.f16x2", "add.f32", "sub.s32", "mul.wide.s32", "mad.lo.s32", "fma.rn.f32",
    "neg.f32", "abs.s16", "min.u32", "max.bf16x2", "and.b32", "lop3.b32", "prmt.b32",
    "setp.lt.f32", "selp.b32", "cvt.rn.f16x2.f32", "mov.b64", "ld.global.v4.b32",
    "st.shared.v2.f32", "ld.global.nc.L2::128B.b32", "add.rn.f32x2", "rcp.approx.ftz.f32",
    # misspellings, wrong order, missing type, unknown instruction, unsupported
    "add.f16x2.rn", "ad.rn.f16x2", "add.rn", "add.rn.f17x2", "adds.f32", "ld.b32",
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "bar.sync", "",
    "add..f32", ".add.f32", "add.f32.", "ld.global.v8.b32", "ld.global.v3.b32",
    "st.global.L2::128B.b32", "cvt.f32.f32", "shl.b32.b32",
]


def main():
    layouts = real_layouts()
    for target in ("opcode", "pass"):
        d = os.path.join(HERE, "corpus", target)
        os.makedirs(d, exist_ok=True)
        for f in glob.glob(os.path.join(d, "seed-*")):
            os.remove(f)
        seeds = []
        # opcode: a few layouts, every spelling; pass: every real layout first
        for i, (op, words) in enumerate(layouts if target == "pass" else layouts[:10]):
            # pass: default IR shapes, with a target and debug info on some
            tail = bytes([0, 0x38 if i % 2 else 0, 1 if i % 3 == 0 else 0]) + bytes(24)
            seeds.append(raw_seed(op, list(words), tail))
        for i, op in enumerate(SPELLINGS):
            seeds.append(generated_seed(op, [(i * 37) % 256, i % 3, (i * 5) % 16, 0, 0, 0, 0, 0]))
        for i in range(6):
            seeds.append(indexed_seed(i * 97, [i, 1, 2, 3, 0, 0]))
        seeds = seeds[:50]
        for n, s in enumerate(seeds):
            with open(os.path.join(d, "seed-%03d" % n), "wb") as f:
                f.write(s)
        print("%s: %d seeds (%d real layouts)" % (target, len(seeds), len(layouts)))


if __name__ == "__main__":
    main()
