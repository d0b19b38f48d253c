#!/usr/bin/env python3
"""The results files of the benchmarks, and the tables made from them.

Standard library only: it runs on the GPU machine (by run.sh, to print the
table) and here (by bench/plot.py, which adds the plot).

A results file is CSV. Lines starting with '#' are notes, "# key: value" (the
device, the compilers, how it was timed); the header line

    bench,variant,label,compiler,size_bytes,bytes_moved,reps,median_ms,min_ms,max_ms,gbps,status

comes before the first row (bench/common/bench.h writes the same format). The
status is ok, FAIL (wrong result, not timed) or skip (not run, with a reason
printed by the program). Several programs append to one file in one run.

    results.py table BENCH FILE... [--markdown OUT.md]

prints the table of BENCH (e.g. stream) from the files and, with --markdown,
writes it as a Markdown page too. Exit status 1 when a row FAILed.

The GEMM benchmark (bench/gemm/run.py) writes the same kind of file with its
own header, GEMM_HEADER (a shape M x N x K instead of a byte size, TFLOP/s
instead of GB/s, and its correctness figures); read() takes either, file by
file, from the header line, and the gemm_* functions make its table.
"""
import csv
import io
import os
import statistics
import sys

HEADER = ["bench", "variant", "label", "compiler", "size_bytes", "bytes_moved", "reps",
          "median_ms", "min_ms", "max_ms", "gbps", "status"]
# bench/gemm/run.py: fused is 1 for D = GELU(A x B + bias); rel_err is the
# relative Frobenius error against the f32 reference, max_err the largest
# element error as a multiple of the bound 2^-8 (|ref| + rms(ref)); both empty
# where not measured.
GEMM_HEADER = ["bench", "variant", "label", "compiler", "m", "n", "k", "reps", "median_ms", "min_ms",
               "max_ms", "tflops", "status", "fused", "rel_err", "max_err"]
GEMM_PEAK_TFLOPS = 989.0  # H100/H200 SXM dense bf16 (data sheet)

# How each benchmark's table is laid out: the variants in display order, the
# ones every row is compared with, and what a measurement is.
SPECS = {
    "gemm": {
        "title": "bf16 GEMM, D = A x B (A row-major, B column-major, f32 accumulation)",
        "about": [
            "Every `ta_*` kernel is written with `__tile_apply` for every PTX instruction it needs "
            "(TMA loads and stores, mbarriers, wgmma, stmatrix, setmaxnreg, elect, barriers, fences, "
            "the epilogue arithmetic): see [bench/gemm/](../gemm/).",
            "cuBLAS is `torch.matmul(A, B)` in the same process, on the same inputs and stream; the "
            "fused variants (D = GELU_tanh(A x B + bias)) are compared with `torch.addmm` + `gelu` "
            "(cuBLASLt's bias epilogue, then the GELU kernel) and with `torch.matmul` + bias + `gelu`.",
            "TFLOP/s counts 2 M N K (the GEMM only, also for the fused rows) at the median time of "
            "the timed launches, each between its own pair of CUDA events, the implementations "
            "interleaved in three rounds after a warm-up. Ratios are TFLOP/s of the row over the "
            "named baseline at the same shape: above 1 is faster.",
            "'of peak' is TFLOP/s over 989, the H100/H200 SXM dense bf16 peak.",
            "Before it is timed every kernel's D is checked: fully written (D is filled with NaN "
            "first), every sampled element within 2^-8 (|ref| + rms(ref)) of an f32 reference "
            "(the first and last 64 rows and 128 random ones, all columns), relative Frobenius "
            "error <= 2^-8 there (rel err), and within 2^-7 of cuBLAS's D in Frobenius norm. "
            "A kernel that fails is not timed.",
        ],
    },
    "stream": {
        "title": "Streaming f16x2 add, D = A + B (fp16)",
        "order": ["tile_apply", "asm_clang", "asm_nvcc", "hadd2_clang", "hadd2_nvcc",
                  "torch_add", "memcpy_d2d"],
        "baselines": [("tile_apply", "vs __tile_apply"), ("torch_add", "vs PyTorch")],
        "metric": ("gbps", "GB/s"),
        "size_title": "bytes per array",
        "about": [
            "Each thread of the kernels handles four 128-bit rows of A and of B "
            "(`ld.global.v4.b32`), sixteen `add.rn.f16x2`, four 128-bit rows of D "
            "(`st.global.v4.b32`); the rows past the end are switched off by a "
            "predicate. The `__tile_apply` kernel and the inline-asm kernel have the "
            "same PTX instruction mix (checked by the test command).",
            "GB/s counts bytes read and written (A, B and D: 3 x the array size), "
            "decimal GB, at the median time. The device-to-device copy moves the same "
            "bytes (1.5 x the array size, read and written) and is the ceiling.",
            "Every variant's output is checked bit for bit before it is timed "
            "(the kernels against a host reference, PyTorch against a float "
            "computation on the GPU, the copy against its source).",
            "Ratios are GB/s of the row over GB/s of the named variant at the same "
            "size: above 1 is faster.",
        ],
    },
}


