#!/usr/bin/env python3
"""Differential fuzzer for the __tile_apply expansion (issue 17).

Generates random valid __tile_apply calls over the per-thread register forms
of `tileapply-opcodes --json`, and for each call a twin kernel that writes the
same instructions as inline asm rendered here, from the spelling and operand
types alone (not with tileapply's renderer). Two modes:

  --ptx        compile both with the plugin at -O2 and -O0 and compare the
               instruction streams of every call; also flag an output of a
               multi-instruction asm statement that a later instruction of the
               same statement reads. Prints `differential-ptx: N passed, M failed`.
  --gpu FILE   write a self-checking CUDA program (random inputs, both kernels,
               every output word compared bit for bit) to FILE.

Python 3, standard library only; the same seed gives the same calls.
"""
import argparse
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

FAMILIES = {
    'add', 'sub', 'mul', 'mad', 'fma', 'div', 'rem', 'abs', 'neg', 'min', 'max',
    'and', 'or', 'xor', 'not', 'cnot', 'shl', 'shr', 'lop3', 'prmt', 'bfe', 'bfi',
    'brev', 'popc', 'clz', 'bfind', 'copysign', 'rcp', 'sqrt', 'rsqrt', 'ex2', 'lg2',
    'sin', 'cos', 'tanh', 'setp', 'selp', 'set', 'cvt', 'mov', 'mul24', 'mad24', 'sad',
    'testp', 'slct', 'shf', 'bmsk', 'szext', 'dp2a', 'dp4a'}

# register type -> (C++ carrier, constraint letter, bytes, kind)
TYPES = {
    'u16': ('unsigned short', 'h', 2, 'u'), 's16': ('short', 'h', 2, 's'),
    'b16': ('unsigned short', 'h', 2, 'u'),
    'u32': ('unsigned', 'r', 4, 'u'), 's32': ('int', 'r', 4, 's'), 'b32': ('unsigned', 'r', 4, 'u'),
    'u64': ('unsigned long long', 'l', 8, 'u'), 's64': ('long long', 'l', 8, 's'),
    'b64': ('unsigned long long', 'l', 8, 'u'),
    'f32': ('float', 'f', 4, 'f'), 'f64': ('double', 'd', 8, 'f'),
    'pred': ('bool', None, 1, 'p'),
}

SLOT = 8  # every value lives in an 8-byte slot of the input / output buffers


def load_forms(opcodes_bin, arch_sm=90, arch='sm_90a'):
    out = subprocess.run([opcodes_bin, '--json'], check=True, capture_output=True, text=True).stdout
    forms = []
    for line in out.splitlines():
        d = json.loads(line)
        if d['opcode'].split('.')[0] not in FAMILIES or 'body' in d or d['sm'] > arch_sm:
            continue
        if 'targets' in d and arch not in d['targets']:
            continue
        # 8-bit PTX types ride in 16-bit registers with int8_t / uint8_t
        # carriers, which the JSON's register types do not say: left out
        if re.search(r'\.[usb]8(\.|$)', d['opcode']):
            continue
        ops = [o for o in d['operands'] if not o.get('optional')]
        if not all(o['dir'] in ('r', 'w', 'rw', 'imm') and o['regs'] == 1 and o['reg'] in TYPES
                   for o in ops):
            continue
        d['ops'] = ops
        forms.append(d)
    return forms


# ---------------------------------------------------------------------------
# constants

def const_value(rng, t):
    """A constant for register type t: (C++ text, PTX immediate text)."""
    cty, _, size, kind = TYPES[t]
    bits = size * 8
    if kind == 'f':
        v = rng.choice([0.0, 1.0, -1.0, 1.5, -0.25, 3.0, 100.0, 0.5, 65504.0, -2.0])
        if t == 'f32':
            b = struct.unpack('<I', struct.pack('<f', v))[0]
            return '%rf' % v, '0f%08X' % b
        b = struct.unpack('<Q', struct.pack('<d', v))[0]
        return '%r' % v, '0d%016X' % b
    if kind == 's':
        v = rng.choice([0, 1, 2, 3, 7, 15, 31, -1, -2, -8, rng.randrange(-(1 << (bits - 1)), 1 << (bits - 1))])
    else:
        v = rng.choice([0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 255, (1 << bits) - 1, rng.randrange(1 << bits)])
    if size == 2:
        return '(%s)%d' % (cty, v), str(v)
    if size == 4:
        if kind == 's':
            return ('(-2147483647-1)' if v == -(1 << 31) else str(v)), str(v)
        return '%du' % v, str(v)
    if kind == 's':
        return ('(-9223372036854775807ll-1)' if v == -(1 << 63) else '%dll' % v), str(v)
    return '%dull' % v, (str(v) if v < (1 << 63) else '0x%016XU' % v)


