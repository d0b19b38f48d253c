#!/usr/bin/env python3
"""Every inline-asm instruction of a PTX file, traced to a __tile_apply call.

    asm_audit.py FILE.ptx SOURCE... [--no-asm SOURCE...]

Reads the opcodes the SOURCE files name in `__tile_apply("...")` calls (and
the patterns of `__tile_apply(tile::fmt<"...{}...", N>` calls) and
checks that every instruction inside the PTX's inline-asm blocks (between
clang's `// begin inline asm` and `// end inline asm`; a `@p` guard in front
is allowed) is one of them, spelled exactly. Empty inline-asm blocks (the
register fences of tile::fence_operand) hold no instruction and are counted
apart. The files after --no-asm must contain no `asm` statement at all (the
kernel's own sources: every PTX instruction they need goes through
__tile_apply). Prints the instruction counts per opcode; exit 1 on an
instruction no call names or an `asm` statement, 2 on bad usage.
"""
import collections
import re
import sys

CALL_RE = re.compile(r'__tile_apply\(\s*"([^"]+)"')
# An opcode built by tile::fmt<"pattern", N...>: each {} is an integer.
FMT_RE = re.compile(r'__tile_apply\(\s*tile::fmt<\s*"([^"]+)"')
ASM_RE = re.compile(r"\basm\b\s*(volatile\b)?\s*\(|__asm__")
GUARD_RE = re.compile(r"^@!?%?\w+\s+")


def opcodes_of(paths):
    """(the opcodes written as literals, the tile::fmt patterns as regexes)."""
    ops, patterns = set(), []
    for p in paths:
        with open(p) as f:
            text = f.read()
        ops |= set(CALL_RE.findall(text))
        patterns += [re.compile(re.escape(f).replace(r"\{\}", "[0-9]+"))
                     for f in FMT_RE.findall(text)]
    return ops, patterns


def asm_instructions(ptx):
    """(instructions, empty blocks) of the inline-asm blocks of a PTX text."""
    ins, empty, block, inside = [], 0, [], False
    for line in ptx.splitlines():
        s = line.strip()
        if s.startswith("// begin inline asm"):
            inside, block = True, []
            continue
        if s.startswith("// end inline asm"):
            inside = False
            if not block:
                empty += 1
            ins.extend(block)
            continue
        if inside and s and not s.startswith("//"):
            block.append(s)
    return ins, empty


def main(argv):
    args = argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    no_asm = []
    if "--no-asm" in args:
        k = args.index("--no-asm")
        no_asm = args[k + 1:]
        args = args[:k]
    ptx_path, sources = args[0], args[1:] + no_asm
    ops, patterns = opcodes_of(sources)
    if not ops and not patterns:
        print("error: no __tile_apply call in %s" % ", ".join(sources))
        return 2
    bad = 0
    for p in no_asm:
        with open(p) as f:
            for n, line in enumerate(f, 1):
                code = line.split("//")[0]
                if ASM_RE.search(code):
                    print("BAD %s:%d: an asm statement: %s" % (p, n, line.strip()))
                    bad += 1
    with open(ptx_path) as f:
        ins, empty = asm_instructions(f.read())
    counts = collections.Counter()
    for s in ins:
        body = GUARD_RE.sub("", s)
        op = body.split()[0].rstrip(";") if body.split() else ""
        if op not in ops and not any(p.fullmatch(op) for p in patterns):
            print("BAD inline asm not from a __tile_apply call: %s" % s)
            bad += 1
            continue
        counts[(op, s.startswith("@"))] += 1
    for (op, guarded), n in sorted(counts.items()):
        print("%6d  %s%s" % (n, "@p " if guarded else "", op))
    print("%d empty inline-asm blocks (register fences)" % empty)
    if bad:
        print("asm-audit FAILED: %d instruction(s) or statement(s) not from __tile_apply" % bad)
        return 1
    print("asm-audit OK: %d inline-asm instructions, %d distinct opcodes, all named by __tile_apply calls"
          % (sum(counts.values()), len({op for op, _ in counts})))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
