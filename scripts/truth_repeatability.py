#!/usr/bin/env python3
"""The repeatability summary of an rmw grid measured with --repeat N (issue [truth], docs/method.md):

    truth_repeatability.py GRID.json [LABEL [CELLS.json]]

Cells within 5% of their median across repeats (the target: at least 95%), per op with the worst misses; for
--rounds R also repeats of one round (round k of every repeat, from the same visits); the median noise (target at
most 1%), the seconds per repeat (target at most 300) and, for --placements P, how far the placements' medians lie
apart (placement_spread). Only rows with every visit, ok and verified, are counted; the others are named. With
CELLS.json only the cells (op, pattern, contention, padding) that file has count: a sub-grid's cells in a full
grid. Files may be gzipped.
"""
import gzip
import json
import statistics
import sys


def within(values, tol=0.05):
    m = statistics.median_low(values)  # the kept repeat: the lower middle, as atomlab keeps it
    return all(abs(v - m) <= tol * m for v in values)


def load(path):
    return json.load(gzip.open(path) if path.endswith(".gz") else open(path))


def cell(c):
    return c["op"], c["pattern"], c["contention"], c["padding"]


def main(path, label, cells_path=None):
    d = load(path)
    only = {cell(r["config"]) for r in load(cells_path)["rows"]} if cells_path else None
    if only is not None:
        d["rows"] = [r for r in d["rows"] if cell(r["config"]) in only]
        label += f" (the {len(only)} cells of {cells_path})"
    s, st = d["summary"], d["settings"]
    R, N, P = st.get("rounds", 1), st["repeats"], st.get("placements", 1)
    print(f"== {label}: {s['rows']} rows, {s['rows_ok']} ok, {s['rows_verified']} verified, {s['rows_noisy']} noisy; "
          f"complete {d.get('complete')}; repeats {N} x rounds {R}, placements {P}; {st['target_ms']} ms launches, "
          f"{st['min_samples']}..{st['max_samples']} samples, budget {st['budget_s']} s")
    reps = s.get("repeat_seconds", [])
    print(f"elapsed {s['elapsed_s']:.1f} s; seconds per repeat: {', '.join(f'{x:.1f}' for x in reps)} "
          f"(target: at most 300)")
    print(f"median noise {100 * s.get('noise_median', float('nan')):.2f}% (target at most 1%), "
          f"largest {100 * s.get('noise_max', float('nan')):.1f}%")
    by, spreads = {}, {}
    for r in d["rows"]:
        c = r["config"]
        m = {x["name"]: x["value"] for x in r.get("metrics", [])}
        if "placement_spread" in m:
            spreads.setdefault(c["op"], []).append(m["placement_spread"])
        v = r.get("visits_ms", [])
        if r["status"] != "ok" or not r["verified"] or len(v) < N * R:
            o = by.setdefault(c["op"], {"cells": 0, "ok": 0, "one": [0] * R, "miss": []})
            o["incomplete"] = o.get("incomplete", 0) + 1
            continue
        groups = [v[g * R:(g + 1) * R] for g in range(N)]
        o = by.setdefault(c["op"], {"cells": 0, "ok": 0, "one": [0] * R, "miss": []})
        o["cells"] += 1
        rep = [statistics.median_low(g) for g in groups]  # a repeat's value: its median round
        # why a cell misses: noisy within its kept visit (a CAS loop's retries), or quiet and moved between visits
        kind = "noisy" if r["time_ms"]["noise"] > st.get("noise_threshold", 0.02) else "quiet"
        o.setdefault(kind, [0, 0])[0] += 1
        pat = o.setdefault("pattern", {}).setdefault(c["pattern"], [0, 0])
        pat[1] += 1
        if within(rep):
            o["ok"] += 1
            pat[0] += 1
        else:
            o[kind][1] += 1
            mid = statistics.median_low(rep)
            o["miss"].append((max(abs(x - mid) / mid for x in rep), c["pattern"], c["contention"], c["padding"],
                              m.get("placement_spread")))
        for k in range(R):
            o["one"][k] += within([g[k] for g in groups])
    tc = sum(o["cells"] for o in by.values())
    tk = sum(o["ok"] for o in by.values())
    print(f"cells within 5% of their median across repeats: {tk} of {tc} = {100 * tk / max(tc, 1):.1f}% "
          f"(target >= 95%)")
    for op, o in sorted(by.items()):
        line = f"  {op}: {o['ok']} of {o['cells']} = {100 * o['ok'] / max(o['cells'], 1):.1f}%"
        if R > 1:
            line += "; repeats of one round: " + ", ".join(f"{100 * x / max(o['cells'], 1):.1f}%" for x in o["one"])
        if o.get("incomplete"):
            line += f"; {o['incomplete']} rows without all their visits (stopped, failed or not verified)"
        print(line)
        print("    by pattern: " + ", ".join(f"{k} {v[0]} of {v[1]}" for k, v in sorted(o.get("pattern", {}).items())))
        for kind in ("noisy", "quiet"):
            n, miss = o.get(kind, [0, 0])
            print(f"    {kind} rows (kept visit's noise {'above' if kind == 'noisy' else 'within'} the threshold): "
                  f"{miss} of {n} miss")
        for dev, pat, c, p, ps in sorted(o["miss"], reverse=True)[:12]:
            extra = f", placement spread {100 * ps:.1f}%" if ps is not None else ""
            print(f"    miss {pat} c{c} p{p}: largest deviation {100 * dev:.1f}%{extra}")
    for op, x in sorted(spreads.items()):
        x = sorted(x)
        print(f"  {op} placement_spread over {len(x)} rows: median {100 * statistics.median(x):.1f}%, "
              f"90th percentile {100 * x[int(0.9 * (len(x) - 1))]:.1f}%, largest {100 * x[-1]:.1f}%")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else sys.argv[1], sys.argv[3] if len(sys.argv) > 3 else None)