def packed_form(form):
    """A form with 16-bit float, packed or FP8 data: PTX has no immediates of
    those types (a constant is its bits, in a register)."""
    op = form['opcode']
    return any(t in op for t in ('f16', 'bf16', '16x2', 'e4m3', 'e5m2'))


def imm_in_register(form, k, a):
    """Whether a constant must reach the instruction in a register, the way
    any correct expansion must pass it: a packed form's operands (no
    immediates of those types), and bfe's and bfi's position and length
    outside 0..255 (ptxas 13.0 reads immediates there only in that range)."""
    # The listing gives a 16-bit float or packed operand a bit-size register
    # type (.b16, .b32); f32, f64 and integer operands of such forms take
    # immediates as usual.
    if packed_form(form) and a['op']['reg'].startswith('b'):
        return True
    fam = form['opcode'].split('.')[0]
    first = 2 if fam == 'bfe' else 3
    return fam in ('bfe', 'bfi') and k >= first and not 0 <= int(a['imm'], 0) <= 255


def takes_immediate(op):
    return TYPES[op['reg']][3] in 'usf' and not op.get('register_only')


# ---------------------------------------------------------------------------
# layouts: a tensor is a backing array (flat, in elements) and a view over it

def dense(shape):
    st, acc = [], 1
    for e in reversed(shape):
        st.insert(0, acc)
        acc *= e
    return st


def offsets(shape, strides):
    out = [0]
    for e, s in zip(shape, strides):
        out = [o + i * s for o in out for i in range(e)]
    return out  # row-major repeat order


def random_layout(rng, shape, is_dst):
    """(strides, storage elements, is_view) for one tensor of this repeat shape."""
    if rng.random() < 0.45:
        return dense(shape), max(1, prod(shape)), False
    while True:
        kind = rng.random()
        if kind < 0.35 and len(shape) > 1:  # a permutation of the axes (transposed storage)
            perm = list(range(len(shape)))
            rng.shuffle(perm)
            pshape = [shape[p] for p in perm]
            pst = dense(pshape)
            st = [0] * len(shape)
            for i, p in enumerate(perm):
                st[p] = pst[i]
        elif kind < 0.7:  # gapped storage
            st = [s * rng.choice([1, 2]) + rng.choice([0, 0, 1]) for s in dense(shape)]
        else:  # arbitrary small strides
            st = [rng.randrange(0, 5) for _ in shape]
        if not is_dst and rng.random() < 0.4:  # a zero-stride broadcast axis
            st[rng.randrange(len(shape))] = 0
        offs = offsets(shape, st)
        if is_dst and len(set(offs)) != len(offs):
            continue
        return st, max(offs) + 1, True


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


# ---------------------------------------------------------------------------
# one call

class Call:
    pass


