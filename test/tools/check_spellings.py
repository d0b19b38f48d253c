#!/usr/bin/env python3
"""Every real-world spelling is a form, or refused with a documented reason.

    check_spellings.py --opcodes PATH SPELLINGS.tsv REFUSED.tsv PENDING.tsv

SPELLINGS.tsv is test/spellings/real-world.tsv (spelling first, occurrence
count third). Each spelling is judged by `tileapply-opcodes --check`:

- accepted: a form (in the order written, or in another order ptxas accepts);
- refused, and REFUSED.tsv documents why: an entry `SPELLING<TAB>reason` or
  `pattern:REGEX<TAB>reason` (REGEX, Python syntax, matches the whole
  spelling);
- refused, and PENDING.tsv expects it after a merge: the same format, for
  families other branches are adding. Such spellings pass and are counted.

A refused spelling with neither is UNDOCUMENTED; an entry that no refused
spelling matches any more is STALE (the spelling is accepted now: delete the
entry, or move it when a pending family lands). Either fails (exit 1).
"""
import argparse
import re
import subprocess
import sys


def entries(path):
    out = []
    for line in open(path):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        key, _, reason = line.partition("\t")
        if not reason.strip():
            sys.exit("%s: entry '%s' has no reason" % (path, key))
        if key.startswith("pattern:"):
            out.append([key, re.compile(key[len("pattern:"):] + r"\Z"), reason, 0])
        else:
            out.append([key, key, reason, 0])
    return out


def matches(entry, spelling):
    test = entry[1]
    return test == spelling if isinstance(test, str) else bool(test.match(spelling))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opcodes", required=True)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("spellings")
    ap.add_argument("refused")
    ap.add_argument("pending")
    a = ap.parse_args()

    rows = []
    for line in list(open(a.spellings))[1:]:
        cols = line.rstrip("\n").split("\t")
        rows.append((cols[0], int(cols[2])))
    verdicts = {}
    names = [s for s, _ in rows]
    for i in range(0, len(names), 400):
        batch = names[i:i + 400]
        out = subprocess.run([a.opcodes, "--check", *batch], capture_output=True, text=True).stdout
        lines = out.splitlines()
        if len(lines) != len(batch):
            sys.exit("tileapply-opcodes --check printed %d lines for %d spellings" % (len(lines), len(batch)))
        for s, l in zip(batch, lines):
            verdicts[s] = l[len(s) + 2:] if l.startswith(s + ": ") else l

    refused, pending = entries(a.refused), entries(a.pending)
    accepted = documented = waiting = bad = 0
    occ = {"accepted": 0, "documented": 0, "pending": 0}
    for s, count in rows:
        v = verdicts[s]
        if v.startswith("ok:"):
            accepted += 1
            occ["accepted"] += count
            continue
        hit = next((e for e in refused if matches(e, s)), None)
        if hit:
            hit[3] += 1
            documented += 1
            occ["documented"] += count
            if a.verbose:
                print("refused %s: %s" % (s, hit[2]))
            continue
        hit = next((e for e in pending if matches(e, s)), None)
        if hit:
            hit[3] += 1
            waiting += 1
            occ["pending"] += count
            continue
        bad += 1
        print("UNDOCUMENTED %s (%d occurrences): %s" % (s, count, v))
    stale = 0
    for name, es in (("refused", refused), ("pending", pending)):
        for e in es:
            if e[3] == 0:
                stale += 1
                print("STALE %s entry '%s': no refused spelling matches it (accepted now?)" % (name, e[0]))
    total = sum(c for _, c in rows)
    print("%d real-world spellings (%d occurrences): %d accepted (%d occurrences), %d refused with a "
          "documented reason (%d), %d pending other families (%d); %d undocumented, %d stale entries"
          % (len(rows), total, accepted, occ["accepted"], documented, occ["documented"], waiting,
             occ["pending"], bad, stale))
    return 1 if bad or stale else 0


if __name__ == "__main__":
    sys.exit(main())
