#!/usr/bin/env python3
"""The tables of scripts/gpu-vulkan-explain.sh (issue 19), from the files of one run:

  gpu-vulkan-explain.py OUT [REF]   writes the summary to stdout (REF: the reference backend, cuda)

Each section says how to read it. Every number comes from the run's own files; nothing is assumed."""
import glob
import os
import re
import statistics
import sys

import atl_json
from atl_json import gops

OUT = sys.argv[1]
REF = sys.argv[2] if len(sys.argv) > 2 else "cuda"


def rows(name):
    """OUT/NAME.json's rows by cell (pattern, contention, padding), None without them."""
    rs = atl_json.step_rows(OUT, name)
    return None if rs is None else {(r["pattern"], r["contention"], r["padding"]): r for r in rs}


def ratio(a, b):
    return a / b if a and b else None


def fmt(x, w=8, d=1):
    return f"{x:{w}.{d}f}" if isinstance(x, (int, float)) else f"{'-':>{w}s}"


def e1():
    print("E1  same work (fixed iterations), order cuda, vulkan, cuda, vulkan; Gop/s")
    print("    read: v/c in both passes beyond 10% and c2/c1, v2/v1 near 1 -> the backends differ at equal work")
    print("    (the kernel or the memory it runs on); v/c that changes between passes, or c2/c1 / v2/v1 far from 1")
    print("    -> order, warm-up or the allocation, not the API.")
    persistent = flips = total = 0
    for g in "ABCD":
        t = {k: rows(f"e1-{g}-{k}") for k in (f"{REF}-1", "vulkan-1", f"{REF}-2", "vulkan-2")}
        if not t[f"{REF}-1"] or not t["vulkan-1"]:
            print(f"  group {g}: not measured")
            continue
        iters = next(iter(t[f"{REF}-1"].values())).get("iters")
        print(f"  group {g} ({iters} iterations)")
        print(f"    {'pattern':10s} {'c':>5s} {'p':>5s} {REF + '1':>8s} {'vulkan1':>8s} {REF + '2':>8s} {'vulkan2':>8s}"
              f" {'v1/c1':>6s} {'v2/c2':>6s} {'c2/c1':>6s} {'v2/v1':>6s}")
        for key in sorted(t[f"{REF}-1"]):
            v = [gops((t[k] or {}).get(key)) for k in (f"{REF}-1", "vulkan-1", f"{REF}-2", "vulkan-2")]
            r1, r2 = ratio(v[1], v[0]), ratio(v[3], v[2])
            total += 1
            if r1 and r2:
                out1, out2 = abs(r1 - 1) > 0.1, abs(r2 - 1) > 0.1
                persistent += out1 and out2 and (r1 > 1) == (r2 > 1)
                flips += out1 != out2
            print(f"    {key[0]:10s} {key[1]:5d} {key[2]:5d} " + " ".join(fmt(x) for x in v) + " " +
                  " ".join(fmt(x, 6, 2) for x in (r1, r2, ratio(v[2], v[0]), ratio(v[3], v[1]))))
    print(f"  {total} cells: {persistent} outside 10% in both passes (same side), {flips} outside in one pass only")


def e2():
    print("\nE2  timer: group A at 8x the iterations (launches 8x longer) against E1's group A")
    print("    read: a fixed per-launch timing offset shrinks 8x, so v/c moving toward 1 at 65536 -> timing method;")
    print("    v/c unchanged -> the kernel's rate.")
    a, b = rows(f"e2-{REF}"), rows("e2-vulkan")
    c1, v1 = rows(f"e1-A-{REF}-1"), rows("e1-A-vulkan-1")
    if not a or not b:
        print("  not measured")
        return
    print(f"    {'pattern':10s} {'c':>5s} {'p':>5s} {'v/c E1':>7s} {'v/c E2':>7s} {REF + ' ms':>8s} {'vk ms':>8s}")
    for key in sorted(a):
        r_long = ratio(gops(b.get(key)), gops(a.get(key)))
        r_short = ratio(gops((v1 or {}).get(key)), gops((c1 or {}).get(key)))
        ms = [((x or {}).get(key) or {}).get("time_ms", {}).get("median") for x in (a, b)]
        print(f"    {key[0]:10s} {key[1]:5d} {key[2]:5d} {fmt(r_short, 7, 3)} {fmt(r_long, 7, 3)} "
              f"{fmt(ms[0], 8, 2)} {fmt(ms[1], 8, 2)}")


def e4():
    print("\nE4  footprint against stride: contention 1, padding 1000 and 1024, fewer work-groups = smaller array")
    print("    read: v/c at padding 1024 rising toward 1 as the array shrinks -> address translation (page size,")
    print("    TLB reach of Vulkan's allocation); v/c flat -> not the footprint; 1000 unlike 1024 -> the")
    print("    power-of-two stride's mapping onto L2 slices or DRAM channels.")
    names = sorted({os.path.basename(p)[:-5].split("-w")[1] for p in glob.glob(os.path.join(OUT, f"e4-{REF}-w*.json"))},
                   key=int, reverse=True)
    if not names:
        print("  not measured")
        return
    print(f"    {'groups':>6s} {'pattern':10s} {'p':>5s} {'MB':>7s} {REF:>8s} {'vulkan':>8s} {'v/c':>6s}")
    for w in names:
        c, v = rows(f"e4-{REF}-w{w}"), rows(f"e4-vulkan-w{w}")
        for key in sorted(c or {}):
            r = (c or {}).get(key)
            mb = (r.get("array_words") or 0) * 4 / 1e6 if r else 0
            print(f"    {w:>6s} {key[0]:10s} {key[2]:5d} {mb:7.0f} {fmt(gops(r))} {fmt(gops((v or {}).get(key)))} "
                  f"{fmt(ratio(gops((v or {}).get(key)), gops(r)), 6, 2)}")


