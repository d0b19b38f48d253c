#!/usr/bin/env python3
"""FP8 GEMM check and timing: libgemm.so's fp8 variants against an f32 reference and torch._scaled_mm.

D = bf16(scale_a * scale_b * (A x B) (+ bias)), A M x K and B N x K fp8 (both
K-major, B passed to torch._scaled_mm as its transpose: K x N column-major),
scale_a and scale_b one-element f32 device tensors, bias (small shapes) N bf16.

For every shape and variant: D is filled with NaN first; after one launch
every element must be finite and within TOL (|ref| + rms(ref)) of the f32
reference (the fp8 inputs converted exactly to f32, multiplied with TF32
off, scaled, biased) and within TOL (|t| + rms(t)) of torch._scaled_mm's
bf16 result (t). A variant that fails is not timed. Then torch._scaled_mm
(cuBLASLt, bf16 out) and the variants are timed in the same process on the
same stream (run.py's time_rounds: each launch between its own pair of CUDA
events, interleaved in three rounds after a warm-up); the median gives
TFLOP/s (2 M N K) and the ratio to torch._scaled_mm.

"ta_pick" is the variant gemm_pick_dtype() picks for the shape (a split-K one
where it splits, with its slices); "ta_pick_nosplit" gemm_pick_nosplit()'s.

Sizes: a list of M x N x K, or the shape classes: skinny, square, kheavy,
ragged (--sizes skinny,square,...; see CLASSES).

Writes one CSV line per measurement to --csv (columns in FP8_HEADER) and
prints a Markdown table. --self-test checks the comparison and the size
parsing without a GPU. Exit status: 0 all verified; 1 a failure; 2 usage or
no torch / GPU.
"""
import argparse
import ctypes
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as base  # noqa: E402  (bench/gemm/run.py: Library, time_rounds, parse_size)

TOL = 2.0 ** -7  # two bf16 roundings (ours and the reference's) apart: 2 x 2^-8
FP8_HEADER = ["dtype", "size", "m", "n", "k", "impl", "status", "ms_median", "ms_min", "ms_max", "tflops",
              "ratio_vs_torch", "max_rel_ref", "max_rel_torch", "grid"]

CLASSES = base.CLASSES  # skinny, square, kheavy, ragged (N, K % 16 as torch._scaled_mm needs)
DEFAULT_SIZES = "4096,8192,6144,8000x8192x7936,128x8192x8192"
SMALL = ["128x256x128", "8x16x16", "100x264x272", "300x520x1040", "129x8x4096", "1500x1400x336"]


def expand_sizes(text):
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        for s in CLASSES.get(part, [part]):
            mnk = base.parse_size(s)
            if mnk[2] % 16:
                raise ValueError("size %s: K must be a multiple of 16 for fp8 (16-byte rows)" % s)
            out.append(mnk)
    return out


def max_rel(d, ref, torch):
    """max |d - ref| / (|ref| + rms(ref)) over every element, in units of TOL; inf if d is not all finite."""
    if not bool(torch.isfinite(d).all()):
        return math.inf
    rms = float(ref.double().pow(2).mean().sqrt()) or 1.0
    return float(((d.float() - ref).abs() / (ref.abs() + rms)).max()) / TOL


class Fp8Lib(base.Library):
    def __init__(self, path):
        super().__init__(path)
        L = self.lib
        L.gemm_plan_scaled.restype = ctypes.c_void_p
        L.gemm_plan_scaled.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 6 + [ctypes.c_int] * 3
        L.gemm_pick_dtype.restype = ctypes.c_int
        L.gemm_pick_dtype.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        self.fp8 = [n for n in self.all_variants if self.dtypes.get(n) in ("e4m3", "e5m2")]

    def pick(self, dtype, m, n, k, split=True):
        f = self.lib.gemm_pick_dtype if split else self.lib.gemm_pick_nosplit
        i = f(dtype.encode(), m, n, k)
        if i < 0:
            raise RuntimeError("gemm_pick_dtype: %s" % self.lib.gemm_error().decode())
        return self.all_variants[i]

    def plan_scaled(self, name, a, b, d, bias, sa, sb, m, n, k):
        p = self.lib.gemm_plan_scaled(self.index(name), a.data_ptr(), b.data_ptr(), d.data_ptr(),
                                      bias.data_ptr() if bias is not None else None, sa.data_ptr(), sb.data_ptr(),
                                      m, n, k)
        if not p:
            raise RuntimeError("gemm_plan_scaled(%s): %s" % (name, self.lib.gemm_error().decode()))
        return p


