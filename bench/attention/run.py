#!/usr/bin/env python3
"""The attention benchmark: bench/.bin/libattn.so checked and timed on the GPU.

    run.py [--lib PATH] [--out DIR] [--quick] [--reps N] [--warmup N] [--timeout S]
    run.py --self-test        (no GPU, no torch: the runner's own arithmetic)

Step 1 (always): the kernel on small ragged shapes (seqlen 1, 17, 129, 1000,
seqlen_q != seqlen_k, GQA 32/8, causal and not, head dim 64/128/256) against
an f32 reference, every element of O (poisoned with NaN before the call) and
of the LSE, and against FA3 when it imports; each kernel mode (MODES below)
in its own worker. Step 2 (not with --quick), for the
modes that passed: the shapes of issue 20's table (16k tokens, hidden 2048):
every element must be finite and match cuDNN's result (and FA3's); the f32
reference checks every element and the LSE of the first --ref-heads heads
(default 2; 0: all heads, about 2 minutes more); then timed next to cuDNN
(SDPA CUDNN_ATTENTION), FA2 (SDPA FLASH_ATTENTION) and FA3 in this process:
per round, --reps / 4 untimed launches, then --reps launches back to back
between one pair of CUDA events; 9 rounds, each in a shuffled order, after a
warm-up; the median over rounds gives
TFLOP/s = 4 b h s_q s_k d / t (half when causal). Each step runs in a worker
process with a timeout (a hang costs the step, not the run). Writes
attention.csv, attention.md and attention-log.txt into --out.
Exit status: 0 all correct; 1 a check failed; 2 usage / no library / no GPU.
"""
import argparse
import ctypes
import json
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PEAK = 989.0  # H200 dense bf16 TFLOP/s

# (batch, heads, heads_kv, seqlen_q, seqlen_k, head_dim, causal)
SMALL = []
for _d in (64, 128, 256):
    for _c in (0, 1):
        SMALL += [
            (1, 2, 2, 1, 1, _d, _c),
            (2, 3, 3, 17, 17, _d, _c),
            (1, 2, 1, 129, 129, _d, _c),
            (1, 2, 2, 1000, 1000, _d, _c),
            (2, 2, 2, 17, 1000, _d, _c),     # seqlen_q < seqlen_k: causal is bottom-right aligned
            (1, 2, 2, 1000, 129, _d, _c),    # seqlen_q > seqlen_k: early rows fully masked when causal
            (1, 2, 2, 1, 129, _d, _c),
            (1, 32, 8, 257, 300, _d, _c),    # GQA 32 / 8
        ]
# issue 20's table: 16k tokens, hidden 2048
BIG = [(64, 8192, 0), (128, 1024, 0), (128, 8192, 0), (128, 16384, 1), (256, 16384, 0)]


