#!/usr/bin/env python3
"""Reads tileapply-migrate's summary and checks the share that migrates.

usage: migrate_summary.py [--min-percent P] < output
Prints "M of N one-instruction statements migrate (X%)" and the reasons for
the rest with their counts; exits 1 when the share is below P.
"""
import re
import sys


def main():
    minimum = 0.0
    if "--min-percent" in sys.argv:
        minimum = float(sys.argv[sys.argv.index("--min-percent") + 1])
    text = sys.stdin.read()
    m = re.search(r"(\d+) asm statements, (\d+) of one instruction, (\d+) migrate", text)
    if not m:
        print("FAIL: no summary line")
        return 1
    single, migrated = int(m.group(2)), int(m.group(3))
    share = 100.0 * migrated / single if single else 0.0
    print("%d of %d one-instruction statements migrate (%.1f%%)" % (migrated, single, share))
    for n, why in re.findall(r"^\s+(\d+) not migrated: (.*)$", text, re.M):
        print("  %s %s" % (n, why))
    if share < minimum:
        print("FAIL: below %.1f%%" % minimum)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
