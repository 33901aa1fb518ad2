#!/usr/bin/env python3
"""The summary of scripts/gpu-scatter-bf16.sh: every row with its ratio to the copy ceiling; bf16 and f16
against f32 per element (the same E x D elements, so the ratio of times), variant by variant and best
against best per distribution; the weighted bincount's best verified variant per distribution against the
issue's targets (2^20 bins: 0.3x the ceiling; 2^24 bins: 2x the atomic variant) and what auto ran.

usage: gpu-scatter-bf16-summary.py OUT
"""
import sys
from functools import partial

import scatter_rows
from scatter_rows import ms

o = sys.argv[1]
rows = partial(scatter_rows.rows, o)  # rows(NAME): the rows of OUT/NAME
table = partial(scatter_rows.table, details=True)
by = partial(scatter_rows.by, with_ceiling=False)


def best(rows_by, dist, skip=("auto",)):
    c = [(ms(r), v) for (d, v), r in rows_by.items() if d == dist and v not in skip]
    return min(c) if c else (0, "none")


f32 = by(rows("f32.json"))
for t in ("f32", "bf16", "f16"):
    table(f"{t}, D = 64, E = 8 M, V = 1 M (GB/s of the fewest bytes, ratio to the copy ceiling of {t})",
          rows(f"{t}.json"))
for t in ("bf16", "f16"):
    got = by(rows(f"{t}.json"))
    print(f"{t} against f32 per element (f32's time / {t}'s time: >= 1 means no slower per element)")
    for (d, v), r in sorted(got.items()):
        if (d, v) in f32:
            print(f"  {d:8s} {v:8s} {ms(r):9.3f} ms against {ms(f32[(d, v)]):9.3f} ms: "
                  f"{ms(f32[(d, v)]) / ms(r):5.2f}x")
    for d in ("uniform", "zipf", "hot"):
        (bt, bv), (ft, fv) = best(got, d), best(f32, d)
        if bt and ft:
            print(f"  best {d:8s} {t} {bv} {bt:.3f} ms against f32 {fv} {ft:.3f} ms: {ft / bt:5.2f}x "
                  f"({'met' if ft / bt >= 1 else 'not met'})")
for name, target in (("bincount-2e20.json", "0.3x the ceiling"), ("bincount-2e24.json", "2x the atomic variant")):
    rs = rows(name)
    table(f"weighted bincount, {name[9:-5]} bins, D = 1, u32, E = 64 M (target {target})", rs)
    got = by(rs)
    for d in ("uniform", "zipf", "hot"):
        bt, bv = best(got, d)
        if not bt:
            continue
        r = got[(d, bv)]
        at = got.get((d, "atomic"))
        print(f"  best {d:8s} {bv:7s} {bt:8.3f} ms {r.get('ratio_to_ceiling', 0):6.3f}x ceiling, "
              f"{ms(at) / bt if at else 0:5.2f}x the atomic variant")
print("the rows bins' work-groups take at a time at 2^20 bins (--bin-rows)")
for n, name in ((1024, "bin-rows-1024.json"), (4096, "bincount-2e20.json"), (16384, "bin-rows-16384.json")):
    for (d, v), r in sorted(by(rows(name)).items()):
        if v == "bins":
            print(f"  {n:7d} {d:8s} {ms(r):8.3f} ms {r.get('ratio_to_ceiling', 0):6.3f}x ceiling")