def problem(torch, dtype, mnk, seed, with_bias):
    m, n, k = mnk
    dev = torch.device("cuda")
    g = torch.Generator(device=dev)
    g.manual_seed(seed)
    ta = torch.float8_e5m2 if dtype == "e5m2" else torch.float8_e4m3fn
    a = torch.randn(m, k, device=dev, generator=g).mul_(2.0).to(ta)
    bt = torch.randn(n, k, device=dev, generator=g).mul_(2.0).to(torch.float8_e4m3fn)  # B^T: N x K row-major
    sa = torch.tensor([0.37], device=dev, dtype=torch.float32)
    sb = torch.tensor([1.93], device=dev, dtype=torch.float32)
    bias = torch.randn(n, device=dev, generator=g, dtype=torch.bfloat16) if with_bias else None
    return a, bt, sa, sb, bias


def reference(torch, a, bt, sa, sb, bias):
    prev = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        ref = torch.matmul(a.float(), bt.float().t()) * (sa * sb)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = prev
    if bias is not None:
        ref = ref + bias.float()
    return ref


def scaled_mm(torch, a, bt, sa, sb, bias, out=None):
    kw = {"bias": bias} if bias is not None else {}
    if out is not None:
        kw["out"] = out
    r = torch._scaled_mm(a, bt.t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16, **kw)
    return r[0] if isinstance(r, tuple) else r


