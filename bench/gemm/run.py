#!/usr/bin/env python3
"""The bf16 GEMM benchmark: the __tile_apply kernels against cuBLAS (PyTorch).

    python3 bench/gemm/run.py [--lib bench/.bin/libgemm.so] [--csv FILE] [--quick]
                              [--sizes 4096,8192,8000x8192x7936,skinny,kheavy] [--variants a,b,...]
                              [--reps N] [--warmup N] [--timeout S]
    python3 bench/gemm/run.py --list         the kernel variants in the library (no GPU)
    python3 bench/gemm/run.py --self-test    the tolerance checks on synthetic data (no GPU)

D = A x B with A M x K row-major, B K x N column-major (both K-major), bf16
in and out, f32 accumulation; the fused variants compute GELU_tanh(A x B + bias).

Sizes: M x N x K (or one number, cubed) and the shape classes skinny,
square, kheavy, ragged (CLASSES). Variants: the library's bf16 variants
(default: all of them); a split-K variant (*_splitk) runs with the slices
the heuristic picks for the shape, NAME@S with S slices of K; and two
names resolved per shape: ta_pick (gemm_pick: the variant and slices the
heuristic picks, split-K included) and ta_pick_nosplit (gemm_pick_nosplit:
the pick without split-K, as before it existed).

Run in three steps, each GPU step in its own process (a kernel that hangs or
faults costs that step, not the run; --timeout bounds each):

  1. smoke: every variant on small ragged shapes (partial tiles in M, N and
     K, tiles past M, more tiles than CTAs, boxes past N, one tile, skinny M
     with a long K) checked against an f32 reference; a split-K variant on
     each shape with the heuristic's slices and with 2, 3 and as many slices
     as k-blocks (at most 16), each also launched three more times and
     required bit-identical (the counters reset, the sum in slice order); a
     variant that fails here is not timed;
  2. bench, one process per size: A, B (and bias) from a seeded normal
     distribution; every variant that passed step 1 is checked on the full
     D, then cuBLAS (torch.matmul; for the fused variants torch.addmm + gelu
     and torch.matmul + bias + gelu) and the variants are timed with CUDA
     events on the same stream, interleaved in rounds;
  3. the table (bench/common/results.py) and the CSV rows.

Correctness bound (each variant, before it is timed; cuBLAS's own figures are
reported next to it): D must be fully written (D is filled with NaN first)
and finite; on a sample of rows (the first and last 64 and 128 random ones,
every column) against an f32 reference (the sampled rows of A, all of B, in
float32 on the GPU; the fused variants then add bias and apply the tanh GELU
in float32):
  - every element within 2^-8 |ref| + 2^-8 rms(ref) (one bf16 rounding,
    which is at most 2^-8 |ref|, plus accumulation-order slack), and
  - relative Frobenius error ||D - ref|| / ||ref|| <= 2^-8;
and on the whole matrix ||D - D_cuBLAS|| / ||D_cuBLAS|| <= 2^-7; a plan
that runs split-K (S > 1) must also give a bit-identical D on three more
launches (D poisoned with NaN before each).
A broken layout gives errors of the order of rms(ref), 256 times the bound.

Exit status: 0 every variant verified (and timed, unless --quick); 1 a
variant failed or hung; 2 no torch, no GPU, no library or bad usage.
"""
import argparse
import ctypes
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "common"))
import results  # noqa: E402  (bench/common/results.py)

PEAK_TFLOPS = 989.0  # H100/H200 SXM dense bf16 tensor-core peak (NVIDIA data sheet)
DEFAULT_SIZES = "4096,8192,8000x8192x7936"
# Small shapes of step 1: (M, N, K) and what each one exercises.
SMOKE_SHAPES = [
    ((128, 256, 64), "one tile, one k-block"),
    ((8, 8, 8), "a tiny problem: rows, columns and K past the end everywhere"),
    ((100, 520, 40), "M < 128 (warpgroup 1 has no rows), a box partly past N, K < 64"),
    ((257, 264, 72), "odd tile rows (cluster phantom tile), B half past N, ragged K"),
    ((1000, 1000, 1000), "ragged M, N and K"),
    ((3000, 4000, 328), "more tiles than CTAs (pipeline phases across tiles), 6 k-blocks"),
    ((2304, 1792, 4096), "deep K, full tiles"),
    ((64, 1024, 2048), "skinny M, long K: the heuristic splits K (split-K variants)"),
]
# Shape classes for --sizes (run_fp8.py uses the same).
CLASSES = {
    "skinny": ["%dx%dx%d" % (m, n, k) for m in (1, 16, 64, 128, 256) for n, k in ((4096, 4096), (8192, 8192),
                                                                                  (16384, 4096), (4096, 16384))],
    "square": ["2048", "3072", "4096", "6144", "8192"],
    "kheavy": ["%dx%dx%d" % (m, n, k) for k in (16384, 32768) for m, n in ((2048, 2048), (4096, 4096),
                                                                           (2048, 4096))],
    "ragged": ["4000x4000x4000", "8000x8192x7936", "1000x3008x5008", "3333x7008x4112"],  # N, K % 16: torch._scaled_mm
}
PICKS = ("ta_pick", "ta_pick_nosplit")  # variant names resolved per shape by the library's heuristic
MAX_SPLITS = 16  # layout.h's kMaxSplits
RELAUNCHES = 3  # more launches of a split-K plan that must give the same bits
BOUND_ELEM = 2.0 ** -8  # per element: BOUND_ELEM * (|ref| + rms(ref))
BOUND_FRO = 2.0 ** -8   # relative Frobenius error against the f32 reference
BOUND_VS_CUBLAS = 2.0 ** -7
RESULT = "RESULT "


# ---- sizes ----------------------------------------------------------------------------------

