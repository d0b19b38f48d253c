#!/usr/bin/env python3
"""Writes a CUDA source that instantiates every asm wrapper of CUTLASS's cute/arch.

The same approach as gen_cccl_ptx_corpus.py: referring to a function (taking
its address) makes Clang emit it, so the device compilation sees its asm
statements. CUTLASS has no machine-readable list of its wrappers, so this
script reads the headers themselves: a small scanner finds the functions
whose body holds an `asm` statement, with the namespaces, structs and
template headers around them, and then

  * for a wrapper inside a class template: an explicit instantiation of the
    outermost template struct (which instantiates every member, nested
    structs included), its template arguments chosen from the parameters'
    kinds and names and checked against the struct's integer static_asserts;
  * otherwise: the address of the function, its overload chosen by its

usage: gen_cutlass_cute_corpus.py CUTLASS_INCLUDE_DIR > corpus.cu
Prints a summary (wrappers, references, skipped wrappers and why) to stderr.
Deterministic: the same headers give the same file.
"""
import itertools
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_cccl_ptx_corpus import split_params, param_type  # noqa: E402

TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[A-Za-z_]\w*|::|==|!=|<=|>=|&&|\|\||\d[\w.]*|\S')
SPECIFIERS = {"CUTE_HOST_DEVICE", "CUTE_DEVICE", "CUTE_HOST", "CUTLASS_DEVICE", "CUTLASS_HOST_DEVICE",
              "static", "inline", "constexpr", "__device__", "__host__", "__forceinline__"}


def strip(text):
    """Comments and preprocessor lines out, strings kept. Of each #if, only
    the first branch stays (in cute/arch the asm sits there, the #else
    holds the "not enabled" path), so that braces stay balanced."""
    out = re.sub(r'"(?:\\.|[^"\\\n])*"|//[^\n]*|/\*.*?\*/',
                 lambda m: m.group(0) if m.group(0).startswith('"') else "\n" * m.group(0).count("\n") or " ", text, flags=re.S)
    lines, cont, conds = [], False, []  # conds: for each open #if, whether its branch is dropped
    for line in out.split("\n"):
        d = line.lstrip()
        if cont:
            cont = line.rstrip().endswith("\\")
            lines.append("")
            continue
        if d.startswith("#"):
            cont = line.rstrip().endswith("\\")
            word = re.match(r"#\s*(\w*)", d).group(1)
            if word.startswith("if"):
                conds.append(False)
            elif word in ("else", "elif", "elifdef", "elifndef") and conds:
                conds[-1] = True
            elif word == "endif" and conds:
                conds.pop()
            lines.append("")
            continue
        lines.append("" if any(conds) else line)
    return "\n".join(lines)


