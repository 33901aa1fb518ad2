#!/usr/bin/env python3
"""The summary of scripts/gpu-scatlib-round8*.sh: the library test's output (scatter_lib.txt, where the call ran
it), then each atl_scatter_add timing (OUT/lib-*.json, tests/unit/scatter_lib_bench.c) beside the app's rows of
the same type, distribution and shape in the same call (OUT/app-*.json), with the library's device time over the
app's.

usage: gpu-scatlib-summary.py OUT
"""
import glob
import json
import os
import sys

import scatter_rows

o = sys.argv[1]
t = os.path.join(o, "scatter_lib.txt")
if os.path.exists(t):
    print("gpu_scatter_lib (tests/unit/scatter_lib.c --gpu):\n" + open(t).read())
app = [r for p in sorted(glob.glob(os.path.join(o, "app-*.json")))
       for r in scatter_rows.rows(o, os.path.basename(p)) if not r["variant"].endswith("copy-ceiling")]
for p in sorted(glob.glob(os.path.join(o, "lib-*.json"))):
    lines = open(p).read().strip().splitlines()
    if not lines:
        print(f"{os.path.basename(p)}: no row (the step's status is in info.txt)")
        continue
    x = json.loads(lines[-1])
    print(f"{os.path.basename(p)[:-5]}: atl_scatter_add {x['type']} D = {x['dim']} E = {x['rows']} V = {x['targets']} "
          f"{x['dist']}: {x['method']}, device {x['device_ms_median']:.3f} ms (min {x['device_ms_min']:.3f}), "
          f"wall {x['wall_ms_median']:.3f} ms a call"
          + (f" (the pick alone {x['pick_ms_median']:.3f} ms)" if "pick_ms_median" in x else "")
          + f", {x['wrong']} wrong")
    same = [r for r in app if r["variant"].split("/")[0] == x["type"] and r["variant"].split("/")[1] == x["dist"]
            and r.get("rows") == x["rows"] and r.get("dim") == x["dim"] and r.get("targets") == x["targets"]]
    for r in same:
        ok = r["status"] == "ok" and r["verified"]
        line = f"  app {r['variant']:26s} " + (f"{scatter_rows.ms(r):8.3f} ms" if ok else r["status"])
        if ok:
            line += f"  library / app (device time) {x['device_ms_median'] / scatter_rows.ms(r):.3f}"
        print(line + ("  (" + r.get("reason", "") + ")" if r["variant"].endswith("/auto") else ""))
    if not same:
        print("  no app row of this shape in the call")
