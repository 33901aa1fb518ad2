#!/usr/bin/env python3
"""The stable headers keep layouts that may change out of programs' memory.

The stable headers are those CMakeLists.txt names in ATL_STABLE_HEADERS (the ones whose functions
libatomlab.so.1 exports). A struct a program declares itself is part of the ABI, byte for byte, so none of them may
define a struct holding a fixed-size array, directly or through a struct it embeds by value: such limits (how many
values a row holds, how long a text is) belong behind an incomplete type and functions, as struct atl_row is
(result.h, with its layout in the experimental row_layout.h). The structs that still hold one are listed in
abi-arrays-allow.txt, a list that only shrinks: a struct not on it fails, and so does an entry whose struct no longer
holds an array. struct atl_row, atl_value and atl_metric are never allowed.

usage: stable_abi.py SOURCE_DIR
"""
import os
import re
import sys

RULES = os.path.dirname(os.path.abspath(__file__))
NEVER = ("atl_row", "atl_value", "atl_metric")


def stable_headers(src):
    text = open(os.path.join(src, "CMakeLists.txt"), encoding="utf-8").read()
    m = re.search(r"set\(ATL_STABLE_HEADERS\s+([^)]*)\)", text)
    if m is None:
        sys.exit("stable_abi: CMakeLists.txt sets no ATL_STABLE_HEADERS")
    return m.group(1).split()


def structs(text):
    """Each struct defined in @text: name -> (arrays, struct types embedded by value)."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)
    out = {}
    for m in re.finditer(r"\bstruct\s+(\w+)\s*\{", text):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        body = text[m.end():i - 1]
        arrays = re.findall(r"(\w+)\s*\[[^\]]+\]\s*[;,]", body)
        embedded = re.findall(r"\bstruct\s+(\w+)\s+\w+\s*(?:\[[^\]]*\]\s*)?;", body)
        out[m.group(1)] = (arrays, embedded)
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    defined, where = {}, {}
    for h in stable_headers(src):
        for name, info in structs(open(os.path.join(src, "include/atomlab", h + ".h"), encoding="utf-8").read()).items():
            defined[name], where[name] = info, h + ".h"

    def holds_array(name, seen=()):
        arrays, embedded = defined.get(name, ([], []))
        return bool(arrays) or any(e not in seen and holds_array(e, seen + (name,)) for e in embedded)

    allow = set()
    for line in open(os.path.join(RULES, "abi-arrays-allow.txt"), encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            allow.add(line)
    failures = []
    for name in sorted(defined):
        if name in NEVER:
            failures.append(f"{where[name]} defines struct {name}: its layout belongs in atomlab/row_layout.h")
        elif holds_array(name) and name not in allow:
            failures.append(f"{where[name]}: struct {name} holds a fixed-size array ({', '.join(defined[name][0]) or 'through a struct it embeds'}); "
                            "make it incomplete with functions to read it, or move it out of the stable headers")
    for name in sorted(allow):
        if name not in defined or not holds_array(name):
            failures.append(f"abi-arrays-allow.txt lists struct {name}, which no stable header defines with an array: remove the entry")
    for f in failures:
        print("FAIL: " + f)
    print(f"{len(defined)} structs in {len(stable_headers(src))} stable headers, {len(allow)} allowed to hold arrays, "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
