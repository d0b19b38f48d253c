#!/usr/bin/env python3
"""Summarizes the plugin's per-statement asm lines (-fplugin-arg-tileapply-asm-stats).

usage: asm_stats_summary.py [--under PATH_PART] [--min-percent P] < compile.log
Counts the statements whose file path contains PATH_PART, how many the checker
fully understood (every instruction found in the table, every operand
checked), and lists the rest by reason. Exits 1 when the share understood is
below P percent.
"""
import argparse
import re
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--under", default="")
    ap.add_argument("--min-percent", type=float, default=0.0)
    args = ap.parse_args()
    total = understood = 0
    reasons = {}
    for line in sys.stdin:
        m = re.match(r"^tileapply-asm-stats: (.*?):(\d+):(\d+): (understood|not understood: (.*))$",
                     line.rstrip("\n"))
        if not m or args.under not in m.group(1):
            continue
        total += 1
        if m.group(4) == "understood":
            understood += 1
        else:
            reasons[m.group(5)] = reasons.get(m.group(5), 0) + 1
    pct = 100.0 * understood / total if total else 0.0
    print("%d statements, %d fully understood (%.1f%%)" % (total, understood, pct))
    for why, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  %d not understood: %s" % (n, why))
    return 0 if total and pct >= args.min_percent else 1


if __name__ == "__main__":
    sys.exit(main())
