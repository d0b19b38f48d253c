#!/usr/bin/env python3
"""Writes a CUDA source that instantiates every cuda::ptx function of CCCL.

Reads the documentation comment CCCL keeps above each overload in
<cccl>/cuda/__ptx/instructions/generated/*.h (the PTX it emits, the
`.name = { ... }` lists of its template parameters, and its declaration) and
takes the address of each overload once for every value of its template
parameters, the way CCCL's own compile tests do: a cast to the overload's
function-pointer type chooses it and deduces its template arguments. Taking
the address instantiates the body, so the device compilation sees every asm
statement the overload can emit for the target.

usage: gen_cccl_ptx_corpus.py CCCL_INCLUDE_DIR > corpus.cu
Prints a summary (overloads, instantiations, skipped declarations and why) to
stderr. Deterministic: the same headers give the same file.
"""
import itertools
import os
import re
import sys

# The C++ type of each `.type` value, and of a typename constrained by size.
PTX_TYPE = {
    "b8": "uint8_t", "u8": "uint8_t", "s8": "int8_t",
    "b16": "uint16_t", "u16": "uint16_t", "s16": "int16_t",
    "b32": "uint32_t", "u32": "uint32_t", "s32": "int32_t",
    "b64": "uint64_t", "u64": "uint64_t", "s64": "int64_t",
    "f16": "__half", "bf16": "__nv_bfloat16", "f32": "float", "f64": "double",
    "f16x2": "__half2", "bf16x2": "__nv_bfloat162",
}
BY_SIZE = {"1": "uint8_t", "2": "uint16_t", "4": "uint32_t", "8": "uint64_t",
           "16": "longlong2"}
# A value for an `int N32` parameter (n32_t<N32>): small, valid wherever
# CCCL passes one (scale_input_d, a tensormap field, a wait-group count).
N32_VALUE = "1"
# Except a tensormap copy's or fence's size, which ptxas 13.0 refuses unless
# it is 128 (the checker reports any other: core/ptx/async.def's `[128..128]!`).
N32_VALUE_OF = {"fence_proxy_tensormap_generic": "128", "tensormap_cp_fenceproxy": "128"}


def enumerator(key, value):
    """`.kind::f16` -> `f16`, `.cta_group::2` -> `cta_group_2`, `.or` -> `or_op`."""
    v = value.strip().lstrip(".")
    if key == "cta_group":
        return "cta_group_" + v.split("::")[-1]
    if key == "kind":
        return v.split("::")[-1]
    if key == "space":
        return {"shared::cta": "shared", "shared::cluster": "cluster"}.get(v, v)
    if key == "op" and v in ("and", "or", "xor"):
        return v + "_op"
    return v