def parse_size(text):
    """'8192' -> (8192, 8192, 8192); '8000x8192x7936' -> (8000, 8192, 7936) (M x N x K)."""
    parts = text.lower().split("x")
    try:
        nums = [int(p) for p in parts]
    except ValueError:
        raise ValueError("bad size '%s' (examples: 8192, 8000x8192x7936)" % text)
    if len(nums) == 1:
        nums = nums * 3
    if len(nums) != 3 or min(nums) < 1:
        raise ValueError("bad size '%s': one number or M x N x K" % text)
    m, n, k = nums
    if n % 8 or k % 8:
        raise ValueError("size %s: N and K must be multiples of 8 (16-byte rows for TMA)" % text)
    return m, n, k


def size_name(mnk):
    m, n, k = mnk
    return "%d^3" % m if m == n == k else "%dx%dx%d" % (m, n, k)


def expand_sizes(text):
    """'4096,skinny' -> [(4096, 4096, 4096), (1, 4096, 4096), ...]: sizes and shape classes."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if part:
            out.extend(parse_size(s) for s in CLASSES.get(part, [part]))
    return out


def parse_variant(text):
    """'ta_128x128_s6_splitk@4' -> ('ta_128x128_s6_splitk', 4); a plain name -> (name, 0): the
    heuristic's slices (0 is what gemm_plan_ex takes for them)."""
    name, at, sl = text.partition("@")
    if not at:
        return name, 0
    try:
        splits = int(sl)
    except ValueError:
        raise ValueError("bad variant '%s' (NAME@S: S slices of K)" % text)
    if not 1 <= splits <= MAX_SPLITS:
        raise ValueError("variant '%s': S must be 1 ... %d" % (text, MAX_SPLITS))
    return name, splits


def smoke_splits(mnk, splitk, forced=0):
    """The slices of K a variant is smoke-tested with at a shape: 0 (the heuristic's) and, for a
    split-K variant, 2, 3 and one per k-block (at most MAX_SPLITS), each at most the k-blocks.
    A variant named with @S (`forced` S) runs its own S, and none at a shape with fewer k-blocks
    than S (a plan refuses that: every slice needs one)."""
    kblocks = (mnk[2] + 63) // 64
    if forced:
        return [0] if forced <= kblocks else []
    if not splitk:
        return [0]
    out = [0]
    for sp in (2, 3, min(kblocks, MAX_SPLITS)):
        if sp <= kblocks and sp not in out:
            out.append(sp)
    return out


# ---- the library ------------------------------------------------------------------------------

class Library:
    def __init__(self, path):
        self.path = path
        self.lib = ctypes.CDLL(path)
        L = self.lib
        L.gemm_variants.restype = ctypes.c_int
        L.gemm_variant_name.restype = ctypes.c_char_p
        L.gemm_variant_name.argtypes = [ctypes.c_int]
        L.gemm_variant_info.restype = ctypes.c_char_p
        L.gemm_variant_info.argtypes = [ctypes.c_int]
        L.gemm_variant_fused.restype = ctypes.c_int
        L.gemm_variant_fused.argtypes = [ctypes.c_int]
        L.gemm_error.restype = ctypes.c_char_p
        L.gemm_plan.restype = ctypes.c_void_p
        L.gemm_plan.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        L.gemm_run.restype = ctypes.c_int
        L.gemm_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        L.gemm_plan_grid.restype = ctypes.c_int
        L.gemm_plan_grid.argtypes = [ctypes.c_void_p]
        L.gemm_plan_free.argtypes = [ctypes.c_void_p]
        self.has_splitk = hasattr(L, "gemm_plan_ex")
        if self.has_splitk:
            L.gemm_plan_ex.restype = ctypes.c_void_p
            L.gemm_plan_ex.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 6 + [ctypes.c_int] * 4
            L.gemm_plan_splits.restype = ctypes.c_int
            L.gemm_plan_splits.argtypes = [ctypes.c_void_p]
            L.gemm_variant_splitk.restype = ctypes.c_int
            L.gemm_variant_splitk.argtypes = [ctypes.c_int]
            for f in (L.gemm_pick_dtype, L.gemm_pick_nosplit):
                f.restype = ctypes.c_int
                f.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        self.has_whole = hasattr(L, "gemm_plan_whole")
        if self.has_whole:
            L.gemm_plan_whole.restype = ctypes.c_int
            L.gemm_plan_whole.argtypes = [ctypes.c_void_p]
        self.all_variants = [L.gemm_variant_name(i).decode() for i in range(L.gemm_variants())]
        self.dtypes = {}
        if hasattr(L, "gemm_variant_dtype"):
            L.gemm_variant_dtype.restype = ctypes.c_char_p
            L.gemm_variant_dtype.argtypes = [ctypes.c_int]
            self.dtypes = {n: L.gemm_variant_dtype(i).decode() for i, n in enumerate(self.all_variants)}
        # This runner checks and times the bf16 variants; the fp8 ones are run_fp8.py's.
        self.variants = [n for n in self.all_variants if self.dtypes.get(n, "bf16") == "bf16"]

    def index(self, name):
        return self.all_variants.index(name)

    def known(self, spec):
        """None when `spec` (a variant, NAME@S or a pick) names something this runner can run, else why not."""
        try:
            name, splits = parse_variant(spec)
        except ValueError as e:
            return str(e)
        if name in PICKS:
            return None if self.has_splitk and not splits else "%s takes no @S%s" % (
                name, "" if self.has_splitk else " (and this library has no gemm_pick_nosplit)")
        if name not in self.variants:
            return "unknown variant %s" % spec
        if splits > 1 and not self.splitk(name):
            return "%s has no split-K (S > 1 needs a *_splitk variant)" % name
        return None

    def info(self, name):
        name = parse_variant(name)[0]
        if name in PICKS:
            return "the variant and slices of K the library's heuristic picks per shape (%s)" % (
                "gemm_pick" if name == "ta_pick" else "gemm_pick_nosplit: without split-K")
        return self.lib.gemm_variant_info(self.index(name)).decode()

    def fused(self, name):
        name = parse_variant(name)[0]
        return False if name in PICKS else bool(self.lib.gemm_variant_fused(self.index(name)))

    def splitk(self, name):
        return self.has_splitk and bool(self.lib.gemm_variant_splitk(self.index(name)))

    def resolve(self, spec, m, n, k):
        """(variant, splits) that `spec` runs at M x N x K: a pick resolved by the heuristic."""
        name, splits = parse_variant(spec)
        if name in PICKS:
            f = self.lib.gemm_pick_dtype if name == "ta_pick" else self.lib.gemm_pick_nosplit
            i = f(b"bf16", m, n, k)
            if i < 0:
                raise RuntimeError("%s: %s" % (name, self.lib.gemm_error().decode()))
            return self.all_variants[i], 0
        return name, splits

    def plan(self, spec, a, b, d, bias, m, n, k, splits=None):
        """A plan of `spec` (a variant, NAME@S or a pick); `splits` overrides the slices."""
        name, sp = self.resolve(spec, m, n, k)
        if splits is not None:
            sp = splits
        args = (a.data_ptr(), b.data_ptr(), d.data_ptr(), bias.data_ptr() if bias is not None else None)
        if self.has_splitk:
            p = self.lib.gemm_plan_ex(self.index(name), *args, None, None, m, n, k, sp)
        else:
            p = self.lib.gemm_plan(self.index(name), *args, m, n, k)
        if not p:
            raise RuntimeError("gemm_plan(%s%s): %s" % (name, "@%d" % sp if sp else "",
                                                         self.lib.gemm_error().decode()))
        return p

    def plan_splits(self, plan):
        return self.lib.gemm_plan_splits(plan) if self.has_splitk else 1

    def describe(self, spec, plan, m, n, k):
        """What a plan runs, for the log and the CSV label: 'ta_pick: ta_128x128_s6_splitk S=2'
        ('... S=5 after 264 whole': the tail split)."""
        name, _ = self.resolve(spec, m, n, k)
        sp = self.plan_splits(plan)
        whole = self.lib.gemm_plan_whole(plan) if self.has_whole else 0
        what = name + (" S=%d" % sp if self.splitk(name) else "") + (" after %d whole" % whole if whole else "")
        return "%s: %s" % (spec, what) if spec in PICKS else what

    def run(self, plan, stream):
        e = self.lib.gemm_run(plan, stream)
        if e:
            raise RuntimeError("gemm_run: %s" % self.lib.gemm_error().decode())


