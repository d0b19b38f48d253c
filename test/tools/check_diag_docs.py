#!/usr/bin/env python3
"""Checks that docs/diagnostics.md documents every diagnostic code.

Every TA_DIAG(Code, ...) of core/include/tileapply/core/Diagnostics.def needs a
`### Code` section in docs/diagnostics.md, and that section needs either an
example block marked `expect-error` / `expect-warning` / `expect-host-error`
(doc-blocks.test compiles it) or a reference to an existing lit test under
test/lit/ that covers it. A section for a code that no longer exists fails too.

Usage: check_diag_docs.py <repo root>. Prints one line per code and a summary.
"""
import os
import re
import sys


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    defs = open(os.path.join(root, "core/include/tileapply/core/Diagnostics.def")).read()
    codes = re.findall(r"^TA_DIAG\((\w+)\s*,\s*(\w+)", defs, re.M)
    doc = open(os.path.join(root, "docs/diagnostics.md")).read()
    parts = re.split(r"^### (\w+)[ \t]*$", doc, flags=re.M)
    sections = dict(zip(parts[1::2], parts[2::2]))
    bad = 0
    for code, sev in codes:
        text = sections.get(code)
        if text is None:
            print("FAIL %s: no '### %s' section in docs/diagnostics.md" % (code, code))
            bad += 1
            continue
        # The section ends at the next heading of any level.
        text = re.split(r"^#{1,3} ", text, flags=re.M)[0]
        example = re.search(r"<!--[^>]*expect-(?:host-)?(?:error|warning):", text)
        tests = [t for t in re.findall(r"([\w.-]+\.(?:ll|cu|test))", text)
                 if any(os.path.exists(os.path.join(root, "test/lit", d, t))
                        for d in ("pass", "plugin", "e2e", "docs"))]
        if sev == "Warning" and example and "expect-warning" not in example.group(0):
            print("FAIL %s: a warning, but its example expects an error" % code)
            bad += 1
        elif not example and not tests:
            print("FAIL %s: the section has no expect-* example and names no lit test" % code)
            bad += 1
        else:
            print("ok   %s (%s)" % (code, "example" if example else "lit: " + ", ".join(tests[:3])))
    known = {c for c, _ in codes}
    for extra in sorted(set(sections) - known):
        print("FAIL %s: documented, but not in Diagnostics.def" % extra)
        bad += 1
    print("%d diagnostics documented, %d problems" % (len(codes), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
