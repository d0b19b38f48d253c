#!/usr/bin/env python3
"""Harvest the PTX opcode spellings public CUDA code writes in inline asm.

Reads git mirrors at HEAD (never a work tree) and writes the list that
test/spellings/real-world.tsv holds: one line per distinct concrete spelling,
with where it was first seen and how often each repository writes it.

    harvest_spellings.py OUT.tsv [--templates OUT-templates.tsv] GITDIR=owner/name ...

Repositories are ranked in the order given: a spelling's "first" occurrence is
the first repository in that order that has it, then the smallest path and
line there. The snapshots of test/spellings/real-world.tsv (repository,
commit) are listed in test/spellings/sources.tsv; to refresh the list, fetch
them (or newer ones) as git mirrors, run this script over them, and update
sources.tsv (the commits printed on stderr).

What counts as a spelling:
- C, C++ and CUDA files: each `asm` / `__asm__` / `__asm` statement (with
  volatile / __volatile__ / goto / inline), #define bodies included; its
  template is the concatenation of the string literals before the first `:`
  at the statement's top level. Anything else there (a macro, `#x`, a
  variable) is a placeholder `{...}`.
- Python files (the CuTe DSL): the third argument (or `asm_string=`) of every
  `*.inline_asm(...)` call, read with the ast module: string constants,
  f-strings (fields become placeholders), `+` concatenation, names bound once
  in the file, one iteration of a `''.join(f'...' for ...)`.
- The template is split into statements on `;`; PTX comments, scope braces,
  labels and `@p` guards are dropped and `.reg` declarations skipped. The
  first word of a statement is its spelling (whitespace before a `.` is
  joined: CUTLASS writes `prmt .b32`).
Spellings with a placeholder are templates, not spellings: they go to
--templates (if given) and not to the list.

Columns: spelling, group (the family group the spelling belongs to: arithmetic,
memory, atomics, collective, address, async, matrix, control, other, host-asm),
count, first_repo, first_path, first_line, all_repos (repo:count,...).
"""
import ast
import collections
import os
import re
import subprocess
import sys

DOC_EXT = (".md", ".rst", ".txt", ".html", ".ipynb", ".json", ".yaml", ".yml", ".png", ".pdf")
ASM_FILES = r"(\b(asm|__asm__|__asm)\b[ \t]*(volatile|__volatile__|goto|inline)?[ \t]*\(|inline_asm)"


def git(gitdir, *args):
    return subprocess.run(["git", "-C", gitdir, *args], capture_output=True, text=True,
                          errors="replace").stdout


# ---- C, C++, CUDA -------------------------------------------------------------
LEX = re.compile(r'''
  (?P<space>[ \t\r\f\v]+)
| (?P<newline>\\?\n)
| (?P<linecomment>//[^\n]*)
| (?P<blockcomment>/\*.*?\*/)
| (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^(\s]{0,16})\((?P<rawbody>.*?)\)(?P=delim)")
| (?P<string>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.|\\\n)*")
| (?P<char>(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)*')
| (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
| (?P<number>\.?[0-9](?:[0-9A-Za-z_.]|[eEpP][+-])*)
| (?P<paste>\#\#)
| (?P<hash>\#)
| (?P<punct>.)
''', re.S | re.X)

SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "?": "?",
                  "0": "\0", "a": "", "b": "", "f": "", "v": ""}


def unescape(body):
    out, i = [], 0
    while i < len(body):
        if body[i] != "\\" or i + 1 == len(body):
            out.append(body[i])
            i += 1
            continue
        nxt = body[i + 1]
        if nxt == "\n":  # a continued line
            i += 2
        elif nxt == "x":
            hexdigits = re.match(r"[0-9A-Fa-f]*", body[i + 2:]).group(0)
            out.append(chr(int(hexdigits, 16)) if hexdigits else "")
            i += 2 + len(hexdigits)
        elif nxt in "01234567":
            octal = re.match(r"[0-7]{1,3}", body[i + 1:]).group(0)
            out.append(chr(int(octal, 8)))
            i += 1 + len(octal)
        else:
            out.append(SIMPLE_ESCAPES.get(nxt, nxt))
            i += 2
    return "".join(out)


