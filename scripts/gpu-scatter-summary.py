#!/usr/bin/env python3
"""The summary of scripts/gpu-scatter.sh: every row of every step with its ratio to the copy ceiling,
PyTorch's times on the same inputs against atomlab's fastest verified variant and its det variant,
bf16 / f16 and i64 keys against f32 / i32 per element, and whether det gave one hash on every grid.

usage: gpu-scatter-summary.py OUT
"""
import json
import os
import sys
from functools import partial

import scatter_rows
from scatter_rows import ms

o = sys.argv[1]
rows = partial(scatter_rows.rows, o)  # rows(NAME): the rows of OUT/NAME
table = partial(scatter_rows.table, details=False)
by = partial(scatter_rows.by, with_ceiling=True)


ours = rows("scatter.json")
table("atomlab scatter f32 (GB/s of the fewest bytes, ratio to the copy ceiling, verified)", ours)
f32 = by(ours)
tp = os.path.join(o, "torch.json")
torch = json.load(open(tp))["results"] if os.path.exists(tp) else []
print("PyTorch on the same inputs (ms); speedup of atomlab's fastest verified variant, and of det")
for t in torch:
    best = min((ms(r) for (d, v), r in f32.items() if d == t["dist"] and v != "copy-ceiling"), default=0)
    det = f32.get((t["dist"], "det"))
    print(f"  {t['dist']:10s} {t['op']:26s} {t['median_ms']:10.3f} ms  best {best:8.3f} ms "
          f"{t['median_ms'] / best if best else 0:8.2f}x  det {ms(det) if det else 0:8.3f} ms "
          f"{t['median_ms'] / ms(det) if det else 0:8.2f}x  agrees: {t['agrees']}")
for t in ("bf16", "f16"):
    rs = rows(f"scatter-{t}.json")
    table(f"atomlab scatter {t}", rs)
    for (d, v), r in sorted(by(rs).items()):
        if (d, v) in f32:
            print(f"  {t}/{d}/{v}: {ms(r):.3f} ms against f32 {ms(f32[(d, v)]):.3f} ms: "
                  f"{ms(f32[(d, v)]) / ms(r):.2f}x f32's elements per second")
rs = rows("scatter-i64.json")
table("atomlab scatter, i64 keys", rs)
for (d, v), r in sorted(by(rs).items()):
    if (d, v) in f32:
        print(f"  i64/{d}/{v}: {ms(r):.3f} ms against i32 keys {ms(f32[(d, v)]):.3f} ms ({ms(r) / ms(f32[(d, v)]):.2f}x)")
print("det on three grids (--groups 0, 132, 4096): the output's hash per distribution")
hashes = {}
for g in (0, 132, 4096):
    for r in rows(f"det-groups-{g}.json")[1:]:
        hashes.setdefault(r["variant"], []).append((g, int(r.get("out_hash53", -1)), r["verified"]))
for v, hs in hashes.items():
    same = len({h for _, h, _ in hs}) == 1 and len(hs) == 3
    print(f"  {v:24s} {'bit-identical' if same else 'DIFFERENT'} on {len(hs)} grids, verified: "
          f"{all(ok for _, _, ok in hs)}  {[h for _, h, _ in hs]}")
for name in ("bincount-2e20.json", "bincount-2e24.json"):
    table(f"weighted bincount {name[9:-5]} bins", rows(name))
