#!/usr/bin/env python3
"""The summary of scripts/gpu-scatter-round7.sh: every row, then this round's targets with the ratio reached, met
or not: f32 (D = 64, E = 8 M, V = 1 M) uniform keys at 0.7x the copy ceiling by the default (auto) and 3x
PyTorch's index_add_ in the same call; the weighted bincount (u32, D = 1, E = 64 M) with 2^20 bins at 0.3x the
ceiling on uniform and zipf keys, with 2^24 bins at 2x the native atomic variant, both at 5x CUB's HistogramEven
(CUB counts the keys, without weights: the ratio is CUB's time over ours, our rows doing more work); the part
sweep over ranges on uniform keys.

usage: gpu-scatter-round7-summary.py OUT
"""
import glob
import os
import sys

import scatter_rows
from scatter_rows import ms, verdict

o = sys.argv[1]
for p in sorted(glob.glob(os.path.join(o, "check-*.json"))):
    name = os.path.basename(p)[:-5]
    scatter_rows.table(f"check on CUDA, E = 300 K, D = 1 ({name})", scatter_rows.rows(o, name + ".json"), details=True)
for name, how in (("f32", "the default"), ("f32-l2", "--part-prefetch l2")):
    f32 = scatter_rows.rows(o, name + ".json")
    if not f32:
        continue
    scatter_rows.table(f"f32, D = 64, E = 8 M, V = 1 M: {how} ({name})", f32, details=True)
    auto = {d: r for (d, v), r in scatter_rows.by(f32, with_ceiling=False).items() if v == "auto"}
    print(f"TARGET auto ({how}) at 0.7x the copy ceiling, per distribution")
    for d, r in auto.items():
        print(f"  {d:10s} {ms(r):8.3f} ms  {verdict(r.get('ratio_to_ceiling', 0), 0.7)}")
    doc = scatter_rows.torch_table(o, {d: ms(r) for d, r in auto.items()})
    for x in doc["results"] if doc and "uniform" in auto else ():
        if x["dist"] == "uniform" and x["op"] == "index_add_":
            print(f"TARGET uniform: 3x index_add_ (auto, {how}, {ms(auto['uniform']):.3f} ms, PyTorch "
                  f"{x['median_ms']:.3f} ms): {verdict(x['median_ms'] / ms(auto['uniform']), 3)}")

for bins, name in ((20, "bincount-2e20"), (24, "bincount-2e24")):
    rs = scatter_rows.rows(o, name + ".json")
    extras = [f"{name}-cache", f"{name}-c8"] + sorted(os.path.basename(p)[:-5] for p in glob.glob(
        os.path.join(o, "split*-w*.json"))) if bins == 20 else []
    for extra in extras:  # dsm with its key cache, over a cluster of 8, the table beside the L2 (--dsm-beyond global)
        rs += [dict(r, variant=r["variant"] + "-" + extra.replace(name + "-", ""))
               for r in scatter_rows.rows(o, extra + ".json") if not r["variant"].endswith("copy-ceiling")]
    scatter_rows.table(f"weighted bincount, u32, D = 1, E = 64 M, 2^{bins} bins", rs, details=True)
    t = scatter_rows.by(rs, with_ceiling=False)
    for d in ("uniform", "zipf"):
        ours = [(ms(r), v) for (dd, v), r in t.items() if dd == d and v not in ("cub", "copy-ceiling")]
        if not ours:
            continue
        best_ms, best_v = min(ours)
        r = t[(d, best_v)]
        if bins == 20:
            print(f"TARGET 2^20 bins {d}: 0.3x the ceiling: {best_v} {best_ms:.3f} ms "
                  f"{verdict(r.get('ratio_to_ceiling', 0), 0.3)}")
        elif (d, "atomic") in t:
            print(f"TARGET 2^24 bins {d}: 2x the native atomic ({ms(t[(d, 'atomic')]):.3f} ms): {best_v} "
                  f"{best_ms:.3f} ms {verdict(ms(t[(d, 'atomic')]) / best_ms, 2)}")
        cub = [x for x in rs if x["variant"].endswith(f"/{d}/cub")]
        if (d, "cub") in t:
            print(f"TARGET 2^{bins} bins {d}: 5x CUB HistogramEven (counts, {ms(t[(d, 'cub')]):.3f} ms): {best_v} "
                  f"{verdict(ms(t[(d, 'cub')]) / best_ms, 5)}")
        else:
            print(f"TARGET 2^{bins} bins {d}: 5x CUB HistogramEven: CUB did not give a verified row: "
                  + (f"{cub[0]['status']}: {cub[0].get('reason', '')}" if cub else "no row"))

print("part on uniform keys, f32, D = 64 (ranges, work-group size, --part-prefetch)")
for p in sorted(glob.glob(os.path.join(o, "part-p*.json"))):
    for r in scatter_rows.rows(o, os.path.basename(p)):
        if r["variant"].endswith("/part") and r["status"] == "ok":
            print(f"  {os.path.basename(p)[:-5]:22s} {ms(r):8.3f} ms {r.get('ratio_to_ceiling', 0):6.3f}x  "
                  f"{'ok' if r['verified'] else 'NOT VERIFIED'}")
