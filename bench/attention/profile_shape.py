#!/usr/bin/env python3
"""profile_shape.py: launches of one attention shape, for a profiler.

    python3 bench/attention/profile_shape.py --d 64 --seqlen 8192 [--causal]
        [--lib bench/.bin/libattn.so] [--mode 0] [--launches 3] [--no-fa3]

Runs the tileapply kernel (attn_kernel, the mode given) and, where the
fa3-fwd wheel imports, FlashAttention-3 on the same Q, K, V, `--launches`
times each, with nothing else on the GPU between them: run it under
Nsight Compute, e.g.

    ncu --kernel-name regex:attn_kernel --launch-skip 1 --launch-count 1 \\
        --section SpeedOfLight ... python3 bench/attention/profile_shape.py --d 64 --seqlen 8192

(`regex:flash` for FA3's kernel). The shape is the issue's: batch x seqlen
= 16384 tokens, hidden size 2048. It checks nothing: run.py does that.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (Lib, import_fa3)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lib", default=os.path.join(HERE, "..", ".bin", "libattn.so"))
    ap.add_argument("--d", type=int, required=True, choices=(64, 128, 256))
    ap.add_argument("--seqlen", type=int, required=True)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--mode", type=int, default=0)
    ap.add_argument("--launches", type=int, default=3)
    ap.add_argument("--no-fa3", action="store_true")
    args = ap.parse_args(argv)
    if 16384 % args.seqlen:
        sys.exit("error: --seqlen must divide 16384 (batch x seqlen = 16384)")
    import torch
    b, h, s, d = 16384 // args.seqlen, 2048 // args.d, args.seqlen, args.d
    q, k, v = (torch.randn(b, s, h, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    o = torch.empty_like(q)
    lse = torch.empty(b, h, s, device="cuda", dtype=torch.float32)
    scale = d ** -0.5
    lib = run.Lib(args.lib)
    lib.set_mode(args.mode)
    stream = torch.cuda.current_stream().cuda_stream
    for _ in range(args.launches):
        lib.fwd(q, k, v, o, lse, (b, h, h, s, s, d, int(args.causal)), scale, stream)
    torch.cuda.synchronize()
    fa3, why = (None, "--no-fa3") if args.no_fa3 else run.import_fa3()
    if fa3 is None:
        print("no FA3: %s" % why)
        return 0
    for _ in range(args.launches):
        fa3.flash_attn_func(q, k, v, softmax_scale=scale, causal=args.causal)
    torch.cuda.synchronize()
    print("ok: %d launches each of tileapply (mode %d) and FA3, d %d, seqlen %d%s" %
          (args.launches, args.mode, d, s, ", causal" if args.causal else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