def split_params(text):
    """Top-level comma split (outside <>, (), [])."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def param_type(p):
    """The type of a parameter declaration: its name dropped."""
    m = re.match(r"^(.*\(\s*&)\s*\w+\s*(\)\s*\[.*\])$", p)
    if m:
        return m.group(1) + m.group(2)
    m = re.match(r"^(.*[\s\*&>])(\w+)$", p)
    if m and m.group(1).strip():
        return m.group(1).strip()
    return p


def parse_block(block):
    """One documentation comment -> (name, ret, params, tparams, lists, isa) or a reason."""
    lines = [l.rstrip() for l in block.splitlines()]
    lists, isa = {}, None
    m = re.search(r"PTX ISA (\d+)", block)
    if m:
        isa = int(m.group(1))
    for l in lines:
        m = re.match(r"^// \.(\w+)\s*=\s*\{(.*)\}", l)
        if m:
            lists[m.group(1)] = [v for v in m.group(2).split(",") if v.strip()]
    decl = "\n".join(l for l in lines if not l.startswith("//"))
    m = re.search(r"(template\s*<(.*?)>\s*)?__device__\s+static\s+inline\s+(.*?)\s*(\w+)\s*\((.*?)\)\s*;",
                  decl, re.S)
    if not m:
        return "no declaration"
    tparams_text = m.group(2) or ""
    ret, name, params = m.group(3).strip(), m.group(4), m.group(5)
    # `template <...>` may end in `= true>`: the regex stops at the first '>'
    # of the enable_if; take the text up to `__device__` instead.
    t = re.search(r"template\s*<(.*)>\s*__device__", decl, re.S)
    tparams_text = t.group(1) if t else ""
    tparams = []
    for tp in split_params(" ".join(tparams_text.split())):
        if tp == "typename = void":
            continue
        if re.match(r"^(_CUDA_VSTD::)?enable_if_t<", tp):
            size = re.search(r"sizeof\((\w+)\)\s*==\s*(\d+)", tp)
            if size:
                for i, (kind, pname, _) in enumerate(tparams):
                    if pname == size.group(1):
                        tparams[i] = ("sized", pname, size.group(2))
            continue
        mt = re.match(r"^typename\s+(\w+)$", tp)
        if mt:
            tparams.append(("typename", mt.group(1), None))
            continue
        mi = re.match(r"^int\s+(\w+)$", tp)
        if mi:
            tparams.append(("int", mi.group(1), None))
            continue
        me = re.match(r"^(?:cuda::ptx::)?dot_(\w+)\s+(\w+)$", tp)
        if me:
            tparams.append(("enum", me.group(2), me.group(1)))
            continue
        return "template parameter it does not read: " + tp
    params = [param_type(p) for p in split_params(" ".join(params.split()))]
    return name, ret, params, tparams, lists, isa


def instantiations(parsed):
    name, ret, params, tparams, lists, isa = parsed
    choices = []
    for kind, pname, extra in tparams:
        if kind == "sized":
            choices.append([(pname, BY_SIZE[extra])])
        elif kind == "int":
            choices.append([(pname, N32_VALUE_OF.get(name, N32_VALUE))])
        elif kind == "enum":
            key = pname.lower()
            vals = lists.get(key) or lists.get(extra)
            if not vals:
                return None, "no value list for " + pname
            choices.append([(pname, "cuda::ptx::dot_%s::%s" % (extra, enumerator(extra, v)))
                            for v in vals])
        else:  # a bare typename: one instance per `.type` value
            vals = lists.get("type")
            if not vals:
                return None, "no .type list for " + pname
            types = []
            for v in vals:
                t = PTX_TYPE.get(v.strip().lstrip("."))
                if not t:
                    return None, "no C++ type for ." + v.strip()
                if t not in types:
                    types.append(t)
            choices.append([(pname, t) for t in types])
    out = []
    for combo in itertools.product(*choices):
        def subst(s):
            for pname, val in combo:
                s = re.sub(r"\b%s\b" % re.escape(pname), val, s)
            return s
        fn_type = "%s (*)(%s)" % (subst(ret), ", ".join(subst(p) for p in params))
        out.append("static_cast<%s>(cuda::ptx::%s)" % (fn_type, name))
    return out, None


def main():
    root = sys.argv[1]
    gen = os.path.join(root, "cuda", "__ptx", "instructions", "generated")
    files = sorted(f for f in os.listdir(gen) if f.endswith(".h"))
    print("// Generated by test/tools/gen_cccl_ptx_corpus.py from %s: do not edit." % gen)
    print("#include <cstdint>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n#include <cuda/ptx>\n")
    print("using std::uint8_t; using std::uint16_t; using std::uint32_t; using std::uint64_t;")
    print("using std::int8_t; using std::int16_t; using std::int32_t; using std::int64_t;\n")
    overloads = insts = 0
    skipped = {}
    for f in files:
        text = open(os.path.join(gen, f)).read()
        blocks = re.findall(r"^/\*\n(.*?)^\*/", text, re.S | re.M)
        body = []
        for b in blocks:
            if "__device__ static inline" not in b:
                continue
            parsed = parse_block(b)
            if isinstance(parsed, str):
                skipped[parsed] = skipped.get(parsed, 0) + 1
                continue
            ptrs, why = instantiations(parsed)
            if ptrs is None:
                skipped[why] = skipped.get(why, 0) + 1
                continue
            overloads += 1
            isa = parsed[5] or 0
            body.append("#if __cccl_ptx_isa >= %d" % (isa * 10))
            for p in ptrs:
                body.append("  *fn_ptr++ = reinterpret_cast<void*>(%s);" % p)
                insts += 1
            body.append("#endif")
        kernel = re.sub(r"\W", "_", f[:-2])
        print("__global__ void test_%s(void **fn_ptr) {" % kernel)
        print("\n".join(body))
        print("}\n")
    sys.stderr.write("%d overloads, %d instantiations\n" % (overloads, insts))
    for why, n in sorted(skipped.items()):
        sys.stderr.write("skipped %d: %s\n" % (n, why))


if __name__ == "__main__":
    main()
