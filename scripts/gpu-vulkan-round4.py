#!/usr/bin/env python3
"""The tables of scripts/gpu-vulkan-round4.sh (issue 19, round 4) from its OUT folder.

usage: gpu-vulkan-round4.py OUT [REF]   (REF the reference backend, cuda by default)
"""
import glob
import os
import re
import sys
from functools import partial

import atl_json
from atl_json import gops

OUT = sys.argv[1]
REF = sys.argv[2] if len(sys.argv) > 2 else "cuda"
rows = partial(atl_json.step_rows, OUT)  # rows(NAME): the rows of OUT/NAME.json, None without them


def key(r):
    return (r["pattern"], r["op"], r["type"], r["space"], r["result"], r["scope"], r["contention"], r["padding"],
            r["workgroups"])


def fmt(v, w=8, p=1):
    return f"{v:{w}.{p}f}" if isinstance(v, (int, float)) else f"{'-':>{w}}"


def ratio(a, b):
    return a / b if a and b else None


def text(name):
    p = os.path.join(OUT, name)
    return open(p, errors="replace").read() if os.path.exists(p) else ""


print("Issue 19 round 4 (scripts/gpu-vulkan-round4.sh):", OUT)
print(text("info.txt").strip())

# R: the reproducer, a table of variant x op for the shared cases.
print("\nR  standalone reproducer (repro.txt): shared-memory cases, PASS/FAIL per variant and op")
lines = [l for l in text("repro.txt").splitlines() if re.match(r"^(shared|buffer)-", l)]
table, ops, modes = {}, [], []
for l in lines:
    m = re.match(r"^(shared|buffer)-(u32|u64|f32)-(add|and|or|xor)-(\S+)\s+(PASS|FAIL|SKIP)", l)
    if not m:
        continue
    space, t, op, mode, verdict = m.groups()
    col = f"{space[0]}:{t}-{op}"
    if col not in ops:
        ops.append(col)
    if mode not in modes:
        modes.append(mode)
    table[(mode, col)] = verdict
cols = [c for c in ops if c.startswith("s:")]
if table:
    print("    " + f"{'variant':<24}" + "".join(f"{c[2:]:>9}" for c in cols) + "   buffer-memory cases")
    for mode in modes:
        buf = [table.get((mode, c)) for c in ops if c.startswith("b:")]
        nfail = sum(v == "FAIL" for v in buf)
        print("    " + f"{mode:<24}" + "".join(f"{table.get((mode, c), '-'):>9}" for c in cols) +
              f"   {len(buf) - nfail} pass, {nfail} fail")
    tail = [l for l in text("repro.txt").splitlines() if "cases run" in l]
    print("    " + (tail[0] if tail else "(no summary line)"))
else:
    print("    (no repro.txt)")

# F: the 24 rows under each form.
print("\nF  the 24 shared-memory rows (u64 and/or/xor, f32 fetch_add; contiguous, cross-warp; c32) per loop-count form")
for form in ("buffer", "push", "subgroup", REF):
    rs = rows("forms-" + form)
    if rs is None:
        print(f"    {form:<9} (not run)")
        continue
    ok = [r for r in rs if r["status"] == "ok"]
    bad = [r for r in ok if not r["verified"]]
    print(f"    {form:<9} {len(ok)} rows ran, {len(ok) - len(bad)} verified, {len(bad)} not verified")
    for r in bad[:30]:
        print(f"        {r['pattern']:<10} {r['op']:<9} {r['type']} {r['result']:<6} {r['scope']:<6} {r['reason'][:90]}")

print("\n   pipeline executable statistics per form (executables-<form>.txt): registers / binary bytes")
stats = {}
for form in ("buffer", "push", "subgroup"):
    for blk in (text(f"executables-{form}.txt") + text(f"executables-shared-{form}.txt")).split("### ")[1:]:
        name = blk.split(":", 1)[0]
        reg = re.search(r"Register Count:\s*(\d+)", blk)
        size = re.search(r"Binary Size:\s*(\d+)", blk)
        stats[(name, form)] = f"{reg.group(1)}/{size.group(1)}" if reg and size else "-"
names = list(dict.fromkeys(n for n, _ in stats))
print(f"    {'kernel (u32 unless named)':<34} {'buffer':>10} {'push':>10} {'subgroup':>10}")
for n in names:
    print(f"    {n:<34} " + " ".join(f"{stats.get((n, f), '-'):>10}" for f in ("buffer", "push", "subgroup")))
if not names:
    print("    (no executables files)")

print("\n   the measured fetch_add kernel per form (cells-<form>.json; Gop/s, fixed iterations):")
cells = {f: {key(r): r for r in (rows("cells-" + f) or [])} for f in ("buffer", "push", "subgroup", REF)}
keys = sorted(set().union(*[set(v) for v in cells.values()]), key=lambda k: (k[0], k[6], k[7]))
print(f"    {'pattern':<11} {'c':>5} {'p':>5} {REF:>8} {'buffer':>8} {'push':>8} {'subgrp':>8}  push/buf sub/buf buf/{REF}")
for k in keys:
    v = {f: gops(cells[f].get(k)) for f in cells}
    print(f"    {k[0]:<11} {k[6]:>5} {k[7]:>5} {fmt(v[REF])} {fmt(v['buffer'])} {fmt(v['push'])} {fmt(v['subgroup'])}"
          f"  {fmt(ratio(v['push'], v['buffer']), 7, 2)} {fmt(ratio(v['subgroup'], v['buffer']), 7, 2)}"
          f" {fmt(ratio(v['buffer'], v[REF]), 7, 2)}")

