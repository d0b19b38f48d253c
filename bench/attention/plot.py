#!/usr/bin/env python3
"""Plots bench/attention's results: TFLOP/s per shape for each implementation.

    python3 bench/attention/plot.py attention.csv attention.png

Reads the CSV that run.py writes (rows of step "big" with a tflops column) and
draws one group of bars per shape. Needs matplotlib (the GPU machine's PyTorch
environment has it; the build machine need not).
"""
import csv
import sys


def read_big(path):
    shapes, values = [], {}
    with open(path) as f:
        rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    for r in rows:
        if r["step"] != "big" or not r["tflops"]:
            continue
        if r["shape"] not in shapes:
            shapes.append(r["shape"])
        values.setdefault(r["impl"], {})[r["shape"]] = float(r["tflops"])
    return shapes, values


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    shapes, values = read_big(argv[1])
    if not shapes:
        sys.exit("error: no timed rows in %s" % argv[1])
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    impls = [i for i in ("tileapply", "fa3", "cudnn", "fa2_sdpa") if i in values]
    width = 0.8 / len(impls)
    fig, ax = plt.subplots(figsize=(10, 4.5))
    for k, impl in enumerate(impls):
        xs = [s + k * width for s in range(len(shapes))]
        ax.bar(xs, [values[impl].get(s, 0.0) for s in shapes], width, label=impl)
    ax.axhline(989, color="grey", linestyle=":", linewidth=1)
    ax.set_xticks([s + 0.4 - width / 2 for s in range(len(shapes))])
    ax.set_xticklabels([s.replace("_", "\n", 1) for s in shapes], fontsize=7)
    ax.set_ylabel("TFLOP/s (bf16)")
    ax.set_title("Attention forward on the H200 (dotted: 989 TFLOP/s peak)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110)
    print("wrote %s" % argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