# ---- sizes --------------------------------------------------------------------------

SUFFIX = {"": 0, "K": 10, "KiB": 10, "M": 20, "MiB": 20, "G": 30, "GiB": 30, "T": 40, "TiB": 40}


def parse_bytes(text):
    """'256M' -> 268435456, '1536M+11200' -> 1610623936; ValueError if malformed."""
    total = 0
    for term in text.split("+"):
        term = term.strip()
        digits = term.rstrip("KMGTiB")
        suffix = term[len(digits):]
        if not digits.isdigit() or suffix not in SUFFIX:
            raise ValueError("bad size '%s' (examples: 256M, 4G, 1536M+11200)" % text)
        total += int(digits) << SUFFIX[suffix]
    return total


def format_bytes(n):
    """268435456 -> '256 MiB', 1610623936 -> '1536 MiB + 11200 B'."""
    # The largest unit that leaves less than a MiB over.
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        whole = n >> shift
        rest = n - (whole << shift)
        if whole and (rest < (1 << 20) or shift == 10):
            return "%d %s" % (whole, unit) + (" + %d B" % rest if rest else "")
    return "%d B" % n


# ---- files ----------------------------------------------------------------------------

def has_header(path):
    try:
        with open(path) as f:
            return any(line.startswith("bench,") for line in f)
    except OSError:
        return False


def _num(text, kind):
    if text == "" or text is None:
        return None
    return kind(text)


def append_note(path, key, value):
    with open(path, "a") as f:
        f.write("# %s: %s\n" % (key, value))


def append_row(path, row, header=HEADER):
    """Appends one row (a dict with the keys of `header`), the header first if needed."""
    need_header = not has_header(path)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if need_header:
        w.writerow(header)
    w.writerow([row[k] for k in header])
    with open(path, "a") as f:
        f.write(buf.getvalue())


def read(paths):
    """(notes, rows) from results files: notes as [(key, value)], rows as dicts."""
    notes, rows = [], []
    for path in paths:
        with open(path) as f:
            lines = f.read().splitlines()
        data = []
        header = HEADER
        for line in lines:
            if line.startswith("#"):
                key, _, value = line[1:].strip().partition(":")
                notes.append((key.strip(), value.strip()))
            elif line.startswith("bench,"):
                header = GEMM_HEADER if line.strip() == ",".join(GEMM_HEADER) else HEADER
            elif line.strip():
                data.append(line)
        for rec in csv.reader(data):
            if len(rec) != len(header):
                raise ValueError("%s: a row has %d fields, want %d: %s"
                                 % (path, len(rec), len(header), ",".join(rec)))
            row = dict(zip(header, rec))
            if header is GEMM_HEADER:
                for k in ("m", "n", "k", "reps", "fused"):
                    row[k] = int(row[k])
                for k in ("median_ms", "min_ms", "max_ms", "tflops"):
                    row[k] = float(row[k])
                for k in ("rel_err", "max_err"):
                    row[k] = _num(row[k], float)
            else:
                for k in ("size_bytes", "bytes_moved", "reps"):
                    row[k] = int(row[k])
                for k in ("median_ms", "min_ms", "max_ms", "gbps"):
                    row[k] = float(row[k])
            rows.append(row)
    return notes, rows


# ---- tables ---------------------------------------------------------------------------