def make_call(rng, form, idx, gpu_masks):
    c = Call()
    c.idx, c.form = idx, form
    chain = 'chain' in form
    rank = rng.choice([1, 1, 2, 2, 3])
    while True:
        shape = [rng.randint(1, 3) for _ in range(rank)]
        if prod(shape) <= 12:
            break
    if chain and prod(shape) > 4:
        shape = [rng.randint(1, 4)]
    c.shape, c.reps = shape, prod(shape)
    ops = form['ops']
    c.pred = rng.choice([None, None, 'scalar', 'tensor', 'tensor'])
    if chain and c.pred == 'tensor':
        c.pred = 'scalar'
    c.preserve = c.pred is not None and rng.random() < 0.6
    c.args = []   # per operand: dict
    c.tensors = []  # arrays to declare
    dst_args = []
    for i, o in enumerate(ops):
        a = {'op': o, 't': o['reg']}
        if o['dir'] == 'imm':
            lo, hi = o['imm']
            vals = o.get('values') or list(range(lo, hi + 1, o.get('step', 1)))
            a['kind'] = 'imm'
            a['value'] = rng.choice(vals)
        elif o['dir'] in ('w', 'rw'):
            a['kind'] = 'tensor'
            dst_args.append(a)
        else:
            r = rng.random()
            if r < 0.15 and takes_immediate(o):
                a['kind'] = 'const'
                a['ctext'], a['imm'] = const_value(rng, o['reg'])
            elif r < 0.28:
                a['kind'] = 'scalar'
            else:
                a['kind'] = 'tensor'
        c.args.append(a)
    # layouts; legal in-place: a destination may be an input of the same type and layout
    names = 0
    for a in c.args:
        if a['kind'] == 'tensor':
            a['name'] = 't%d' % names
            names += 1
            st, size, isview = random_layout(rng, shape, a in dst_args)
            a['strides'], a['size'], a['view'] = st, size, isview
            a['offs'] = offsets(shape, st)
            a['alias'] = None
        elif a['kind'] == 'scalar':
            a['name'] = 's%d' % names
            names += 1
    for d in dst_args:
        cands = [a for a in c.args if a['kind'] == 'tensor' and a not in dst_args and a['t'] == d['t']]
        if cands and rng.random() < 0.3:
            src = rng.choice(cands)
            # only where the source's layout is itself a legal destination
            if len(set(src['offs'])) == len(src['offs']):
                d['alias'] = src
                d['name'], d['strides'], d['size'], d['view'], d['offs'] = \
                    src['name'], src['strides'], src['size'], src['view'], src['offs']
    c.dsts = dst_args
    # predicates
    if c.pred == 'tensor':
        c.ptype = rng.choice(['bool', 'unsigned'])
        c.pname = 'pt'
    c.pmask = 1 if not gpu_masks else rng.choice([1, 1, 0x100, 0x80000001])
    # slots of the input pool: collisions on purpose, so values repeat across operands
    nvals = sum(a['size'] for a in c.args if a['kind'] == 'tensor' and a.get('alias') is None) + 4
    c.pool = max(2, nvals * 2 // 3)
    rng.random()  # unused draw, kept so the seeds give the calls RESULTS.md records
    return c


def call_text(c):
    """The __tile_apply call as C++ source."""
    parts = ['"%s"' % c.form['opcode']]
    for a in c.args:
        if a['kind'] == 'imm':
            parts.append(str(a['value']))
        elif a['kind'] == 'const':
            parts.append(a['ctext'])
        elif a['kind'] == 'scalar':
            parts.append(a['name'])
        elif a['view']:
            parts.append('tile::view<tile::shape<%s,1>, tile::stride<%s,1>>(%s)' % (
                ','.join(map(str, c.shape)), ','.join(map(str, a['strides'])), a['name']))
        else:
            parts.append(a['name'])
    if c.pred == 'scalar':
        parts.append('tile::pred(pc)')
    elif c.pred == 'tensor':
        parts.append('tile::pred(pt)')
    if c.preserve:
        parts.append('tile::preserve_dst')
    return '__tile_apply(%s);' % ', '.join(parts)


def cty(t):
    return TYPES[t][0]


def flat(a):
    return '((%s *)%s)' % (cty(a['t']), a['name'])


def pred_expr(c, r):
    if c.pred == 'scalar':
        return 'pc'
    off = r
    return '(((%s *)pt)[%d] != 0)' % (c.ptype, off)


def emit_prologue(c, rng):
    """Declarations and loads shared by both kernels; returns (lines, out slots)."""
    L = []
    seen = set()

    def load(t):
        slot = rng.randrange(c.pool)
        if t == 'pred':
            return '((ld<unsigned>(in, %d) & 1u) != 0)' % slot
        return 'ld<%s>(in, %d)' % (cty(t), slot)

    for a in c.args:
        if a['kind'] == 'tensor' and a['name'] not in seen:
            seen.add(a['name'])
            if a['view']:
                L.append('%s %s[%d][1];' % (cty(a['t']), a['name'], a['size']))
            else:
                L.append('%s %s%s[1];' % (cty(a['t']), a['name'], ''.join('[%d]' % e for e in c.shape)))
            for e in range(a['size']):
                L.append('%s[%d] = %s;' % (flat(a), e, load(a['t'])))
        elif a['kind'] == 'scalar':
            L.append('%s %s = %s;' % (cty(a['t']), a['name'], load(a['t'])))
    if c.pred == 'scalar':
        L.append('bool pc = (ld<unsigned>(in, %d) & %#xu) != 0;' % (rng.randrange(c.pool), c.pmask))
    elif c.pred == 'tensor':
        L.append('%s pt%s[1];' % (c.ptype, ''.join('[%d]' % e for e in c.shape)))
        for r in range(c.reps):
            s = rng.randrange(c.pool)
            if c.ptype == 'bool':
                L.append('((bool *)pt)[%d] = (ld<unsigned>(in, %d) & %#xu) != 0;' % (r, s, c.pmask))
            else:
                L.append('((unsigned *)pt)[%d] = ld<unsigned>(in, %d) & %#xu;' % (r, s, c.pmask))
    return L


def emit_epilogue(c):
    """Stores of every destination element (and of the predicate of each repeat)."""
    L, masks, slot = [], [], 0
    pslot0 = sum(c.reps for _ in c.dsts)
    for d in c.dsts:
        for r in range(c.reps):
            e = '%s[%d]' % (flat(d), d['offs'][r])
            if d['t'] == 'pred':
                e = '(unsigned)' + e
                L.append('st<unsigned>(out, %d, %s);' % (slot, e))
            else:
                L.append('st<%s>(out, %d, %s);' % (cty(d['t']), slot, e))
            masks.append(pslot0 + r if (c.pred and not c.preserve) else -1)
            slot += 1
    if c.pred:
        for r in range(c.reps):
            L.append('st<unsigned>(out, %d, (unsigned)%s);' % (pslot0 + r, pred_expr(c, r)))
            masks.append(-1)
    return L, masks


# ---------------------------------------------------------------------------
# the oracle: inline asm rendered here

def chain_spellings(op, n):
    """The spellings of an n-word carry chain of form `op` (add.cc.u32 ...)."""
    fam, rest = op.split('.', 1)
    quals = rest.split('.')
    base = {'add': 'addc', 'sub': 'subc', 'mad': 'madc'}[fam]
    last = '.'.join([base] + [q for q in quals if q != 'cc'])
    mid = '.'.join([base] + quals)
    return [op] + [mid] * max(0, n - 2) + ([last] if n > 1 else [])


def oracle_asm(c):
    form = c.form
    chain = 'chain' in form
    groups = [list(range(c.reps))] if chain else [[r] for r in range(c.reps)]
    L = []
    for g in groups:
        outs, ins = [], []   # (constraint, expr)
        pre, body, post, regs = [], [], [], []
        guard = ''
        if c.pred:
            ins.append(('r', '(unsigned)%s' % pred_expr(c, g[0])))
            gi = len(ins) - 1
            regs.append('$ta_g')
            pre.append('setp.ne.b32 $ta_g, {I%d}, 0; // wrap' % gi)
            guard = '@$ta_g '
        spells = chain_spellings(form['opcode'], len(g)) if chain else [form['opcode']]
        for w, r in enumerate(g):
            operands = []
            for k, a in enumerate(c.args):
                o, t = a['op'], a['t']
                if a['kind'] == 'imm':
                    operands.append(str(a['value']))
                    continue
                if a['kind'] == 'const' and not imm_in_register(form, k, a):
                    operands.append(a['imm'])
                    continue
                if a['kind'] == 'const':
                    ins.append((TYPES[t][1], a['ctext']))
                    operands.append('{I%d}' % (len(ins) - 1))
                    continue
                if a['kind'] == 'scalar':
                    expr = a['name']
                else:
                    expr = '%s[%d]' % (flat(a), a['offs'][r])
                if o['dir'] in ('w', 'rw'):
                    rwmode = o['dir'] == 'rw' or c.preserve
                    if t == 'pred':
                        q = '$ta_q%d_%d' % (k, w)
                        regs.append(q)
                        outs.append(('+r' if rwmode else '=r', expr))  # a bool lvalue
                        n = len(outs) - 1
                        if rwmode:
                            pre.append('setp.ne.b32 %s, {O%d}, 0; // wrap' % (q, n))
                        post.append('selp.u32 {O%d}, 1, 0, %s; // wrap' % (n, q))
                        operands.append(q)
                    else:
                        letter = TYPES[t][1]
                        early = '&' if chain and len(g) > 1 else ''
                        outs.append(('%s%s%s' % ('+' if rwmode else '=', early, letter), expr))
                        operands.append('{O%d}' % (len(outs) - 1))
                else:
                    if t == 'pred':
                        q = '$ta_i%d_%d' % (k, w)
                        regs.append(q)
                        ins.append(('r', '(unsigned)%s' % expr))
                        pre.append('setp.ne.b32 %s, {I%d}, 0; // wrap' % (q, len(ins) - 1))
                        operands.append(q)
                    else:
                        ins.append((TYPES[t][1], expr))
                        operands.append('{I%d}' % (len(ins) - 1))
            joined = ''
            for k, t in enumerate(operands):
                sep = '' if k == 0 else ('|' if c.args[k]['op'].get('join') == '|' else ', ')
                joined += sep + t
            body.append('%s%s %s;' % (guard, spells[w], joined))
        text = pre + body + post
        if regs:
            text = ['{', '.reg .pred %s;' % ', '.join(regs)] + text + ['}']
        s = '\\n\\t'.join(text).replace('$', '%%')
        # numbering: outputs first, then inputs
        s = re.sub(r'\{O(\d+)\}', lambda m: '%%%s' % m.group(1), s)
        s = re.sub(r'\{I(\d+)\}', lambda m: '%%%d' % (len(outs) + int(m.group(1))), s)
        # bool outputs go through an unsigned temporary
        tmp_decl, tmp_back, outs2 = [], [], []
        for n, (con, expr) in enumerate(outs):
            if con in ('=r', '+r') and 'bool' in expr:
                tv = '_b%d_%d' % (g[0], n)
                tmp_decl.append('unsigned %s = (unsigned)%s;' % (tv, expr) if con == '+r' else 'unsigned %s;' % tv)
                tmp_back.append('%s = %s != 0;' % (expr, tv))
                outs2.append((con, tv))
            else:
                outs2.append((con, expr))
        L += tmp_decl
        L.append('asm("%s"\n      : %s\n      : %s);' % (
            s, ', '.join('"%s"(%s)' % x for x in outs2), ', '.join('"%s"(%s)' % x for x in ins)))
        L += tmp_back
    return L


# ---------------------------------------------------------------------------
# the generated file

HEADER = r'''// Generated by test/fuzz/differential/difffuzz.py (seed %(seed)d, %(n)d calls). Do not edit.
#include <tileapply/tile.h>
template <class T> __device__ __forceinline__ T ld(const unsigned char *in, int slot) {
  return *reinterpret_cast<const T *>(in + %(slot)d * slot);
}
template <class T> __device__ __forceinline__ void st(unsigned char *out, int slot, T v) {
  *reinterpret_cast<T *>(out + %(slot)d * slot) = v;
}
'''


def generate(forms, seed, n, gpu_masks):
    rng = random.Random(seed)
    by_family = {}
    for f in forms:
        key = 'chain' if 'chain' in f else f['opcode'].split('.')[0]
        by_family.setdefault(key, []).append(f)
    fams = sorted(by_family)
    calls = []
    for i in range(n):
        fam = rng.choice(fams + ['chain'] * 3)
        form = rng.choice(by_family[fam])
        c = make_call(rng, form, i, gpu_masks)
        c.text = call_text(c)
        srng = random.Random('%d-%d' % (seed, i))
        pro = emit_prologue(c, srng)
        epi, masks = emit_epilogue(c)
        c.masks = masks
        c.in_slots = c.pool
        c.out_slots = len(masks)
        body_p = pro + [c.text] + epi
        body_o = pro + oracle_asm(c) + epi
        c.src = ''.join(
            '// call %d: %s\n__global__ void %s%d(const unsigned char *in, unsigned char *out) {\n  %s\n}\n' % (
                i, c.text, name, i, '\n  '.join(body), ) for name, body in (('ta_p', body_p), ('ta_o', body_o)))
        calls.append(c)
    return calls


def write_cu(path, calls, seed, extra=''):
    with open(path, 'w') as f:
        f.write(HEADER % {'seed': seed, 'n': len(calls), 'slot': SLOT})
        for c in calls:
            f.write(c.src)
        f.write(extra)


# ---------------------------------------------------------------------------
# PTX mode

ENTRY = re.compile(r'^\.visible \.entry (\w+)\(')


def ptx_kernels(text):
    """name -> list of lines of its body."""
    ks, cur = {}, None
    for line in text.splitlines():
        m = ENTRY.match(line)
        if m:
            cur = m.group(1)
            ks[cur] = []
        elif cur:
            ks[cur].append(line)
    return ks


def kernel_index(mangled):
    m = re.match(r'_Z\d+ta_([po])(\d+)', mangled)
    return (m.group(1), int(m.group(2))) if m else None


INSN = re.compile(r'^\s*(@!?%[\w]+\s+)?([a-z][\w.:]*)\s*(.*?);?\s*(//.*)?$')


def parse_insn(line):
    m = INSN.match(line)
    if not m:
        return None
    guard, op, rest, comment = m.groups()
    rest = rest.strip().rstrip(';').strip()
    opnds = [x.strip() for x in re.split(r'[,|]', rest)] if rest else []
    return {'guard': (guard or '').strip(), 'op': op, 'opnds': opnds, 'wrap': bool(comment and 'wrap' in comment)}


def asm_statements(lines):
    """(statements, all): the inline asm statements of a kernel, each a list of
    instructions, and every instruction of the kernel in order (those outside
    asm included, with stmt None)."""
    stmts, cur, allins = [], None, []
    for line in lines:
        s = line.strip()
        if s.startswith('// begin inline asm'):
            cur = []
            continue
        if s.startswith('// end inline asm'):
            stmts.append(cur)
            cur = None
            continue
        if not s or s.startswith('//') or s in ('{', '}') or s.startswith('.reg'):
            continue
        for piece in [p for p in s.split(';') if p.strip()] if cur is not None else [s]:
            piece = piece.strip()
            if piece.startswith('//') or piece in ('{', '}') or piece.startswith('.reg'):
                if cur and 'wrap' in piece:
                    cur[-1]['wrap'] = True
                continue
            ins = parse_insn(piece + ';')
            if ins is None:
                continue
            ins['stmt'] = len(stmts) if cur is not None else None
            allins.append(ins)
            if cur is not None:
                cur.append(ins)
    return stmts, allins


def is_pred_reg(tok):
    return re.fullmatch(r'%p\d+|%ta_\w+', tok) is not None


def is_reg(tok):
    return tok.startswith('%')


def norm_imm(tok):
    tok = tok[:-1] if re.fullmatch(r'-?(0[xX])?[0-9a-fA-F]+U', tok) else tok
    if re.fullmatch(r'-?\d+', tok):
        return str(int(tok))
    if re.fullmatch(r'0[xX][0-9a-fA-F]+', tok):
        return str(int(tok, 16))
    if re.fullmatch(r'0[fdFD][0-9a-fA-F]+', tok):
        return tok[:2].lower() + tok[2:].upper()
    return tok


def canonical(kernel, per_statement, preserve):
    """The call's instructions as value-numbered strings: every register read is
    named by the value it holds at that point (a plain `mov` outside the asm
    copies a value, any other instruction makes a new one), every output is a
    new value, named by first appearance; a preserved (guarded, tied) output also
    shows the old value it keeps. The oracle's wrapper instructions are dropped.
    So two renderings compare equal when they compute the same values from the
    same values, whatever registers the compiler picked."""
    stmts, allins = kernel
    val, nxt = {}, [0]
    gsrc = {}   # predicate register -> value its setp.ne P, R, 0 reads
    mem, gvn = {}, {}

    def addr_key(tok):
        t = tok.strip('[]')
        base, _, off = t.partition('+')
        return (cur(base) if is_reg(base) else base, int(off) if off else 0)

    def fresh():
        nxt[0] += 1
        return nxt[0]

    def cur(r):
        if r not in val:
            val[r] = fresh()
        return val[r]
    out, names, gnames, last_stmt = [], {}, {}, None
    for ins in allins:
        ops = ins['opnds']
        if ins['op'].startswith('setp.ne.') and len(ops) == 3 and ops[2] == '0' and is_reg(ops[1]):
            gsrc[ops[0]] = cur(ops[1])
        if ins['stmt'] is None or ins['wrap']:
            # outside the call: copies pass a value on, a load of an address last
            # stored gets the stored value (-O0 keeps tensors in local memory),
            # and a pure instruction applied to the same values gives one value
            op = ins['op']
            if op.startswith('mov.') and len(ops) == 2 and is_reg(ops[0]) and is_reg(ops[1]) \
                    and not ins['guard']:
                val[ops[0]] = cur(ops[1])
                if ops[1] in gsrc:  # a predicate copy keeps its source
                    gsrc[ops[0]] = gsrc[ops[1]]
            elif op.startswith('mov.') and len(ops) == 2 and is_reg(ops[0]) and not ins['guard']:
                val[ops[0]] = ('const', norm_imm(ops[1]))
            elif op.startswith('st.') and len(ops) == 2:
                mem[addr_key(ops[0])] = cur(ops[1]) if is_reg(ops[1]) else ('imm', ops[1])
            elif op.startswith('ld.') and len(ops) == 2 and not ins['wrap']:
                k = addr_key(ops[1])
                if k not in mem:
                    mem[k] = fresh()
                val[ops[0]] = mem[k]
            elif ops and is_reg(ops[0]) and not ins['guard'] and not ins['wrap']:
                k = (op, tuple(cur(t) if is_reg(t) else t for t in ops[1:]))
                if k not in gvn:
                    gvn[k] = fresh()
                val[ops[0]] = gvn[k]
            elif ops and is_reg(ops[0]):
                val[ops[0]] = fresh()
            continue
        if per_statement and ins['stmt'] != last_stmt:
            names, gnames = {}, {}
        last_stmt = ins['stmt']

        def name(v):
            if isinstance(v, tuple):
                return 'reg(%s)' % v[1]
            names.setdefault(v, 'V%d' % len(names))
            return names[v]

        def src(tok):
            if is_pred_reg(tok):
                return 'P'
            if is_reg(tok):
                return name(cur(tok))
            return norm_imm(tok)
        g = ''
        if ins['guard']:
            p = ins['guard'].lstrip('@!')
            key = gsrc.get(p, p)
            gnames.setdefault(key, 'G%d' % len(gnames))
            g = '@%s%s ' % ('!' if ins['guard'].startswith('@!') else '', gnames[key])
        srcs = [src(t) for t in ops[1:]]
        d = ops[0] if ops else None
        if d and is_reg(d) and not is_pred_reg(d):
            keep = '<-' + name(cur(d)) if (ins['guard'] and preserve) else ''
            val[d] = fresh()
            dtext = name(val[d]) + keep
        else:
            dtext = src(d) if d else ''
            if d and is_pred_reg(d):
                gsrc[d] = ('written', fresh())
        text = g + ins['op'] + ' ' + ', '.join([dtext] + srcs)
        if per_statement:
            # -O0: values pass through local memory by addresses computed in
            # different ways, so only the operand kinds are compared
            text = re.sub(r'\bV\d+', 'R', re.sub(r'@(!?)G\d+', r'@\1G', text))
        out.append(text)
    return out


def relax(stream):
    """A stream with every constant, immediate or in a register, as a 64-bit pattern."""
    def num(m):
        t = m.group(1)
        try:
            return str(int(t, 0) % (1 << 64))
        except ValueError:
            return t
    return [re.sub(r'(?:reg\()?(-?\w+)\)?', lambda m: num(m) if re.fullmatch(r'-?\d+', m.group(1)) else m.group(0), x)
            for x in stream]


def hazards(stmts):
    """An output (first operand) of an instruction read by a later instruction of
    the same asm statement."""
    found = []
    for st in stmts:
        real = [i for i in st if not i['wrap']]
        if len(real) < 2:
            continue
        for a, ia in enumerate(real):
            if not ia['opnds']:
                continue
            d = ia['opnds'][0]
            if not d.startswith('%') or is_pred_reg(d):
                continue
            for ib in real[a + 1:]:
                if d in ib['opnds'][1:]:
                    found.append('%s writes %s, which the later %s reads' % (ia['op'], d, ib['op']))
    return found


def compile_ptx(root, build, src, out, opt, arch):
    cmd = ['/usr/lib/llvm-22/bin/clang++', '-std=c++20', '-x', 'cuda', '--cuda-gpu-arch=' + arch,
           '-Wno-unknown-cuda-version', '--cuda-path=/usr/local/cuda', opt,
           '-fplugin=%s/lib/TileApply.so' % build, '-I', os.path.join(root, 'include'),
           '-I', os.path.join(root, 'runtime', 'include'),
           '--cuda-device-only', '-S', src, '-o', out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-6000:])
        raise SystemExit('differential-ptx: the generated file does not compile (%s)' % opt)
    return open(out).read()