# ---- checks -------------------------------------------------------------------------------------

class TorchOps:
    """compare()'s primitives on float64 torch tensors (on the GPU)."""

    def __init__(self, torch):
        self.t = torch

    def finite(self, x):
        return bool(self.t.isfinite(x).all().item())

    def count(self, x):
        return x.numel()

    def sumsq(self, x):
        return float((x * x).sum().item())

    def sumsq_diff(self, d, ref):
        return self.sumsq(d - ref)

    def max_abs_diff(self, d, ref):
        return float((d - ref).abs().max().item())

    def max_rel(self, d, ref, scale):
        return float(((d - ref).abs() / (ref.abs() + scale)).max().item())


class ListOps:
    """The same primitives on flat lists of floats (the self-test; no numpy needed)."""

    def finite(self, x):
        return all(math.isfinite(v) for v in x)

    def count(self, x):
        return len(x)

    def sumsq(self, x):
        return math.fsum(v * v for v in x)

    def sumsq_diff(self, d, ref):
        return math.fsum((a - b) ** 2 for a, b in zip(d, ref))

    def max_abs_diff(self, d, ref):
        return max(abs(a - b) for a, b in zip(d, ref))

    def max_rel(self, d, ref, scale):
        return max(abs(a - b) / (abs(b) + scale) for a, b in zip(d, ref))


def compare(d, ref, ops):
    """Error figures of d against ref: rel_fro (||d - ref|| / ||ref||), max_rel
    (the largest |d - ref| / (|ref| + rms(ref)) as a multiple of 2^-8) and
    max_abs. NaN or Inf anywhere in d makes every figure infinite."""
    if not ops.finite(d):
        return {"rel_fro": math.inf, "max_rel": math.inf, "max_abs": math.inf}
    ss = ops.sumsq(ref)
    rms = math.sqrt(ss / max(1, ops.count(ref))) or 1.0
    norm = math.sqrt(ss) or 1.0
    return {"rel_fro": math.sqrt(ops.sumsq_diff(d, ref)) / norm,
            "max_rel": ops.max_rel(d, ref, rms) / BOUND_ELEM,
            "max_abs": ops.max_abs_diff(d, ref)}


def verdict(err):
    """None when the figures are within the bound, else why not."""
    if not math.isfinite(err["rel_fro"]):
        return "NaN or Inf in D (an element not written, or a wrong value)"
    if err["max_rel"] > 1.0:
        return "an element is off by %.3g x the bound 2^-8 (|ref| + rms(ref))" % err["max_rel"]
    if err["rel_fro"] > BOUND_FRO:
        return "relative Frobenius error %.3g > 2^-8" % err["rel_fro"]
    return None


def diagnose(torch, d, want):
    """A few words on where a wrong result is wrong (for a failed check): the
    fraction of elements off by row mod 8 and column mod 8, which 128 x 256 tiles
    are mostly wrong, whether D looks transposed. Never raises."""
    try:
        return _diagnose(torch, d, want)
    except Exception as e:  # a diagnosis must not cost the rest of the run
        return "(no diagnosis: %s: %s)" % (type(e).__name__, e)