def e5():
    print("\nE5  clocks under each step (nvidia-smi every ~0.3 s; medians of the samples inside the step)")
    print("    read: a higher SM or memory clock under the Vulkan steps than under the CUDA steps explains a")
    print("    Vulkan advantage of about the clock ratio without any difference in the kernels.")
    try:
        marks = [l.split(None, 1) for l in open(os.path.join(OUT, "marks.txt")) if l.strip()]
        samples = []
        for l in open(os.path.join(OUT, "clocks.csv")).read().splitlines()[1:]:
            f = l.split(",")
            try:
                samples.append(tuple(float(x) for x in f[:5]))
            except ValueError:
                continue
    except OSError:
        print("  not measured")
        return
    per = {}
    for (t0, name), (t1, _) in zip(marks, marks[1:]):
        s = [x for x in samples if float(t0) <= x[0] < float(t1)]
        name = name.strip()
        if s:
            med = [statistics.median(x[i] for x in s) for i in (1, 2, 3)]
            print(f"    {name:22s} {len(s):3d} samples: SM {med[0]:6.0f} MHz, memory {med[1]:6.0f} MHz, {med[2]:6.1f} W")
            kind = REF if f"-{REF}" in name else "vulkan" if "-vulkan" in name else None
            if kind:
                per.setdefault(kind, []).extend(s)
    for kind, s in per.items():
        print(f"    all {kind} steps: SM {statistics.median(x[1] for x in s):6.0f} MHz, memory "
              f"{statistics.median(x[2] for x in s):6.0f} MHz, {statistics.median(x[3] for x in s):6.1f} W "
              f"({len(s)} samples)")


def e6():
    print("\nE6  placement: CUDA's own rate with the array placed several ways (build/placement rmw), Gop/s")
    print("    read: a spread across placements about as large as vulkan/cuda in E1 -> placement explains the cell;")
    print("    a spread of a few percent (compare malloc+0 with malloc+0-again: the noise) -> placement excluded.")
    p = os.path.join(OUT, "e6-placement.txt")
    if not os.path.exists(p):
        print("  not measured")
        return
    cell, lines = None, {}
    for l in open(p):
        f = l.split()
        if f[:1] == ["cell"]:
            cell = (f[1], int(f[2]), int(f[3]))
            lines[cell] = []
        elif f[:1] == ["placement"] and cell:
            lines[cell].append((f[1], float(f[3]) / 1000, f[7] == "1"))
    for cell, got in lines.items():
        e1 = {}
        for g in "ABCD":
            for b in (REF, "vulkan"):
                r = (rows(f"e1-{g}-{b}-1") or {}).get(cell)
                if r:
                    e1[b] = gops(r)
        base = got[0][1] if got else None
        print(f"  {cell[0]} c {cell[1]} p {cell[2]}: E1 {REF} {fmt(e1.get(REF))}, vulkan {fmt(e1.get('vulkan'))}, "
              f"v/c {fmt(ratio(e1.get('vulkan'), e1.get(REF)), 5, 2)}")
        for name, g, ok in got:
            print(f"    {name:15s} {g:8.1f}  x{g / base:5.3f}{'' if ok else '  NOT VERIFIED'}")
        if got:
            vals = [g for _, g, _ in got]
            print(f"    spread max/min {max(vals) / min(vals):5.3f}")


def e3():
    print("\nE3  instructions and clocks inside one launch (ncu), and the Vulkan driver's cache")
    print("    read: the atomic instructions per loop and their cache/scope suffixes of each backend side by side;")
    print("    'SM Frequency' / 'DRAM Frequency' are the clocks during the kernel.")
    for b in (REF, "vulkan"):
        p = os.path.join(OUT, f"ncu-{b}-sass.txt")
        if not os.path.exists(p):
            print(f"  {b}: no ncu output")
            continue
        text = open(p, errors="replace").read()
        atomics = [l.strip() for l in text.splitlines() if re.search(r"\b(RED|ATOM)[A-Z]*\.", l)]
        print(f"  {b}: {len(atomics)} atomic SASS lines" + ("" if atomics else f"; {text.strip()[-300:]}"))
        for l in atomics[:8]:
            print("     " + l[:160])
        d = os.path.join(OUT, f"ncu-{b}-details.txt")
        if os.path.exists(d):
            for l in open(d, errors="replace"):
                if re.search(r"SM Frequency|DRAM Frequency|Duration|Memory Throughput|Executed Instructions  ", l):
                    print("     " + " ".join(l.split())[:120])
    p = os.path.join(OUT, "vk-cache-sass.txt")
    if os.path.exists(p):
        print("  Vulkan driver cache: " + open(p).readline().strip())


print(f"Vulkan against {REF}: the experiments of scripts/gpu-vulkan-explain.sh ({OUT})")
try:
    print(open(os.path.join(OUT, "info.txt")).read().strip())
except OSError:
    pass
e1()
e2()
e4()
e6()
e5()
e3()
