#!/usr/bin/env python3
"""Writes one end-to-end lit test per opcode family to test/lit/e2e/families/.

Each test compiles a small kernel that applies one form of the family to two
repeats through __tile_apply with the Clang plugin, checks that the PTX holds
exactly two instructions of that spelling (our inline asm writes one space
after the opcode; LLVM's own instructions a tab), and assembles it with ptxas.

    gen_family_tests.py OUTDIR      write the tests into OUTDIR

test/lit/e2e/families/generated.test re-runs this script and diffs its output
against the committed files, so edit FAMILIES here, never the .cu files.

An operand is a C++ type: '=T' is a destination, 'T' an input (loaded from a
kernel argument), '#V' a constant written into the call (an immediate, or a
scalar constant the pass may turn into one). 'T[N]' has a group axis of N
(a register group, e.g. mov's packed {a, b}); otherwise it is 1. 'GT[N]' is a
tile::global memory tensor over a kernel argument ('=GT[N]' one that is
written, st's address).
"""
import os
import sys

# family: (opcode, architecture, operands)
FAMILIES = {
    "abs": ("abs.ftz.f16x2", "sm_75", ["=__half2", "__half2"]),
    "add": ("add.rn.sat.f32", "sm_75", ["=float", "float", "float"]),
    "and": ("and.pred", "sm_75", ["=bool", "bool", "bool"]),
    "bfe": ("bfe.s32", "sm_75", ["=int32_t", "int32_t", "uint32_t", "#8u"]),
    "bfi": ("bfi.b32", "sm_75", ["=uint32_t", "uint32_t", "uint32_t", "uint32_t", "uint32_t"]),
    "bfind": ("bfind.shiftamt.s64", "sm_75", ["=uint32_t", "int64_t"]),
    "bmsk": ("bmsk.clamp.b32", "sm_75", ["=uint32_t", "uint32_t", "uint32_t"]),
    "brev": ("brev.b64", "sm_75", ["=uint64_t", "uint64_t"]),
    "clz": ("clz.b32", "sm_75", ["=uint32_t", "uint32_t"]),
    "cnot": ("cnot.b16", "sm_75", ["=uint16_t", "uint16_t"]),
    "copysign": ("copysign.f64", "sm_75", ["=double", "double", "double"]),
    "cos": ("cos.approx.ftz.f32", "sm_75", ["=float", "float"]),
    "cvt": ("cvt.rn.relu.f16x2.f32", "sm_80", ["=__half2", "float", "float"]),
    "div": ("div.rn.f64", "sm_75", ["=double", "double", "double"]),
    "fns": ("fns.b32", "sm_75", ["=uint32_t", "uint32_t", "uint32_t", "#-1"]),
    "dp2a": ("dp2a.hi.s32.u32", "sm_75", ["=int32_t", "int32_t", "uint32_t", "int32_t"]),
    "dp4a": ("dp4a.u32.u32", "sm_75", ["=uint32_t", "uint32_t", "uint32_t", "uint32_t"]),
    "ex2": ("ex2.approx.ftz.bf16x2", "sm_90", ["=__nv_bfloat162", "__nv_bfloat162"]),
    "fma": ("fma.rn.relu.bf16", "sm_80", ["=__nv_bfloat16", "__nv_bfloat16", "__nv_bfloat16", "__nv_bfloat16"]),
    "lg2": ("lg2.approx.f32", "sm_75", ["=float", "float"]),
    "lop3": ("lop3.b32", "sm_75", ["=uint32_t", "uint32_t", "uint32_t", "uint32_t", "#0xE8"]),
    "mad": ("mad.wide.s32", "sm_75", ["=int64_t", "int32_t", "int32_t", "int64_t"]),
    "mad24": ("mad24.hi.sat.s32", "sm_75", ["=int32_t", "int32_t", "int32_t", "int32_t"]),
    "max": ("max.NaN.xorsign.abs.f16x2", "sm_86", ["=uint32_t", "uint32_t", "uint32_t"]),
    "min": ("min.relu.s32", "sm_90", ["=int32_t", "int32_t", "int32_t"]),
    "mov": ("mov.b64", "sm_75", ["=uint64_t", "uint32_t[2]"]),  # packs {a, b}
    "mul": ("mul.hi.u64", "sm_75", ["=uint64_t", "uint64_t", "uint64_t"]),
    "mul24": ("mul24.lo.u32", "sm_75", ["=uint32_t", "uint32_t", "uint32_t"]),
    "neg": ("neg.bf16x2", "sm_80", ["=__nv_bfloat162", "__nv_bfloat162"]),
    "not": ("not.b64", "sm_75", ["=uint64_t", "uint64_t"]),
    "or": ("or.b32", "sm_75", ["=uint32_t", "uint32_t", "#0xFFu"]),
    "popc": ("popc.b64", "sm_75", ["=uint32_t", "uint64_t"]),
    "prmt": ("prmt.b32.f4e", "sm_75", ["=uint32_t", "uint32_t", "uint32_t", "uint32_t"]),
    "rcp": ("rcp.rn.ftz.f32", "sm_75", ["=float", "float"]),
    "rem": ("rem.s16", "sm_75", ["=int16_t", "int16_t", "int16_t"]),
    "rsqrt": ("rsqrt.approx.f64", "sm_75", ["=double", "double"]),
    "sad": ("sad.u32", "sm_75", ["=uint32_t", "uint32_t", "uint32_t", "uint32_t"]),
    "selp": ("selp.f32", "sm_75", ["=float", "float", "#1.0f", "bool"]),
    "set": ("set.gtu.and.ftz.f32.f32", "sm_75", ["=float", "float", "float", "bool"]),
    "setp": ("setp.lt.or.s32", "sm_75", ["=bool", "=bool", "int32_t", "int32_t", "bool"]),
    "shf": ("shf.l.wrap.b32", "sm_75", ["=uint32_t", "uint32_t", "uint32_t", "uint32_t"]),
    "shl": ("shl.b64", "sm_75", ["=uint64_t", "uint64_t", "#3u"]),
    "shr": ("shr.s32", "sm_75", ["=int32_t", "int32_t", "uint32_t"]),
    "sin": ("sin.approx.f32", "sm_75", ["=float", "float"]),
    "slct": ("slct.ftz.u32.f32", "sm_75", ["=uint32_t", "uint32_t", "uint32_t", "float"]),
    "sqrt": ("sqrt.rz.f64", "sm_75", ["=double", "double"]),
    "sub": ("sub.rn.bf16x2", "sm_90", ["=__nv_bfloat162", "__nv_bfloat162", "__nv_bfloat162"]),
    "szext": ("szext.wrap.s32", "sm_75", ["=int32_t", "int32_t", "uint32_t"]),
    "tanh": ("tanh.approx.f16", "sm_75", ["=__half", "__half"]),
    "testp": ("testp.notanumber.f32", "sm_75", ["=bool", "float"]),
    "xor": ("xor.b16", "sm_75", ["=uint16_t", "uint16_t", "uint16_t"]),
    "ld": ("ld.global.nc.L1::evict_last.v4.f32", "sm_75", ["=float[4]", "Gconst float[4]"]),
    "ldu": ("ldu.global.v2.f32", "sm_75", ["=float[2]", "Gconst float[2]"]),
    "st": ("st.global.L1::no_allocate.v2.b64", "sm_75", ["=Guint64_t[2]", "uint64_t[2]"]),
}

