#!/usr/bin/env python3
"""Compares the instruction streams of two PTX files, function by function.

usage: compare_ptx.py ORIGINAL.ptx MIGRATED.ptx [--expect-tile-apply N]

Every function (.entry / .func) of ORIGINAL must be in MIGRATED with the same
instructions in the same order and the same operands. What may differ is only
what carries no meaning: comments (the `// begin inline asm` markers and the
comments of asm templates), blanks and the spacing of operands, `.reg`
declarations, the numbers of virtual registers, the spelling of a
floating-point immediate (1.0 or 0f3F800000), and the order in which
parameters are loaded and addresses converted. Each operand is compared as
the value it holds: a register made by ld.param / cvta / cvt / mov is spelled
as that instruction applied to its operands (recursively), a register an
earlier instruction produced as that instruction's result; so a changed
operand, a dropped conversion or another order of the instructions proper is
a difference.

With --fold-shared-address, one known difference is folded first: a .shared
address passed to an instruction in a 32-bit register made by
`cvt.u32.u64 %r, %rd` from the 64-bit one (what CCCL's __as_ptr_smem gives
an asm statement) reads as that 64-bit register (what the expansion of a
tile::shared view passes). Both name the same byte of shared memory; the
fold is applied to both files, and only where the 32-bit register is used
as an address and nowhere else.

With --expect-tile-apply N, the MIGRATED file must hold at least N inline-asm
blocks (proof that the migrated calls were compiled, not some other source).

Prints a summary; exits 1 on the first function that differs, showing it.
"""
import re
import struct
import sys

REG = re.compile(r"%[a-z]+[0-9]+")


def functions(path):
    """{name: [normalized instruction lines]} and the count of asm blocks."""
    out, order = {}, []
    asm_blocks = 0
    name, body, depth = None, None, 0
    in_asm = False
    for raw in open(path):
        if "// begin inline asm" in raw:
            asm_blocks += 1
            in_asm = True
        if "// end inline asm" in raw:
            in_asm = False
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        if body is None:
            m = re.match(r"^(?:\.visible\s+|\.weak\s+|\.extern\s+)*\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)", line)
            if m:
                name = m.group(1)
            if name and line.startswith("{"):
                body, depth = [], 0
            elif name and line.endswith(";") and "{" not in line:
                name = None  # a declaration, no body
            if body is None:
                continue
        depth += line.count("{") - line.count("}")
        if depth <= 0 and line == "}":
            out[name] = body
            order.append(name)
            name, body = None, None
            continue
        if line.startswith(".reg") or line.startswith(".loc") or line in ("{", "}"):
            continue
        # One instruction per statement (asm text may hold several on a line).
        for stmt in line.split(";"):
            stmt = stmt.strip()
            if stmt and stmt not in ("{", "}"):
                body.append((" ".join(re.sub(r"\s*,\s*", ", ", stmt).split()), in_asm))
    return out, order, asm_blocks


# The compiler's own instructions outside inline asm that compute a value
# (loads of the arguments, address conversions, moves, arithmetic) are folded
# into the operands that use them, so the order in which the two compilations
# compute them does not matter. Every instruction of an inline-asm block, and
# the compiler's stores, control flow and calls, are events, kept in order.
EVENT = re.compile(r"^(st\.|ret|bra|call|atom|red|bar|@)")


FLOAT = re.compile(r"^-?[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?$")


def immediate(tok, op):
    """A decimal floating-point immediate as PTX's exact 0f/0d spelling of it
    (what the expansion writes): `1.0` and `0f3F800000` are the same operand."""
    if not FLOAT.match(tok):
        return tok
    if ".f64" in op:
        return "0d%016X" % struct.unpack("<Q", struct.pack("<d", float(tok)))[0]
    return "0f%08X" % struct.unpack("<I", struct.pack("<f", float(tok)))[0]


def events(lines, fold):
    """The function as its events in order, each operand spelled as the value
    it holds: a pure instruction's operands recursively, an event's result as
    `out<k>.<i>` (the i-th result of the k-th event)."""
    meaning = {}
    cvt32 = {}
    out = []

    def value(tok, in_brackets=False):
        def sub(m):
            r = m.group(0)
            if fold and in_brackets and r in cvt32:
                r = cvt32[r]
            return meaning.get(r, "?" + r)
        return REG.sub(sub, tok)

    for l, in_asm in lines:
        op, _, rest = l.partition(" ")
        ops = [o.strip() for o in rest.split(", ")] if rest else []
        if not in_asm and not EVENT.match(op) and ops and REG.fullmatch(ops[0]):
            meaning[ops[0]] = "%s(%s)" % (op, ", ".join(value(o) for o in ops[1:]))
            if op == "cvt.u32.u64" and len(ops) == 2 and REG.fullmatch(ops[1]):
                cvt32[ops[0]] = ops[1]
            continue
        k = len(out)
        spelled = []
        for i, o in enumerate(ops):
            if REG.fullmatch(o) and o not in meaning and i == 0:
                meaning[o] = "out%d" % k  # a result of this event
                spelled.append("out%d" % k)
            elif o.startswith("{") and i == 0 and all(REG.fullmatch(x.strip()) and x.strip() not in meaning
                                                    for x in o.strip("{}").split(",")):
                regs = [x.strip() for x in o.strip("{}").split(",")]
                for j, x in enumerate(regs):
                    meaning[x] = "out%d.%d" % (k, j)
                spelled.append("{" + ", ".join(meaning[x] for x in regs) + "}")
            else:
                spelled.append(value(immediate(o, op), o.startswith("[")))
        out.append(op + " " + ", ".join(spelled))
    return out


def main():
    args = sys.argv[1:]
    expect = None
    fold = "--fold-shared-address" in args
    if fold:
        args.remove("--fold-shared-address")
    if "--expect-tile-apply" in args:
        i = args.index("--expect-tile-apply")
        expect = int(args[i + 1])
        del args[i:i + 2]
    a, order, _ = functions(args[0])
    b, _, blocks = functions(args[1])
    if expect is not None and blocks < expect:
        print("FAIL: %s has %d inline-asm blocks, expected at least %d" % (args[1], blocks, expect))
        return 1
    compared = instrs = 0
    for fn in order:
        if fn not in b:
            print("FAIL: function %s is missing from %s" % (fn, args[1]))
            return 1
        x, y = events(a[fn], fold), events(b[fn], fold)
        if x != y:
            print("FAIL: function %s differs" % fn)
            for k in range(max(len(x), len(y))):
                l = x[k] if k < len(x) else "<end>"
                r = y[k] if k < len(y) else "<end>"
                print("  %s %-60s | %s" % ("  " if l == r else "!!", l, r))
            return 1
        compared += 1
        instrs += len(x)
    print("%d functions, %d instructions: the same instructions in the same order, "
          "with the same operands" % (compared, instrs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
