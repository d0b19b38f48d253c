#!/usr/bin/env python3
"""Mutation test of the inline-asm checker, with ptxas as the oracle.

Takes the asm statements of real headers (CCCL's cuda::ptx instructions and
CUTLASS's cute/arch wrappers), plants one defect in each copy of a statement
and keeps the copies ptxas refuses; tileapply must then report an error at
the line of every kept copy.

 1. Statements: every `asm(...)` of the headers whose template is made of
    string literals and whose constraints are register letters (r l h f d b),
    "n" or tied digits. Of each #if only the first branch is read.
 2. A deterministic sample (--seed, --statements per corpus).
 3. For each, a control kernel (the statement as it is, its operands kernel
    parameters and locals of the constraint's type) and mutant kernels, one
    defect each, each kernel on its own line of a generated .cu:
      misspelled     a qualifier with two letters swapped (or one doubled)
      foreign        a real PTX qualifier the instruction does not take
      width          a register constraint of another width or class
      dropped/added  an operand of an instruction left out / one more
      imm-register   an immediate (a literal or an "n") given as a register
      imm-range      an immediate out of range (a literal or "n" made huge)
      unbracketed    an address written without its brackets
      floor          the statement compiled for a target below its floor
 4. clang --cuda-device-only -S (no plugin) writes the PTX; each kernel is cut
    into a PTX file of its own and given to ptxas (-j jobs in parallel). The
    statement's target is the first of sm_90a, sm_100a where its control
    assembles; statements whose control does not assemble are dropped.
    Mutants ptxas accepts are dropped, and so are those clang itself refuses.
 5. The kept mutants are compiled with -fplugin: each must get an error at its
    line. The controls are compiled with the plugin too: none may get one.

usage: asm_mutation.py --cccl DIR --cutlass DIR --plugin SO [--seed N] ...
Prints the figures and every miss with its reason (the checker's own
-asm-stats line for the statement); exits 1 when the share caught is below
--min-percent or a control got an error.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_cutlass_cute_corpus import strip  # noqa: E402

C_TYPE = {"r": "unsigned", "l": "unsigned long long", "h": "unsigned short", "f": "float",
          "d": "double", "b": "bool"}
# Other widths and classes for a register letter.
OTHER_LETTER = {"r": ["l", "h"], "l": ["r"], "h": ["r", "l"], "f": ["d", "h"], "d": ["f", "r"],
                "b": ["r"]}
# Real PTX qualifiers, for instructions that take none of them.
FOREIGN = [".sat", ".ftz", ".rn", ".relaxed", ".v4", ".wide", ".cc", ".approx", ".aligned",
           ".shared::cta", ".L1::no_allocate", ".hi", ".lo", ".b128", ".async", ".trans"]
STR = re.compile(r'"(?:\\.|[^"\\\n])*"')


def decode(lit):
    body = lit[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def encode(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace(
        "\t", "\\t") + '"'


def split_top(text, sep):
    out, depth, cur, i = [], 0, "", 0
    while i < len(text):
        m = STR.match(text, i)
        if m:
            cur += m.group(0)
            i = m.end()
            continue
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0 and not (sep == ":" and text[i:i + 2] == "::"):
            out.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    out.append(cur)
    return out


def statements(path):
    """(template, [(constraint, name)], clobbers) of every asm statement it reads."""
    text = strip(open(path).read())
    out = []
    for m in re.finditer(r"\basm\s*(?:volatile|__volatile__)?\s*\(", text):
        i, depth = m.end() - 1, 0
        for j in range(i, len(text)):
            s = STR.match(text, j)
            if text[j] == "(":
                depth += 1
            elif text[j] == ")":
                depth -= 1
                if depth == 0:
                    break
        body = text[i + 1:j]
        parts = split_top(body, ":")
        if len(parts) < 2 or len(parts) > 4:
            continue
        lits = STR.findall(parts[0])
        if not lits or STR.sub("", parts[0]).strip():
            continue  # a template that is not only string literals
        tmpl = "".join(decode(l) for l in lits)
        ops, ok = [], True
        for k in (1, 2):
            if k >= len(parts) or not parts[k].strip():
                continue
            for o in split_top(parts[k], ","):
                mo = re.match(r'^\s*(\[\s*(\w+)\s*\])?\s*"([^"]*)"\s*\(', o)
                if not mo:
                    ok = False
                    break
                ops.append((mo.group(3), mo.group(2) or "", k == 1))
        if not ok:
            continue
        for c, _, out_ in ops:
            letter = c.lstrip("=+&")
            if not (letter in C_TYPE or letter == "n" or (letter.isdigit() and not out_)):
                ok = False
        clob = STR.findall(parts[3]) if len(parts) > 3 else []
        if ok:
            out.append((tmpl, ops, [decode(c) for c in clob]))
    return out


class Kernel:
    def __init__(self, sid, kind, tmpl, ops, clob, what, nvals=None):
        self.sid, self.kind, self.tmpl, self.ops, self.clob, self.what = sid, kind, tmpl, ops, clob, what
        self.nvals = nvals or {}
        self.arch = None
        self.line = None
        self.name = None

    def source(self, name):
        """One line: a kernel holding the statement."""
        params, pre, post, outs, ins = [], [], [], [], []
        for k, (c, nm, is_out) in enumerate(self.ops):
            letter = c.lstrip("=+&")
            named = "[%s] " % nm if nm else ""
            if letter == "n":
                ins.append('%s"n"(%s)' % (named, self.nvals.get(k, "1")))
                continue
            if letter.isdigit():
                t = C_TYPE[self.ops[int(letter)][0].lstrip("=+&")]
                params.append("%s a%d" % (t, k))
                ins.append('%s"%s"(a%d)' % (named, c, k))
                continue
            t = C_TYPE[letter]
            if is_out:
                params.append("%s *p%d" % (t, k))
                if c.startswith("+"):
                    params.append("%s a%d" % (t, k))
                    pre.append("%s v%d = a%d;" % (t, k, k))
                else:
                    pre.append("%s v%d;" % (t, k))
                post.append("*p%d = v%d;" % (k, k))
                outs.append('%s"%s"(v%d)' % (named, c, k))
            else:
                params.append("%s a%d" % (t, k))
                ins.append('%s"%s"(a%d)' % (named, c, k))
        clob = ", ".join(encode(c) for c in self.clob)
        asm = "asm volatile(%s : %s : %s%s);" % (encode(self.tmpl), ", ".join(outs), ", ".join(ins),
                                                  " : " + clob if clob else "")
        return 'extern "C" __global__ void %s(%s) { %s %s %s }' % (name, ", ".join(params), " ".join(pre), asm,
                                                       " ".join(post))


OPCODE = re.compile(r"(^|[;{}\n]|\}\s*)\s*(@!?%?\w+\s+)?([a-z][a-z0-9_]*(?:\.[A-Za-z0-9_:]+)+)")


def instructions(tmpl):
    """(start, end) of every instruction name with qualifiers, and of its operand text."""
    out = []
    for m in OPCODE.finditer(tmpl):
        s, e = m.start(3), m.end(3)
        semi = tmpl.find(";", e)
        if semi < 0:
            continue
        out.append((s, e, e, semi))
    return out


def mutants(sid, tmpl, ops, clob, rng):
    """The defects it plants in one statement (one kernel each)."""
    out = []
    ins = instructions(tmpl)
    mk = lambda kind, t, o, what, nv=None: out.append(Kernel(sid, kind, t, o, clob, what, nv))
    if ins:
        s, e, os_, oe = ins[rng.randrange(len(ins))]
        name = tmpl[s:e]
        quals = [m for m in re.finditer(r"\.([A-Za-z0-9_:]+)", name)]
        alpha = [q for q in quals if re.search(r"[a-z]{2}", q.group(1))]
        if alpha:
            q = alpha[rng.randrange(len(alpha))]
            w = q.group(1)
            k = next(i for i in range(len(w) - 1) if w[i].isalpha() and w[i + 1].isalpha() and w[i] != w[i + 1]) \
                if any(w[i].isalpha() and w[i + 1].isalpha() and w[i] != w[i + 1] for i in range(len(w) - 1)) else None
            bad = w[:k] + w[k + 1] + w[k] + w[k + 2:] if k is not None else w + w[-1]
            mk("misspelled", tmpl[:s] + name[:q.start(1)] + bad + name[q.end(1):] + tmpl[e:], ops,
               "%s: .%s -> .%s" % (name, w, bad))
        choices = [f for f in FOREIGN if f not in name]
        f = choices[rng.randrange(len(choices))]
        mk("foreign", tmpl[:e] + f + tmpl[e:], ops, "%s + %s" % (name, f))
        operands = split_top(tmpl[os_:oe], ",")
        if len(operands) >= 2:
            k = rng.randrange(len(operands))
            kept = operands[:k] + operands[k + 1:]
            text = ",".join(kept)
            if k == 0:
                text = " " + text.lstrip()
            mk("dropped", tmpl[:os_] + text + tmpl[oe:], ops, "%s: operand %d left out" % (name, k + 1))
        if operands and operands[-1].strip():
            mk("added", tmpl[:oe] + ", " + operands[-1].strip() + tmpl[oe:], ops,
               "%s: %s once more" % (name, operands[-1].strip()))
        br = [m for m in re.finditer(r"\[\s*(%\d+|%\[\w+\])\s*\]", tmpl[os_:oe])]
        if br:
            m = br[rng.randrange(len(br))]
            mk("unbracketed", tmpl[:os_ + m.start()] + m.group(1) + tmpl[os_ + m.end():], ops,
               "%s: [%s] -> %s" % (name, m.group(1), m.group(1)))
        lit = [m for m in re.finditer(r"(?<![%\w.])(0x[0-9a-fA-F]+|\d+)(?![\w.])", tmpl[os_:oe])]
        if lit:
            m = lit[rng.randrange(len(lit))]
            n = len(ops)
            mk("imm-register", tmpl[:os_ + m.start()] + "%" + str(n) + tmpl[os_ + m.end():],
               ops + [("r", "", False)], "%s: %s -> a register" % (name, m.group(1)))
            mk("imm-range", tmpl[:os_ + m.start()] + "0x1FFFFFFFFF" + tmpl[os_ + m.end():], ops,
               "%s: %s -> 0x1FFFFFFFFF" % (name, m.group(1)))
    regs = [k for k, (c, _, _) in enumerate(ops) if c.lstrip("=+&") in OTHER_LETTER]
    if regs:
        k = regs[rng.randrange(len(regs))]
        c = ops[k][0]
        letter = c.lstrip("=+&")
        new = OTHER_LETTER[letter][rng.randrange(len(OTHER_LETTER[letter]))]
        o2 = list(ops)
        o2[k] = (c[:len(c) - 1] + new, ops[k][1], ops[k][2])
        # tied inputs follow their output's type
        mk("width", tmpl, o2, 'operand %d: "%s" -> "%s"' % (k, c, o2[k][0]))
    nops = [k for k, (c, _, _) in enumerate(ops) if c == "n"]
    if nops:
        k = nops[rng.randrange(len(nops))]
        o2 = list(ops)
        o2[k] = ("r", ops[k][1], False)
        mk("imm-register", tmpl, o2, 'operand %d: "n" -> "r"' % k)
        mk("imm-range", tmpl, ops, 'operand %d: "n"(1) -> "n"(0x7FFFFFFF)' % k, {k: "0x7FFFFFFF"})
    return out


FLOOR_BELOW = {"sm_90a": "sm_80", "sm_100a": "sm_90a"}


class Run:
    def __init__(self, a):
        self.a = a
        self.dir = a.workdir or tempfile.mkdtemp(prefix="asm-mutation-")
        os.makedirs(self.dir, exist_ok=True)
        self.n = 0

    def flags(self, arch):
        f = [self.a.clang, "-x", "cuda", "-Wno-unknown-cuda-version", "--cuda-path=" + self.a.cuda,
             "-std=c++20", "--cuda-device-only", "--cuda-gpu-arch=" + arch, "-w", "-ferror-limit=0"]
        return f

    def write(self, kernels, tag):
        path = os.path.join(self.dir, tag + ".cu")
        lines = ["// Generated by test/tools/asm_mutation.py: one kernel a line."]
        for k in kernels:
            self.n += 1
            k.name = "k%d" % self.n
            lines.append(k.source(k.name))
            k.line = len(lines)
        open(path, "w").write("\n".join(lines) + "\n")
        return path

    def assemble(self, kernels, arch, tag):
        """Kernels -> {name: ptxas accepts?}; clang's refusals -> None."""
        verdict = {}
        todo = list(kernels)
        for _ in range(4):
            if not todo:
                break
            src = self.write(todo, tag)
            ptx = src[:-3] + ".ptx"
            r = subprocess.run(self.flags(arch) + ["-S", "-o", ptx, src], capture_output=True, text=True)
            if r.returncode == 0:
                break
            bad = {int(m.group(1)) for m in re.finditer(r"\.cu:(\d+):\d+: error", r.stderr)}
            if not bad:
                sys.stderr.write(r.stderr[-3000:])
                raise SystemExit("clang failed without a line")
            for k in todo:
                if k.line in bad:
                    verdict[k.name] = None
            todo = [k for k in todo if k.line not in bad]
        else:
            raise SystemExit("clang kept failing")
        if not todo:
            return verdict
        text = open(ptx).read()
        first = re.search(r"^\.(visible|weak|extern)? ?\.?(entry|func)", text, re.M)
        head = text[:first.start()] if first else text
        files = []
        # Each entry up to the next (a template's own `}` may start a line).
        starts = list(re.finditer(r"^\.visible \.entry (\w+)\(", text, re.M))
        for i, m in enumerate(starts):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
            p = os.path.join(self.dir, "%s.%s.ptx" % (tag, m.group(1)))
            open(p, "w").write(head + text[m.start():end] + "\n")
            files.append((m.group(1), p))

        def one(item):
            name, p = item
            r = subprocess.run([self.a.ptxas, "-arch=" + arch, p, "-o", os.devnull],
                               capture_output=True, text=True)
            if self.a.verbose and tag.startswith("control-") and r.returncode:
                sys.stderr.write("%s %s: %s\n" % (arch, name, r.stderr.strip()[:300]))
            os.unlink(p)
            return name, r.returncode == 0, r.stderr
        with ThreadPoolExecutor(self.a.jobs) as ex:
            for name, ok, err in ex.map(one, files):
                verdict[name] = ok
        return verdict

    def plugin(self, kernels, arch, tag):
        """Kernels -> (lines with an error, stats line by line)."""
        src = self.write(kernels, tag)
        r = subprocess.run(self.flags(arch) + ["-fsyntax-only", "-fplugin=" + self.a.plugin,
                                               "-fplugin-arg-tileapply-asm-stats", src],
                           capture_output=True, text=True)
        base = re.escape(os.path.basename(src))
        err = {int(m.group(1)) for m in re.finditer(base + r":(\d+):\d+: error:", r.stderr)}
        stats = {int(m.group(1)): m.group(2) for m in
                 re.finditer(base + r":(\d+):\d+: (understood|not understood: .*)", r.stderr)}
        return err, stats, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cccl", required=True, help="CCCL include dir")
    ap.add_argument("--cutlass", required=True, help="CUTLASS include dir")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--ptxas", default=None)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--statements", type=int, default=150, help="sampled per corpus")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--min-percent", type=float, default=99.0)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--verbose", action="store_true", help="the source of every miss and dropped control")
    a = ap.parse_args()
    a.ptxas = a.ptxas or os.path.join(a.cuda, "bin", "ptxas")
    rng = random.Random(a.seed)
    corpora = [("cccl", os.path.join(a.cccl, "cuda", "__ptx", "instructions", "generated"), ".h"),
               ("cutlass", os.path.join(a.cutlass, "cute", "arch"), ".hpp")]
    run = Run(a)
    base = []
    for tag, d, ext in corpora:
        seen, stmts = set(), []
        for f in sorted(os.listdir(d)):
            if f.endswith(ext):
                for t, o, c in statements(os.path.join(d, f)):
                    key = (t, tuple(o))
                    if key not in seen and instructions(t):
                        seen.add(key)
                        stmts.append((tag, f, t, o, c))
        picked = rng.sample(stmts, min(a.statements, len(stmts)))
        print("%s: %d distinct asm statements read, %d sampled" % (tag, len(stmts), len(picked)))
        base += picked
    # Controls: the target of each statement.
    controls = [Kernel(i, "control", t, o, c, "as written") for i, (_, _, t, o, c) in enumerate(base)]
    arch_of = {}
    left = controls
    for arch in ("sm_90a", "sm_100a"):
        v = run.assemble(left, arch, "control-" + arch)
        for k in left:
            if v.get(k.name):
                arch_of[k.sid] = arch
                k.arch = arch
        left = [k for k in left if k.sid not in arch_of]
    print("controls: %d of %d assemble (sm_90a %d, sm_100a %d)" % (
        len(arch_of), len(base), sum(1 for x in arch_of.values() if x == "sm_90a"),
        sum(1 for x in arch_of.values() if x == "sm_100a")))
    muts = []
    for i, (_, _, t, o, c) in enumerate(base):
        if i not in arch_of:
            continue
        for m in mutants(i, t, o, c, rng):
            m.arch = arch_of[i]
            muts.append(m)
        fl = Kernel(i, "floor", t, o, c, "compiled for %s" % FLOOR_BELOW[arch_of[i]])
        fl.arch = FLOOR_BELOW[arch_of[i]]
        muts.append(fl)
    kept, clang_refused = [], 0
    for arch in sorted({m.arch for m in muts}):
        group = [m for m in muts if m.arch == arch]
        v = run.assemble(group, arch, "mutants-" + arch)
        for m in group:
            if v.get(m.name) is None:
                clang_refused += 1
            elif not v[m.name]:
                kept.append(m)
    print("mutants: %d generated, %d refused by clang itself, %d accepted by ptxas (dropped), "
          "%d kept (ptxas refuses them)" % (len(muts), clang_refused,
                                           len(muts) - clang_refused - len(kept), len(kept)))
    # The checker.
    caught, misses = 0, []
    by_kind = {}
    for arch in sorted({m.arch for m in kept}):
        group = [m for m in kept if m.arch == arch]
        err, stats, _ = run.plugin(group, arch, "check-" + arch)
        for m in group:
            k = by_kind.setdefault(m.kind, [0, 0])
            k[0] += 1
            if m.line in err:
                caught += 1
                k[1] += 1
            else:
                misses.append((m, stats.get(m.line, "no stats line")))
    false_alarms = []
    for arch in sorted(set(arch_of.values())):
        group = [k for k in controls if k.arch == arch]
        err, _, log = run.plugin(group, arch, "control-check-" + arch)
        false_alarms += [(k, log) for k in group if k.line in err]
    pct = 100.0 * caught / len(kept) if kept else 0.0
    print("caught: %d of %d (%.1f%%)" % (caught, len(kept), pct))
    for kind in sorted(by_kind):
        print("  %-13s %d of %d" % (kind, by_kind[kind][1], by_kind[kind][0]))
    reasons = {}
    for m, why in misses:
        key = (m.kind, re.sub(r"(does not have): .*", r"\1", why))
        reasons[key] = reasons.get(key, 0) + 1
    print("misses by defect and the checker's reason:")
    for (kind, why), n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  %4d %-13s %s" % (n, kind, why))
    for m, why in misses:
        print("missed [%s] %s (%s): %s" % (m.kind, m.what, m.arch, why))
        if a.verbose:
            print("    " + m.source(m.name))
    for k, log in false_alarms:
        print("false alarm on a control that assembles: %s" % k.tmpl.replace("\n", " ")[:200])
    print("controls checked with the plugin: %d, errors on %d" % (len(arch_of), len(false_alarms)))
    return 0 if kept and pct >= a.min_percent and not false_alarms else 1


if __name__ == "__main__":
    sys.exit(main())
