#!/usr/bin/env python3
"""Turns a benchmark run's results into bench/results/BENCH.md and BENCH.png.

    python3 bench/plot.py BENCH RESULTS [RESULTS...] [--out DIR]

BENCH is a benchmark of bench/common/results.py (stream). RESULTS are the CSV
files a run wrote (bench/stream/run.sh writes BENCH.csv into its output
folder), or folders holding BENCH.csv. Writes into DIR (default
bench/results/): BENCH.csv (the rows and notes, merged), BENCH.md (the table,
the ratio summary, how it was measured, the run's notes, the plot) and
BENCH.png. Needs matplotlib (pip install matplotlib); runs where the results
were copied to, not on the GPU machine.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "common"))
import results  # noqa: E402


def plot_stream(disp, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    spec = results.SPECS["stream"]
    names = results.labels(disp)
    variants = [v for v in spec["order"] if v in names] + sorted(set(names) - set(spec["order"]))
    style = {
        "tile_apply": dict(color="#d62728", marker="o", linewidth=2.4, zorder=5),
        "asm_clang": dict(color="#1f77b4", marker="s", linestyle="--"),
        "asm_nvcc": dict(color="#17becf", marker="D", linestyle="--"),
        "hadd2_clang": dict(color="#2ca02c", marker="^", linestyle=":"),
        "hadd2_nvcc": dict(color="#98df8a", marker="v", linestyle=":"),
        "torch_add": dict(color="#ff7f0e", marker="P", linestyle="-."),
        "memcpy_d2d": dict(color="#7f7f7f", marker="x", linestyle="-"),
    }
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(9, 8.5), sharex=True,
                                  gridspec_kw={"height_ratios": [3, 2]})
    for v in variants:
        pts = sorted((d["size_bytes"] / 2**20, d["gbps"], d["ratio_tile_apply"])
                     for d in disp if d["variant"] == v and d["status"] == "ok")
        if not pts:
            continue
        xs = [p[0] for p in pts]
        kw = style.get(v, {})
        # matplotlib leaves labels that start with "_" out of the legend:
        # "__tile_apply" and "__hadd2" start with a zero-width space instead.
        label = "\u200b" + names[v] if names[v].startswith("_") else names[v]
        ax.plot(xs, [p[1] for p in pts], label=label, **kw)
        if v != "tile_apply":
            ax2.plot(xs, [p[2] for p in pts], label=label, **kw)
    ax2.axhline(1.0, color="#d62728", linewidth=1.2)
    ax.set_xscale("log", base=2)
    sizes = sorted({d["size_bytes"] for d in disp})
    ax2.set_xticks([s / 2**20 for s in sizes])
    ax2.set_xticklabels([results.format_bytes(s).replace(" + ", "\n+ ") for s in sizes],
                        fontsize=8)
    ax2.minorticks_off()
    ax.set_ylabel("GB/s (read + written, median)")
    ax.set_title(spec["title"])
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_ylim(bottom=0)
    ax2.set_ylabel("GB/s relative to __tile_apply")
    ax2.set_xlabel("bytes per fp16 array")
    ax2.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=130)
    plt.close(fig)


PLOTTERS = {"stream": plot_stream}


def main(argv):
    args = argv[1:]
    out_dir = os.path.join(HERE, "results")
    if "--out" in args:
        k = args.index("--out")
        if k + 1 >= len(args):
            sys.exit("error: --out needs a folder")
        out_dir = args[k + 1]
        del args[k:k + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    bench, inputs = args[0], args[1:]
    if bench not in results.SPECS or bench not in PLOTTERS:
        sys.exit("error: unknown benchmark '%s' (have: %s)" % (bench, ", ".join(PLOTTERS)))
    files = []
    for p in inputs:
        f = os.path.join(p, bench + ".csv") if os.path.isdir(p) else p
        if not os.path.isfile(f):
            sys.exit("error: no results file %s" % f)
        files.append(f)
    notes, rows = results.read(files)
    disp = results.table(rows, bench)
    if not disp:
        sys.exit("error: no %s rows in %s" % (bench, ", ".join(files)))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sys.exit("error: matplotlib is missing: pip install matplotlib")
    os.makedirs(out_dir, exist_ok=True)
    csv_out = os.path.join(out_dir, bench + ".csv")
    md_out = os.path.join(out_dir, bench + ".md")
    png_out = os.path.join(out_dir, bench + ".png")
    # The merged results, rewritten in one file (notes first).
    merged = csv_out + ".tmp"
    if os.path.exists(merged):
        os.remove(merged)
    seen = set()
    for k, v in notes:
        if (k, v) not in seen:
            seen.add((k, v))
            results.append_note(merged, k, v)
    for r in rows:
        results.append_row(merged, r)
    os.replace(merged, csv_out)
    PLOTTERS[bench](disp, png_out)
    with open(md_out, "w") as f:
        f.write(results.markdown(notes, disp, bench, image=os.path.basename(png_out)))
    print(results.text_table(disp, bench))
    print()
    for s in results.summary_lines(disp, bench):
        print(s)
    print("\nwrote %s, %s, %s" % (csv_out, md_out, png_out))
    return 1 if any(d["status"] == "FAIL" for d in disp) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
