#!/usr/bin/env python3
"""Turns a benchmark run's results into bench/results/BENCH.md and BENCH.png.

    python3 bench/plot.py BENCH RESULTS [RESULTS...] [--out DIR] [--readme FILE | --no-readme]
    python3 bench/plot.py --self-test     (the tables on synthetic data; no matplotlib needed)

BENCH is a benchmark of bench/common/results.py (stream, gemm), or gemm-fp8
(bench/gemm/run_fp8.py's gemm-fp8.csv: DIR/gemm-fp8.{csv,md,png}). RESULTS are
the CSV files a run wrote (bench/BENCH/run.sh writes BENCH.csv into its output
folder), or folders holding BENCH.csv. Writes into DIR (default
bench/results/): BENCH.csv (the rows and notes, merged), BENCH.md (the table,
the ratio summary, how it was measured, the run's notes, the plot) and
BENCH.png. For gemm it also rewrites the headline between the
`<!-- gemm-headline:begin -->` and `<!-- gemm-headline:end -->` lines of
the README (FILE, default the repository's README.md when DIR is the default;
--no-readme leaves it alone). Needs matplotlib (pip install matplotlib); runs
where the results were copied to, not on the GPU machine.
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


def plot_gemm(disp, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    spec = results.SPECS["gemm"]
    ok = [d for d in disp if d["status"] == "ok"]
    shapes = results.gemm_shapes(ok)
    impls = []
    for d in ok:
        if d["variant"] not in [v for v, _ in impls]:
            impls.append((d["variant"], d["label"]))
    tf = {(d["variant"], (d["m"], d["n"], d["k"])): d for d in ok}
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(11, 8.5), gridspec_kw={"height_ratios": [3, 2]})
    width = 0.8 / max(1, len(impls))
    colors = {"torch_matmul": "#ff7f0e", "torch_addmm_gelu": "#ffbb78", "torch_matmul_bias_gelu": "#c49c94"}
    palette = ["#d62728", "#9467bd", "#1f77b4", "#17becf", "#2ca02c", "#8c564b", "#e377c2", "#7f7f7f",
               "#bcbd22", "#98df8a"]
    for i, (v, label) in enumerate(impls):
        color = colors.get(v) or palette[i % len(palette)]
        xs = [j + (i - (len(impls) - 1) / 2) * width for j in range(len(shapes))]
        ys = [tf[(v, s)]["tflops"] if (v, s) in tf else 0 for s in shapes]
        ax.bar(xs, ys, width, label=label, color=color, edgecolor="black" if v.startswith("ta_") else "none",
               linewidth=0.4)
        rs = [tf[(v, s)]["ratio_cublas"] if (v, s) in tf and tf[(v, s)]["ratio_cublas"] else 0 for s in shapes]
        if v != "torch_matmul":
            ax2.bar(xs, rs, width, color=color, edgecolor="black" if v.startswith("ta_") else "none",
                    linewidth=0.4)
    ax.axhline(results.GEMM_PEAK_TFLOPS, color="black", linestyle=":", linewidth=1)
    ax.text(len(shapes) - 0.5, results.GEMM_PEAK_TFLOPS, " dense bf16 peak (989)", va="bottom", ha="right",
            fontsize=8)
    names = [results.gemm_shape_name(*s) for s in shapes]
    for a in (ax, ax2):
        a.set_xticks(range(len(shapes)))
        a.set_xticklabels(names)
        a.grid(True, axis="y", alpha=0.3)
    ax.set_ylabel("TFLOP/s (2 M N K / median time)")
    ax.set_title(spec["title"])
    ax.legend(fontsize=7, loc="upper left", ncol=3)
    ax.set_ylim(0, results.GEMM_PEAK_TFLOPS * 1.08)
    ax2.axhline(1.0, color="#ff7f0e", linewidth=1.2)
    ax2.axhline(0.9, color="gray", linestyle="--", linewidth=0.8)
    ax2.set_ylabel("TFLOP/s relative to cuBLAS")
    ax2.set_xlabel("M x N x K")
    fig.tight_layout()
    fig.savefig(png, dpi=130)
    plt.close(fig)


PLOTTERS = {"stream": plot_stream, "gemm": plot_gemm}

README_BEGIN = "<!-- gemm-headline:begin -->"
README_END = "<!-- gemm-headline:end -->"


def gemm_readme_block(disp, md_rel, png_rel):
    """The README's headline: the best plain __tile_apply GEMM at the largest
    square shape, its ratio to cuBLAS, the fused variant's ratio to torch."""
    h = results.gemm_headline(disp)
    if not h:
        return None
    fused = [d for d in disp if d["fused"] and d["variant"].startswith("ta_") and d["ratio_fused"] and
             results.gemm_shape_name(d["m"], d["n"], d["k"]) == h["shape"]]
    line = ("A bf16 GEMM written entirely with `__tile_apply` (TMA, mbarriers, `wgmma`, `stmatrix`; "
            "[bench/gemm/](bench/gemm/)) runs at **%.0f TFLOP/s at %s, %.2fx cuBLAS** (%.0f TFLOP/s "
            "through `torch.matmul`, same run), %.0f%% of the H200's %.0f TFLOP/s dense bf16 peak"
            % (h["tflops"], h["shape"], h["ratio"], h["cublas_tflops"] or 0, 100 * h["peak"],
               results.GEMM_PEAK_TFLOPS))
    if fused:
        f = max(fused, key=lambda d: d["tflops"])
        line += ("; with bias + GELU fused into its epilogue, %.2fx PyTorch's `addmm` + `gelu`" % f["ratio_fused"])
    line += ". All shapes and configurations: [%s](%s)." % (md_rel, md_rel)
    return "\n".join([README_BEGIN, line, "", "![bf16 GEMM, TFLOP/s](%s)" % png_rel, README_END])


