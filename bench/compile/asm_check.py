#!/usr/bin/env python3
"""Compile-time benchmark: what the inline-asm checker costs on CCCL.

Generates the CCCL cuda::ptx corpus (test/tools/gen_cccl_ptx_corpus.py: every
overload's address taken, so every asm statement is instantiated) and
compiles it with `--cuda-device-only -fsyntax-only` three ways: without the
plugin, with the plugin and `-fplugin-arg-tileapply-no-asm-check`, and with
the plugin checking asm. The cost of a compile is clang's CPU time (user +
system); each is run --runs times and the smallest is kept (other load on the
machine only ever adds time).

usage: asm_check.py [--runs 7] [--arch sm_100a] [--build build]
Prints a Markdown table. Nothing here needs a GPU.
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CUDA = "/usr/local/cuda"
CLANG = "/usr/lib/llvm-22/bin/clang++"


def cpu_time(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--arch", default="sm_100a")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    plugin = os.path.join(args.build, "lib", "TileApply.so")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "corpus.cu")
        with open(src, "w") as out:
            subprocess.run([sys.executable, os.path.join(ROOT, "test", "tools", "gen_cccl_ptx_corpus.py"),
                            os.path.join(CUDA, "include", "cccl")], check=True, stdout=out,
                           stderr=subprocess.DEVNULL)
        base = [CLANG, "-std=c++20", "-x", "cuda", "-Wno-unknown-cuda-version",
                "--cuda-path=" + CUDA, "-I" + os.path.join(CUDA, "include", "cccl"),
                "--cuda-gpu-arch=" + args.arch, "--cuda-device-only", "-fsyntax-only", src]
        configs = [("plain clang", base),
                   ("plugin, asm check off", base + ["-fplugin=" + plugin,
                                                     "-fplugin-arg-tileapply-no-asm-check"]),
                   ("plugin, asm check on", base + ["-fplugin=" + plugin])]
        best = {}
        for _ in range(args.runs):
            for name, cmd in configs:  # interleaved, so drifting load hits all alike
                t = cpu_time(cmd)
                best[name] = min(best.get(name, t), t)
    plain = best["plain clang"]
    print("CCCL cuda::ptx corpus, %s, `--cuda-device-only -fsyntax-only`, best of %d runs (CPU s)\n"
          % (args.arch, args.runs))
    print("| compile | CPU time (s) | added over plain clang |")
    print("| --- | --- | --- |")
    for name, _ in configs:
        print("| %s | %.3f | %+.1f%% |" % (name, best[name], 100.0 * (best[name] - plain) / plain))
    on, off = best["plugin, asm check on"], best["plugin, asm check off"]
    print("\nThe asm check alone: %+.1f%% of the plain compile." % (100.0 * (on - off) / plain))


if __name__ == "__main__":
    main()
