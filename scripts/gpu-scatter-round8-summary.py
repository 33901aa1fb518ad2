#!/usr/bin/env python3
"""The summary of scripts/gpu-scatter-round8.sh (calls 1 to 3) and round9.sh (its checks first): every row of each step (f32, D = 64, E = 8 M, V = 1 M,
uniform keys), then each part / sweep / auto row against the default of the same call (auto with i32 keys,
f32-i32.json), the part row of its own step (part's 11 launches: the default before round 8), the copy ceiling
(target 0.7x) and PyTorch's index_add_ on the same inputs (target 3x: PyTorch's time / ours).

usage: gpu-scatter-round8-summary.py OUT
"""
import glob
import json
import os
import sys

import scatter_rows
from scatter_rows import ms, verdict

o = sys.argv[1]
steps = ["f32-i32", "f32-i32-bulk", "f32-i64", "f32-p13", "f32-wg512", "f32-p9"]
steps += sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(o, "f32-*.json"))
                if os.path.basename(p)[:-5] not in steps)
for p in sorted(glob.glob(os.path.join(o, "check-*.json"))):  # round 9's small checks: every row ok and verified
    rs = json.load(open(p))["rows"]
    bad = [r["config"]["variant"] for r in rs if not (r["status"] == "ok" and r.get("verified"))]
    print(f"{os.path.basename(p)}: {len(rs)} rows, {'all verified' if rs and not bad else 'NOT verified: ' + str(bad)}")
torch_ms = torch32_ms = None
tp = os.path.join(o, "torch.json")
if os.path.exists(tp):
    doc = json.load(open(tp))
    for x in doc["results"]:
        print(f"PyTorch {doc['torch']} ({doc['device']}) uniform {x['op']:14s} {x['median_ms']:8.3f} ms  "
              f"agrees with atomlab: {x['agrees']}")
        if x["op"] == "index_add_" and x["agrees"]:
            torch_ms = x["median_ms"]
        if x["op"] == "index_add_ int32" and x["agrees"]:
            torch32_ms = x["median_ms"]
else:
    print("PyTorch: no torch.json (the step did not run or failed; info.txt says why)")

default = None
default_i64 = None
measured = []  # (step, row)
part_of = {}  # step -> its part row
for name in steps:
    rs = scatter_rows.rows(o, name + ".json")
    if not rs:
        continue
    scatter_rows.table(f"{name}", rs, details=True)
    for r in rs:
        if r["status"] == "ok" and r["verified"] and r["variant"].split("/")[-1] in ("auto", "part", "sweep"):
            measured.append((name, r))
            if name == "f32-i32" and r["variant"].endswith("/auto"):
                default = r
            if name == "f32-i64" and r["variant"].endswith("/auto"):
                default_i64 = r
            if r["variant"].endswith("/part"):
                part_of[name] = r

print("\npart / sweep / auto on uniform keys (ms, x the step's copy ceiling, against the default auto of f32-i32 "
      "and PyTorch's index_add_)")
for name, r in measured:
    how = (f"P={int(r.get('partitions', 0))} bulk={int(r.get('part_bulk', 0))} sweep={int(r.get('part_sweep', 0))} "
           f"prefetch={int(r.get('part_prefetch', 0))} narrow={int(r.get('part_narrow', 0))} "
           f"split={int(r.get('part_split', 0))} group={int(r.get('part_group', 0))}" if "partitions" in r else "(auto: " + r.get("reason", "") + ")")
    vs = f"{ms(default) / ms(r):6.3f}x the default" if default else ""
    pt = f"{torch_ms / ms(r):5.2f}x PyTorch" if torch_ms else ""
    vp = f"{ms(part_of[name]) / ms(r):6.3f}x its step's part" if name in part_of else ""
    print(f"  {name:13s} {r['variant']:22s} {ms(r):7.3f} ms {r.get('ratio_to_ceiling', 0):6.3f}x  {vs}  {vp}  {pt}  "
          f"{how}")
if measured:
    name, best = min(measured, key=lambda x: ms(x[1]))
    print(f"TARGET 0.7x the copy ceiling, best row ({name} {best['variant']}): "
          f"{verdict(best.get('ratio_to_ceiling', 0), 0.7)}")
    if default:
        print(f"TARGET 0.7x the copy ceiling, the default (f32-i32 auto, {ms(default):.3f} ms): "
              f"{verdict(default.get('ratio_to_ceiling', 0), 0.7)}")
    if torch_ms:
        print(f"TARGET 3x PyTorch index_add_ ({torch_ms:.3f} ms), best row ({name} {best['variant']}, "
              f"{ms(best):.3f} ms): {verdict(torch_ms / ms(best), 3)}")
        if default:
            print(f"TARGET 3x PyTorch index_add_, the default ({ms(default):.3f} ms): "
                  f"{verdict(torch_ms / ms(default), 3)}")
        if default_i64:
            print(f"TARGET 3x PyTorch index_add_, the default with i64 keys ({ms(default_i64):.3f} ms): "
                  f"{verdict(torch_ms / ms(default_i64), 3)}")
    if torch32_ms and default:
        print(f"TARGET 3x PyTorch index_add_ with int32 indices ({torch32_ms:.3f} ms), the default with i32 keys "
              f"({ms(default):.3f} ms): {verdict(torch32_ms / ms(default), 3)}")
    for name, r in measured:  # the later steps' repeats of the default
        if name.startswith("f32-i") and name.endswith("-again") and r["variant"].endswith("/auto") and torch_ms:
            print(f"TARGET 3x PyTorch index_add_ (int64 indices), {name} auto ({ms(r):.3f} ms): "
                  f"{verdict(torch_ms / ms(r), 3)}")
