#!/usr/bin/env python3
"""The summary of scripts/gpu-scatter-round4.sh: every row with its ratio to the copy ceiling; per distribution
the best verified variant against the issue's 0.7x target; the part variant at each number of ranges of keys;
atomlab's best against the CUB baseline and PyTorch's index_add_ and scatter_add_ on the same inputs (targets:
3x index_add_ on uniform keys, 20x on one hot row).

usage: gpu-scatter-round4-summary.py OUT
"""
import sys

import scatter_rows
from scatter_rows import ms

o = sys.argv[1]
DISTS = ("uniform", "zipf", "sorted", "clustered", "hot")

for name in ("check-f32.json", "check-u32.json", "check-bf16.json"):
    scatter_rows.table(f"check on CUDA, E = 300 K, V = 20 K ({name[6:-5]}, part over several ranges)",
                       scatter_rows.rows(o, name))
main = scatter_rows.rows(o, "f32.json")
scatter_rows.table("f32, D = 64, E = 8 M, V = 1 M (GB/s of the fewest bytes, ratio to the copy ceiling)", main,
                   details=True)
got = scatter_rows.by(main, with_ceiling=False)
parts = {}
for p in ("auto", 1, 4, 32):
    rs = scatter_rows.rows(o, f"part-{'auto' if p == 'auto' else f'p{p}'}.json")
    scatter_rows.table(f"part at --partitions {0 if p == 'auto' else p}", rs, details=True)
    parts[p] = scatter_rows.by(rs, with_ceiling=False)
    for r in rs:
        if p == "auto" and r["variant"].endswith("/part") and r["status"] == "ok":
            print(f"  part ran {int(r['partitions'])} ranges of keys (L2 {r['l2_bytes'] / 2**20:.0f} MiB)")
            break
print("part per number of ranges (ms, ratio to its run's copy ceiling; auto from the L2's size)")
auto_p = next((int(r["partitions"]) for r in parts["auto"].values() if "partitions" in r), 0)
for d in DISTS:
    cells = []
    for label, table in [(f"P={auto_p} (auto)" if p == "auto" else f"P={p}", parts[p]) for p in parts]:
        r = table.get((d, "part"))
        cells.append(f"{label} {ms(r):7.3f} ms {r.get('ratio_to_ceiling', 0):5.3f}x" if r else f"{label} -")
    print(f"  {d:10s} " + " | ".join(cells))
print("best verified variant per distribution against 0.7x the copy ceiling (auto left out; part at any P)")
best = {}
for d in DISTS:
    c = [(ms(r), v, r) for (dd, v), r in got.items() if dd == d and v != "auto"]
    c += [(ms(t[(d, "part")]), f"part P={int(t[(d, 'part')]['partitions'])}", t[(d, "part")])
          for t in parts.values() if (d, "part") in t]
    if not c:
        print(f"  {d:10s} no verified row")
        continue
    t, v, r = min(c, key=lambda x: x[0])
    best[d] = t
    ratio = r.get("ratio_to_ceiling", 0)
    before = [(ms(rr), vv) for (dd, vv), rr in got.items() if dd == d and vv != "auto"]
    b = min(before) if before else (0, "none")
    print(f"  {d:10s} {v:12s} {t:8.3f} ms {ratio:6.3f}x ceiling ({'met' if ratio >= 0.7 else 'not met'}); "
          f"best of the earlier variants {b[1]} {b[0]:.3f} ms: {b[0] / t if t else 0:5.2f}x faster")
    if (d, "auto") in got:
        a = got[(d, "auto")]
        print(f"  {'':10s} auto {ms(a):8.3f} ms: {a.get('reason', '')}")
cub = scatter_rows.rows(o, "cub.json")
scatter_rows.table("CUB baseline (radix sort of (key, row id), reduce-by-key of the rows, an add kernel)", cub,
                   details=True)
cubs = scatter_rows.by(cub, with_ceiling=False)
for d in DISTS:
    if d in best and (d, "cub") in cubs:
        print(f"  {d:10s} atomlab best {best[d]:8.3f} ms against CUB {ms(cubs[(d, 'cub')]):8.3f} ms: "
              f"{ms(cubs[(d, 'cub')]) / best[d]:6.2f}x")
doc = scatter_rows.torch_table(o, best)
if doc:
    for d, want in (("uniform", 3), ("hot", 20)):
        ia = [x for x in doc["results"] if x["dist"] == d and x["op"] == "index_add_"]
        if ia and d in best:
            s = ia[0]["median_ms"] / best[d]
            print(f"  target {d}: >= {want}x index_add_: {s:.2f}x ({'met' if s >= want else 'not met'})")