def ptx_mode(args, forms, root):
    calls = generate(forms, args.seed, args.count, gpu_masks=False)
    failed = set()
    work = args.workdir or tempfile.mkdtemp(prefix='difffuzz-')
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, 'calls.cu')
    write_cu(src, calls, args.seed)
    report, notes = [], []
    for opt in args.opts.split(','):
        text = compile_ptx(root, args.build, src, os.path.join(work, 'calls%s.ptx' % opt), opt, args.arch)
        ks = ptx_kernels(text)
        streams = {}
        for name, lines in ks.items():
            ki = kernel_index(name)
            if ki:
                streams[ki] = asm_statements(lines)
        per_stmt = opt == '-O0'
        for c in calls:
            sp, so = streams.get(('p', c.idx)), streams.get(('o', c.idx))
            if sp is None or so is None:
                report.append('call %d %s: kernel missing from the PTX' % (c.idx, opt))
                failed.add(c.idx)
                continue
            cp = canonical(sp, per_stmt, c.preserve)
            co = canonical(so, per_stmt, c.preserve)
            hz = hazards(sp[0])
            if cp != co and not hz and relax(cp) == relax(co):
                notes.append('call %d at %s: a constant passed in a register, not as an immediate: %s\n'
                             '  tileapply: %s\n  oracle:    %s' % (c.idx, opt, c.text, ' | '.join(cp),
                                                                ' | '.join(co)))
                continue
            if cp != co or hz:
                failed.add(c.idx)
                msg = ['call %d at %s: %s' % (c.idx, opt, c.text)]
                if hz:
                    msg += ['  hazard: ' + h for h in hz]
                if cp != co:
                    msg.append('  tileapply:')
                    msg += ['    ' + x for x in cp]
                    msg.append('  oracle:')
                    msg += ['    ' + x for x in co]
                report.append('\n'.join(msg))
    for r in report[:args.max_report]:
        print(r)
    if len(report) > args.max_report:
        print('... %d more' % (len(report) - args.max_report))
    for n in notes:
        print('note: ' + n)
    print('differential-ptx: %d passed, %d failed (seed %d, %s)' % (
        len(calls) - len(failed), len(failed), args.seed, args.opts))
    return 1 if failed else 0


