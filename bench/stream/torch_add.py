#!/usr/bin/env python3
"""PyTorch's fp16 add as the stream benchmark's baseline.

    python3 bench/stream/torch_add.py [--sizes LIST] [--reps N] [--warmup N] [--csv FILE]

For each size (bytes per fp16 array; same syntax as the C++ programs: 256M,
4G, 1536M+11200) it builds A and B from the same input stream as
bench/stream/stream.cu (data.h; its generator is rebuilt here with torch integer
operations and checked against the pure-Python one in check_reference.py),
runs torch.add(A, B, out=D) once into a D filled with NaN and checks D bit for
bit against (A.float() + B.float()).half() (the correctly rounded sum), then
times torch.add(A, B, out=D) the way bench.h does: warm-up launches (at least
--warmup and 50 ms), then the median of --reps launches each between its own
CUDA events. Rows go to --csv in the format of bench/common/results.py.

Exit status: 0 verified, 1 a wrong result, 2 no torch / no CUDA device / usage.
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
sys.path.insert(0, HERE)
import results  # noqa: E402  (bench/common/results.py)
from check_reference import input_word as input_word_py  # noqa: E402

TEST_INDICES = [0, 1, 2, 12345, 134217733, 4294967295, 4294967296]
CHUNK_WORDS = 32 << 20  # words generated / checked at a time (bounds temporaries)
M32 = 0xFFFFFFFF


def mul32(x, c):
    """(x * c) mod 2^32 for int64 tensors 0 <= x < 2^32, without int64 overflow."""
    lo = x * (c & 0xFFFF)
    hi = (x * (c >> 16)) & 0xFFFF
    return (lo + (hi << 16)) & M32


def hash32(x):
    x = x ^ (x >> 16)
    x = mul32(x, 0x7FEB352D)
    x = x ^ (x >> 15)
    x = mul32(x, 0x846CA68B)
    return x ^ (x >> 16)


def finite_half(h, torch):
    return torch.where((h & 0x7C00) == 0x7C00, h ^ 0x4000, h)


def input_halves(torch, start, n, device):
    """Words [start, start + n) of the input stream as 2n fp16 values (low half first)."""
    i = torch.arange(start, start + n, dtype=torch.int64, device=device)
    h = hash32((i & M32) ^ (((i >> 32) * 0x9E3779B9) & M32))
    lo = finite_half(h & 0xFFFF, torch)
    hi = finite_half(h >> 16, torch)
    halves = torch.stack((lo, hi), dim=1).reshape(-1)
    halves = halves - ((halves >> 15) << 16)  # 0..65535 -> the int16 with the same bits
    return halves.to(torch.int16).view(torch.float16)


def words_of(torch, halves):
    """fp16 tensor (even length) -> its 32-bit words as int64 (low half first)."""
    b = halves.view(torch.int16).to(torch.int64) & 0xFFFF
    b = b.reshape(-1, 2)
    return b[:, 0] | (b[:, 1] << 16)


def check_generator(torch, device):
    got = []
    for i in TEST_INDICES:
        got.append(int(words_of(torch, input_halves(torch, i, 1, device)).item()))
    want = [input_word_py(i) for i in TEST_INDICES]
    if got != want:
        sys.exit("error: torch input generator disagrees with check_reference.py: %s vs %s"
                 % ([hex(x) for x in got], [hex(x) for x in want]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="256M,512M,1G,2G,4G,1536M+11200")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--csv", default="")
    args = ap.parse_args()
    try:
        sizes = [results.parse_bytes(s) for s in args.sizes.split(",") if s]
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    if args.reps < 1 or args.warmup < 0:
        print("error: --reps must be >= 1 and --warmup >= 0", file=sys.stderr)
        return 2
    for s in sizes:
        if s % 16:
            print("error: size %d is not a multiple of 16 bytes (the C++ variants' row)" % s,
                  file=sys.stderr)
            return 2
    try:
        import torch
    except ImportError as e:
        print("error: torch_add.py: cannot import torch (%s)" % e, file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("error: torch_add.py: torch %s sees no CUDA device" % torch.__version__,
              file=sys.stderr)
        return 2
    dev = torch.device("cuda")
    name = torch.cuda.get_device_name(dev)
    label = "torch.add (PyTorch %s)" % torch.__version__.split("+")[0]
    print("# torch_add.py: torch %s (CUDA %s) on %s" % (torch.__version__, torch.version.cuda, name))
    if args.csv:
        results.append_note(args.csv, "torch_add.py device", name)
        results.append_note(args.csv, "torch_add.py torch", "%s, CUDA %s" % (torch.__version__,
                                                                             torch.version.cuda))
    check_generator(torch, dev)

    failures = 0
    for size in sizes:
        n = size // 2  # halves per array
        words = size // 4
        pretty = results.format_bytes(size)
        row = {"bench": "stream", "variant": "torch_add", "label": label, "compiler": "torch",
               "size_bytes": size, "bytes_moved": 3 * size, "reps": 0, "median_ms": 0.0,
               "min_ms": 0.0, "max_ms": 0.0, "gbps": 0.0, "status": "ok"}
        free, _ = torch.cuda.mem_get_info(dev)
        need = 3 * size + 16 * CHUNK_WORDS * 8  # A|B, D, generator temporaries
        if need > free:
            print("SKIP  %-22s needs %.2f GiB of device memory, %.2f GiB free"
                  % (pretty, need / 2**30, free / 2**30))
            row["status"] = "skip"
            if args.csv:
                results.append_row(args.csv, row)
            continue
        ab = torch.empty(2 * n, dtype=torch.float16, device=dev)
        for start in range(0, 2 * words, CHUNK_WORDS):
            cnt = min(CHUNK_WORDS, 2 * words - start)
            ab[2 * start:2 * (start + cnt)] = input_halves(torch, start, cnt, dev)
        a, b = ab[:n], ab[n:]
        d = torch.full((n,), float("nan"), dtype=torch.float16, device=dev)
        torch.add(a, b, out=d)
        torch.cuda.synchronize()
        bad = 0
        first = None
        for s in range(0, n, 2 * CHUNK_WORDS):
            e = min(n, s + 2 * CHUNK_WORDS)
            want = (a[s:e].float() + b[s:e].float()).half()
            diff = d[s:e].view(torch.int16) != want.view(torch.int16)
            k = int(diff.sum().item())
            if k and first is None:
                first = s + int(diff.nonzero()[0].item())
            bad += k
        if bad:
            print("FAIL  %-22s torch_add    %d of %d halves wrong (first at %d; not timed)"
                  % (pretty, bad, n, first))
            row["status"] = "FAIL"
            failures += 1
            if args.csv:
                results.append_row(args.csv, row)
            del ab, d, a, b
            torch.cuda.empty_cache()
            continue
        # At least --warmup launches and 50 ms, as bench.h's time_gpu does.
        t0 = time.monotonic()
        i = 0
        while i < args.warmup or (args.warmup > 0 and time.monotonic() - t0 < 0.05):
            torch.add(a, b, out=d)
            i += 1
            if i % 8 == 0:
                torch.cuda.synchronize()
        torch.cuda.synchronize()
        ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(args.reps)]
        for start_ev, stop_ev in ev:
            start_ev.record()
            torch.add(a, b, out=d)
            stop_ev.record()
        torch.cuda.synchronize()
        ms = sorted(s.elapsed_time(t) for s, t in ev)
        med = statistics.median(ms)
        gbps = 3 * size / (med * 1e-3) / 1e9
        print("ok    %-22s %-12s %9.4f ms  %8.1f GB/s  (min %.4f, max %.4f ms; %d halves verified)"
              % (pretty, "torch_add", med, gbps, ms[0], ms[-1], n))
        sys.stdout.flush()
        row.update(reps=args.reps, median_ms=med, min_ms=ms[0], max_ms=ms[-1], gbps=gbps)
        if args.csv:
            results.append_row(args.csv, row)
        del ab, d, a, b
        torch.cuda.empty_cache()
    if failures:
        print("torch_add.py: %d measurement(s) FAILED verification" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