def lex(text):
    """Tokens (kind, match, line); preprocessor lines other than #define are
    left out (an asm in a macro body counts)."""
    tokens, line, line_start, in_directive = [], 1, True, False
    for m in LEX.finditer(text):
        kind, value = m.lastgroup, m.group(0)
        if kind == "newline":
            if value == "\n":
                line_start, in_directive = True, False
            line += 1
            continue
        if kind in ("space", "linecomment"):
            continue
        if kind == "blockcomment":
            line += value.count("\n")
            continue
        if kind == "hash" and line_start:
            word = re.match(r"[ \t]*([A-Za-z_]+)", text[m.end():m.end() + 40])
            in_directive = not word or word.group(1) != "define"
            line_start = False
            tokens.append(("directive", None, line))
            continue
        line_start = False
        if not in_directive:
            tokens.append((kind, m, line))
        line += value.count("\n")
    return tokens


def literal(kind, m):
    if kind == "raw":
        return m.group("rawbody")
    s = m.group(0)
    return unescape(s[s.index('"') + 1:-1])


def c_templates(text):
    """(pieces, line) per asm statement; a piece is (text, line, placeholder?)."""
    tokens = lex(text)
    i = 0
    while i < len(tokens):
        kind, m, line = tokens[i]
        i += 1
        if kind != "ident" or m.group(0) not in ("asm", "__asm__", "__asm"):
            continue
        while i < len(tokens) and tokens[i][0] == "ident" and tokens[i][1].group(0) in (
                "volatile", "__volatile__", "goto", "inline"):
            i += 1
        if i == len(tokens) or tokens[i][0] != "punct" or tokens[i][1].group(0) != "(":
            continue
        depth, pieces, other = 1, [], []
        i += 1
        while i < len(tokens):
            k, mm, ln = tokens[i]
            if k == "directive":
                i += 1
                continue
            v = mm.group(0)
            if k == "punct" and v in "([{":
                depth += 1
            elif k == "punct" and v in ")]}":
                depth -= 1
                if depth == 0:
                    break
            if depth == 1 and k == "punct" and v == ":":
                break
            if k in ("string", "raw"):
                if other:
                    pieces.append(("{" + "".join(other) + "}", ln, True))
                    other = []
                pieces.append((literal(k, mm), ln, False))
            else:
                other.append(v)
            i += 1
        if other:
            pieces.append(("{" + "".join(other) + "}", line, True))
        yield pieces, line


# ---- Python (CuTe DSL inline_asm) ----------------------------------------------
def py_pieces(node, names, depth=0):
    if isinstance(node, ast.Name) and node.id in names and depth < 5:
        return py_pieces(names[node.id], names, depth + 1)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [(node.value, node.lineno, False)]
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append((part.value, node.lineno, False))
            else:
                out += py_field(part.value, names, depth, node.lineno)
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return py_pieces(node.left, names, depth) + py_pieces(node.right, names, depth)
    return py_field(node, names, depth, getattr(node, "lineno", 0))


def py_field(e, names, depth, line):
    """An f-string field: one iteration of a ''.join(...) over a generator, a
    choice of two strings ({a|b}), a bound name, or a placeholder."""
    if (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "join"
            and e.args and isinstance(e.args[0], (ast.GeneratorExp, ast.ListComp))):
        return py_pieces(e.args[0].elt, names, depth + 1)
    if isinstance(e, ast.IfExp) and all(isinstance(x, ast.Constant) and isinstance(x.value, str)
                                        for x in (e.body, e.orelse)):
        return [("{" + e.body.value + "|" + e.orelse.value + "}", line, True)]
    if isinstance(e, ast.Name) and e.id in names and depth < 5:
        return py_pieces(names[e.id], names, depth + 1)
    try:
        text = ast.unparse(e)
    except Exception:
        text = "expr"
    return [("{" + text + "}", line, True)]


def py_templates(text):
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    bound = collections.defaultdict(list)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, (ast.Constant, ast.JoinedStr, ast.BinOp))
                and not (isinstance(node.value, ast.Constant) and not isinstance(node.value.value, str))):
            bound[node.targets[0].id].append(node.value)
    names = {k: v[0] for k, v in bound.items() if len(v) == 1}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")) != "inline_asm":
            continue
        arg = next((kw.value for kw in node.keywords if kw.arg in ("asm_string", "asm")), None)
        if arg is None and len(node.args) >= 3:
            arg = node.args[2]
        if arg is not None:
            yield py_pieces(arg, names), node.lineno


