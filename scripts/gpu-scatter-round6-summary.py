#!/usr/bin/env python3
"""The summary of scripts/gpu-scatter-round6.sh: the checks, every row, then the targets this round works on with
the ratio reached, met or not: zipf at 0.7x the copy ceiling (f32, D = 64, E = 8 M, V = 1 M), bf16 no slower per
element than f32 on zipf keys (the same elements: f32's best time / bf16's best), the deterministic variant at
0.4x the ceiling on every distribution, the weighted bincount with 2^20 bins at 0.3x the ceiling on uniform
keys. Each part row is labelled with its configuration (ranges, batch, seen table, warp's hot key).

usage: gpu-scatter-round6-summary.py OUT
"""
import sys

import scatter_rows
from scatter_rows import ms, verdict

o = sys.argv[1]


def label(name, r):
    """What a row ran: the step, the variant, and for part its ranges, batch, table and hot key"""
    v = r["variant"].split("/")[2]
    if "partitions" in r:
        v += f" P={int(r['partitions'])} b={int(r['part_batch'])}"
        v += " seen" if r.get("part_seen") else ""
        v += " hot" if r.get("part_hot") else ""
    return f"{name}:{v}"


def best(names, d, skip=("det", "copy-ceiling", "auto")):
    """(ms, label, row) of the fastest verified row of distribution D over the steps NAMES, or None"""
    c = []
    for n in names:
        for (dd, v), r in scatter_rows.by(scatter_rows.rows(o, n + ".json"), with_ceiling=False).items():
            if dd == d and v not in skip:
                c.append((ms(r), label(n, r), r))
    return min(c, key=lambda x: x[0]) if c else None


for name in ("check-f16", "check-det"):
    scatter_rows.table(f"check, E = 300 K, V = 20 K ({name[6:]})", scatter_rows.rows(o, name + ".json"))
F32, BF16 = ("f32", "f32-new", "f32-seen", "f32-hot"), ("bf16", "bf16-new")
print("zipf keys, D = 64, E = 8 M, V = 1 M, part in one range (ms, ratio to the copy ceiling of its own step)")
for name in F32 + BF16:
    for r in scatter_rows.rows(o, name + ".json"):
        if r["variant"].endswith("copy-ceiling"):
            continue
        note = "ok" if r["status"] == "ok" and r["verified"] else f"{r['status']} NOT VERIFIED: {r.get('reason', '')}"
        t = f"{ms(r):8.3f} ms {r.get('ratio_to_ceiling', 0):6.3f}x" if r["status"] == "ok" else ""
        print(f"  {label(name, r):40s} {t}  {note}")

print("TARGET zipf at 0.7x the copy ceiling, f32 (the best verified row)")
f32 = best(F32, "zipf")
if f32:
    print(f"  {f32[1]:40s} {f32[0]:8.3f} ms  {verdict(f32[2].get('ratio_to_ceiling', 0), 0.7)}")
print("TARGET bf16 no slower per element than f32 on zipf keys (f32's best time / bf16's best)")
bf = best(BF16, "zipf")
if f32 and bf:
    print(f"  bf16 {bf[1]} {bf[0]:.3f} ms, f32 {f32[1]} {f32[0]:.3f} ms: {verdict(f32[0] / bf[0], 1.0)}")

det = scatter_rows.rows(o, "det.json")
scatter_rows.table("det, f32, D = 64, E = 8 M, V = 1 M", det)
scatter_rows.det_targets(det)

bc = scatter_rows.rows(o, "bincount-rpw256.json")
scatter_rows.table("weighted bincount, u32, D = 1, E = 64 M, 2^20 bins, atomic at 256 rows a warp", bc)
b = best(("bincount-rpw256",), "uniform")
if b:
    print(f"TARGET 2^20 bins uniform: 0.3x the ceiling: {b[1]} {b[0]:.3f} ms {verdict(b[2].get('ratio_to_ceiling', 0), 0.3)}")
print("CUB HistogramEven: not run (it counts keys, no weights; the histogram app's u32 input stops at 65536 bins)")
