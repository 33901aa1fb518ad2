#!/usr/bin/env python3
"""The summary of scripts/gpu-scatter-round6.sh: the checks, every row, then the targets this round works on with
the ratio reached, met or not: bf16 no slower per element than f32 (the same elements: f32's best time / bf16's
best), zipf (and uniform, hot) at 0.7x the copy ceiling, 3x PyTorch's index_add_ on uniform keys, the weighted
bincount with 2^20 bins at 0.3x the ceiling on uniform keys. auto counts as a variant here (it runs part with
the configuration its rule picks; its reason says which).

usage: gpu-scatter-round6-summary.py OUT
"""
import os
import sys

import scatter_rows
from scatter_rows import ms

o = sys.argv[1]


def verdict(x, want):
    return f"{x:.3f}x (target {want}x: {'met' if x >= want else 'NOT met'})"


def label(name, r):
    """What a row ran: the variant, and for part (or auto running part) the table and batch"""
    v = r["variant"].split("/")[2]
    if "partitions" in r:
        v += f" P={int(r['partitions'])} b={int(r['part_batch'])}{' seen' if r.get('part_seen') else ''}"
        v += " hot" if r.get("part_hot") else ""
    return f"{name}:{v}"


def best(names, d, skip=("det", "copy-ceiling")):
    """(ms, label, row) of the fastest verified row of distribution D over the files NAMES, or None"""
    c = []
    for n in names:
        for (dd, v), r in scatter_rows.by(scatter_rows.rows(o, n + ".json"), with_ceiling=False).items():
            if dd == d and v not in skip:
                c.append((ms(r), label(n, r), r))
    return min(c, key=lambda x: x[0]) if c else None


for name in ("check-bf16", "check-bf16-seen", "check-f16", "check-f32-seen", "check-f32-hot", "check-bf16-hot", "check-det",
             "check-det-u32"):
    scatter_rows.table(f"check, E = 300 K, V = 20 K ({name[6:]})", scatter_rows.rows(o, name + ".json"))
F32, BF16 = ("f32", "f32-seen", "f32-hot", "f32-hot-b2", "f32-hot-seen"), ("bf16", "bf16-seen", "bf16-hot")
for name in BF16 + F32:
    scatter_rows.table(f"{name}, D = 64, E = 8 M, V = 1 M", scatter_rows.rows(o, name + ".json"), details=True)

print("TARGET 0.7x the copy ceiling, f32 (best verified non-deterministic row of the f32 steps)")
f32best = {}
for d in ("uniform", "zipf", "hot"):
    b = best(F32, d)
    if b:
        f32best[d] = b
        print(f"  {d:8s} {b[1]:40s} {b[0]:8.3f} ms  {verdict(b[2].get('ratio_to_ceiling', 0), 0.7)}")
    else:
        print(f"  {d:8s} no verified row")

print("TARGET bf16 no slower per element than f32 (f32's best time / bf16's best; the same elements)")
for d in ("uniform", "zipf", "hot"):
    b = best(BF16, d)
    if b and d in f32best:
        print(f"  {d:8s} bf16 {b[1]:40s} {b[0]:8.3f} ms, f32 {f32best[d][0]:.3f} ms: "
              f"{verdict(f32best[d][0] / b[0], 1.0)}")
    else:
        print(f"  {d:8s} no verified pair")

det = scatter_rows.rows(o, "det.json")
scatter_rows.table("det, f32, D = 64, E = 8 M, V = 1 M", det)
print("TARGET deterministic (det) at 0.4x the ceiling on every distribution (its radix passes / its sums)")
for (d, v), r in scatter_rows.by(det, with_ceiling=False).items():
    print(f"  {d:10s} {ms(r):8.3f} ms (sort {r.get('det_sort_ms', 0):.3f}, sum {r.get('det_sum_ms', 0):.3f})  "
          f"{verdict(r.get('ratio_to_ceiling', 0), 0.4)}")

doc = scatter_rows.torch_table(o, {d: b[0] for d, b in f32best.items()})
if doc and "uniform" in f32best:
    ia = [x for x in doc["results"] if x["dist"] == "uniform" and x["op"] == "index_add_"]
    if ia:
        print(f"TARGET uniform: 3x index_add_: {verdict(ia[0]['median_ms'] / f32best['uniform'][0], 3)}")

names = ("bincount-2e20", "bincount-2e20-rpw256", "bincount-2e20-rpw2048")
for n in names:
    scatter_rows.table(f"weighted bincount, u32, D = 1, E = 64 M, 2^20 bins ({n})", scatter_rows.rows(o, n + ".json"),
                       details=True)
b = best(names, "uniform")
if b:
    print(f"TARGET 2^20 bins uniform: 0.3x the ceiling: {b[1]} {b[0]:.3f} ms "
          f"{verdict(b[2].get('ratio_to_ceiling', 0), 0.3)}")
print("CUB HistogramEven: not run (it counts keys, no weights; the histogram app's u32 input stops at 65536 bins)")