def _diagnose(torch, d, want):
    bad = ~torch.isclose(d.float(), want.float(), rtol=2 ** -6, atol=2 ** -6 * want.float().abs().mean().item())
    m, n = d.shape
    frac = bad.float().mean().item()
    out = ["%.4f of the elements differ from cuBLAS" % frac]
    if frac == 0:
        return "; ".join(out)
    rows = bad.float().mean(dim=1)
    cols = bad.float().mean(dim=0)
    first = torch.nonzero(bad)[0].tolist()
    out.append("first at (%d, %d): %s vs %s" % (first[0], first[1], d[first[0], first[1]].item(),
                                                 want[first[0], first[1]].item()))
    out.append("rows with errors: %d of %d; columns: %d of %d" % (int((rows > 0).sum().item()), m,
                                                                  int((cols > 0).sum().item()), n))
    r8 = [round(rows[i::8].mean().item(), 3) for i in range(8)]
    c8 = [round(cols[i::8].mean().item(), 3) for i in range(8)]
    out.append("by row mod 8: %s; by column mod 8: %s" % (r8, c8))
    tm, tn = (m + 127) // 128, (n + 255) // 256
    tiles = []
    for i in range(min(tm, 64)):
        for j in range(min(tn, 64)):
            blk = bad[i * 128:(i + 1) * 128, j * 256:(j + 1) * 256]
            if blk.numel() and blk.float().mean().item() > 0.5:
                tiles.append((i, j))
    out.append("128x256 tiles mostly wrong: %d%s" % (len(tiles), (" e.g. %s" % tiles[:6]) if tiles else ""))
    nan = torch.isnan(d.float()).float().mean().item()
    if nan:
        out.append("NaN (unwritten) fraction %.4f" % nan)
    if m == n and frac > 0.5:
        tr = torch.isclose(d.float().t(), want.float(), rtol=2 ** -6, atol=1e-2).float().mean().item()
        out.append("D^T matches cuBLAS on %.3f of the elements" % tr)
    return "; ".join(out)


# ---- the GPU work (worker processes) -------------------------------------------------------------

class Gpu:
    """Problem data and helpers for one shape, in one process."""

    def __init__(self, torch, lib, mnk, seed, with_bias):
        self.torch, self.lib = torch, lib
        self.m, self.n, self.k = mnk
        dev = torch.device("cuda")
        g = torch.Generator(device=dev)
        g.manual_seed(seed)
        self.a = torch.randn(self.m, self.k, device=dev, dtype=torch.bfloat16, generator=g)
        self.bn = torch.randn(self.n, self.k, device=dev, dtype=torch.bfloat16, generator=g)  # B^T, row-major
        self.b = self.bn.t()  # K x N, column-major: the B of D = A x B
        self.bias = torch.randn(self.n, device=dev, dtype=torch.bfloat16, generator=g) if with_bias else None
        self.d = torch.empty(self.m, self.n, device=dev, dtype=torch.bfloat16)
        self.stream = torch.cuda.current_stream().cuda_stream
        # Sampled rows: the first and last 64 and up to 128 more.
        rnd = random.Random(seed)
        rows = set(range(min(64, self.m))) | set(range(max(0, self.m - 64), self.m))
        rows |= set(rnd.sample(range(self.m), min(128, self.m)))
        self.rows = torch.tensor(sorted(rows), device=dev, dtype=torch.long)
        ref = torch.matmul(self.a[self.rows].float(), self.b.float())
        self.ref_mm = ref
        self.ref_fused = None
        if self.bias is not None:
            self.ref_fused = torch.nn.functional.gelu(ref + self.bias.float(), approximate="tanh")

    def ref(self, fused):
        return self.ref_fused if fused else self.ref_mm

    def sample_error(self, d, fused):
        return compare(d[self.rows].double(), self.ref(fused).double(), TorchOps(self.torch))

    def torch_impls(self, fused):
        torch, a, b = self.torch, self.a, self.b
        if not fused:
            out = torch.empty_like(self.d)
            return [("torch_matmul", "torch.matmul (cuBLAS)", lambda: torch.matmul(a, b, out=out), out)]
        bias = self.bias
        holder = {}

        def addmm_gelu():
            holder["addmm"] = torch.nn.functional.gelu(torch.addmm(bias, a, b), approximate="tanh")

        def mm_bias_gelu():
            holder["mm"] = torch.nn.functional.gelu(torch.matmul(a, b) + bias, approximate="tanh")

        return [("torch_addmm_gelu", "torch addmm + gelu (cuBLAS)", addmm_gelu, lambda: holder["addmm"]),
                ("torch_matmul_bias_gelu", "torch matmul + bias + gelu", mm_bias_gelu, lambda: holder["mm"])]

    def ours(self, name, splits=None):
        plan = self.lib.plan(name, self.a, self.bn, self.d, self.bias, self.m, self.n, self.k, splits)
        return plan, (lambda: self.lib.run(plan, self.stream))

    def relaunch_check(self, plan, run):
        """None if RELAUNCHES more launches of a split-K plan (D poisoned with NaN before each) give
        the bits of the first (in self.d), else why not; nothing to do without a split."""
        if self.lib.plan_splits(plan) <= 1:
            return None
        torch = self.torch
        first = self.d.clone()
        for i in range(RELAUNCHES):
            self.d.fill_(float("nan"))
            run()
            torch.cuda.synchronize()
            if not torch.equal(self.d.view(torch.int16), first.view(torch.int16)):
                diff = int((self.d.view(torch.int16) != first.view(torch.int16)).sum().item())
                return "launch %d of the same plan differs from the first in %d elements" % (i + 2, diff)
        return None


