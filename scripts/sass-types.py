#!/usr/bin/env python3
"""The float share of each kernel's global atomics, from ncu's source pages (issue [diagnose], round 5).

usage: sass-types.py PROGRAMS.csv SASS.csv... > types.csv

SASS.csv: `ncu --import R --csv --page source --print-source sass` of reports taken with --section SourceCounters
(scripts/gpu-diagnose-round5*.sh): per kernel a "Kernel Name" line, a header line ("Address","Source",...,
"Instructions Executed",...) and its instructions. A kernel's global atomics are its RED/REDG/ATOM/ATOMG
instructions (not ATOMS, shared), weighted by their executions; the float ones carry .F32. PROGRAMS.csv: the raw
export whose launches `atomlab model l2 --types` will model (scripts/diagnose-validation.py's merge: a
"program" column); its kernel names are written out (the source page demangles them differently: at::
namespaces and integer casts), so each types.csv line is a prefix of its launches. A file sass-NAME.csv speaks
for the launches of the program NAME (or the longest program name NAME starts with): atomlab's own kernels share
names across types (rmw, histogram), so a page is not applied to another program's kernels of its name.
"""
import os
import csv
import re
import sys

ATOMIC = re.compile(r"^(REDG|RED|ATOMG|ATOM)\.(\S+)")


def norm(name):
    """the name up to its first parenthesis, without at:: and detail:: and integer casts, which one page drops"""
    name = name.replace("at::", "").replace("detail::", "")
    name = re.sub(r"\((?:[A-Za-z_][\w:]*)\)(?=-?\d)", "", name)
    return re.sub(r"\s+", " ", name).strip().split("(")[0]


def shares(paths):
    out = {}
    for path in paths:
        kernel, cols = None, None
        for row in csv.reader(open(path, newline="")):
            if not row:
                continue
            if row[0] == "Kernel Name":
                kernel, cols = row[1], None
                continue
            if row[0] == "Address":
                cols = {c: i for i, c in enumerate(row)}
                continue
            if kernel is None or cols is None or "Source" not in cols:
                continue
            m = ATOMIC.match(row[cols["Source"]].strip())
            if not m:
                continue
            cell = row[cols["Instructions Executed"]] if "Instructions Executed" in cols else "1"
            n = float((cell or "0").replace(",", "") or 0)
            tot = out.setdefault(norm(kernel), [0.0, 0.0])
            tot[0] += n
            tot[1] += n if ".F32" in m.group(2) else 0
    return {k: f / t for k, (t, f) in out.items() if t > 0}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    names = {}
    for row in csv.DictReader(open(sys.argv[1], newline="")):
        n, prog = row.get("Kernel Name", ""), row.get("program", "")
        if n and prog and n not in names.setdefault(prog, []):
            names[prog].append(n)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["kernel", "f32_share"])
    done = set()
    for path in sys.argv[2:]:
        tag = os.path.basename(path)[len("sass-"):-len(".csv")]
        progs = sorted((p for p in names if tag == p or tag.startswith(p + "-")), key=len)
        if not progs:
            continue
        s = shares([path])
        for n in names[progs[-1]]:
            key = norm(n)
            hit = [v for k, v in s.items() if k == key or k.startswith(key) or key.startswith(k)]
            if hit and n not in done:
                done.add(n)
                w.writerow([n, f"{hit[0]:.4f}"])


if __name__ == "__main__":
    main()
