#!/usr/bin/env python3
"""The summary of scripts/gpu-scatter-round5.sh: the checks; the part variant per configuration (how its
launches find their rows, ranges, batch) on uniform, zipf and hot keys; every f32 row; then each of the issue's
targets with the ratio reached, met or not: 0.7x the copy ceiling per distribution, 3x PyTorch's index_add_ on
uniform keys and 20x on a hot row, the deterministic variant at 0.4x the ceiling everywhere and 50x PyTorch's
deterministic index_add_ on zipf keys, bf16 no slower per element than f32, the weighted bincount at 0.3x the
ceiling with 2^20 bins (uniform, zipf) and 2x the native atomic with 2^24.

usage: gpu-scatter-round5-summary.py OUT
"""
import glob
import os
import sys

import scatter_rows
from scatter_rows import ms, verdict

o = sys.argv[1]
DISTS = ("uniform", "zipf", "sorted", "clustered", "hot")


def best_of(table, d, skip=("auto",)):
    """(time, variant, row) of the fastest verified row of distribution D, or None."""
    c = [(ms(r), v, r) for (dd, v), r in table.items() if dd == d and v not in skip]
    return min(c, key=lambda x: x[0]) if c else None


for name in ("check-f32", "check-u32", "check-bf16", "check-d1", "check-opencl"):
    scatter_rows.table(f"check, E = 300 K, V = 20 K ({name[6:]})", scatter_rows.rows(o, name + ".json"))

# the part configurations: file part-HOW-pP-bB.json (uniform) and head-HOW-pP-bB.json (zipf, hot)
print("part per configuration, f32 D = 64 E = 8 M V = 1 M (ms, ratio to the copy ceiling of its own run)")
allbest = {}  # dist -> (ms, label, row): the best verified row of every f32 D = 64 step
cfg_rows = {}
for path in sorted(glob.glob(os.path.join(o, "part-*.json")) + glob.glob(os.path.join(o, "head-*.json"))):
    label = os.path.basename(path)[:-5]
    for r in scatter_rows.rows(o, os.path.basename(path)):
        if not r["variant"].endswith("/part"):
            continue
        d = r["variant"].split("/")[1]
        if r["status"] != "ok" or not r["verified"]:
            print(f"  {label:24s} {d:8s} {r['status']} {'verified' if r['verified'] else 'NOT VERIFIED'}: "
                  f"{r.get('reason', '')}")
            continue
        cfg_rows.setdefault(label, {})[d] = r
        print(f"  {label:24s} {d:8s} {ms(r):8.3f} ms {r.get('ratio_to_ceiling', 0):6.3f}x  "
              f"P={int(r['partitions'])} bucketed={int(r['part_bucketed'])} batch={int(r['part_batch'])}")
        if d not in allbest or ms(r) < allbest[d][0]:
            allbest[d] = (ms(r), "part " + label, r)

main = scatter_rows.rows(o, "f32.json")
scatter_rows.table("f32, D = 64, E = 8 M, V = 1 M, every distribution", main, details=True)
got = scatter_rows.by(main, with_ceiling=False)
for d in DISTS:
    b = best_of(got, d, skip=("auto", "det"))
    if b and (d not in allbest or b[0] < allbest[d][0]):
        allbest[d] = b

print("TARGET 0.7x the copy ceiling (best verified non-deterministic row of any step)")
for d in DISTS:
    if d not in allbest:
        print(f"  {d:10s} no verified row")
        continue
    t, v, r = allbest[d]
    print(f"  {d:10s} {v:28s} {t:8.3f} ms  {verdict(r.get('ratio_to_ceiling', 0), 0.7)}")
    if (d, "auto") in got:
        a = got[(d, "auto")]
        print(f"  {'':10s} auto {ms(a):8.3f} ms {a.get('ratio_to_ceiling', 0):6.3f}x: {a.get('reason', '')}")

print("TARGET deterministic (det) at 0.4x the ceiling on every distribution")
for d in DISTS:
    r = got.get((d, "det"))
    print(f"  {d:10s} " + (f"{ms(r):8.3f} ms  {verdict(r.get('ratio_to_ceiling', 0), 0.4)}" if r else
                           "no verified row"))

doc = scatter_rows.torch_table(o, {d: b[0] for d, b in allbest.items()})
if doc:
    for d, want in (("uniform", 3), ("hot", 20)):
        ia = [x for x in doc["results"] if x["dist"] == d and x["op"] == "index_add_"]
        if ia and d in allbest:
            print(f"TARGET {d}: {want}x index_add_: {verdict(ia[0]['median_ms'] / allbest[d][0], want)}")
    dz = [x for x in doc["results"] if x["dist"] == "zipf" and x["op"] == "index_add_ deterministic"]
    if dz and ("zipf", "det") in got:
        print(f"TARGET zipf: det 50x PyTorch's deterministic index_add_: "
              f"{verdict(dz[0]['median_ms'] / ms(got[('zipf', 'det')]), 50)}")

bf = scatter_rows.rows(o, "bf16.json")
scatter_rows.table("bf16, D = 64, E = 8 M, V = 1 M", bf, details=True)
bfs = scatter_rows.by(bf, with_ceiling=False)
print("TARGET bf16 no slower per element than f32 (the same elements: f32's best time / bf16's best)")
for d in ("uniform", "zipf", "hot"):
    b = best_of(bfs, d)
    if b and d in allbest:
        print(f"  {d:10s} bf16 {b[1]:8s} {b[0]:8.3f} ms, f32 {allbest[d][1]} {allbest[d][0]:.3f} ms: "
              f"{verdict(allbest[d][0] / b[0], 1.0)}")

bins = {}
for name in ("bincount-2e20", "bincount-2e24", "bincount-2e24-p6", "bincount-2e24-bucket"):
    rs = scatter_rows.rows(o, name + ".json")
    scatter_rows.table(f"weighted bincount, u32, D = 1, E = 64 M ({name})", rs, details=True)
    for k, r in scatter_rows.by(rs, with_ceiling=False).items():
        key = (name[:13],) + k
        if k[1] != "part" or key not in bins or ms(r) < ms(bins[key]):
            bins[key] = r
for d in ("uniform", "zipf"):
    b = best_of({k[1:]: r for k, r in bins.items() if k[0] == "bincount-2e20"}, d)
    if b:
        print(f"TARGET 2^20 bins {d}: 0.3x the ceiling: {b[1]} {b[0]:.3f} ms "
              f"{verdict(b[2].get('ratio_to_ceiling', 0), 0.3)}")
    t24 = {k[1:]: r for k, r in bins.items() if k[0] == "bincount-2e24"}
    b = best_of(t24, d, skip=("auto", "atomic"))
    if b and (d, "atomic") in t24:
        print(f"TARGET 2^24 bins {d}: 2x the atomic variant: {b[1]} {b[0]:.3f} ms against "
              f"{ms(t24[(d, 'atomic')]):.3f}: {verdict(ms(t24[(d, 'atomic')]) / b[0], 2)}")
print("CUB HistogramEven: not run (it counts keys; the plugin has no weighted form for the bincount's u32 weights)")