def table(rows, bench):
    """The display rows of one benchmark: dicts with the measurement and, per
    baseline, the ratio (None where either side is missing), sorted by size then
    by the spec's variant order."""
    spec = SPECS[bench]
    metric = spec["metric"][0]
    order = {v: i for i, v in enumerate(spec["order"])}
    rows = [r for r in rows if r["bench"] == bench]
    best = {}
    for r in rows:
        if r["status"] == "ok":
            best[(r["size_bytes"], r["variant"])] = r[metric]
    out = []
    for r in sorted(rows, key=lambda r: (r["size_bytes"], order.get(r["variant"], 99), r["variant"])):
        d = dict(r)
        for base, _ in spec["baselines"]:
            b = best.get((r["size_bytes"], base))
            d["ratio_" + base] = (r[metric] / b) if (r["status"] == "ok" and b) else None
        out.append(d)
    return out


def ratio_ranges(disp, bench):
    """{(variant, baseline): (min, max, median)} of the ratios across sizes."""
    spec = SPECS[bench]
    acc = {}
    for d in disp:
        for base, _ in spec["baselines"]:
            x = d["ratio_" + base]
            if x is not None and d["variant"] != base:
                acc.setdefault((d["variant"], base), []).append(x)
    return {k: (min(v), max(v), statistics.median(v)) for k, v in acc.items()}


def labels(disp):
    return {d["variant"]: d["label"] for d in disp}


def _fmt_ratio(x):
    return "-" if x is None else "%.2fx" % x


def _columns(bench):
    spec = SPECS[bench]
    cols = [("size", spec["size_title"]), ("label", "variant"), ("median_ms", "median ms"),
            ("metric", spec["metric"][1])]
    cols += [("ratio_" + b, title) for b, title in spec["baselines"]]
    cols += [("status", "status")]
    return cols


def _cells(d, bench):
    spec = SPECS[bench]
    ok = d["status"] == "ok"
    cells = {
        "size": format_bytes(d["size_bytes"]),
        "label": d["label"],
        "median_ms": "%.4f" % d["median_ms"] if ok else "-",
        "metric": "%.1f" % d[spec["metric"][0]] if ok else "-",
        "status": d["status"],
    }
    for b, _ in spec["baselines"]:
        cells["ratio_" + b] = _fmt_ratio(d["ratio_" + b])
    return cells


def text_table(disp, bench):
    cols = _columns(bench)
    body = [[_cells(d, bench)[k] for k, _ in cols] for d in disp]
    head = [t for _, t in cols]
    widths = [max(len(x) for x in col) for col in zip(head, *body)] if body else [len(h) for h in head]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    last = None
    for d, cells in zip(disp, body):
        if last is not None and d["size_bytes"] != last:
            lines.append("")
        last = d["size_bytes"]
        lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip())
    return "\n".join(lines)


def summary_lines(disp, bench):
    """One line per (variant, baseline): the ratio range across sizes."""
    spec = SPECS[bench]
    names = labels(disp)
    rng = ratio_ranges(disp, bench)
    out = []
    for base, _ in spec["baselines"]:
        for v in spec["order"] + sorted(set(names) - set(spec["order"])):
            if (v, base) in rng:
                lo, hi, med = rng[(v, base)]
                out.append("%s / %s: %.2fx to %.2fx (median %.2fx)"
                           % (names.get(v, v), names.get(base, base), lo, hi, med))
    return out


def markdown(notes, disp, bench, image=None):
    return _page(SPECS[bench], image, disp, "Ratios across sizes (GB/s of the first over the second):",
                 summary_lines(disp, bench), _columns(bench), [_cells(d, bench) for d in disp],
                 ("size", "label", "status"), notes)


def _page(spec, image, disp, summary_intro, summary, cols, cells, text_cols, notes):
    """A results page: the title and image, a count of failed measurements,
    the summary lines under `summary_intro`, the table (one row of `cells` a
    measurement; the columns in `text_cols` left-aligned, the others numbers),
    how it was measured, and the run's notes (each once)."""
    md = ["# %s" % spec["title"], ""]
    if image:
        md += ["![%s](%s)" % (spec["title"], image), ""]
    failed = [d for d in disp if d["status"] == "FAIL"]
    if failed:
        md += ["**%d measurement(s) failed verification** (marked FAIL below)." % len(failed), ""]
    if summary:
        md += [summary_intro, ""]
        md += ["- " + s for s in summary] + [""]
    md += ["| " + " | ".join(t for _, t in cols) + " |",
           "|" + "|".join("---" if k in text_cols else "---:" for k, _ in cols) + "|"]
    for c in cells:
        md.append("| " + " | ".join(c[k] for k, _ in cols) + " |")
    md += ["", "## How it was measured", ""]
    md += ["- " + s for s in spec["about"]]
    if notes:
        md += ["", "## Run", ""]
        seen = set()
        for k, v in notes:
            if (k, v) not in seen:
                seen.add((k, v))
                md.append("- %s: %s" % (k, v))
    return "\n".join(md) + "\n"


