#!/usr/bin/env python3
"""Reads PTX and checks every inline-asm block of several instructions for
the register-allocation hazard of issue 17: a register that one instruction
of the block writes and a later instruction of the same block reads. Such a
block computes with an overwritten input. Registers the block declares
itself (`.reg`, scratch) are exempt, since writing then reading them is
their purpose.

Prints one line per hazard and a summary `N blocks of several instructions,
M hazards`; exits 1 when there is a hazard or no such block at all (a test
that found nothing to check proves nothing).
"""
import re
import sys

REG = re.compile(r"%[a-z]+[0-9]+")


def instructions(block):
    for line in block:
        line = line.split("//")[0].strip()
        if not line or line in ("{", "}") or line.startswith(".reg"):
            continue
        yield line.rstrip(";")


def main(path):
    text = open(path).read().splitlines()
    blocks, current = [], None
    for line in text:
        if "begin inline asm" in line:
            current = []
        elif "end inline asm" in line:
            blocks.append(current)
            current = None
        elif current is not None:
            current.append(line)
    several = hazards = 0
    for block in blocks:
        insts = list(instructions(block))
        if len(insts) < 2:
            continue
        several += 1
        declared = set()
        for line in block:
            if line.strip().startswith(".reg"):
                declared.update(REG.findall(line))
        written = {}
        for n, inst in enumerate(insts):
            body = re.sub(r"^@!?%p[0-9]+\s+", "", inst)
            parts = body.split(None, 1)
            if len(parts) < 2:
                continue
            ops = parts[1].split(",")
            dests = REG.findall(ops[0])
            reads = [r for op in ops[1:] for r in REG.findall(op)]
            guard = REG.findall(inst[: len(inst) - len(body)])
            for r in reads + guard:
                if r in written and r not in declared:
                    hazards += 1
                    print(f"hazard: {r} written by '{insts[written[r]]}' "
                          f"is read by the later '{inst}'")
            for d in dests:
                written.setdefault(d, n)
    print(f"{several} blocks of several instructions, {hazards} hazards")
    return 1 if hazards or several == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