# ---- statements -------------------------------------------------------------------
def spellings(pieces):
    """(spelling, line, has placeholder) for each statement of a template."""
    text, lines = "", []
    for t, line, placeholder in pieces:
        if placeholder:
            t = "\x01" + re.sub(r"[\s;,]+", "", t[1:-1]) + "\x02"
        text += t
        lines += [line] * len(t)
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))
    text = re.sub(r"//[^\n]*", blank, text)
    text = re.sub(r"/\*.*?\*/", blank, text, flags=re.S)
    out, start = [], 0
    for end in re.finditer(r";|$", text):
        stmt, pos = text[start:end.start()], start
        start = end.end()
        s = stmt.lstrip()
        pos += len(stmt) - len(s)
        while True:  # scope braces, labels, guards
            m = (re.match(r"[{}]\s*", s)
                 or (lambda l: l if l and "." not in l.group(1) else None)(
                     re.match(r"([A-Za-z_$][\w$%=\x01\x02()]*)\s*:(?!:)\s*", s))
                 or re.match(r"@!?\s*[%\w\x01\x02(),$]+\s+", s))
            if not m:
                break
            pos += m.end()
            s = s[m.end():]
        word = re.match(r"(?:\x01[^\x02]*\x02|[^\s,{\[\x01])+(?:\s+\.(?:\x01[^\x02]*\x02|[^\s,{\[\x01])+)*", s)
        if not word:
            continue
        w = re.sub(r"\s+", "", word.group(0))
        if w.startswith("."):  # a declaration
            continue
        line = lines[pos] if pos < len(lines) else (lines[-1] if lines else 0)
        out.append((w.replace("\x01", "{").replace("\x02", "}"), line, "\x01" in w))
    return out


# ---- groups -------------------------------------------------------------------------
GROUPS = [
    ("matrix", "mma wmma wgmma tcgen05 ldmatrix stmatrix movmatrix"),
    ("async", "cp mbarrier bar barrier fence membar griddepcontrol elect setmaxnreg prefetch "
              "prefetchu createpolicy multimem clusterlaunchcontrol tensormap discard applypriority"),
    ("atomics", "atom red"),
    ("collective", "shfl vote match redux activemask"),
    ("address", "cvta isspacep mapa getctarank"),
    ("memory", "ld st ldu"),
    ("control", "bra brx call ret exit trap brkpt nanosleep pmevent"),
]


def group(spelling):
    toks = spelling.split(".")
    head = toks[0]
    if head in ("pause", "yield"):
        return "host-asm"  # x86 / Arm host code in libcudacxx
    if head in ("st", "red") and "async" in toks[1:3]:
        return "async"
    if spelling.startswith("bar.warp.sync"):
        return "collective"
    for name, heads in GROUPS:
        if head in heads.split():
            return name
    if re.match(r"^[a-z][a-z0-9]*$", head):
        return "arithmetic" if head not in ("setctarank",) else "other"
    return "other"


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    out, templates = args.pop(0), None
    if args and args[0] == "--templates":
        templates = args[1]
        args = args[2:]
    rank, found = {}, collections.defaultdict(list)
    for spec in args:
        gitdir, _, repo = spec.partition("=")
        repo = repo or gitdir
        rank[repo] = len(rank)
        head = git(gitdir, "rev-parse", "HEAD").strip()
        files = [f[5:] for f in git(gitdir, "grep", "-l", "-I", "-E", ASM_FILES, "HEAD").splitlines()
                 if f.startswith("HEAD:") and not f.lower().endswith(DOC_EXT)]
        for path in files:
            text = git(gitdir, "show", "HEAD:" + path)
            scan = py_templates if path.endswith(".py") else c_templates
            for pieces, _ in scan(text):
                for spelling, line, placeholder in spellings(pieces):
                    found[(spelling, placeholder)].append((rank[repo], path, line, repo))
        print("%s\t%s\t%d files" % (repo, head, len(files)), file=sys.stderr)
    header = "spelling\tgroup\tcount\tfirst_repo\tfirst_path\tfirst_line\tall_repos\n"
    for placeholder, path in ((False, out), (True, templates)):
        if path is None:
            continue
        rows = []
        for (spelling, ph), occ in found.items():
            if ph != placeholder:
                continue
            first = min(occ)
            per_repo = collections.Counter(o[3] for o in occ)
            repos = ",".join("%s:%d" % (r, per_repo[r]) for r in sorted(per_repo, key=rank.get))
            rows.append((group(spelling), -len(occ), spelling, first, repos))
        with open(path, "w") as f:
            f.write(header)
            for g, negcount, spelling, first, repos in sorted(rows):
                f.write("%s\t%s\t%d\t%s\t%s\t%d\t%s\n" % (spelling.replace("\t", " "), g, -negcount,
                                                          first[3], first[1], first[2], repos))


if __name__ == "__main__":
    main()