# ---------------------------------------------------------------------------
# GPU mode

HOST = r'''
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
struct CallInfo { void (*p)(const unsigned char *, unsigned char *); void (*o)(const unsigned char *, unsigned char *);
                  int in_slots, out_slots; const int *mask; const char *text; };
%(masks)s
static const CallInfo calls[] = {
%(table)s
};
static unsigned long long rng_state = %(seed)dull * 0x9E3779B97F4A7C15ull + 1;
static unsigned long long next64() {
  rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17; return rng_state;
}
static unsigned long long value64() {
  static const unsigned long long special[] = {0, 1, 2, 3, 0xffffffffffffffffull, 0x80000000ull,
    0x7fffffffull, 0x3f800000ull, 0xbf800000ull, 0x7f800000ull, 0x7fc00000ull, 0x80000000ull | 0x7f800000ull,
    0x00000001ull, 0x3c003c00ull, 0x7c00fc00ull, 0x3ff0000000000000ull, 0x8000000000000000ull, 31, 32, 33, 64};
  unsigned k = next64() %% 8;
  if (k < 4) return next64();
  if (k < 6) return next64() %% 64;
  return special[next64() %% (sizeof(special) / sizeof(special[0]))] ^ ((next64() %% 4 == 0) ? (next64() << 32) : 0);
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %%s at line %%d\n", cudaGetErrorString(e_), __LINE__); std::exit(2); } } while (0)
int main() {
  const int threads = %(threads)d, S = %(slot)d;
  int n = sizeof(calls) / sizeof(calls[0]), passed = 0, failed = 0;
  unsigned char *din, *dp, *dq;
  CHECK(cudaMalloc(&din, 1 << 20)); CHECK(cudaMalloc(&dp, 1 << 20)); CHECK(cudaMalloc(&dq, 1 << 20));
  static unsigned char hin[1 << 20], hp[1 << 20], hq[1 << 20];
  for (int k = 0; k < n; ++k) {
    const CallInfo &c = calls[k];
    size_t inb = (size_t)c.in_slots * S, outb = (size_t)c.out_slots * S;
    for (size_t i = 0; i < inb * threads; i += 8) { unsigned long long v = value64(); std::memcpy(hin + i, &v, 8); }
    CHECK(cudaMemcpy(din, hin, inb * threads, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dp, 0xA5, outb * threads)); CHECK(cudaMemset(dq, 0xA5, outb * threads));
    for (int t = 0; t < threads; ++t) {
      c.p<<<1, 1>>>(din + inb * t, dp + outb * t);
      c.o<<<1, 1>>>(din + inb * t, dq + outb * t);
    }
    CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hp, dp, outb * threads, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hq, dq, outb * threads, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < threads && bad < 4; ++t)
      for (int s = 0; s < c.out_slots; ++s) {
        const unsigned char *a = hp + outb * t + (size_t)s * S, *b = hq + outb * t + (size_t)s * S;
        if (c.mask[s] >= 0) {  // a predicated-off destination without preserve_dst is unspecified
          unsigned pa; std::memcpy(&pa, hp + outb * t + (size_t)c.mask[s] * S, 4);
          if (!pa) continue;
        }
        if (std::memcmp(a, b, S)) {
          unsigned long long va, vb; std::memcpy(&va, a, 8); std::memcpy(&vb, b, 8);
          if (!bad) std::printf("MISMATCH call %%d: %%s\n", k, c.text);
          std::printf("  input set %%d, output slot %%d: tileapply %%016llx, oracle %%016llx\n", t, s, va, vb);
          if (++bad >= 4) break;
        }
      }
    if (bad) ++failed; else ++passed;
  }
  std::printf("differential-gpu: %%d passed, %%d failed (%%s, seed %(seed)d, %%d input sets per call)\n",
              passed, failed, "%(name)s", threads);
  return failed ? 1 : 0;
}
'''


