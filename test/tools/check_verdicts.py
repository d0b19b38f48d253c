#!/usr/bin/env python3
"""One verdict: the plugin (-fsyntax-only) and the full compile must agree.

For every device compilation a test file's RUN lines describe (and for each
example program), compiles the file twice over:

  * checked only:   clang++ ... -fsyntax-only -fplugin=TileApply.so
  * compiled fully: clang++ ... -S -O<n> [-g] -fplugin=TileApply.so

and compares the diagnostics (file:line:col: error|warning: message). A file
the plugin accepts must compile at -O0..-O3, with and without -g, with the same
(empty) set of errors; a file it refuses must be refused with the same errors.
Any difference is a disagreement between the plugin and the pass, and fails.

usage: check_verdicts.py --clang CLANG --plugin SO --cuda CUDA --include DIR
                         [--jobs N] FILE... [--example FILE...]
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

DIAG = re.compile(r"^(.*?):(\d+):(\d+): (error|warning): (.*)$")
LEVELS_CLEAN = [(o, g) for o in ("-O0", "-O1", "-O2", "-O3") for g in ("", "-g")]
LEVELS_REFUSED = [("-O2", "")]


def run_configs(path):
    """The device compilations a lit test file's RUN lines ask for: the flags
    of each `%clangxx ... -fsyntax-only ...` line that compiles device code,
    minus -verify and the file itself."""
    configs = []
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f if "RUN:" in l]
    for line in lines:
        cmd = line.split("RUN:", 1)[1].strip()
        cmd = cmd.split("|")[0].split("2>&1")[0]
        words = shlex.split(cmd)
        if words and words[0] == "not":
            words = words[1:]
        if not words or words[0] != "%clangxx" or "-fsyntax-only" not in words:
            continue
        if "--cuda-host-only" in words or "%cuda_flags" not in words:
            continue
        flags, skip = [], False
        i = 1
        while i < len(words):
            w = words[i]
            if w == "-Xclang" and i + 1 < len(words) and words[i + 1].startswith("-verify"):
                i += 2
                continue
            if w in ("%s", "%cuda_flags", "-fsyntax-only", "--cuda-device-only") or w.startswith("-fplugin="):
                i += 1
                continue
            if "%" in w:  # a substitution this script does not know: skip the line
                skip = True
                break
            flags.append(w)
            i += 1
        if skip:
            continue
        # One device compilation per GPU: `-S -o` takes one output.
        archs = [f for f in flags if f.startswith("--cuda-gpu-arch=")]
        rest = [f for f in flags if not f.startswith("--cuda-gpu-arch=")]
        for arch in archs or [None]:
            configs.append(tuple(rest + ([arch] if arch else [])))
    return sorted(set(configs))


def diagnostics(out):
    found = []
    for line in out.splitlines():
        m = DIAG.match(line)
        if m:
            found.append((os.path.basename(m.group(1)), m.group(2), m.group(3), m.group(4), m.group(5)))
    return sorted(found)


def compile_(args, base, path, extra):
    cmd = base + list(extra) + [path]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, diagnostics(p.stderr), cmd


def check(args, path, flags):
    base = [args.clang, "-std=c++20", "-x", "cuda", "-Wno-unknown-cuda-version",
            "--cuda-path=" + args.cuda] + ["-I" + i for i in args.include] + [
            "--cuda-device-only", "-fno-color-diagnostics", "-fplugin=" + args.plugin] + list(flags)
    rc0, want, _ = compile_(args, base, path, ["-fsyntax-only"])
    levels = LEVELS_CLEAN if rc0 == 0 else LEVELS_REFUSED
    problems = []
    for opt, g in levels:
        extra = ["-S", opt, "-o", os.devnull] + ([g] if g else [])
        rc, got, cmd = compile_(args, base, path, extra)
        if (rc == 0) != (rc0 == 0) or got != want:
            problems.append("%s %s: -fsyntax-only %s (%d diagnostics) but %s %s %s (%d diagnostics)\n  %s\n"
                            "  only checked: %s\n  only compiled: %s" % (
                                os.path.basename(path), " ".join(flags),
                                "accepts" if rc0 == 0 else "refuses", len(want),
                                opt, g, "accepts" if rc == 0 else "refuses", len(got),
                                " ".join(shlex.quote(c) for c in cmd),
                                sorted(set(want) - set(got)), sorted(set(got) - set(want))))
    return path, flags, rc0 == 0, len(levels) + 1, problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cuda", required=True)
    ap.add_argument("--include", required=True, action="append", help="an include directory (repeatable)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--example", nargs="*", default=[], help="programs compiled at sm_90a")
    args = ap.parse_args()

    work = []
    for f in args.files:
        for flags in run_configs(f):
            work.append((f, flags))
    for f in args.example:
        work.append((f, ("--cuda-gpu-arch=sm_90a",)))
    if not work:
        print("check_verdicts: nothing to check", file=sys.stderr)
        return 2
    failures, compiles, clean = [], 0, 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for path, flags, accepted, n, problems in pool.map(lambda w: check(args, *w), work):
            compiles += n
            clean += accepted
            failures += problems
    for p in failures:
        print("DISAGREE " + p)
    print("check_verdicts: %d configurations of %d files (%d accepted, checked at 8 levels; "
          "%d refused), %d compiles, %d disagreements" % (
              len(work), len({w[0] for w in work}), clean, len(work) - clean, compiles, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