def check_one(torch, lib, name, dtype, mnk, seed, with_bias, log):
    """(why, plan, ctx, err_ref, err_torch, err_torch_ref): one launch of `name` on fresh data, D poisoned
    with NaN, every element checked; why is None when it passed (errors in units of TOL)."""
    m, n, k = mnk
    a, bt, sa, sb, bias = problem(torch, dtype, mnk, seed, with_bias)
    ref = reference(torch, a, bt, sa, sb, bias)
    try:
        t = scaled_mm(torch, a, bt, sa, sb, bias).float()
        rel_t_ref = max_rel(t, ref, torch)
    except Exception as e:  # noqa: BLE001  (torch may lack a form, e.g. e5m2 x e4m3)
        t, rel_t_ref = None, math.nan
        log("  note: torch._scaled_mm %s %s: %s" % (dtype, base.size_name(mnk), e))
    d = torch.empty(m, n, device=a.device, dtype=torch.bfloat16)
    d.fill_(float("nan"))
    stream = torch.cuda.current_stream().cuda_stream
    plan = lib.plan_scaled(name, a, bt, d, bias, sa, sb, m, n, k)
    lib.run(plan, stream)
    torch.cuda.synchronize()
    r_ref = max_rel(d, ref, torch)
    r_t = max_rel(d, t, torch) if t is not None else math.nan
    why = None
    if not math.isfinite(r_ref):
        why = "NaN or Inf in D (an element not written, or a wrong value)"
    elif r_ref > 1.0:
        why = "max error vs the f32 reference %.2f x tolerance" % r_ref
    elif t is not None and r_t > 1.0:
        why = "max error vs torch._scaled_mm %.2f x tolerance" % r_t
    ctx = {"a": a, "bt": bt, "sa": sa, "sb": sb, "bias": bias, "d": d, "stream": stream}
    return why, plan, ctx, r_ref, r_t, rel_t_ref


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", default=os.path.join(base.ROOT, "bench", ".bin", "libgemm.so"))
    ap.add_argument("--csv", default="")
    ap.add_argument("--sizes", default=DEFAULT_SIZES, help="sizes or classes: " + ",".join(CLASSES))
    ap.add_argument("--variants", default="", help="comma-separated fp8 variants and/or ta_pick, ta_pick_nosplit (default: all and ta_pick)")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--quick", action="store_true", help="the small ragged shapes only, nothing timed")
    ap.add_argument("--time-failing", action="store_true",
                    help="time a variant even where it fails the element check (its rows say FAIL-timed; the run "
                    "still fails): the speed of the *_fastacc variants, as a ceiling for the promoted ones")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    try:
        sizes = expand_sizes(args.sizes)
    except ValueError as e:
        print("error:", e, file=sys.stderr)
        return 2
    try:
        import torch
    except ImportError as e:
        print("error: no torch:", e, file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("error: no GPU", file=sys.stderr)
        return 2
    lib = Fp8Lib(args.lib)
    # The *_fastacc variants accumulate in the tensor core over all of K, so
    # their error grows with K past this runner's tolerance (as
    # torch._scaled_mm's use_fast_accum would): run them only when named.
    names = [v for v in args.variants.split(",") if v] or [v for v in lib.fp8 if not v.endswith("_fastacc")] + ["ta_pick"]
    for v in names:
        if v not in base.PICKS and v not in lib.fp8:
            print("error: no fp8 variant %s (have %s)" % (v, ", ".join(lib.fp8)), file=sys.stderr)
            return 2
    csv = open(args.csv, "a") if args.csv else None
    if csv and csv.tell() == 0:
        csv.write(",".join(FP8_HEADER) + "\n")

    def log(s):
        print(s, flush=True)

    def row(**kw):
        if csv:
            csv.write(",".join(str(kw.get(h, "")) for h in FP8_HEADER) + "\n")
            csv.flush()

    failed = []
    # 1. small ragged shapes, with and without bias, every variant.
    for name in [v for v in names if v not in base.PICKS]:
        dtype = lib.dtypes[name]
        for s in SMALL:
            mnk = base.parse_size(s)
            for with_bias in (False, True):
                try:
                    why, plan, _, r_ref, r_t, _ = check_one(torch, lib, name, dtype, mnk, args.seed, with_bias, log)
                    lib.lib.gemm_plan_free(plan)
                except Exception as e:  # noqa: BLE001
                    why, r_ref, r_t = "error: %s" % e, math.nan, math.nan
                tag = "%s %s%s" % (name, s, " +bias" if with_bias else "")
                log("%s %s (err/tol vs ref %.3f, vs torch %.3f)%s" % ("FAIL" if why else "ok  ", tag, r_ref, r_t,
                                                                    ": " + why if why else ""))
                if why:
                    failed.append(tag)
    if args.quick:
        print("== fp8 quick: %s" % ("FAILED: " + ", ".join(failed) if failed else "all verified"))
        return 1 if failed else 0
    bad = {f.split()[0] for f in failed}
    # 2. per size: check every variant on every element, then time against torch._scaled_mm.
    table = []
    for mnk in sizes:
        m, n, k = mnk
        sz = base.size_name(mnk)
        flops = 2.0 * m * n * k
        by_dtype = {}
        for v in names:
            real = lib.pick("e4m3", m, n, k, v == "ta_pick") if v in base.PICKS else v
            by_dtype.setdefault(lib.dtypes[real], []).append((v, real))
        for dtype, vs in by_dtype.items():
            fns, plans, checked = [], [], {}
            a, bt, sa, sb, bias = problem(torch, dtype, mnk, args.seed, False)
            tout = torch.empty(m, n, device=a.device, dtype=torch.bfloat16)
            try:
                scaled_mm(torch, a, bt, sa, sb, None, out=tout)
                fns.append(("torch_scaled_mm", lambda: scaled_mm(torch, a, bt, sa, sb, None, out=tout)))
            except Exception:  # noqa: BLE001  (no out= overload: time it allocating its result)
                try:
                    scaled_mm(torch, a, bt, sa, sb, None)
                    fns.append(("torch_scaled_mm", lambda: scaled_mm(torch, a, bt, sa, sb, None)))
                except Exception as e:  # noqa: BLE001
                    log("  torch._scaled_mm %s %s: %s" % (dtype, sz, e))
            for v, real in vs:
                if real in bad and not args.time_failing:
                    log("SKIP %s %s: failed the small shapes" % (v, sz))
                    continue
                try:
                    why, plan, ctx, r_ref, r_t, r_tref = check_one(torch, lib, real, dtype, mnk, args.seed, False, log)
                except Exception as e:  # noqa: BLE001
                    why, plan, r_ref, r_t = "error: %s" % e, None, math.nan, math.nan
                label = v if v not in base.PICKS else "%s(%s)" % (v, real)
                log("%s %s %s (err/tol vs ref %.3f, vs torch %.3f)%s" % ("FAIL" if why else "ok  ", label, sz,
                                                                       r_ref, r_t, ": " + why if why else ""))
                if why:
                    failed.append("%s %s" % (label, sz))
                    if not (args.time_failing and plan):
                        row(dtype=dtype, size=sz, m=m, n=n, k=k, impl=label, status="FAIL")
                        if plan:
                            lib.lib.gemm_plan_free(plan)
                        continue
                    label += " FAIL-timed"
                plans.append(plan)
                # Time on the same data the torch call uses.
                d = torch.empty(m, n, device=a.device, dtype=torch.bfloat16)
                p2 = lib.plan_scaled(real, a, bt, d, None, sa, sb, m, n, k)
                plans.append(p2)
                stream = torch.cuda.current_stream().cuda_stream
                fns.append((label, (lambda p=p2, s=stream: lib.run(p, s))))
                checked[label] = (r_ref, r_t, lib.lib.gemm_plan_grid(p2))
            times = base.time_rounds(torch, fns, args.warmup, args.reps)
            tmed = None
            if "torch_scaled_mm" in times:
                ts = times["torch_scaled_mm"]
                tmed = ts[len(ts) // 2]
            for label, ts in times.items():
                med = ts[len(ts) // 2]
                tf = flops / med / 1e9
                ratio = tmed / med if tmed else math.nan
                r_ref, r_t, grid = checked.get(label, ("", "", ""))
                row(dtype=dtype, size=sz, m=m, n=n, k=k, impl=label.replace(" FAIL-timed", ""),
                    status="FAIL-timed" if label.endswith(" FAIL-timed") else "ok", ms_median="%.5f" % med,
                    ms_min="%.5f" % ts[0], ms_max="%.5f" % ts[-1], tflops="%.1f" % tf, ratio_vs_torch="%.3f" % ratio,
                    max_rel_ref=r_ref, max_rel_torch=r_t, grid=grid)
                table.append((dtype, sz, label, med, tf, ratio))
                log("  %-5s %-16s %-34s %9.4f ms %7.1f TFLOP/s  %.3fx torch._scaled_mm" % (dtype, sz, label, med, tf,
                                                                                        ratio))
            for p in plans:
                lib.lib.gemm_plan_free(p)
            del fns
            torch.cuda.empty_cache()
    print("\n| dtype | M x N x K | impl | ms | TFLOP/s | vs torch._scaled_mm |\n|---|---|---|---:|---:|---:|")
    for dtype, sz, label, med, tf, ratio in table:
        print("| %s | %s | %s | %.4f | %.1f | %.3f |" % (dtype, sz, label, med, tf, ratio))
    print("== fp8: %s" % ("FAILED: " + ", ".join(failed) if failed else "all verified"))
    return 1 if failed else 0


def self_test():
    """No GPU: the size classes parse, K % 16 is enforced, and the element check on a fake torch."""
    for c, sizes in CLASSES.items():
        got = expand_sizes(c)
        assert len(got) == len(sizes), c
    assert expand_sizes("skinny")[0] == (1, 4096, 4096)
    try:
        expand_sizes("64x64x72")
        raise AssertionError("K % 16 not enforced")
    except ValueError:
        pass
    print("fp8 self-test OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