def c_string(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def gpu_mode(args, forms):
    calls = generate(forms, args.seed, args.count, gpu_masks=True)
    masks = '\n'.join('static const int mask%d[] = {%s};' % (c.idx, ', '.join(map(str, c.masks)) or '0')
                      for c in calls)
    table = ',\n'.join('  {ta_p%d, ta_o%d, %d, %d, mask%d, %s}' % (
        c.idx, c.idx, c.in_slots, c.out_slots, c.idx, c_string(c.text)) for c in calls)
    host = HOST % {'masks': masks, 'table': table, 'seed': args.seed, 'slot': SLOT,
                   'threads': args.threads, 'name': os.path.basename(args.gpu)}
    write_cu(args.gpu, calls, args.seed, host)
    print('wrote %s: %d calls, seed %d' % (args.gpu, len(calls), args.seed))
    return 0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, '..', '..', '..'))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--build', default=os.environ.get('TILEAPPLY_BUILD_DIR', os.path.join(root, 'build')))
    ap.add_argument('--seed', type=int, default=17)
    ap.add_argument('--count', type=int, default=200)
    ap.add_argument('--arch', default='sm_90a')
    ap.add_argument('--ptx', action='store_true')
    ap.add_argument('--opts', default='-O2,-O0')
    ap.add_argument('--workdir')
    ap.add_argument('--max-report', type=int, default=20)
    ap.add_argument('--gpu', metavar='FILE')
    ap.add_argument('--threads', type=int, default=16, help='GPU mode: input sets per call')
    ap.add_argument('--emit', metavar='FILE', help='only write the calls (both kernels) to FILE')
    args = ap.parse_args()
    forms = load_forms(os.path.join(args.build, 'bin', 'tileapply-opcodes'))
    if args.emit:
        write_cu(args.emit, generate(forms, args.seed, args.count, False), args.seed)
        return 0
    if args.gpu:
        return gpu_mode(args, forms)
    return ptx_mode(args, forms, root)


if __name__ == '__main__':
    sys.exit(main())