def angle_span(toks, i):
    """toks[i] == '<': the index just past its matching '>'."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] in "<([":
            depth += 1
        elif toks[j] in ">)]":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(toks)


def paren_span(toks, i):
    """toks[i] == '(': the index just past its matching ')'."""
    depth = 0
    for j in range(i, len(toks)):
        depth += toks[j] == "("
        depth -= toks[j] == ")"
        if depth == 0:
            return j + 1
    return len(toks)


class Scope:
    def __init__(self, kind, name="", tparams=None, body_from=0, static=False, params="",
                 const=False, asserts=None):
        self.kind, self.name, self.tparams = kind, name, tparams or []
        self.static, self.params, self.const = static, params, const
        self.asserts = asserts if asserts is not None else []
        self.has_asm = False


def template_params(toks):
    """`template < ... >` at the start of toks -> (list of parameter texts, rest of toks)."""
    if len(toks) >= 2 and toks[0] == "template" and toks[1] == "<":
        end = angle_span(toks, 1)
        inner = " ".join(toks[2:end - 1])
        return split_params(inner), toks[end:]
    return None, toks


def scan(text):
    """Yields (scope chain, function scope) for every function body holding `asm`."""
    toks = TOKEN.findall(strip(text))
    stack, pending, found = [Scope("file")], [], []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "asm" and any(s.kind == "function" for s in stack):
            for s in stack:
                if s.kind == "function":
                    s.has_asm = True
        if t == "static_assert" and stack[-1].kind == "struct" and i + 1 < len(toks):
            end = paren_span(toks, i + 1)
            expr, depth = [], 0
            for x in toks[i + 2:end - 1]:  # up to the message
                depth += x == "("
                depth -= x == ")"
                if x == "," and depth <= 0:
                    break
                expr.append(x)
            stack[-1].asserts.append(expr)
            i = end
            pending = []
            continue
        if t == "{":
            stack.append(classify(pending, stack))
            pending = []
        elif t == "}":
            s = stack.pop() if len(stack) > 1 else stack[0]
            if s.kind == "function" and s.has_asm and not any(x.kind == "function" for x in stack):
                found.append((list(stack), s))
            pending = []
        elif t == ";":
            pending = []
        else:
            pending.append(t)
        i += 1
    return found


def classify(pending, stack):
    if stack[-1].kind in ("function", "block"):
        return Scope("block")
    tp, rest = template_params(pending)
    if rest and rest[0] == "namespace":
        return Scope("namespace", "".join(x for x in rest[1:]))
    if rest and rest[0] in ("struct", "class", "union") and "(" not in rest:
        j = 1
        while j < len(rest) and rest[j] in ("alignas", "__align__"):
            j = angle_span(rest, j + 1)
        name = []
        while j < len(rest) and rest[j] not in (":", "final"):
            if rest[j] == "<":
                end = angle_span(rest, j)
                name.append(" ".join(rest[j:end]))
                j = end
                continue
            name.append(rest[j])
            j += 1
        return Scope("struct", "".join(name), tp)
    if "(" in rest and ")" in rest and rest[0] not in ("enum", "if", "for", "while", "switch"):
        k = rest.index("(")
        if k == 0 or not re.match(r"^[A-Za-z_~]\w*$", rest[k - 1]) or rest[k - 1] == "operator":
            return Scope("other")
        # the parameter list: up to the matching ')'
        depth, e = 0, k
        for e in range(k, len(rest)):
            depth += rest[e] == "("
            depth -= rest[e] == ")"
            if depth == 0:
                break
        return Scope("function", rest[k - 1], tp, static="static" in rest[:k] or "friend" in rest[:k],
                     params=" ".join(rest[k + 1:e]), const="const" in rest[e + 1:])
    return Scope("other")


def element_type(struct, role):
    """A type for a `class` parameter, from its role and the struct's name."""
    s = struct.upper()
    if role == "c":
        return "int32_t" if re.search(r"S8|I8|S4|U8", s) else "float"
    if role == "sf":
        return "cute::float_ue4m3_t" if "NVF4" in s else "cute::float_ue8m0_t"
    if "TF32" in s:
        return "cute::tfloat32_t"
    if re.search(r"MXF4|F4NVF4", s):
        return "cute::float_e2m1_t"
    if re.search(r"F8F6F4|E4M3|F8", s):
        return "cute::float_e4m3_t"
    if re.search(r"S8|I8", s):
        return "int8_t"
    if "BF16" in s and "F16BF16" not in s:
        return "cute::bfloat16_t"
    return "cute::half_t"


INT_CANDIDATES = {"M": [128, 64, 256], "N": [64, 128, 256, 8, 16, 32], "VS": [32, 16, 64],
                  "SFVecSize": [32, 16]}


def assert_holds(expr_toks, values):
    text = " ".join(expr_toks)
    for name, v in values.items():
        text = re.sub(r"\b%s\b" % re.escape(name), str(v), text)
    if re.search(r"[A-Za-z_]", text.replace(" and ", "").replace(" or ", "").replace(" not ", "")):
        return True  # not an integer-only assert: not ours to solve
    py = text.replace("&&", " and ").replace("||", " or ").replace("!=", " != ")
    py = re.sub(r"!(?!=)", " not ", py)
    try:
        return bool(eval(py, {}, {}))
    except Exception:
        return True


def template_names(tparams):
    return [re.match(r"^(.*?)\s*(\w+)$", p.split("=")[0].strip()).group(2) for p in tparams]


def template_args(struct, tparams, asserts):
    """Arguments for a template header, or a reason. Trailing defaults are left out."""
    parsed = []
    for p in tparams:
        p = " ".join(p.split())
        default = None
        if "=" in p:
            p, default = [x.strip() for x in p.split("=", 1)]
        m = re.match(r"^(.*?)\s*(\.\.\.)?\s*(\w+)?$", p)
        kind, pack, name = m.group(1).strip().replace(" :: ", "::"), m.group(2), m.group(3) or ""
        parsed.append((kind, name, default, pack))
    while parsed and (parsed[-1][2] is not None or parsed[-1][3]):
        parsed.pop()
    args, ints = [], []
    for kind, name, default, pack in parsed:
        if default is not None:
            args.append(default)
        elif kind in ("class", "typename") and re.match(r"^(T|TS|TD|S|D)$", name):
            args.append("cute::uint128_t")  # a copy's element: cp.async takes 4, 8 or 16 bytes
        elif kind in ("class", "typename"):
            role = "sf" if re.search(r"sf|SF", name) else "c" if re.search(r"^(c_type|ElementC|C)$", name) \
                else "ab"
            args.append(element_type(struct, role))
        elif kind in ("int", "uint32_t", "int32_t", "size_t"):
            ints.append((len(args), name))
            args.append(None)
        elif kind == "bool":
            args.append("false")
        elif kind.endswith("::Major") or kind == "Major":
            args.append(kind + "::K")
        else:
            return None, "a template parameter it does not choose: " + kind
    if ints:
        choices = [INT_CANDIDATES.get(n, [1, 0, 2, 4, 8, 16, 32, 64, 128]) for _, n in ints]
        for combo in itertools.product(*choices):
            values = {n: v for (_, n), v in zip(ints, combo)}
            if all(assert_holds(a, values) for a in asserts):
                break
        else:
            return None, "no integer arguments meet its static_asserts"
        for (k, _), v in zip(ints, combo):
            args[k] = str(v)
    return args, None