REPEATS = 2
NAMES = "dpqabcefg"


def render(family, opcode, arch, operands):
    params, loads, args, stores = [], [], [], []
    first = "{{[%{]}}"  # what follows the opcode: a register or a group
    for i, op in enumerate(operands):
        name = "x%d" % i
        if op.startswith("#"):
            args.append(op[1:])
            continue
        if op.lstrip("=").startswith("G"):
            ty, group = op.lstrip("=")[1:-1].split("[")
            params.append("%s *%s_mem" % (ty, name))
            args.append("tile::global<%s, %d, %s>(%s_mem)" % (ty, REPEATS, group, name))
            if i == 0:
                first = "["  # st: the address comes first
            continue
        out = op.startswith("=")
        ty = op.lstrip("=")
        group = 1
        if ty.endswith("]"):
            ty, group = ty[:-1].split("[")
            group = int(group)
        n = REPEATS * group
        loads.append("  %s %s[%d][%d];" % (ty, name, REPEATS, group))
        elem = "%s[i][0]" % name if group == 1 else "%s[i / %d][i %% %d]" % (name, group, group)
        if out:
            params.append("%s *%s_out" % (ty, name))
            stores.append("  for (int i = 0; i < %d; ++i) %s_out[i] = %s;" % (n, name, elem))
        else:
            params.append("const %s *%s_in" % (ty, name))
            loads.append("  for (int i = 0; i < %d; ++i) %s = %s_in[i];" % (n, elem, name))
        args.append(name)
    kernel = "family_" + family
    return "\n".join([
        "// Generated by test/tools/gen_family_tests.py; do not edit.",
        "// The '%s' family end to end: %d repeats of %s through the plugin." % (family, REPEATS, opcode),
        "// RUN: %%clangxx %%cuda_flags --cuda-gpu-arch=%s --cuda-device-only -O2 -S -fplugin=%%plugin %%s -o %%t.ptx" % arch,
        "// RUN: FileCheck %s --input-file=%t.ptx",
        "// RUN: %%ptxas -arch=%s %%t.ptx -o %%t.cubin" % arch,
        "// REQUIRES: ptxas",
        "#include <cuda_bf16.h>",
        "#include <cuda_fp16.h>",
        "#include <tileapply/tile.h>",
        "",
        "// CHECK-LABEL: .entry {{.*}}%s" % kernel,
        "// CHECK-COUNT-%d: {{^[[:space:]]*}}%s %s" % (REPEATS, opcode, first),
        "// CHECK-NOT: {{^[[:space:]]*}}%s %s" % (opcode, first),
        "// CHECK: ret;",
        "__global__ void %s(%s) {" % (kernel, ", ".join(params)),
        *loads,
        '  __tile_apply("%s", %s);' % (opcode, ", ".join(args)),
        *stores,
        "}",
        "",
    ])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen_family_tests.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for family, (opcode, arch, operands) in sorted(FAMILIES.items()):
        with open(os.path.join(out, family + ".cu"), "w") as f:
            f.write(render(family, opcode, arch, operands))


if __name__ == "__main__":
    main()
