#!/usr/bin/env python3
"""Compile-time benchmark: what the tileapply pass costs as calls grow.

Generates CUDA files with N calls of add/sub/mul.rn.f32 on float[R][1]
register tensors (R instructions per call), in one kernel or spread over
N/100 kernels of 100 calls, and the same instructions as straight-line
hand-written inline asm (R asm statements per call). Each is compiled for the
device side (-O2, sm_90a, -S) with -ftime-report; the report gives the time of
the tileapply passes (TileApplyPipelineStartPass, which inlines the header's
`__tile_apply` wrappers, and TileApplyExpandPass), and the whole compile's cost
is clang's CPU time (user + system). Each compile runs several times and
every figure is the smallest of its runs (other load on the machine only ever
adds time): --runs times (3 by default) at 10,000 calls and more, and
proportionally more often below (at most 15 times), where a run is short and
a moment of load weighs more.

It reports, per N and shape:
  pass time per call     (expansion pass, and both tileapply passes)
  pass share             tileapply passes / whole tileapply compile
  added share            (tileapply compile - hand-written compile) / hand-written compile

usage: run.py [--calls 1000,10000,100000] [--repeats 4] [--runs 3]
              [--out bench/results/compile.md] [--build build] [--keep DIR]
Nothing here needs a GPU.
"""
import argparse
import os
import resource
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPS = ["add", "sub", "mul"]
PER_KERNEL = 100


def tileapply_source(n, r, kernels):
    lines = ["#include <tileapply/tile.h>"]
    per = n // kernels
    for k in range(kernels):
        lines += [f"__global__ void k{k}(float *p) {{",
                  f"  float a[{r}][1], b[{r}][1], c[{r}][1];",
                  f"  __tile_apply(\"ld.global.f32\", a, tile::global<float, {r}, 1>(p));",
                  f"  __tile_apply(\"ld.global.f32\", b, tile::global<float, {r}, 1>(p + {r}));"]
        for i in range(per):
            d, x, y = "abc"[i % 3], "abc"[(i + 1) % 3], "abc"[(i + 2) % 3]
            lines.append(f"  __tile_apply(\"{OPS[i % 3]}.rn.f32\", {d}, {x}, {y});")
        lines += [f"  __tile_apply(\"st.global.f32\", tile::global<float, {r}, 1>(p), c);", "}"]
    return "\n".join(lines) + "\n"


def handwritten_source(n, r, kernels):
    lines = []
    per = n // kernels
    for k in range(kernels):
        lines += [f"__global__ void k{k}(float *p) {{",
                  f"  float a[{r}], b[{r}], c[{r}];"]
        for j in range(r):
            lines.append(f"  asm volatile(\"ld.global.f32 %0, [%1];\" : \"=f\"(a[{j}]) : \"l\"(p + {j}) : \"memory\");")
            lines.append(f"  asm volatile(\"ld.global.f32 %0, [%1];\" : \"=f\"(b[{j}]) : \"l\"(p + {r + j}) : \"memory\");")
        for i in range(per):
            d, x, y = "abc"[i % 3], "abc"[(i + 1) % 3], "abc"[(i + 2) % 3]
            for j in range(r):
                lines.append(f"  asm(\"{OPS[i % 3]}.rn.f32 %0, %1, %2;\" : \"=f\"({d}[{j}]) : \"f\"({x}[{j}]), \"f\"({y}[{j}]));")
        for j in range(r):
            lines.append(f"  asm volatile(\"st.global.f32 [%0], %1;\" :: \"l\"(p + {j}), \"f\"(c[{j}]) : \"memory\");")
        lines.append("}")
    return "\n".join(lines) + "\n"


TIME_LINE = re.compile(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)(?:\s+[0-9.]+ \(\s*[0-9.]+%\))*\s+(\S.*?)\s*$")


def pass_times(report):
    """CPU time (user + system) and its system part per pass name, summed over
    the 'Pass execution timing report' sections of -ftime-report."""
    times, system = {}, {}
    in_pass = False
    for line in report.splitlines():
        if "Pass execution timing report" in line:
            in_pass = True
            continue
        if in_pass and line.startswith("===") and "Pass execution" not in line and "---" not in line:
            pass
        if not in_pass:
            continue
        m = re.match(r"^\s*((?:[0-9.]+ \(\s*[0-9.]+%\)\s+)+)(\S.*?)\s*$", line)
        if not m:
            continue
        cols = re.findall(r"([0-9.]+) \(", m.group(1))
        name = m.group(2)
        if name == "Total":
            in_pass = False
            continue
        # Columns: user, [system,] user+system, wall; the system column is
        # left out when it is all zero.
        times[name] = times.get(name, 0.0) + float(cols[-2] if len(cols) >= 3 else cols[0])
        system[name] = system.get(name, 0.0) + (float(cols[1]) if len(cols) == 4 else 0.0)
    return times, system