def update_readme(path, block):
    with open(path) as f:
        text = f.read()
    a, b = text.find(README_BEGIN), text.find(README_END)
    if a < 0 or b < a:
        print("note: %s has no %s ... %s block; headline not written" % (path, README_BEGIN, README_END))
        return False
    text = text[:a] + block + text[b + len(README_END):]
    with open(path, "w") as f:
        f.write(text)
    return True


def fp8_rows(inputs):
    """The rows of bench/gemm/run_fp8.py's gemm-fp8.csv files (or folders holding one), and their header."""
    import csv
    rows = []
    header = None
    for p in inputs:
        f = os.path.join(p, "gemm-fp8.csv") if os.path.isdir(p) else p
        if not os.path.isfile(f):
            sys.exit("error: no results file %s" % f)
        with open(f) as fh:
            for r in csv.DictReader(fh):
                header = header or list(r.keys())
                rows.append(r)
    if not rows:
        sys.exit("error: no gemm-fp8 rows")
    return rows, header


def fp8_sizes(ok):
    sizes = []
    for r in ok:
        key = (r["dtype"], r["size"])
        if key not in sizes:
            sizes.append(key)
    return sizes


def fp8_table_lines(rows):
    """Per dtype and size: torch._scaled_mm's TFLOP/s, the best variant, its ratio, ta_pick's ratio."""
    ok = [r for r in rows if r["status"] == "ok" and r["tflops"]]
    lines = ["| dtype | M x N x K | torch._scaled_mm TFLOP/s | best variant | TFLOP/s | ratio | ta_pick ratio |",
             "|---|---|---:|---|---:|---:|---:|"]
    for dt, sz in fp8_sizes(ok):
        here = [r for r in ok if (r["dtype"], r["size"]) == (dt, sz)]
        t = [r for r in here if r["impl"] == "torch_scaled_mm"]
        ours = [r for r in here if r["impl"] != "torch_scaled_mm"]
        best = max(ours, key=lambda r: float(r["tflops"])) if ours else None
        pick = [r for r in ours if r["impl"].startswith("ta_pick")]
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            dt, sz, t[0]["tflops"] if t else "-", best["impl"] if best else "-", best["tflops"] if best else "-",
            best["ratio_vs_torch"] if best else "-", pick[0]["ratio_vs_torch"] if pick else "-"))
    fails = [r for r in rows if r["status"] != "ok"]
    if fails:
        lines += ["", "Failed: " + ", ".join("%s %s" % (r["impl"], r["size"]) for r in fails)]
    return lines