# ---- the GEMM table ----------------------------------------------------------------------

GEMM_TORCH = ("torch_matmul", "torch_addmm_gelu", "torch_matmul_bias_gelu")


def gemm_shape_name(m, n, k):
    return "%d^3" % m if m == n == k else "%d x %d x %d" % (m, n, k)


def gemm_shapes(rows):
    """The (m, n, k) shapes of `rows`, in the order they first appear."""
    return list(dict.fromkeys((r["m"], r["n"], r["k"]) for r in rows))


def gemm_table(rows):
    """The display rows of the GEMM benchmark, sorted by shape (in order of first
    appearance), then cuBLAS, the plain kernels, the fused baselines, the fused
    kernels. Each has ratio_cublas (TFLOP/s over torch.matmul's at the shape) and
    ratio_fused (over torch addmm + gelu's), None where either is missing, and
    peak (TFLOP/s over GEMM_PEAK_TFLOPS)."""
    rows = [r for r in rows if r["bench"] == "gemm"]
    shapes = gemm_shapes(rows)
    best = {}
    for r in rows:
        if r["status"] == "ok":
            best[(r["m"], r["n"], r["k"], r["variant"])] = r["tflops"]

    def order(r):
        v = r["variant"]
        group = (0 if v == "torch_matmul" else 1 if not r["fused"] else 2 if v in GEMM_TORCH else 3)
        return (shapes.index((r["m"], r["n"], r["k"])), group, v)

    out = []
    for r in sorted(rows, key=order):
        d = dict(r)
        ok = r["status"] == "ok"
        base = best.get((r["m"], r["n"], r["k"], "torch_matmul"))
        fbase = best.get((r["m"], r["n"], r["k"], "torch_addmm_gelu"))
        d["ratio_cublas"] = r["tflops"] / base if ok and base else None
        d["ratio_fused"] = r["tflops"] / fbase if ok and fbase and r["fused"] else None
        d["peak"] = r["tflops"] / GEMM_PEAK_TFLOPS if ok else None
        out.append(d)
    return out


GEMM_COLUMNS = [("shape", "M x N x K"), ("label", "implementation"), ("median_ms", "median ms"),
                ("tflops", "TFLOP/s"), ("peak", "of peak"), ("ratio_cublas", "vs cuBLAS"),
                ("ratio_fused", "vs torch fused"), ("rel_err", "rel err"), ("status", "status")]


def _gemm_cells(d):
    ok = d["status"] == "ok"
    return {
        "shape": gemm_shape_name(d["m"], d["n"], d["k"]),
        "label": d["label"],
        "median_ms": "%.3f" % d["median_ms"] if ok else "-",
        "tflops": "%.1f" % d["tflops"] if ok else "-",
        "peak": "%.1f%%" % (100 * d["peak"]) if d["peak"] is not None else "-",
        "ratio_cublas": _fmt_ratio(d["ratio_cublas"]),
        "ratio_fused": _fmt_ratio(d["ratio_fused"]),
        "rel_err": "%.1e" % d["rel_err"] if d.get("rel_err") is not None else "-",
        "status": d["status"],
    }


def gemm_text_table(disp):
    body = [[_gemm_cells(d)[k] for k, _ in GEMM_COLUMNS] for d in disp]
    head = [t for _, t in GEMM_COLUMNS]
    widths = [max(len(x) for x in col) for col in zip(head, *body)] if body else [len(h) for h in head]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip(), "  ".join("-" * w for w in widths)]
    last = None
    for d, cells in zip(disp, body):
        key = (d["m"], d["n"], d["k"])
        if last is not None and key != last:
            lines.append("")
        last = key
        lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip())
    return "\n".join(lines)