def time_rounds(torch, fns, warmup, reps, rounds=3):
    """{name: sorted ms} for each (name, fn): warm-up, then `rounds` rounds in
    which every fn runs reps/rounds times, each between its own pair of events."""
    per = max(1, reps // rounds)
    for name, fn in fns:
        for _ in range(warmup):
            fn()
    torch.cuda.synchronize()
    ev = {name: [] for name, _ in fns}
    for _ in range(rounds):
        for name, fn in fns:
            for _ in range(per):
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                fn()
                e.record()
                ev[name].append((s, e))
        torch.cuda.synchronize()
    return {name: sorted(s.elapsed_time(e) for s, e in pairs) for name, pairs in ev.items()}


def emit(rec):
    print(RESULT + json.dumps(rec, sort_keys=True))
    sys.stdout.flush()


def device_record(torch):
    """What the run measured on: the GPU, PyTorch, CUDA and cuBLASLt versions."""
    rec = {"step": "device", "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
           "cuda": str(torch.version.cuda), "cublaslt": "unknown",
           "sms": torch.cuda.get_device_properties(0).multi_processor_count}
    torch.matmul(torch.ones(8, 8, device="cuda"), torch.ones(8, 8, device="cuda"))  # loads cuBLAS
    for soname in ("libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"):
        try:
            lt = ctypes.CDLL(soname, mode=getattr(os, "RTLD_NOLOAD", 4) | os.RTLD_LAZY)
            lt.cublasLtGetVersion.restype = ctypes.c_size_t
            v = int(lt.cublasLtGetVersion())
            rec["cublaslt"] = "%d.%d.%d" % (v // 10000, v // 100 % 100, v % 100)
            break
        except (OSError, AttributeError):
            continue
    return rec


def smoke_cases(lib, name):
    """(cases, skipped) of step 1 for a variant spec: cases (shape, what, splits) are every shape
    at each of smoke_splits' slices; skipped, the shapes a NAME@S variant cannot run (fewer
    k-blocks than S)."""
    base, forced = parse_variant(name)
    splitk = base not in PICKS and lib.splitk(base) and not forced
    cases, skipped = [], []
    for mnk, what in SMOKE_SHAPES:
        sps = smoke_splits(mnk, splitk, forced)
        cases += [(mnk, what, sp) for sp in sps]
        if not sps:
            skipped.append(mnk)
    return cases, skipped


def worker_smoke(torch, lib, name, seed):
    fused = lib.fused(name)
    failures = 0
    emit(device_record(torch))
    g = None
    cases, skipped = smoke_cases(lib, name)
    for mnk in skipped:
        print("skip smoke %-26s %-18s fewer k-blocks than its slices (a plan refuses that); not counted"
              % (name, size_name(mnk)))
    for mnk, what, sp in cases:
        if g is None or (g.m, g.n, g.k) != mnk:
            g = Gpu(torch, lib, mnk, seed, fused)
        g.d.fill_(float("nan"))
        tag = name if not sp else "%s@%d" % (parse_variant(name)[0], sp)
        print("     smoke %-26s %-18s running ..." % (tag, size_name(mnk)))
        sys.stdout.flush()
        t0 = time.monotonic()
        plan = None
        relaunch = None
        try:
            plan, run = g.ours(name, sp if sp else None)
            tag = lib.describe(name, plan, *mnk)
            run()
            torch.cuda.synchronize()
            took = time.monotonic() - t0
            err = g.sample_error(g.d, fused)
            full_nan = int(torch.isnan(g.d.float()).sum().item())
            relaunch = g.relaunch_check(plan, run)
        except RuntimeError as e:  # a refused plan, a failed launch, or a fault (the context is then lost)
            print("FAIL smoke %-26s %-18s %s" % (tag, size_name(mnk), e))
            emit({"step": "smoke", "variant": name, "m": mnk[0], "n": mnk[1], "k": mnk[2], "status": "FAIL",
                  "rel_fro": math.inf, "max_rel": math.inf, "why": str(e), "splits": sp})
            failures += 1
            continue
        finally:
            if plan:
                lib.lib.gemm_plan_free(plan)
        why = verdict(err) or ("%d elements not written" % full_nan if full_nan else None) or relaunch
        status = "ok" if why is None else "FAIL"
        print("%-4s smoke %-26s %-18s rel_fro %.2e  max %.2f x bound  %.3f s  (%s)%s"
              % (status, tag, size_name(mnk), err["rel_fro"], err["max_rel"], took, what,
                 "" if why is None else ": " + why))
        if why is not None:
            failures += 1
            # The same sample through cuBLAS, to tell the kernel from the data.
            ref = torch.matmul(g.a, g.b)
            if fused:
                ref = torch.nn.functional.gelu(ref + g.bias, approximate="tanh")
            print("     diagnosis: " + diagnose(torch, g.d, ref))
        emit({"step": "smoke", "variant": name, "m": mnk[0], "n": mnk[1], "k": mnk[2], "status": status,
              "rel_fro": err["rel_fro"], "max_rel": err["max_rel"], "why": why or "", "splits": sp})
    return 1 if failures else 0


def worker_bench(torch, lib, mnk, names, seed, warmup, reps):
    m, n, k = mnk
    flops = 2.0 * m * n * k
    failures = 0
    for fused in (False, True):
        group = [v for v in names if lib.fused(v) == fused]
        if not group:
            continue
        g = Gpu(torch, lib, mnk, seed, fused)
        fns = []
        # cuBLAS first: its result is the full-matrix comparison for the variants.
        impls = g.torch_impls(fused)
        base_out = None
        for vname, label, fn, out in impls:
            fn()
            torch.cuda.synchronize()
            d = out() if callable(out) else out
            if base_out is None:
                base_out = d.clone()
            err = g.sample_error(d, fused)
            emit({"step": "check", "variant": vname, "label": label, "m": m, "n": n, "k": k, "status": "ok",
                  "rel_fro": err["rel_fro"], "max_rel": err["max_rel"], "fused": fused})
            print("ok   check %-26s %-18s rel_fro %.2e  max %.2f x bound  (reference implementation)"
                  % (vname, size_name(mnk), err["rel_fro"], err["max_rel"]))
            fns.append((vname, fn))
        plans = []
        labels = {}  # what each variant ran as (a pick's variant, the slices of K)
        for v in group:
            g.d.fill_(float("nan"))
            try:
                plan, run = g.ours(v)
            except RuntimeError as e:
                print("FAIL check %-26s %-18s %s" % (v, size_name(mnk), e))
                emit({"step": "check", "variant": v, "m": m, "n": n, "k": k, "status": "FAIL",
                      "why": str(e), "fused": fused})
                failures += 1
                continue
            plans.append(plan)
            try:
                run()
                torch.cuda.synchronize()
            except RuntimeError as e:  # a failed launch, or a fault (then the rest of this size fails too)
                print("FAIL check %-26s %-18s %s" % (v, size_name(mnk), e))
                emit({"step": "check", "variant": v, "m": m, "n": n, "k": k, "status": "FAIL",
                      "why": str(e), "fused": fused})
                failures += 1
                continue
            err = g.sample_error(g.d, fused)
            nan = int(torch.isnan(g.d.float()).sum().item())
            vs = (torch.linalg.vector_norm((g.d.float() - base_out.float())).item() /
                  max(torch.linalg.vector_norm(base_out.float()).item(), 1e-30))
            why = verdict(err)
            if why is None and nan:
                why = "%d elements not written (NaN)" % nan
            if why is None and not vs <= BOUND_VS_CUBLAS:
                why = "||D - D_cuBLAS|| / ||D_cuBLAS|| = %.3g > 2^-7" % vs
            if why is None:
                try:
                    why = g.relaunch_check(plan, run)
                except RuntimeError as e:
                    why = str(e)
            status = "ok" if why is None else "FAIL"
            label = lib.describe(v, plan, m, n, k)
            labels[v] = label
            print("%-4s check %-26s %-18s rel_fro %.2e  max %.2f x bound  vs cuBLAS %.2e  grid %d%s"
                  % (status, label, size_name(mnk), err["rel_fro"], err["max_rel"], vs,
                     lib.lib.gemm_plan_grid(plan), "" if why is None else ": " + why))
            emit({"step": "check", "variant": v, "label": label, "m": m, "n": n, "k": k, "status": status,
                  "why": why or "", "rel_fro": err["rel_fro"], "max_rel": err["max_rel"], "vs_cublas": vs,
                  "fused": fused, "grid": lib.lib.gemm_plan_grid(plan), "splits": lib.plan_splits(plan)})
            if why is not None:
                failures += 1
                print("     diagnosis: " + diagnose(torch, g.d, base_out))
                continue
            fns.append((v, run))
        times = time_rounds(torch, fns, warmup, reps)
        base = statistics.median(times[impls[0][0]])
        for vname, _ in fns:
            ms = times[vname]
            med = statistics.median(ms)
            tf = flops / (med * 1e-3) / 1e12
            print("time %-26s %-18s %8.4f ms  %7.1f TFLOP/s  %5.3f of peak  %5.3fx %s  (min %.4f, max %.4f)"
                  % (labels.get(vname, vname), size_name(mnk), med, tf, tf / PEAK_TFLOPS, base / med, impls[0][0],
                     ms[0], ms[-1]))
            emit({"step": "time", "variant": vname, "m": m, "n": n, "k": k, "median_ms": med, "min_ms": ms[0],
                  "max_ms": ms[-1], "reps": len(ms), "tflops": tf, "fused": fused})
        for p in plans:
            lib.lib.gemm_plan_free(p)
        del g
        torch.cuda.empty_cache()
    return 1 if failures else 0


def import_torch():
    try:
        import torch
    except ImportError as e:
        print("error: run.py: cannot import torch (%s)" % e, file=sys.stderr)
        return None
    if not torch.cuda.is_available():
        print("error: run.py: torch %s sees no CUDA device" % torch.__version__, file=sys.stderr)
        return None
    torch.backends.cuda.matmul.allow_tf32 = False  # the f32 reference is f32
    return torch


def worker(args):
    torch = import_torch()
    if torch is None:
        return 2
    lib = Library(args.lib)
    if args.worker == "smoke":
        return worker_smoke(torch, lib, args.variants, args.seed)
    return worker_bench(torch, lib, parse_size(args.size), args.variants.split(","), args.seed, args.warmup,
                        args.reps)


# ---- the orchestrator -----------------------------------------------------------------------------

def run_step(argv, timeout, log):
    """Runs one worker; returns (exit status or 'timeout', RESULT records)."""
    cmd = [sys.executable, os.path.abspath(__file__)] + argv
    t0 = time.monotonic()
    recs = []
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, text=True)
        out, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        rc = "timeout"
    for line in out.splitlines():
        if line.startswith(RESULT):
            recs.append(json.loads(line[len(RESULT):]))
        else:
            log(line)
    log("   (%s, %.1f s)" % ("exit %s" % rc if rc != "timeout" else "TIMED OUT after %d s" % timeout,
                             time.monotonic() - t0))
    return rc, recs


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", default=os.path.join(ROOT, "bench", ".bin", "libgemm.so"))
    ap.add_argument("--csv", default="")
    ap.add_argument("--quick", action="store_true", help="step 1 only (correctness on small shapes)")
    ap.add_argument("--sizes", default=DEFAULT_SIZES, help="sizes and/or classes: " + ",".join(CLASSES))
    ap.add_argument("--variants", default="", help="comma-separated (default: all)")
    ap.add_argument("--reps", type=int, default=45)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--timeout", type=int, default=180,
                    help="seconds per bench worker process (smoke workers: at most 90)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--worker", choices=["smoke", "bench"], help=argparse.SUPPRESS)
    ap.add_argument("--size", help=argparse.SUPPRESS)
    args = ap.parse_args(argv[1:])

    if args.self_test:
        return self_test()
    if args.worker:
        return worker(args)
    if not os.path.isfile(args.lib):
        print("error: no library %s: build it with 'bash bench/gemm/build.sh' and carry bench/.bin" % args.lib,
              file=sys.stderr)
        return 2
    try:
        lib = Library(args.lib)
    except OSError as e:
        print("error: cannot load %s: %s" % (args.lib, e), file=sys.stderr)
        return 2
    variants = lib.variants
    if args.variants:
        variants = [v for v in args.variants.split(",") if v]
        bad = [(v, lib.known(v)) for v in variants if lib.known(v)]
        if bad:
            print("error: unknown variant(s) %s (%s; have: %s, NAME@S for a *_splitk one, %s)"
                  % (", ".join(v for v, _ in bad), "; ".join(w for _, w in bad), ", ".join(lib.variants),
                     ", ".join(PICKS)), file=sys.stderr)
            return 2
    if args.list:
        for v in variants:
            print("%-26s %s%s" % (v, "[fused] " if lib.fused(v) else "", lib.info(v)))
        return 0
    try:
        sizes = expand_sizes(args.sizes)
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    if args.reps < 3 or args.warmup < 0:
        print("error: --reps must be >= 3 and --warmup >= 0", file=sys.stderr)
        return 2

    def log(line):
        print(line)
        sys.stdout.flush()

    csv = args.csv
    failed = []
    if csv:
        results.append_note(csv, "gemm library", os.path.basename(args.lib))
        results.append_note(csv, "gemm peak", "%.0f TFLOP/s dense bf16 (H100/H200 SXM data sheet)" % PEAK_TFLOPS)
        results.append_note(csv, "gemm bound", "every element within 2^-8 (|ref| + rms(ref)) and relative "
                            "Frobenius error <= 2^-8 against an f32 reference on sampled rows; "
                            "||D - D_cuBLAS|| / ||D_cuBLAS|| <= 2^-7 on the whole matrix")
        for v in variants:
            results.append_note(csv, "gemm variant %s" % v, lib.info(v))

    log("== step 1: smoke (every variant on %d small ragged shapes; split-K ones at several slices)"
        % len(SMOKE_SHAPES))
    passed = []
    no_gpu = False
    device_noted = False
    hung = 0
    smoke_timeout = min(args.timeout, 90)
    for v in variants:
        if hung >= 3:
            # Three variants in a row hung: the fault is common to all; do not spend the run on it.
            log("== smoke %s: not run (the last three variants hung)" % v)
            failed.append("%s (smoke not run)" % v)
            continue
        rc, recs = run_step(["--worker", "smoke", "--variants", v, "--lib", args.lib, "--seed", str(args.seed)],
                            smoke_timeout, log)
        hung = hung + 1 if rc == "timeout" else 0
        dev = [r for r in recs if r["step"] == "device"]
        recs = [r for r in recs if r["step"] == "smoke"]
        if dev and not device_noted:
            device_noted = True
            d = dev[0]
            log("   device: %s (%d SMs), torch %s, CUDA %s, cuBLASLt %s" % (d["gpu"], d["sms"], d["torch"],
                                                                          d["cuda"], d["cublaslt"]))
            if csv:
                results.append_note(csv, "gemm device", "%s (%d SMs)" % (d["gpu"], d["sms"]))
                results.append_note(csv, "gemm torch", "%s, CUDA %s, cuBLASLt %s" % (d["torch"], d["cuda"],
                                                                                     d["cublaslt"]))
        if rc == 2:
            no_gpu = True
            log("== smoke %s: FAILED to start (no torch or no GPU; see above)" % v)
            break
        cases = smoke_cases(lib, v)[0]
        ok = rc == 0 and recs and all(r["status"] == "ok" for r in recs) and len(recs) == len(cases)
        if ok:
            passed.append(v)
        else:
            failed.append("%s (smoke%s)" % (v, ", timed out" if rc == "timeout" else ""))
            if csv:
                bad = [r for r in recs if r["status"] != "ok"]
                why = bad[0]["why"] if bad else ("timed out" if rc == "timeout" else "exit %s" % rc)
                results.append_note(csv, "gemm smoke FAIL %s" % v, why)
    if no_gpu:
        return 2
    if csv:
        results.append_note(csv, "gemm smoke", "passed: %s; failed: %s" % (", ".join(passed) or "none",
                                                                            ", ".join(failed) or "none"))
    log("== step 1: %d of %d variants passed%s" % (len(passed), len(variants),
                                                   "" if not failed else "; FAILED: " + ", ".join(failed)))
    if args.quick:
        return 1 if failed else 0
    def fail_row(v, mnk):
        """A FAIL row for a variant that was not timed at this size (it failed step 1)."""
        if csv:
            results.append_row(csv, {"bench": "gemm", "variant": v, "label": v, "compiler": "clang 22 + tileapply",
                                     "m": mnk[0], "n": mnk[1], "k": mnk[2], "reps": 0, "median_ms": 0.0,
                                     "min_ms": 0.0, "max_ms": 0.0, "tflops": 0.0, "status": "FAIL",
                                     "fused": int(lib.fused(v)), "rel_err": "", "max_err": ""},
                               header=results.GEMM_HEADER)

    if not passed:
        log("== no variant passed step 1: nothing to time")
        for mnk in sizes:
            for v in variants:
                fail_row(v, mnk)
        return 1

    log("== step 2: bench (%s)" % ", ".join(size_name(s) for s in sizes))
    for mnk in sizes:
        m, n, k = mnk
        for v in variants:
            if v not in passed:
                fail_row(v, mnk)
        rc, recs = run_step(["--worker", "bench", "--size", "%dx%dx%d" % mnk, "--variants", ",".join(passed),
                             "--lib", args.lib, "--seed", str(args.seed), "--reps", str(args.reps),
                             "--warmup", str(args.warmup)], args.timeout, log)
        checks = {r["variant"]: r for r in recs if r["step"] == "check"}
        times = {r["variant"]: r for r in recs if r["step"] == "time"}
        names = list(checks) + [v for v in passed if v not in checks]
        for v in names:
            c = checks.get(v)
            t = times.get(v)
            torch_impl = not v.startswith("ta_")
            status = "ok" if (c and c["status"] == "ok" and t) else ("FAIL" if c and c["status"] == "FAIL"
                                                                      else "skip")
            if status != "ok" and not torch_impl:
                failed.append("%s (%s: %s)" % (v, size_name(mnk), c["why"] if c else
                                                ("timed out" if rc == "timeout" else "no result")))
            if not csv:
                continue
            row = {"bench": "gemm", "variant": v,
                   "label": c["label"] if c and "label" in c else v,
                   "compiler": "torch" if torch_impl else "clang 22 + tileapply",
                   "m": m, "n": n, "k": k, "reps": t["reps"] if t else 0,
                   "median_ms": t["median_ms"] if t else 0.0, "min_ms": t["min_ms"] if t else 0.0,
                   "max_ms": t["max_ms"] if t else 0.0, "tflops": t["tflops"] if t else 0.0,
                   "status": status, "fused": int(bool(c and c.get("fused"))),
                   "rel_err": c.get("rel_fro", "") if c else "", "max_err": c.get("max_rel", "") if c else ""}
            results.append_row(csv, row, header=results.GEMM_HEADER)
    log("")
    if failed:
        log("== gemm benchmark: FAILED: %s" % "; ".join(failed))
        return 1
    log("== gemm benchmark: every variant verified and timed")
    return 0


