#!/usr/bin/env python3
"""Compile every ```cuda block of the Markdown files under the given folders.

A block is a complete translation unit. The HTML comment on the line before
the block (blank lines allowed) says what to expect:

  (none)                          compiles with the plugin and assembles with ptxas
  <!-- expect-error: TEXT -->     the plugin reports an error containing TEXT,
                                  located in the block itself
  <!-- expect-warning: TEXT -->   compiles, with a warning containing TEXT
  <!-- expect-host-error: TEXT -->  the host compilation (--cuda-host-only)
                                  reports an error containing TEXT, located in
                                  the block itself (for host-code diagnostics)
  <!-- flags: -Xclang ... -->      extra compiler flags (no ';' in them)
  <!-- arch: sm_100a -->          compile for that architecture (default sm_90a)
Several directives may share one comment, separated by ';'.

Prints one line per block and a summary; exits 1 if any block misbehaves.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"(?:<!--(?P<dir>[^>]*)-->\s*\n)?```cuda\n(?P<code>.*?)```", re.S)


def directives(text):
    out = {}
    for part in (text or "").split(";"):
        if ":" in part:
            k, v = part.split(":", 1)
            out[k.strip()] = v.strip()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang", required=True)
    ap.add_argument("--flags", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("roots", nargs="+")
    a = ap.parse_args()

    files = []
    for root in a.roots:
        if os.path.isfile(root):
            files.append(root)
        for d, _, names in os.walk(root):
            files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".md")]
    tmp = tempfile.mkdtemp(prefix="docblocks-")
    jobs = []  # (where, directives, source path, code)
    for path in sorted(files):
        text = open(path, encoding="utf-8").read()
        for i, m in enumerate(BLOCK.finditer(text)):
            line = text.count("\n", 0, m.start("code"))
            where = "%s:%d" % (os.path.relpath(path), line + 1)
            src = os.path.join(tmp, "%s.%d.cu" % (os.path.basename(path), i))
            jobs.append((where, directives(m.group("dir")), src, m.group("code")))

    def check(job):
        where, d, src, code = job
        with open(src, "w") as f:
            f.write(code)
        arch = d.get("arch", "sm_90a")
        side = "--cuda-host-only" if "expect-host-error" in d else "--cuda-device-only"
        base = [a.clang] + shlex.split(a.flags) + [
            "--cuda-gpu-arch=" + arch, side, "-O2",
            "-fplugin=" + a.plugin] + shlex.split(d.get("flags", "")) + [src]
        if "expect-error" in d or "expect-host-error" in d:
            # A host error may come from the host's code generation (the
            # host side of a __host__ __device__ function): compile to code.
            stop = (["-S", "-o", os.devnull] if "expect-host-error" in d
                    else ["-fsyntax-only"])
            r = subprocess.run(base + stop, capture_output=True, text=True)
            want = d.get("expect-error") or d["expect-host-error"]
            own = [l for l in r.stderr.splitlines() if l.startswith(src + ":") and "error:" in l]
            if r.returncode == 0:
                return where, "compiled, but an error was expected: " + want
            if not any(want in l for l in own):
                return where, "no error containing %r in the block itself:\n%s" % (want, r.stderr)
            return where, None
        ptx = src + ".ptx"
        r = subprocess.run(base + ["-S", "-o", ptx], capture_output=True, text=True)
        if r.returncode != 0:
            return where, "does not compile:\n" + r.stderr
        if "expect-warning" in d and d["expect-warning"] not in r.stderr:
            return where, "no warning containing %r:\n%s" % (d["expect-warning"], r.stderr)
        if "expect-warning" not in d and "warning:" in r.stderr:
            return where, "unexpected warning:\n" + r.stderr
        p = subprocess.run([a.ptxas, "-arch=" + arch, ptx, "-o", ptx + ".cubin"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            return where, "ptxas refuses its PTX:\n" + p.stderr
        return where, None

    # Each block is its own compile: run them side by side, report in order.
    ok = bad = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for where, problem in pool.map(check, jobs):
            if problem:
                bad += 1
                print("FAIL %s: %s" % (where, problem))
            else:
                ok += 1
                print("ok   %s" % where)
    print("%d doc blocks passed, %d failed" % (ok, bad))
    if ok + bad == 0:
        print("error: no ```cuda blocks found")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
