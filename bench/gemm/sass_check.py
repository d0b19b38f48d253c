#!/usr/bin/env python3
"""What the GEMM kernels' SASS does, from `cuobjdump -sass bench/.bin/libgemm.so`.

    sass_check.py FILE.sass

For every gemm_kernel in the listing: its configuration (tile width, stages,
epilogue boxes, cluster, fused, wgmma overlap, decoded from the mangled name),
how many warpgroup MMA instructions it issues (HGMMA), TMA loads and stores
(UTMALDG / UTMASTG), stmatrix (STSM), mbarrier operations (SYNCS), and local
memory accesses (LDL / STL: spills or a stack array). Fails (exit 1) when a
kernel issues no HGMMA or touches local memory; exit 2 when the file has no
gemm_kernel. Runs where cuobjdump is (the GPU machine); standard library only.
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import sass_mix  # noqa: E402  (bench/common/sass_mix.py)

# gemm::gemm_kernel<gemm::config{bn, stages, epi_bufs, cluster, fused, overlap}>:
# the Itanium mangling leaves out trailing members that are zero.
# gemm::gemm_scaled_kernel<...> (fp8) has a seventh member, dtype, and issues QGMMA;
# then promote, split (gemm_splitk_kernel, gemm_scaled_splitk_kernel),
# pingpong, swap (gemm_swap_kernel, the skinny-M one) and promote_every.
CONFIG_RE = re.compile(r"gemm_(?:scaled_)?(?:splitk_|swap_)?kernelIXtlNS_6config((?:EL[jb]\d+)*)E")
FIELDS = ("bn", "stages", "epi_bufs", "cluster", "fused", "overlap", "dtype", "promote", "split", "pingpong", "swap",
          "promote_every")
DTYPES = {0: "", 1: ", e4m3", 2: ", e5m2 x e4m3"}
GROUPS = [("HGMMA", "warpgroup MMA"), ("QGMMA", "fp8 warpgroup MMA"), ("UTMALDG", "TMA loads"), ("UTMASTG", "TMA stores"),
          ("STSM", "stmatrix"), ("SYNCS", "mbarrier ops"), ("USETMAXREG", "setmaxnreg")]


def config_of(name):
    m = CONFIG_RE.search(name)
    if not m:
        return None
    vals = [int(x) for x in re.findall(r"EL[jb](\d+)", m.group(1))]
    vals += [0] * (len(FIELDS) - len(vals))
    return dict(zip(FIELDS, vals))


def describe(cfg):
    if cfg.get("swap"):  # D^T = B A^T: bn is the tile's M side, no epilogue boxes
        return "swapped (skinny M), M tile %d, %d stages, split-K" % (cfg["bn"], cfg["stages"])
    promote = ""
    if cfg.get("promote"):
        promote = ", promoted every %d k-block(s)%s" % (max(cfg.get("promote_every", 1), 1),
                                                         ", ping-pong" if cfg.get("pingpong") else "")
    return "128x%d, %d stages, %d epilogue boxes, cluster %d%s%s%s%s%s" % (
        cfg["bn"], cfg["stages"], cfg["epi_bufs"], cfg["cluster"], ", fused" if cfg["fused"] else "",
        "" if cfg["overlap"] else ", no wgmma overlap", DTYPES.get(cfg.get("dtype", 0), ""), promote,
        ", split-K" if cfg.get("split") else "")


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    funcs = sass_mix.load(argv[1])
    kernels = {n: ins for n, ins in funcs.items() if CONFIG_RE.search(n)}
    if not kernels:
        print("error: no gemm_kernel in %s (is it cuobjdump -sass output of libgemm.so?)" % argv[1])
        return 2
    bad = 0
    for name, ins in sorted(kernels.items()):
        counts = collections.Counter(op.split()[-1].split(".")[0] for op in ins)
        local = sass_mix.local_memory(collections.Counter(ins))
        cfg = config_of(name)
        parts = ["%d %s" % (counts.get(op, 0), what) for op, what in GROUPS]
        mma = counts.get("HGMMA", 0) + counts.get("QGMMA", 0)
        ok = mma > 0 and local == 0
        bad += not ok
        print("%s %s: %d instructions: %s, %d local-memory accesses%s"
              % ("ok " if ok else "BAD", describe(cfg) if cfg else name, len(ins), ", ".join(parts), local,
                 "" if ok else "  <-- " + ("no HGMMA/QGMMA" if not mma else "local memory")))
    if bad:
        print("sass-check FAILED: %d of %d kernel(s) without HGMMA or with local memory" % (bad, len(kernels)))
        return 1
    print("sass-check OK: %d kernel(s) issue HGMMA and touch no local memory" % len(kernels))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