# ---- the self-test (no GPU) -------------------------------------------------------------------

def self_test():
    """The checks on synthetic data (pure Python): a correctly rounded bf16
    result passes; a result with two rows swapped, one element off by 5% of
    rms, a NaN, or a result rounded to 6 significant bits fails."""
    import struct
    rnd = random.Random(1)

    def rnd_bits(x, bits=8):
        """x rounded to `bits` significant bits (8: bf16), to nearest even."""
        u = struct.unpack("<I", struct.pack("<f", x))[0]
        drop = 24 - bits
        u = (u + (1 << (drop - 1)) - 1 + ((u >> drop) & 1)) >> drop << drop
        return struct.unpack("<f", struct.pack("<I", u & 0xFFFFFFFF))[0]

    m, n, k = 48, 40, 256
    a = [[rnd_bits(rnd.gauss(0, 1)) for _ in range(k)] for _ in range(m)]
    b = [[rnd_bits(rnd.gauss(0, 1)) for _ in range(n)] for _ in range(k)]
    bt = list(zip(*b))
    ref = [[math.fsum(x * y for x, y in zip(a[i], bt[j])) for j in range(n)] for i in range(m)]
    flat = lambda rows: [v for r in rows for v in r]  # noqa: E731
    good = [[rnd_bits(v) for v in r] for r in ref]
    cases = [("correctly rounded", good, True)]
    swapped = [r[:] for r in good]
    swapped[3], swapped[4] = swapped[4], swapped[3]
    cases.append(("two rows swapped", swapped, False))
    rms = math.sqrt(math.fsum(v * v for v in flat(ref)) / (m * n))
    one = [r[:] for r in good]
    one[5][7] += 0.05 * rms
    cases.append(("one element off", one, False))
    nan = [r[:] for r in good]
    nan[0][0] = math.nan
    cases.append(("a NaN", nan, False))
    cases.append(("6-bit rounding", [[rnd_bits(v, 6) for v in r] for r in ref], False))
    fails = 0
    ops = ListOps()
    for what, d, want_ok in cases:
        err = compare(flat(d), flat(ref), ops)
        ok = verdict(err) is None
        mark = "ok " if ok == want_ok else "BAD"
        fails += ok != want_ok
        print("%s %-18s rel_fro %.3e  max %.3f x bound  -> %s" % (mark, what, err["rel_fro"], err["max_rel"],
                                                                  "pass" if ok else "fail: " + verdict(err)))
    for text, want in (("8192", (8192, 8192, 8192)), ("8000x8192x7936", (8000, 8192, 7936))):
        fails += parse_size(text) != want
    for bad in ("100x100x100x3", "64x100x64", "x"):
        try:
            parse_size(bad)
            fails += 1
        except ValueError:
            pass
    # Shape classes, NAME@S, and the slices a split-K variant is smoke-tested with.
    sizes = expand_sizes("4096,skinny,kheavy")
    ok = (sizes[0] == (4096,) * 3 and sizes[1] == (1, 4096, 4096) and len(sizes) == 1 + 20 + 6
          and (128, 8192, 8192) in sizes and (4096, 4096, 32768) in sizes)
    ok &= parse_variant("ta_128x128_s6_splitk@4") == ("ta_128x128_s6_splitk", 4)
    ok &= parse_variant("ta_pick") == ("ta_pick", 0)
    for bad in ("a@0", "a@17", "a@x"):
        try:
            parse_variant(bad)
            ok = False
        except ValueError:
            pass
    ok &= smoke_splits((128, 256, 64), True) == [0, 1] and smoke_splits((64, 1024, 2048), False) == [0]
    ok &= smoke_splits((257, 264, 72), True) == [0, 2] and smoke_splits((2304, 1792, 4096), True) == [0, 2, 3, 16]
    ok &= smoke_splits((3000, 4000, 328), True) == [0, 2, 3, 6]
    ok &= smoke_splits((128, 256, 64), True, 2) == [] and smoke_splits((257, 264, 72), True, 2) == [0]
    ok &= smoke_splits((257, 264, 72), False, 3) == []
    print("%s shape classes, NAME@S and the split-K smoke slices" % ("ok " if ok else "BAD"))
    fails += not ok
    print("self-test %s" % ("OK" if not fails else "FAILED"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
