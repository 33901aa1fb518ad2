#!/usr/bin/env python3
"""The summary of scripts/gpu-scatter-round6b.sh: the det check, the det variant on every distribution against
0.4x the copy ceiling (with its radix passes' and sums' times), and auto on uniform and hot keys without and with
part's seen table.

usage: gpu-scatter-round6b-summary.py OUT
"""
import sys

import scatter_rows
from scatter_rows import ms, verdict

o = sys.argv[1]


scatter_rows.table("check, E = 300 K, V = 20 K (det on 7 groups of 1024)", scatter_rows.rows(o, "check-det.json"))
det = scatter_rows.rows(o, "det.json")
scatter_rows.table("det, f32, D = 64, E = 8 M, V = 1 M", det)
scatter_rows.det_targets(det)
for name in ("auto", "auto-seen"):
    scatter_rows.table(f"f32 {name}, D = 64, E = 8 M, V = 1 M", scatter_rows.rows(o, name + ".json"), details=True)
a, s = (scatter_rows.by(scatter_rows.rows(o, n + ".json"), with_ceiling=False) for n in ("auto", "auto-seen"))
for k in sorted(set(a) & set(s)):
    print(f"  {k[0]:8s} recur {ms(a[k]):.3f} ms, seen {ms(s[k]):.3f} ms: seen / recur time {ms(s[k]) / ms(a[k]):.3f}")
