#!/usr/bin/env python3
"""The instruction mix of PTX kernels, and whether two kernels share one.

    ptx_mix.py FILE.ptx                      every .entry: its instruction counts
    ptx_mix.py FILE.ptx ENTRY_A ENTRY_B      compare two entries (substrings of
                                             their mangled names); exit 1 if the
                                             mixes differ
    ptx_mix.py A.ptx:ENTRY_A B.ptx:ENTRY_B   the same across two files

An instruction is counted by its full spelling (every qualifier: add.rn.f16x2,
ld.global.v4.b32) and whether it is guarded by a predicate ("@p "): the guard's
register name is not part of it. Directives (.reg, .param, ...), braces,
labels and comments are not instructions. Inline-asm text counts like any other
PTX, so a kernel written with __tile_apply and the same kernel written in
hand-written asm can be compared line for line.
"""
import collections
import re
import sys

ENTRY_RE = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$][\w$]*)")


def entries(text):
    """{mangled name: [instruction lines]} for every .entry in PTX text."""
    out = {}
    name = None
    depth = 0
    body = []
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        m = ENTRY_RE.match(line)
        if m and depth == 0:
            name = m.group(1)
            body = []
            continue
        if name is None:
            continue
        opens, closes = line.count("{"), line.count("}")
        if depth == 0 and opens == 0:
            continue  # the parameter list, .maxntid and friends
        depth += opens - closes
        stmt = line.strip("{} \t")
        if stmt and not stmt.startswith(".") and not stmt.endswith(":"):
            body.extend(s.strip() for s in stmt.split(";") if s.strip())
        if depth == 0:
            out[name] = body
            name = None
    return out


def mix(lines):
    """Counter of instruction spellings, guarded ones as '@p <spelling>'."""
    counts = collections.Counter()
    for ins in lines:
        guard = ""
        if ins.startswith("@"):
            guard_reg, ins = ins.split(None, 1)
            guard = "@!p " if guard_reg.startswith("@!") else "@p "
        counts[guard + ins.split()[0]] += 1
    return counts


def find(ents, key, path):
    hits = [n for n in ents if key in n]
    if len(hits) != 1:
        sys.exit("error: %s: %d entries match '%s' (have: %s)"
                 % (path, len(hits), key, ", ".join(sorted(ents)) or "none"))
    return hits[0]


def load(path):
    try:
        with open(path) as f:
            return entries(f.read())
    except OSError as e:
        sys.exit("error: %s" % e)


def pair_args(argv):
    """The two (file, kernel) pairs a comparison names: `FILE A B` or
    `FILE_A:A FILE_B:B`; None for any other arguments."""
    if len(argv) == 3 and ":" in argv[1] and ":" in argv[2]:
        (pa, ka), (pb, kb) = (a.rsplit(":", 1) for a in argv[1:3])
        return pa, ka, pb, kb
    if len(argv) == 4:
        return argv[1], argv[2], argv[1], argv[3]
    return None


def print_counts(ka, kb, ca, cb):
    """Prints two instruction counts side by side, flagging the rows that
    differ, and a total row; returns the two totals."""
    keys = sorted(set(ca) | set(cb))
    width = max([len(k) for k in keys] + [len("instruction")])
    wa, wb = max(6, len(ka)), max(6, len(kb))
    print("%-*s  %*s  %*s" % (width, "instruction", wa, ka, wb, kb))
    for k in keys:
        flag = "" if ca[k] == cb[k] else "   <-- differs"
        print("%-*s  %*d  %*d%s" % (width, k, wa, ca[k], wb, cb[k], flag))
    total_a, total_b = sum(ca.values()), sum(cb.values())
    print("%-*s  %*d  %*d" % (width, "total", wa, total_a, wb, total_b))
    return total_a, total_b


def main(argv):
    if len(argv) == 2:
        for name, body in load(argv[1]).items():
            print(name)
            for ins, n in sorted(mix(body).items()):
                print("  %4d  %s" % (n, ins))
        return 0
    pair = pair_args(argv)
    if not pair:
        sys.exit(__doc__)
    pa, ka, pb, kb = pair
    ea, eb = load(pa), load(pb)
    na, nb = find(ea, ka, pa), find(eb, kb, pb)
    ma, mb = mix(ea[na]), mix(eb[nb])
    total_a, _ = print_counts(ka, kb, ma, mb)
    if ma != mb:
        print("MIX DIFFERS: %s vs %s" % (na, nb))
        return 1
    print("SAME MIX: %s and %s (%d instructions each)" % (na, nb, total_a))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