def gemm_headline(disp):
    """The best __tile_apply GEMM (not fused) at the largest square shape that has
    one and cuBLAS, as a dict (shape, label, variant, tflops, ratio, peak,
    cublas_tflops), or None."""
    cands = [d for d in disp if d["variant"].startswith("ta_") and not d["fused"] and d["ratio_cublas"]]
    if not cands:
        return None
    def key(d):
        square = d["m"] == d["n"] == d["k"]
        return (square, d["m"] * d["n"] * d["k"], d["tflops"])
    top = max(cands, key=key)
    cub = [d for d in disp if d["variant"] == "torch_matmul" and (d["m"], d["n"], d["k"]) ==
           (top["m"], top["n"], top["k"]) and d["status"] == "ok"]
    return {"shape": gemm_shape_name(top["m"], top["n"], top["k"]), "label": top["label"],
            "variant": top["variant"], "tflops": top["tflops"], "ratio": top["ratio_cublas"],
            "peak": top["peak"], "cublas_tflops": cub[0]["tflops"] if cub else None}


def gemm_summary_lines(disp):
    """Per kernel: its ratio to cuBLAS (and for the fused ones to torch's fused
    pipeline) across shapes; then the headline."""
    out = []
    names = {}
    for d in disp:
        names.setdefault(d["variant"], set()).add(d["label"])
    # A variant whose label differs by shape (a pick, a split-K variant's slices) goes by its name.
    names = {v: next(iter(ls)) if len(ls) == 1 else v for v, ls in names.items()}
    for v in names:
        if v in GEMM_TORCH:
            continue
        for key, base in (("ratio_cublas", "cuBLAS (torch.matmul)"), ("ratio_fused", "torch addmm + gelu")):
            xs = [d[key] for d in disp if d["variant"] == v and d[key] is not None]
            if xs:
                out.append("%s / %s: %.2fx to %.2fx (median %.2fx)"
                           % (names[v], base, min(xs), max(xs), statistics.median(xs)))
    h = gemm_headline(disp)
    if h:
        out.append("headline: %s at %s: %.0f TFLOP/s, %.2fx cuBLAS (%.0f TFLOP/s), %.0f%% of the %.0f TFLOP/s peak"
                   % (h["label"], h["shape"], h["tflops"], h["ratio"], h["cublas_tflops"] or 0,
                      100 * h["peak"], GEMM_PEAK_TFLOPS))
    return out


def gemm_markdown(notes, disp, image=None):
    return _page(SPECS["gemm"], image, disp, "Ratios across shapes (TFLOP/s of the first over the second):",
                 gemm_summary_lines(disp), GEMM_COLUMNS, [_gemm_cells(d) for d in disp],
                 ("shape", "label", "status"), notes)


def main(argv):
    args = argv[1:]
    if len(args) < 3 or args[0] != "table":
        sys.exit(__doc__)
    bench = args[1]
    if bench not in SPECS:
        sys.exit("error: unknown benchmark '%s' (have: %s)" % (bench, ", ".join(SPECS)))
    md_out = None
    files = []
    rest = args[2:]
    while rest:
        a = rest.pop(0)
        if a == "--markdown":
            if not rest:
                sys.exit("error: --markdown needs a file")
            md_out = rest.pop(0)
        else:
            files.append(a)
    missing = [f for f in files if not os.path.exists(f)]
    if missing:
        sys.exit("error: no results file %s" % ", ".join(missing))
    notes, rows = read(files)
    if bench == "gemm":
        disp = gemm_table(rows)
        if not disp:
            print("no gemm results in %s" % ", ".join(files))
            return 1
        print(gemm_text_table(disp))
        print()
        for s in gemm_summary_lines(disp):
            print(s)
        if md_out:
            with open(md_out, "w") as f:
                f.write(gemm_markdown(notes, disp))
            print("\nwrote %s" % md_out)
        return 1 if any(d["status"] == "FAIL" for d in disp) else 0
    disp = table(rows, bench)
    if not disp:
        print("no %s results in %s" % (bench, ", ".join(files)))
        return 1
    print(text_table(disp, bench))
    summary = summary_lines(disp, bench)
    if summary:
        print()
        for s in summary:
            print(s)
    if md_out:
        with open(md_out, "w") as f:
            f.write(markdown(notes, disp, bench))
        print("\nwrote %s" % md_out)
    return 1 if any(d["status"] == "FAIL" for d in disp) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
