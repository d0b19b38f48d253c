#!/usr/bin/env python3
"""Render PTX forms from `tileapply-opcodes --json` alone, and assemble them.

An independent reader of the listing: it knows PTX, not tileapply's C++. For
a deterministic sample of the forms (the first form of every family, and
every Nth form of the whole listing) it writes each form as one PTX
instruction, from the JSON fields only:

  opcode                       the spelling
  operands[].dir               w / r / rw: registers; addr: [address];
                               imm: an immediate in "imm"/"values"/"step";
                               sink: `_`
  operands[].reg, regs         the register type and how many: more than one
                               is a vector {a, b, ...}
  operands[].braces            a vector even of one register {a}
  operands[].in_brackets       inside the previous address's brackets,
                               as a vector: [map, {x, y}]
  operands[].brackets          one register written [r]
  operands[].join              "|": joined to the previous operand (p|q)
  operands[].optional          left out (a form's optional operands go together)
  body                         a multi-instruction form: its template
  sm, targets                  the target: the first of "targets", else sm_<sm>

It groups the instructions by target, one .ptx file per target and one
entry per form, runs ptxas on every file and fails on any instruction ptxas rejects (naming the
form). Exit status 0 when every sampled form assembled.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

OLDEST_SM = 75  # the oldest target ptxas 13.0 has
PTX_VERSION = "9.0"  # the newest PTX ISA ptxas 13.0 reads

# Register classes by the width of the PTX register type.
CLASSES = {"pred": ("pred", "%p"), 16: ("b16", "%h"), 32: ("b32", "%r"),
           64: ("b64", "%rd"), 128: ("b128", "%q")}


def reg_class(reg):
    if reg == "pred":
        return CLASSES["pred"]
    bits = int(re.sub(r"^[a-z]+", "", reg.split("x")[0]) or 32)
    if "x" in reg:  # f16x2, bf16x2 (32 bits), f32x2 (64 bits)
        bits = {"f16x2": 32, "bf16x2": 32, "u16x2": 32, "s16x2": 32, "f32x2": 64}.get(reg, bits)
    return CLASSES[max(bits, 16)]


class Registers:
    def __init__(self):
        self.used = collections.Counter()

    def take(self, reg):
        cls, prefix = reg_class(reg)
        n = self.used[(cls, prefix)]
        self.used[(cls, prefix)] += 1
        return "%s%d" % (prefix, n)

    def declarations(self):
        return ["\t.reg .%s %s<%d>;" % (cls, prefix, n) for (cls, prefix), n in sorted(self.used.items())]


def immediate(op):
    if "values" in op:
        return str(op["values"][0])
    return str(op["imm"][0])


def render(form, regs):
    """The form's instruction text (without the trailing ';' for one line)."""
    texts = {}
    parts = []  # (text, operand) in order, optional ones left out
    for op in form["operands"]:
        if op.get("optional"):
            continue
        d = op["dir"]
        if d == "sink":
            t = "_"
        elif d == "imm":
            t = immediate(op)
        elif d == "addr":
            t = "[" + regs.take("u32" if op.get("space") == "shared::cluster" else "u64")
        else:
            names = [regs.take(op["reg"]) for _ in range(op["regs"])]
            if len(names) > 1 or op.get("braces") or op.get("in_brackets"):
                t = "{" + ", ".join(names) + "}"
            else:
                t = names[0]
            if op.get("brackets"):
                t = "[" + t + "]"
        texts[op["name"]] = t
        parts.append((t, op))
    out = ""
    for i, (t, op) in enumerate(parts):
        if op.get("in_brackets"):
            out += ", " + t
        elif i == 0:
            out += " " + t
        else:
            out += ("|" if op.get("join") == "|" else ", ") + t
        nxt = parts[i + 1][1] if i + 1 < len(parts) else None
        if (op["dir"] == "addr" or op.get("in_brackets")) and not (nxt and nxt.get("in_brackets")):
            out += "]"
    if "body" in form:
        body = form["body"]
        for op in form["operands"]:
            name = op["name"]
            if name in texts:
                body = body.replace("{" + name + "}", texts[name] + ("]" if op["dir"] == "addr" else ""))
        instrs = [p.strip() for p in body.split(";") if p.strip()]
        return "{ " + " ".join(p + ";" for p in instrs) + " }"
    return form["opcode"] + out + ";"


def target_of(form):
    if form.get("targets"):
        return form["targets"][0]
    return "sm_%d" % max(form["sm"], OLDEST_SM)


def sample(forms, every):
    picked, seen = [], set()
    for i, f in enumerate(forms):
        fam = f.get("family") or f["opcode"].split(".")[0]
        if fam not in seen or i % every == 0:
            picked.append(f)
        seen.add(fam)
    return picked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", required=True, help="output of tileapply-opcodes --json")
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--every", type=int, default=40, help="also every Nth form")
    ap.add_argument("--workdir")
    a = ap.parse_args()
    forms = [json.loads(l) for l in open(a.json) if l.strip()]
    picked = sample(forms, a.every)
    families = {f.get("family") for f in forms}
    by_target = collections.defaultdict(list)
    for f in picked:
        by_target[target_of(f)].append(f)
    work = a.workdir or tempfile.mkdtemp(prefix="tileapply-render-")
    os.makedirs(work, exist_ok=True)
    bad = 0
    for target, fs in sorted(by_target.items()):
        # One entry per form: ptxas judges some things per function (a
        # function may not mix .cta_group::1 and ::2).
        text = [".version " + PTX_VERSION, ".target " + target, ".address_size 64", ""]
        line_of = {}
        rendered = []
        for k, f in enumerate(fs):
            regs = Registers()
            instr = render(f, regs)
            rendered.append(instr)
            text += [".visible .entry form%d()" % k, "{"] + regs.declarations()
            text.append("\t" + instr)
            line_of[len(text)] = k
            text += ["\tret;", "}", ""]
        path = os.path.join(work, target + ".ptx")
        with open(path, "w") as out:
            out.write("\n".join(text))
        p = subprocess.run([a.ptxas, "-arch=" + target, path, "-o", os.devnull],
                           capture_output=True, text=True)
        if p.returncode == 0:
            print("ok   %-9s %4d forms" % (target, len(fs)))
            continue
        named = set()
        for m in re.finditer(r"line (\d+); error\s*:\s*(.*)", p.stderr):
            k = line_of.get(int(m.group(1)))
            if k is not None and k not in named:
                print("FAIL %-9s %s: %s\n     rendered: %s" % (target, fs[k]["opcode"], m.group(2), rendered[k]))
                named.add(k)
        bad += len(named)
        if not named:
            print("FAIL %-9s ptxas refused %s:\n%s" % (target, path, p.stderr))
            bad += 1
    print("%d forms rendered from the JSON (%d families, every %dth form), %d targets, %d rejected"
          % (len(picked), len(families), a.every, len(by_target), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