def fp8_plot(rows, png):
    """TFLOP/s per size of every implementation (ta_pick under one name); False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("warning: no matplotlib: %s not written" % png)
        return False
    ok = [r for r in rows if r["status"] == "ok" and r["tflops"]]
    sizes = fp8_sizes(ok)
    impls = []
    for r in ok:
        name = "ta_pick" if r["impl"].startswith("ta_pick") else r["impl"]
        if name not in impls:
            impls.append(name)
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(sizes)), 4))
    width = 0.8 / max(1, len(impls))
    for i, name in enumerate(impls):
        ys = []
        for dt, sz in sizes:
            v = [float(r["tflops"]) for r in ok if (r["dtype"], r["size"]) == (dt, sz) and
                 ("ta_pick" if r["impl"].startswith("ta_pick") else r["impl"]) == name]
            ys.append(v[0] if v else 0.0)
        ax.bar([x + i * width for x in range(len(sizes))], ys, width, label=name)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(sizes))])
    ax.set_xticklabels(["%s\n%s" % (sz, dt) for dt, sz in sizes], fontsize=7)
    ax.set_ylabel("TFLOP/s")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    plt.close(fig)
    return True


def fp8_main(inputs, out_dir):
    """gemm-fp8: bench/gemm/run_fp8.py's gemm-fp8.csv files (or folders holding
    one) to DIR/gemm-fp8.{csv,md,png}: per dtype and size, TFLOP/s and the ratio
    to torch._scaled_mm of every implementation, and the best variant per size."""
    import csv
    rows, header = fp8_rows(inputs)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "gemm-fp8.csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=header)
        w.writeheader()
        w.writerows(rows)
    lines = ["# FP8 GEMM (e4m3, bf16 out) vs torch._scaled_mm", "",
             "From bench/gemm/run_fp8.py (every element checked against an f32 reference and "
             "torch._scaled_mm before timing; median of the timed launches).", ""]
    lines += fp8_table_lines(rows)
    lines += ["", "![fp8 GEMM, TFLOP/s](gemm-fp8.png)", ""]
    with open(os.path.join(out_dir, "gemm-fp8.md"), "w") as fh:
        fh.write("\n".join(lines))
    print("\n".join(lines))
    fp8_plot(rows, os.path.join(out_dir, "gemm-fp8.png"))


# ---- shape classes (bench/gemm/run.py's CLASSES) ----------------------------------------------

def gemm_classes():
    """{class: [(m, n, k), ...]} as bench/gemm/run.py defines them (its --sizes classes)."""
    sys.path.insert(0, os.path.join(HERE, "gemm"))
    import run as gemm_run  # noqa: E402  (no torch at import)
    return {c: [gemm_run.parse_size(x) for x in shapes] for c, shapes in gemm_run.CLASSES.items()}


def class_lines(ratios, classes, what):
    """A table per shape class of `ratios` {impl: {(m, n, k): ratio}}: shapes measured, the ratio's
    range and median, how many at 1.00x or above, the worst shape."""
    import statistics
    out = ["| class | implementation | shapes | ratio to %s (min - median - max) | at or above 1.00x | worst |" % what,
           "|---|---|---:|---|---:|---|"]
    for cls, shapes in classes.items():
        for impl, by in ratios.items():
            got = [(by[s], s) for s in shapes if s in by]
            if not got:
                continue
            xs = [x for x, _ in got]
            worst = min(got)
            out.append("| %s | %s | %d | %.2fx - %.2fx - %.2fx | %d of %d | %s (%.2fx) |" % (
                cls, impl, len(got), min(xs), statistics.median(xs), max(xs), sum(x >= 1.0 for x in xs), len(got),
                results.gemm_shape_name(*worst[1]), worst[0]))
    return out if len(out) > 2 else []


def gemm_class_section(disp):
    """The bf16 table by shape class: each ta_* variant (picks by their own name) against cuBLAS."""
    ratios = {}
    for d in disp:
        if d["variant"].startswith("ta_") and not d["fused"] and d["ratio_cublas"]:
            name = d["label"].split(":")[0] if d["variant"].startswith("ta_pick") else d["variant"]
            ratios.setdefault(name, {})[(d["m"], d["n"], d["k"])] = d["ratio_cublas"]
    lines = class_lines(ratios, gemm_classes(), "cuBLAS")
    return (["## By shape class (bf16)", "",
             "Shape classes as `bench/gemm/run.py --sizes` names them; ratios are TFLOP/s over "
             "`torch.matmul`'s at the same shape in the same run.", ""] + lines + [""]) if lines else []


def fp8_class_section(rows, png_name):
    """The FP8 results of the same run: ta_pick against torch._scaled_mm by shape class, then per shape."""
    ratios = {}
    for r in rows:
        if r["status"] == "ok" and r["impl"] != "torch_scaled_mm" and r["ratio_vs_torch"]:
            name = "%s %s" % (r["dtype"], "ta_pick" if r["impl"].startswith("ta_pick") else r["impl"])
            ratios.setdefault(name, {})[(int(r["m"]), int(r["n"]), int(r["k"]))] = float(r["ratio_vs_torch"])
    lines = ["## FP8 (same run)", "",
             "bench/gemm/run_fp8.py: e4m3 x e4m3 (e5m2 x e4m3 where named), f32 accumulation, per-tensor scales, "
             "bf16 out, every element checked against an f32 reference and `torch._scaled_mm` before timing; "
             "ratios are TFLOP/s over `torch._scaled_mm`'s (cuBLASLt, no fast accumulation) at the same shape.", ""]
    lines += class_lines(ratios, gemm_classes(), "torch._scaled_mm") + [""]
    lines += fp8_table_lines(rows) + ["", "![fp8 GEMM, TFLOP/s](%s)" % png_name, ""]
    return lines


def self_test():
    """The tables on synthetic results (no matplotlib, no GPU): each figure
    expected below is worked out by hand from the inputs, not taken from a run."""
    classes = gemm_classes()
    assert set(classes) == {"skinny", "square", "kheavy", "ragged"}, classes
    assert (8192, 8192, 8192) in classes["square"] and (1, 4096, 4096) in classes["skinny"]
    # Three square shapes at 0.50x, 1.00x and 1.50x; one ragged one at 0.90x.
    ratios = {"ta_pick": {(2048, 2048, 2048): 1.5, (4096, 4096, 4096): 0.5, (8192, 8192, 8192): 1.0,
                          (1000, 3008, 5008): 0.9}}
    lines = class_lines(ratios, classes, "cuBLAS")
    square = [x for x in lines if x.startswith("| square |")]
    assert square == ["| square | ta_pick | 3 | 0.50x - 1.00x - 1.50x | 2 of 3 | 4096^3 (0.50x) |"], square
    ragged = [x for x in lines if x.startswith("| ragged |")]
    assert ragged == ["| ragged | ta_pick | 1 | 0.90x - 0.90x - 0.90x | 0 of 1 | 1000 x 3008 x 5008 (0.90x) |"], ragged
    assert not [x for x in lines if x.startswith("| skinny |")], "a class with no shape measured has no row"
    assert class_lines({"x": {(7, 7, 7): 1.0}}, classes, "cuBLAS") == [], "no row at all: no table"
    # FP8: the best variant per size, ta_pick's own ratio, and failures named.
    def row(impl, tf, ratio, status="ok", size="4096^3"):
        return {"dtype": "e4m3", "size": size, "impl": impl, "tflops": tf, "ratio_vs_torch": ratio, "status": status,
                "m": "4096", "n": "4096", "k": "4096"}
    rows = [row("torch_scaled_mm", "1300", ""), row("ta_fp8_a", "1000", "0.77"), row("ta_fp8_b", "1100", "0.85"),
            row("ta_pick_fp8", "1050", "0.81"), row("ta_fp8_c", "", "", status="FAIL")]
    t = fp8_table_lines(rows)
    assert t[2] == "| e4m3 | 4096^3 | 1300 | ta_fp8_b | 1100 | 0.85 | 0.81 |", t
    assert t[-1] == "Failed: ta_fp8_c 4096^3", t
    sec = fp8_class_section(rows, "x.png")
    assert "| square | e4m3 ta_pick | 1 | 0.81x - 0.81x - 0.81x | 0 of 1 | 4096^3 (0.81x) |" in sec, sec
    print("plot.py self-test OK")
    return 0


def main(argv):
    args = argv[1:]
    if args == ["--self-test"]:
        return self_test()
    if args and args[0] == "gemm-fp8":
        out = os.path.join(HERE, "results")
        if "--out" in args:
            k = args.index("--out")
            out = args[k + 1]
            del args[k:k + 2]
        return fp8_main(args[1:], out)
    out_dir = os.path.join(HERE, "results")
    readme = None
    default_out = True
    if "--out" in args:
        k = args.index("--out")
        if k + 1 >= len(args):
            sys.exit("error: --out needs a folder")
        out_dir = args[k + 1]
        default_out = False
        del args[k:k + 2]
    if "--readme" in args:
        k = args.index("--readme")
        if k + 1 >= len(args):
            sys.exit("error: --readme needs a file")
        readme = args[k + 1]
        del args[k:k + 2]
    elif default_out:
        readme = os.path.join(os.path.dirname(HERE), "README.md")
    if "--no-readme" in args:
        args.remove("--no-readme")
        readme = None
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
    disp = results.gemm_table(rows) if bench == "gemm" else results.table(rows, bench)
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
        results.append_row(merged, r, header=results.GEMM_HEADER if bench == "gemm" else results.HEADER)
    os.replace(merged, csv_out)
    PLOTTERS[bench](disp, png_out)
    if bench == "gemm":
        md = results.gemm_markdown(notes, disp, image=os.path.basename(png_out))
        extra = gemm_class_section(disp)
        # The FP8 results of the same run (run.sh writes gemm-fp8.csv beside gemm.csv).
        fp8 = [os.path.join(os.path.dirname(f), "gemm-fp8.csv") for f in files]
        fp8 = [f for f in fp8 if os.path.isfile(f)]
        if fp8:
            frows, fheader = fp8_rows(fp8)
            fpng = os.path.join(out_dir, "gemm-classes-fp8.png")
            fp8_plot(frows, fpng)
            extra += fp8_class_section(frows, os.path.basename(fpng))
        if extra:
            # After the table, before "How it was measured".
            at = md.find("\n## How it was measured")
            md = md[:at + 1] + "\n".join(extra) + "\n" + md[at + 1:] if at >= 0 else md + "\n".join(extra)
        with open(md_out, "w") as f:
            f.write(md)
        print(results.gemm_text_table(disp))
        print()
        for s in results.gemm_summary_lines(disp):
            print(s)
        if readme:
            base = os.path.dirname(os.path.abspath(readme))
            block = gemm_readme_block(disp, os.path.relpath(md_out, base), os.path.relpath(png_out, base))
            if block and update_readme(readme, block):
                print("wrote the headline into %s" % readme)
    else:
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