def runs_for(n, runs):
    """How often to compile a source of n calls: `runs` times from 10,000
    calls on, proportionally more below, at most 15 times."""
    return min(15, runs * max(1, 10000 // n))


def compile_one(clang, flags, src, tmp, name):
    path = os.path.join(tmp, name + ".cu")
    with open(path, "w") as f:
        f.write(src)
    cmd = [clang] + flags + ["-ftime-report", path, "-o", os.path.join(tmp, name + ".ptx")]
    # CPU time (user + system) of clang and its children: what the compile
    # costs, whatever else the machine is running.
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if p.returncode != 0:
        sys.exit("compile failed: %s\n%s" % (" ".join(cmd), p.stderr[-3000:]))
    return cpu, pass_times(p.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", default="1000,10000,100000")
    ap.add_argument("--repeats", type=int, default=4, help="instructions per call (the tensors' first extent)")
    ap.add_argument("--runs", type=int, default=3, help="compiles of each source from 10,000 calls on (more below); the smallest figures count")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "compile.md"))
    ap.add_argument("--keep", help="keep the generated sources and PTX in this folder")
    args = ap.parse_args()
    clang = "/usr/lib/llvm-22/bin/clang++"
    plugin = os.path.join(args.build, "lib", "TileApply.so")
    if not os.path.exists(plugin):
        sys.exit("no %s: build tileapply first (bash scripts/setup.sh)" % plugin)
    base = ["-std=c++20", "-x", "cuda", "--cuda-gpu-arch=sm_90a", "-Wno-unknown-cuda-version",
            "--cuda-path=/usr/local/cuda", "--cuda-device-only", "-O2", "-S"]
    tile_flags = base + ["-fplugin=" + plugin, "-I" + os.path.join(ROOT, "include"),
                         "-I" + os.path.join(ROOT, "runtime", "include")]
    tmp = args.keep or tempfile.mkdtemp(prefix="tileapply-compile-")
    os.makedirs(tmp, exist_ok=True)
    rows = []
    for n in [int(x) for x in args.calls.split(",")]:
        for shape, kernels in (("one kernel", 1), ("%d kernels" % max(1, n // PER_KERNEL), max(1, n // PER_KERNEL))):
            tag = "n%d-k%d" % (n, kernels)
            print("compiling %s (%d calls, %d instructions) ..." % (tag, n, n * args.repeats), flush=True)
            tile_src = tileapply_source(n, args.repeats, kernels)
            hand_src = handwritten_source(n, args.repeats, kernels)
            runs = []
            for _ in range(runs_for(n, args.runs)):
                t_tile, (p_tile, s_tile) = compile_one(clang, tile_flags, tile_src, tmp, "tile-" + tag)
                t_hand, _ = compile_one(clang, base, hand_src, tmp, "hand-" + tag)
                expand = p_tile.get("tileapply::TileApplyExpandPass", 0.0)
                # -ftime-report lists the passes the pipeline-start pass runs
                # (its always-inliner, the expansion) on their own lines; its
                # own line is what it does itself: inlining the header's wrappers.
                both = expand + p_tile.get("tileapply::TileApplyPipelineStartPass", 0.0)
                runs.append(dict(expand=expand, expand_sys=s_tile.get("tileapply::TileApplyExpandPass", 0.0),
                                 both=both, t_tile=t_tile, t_hand=t_hand))
                print("  expansion %.3f s (%.1f us/call), tileapply passes %.3f s, compile %.2f s vs hand-written %.2f s"
                      % (expand, 1e6 * expand / n, both, t_tile, t_hand), flush=True)
            # The fastest run's expansion, with its own system part.
            best = min(runs, key=lambda r: r["expand"])
            rows.append(dict(n=n, shape=shape, expand=best["expand"], expand_sys=best["expand_sys"],
                             both=min(r["both"] for r in runs), t_tile=min(r["t_tile"] for r in runs),
                             t_hand=min(r["t_hand"] for r in runs)))
    if not args.keep:
        shutil.rmtree(tmp)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    out = ["# Compile time of the tileapply pass", "",
           "Generated by `python3 bench/compile/run.py` (commit %s, %d cores, %s). Device-side "
           "compile of N calls of `add/sub/mul.rn.f32` on `float[%d][1]` tensors (%d instructions "
           "per call), -O2, sm_90a, PTX out (`--cuda-device-only -S`); the hand-written twin has the "
           "same instructions as straight-line inline asm. Times: CPU time (user + system) of the "
           "compile, and of each pass from `-ftime-report` (CPU time does not grow with other load "
           "on the machine the way wall-clock time does). Each compile ran %d times (%d times "
           "below 10,000 calls); every figure is the smallest of its runs. \"of it system\" is the kernel's share of the expansion pass's "
           "time (page faults of the memory the new IR takes)." % (
               commit, os.cpu_count(), time.strftime("%Y-%m-%d"), args.repeats, args.repeats, args.runs,
               runs_for(1000, args.runs)), "",
           "| calls | shape | expansion pass | of it system | per call | tileapply passes | pass share | compile (tileapply) | compile (hand-written) | added share |",
           "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append("| %d | %s | %.3f s | %.3f s | %.1f us | %.3f s | %.1f%% | %.2f s | %.2f s | %+.1f%% |" % (
            r["n"], r["shape"], r["expand"], r["expand_sys"], 1e6 * r["expand"] / r["n"], r["both"],
            100 * r["both"] / r["t_tile"], r["t_tile"], r["t_hand"], 100 * (r["t_tile"] - r["t_hand"]) / r["t_hand"]))
    per_call = [1e6 * r["expand"] / r["n"] for r in rows]
    out += ["", "Expansion time per call ranges from %.1f to %.1f us (ratio %.2f) over %d to %d calls."
            % (min(per_call), max(per_call), max(per_call) / min(per_call), rows[0]["n"], rows[-1]["n"]), ""]
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(out))
    print("\n".join(out))


if __name__ == "__main__":
    main()