def big_shape(d, s, c):
    return (16384 // s, 2048 // d, 2048 // d, s, s, d, c)


def flops(shape):
    b, h, _, sq, sk, d, c = shape
    f = 4.0 * b * h * sq * sk * d
    return f / 2 if c else f


def shape_name(shape):
    b, h, hk, sq, sk, d, c = shape
    return f"b{b}_h{h}" + (f"_kv{hk}" if hk != h else "") + f"_sq{sq}_sk{sk}_d{d}" + ("_causal" if c else "")


def visible(row, col, sq, sk, causal):
    """Key col is visible to query row: col < sk, and (causal) col <= row + sk - sq."""
    return col < sk and (not causal or col <= row + sk - sq)


def tolerance_ok(err, ref_abs, atol, rtol):
    return err <= atol + rtol * ref_abs


ATOL, RTOL = 2.0 ** -6, 2.0 ** -6     # O vs the f32 reference (bf16 P and O: ~2^-8 relative)
LSE_TOL = 2.0 ** -10                  # LSE (f32 throughout but for ex2 / lg2.approx)


# ---------------------------------------------------------------------------- the library

class Lib:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        f = self.lib.attn_fwd
        f.restype = ctypes.c_int
        f.argtypes = [ctypes.c_void_p] * 5 + [ctypes.c_int] * 7 + [ctypes.c_float, ctypes.c_void_p]
        self.lib.attn_error.restype = ctypes.c_char_p
        self.lib.attn_config.restype = ctypes.c_char_p
        self.lib.attn_config.argtypes = [ctypes.c_int]
        self.lib.attn_set_mode.restype = ctypes.c_int
        self.lib.attn_set_mode.argtypes = [ctypes.c_int]
        self.lib.attn_set_persistent.restype = ctypes.c_int
        self.lib.attn_set_persistent.argtypes = [ctypes.c_int]

    def set_mode(self, mode):
        """mode: a kernel mode (persistent CTAs), or (kernel mode, persistent 0 / 1)."""
        kernel, persistent = mode if isinstance(mode, tuple) else (mode, 1)
        if self.lib.attn_set_mode(kernel) < 0 or self.lib.attn_set_persistent(persistent) < 0:
            raise RuntimeError(f"attn_set_mode({kernel}) / attn_set_persistent({persistent}) refused")

    def config(self, d):
        c = self.lib.attn_config(d)
        return c.decode() if c else None

    def fwd(self, q, k, v, o, lse, shape, scale, stream):
        b, h, hk, sq, sk, d, c = shape
        rc = self.lib.attn_fwd(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(),
                               lse.data_ptr() if lse is not None else None, b, h, hk, sq, sk, d, c,
                               ctypes.c_float(scale), ctypes.c_void_p(stream))
        if rc != 0:
            raise RuntimeError("attn_fwd: " + self.lib.attn_error().decode())


# ---------------------------------------------------------------------------- GPU work

def reference(torch, q, k, v, shape, scale, heads=None):
    """f32 O [b, sq, h, d] and LSE [b, h, sq]; fully masked rows: O = 0, LSE = +inf.
    With `heads`, only those query heads (the others are NaN and not compared)."""
    b, h, hk, sq, sk, d, c = shape
    g = h // hk
    o = torch.full((b, sq, h, d), float("nan"), dtype=torch.float32, device=q.device)
    lse = torch.full((b, h, sq), float("nan"), dtype=torch.float32, device=q.device)
    rows_per = max(1, (1 << 28) // max(sk, 1))  # at most 1 GiB of scores at a time
    cols = torch.arange(sk, device=q.device)
    for bi in range(b):
        for hi in (range(h) if heads is None else heads):
            kf = k[bi, :, hi // g, :].float()
            vf = v[bi, :, hi // g, :].float()
            for r0 in range(0, sq, rows_per):
                r1 = min(sq, r0 + rows_per)
                s = (q[bi, r0:r1, hi, :].float() @ kf.t()) * scale
                if c:
                    rows = torch.arange(r0, r1, device=q.device)
                    s.masked_fill_(cols[None, :] > rows[:, None] + (sk - sq), float("-inf"))
                m = s.amax(dim=1, keepdim=True)
                empty = torch.isinf(m) & (m < 0)
                m = torch.where(empty, torch.zeros_like(m), m)
                p = torch.exp(s - m)
                l = p.sum(dim=1, keepdim=True)
                out = (p @ vf) / torch.where(l > 0, l, torch.ones_like(l))
                o[bi, r0:r1, hi, :] = out
                lse[bi, hi, r0:r1] = torch.where(l[:, 0] > 0, m[:, 0] + torch.log(l[:, 0]),
                                                 torch.full_like(l[:, 0], float("inf")))
    return o, lse


def check(torch, o, lse, ro, rlse, heads=None):
    """(ok, worst O error over its tolerance, max |O - ref|, max LSE error, text)."""
    if heads is not None:
        o, lse, ro, rlse = o[:, :, heads], lse[:, heads], ro[:, :, heads], rlse[:, heads]
    of = o.float()
    bad_nan = int((~torch.isfinite(of)).sum().item())
    err = (of - ro).abs()
    lim = ATOL + RTOL * ro.abs()
    worst = float((err / lim).max().item()) if err.numel() else 0.0
    maxerr = float(err.max().item()) if err.numel() else 0.0
    inf_ref = torch.isinf(rlse)
    lse_inf_ok = bool(torch.equal(torch.isinf(lse) & (lse > 0), inf_ref))
    fin = ~inf_ref
    lerr = float(((lse[fin] - rlse[fin]).abs() / rlse[fin].abs().clamp(min=1.0)).max().item()) if fin.any() else 0.0
    ok = bad_nan == 0 and worst <= 1.0 and lse_inf_ok and lerr <= LSE_TOL and not torch.isnan(lse).any().item()
    text = (f"max|O-ref| {maxerr:.3e} (worst {worst:.2f} of tolerance), {bad_nan} non-finite, "
            f"LSE rel err {lerr:.2e}, empty rows {'match' if lse_inf_ok else 'MISMATCH'}")
    return ok, worst, maxerr, lerr, text


def make_inputs(torch, shape, seed):
    b, h, hk, sq, sk, d, c = shape
    gen = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    k = torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    v = torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    return q, k, v


def run_ours(torch, lib, q, k, v, shape, scale, poison=True):
    b, h, hk, sq, sk, d, c = shape
    o = torch.full((b, sq, h, d), float("nan"), device="cuda", dtype=torch.bfloat16)
    lse = torch.full((b, h, sq), float("nan"), device="cuda", dtype=torch.float32)
    lib.fwd(q, k, v, o, lse, shape, scale, torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
    return o, lse


def import_fa3():
    for name in ("fa3_fwd_interface", "flash_attn_interface"):
        try:
            mod = __import__(name)
            return mod, name
        except Exception as e:  # noqa: BLE001 (any import failure means: no FA3)
            last = f"{name}: {type(e).__name__}: {e}"
    return None, last


def emit(rec):
    print("@@" + json.dumps(rec), flush=True)


# (attn_set_mode, attn_set_persistent): the default (fastest per head dim), plain
# loop, pipelined + ping-pong, pipelined and ping-pong with wider KV blocks,
# three consumer warpgroups at d 64, pipelined and ping-pong
# (bench/attention/README.md), all with persistent CTAs; and the default kernel
# launched with one CTA per tile (what persistence gains). The table's extra
# columns: each mode but the first, by its heading.
MODES = (((0, 1), "tileapply"), ((1, 1), "tileapply_plain"), ((2, 1), "tileapply_pingpong"),
         ((3, 1), "tileapply_wide"), ((4, 1), "tileapply_wide_pingpong"), ((5, 1), "tileapply_wg3"),
         ((6, 1), "tileapply_wg3_pingpong"), ((7, 1), "tileapply_psmem_pingpong"),
         ((0, 0), "tileapply_per_tile"))
MODE_HEADINGS = {"tileapply_plain": "plain loop", "tileapply_pingpong": "ping-pong", "tileapply_wide": "wide",
                 "tileapply_wide_pingpong": "wide ping-pong", "tileapply_wg3": "3 consumer WGs",
                 "tileapply_wg3_pingpong": "3 WGs ping-pong", "tileapply_psmem_pingpong": "P in smem, ping-pong",
                 "tileapply_per_tile": "one CTA per tile"}


def pick_modes(names):
    return tuple(m for m in MODES if m[1] in names) if names else MODES


def worker_small(torch, lib, seed, modes):
    failures = 0
    fa3, fa3_why = import_fa3()
    print("# FA3: " + ("compared at every small shape too" if fa3 else f"not available ({fa3_why})"), flush=True)
    for i, shape in enumerate(SMALL):
        scale = 1.0 / math.sqrt(shape[5])
        q, k, v = make_inputs(torch, shape, seed + i)
        ro, rl = reference(torch, q, k, v, shape, scale)
        fo = None
        if fa3 is not None:
            try:
                r = fa3.flash_attn_func(q, k, v, softmax_scale=scale, causal=bool(shape[6]))
                fo = (r[0] if isinstance(r, tuple) else r).float()
            except Exception as e:  # noqa: BLE001
                print(f"SKIP FA3 at {shape_name(shape)}: {e}", flush=True)
        for mode, impl in modes:
            try:
                lib.set_mode(mode)
                o, lse = run_ours(torch, lib, q, k, v, shape, scale)
                ok, worst, maxerr, lerr, text = check(torch, o, lse, ro, rl)
                if fo is not None:
                    err = (o.float() - fo).abs()
                    w = float((err / (2 * (ATOL + RTOL * fo.abs()))).max().item())
                    text += f"; vs FA3 max diff {float(err.max().item()):.2e}"
                    if w > 1.0:
                        ok, text = False, text + " (over tolerance)"
            except Exception as e:  # noqa: BLE001
                ok, worst, maxerr, lerr, text = False, float("nan"), float("nan"), float("nan"), f"error: {e}"
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} small {impl:15s} {shape_name(shape)}: {text}", flush=True)
            emit({"step": "small", "shape": shape_name(shape), "impl": impl, "ok": ok, "max_err": maxerr,
                  "lse_err": lerr})
    lib.set_mode(0)
    # refusals
    b = torch.zeros(16, device="cuda", dtype=torch.bfloat16)
    for bad, why in (((1, 2, 2, 4, 4, 96, 0), "head dim 96"), ((1, 3, 2, 4, 4, 64, 0), "heads_kv not dividing")):
        try:
            lib.fwd(b, b, b, b, None, bad, 0.1, 0)
            print(f"FAIL refusal {why}: accepted", flush=True)
            failures += 1
        except RuntimeError as e:
            print(f"ok   refusal {why}: {e}", flush=True)
    return failures


def sdpa_impls(torch, q, k, v, shape, scale):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F
    b, h, hk, sq, sk, d, c = shape
    qt, kt, vt = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
    impls = {}
    for name, be in (("cudnn", SDPBackend.CUDNN_ATTENTION), ("fa2_sdpa", SDPBackend.FLASH_ATTENTION)):
        def fn(be=be):
            with sdpa_kernel([be]):
                return F.scaled_dot_product_attention(qt, kt, vt, is_causal=bool(c), scale=scale,
                                                      enable_gqa=(h != hk))
        impls[name] = fn
    return impls


def round_order(names, r):
    """The order of round r: a shuffle seeded by r. A fixed order (and a
    rotated one) keeps each implementation behind the same predecessor, and
    the predecessor showed: one kernel timed as two modes came out 2% to 4%
    apart, the faster one behind a low-power kernel."""
    import random
    order = list(names)
    random.Random(1000 + r).shuffle(order)
    return order


def time_rounds(torch, fns, warmup, reps, rounds=9, settle=None):
    """Per implementation and round: `settle` untimed launches (default
    reps / 4, at least 2), then `reps` launches back to back between one
    pair of CUDA events (the host queues ahead, so launch overhead is hidden
    for every implementation alike), the mean per launch. The untimed
    launches bring the GPU to this implementation's own steady state (clock,
    power, L2) rather than its predecessor's. The rounds interleave the
    implementations, each round in another order (round_order). Returns
    (median, min, max) over rounds."""
    settle = max(2, reps // 4) if settle is None else settle
    times = {n: [] for n in fns}
    for n, f in fns.items():
        for _ in range(warmup):
            f()
    torch.cuda.synchronize()
    for r in range(rounds):
        for n in round_order(list(fns), r):
            f = fns[n]
            for _ in range(settle):
                f()
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(reps):
                f()
            e.record()
            e.synchronize()
            times[n].append(s.elapsed_time(e) * 1e-3 / reps)
    return {n: (statistics.median(t), min(t), max(t)) for n, t in times.items()}


def worker_big(torch, lib, seed, warmup, reps, which, ref_heads, modes):
    failures = 0
    fa3, fa3_why = import_fa3()
    if fa3 is None:
        print(f"SKIP FA3: no FA3 module imports ({fa3_why}); ship the fa3-fwd wheel to time it", flush=True)
    for i, (d, s, c) in enumerate(BIG):
        if which and f"{d}/{s}/{c}" not in which:
            continue
        shape = big_shape(d, s, c)
        scale = 1.0 / math.sqrt(d)
        q, k, v = make_inputs(torch, shape, seed + 100 + i)
        name = shape_name(shape)
        heads = None if ref_heads <= 0 or ref_heads >= shape[1] else list(range(ref_heads))
        ro, rl = reference(torch, q, k, v, shape, scale, heads)
        oks, outs = {}, {}
        for mode, impl in modes:
            try:
                lib.set_mode(mode)
                o, lse = run_ours(torch, lib, q, k, v, shape, scale)
                ok, worst, maxerr, lerr, text = check(torch, o, lse, ro, rl, heads)
                if heads is not None:
                    text += f" (f32 reference on heads 0..{ref_heads - 1} only)"
                nonfinite = int((~torch.isfinite(o.float())).sum().item())
                if nonfinite:
                    ok, text = False, text + f", {nonfinite} non-finite outputs overall"
            except Exception as e:  # noqa: BLE001
                ok, text, maxerr, lerr, o = False, f"error: {e}", float("nan"), float("nan"), None
            oks[impl] = (ok, maxerr)
            outs[impl] = o
            print(f"{'ok  ' if ok else 'FAIL'} big {impl:15s} {name}: {text}", flush=True)
        del ro
        lib.set_mode(0)
        ok, maxerr = oks[modes[0][1]]
        o = outs[modes[0][1]]
        fns = {}
        impls = sdpa_impls(torch, q, k, v, shape, scale)
        fa3_diff = None
        if fa3 is not None:
            def fa3_fn():
                r = fa3.flash_attn_func(q, k, v, softmax_scale=scale, causal=bool(c))
                return r[0] if isinstance(r, tuple) else r
            try:
                fo = fa3_fn()
                torch.cuda.synchronize()
                for impl, out in outs.items():
                    if out is None or not oks[impl][0]:
                        continue
                    err = (out.float() - fo.float()).abs()
                    worst = float((err / (2 * (ATOL + RTOL * fo.float().abs()))).max().item())
                    if impl == "tileapply":
                        fa3_diff = float(err.max().item())
                    good = worst <= 1.0
                    print(f"{'ok  ' if good else 'FAIL'} big {impl:15s} {name}: every element vs FA3: max diff "
                          f"{float(err.max().item()):.3e} (worst {worst:.2f} of tolerance)", flush=True)
                    if not good:
                        oks[impl] = (False, oks[impl][1])
                del fo
                impls["fa3"] = fa3_fn
            except Exception as e:  # noqa: BLE001
                print(f"SKIP FA3 at {name}: {e}", flush=True)
        lib_ref = None
        for n, f in list(impls.items()):
            try:
                r = f()
                torch.cuda.synchronize()
                fns[n] = f
                if lib_ref is None and n in ("cudnn", "fa2_sdpa"):
                    lib_ref = (n, r.transpose(1, 2).float())
            except Exception as e:  # noqa: BLE001
                print(f"SKIP {n} at {name}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", flush=True)
        # Every element of O against a library's bf16 result too (both round
        # to bf16: twice the tolerance).
        if lib_ref is not None:
            for impl, out in outs.items():
                if out is None or not oks[impl][0]:
                    continue
                err = (out.float() - lib_ref[1]).abs()
                worst = float((err / (2 * (ATOL + RTOL * lib_ref[1].abs()))).max().item())
                good = worst <= 1.0
                print(f"{'ok  ' if good else 'FAIL'} big {impl:15s} {name}: every element vs {lib_ref[0]}: "
                      f"max diff {float(err.max().item()):.3e} (worst {worst:.2f} of tolerance)", flush=True)
                if not good:
                    oks[impl] = (False, oks[impl][1])
            del lib_ref
        o_t = torch.empty_like(q)
        lse_t = torch.empty(shape[0], shape[1], shape[3], device="cuda", dtype=torch.float32)
        stream = torch.cuda.current_stream().cuda_stream
        ours = {}
        for mode, impl in modes:
            if oks[impl][0]:
                def fn(mode=mode):
                    lib.set_mode(mode)
                    lib.fwd(q, k, v, o_t, lse_t, shape, scale, stream)
                ours[impl] = fn
            else:
                failures += 1
        fns = {**ours, **fns}
        t = time_rounds(torch, fns, warmup, reps)
        f = flops(shape)
        for n, (med, lo, hi) in t.items():
            tf = f / med / 1e12
            print(f"     {n:10s} {med * 1e3:8.3f} ms  {tf:7.1f} TFLOP/s  ({tf / PEAK * 100:4.1f}% of peak)", flush=True)
            emit({"step": "big", "shape": name, "d": d, "s": s, "causal": c, "impl": n, "ok": True,
                  "median_s": med, "min_s": lo, "max_s": hi, "tflops": tf,
                  "max_err": oks[n][1] if n in oks else None, "fa3_diff": fa3_diff if n == "tileapply" else None})
        for impl, (good, err) in oks.items():
            if not good:
                emit({"step": "big", "shape": name, "d": d, "s": s, "causal": c, "impl": impl, "ok": False,
                      "median_s": None, "tflops": None, "max_err": err})
        lib.set_mode(0)
        del q, k, v, o, outs
        torch.cuda.empty_cache()
    return failures


def import_torch():
    try:
        import torch
    except Exception as e:  # noqa: BLE001
        print(f"SKIP: no torch ({e})", flush=True)
        sys.exit(2)
    if not torch.cuda.is_available():
        print("SKIP: no CUDA device", flush=True)
        sys.exit(2)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    return torch


def worker(args):
    torch = import_torch()
    lib = Lib(args.lib)
    print(f"# device: {torch.cuda.get_device_name()}, torch {torch.__version__}", flush=True)
    for d in (64, 128, 256):
        print(f"# config: {lib.config(d)}", flush=True)
    modes = pick_modes(args.modes)
    if args.worker == "small":
        n = worker_small(torch, lib, args.seed, modes)
    else:
        n = worker_big(torch, lib, args.seed, args.warmup, args.reps, args.only, args.ref_heads, modes)
    sys.exit(1 if n else 0)


# ---------------------------------------------------------------------------- the driver

def run_step(argv, timeout, log):
    """Runs one worker, relaying its output; kills it after `timeout` seconds
    (a watchdog thread: a hung kernel prints nothing)."""
    import threading
    recs = []
    try:
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError as e:
        log(f"FAIL could not start worker: {e}")
        return 1, recs
    timed_out = []

    def kill():
        timed_out.append(True)
        p.kill()
    watchdog = threading.Timer(timeout, kill)
    watchdog.start()
    try:
        for line in p.stdout:
            line = line.rstrip("\n")
            if line.startswith("@@"):
                recs.append(json.loads(line[2:]))
            else:
                log(line)
        rc = p.wait()
    finally:
        watchdog.cancel()
    if timed_out:
        log(f"FAIL worker timed out after {timeout} s (killed)")
        return 1, recs
    return rc, recs


def table(recs):
    by = {}
    for r in recs:
        if r.get("step") == "big" and r.get("tflops"):
            by.setdefault((r["d"], r["s"], r["causal"]), {})[r["impl"]] = r["tflops"]
    extra = [impl for _, impl in MODES[1:]]
    lines = ["| head dim | seqlen | causal | tileapply | FA3 | cuDNN | FA2 (SDPA) | vs FA3 | vs cuDNN | of peak | " +
             " | ".join(MODE_HEADINGS[i] for i in extra) + " |",
             "|---|---|---|" + "---:|" * (7 + len(extra))]

    def f(x):
        return f"{x:.0f}" if x else "-"

    def ratio(a, b):
        return f"{a / b:.2f}x" if a and b else "-"
    for (d, s, c) in BIG:
        row = by.get((d, s, c), {})
        ta = row.get("tileapply")
        peak = f"{(ta / PEAK * 100):.0f}%" if ta else "-"
        lines.append(f"| {d} | {s} | {'yes' if c else 'no'} | {f(ta)} | {f(row.get('fa3'))} | {f(row.get('cudnn'))} | "
                     f"{f(row.get('fa2_sdpa'))} | {ratio(ta, row.get('fa3'))} | {ratio(ta, row.get('cudnn'))} | "
                     f"{peak} | " + " | ".join(f(row.get(i)) for i in extra) + " |")
    return "\n".join(lines)


CSV_HEADER = "step,shape,impl,ok,median_s,min_s,max_s,tflops,max_err,lse_err,fa3_diff"


def csv_rows(recs):
    out = [CSV_HEADER]
    for r in recs:
        out.append(",".join("" if r.get(k) is None else str(r.get(k)) for k in CSV_HEADER.split(",")))
    return "\n".join(out)


def abi_check(path):
    """Without a GPU: the library loads, names its configurations, and refuses
    bad shapes with a reason before touching any memory."""
    lib = Lib(path)
    for d in (64, 128, 256):
        for mode, _ in MODES:
            lib.set_mode(mode)
            assert lib.config(d) and f"d {d}:" in lib.config(d), lib.config(d)
    lib.set_mode(0)
    assert lib.lib.attn_set_mode(8) == -1 and lib.lib.attn_set_persistent(2) == -1
    assert lib.lib.attn_set_persistent(0) == 1 and "one CTA per tile" in lib.config(128)
    assert lib.lib.attn_set_persistent(1) == 0 and "persistent" in lib.config(128)
    assert lib.config(96) is None

    class P:  # a stand-in tensor: a pointer that is never dereferenced
        def __init__(self, v):
            self.v = v

        def data_ptr(self):
            return self.v
    x = P(256)
    for shape, scale, why in (((1, 2, 2, 4, 4, 96, 0), 0.1, "head_dim 96"),
                              ((1, 3, 2, 4, 4, 64, 0), 0.1, "must divide"),
                              ((1, 2, 2, 0, 4, 64, 0), 0.1, "positive"),
                              ((1, 2, 2, 4, 4, 64, 2), 0.1, "causal"),
                              ((1, 2, 2, 4, 4, 64, 0), -1.0, "softmax_scale")):
        try:
            lib.fwd(x, x, x, x, None, shape, scale, 0)
        except RuntimeError as e:
            assert why in str(e), (why, str(e))
        else:
            raise AssertionError(f"accepted {shape}")
    try:
        lib.fwd(P(258), x, x, x, None, (1, 2, 2, 4, 4, 64, 0), 0.1, 0)
    except RuntimeError as e:
        assert "aligned" in str(e)
    print(f"run.py abi-check OK: {3 * len(MODES)} configurations, 6 refusals with reasons")
    return 0


def self_test():
    # FLOP count and names
    assert flops((1, 16, 16, 8192, 8192, 128, 0)) == 4.0 * 16 * 8192 * 8192 * 128
    assert flops((1, 16, 16, 8192, 8192, 128, 1)) == 2.0 * 16 * 8192 * 8192 * 128
    assert big_shape(128, 16384, 1) == (1, 16, 16, 16384, 16384, 128, 1)
    assert big_shape(64, 8192, 0) == (2, 32, 32, 8192, 8192, 64, 0)
    assert shape_name((1, 32, 8, 257, 300, 64, 1)) == "b1_h32_kv8_sq257_sk300_d64_causal"
    # each round's order is a permutation, and not always the same one
    names = [f"i{n}" for n in range(12)]
    orders = [round_order(names, r) for r in range(9)]
    assert all(sorted(o) == sorted(names) for o in orders)
    assert len({tuple(o) for o in orders}) > 1 and round_order(names, 3) == round_order(names, 3)
    assert len({o[o.index("i0") - 1] for o in orders if o.index("i0") > 0}) > 1  # predecessors vary
    # the mask definition: bottom-right aligned
    assert visible(0, 0, 4, 4, True) and not visible(0, 1, 4, 4, True)
    assert visible(0, 996, 4, 1000, True) and not visible(0, 997, 4, 1000, True)   # sq < sk: row 0 sees sk - sq + 1 keys
    assert not visible(0, 0, 1000, 129, True) and visible(871, 0, 1000, 129, True)  # sq > sk: rows < sq - sk see nothing
    assert not visible(3, 4, 4, 4, False) and visible(3, 3, 4, 4, False)
    # the small shapes cover what the issue names
    seqs = {s[3] for s in SMALL} | {s[4] for s in SMALL}
    assert {1, 17, 129, 1000} <= seqs
    assert any(s[1] == 32 and s[2] == 8 for s in SMALL)
    assert any(s[3] != s[4] for s in SMALL)
    assert {s[5] for s in SMALL} == {64, 128, 256} and {s[6] for s in SMALL} == {0, 1}
    # tolerance
    assert tolerance_ok(ATOL, 0.0, ATOL, RTOL) and not tolerance_ok(2 * ATOL + 1e-9, 0.5, ATOL, RTOL)
    # table and CSV on synthetic records
    recs = [{"step": "big", "d": 128, "s": 8192, "causal": 0, "impl": n, "tflops": t, "ok": True}
            for n, t in (("tileapply", 500.0), ("fa3", 674.0), ("cudnn", 658.0), ("fa2_sdpa", 318.0))]
    t = table(recs)
    assert "| 128 | 8192 | no | 500 | 674 | 658 | 318 | 0.74x | 0.76x | 51% | - | - |" in t, t
    assert "| 64 | 8192 | no | - |" in t
    c = csv_rows(recs).splitlines()
    assert c[0] == CSV_HEADER and len(c) == 5 and c[1].startswith("big,,tileapply,True")
    print("run.py self-test OK")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", default=os.path.join(ROOT, "bench", ".bin", "libattn.so"))
    ap.add_argument("--out", default=os.environ.get("OUT") or os.path.join(ROOT, "bench", ".out"))
    ap.add_argument("--quick", action="store_true", help="step 1 only (correctness on small shapes)")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=170, help="seconds for step 2's worker")
    ap.add_argument("--timeout-small", type=int, default=45, help="seconds per step-1 worker (one per mode)")
    ap.add_argument("--ref-heads", type=int, default=2,
                    help="big shapes: the f32 reference on this many heads (of every batch; 0: all heads, "
                         "about 2 more minutes); every element is compared with cuDNN's (or FA2's) result anyway")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", default="", help="big shapes as d/s/causal, comma-separated (default: all)")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--abi-check", action="store_true", help="no GPU: load the library, check its refusals")
    ap.add_argument("--worker", choices=["small", "big"], help=argparse.SUPPRESS)
    ap.add_argument("--modes", default="", help="kernel modes, comma-separated (default: all): " +
                    ", ".join(n for _, n in MODES))
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    if args.abi_check:
        return abi_check(args.lib)
    args.only = [x for x in args.only.split(",") if x]
    args.modes = [x for x in args.modes.split(",") if x]
    for m in args.modes:
        if m not in [n for _, n in MODES]:
            print(f"error: unknown mode {m}", file=sys.stderr)
            return 2
    if args.worker:
        worker(args)
        return 0
    if not os.path.exists(args.lib):
        print(f"error: no {args.lib}: build it with bash bench/attention/build.sh", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    logf = open(os.path.join(args.out, "attention-log.txt"), "w")

    def log(line):
        print(line, flush=True)
        logf.write(line + "\n")
        logf.flush()
    base = [sys.executable, os.path.abspath(__file__), "--lib", args.lib, "--seed", str(args.seed)]
    status = 0
    log("== step 1: small ragged shapes against the f32 reference (one worker per kernel mode)")
    recs, good = [], []
    for mode, impl in pick_modes(args.modes):
        rc, r = run_step(base + ["--worker", "small", "--modes", impl], args.timeout_small, log)
        if rc == 2:
            return 2
        recs += r
        status |= rc != 0
        if rc == 0:
            good.append(impl)
        else:
            log(f"== mode {impl} failed step 1: not run at the big shapes")
    if not args.quick and good:
        log("== step 2: issue 20's shapes: every element checked, then timed against cuDNN, FA2 and FA3")
        extra = ["--reps", str(args.reps), "--warmup", str(args.warmup), "--ref-heads", str(args.ref_heads),
                 "--modes", ",".join(good)]
        if args.only:
            extra += ["--only", ",".join(args.only)]
        rc2, recs2 = run_step(base + ["--worker", "big"] + extra, args.timeout, log)
        status |= rc2 != 0
        recs += recs2
        md = table(recs)
        log("")
        log(md)
        with open(os.path.join(args.out, "attention.md"), "w") as f:
            f.write("# Attention forward, bf16, H200 (bench/attention)\n\n"
                    "TFLOP/s = 4 b h s^2 d / t (half when causal); 16k tokens, hidden 2048. "
                    "Median over 9 interleaved rounds (each in a shuffled order, each window after untimed launches) of back-to-back launches, one process.\n\n" + md + "\n")
    build_info = os.path.join(os.path.dirname(args.lib), "attn-build-info.txt")
    notes = open(build_info).read() if os.path.exists(build_info) else ""
    with open(os.path.join(args.out, "attention.csv"), "w") as f:
        f.write(notes + csv_rows(recs) + "\n")
    small_bad = sum(1 for r in recs if r.get("step") == "small" and not r.get("ok"))
    log(f"== {'OK' if not status else 'FAILED'}: {small_bad} small-shape failure(s); results in {args.out}")
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
