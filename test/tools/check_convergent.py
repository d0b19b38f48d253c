#!/usr/bin/env python3
"""Fails unless every inline-asm call of an LLVM IR file is `convergent`.

usage: check_convergent.py FILE.ll MIN
Reads the attribute groups (`attributes #N = { ... }`) and every `call ... asm
... #N`; exits 1 if fewer than MIN asm calls are found or any one's group
lacks `convergent`.
"""
import re
import sys

text = open(sys.argv[1]).read()
groups = dict(re.findall(r"^attributes #(\d+) = \{(.*)\}", text, re.M))
calls = re.findall(r"call [^\n]*asm [^\n]*#(\d+)", text)
lacking = [n for n in calls if "convergent" not in groups.get(n, "").split()]
if len(calls) < int(sys.argv[2]) or lacking:
    sys.exit("asm calls: %d (want at least %s); without convergent: %s" % (len(calls), sys.argv[2], lacking))
print("asm calls", len(calls), "all convergent")
