"""The summary of scripts/gpu-vulkan-round5.sh: python3 gpu-vulkan-round5.py OUT

Every grid file's rows verified (exit 1 when a row ran but did not verify, or a file is missing); the atomic
instructions each backend ran; the Vulkan / CUDA rate of every cell in both passes, with each API's own repeat
(the spread a cross-API difference has to exceed), and every cell outside 10% listed.
"""
import collections
import os
import sys

import atl_json

out = sys.argv[1]
RUNS = ("vulkan", "cuda", "opencl", "cuda-2", "vulkan-2")
grids, bad = {}, 0
print("rows verified (status ok and exact final memory):")
for run in RUNS:
    path = os.path.join(out, f"grid-{run}.json")
    if not os.path.exists(path):
        print(f"  {run:9s} missing")
        bad += 1
        continue
    rows = atl_json.load(path)["rows"]
    ok = [r for r in rows if r["status"] == "ok"]
    ver = [r for r in ok if r["verified"]]
    print(f"  {run:9s} {len(rows)} rows, {len(ok)} ok, {len(ver)} verified")
    for r in rows:
        if not (r["status"] == "ok" and r["verified"]):
            print(f"    NOT VERIFIED {r['pattern']} c{r['contention']} p{r['padding']}: {r['status']} {r['reason']}")
            bad += 1
    grids[run] = {(r["pattern"], r["contention"], r["padding"]): r for r in rows}

print("\ninstructions (distinct per backend, rows):")
for run in ("cuda", "opencl", "vulkan"):
    for text, n in collections.Counter(r.get("instructions", "") for r in grids.get(run, {}).values()).most_common():
        print(f"  {run:7s} x{n:3d} {text}")


def rate(run, cell):
    r = grids.get(run, {}).get(cell)
    return r["gops"] if r and r["status"] == "ok" and r.get("gops") else None


def ratio(a, b, cell):
    x, y = rate(a, cell), rate(b, cell)
    return y / x if x and y else None


cells = sorted(set(grids.get("cuda", {})) & set(grids.get("vulkan", {})))
fmt = lambda v: f"{v:6.2f}" if v is not None else "     -"
within = collections.Counter()
listed = []
for cell in cells:
    v1, v2 = ratio("cuda", "vulkan", cell), ratio("cuda-2", "vulkan-2", cell)
    for name, v in (("pass 1", v1), ("pass 2", v2)):
        if v is not None:
            within[name, abs(v - 1) <= 0.10] += 1
    if v1 is not None and v2 is not None:
        within["both", abs(v1 - 1) <= 0.10 and abs(v2 - 1) <= 0.10] += 1
    if any(v is not None and abs(v - 1) > 0.10 for v in (v1, v2)):
        listed.append(cell)
print("\nVulkan / CUDA rate (Gop/s) within 10%:")
for name in ("pass 1", "pass 2", "both"):
    n = within[name, True] + within[name, False]
    print(f"  {name}: {within[name, True]} of {n} cells")
print("\ncells outside 10% in either pass: Gop/s of pass 1 (cuda vulkan opencl), the ratios vulkan/cuda in pass 1 and"
      "\n2, each API's own repeat (cuda-2/cuda, vulkan-2/vulkan), opencl/cuda, and the iteration counts (cuda, vulkan)")
print(f"  {'pattern':11s} {'c':>5s} {'p':>5s} {'cuda':>8s} {'vulkan':>8s} {'opencl':>8s}  v/c-1  v/c-2  c2/c1  v2/v1"
      f"    o/c  iters")
for cell in listed:
    it = lambda run: grids.get(run, {}).get(cell, {}).get("iters", "-")
    g = [rate(run, cell) for run in ("cuda", "vulkan", "opencl")]
    print(f"  {cell[0]:11s} {cell[1]:5d} {cell[2]:5d} " + " ".join(f"{x:8.2f}" if x else "       -" for x in g) +
          f" {fmt(ratio('cuda', 'vulkan', cell))} {fmt(ratio('cuda-2', 'vulkan-2', cell))}"
          f" {fmt(ratio('cuda', 'cuda-2', cell))} {fmt(ratio('vulkan', 'vulkan-2', cell))}"
          f" {fmt(ratio('cuda', 'opencl', cell))}  {it('cuda')}/{it('vulkan')}")
sys.exit(1 if bad else 0)
