#!/usr/bin/env python3
"""The SASS instruction mix of kernels, from `cuobjdump -sass` output.

    sass_mix.py FILE.sass                  every function: its instruction counts
    sass_mix.py FILE.sass FUNC_A FUNC_B    compare two functions (substrings of
                                           their mangled names); exit 1 if the
                                           mixes differ
    sass_mix.py A.sass:FUNC_A B.sass:FUNC_B   the same across two files

Runs where cuobjdump is (the GPU machine's toolkit; the build machine has
none). An instruction is counted by its full opcode with modifiers
(LDG.E.128, HADD2, ...) and whether a predicate guards it ('@p '). Every
listing also says whether the function touches local memory (LDL / STL: spills
or a stack array), which ptxas -v cannot show after the fact.
"""
import collections
import re
import sys

import ptx_mix  # the comparison's arguments and table

FUNC_RE = re.compile(r"^\s*Function\s*:\s*(\S+)")
INS_RE = re.compile(r"^\s*/\*[0-9a-fA-F]{4,}\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")


def functions(text):
    out = {}
    name = None
    for line in text.splitlines():
        m = FUNC_RE.match(line)
        if m:
            name = m.group(1)
            out.setdefault(name, [])
            continue
        if name is None:
            continue
        m = INS_RE.match(line)
        if m:
            out[name].append(("@p " if m.group(1) else "") + m.group(2))
    return out


def local_memory(counts):
    return sum(n for op, n in counts.items() if op.split()[-1].split(".")[0] in ("LDL", "STL"))


def load(path):
    try:
        with open(path) as f:
            return functions(f.read())
    except OSError as e:
        sys.exit("error: %s" % e)


def find(funcs, key, path):
    hits = [n for n in funcs if key in n]
    if len(hits) != 1:
        sys.exit("error: %s: %d functions match '%s' (have: %s)"
                 % (path, len(hits), key, ", ".join(sorted(funcs)) or "none"))
    return hits[0]


def main(argv):
    if len(argv) == 2:
        funcs = load(argv[1])
        if not funcs:
            sys.exit("error: no 'Function :' in %s (is it cuobjdump -sass output?)" % argv[1])
        for name, ins in funcs.items():
            c = collections.Counter(ins)
            print("%s: %d instructions, local memory accesses: %d" % (name, len(ins), local_memory(c)))
            for op, n in sorted(c.items()):
                print("  %4d  %s" % (n, op))
        return 0
    pair = ptx_mix.pair_args(argv)
    if not pair:
        sys.exit(__doc__)
    pa, ka, pb, kb = pair
    fa, fb = load(pa), load(pb)
    na, nb = find(fa, ka, pa), find(fb, kb, pb)
    ca, cb = collections.Counter(fa[na]), collections.Counter(fb[nb])
    ptx_mix.print_counts(ka, kb, ca, cb)
    print("local memory accesses: %s %d, %s %d" % (ka, local_memory(ca), kb, local_memory(cb)))
    same_seq = fa[na] == fb[nb]
    if ca != cb:
        print("SASS MIX DIFFERS: %s vs %s" % (na, nb))
        return 1
    print("SAME SASS MIX: %s and %s (%d instructions each%s)"
          % (na, nb, sum(ca.values()), ", same order" if same_seq else ", order differs"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
