#!/usr/bin/env python3
"""Checks, in the PTX of the attention kernels, that the softmax of each
pipelined kernel can overlap the O += P V product in flight.

    python3 bench/attention/overlap_check.py attn.ptx
    python3 bench/attention/overlap_check.py --self-test

The pipelined loop waits for S = Q K^T with one wgmma group left in flight
(`wgmma.wait_group.sync.aligned 1`), runs the softmax (the `ex2.approx`
instructions), and only then waits for the P V product
(`wgmma.wait_group.sync.aligned 0`). ptxas schedules within a basic block.
When the softmax and that second wait share one, ptxas hoists the wait above
the ex2s, and the overlap is lost: this happened in every pipelined kernel
until the loop was rotated (bench/results/attention.md). So, for each entry
that has a `wait_group 1`, the ex2s after it must be followed by a branch
before the next `wait_group 0` in the text.

That is a property of the PTX, which is what the build machine has; run.sh
checks the SASS itself on the GPU machine (cuobjdump: the MUFU.EX2 between
the two waits). Exit status 0 when every pipelined kernel passes, and at
least one exists; 1 otherwise.
"""
import re
import sys

WAIT = re.compile(r"wgmma\.wait_group\.sync\.aligned\s+(\d+)\s*;")
ENTRY = re.compile(r"^\.visible \.entry (\S+)\(")


def entries(text):
    name, body = None, []
    for line in text.splitlines():
        m = ENTRY.match(line)
        if m:
            if name:
                yield name, body
            name, body = m.group(1), []
        elif name:
            body.append(line)
    if name:
        yield name, body


LABEL = re.compile(r"^\$\w+:")
BRANCH = re.compile(r"\bbra(\.uni)?\b")


def blocks(body):
    """The basic blocks of an entry's body: split at labels and after branches."""
    cur = []
    for line in body:
        if LABEL.match(line) and cur:
            yield cur
            cur = []
        cur.append(line)
        if BRANCH.search(line):
            yield cur
            cur = []
    if cur:
        yield cur


def check(body):
    """(pipelined, softmax blocks, bad): whether the entry waits with a group
    in flight (wait_group 1); the blocks holding ex2; those of them in which
    a wait_group 0 follows an ex2 (ptxas may then hoist that wait above the
    softmax)."""
    pipelined = any((m := WAIT.search(line)) and m.group(1) == "1" for line in body)
    softmax = bad = 0
    for blk in blocks(body):
        seen_ex2 = hoistable = False
        for line in blk:
            if "ex2.approx" in line:
                seen_ex2 = True
            w = WAIT.search(line)
            if w and w.group(1) == "0" and seen_ex2:
                hoistable = True
        softmax += seen_ex2
        bad += hoistable
    return pipelined, softmax, bad


def self_test():
    """The check on two hand-written bodies: the loop as it was (the P V wait
    after the softmax in its block) and as it is (rotated)."""
    head = ["\twgmma.wait_group.sync.aligned 1;", "\tex2.approx.ftz.f32 %r1, %r2;"]
    serial = head + ["\tmul.f32 %r3, %r3, %r1;", "\twgmma.wait_group.sync.aligned 0;"]
    rotated = ["$L__BB0_1:", "\twgmma.wait_group.sync.aligned 0;"] + head + ["\t@%p1 bra $L__BB0_1;",
                                                                              "\twgmma.wait_group.sync.aligned 0;"]
    assert check(serial) == (True, 1, 1), check(serial)
    assert check(rotated) == (True, 1, 0), check(rotated)
    assert check(["\tex2.approx.ftz.f32 %r1, %r2;"])[0] is False
    print("overlap-check self-test OK")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        text = f.read()
    n = failed = 0
    for name, body in entries(text):
        pipelined, softmax, bad = check(body)
        if not pipelined:
            continue
        n += 1
        ok = softmax > 0 and bad == 0
        failed += not ok
        print(f"{'ok ' if ok else 'BAD'} {name}: {softmax} basic block(s) with ex2, "
              f"{bad} of them followed by the P V wait in the same block")
    if n == 0:
        print("overlap-check FAILED: no pipelined kernel (wgmma.wait_group 1) in " + argv[1])
        return 1
    if failed:
        print(f"overlap-check FAILED: {failed} of {n} pipelined kernel(s) let ptxas hoist the P V wait above the softmax")
        return 1
    print(f"overlap-check OK: {n} pipelined kernel(s), each softmax ends its basic block before the P V wait")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