# D: discovery.
print("\nD  occupancy discovery (discovery.txt; devices-occupancy.txt)")
print("    read: a count equal to the launch at every multiple is a poll that never closed; a count that stays")
print("    put past 2x is what the device holds (compare with the estimate and with the other APIs)")
for l in text("discovery.txt").splitlines():
    print("    " + l)
for l in text("devices-occupancy.txt").splitlines():
    if "occupancy" in l.lower() or "co-resident" in l.lower() or "discover" in l.lower():
        print("    " + l.strip())

# X1: stride.
print("\nX1 cross-warp contention 1024 against the stride (x1-<backend>.json; Gop/s)")
backends = list(dict.fromkeys((REF, "opencl", "vulkan")))
x1 = {b: {r["padding"]: r for r in (rows("x1-" + b) or [])} for b in backends}
pads = sorted(set().union(*[set(v) for v in x1.values()]))
print(f"    {'p':>5} {'stride B':>8} {'span KB':>8} " + " ".join(f"{b:>8}" for b in backends) + f" {'v/' + REF:>7}")
for p in pads:
    v = {b: gops(x1[b].get(p)) for b in x1}
    r0 = next(r for r in [x1[b].get(p) for b in x1] if r)
    slots = r0["wg_size"] * r0["workgroups"] // r0["contention"]
    print(f"    {p:>5} {p * 4:>8} {slots * p * 4 / 1024:>8.0f} " + " ".join(fmt(v[b]) for b in backends) +
          f" {fmt(ratio(v['vulkan'], v[REF]), 7, 2)}")

# X2: words.
print("\nX2 cross-warp contention 1024 against the number of words (work-items / contention; Gop/s)")
print(f"    {'groups':>6} {'words':>6} {'p':>5} {REF:>8} {'vulkan':>8} {'v/' + REF:>7}")
for path in sorted(glob.glob(os.path.join(OUT, f"x2-{REF}-w*.json")), key=lambda s: int(s.rsplit("w", 1)[1][:-5])):
    g = int(path.rsplit("w", 1)[1][:-5])
    c = {r["padding"]: r for r in (rows(f"x2-{REF}-w{g}") or [])}
    v = {r["padding"]: r for r in (rows(f"x2-vulkan-w{g}") or [])}
    for p in sorted(c):
        a, b = gops(c.get(p)), gops(v.get(p))
        r = c[p]
        words = r["wg_size"] * r["workgroups"] // r["contention"]
        print(f"    {g:>6} {words:>6} {p:>5} {fmt(a)} {fmt(b)} {fmt(ratio(b, a), 7, 2)}")

# X3: placement.
print("\nX3 placement: Vulkan's buffers placed otherwise (x3-<placement>.json; Gop/s at cross-warp c1024)")
print(f"    {'placement':<16} " + " ".join(f"{'p' + str(p):>8}" for p in (128, 256, 1024)))
for place in ("offset-0", "offset-4096", "offset-65536", "offset-1052672", "dedicated", "host-visible"):
    rs = {r["padding"]: r for r in (rows("x3-" + place) or [])}
    vals = []
    for p in (128, 256, 1024):
        r = rs.get(p)
        vals.append(fmt(gops(r)) if r is None or r["status"] == "ok" else f"{r['status'][:8]:>8}")
    print(f"    {place:<16} " + " ".join(vals))
ref = {r["padding"]: gops(r) for r in (rows("x1-" + REF) or [])}
print(f"    {REF + ' (X1)':<16} " + " ".join(fmt(ref.get(p)) for p in (128, 256, 1024)))
print("   CUDA's own placements and the loop not unrolled (x3-cuda-placement.txt, ops/us):")
for l in text("x3-cuda-placement.txt").splitlines():
    print("    " + l)

# X4: repeats.
print("\nX4 contention 1, padding 1024: contiguous and cross-warp are the same addresses (t * 1024); three fresh")
print("   processes per backend, --repeat 3 each (x4-<backend>-<n>.json): Gop/s (repeat spread)")
for b in (REF, "vulkan"):
    for n in (1, 2, 3):
        rs = rows(f"x4-{b}-{n}") or []
        cells = []
        for r in rs:
            sp = r.get("repeat_spread")
            cells.append(f"{r['pattern']} {fmt(gops(r), 6)}" + (f" ({sp:.2f})" if isinstance(sp, (int, float)) else ""))
        print(f"    {b:<7} run {n}: " + ("; ".join(cells) or "(not run)"))

# A: every op under the new forms.
print("\nA  every op on NVIDIA's Vulkan driver under the new forms (all-ops-<form>.json)")
for form in ("push", "subgroup"):
    rs = rows("all-ops-" + form)
    if rs is None:
        print(f"    {form:<9} (not run)")
        continue
    ok = [r for r in rs if r["status"] == "ok" and r["op"] != "plain_add"]
    plain = [r for r in rs if r["status"] == "ok" and r["op"] == "plain_add"]
    uns = [r for r in rs if r["status"] == "unsupported"]
    bad = [r for r in ok if not r["verified"]]
    other = [r for r in rs if r["status"] not in ("ok", "unsupported")]
    print(f"    {form:<9} {len(ok) - len(bad)} verified, {len(bad)} not verified, {len(uns)} unsupported, "
          f"plain_add caught in {sum(not r['verified'] for r in plain)} of {len(plain)}, {len(other)} errors")
    for r in bad[:10]:
        print(f"        {r['pattern']} {r['op']} {r['type']} {r['space']} {r['result']} {r['scope']}: {r['reason'][:80]}")
print("\nstatus.txt:")
print(text("status.txt"))