def main():
    root = sys.argv[1]
    arch = os.path.join(root, "cute", "arch")
    files = sorted(f for f in os.listdir(arch) if f.endswith(".hpp"))
    print("// Generated by test/tools/gen_cutlass_cute_corpus.py from cute/arch: do not edit.")
    print("#include <cstdint>")
    for f in files:
        print("#include <cute/arch/%s>" % f)
    print("""
namespace tileapply_corpus {
template <class T> __host__ __device__ T &&val();
} // namespace tileapply_corpus
""")
    wrappers = refs = 0
    skipped = {}
    seen = set()
    n_kernel = 0
    for f in files:
        text = open(os.path.join(arch, f)).read()
        out = []  # (namespace chain, line)
        for chain, fn in scan(text):
            wrappers += 1
            namespaces = [s.name for s in chain if s.kind == "namespace"]
            structs = [s for s in chain if s.kind == "struct"]
            if any(s.kind == "other" for s in chain):
                skipped["inside a scope it does not read"] = skipped.get("inside a scope it does not read", 0) + 1
                continue
            templ = next((s for s in structs if s.tparams), None)
            if templ is not None:
                args, why = template_args(templ.name, templ.tparams, templ.asserts)
                if args is None:
                    skipped[why] = skipped.get(why, 0) + 1
                    continue
                prefix = "::".join(s.name for s in structs[:structs.index(templ)])
                name = (prefix + "::" if prefix else "") + templ.name
                if "<" in templ.name:
                    # a partial specialization: its own parameters in its arguments
                    for (k, v) in zip(template_names(templ.tparams), args):
                        name = re.sub(r"\b%s\b" % re.escape(k), v, name)
                    line = "template struct %s;" % name
                else:
                    line = "template struct %s<%s>;" % (name, ", ".join(args))
            elif fn.tparams:
                skipped["a function template"] = skipped.get("a function template", 0) + 1
                continue
            else:
                plain = re.sub(r"\[\s*\[.*?\]\s*\]", " ", fn.params).replace(" :: ", "::")
                params = [param_type(re.split(r"\s=\s", p)[0].strip())
                          for p in split_params(plain)] if fn.params.strip() not in ("", "void") else []
                args = ", ".join("tileapply_corpus::val<%s>()" % t for t in params)
                if structs and not fn.static:
                    obj = "tileapply_corpus::val<%s &>()" % "::".join(s.name for s in structs)
                    call = "%s.%s(%s)" % (obj, fn.name, args)
                else:
                    call = "%s(%s)" % ("::".join([s.name for s in structs] + [fn.name]), args)
                line = "%s;" % call
            key = (tuple(namespaces), line)
            if key in seen:
                continue
            seen.add(key)
            out.append(key)
            refs += 1
        # One namespace block per chain, in order of appearance.
        groups = {}
        for ns, line in out:
            groups.setdefault(ns, []).append(line)
        print("// %s" % f)
        for ns, lines in groups.items():
            opens = "".join("namespace %s { " % n for n in ns)
            closes = "}" * len(ns)
            inst = [l for l in lines if l.startswith("template struct")]
            calls = [l for l in lines if not l.startswith("template struct")]
            print(opens)
            for l in inst:
                print(l)
            if calls:
                n_kernel += 1
                print("__global__ void tileapply_corpus_%d(int never) {" % n_kernel)
                print("  if (never == 12345) {")
                for l in calls:
                    print("    " + l)
                print("  }\n}")
            print(closes + "\n")
    sys.stderr.write("%d wrappers, %d references\n" % (wrappers, refs))
    for why, n in sorted(skipped.items()):
        sys.stderr.write("skipped %d: %s\n" % (n, why))


if __name__ == "__main__":
    main()
