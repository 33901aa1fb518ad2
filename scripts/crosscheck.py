#!/usr/bin/env python3
"""Same-GPU cross-check of two atomlab rmw result files (e.g. CUDA and OpenCL).

Rows are matched by configuration (pattern, op, type, space, result, scope,
order, contention, padding); for each match the ratio of throughputs and the
instructions each backend emitted are compared. Writes a Markdown report.

usage: crosscheck.py A.json B.json [--tolerance 0.10] [-o report.md]
"""
import argparse
import json
import statistics
import sys

KEY = ("pattern", "op", "type", "space", "result", "scope", "order", "contention", "padding")
# Files written before scopes and orders existed measured the defaults.
DEFAULTS = {"scope": "device", "order": "relaxed"}


def load(path):
    with open(path) as f:
        d = json.load(f)
    rows = {}
    for r in d["rows"]:
        if r["status"] == "ok" and r["verified"]:
            rows[tuple(r.get(k, DEFAULTS.get(k, "")) for k in KEY)] = r
    return d, rows


def opcodes(instructions):
    """The atomic mnemonics without counts: what decides whether two kernels do the same work."""
    if not instructions or instructions.startswith("unknown"):
        return None
    return tuple(sorted(part.rsplit(" x", 1)[0] for part in instructions.split(", ")))


def iters_alike(a, b):
    """Whether two rows ran similar iteration counts (within 25%)."""
    return 0.8 <= a["iters"] / b["iters"] <= 1.25


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--tolerance", type=float, default=0.10)
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    da, ra = load(args.a)
    db, rb = load(args.b)
    if da["device"]["name"] != db["device"]["name"]:
        print("error: the files come from different devices: %s and %s" % (da["device"]["name"], db["device"]["name"]),
              file=sys.stderr)
        return 2
    common = sorted(set(ra) & set(rb))
    if not common:
        print("error: no configuration measured in both files", file=sys.stderr)
        return 2
    name_a, name_b = da["device"]["backend"], db["device"]["backend"]
    same, differ = [], []
    for k in common:
        a, b = ra[k], rb[k]
        ratio = a["gops"] / b["gops"] if b["gops"] else float("inf")
        entry = (k, a, b, ratio)
        (same if opcodes(a.get("instructions")) == opcodes(b.get("instructions")) and
         opcodes(a.get("instructions")) is not None else differ).append(entry)
    out = []
    w = out.append
    w("# Cross-check: %s vs %s on %s\n" % (name_a, name_b, da["device"]["name"]))
    w("Files: `%s` (%s, commit %s, %s) and `%s` (%s, commit %s, %s).\n" % (
        args.a, name_a, da["tool"]["commit"], da["date"], args.b, name_b, db["tool"]["commit"], db["date"]))
    w("%d configurations measured and verified in both. Ratio = %s Gop/s / %s Gop/s.\n" % (len(common), name_a, name_b))
    for title, group in (("Same atomic instructions emitted", same), ("Different or unknown instructions", differ)):
        if not group:
            continue
        ratios = [e[3] for e in group]
        inside = [e for e in group if abs(e[3] - 1) <= args.tolerance]
        w("## %s: %d configurations\n" % (title, len(group)))
        w("Median ratio %.3f, min %.3f, max %.3f; %d of %d (%.0f%%) within %.0f%%.\n" % (
            statistics.median(ratios), min(ratios), max(ratios), len(inside), len(group),
            100.0 * len(inside) / len(group), 100 * args.tolerance))
        # A row's throughput can depend on the iteration count it was
        # calibrated to (docs/crosscheck.md), and each backend calibrates on
        # its own: split the agreement by whether the counts were alike.
        w("| rows | iterations within 25% | iterations differ by more |")
        w("|---|---|---|")
        for label, pick in (("random pattern", lambda k: k[0] == "random"),
                            ("other patterns", lambda k: k[0] != "random")):
            cells = []
            for alike in (True, False):
                sub = [e for e in group if pick(e[0]) and iters_alike(e[1], e[2]) == alike]
                ok = sum(abs(e[3] - 1) <= args.tolerance for e in sub)
                cells.append("%d of %d within %.0f%%" % (ok, len(sub), 100 * args.tolerance))
            w("| %s | %s | %s |" % (label, cells[0], cells[1]))
        w("")
        outside = sorted((e for e in group if abs(e[3] - 1) > args.tolerance), key=lambda e: -abs(e[3] - 1))
        if outside:
            w("| pattern | op | cont | pad | %s Gop/s | %s Gop/s | ratio | %s iters | %s iters | %s instructions | %s instructions |" % (
                name_a, name_b, name_a, name_b, name_a, name_b))
            w("|---|---|---|---|---|---|---|---|---|---|---|")
            for k, a, b, ratio in outside:
                w("| %s | %s | %s | %s | %.2f | %.2f | %.3f | %d | %d | %s | %s |" % (
                    k[0], k[1], k[7], k[8], a["gops"], b["gops"], ratio, a["iters"], b["iters"],
                    a.get("instructions", ""), b.get("instructions", "")))
            w("")
    text = "\n".join(out) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
