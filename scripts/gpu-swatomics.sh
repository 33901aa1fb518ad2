#!/usr/bin/env bash
# Seed 000's software atomic add on the H100 (<= 3 minutes): CUDA and NVIDIA
# OpenCL, grids of 8, 16, ... up to the co-resident count (discovery), one
# target word and 8, system vs warp-aggregated vs software; every row
# verified (old values a permutation, final words exact). Writes
# $OUT/swatomic-{cuda,opencl}-t{1,8}.json and prints a summary.
# Run: . scripts/gpu-env.sh; OUT=/some/dir bash scripts/gpu-swatomics.sh
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
. scripts/gpu-env.sh # the carried build's libraries (libcjson)
A=./build/atomlab
rc=0
for be in cuda opencl; do
  for t in 1 8; do
    f="$OUT/swatomic-$be-t$t.json"
    echo "== $be, targets $t"
    timeout 42 "$A" app swatomic --backend "$be" --wg-size 256 --targets "$t" --iters 16 --samples 5 \
      --spin-bound 4194304 -o "$f" >"$OUT/swatomic-$be-t$t.log" 2>&1
    r=$?
    [ $r -ne 0 ] && { echo "exit $r: $(tail -3 "$OUT/swatomic-$be-t$t.log")"; rc=1; }
    [ -s "$f" ] && python3 - "$f" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
def m(r, k):
    return {x["name"]: x["value"] for x in r.get("metrics", [])}.get(k) if isinstance(r.get("metrics"), list) else r.get("metrics", {}).get(k)
by = {}
for r in rows:
    by.setdefault(int(m(r, "workgroups") or 0), {})[r["variant"]] = r
print("%6s %14s %14s %14s  (M atomics/s; * = not ok/verified)" % ("wgs", "system", "warp", "software"))
for g in sorted(by):
    cells = []
    for v in ("system", "warp", "software"):
        r = by[g].get(v)
        if r is None:
            cells.append("-"); continue
        ok = r["status"] == "ok" and r["verified"]
        cells.append(("%.1f" % (m(r, "matomics_per_s") or 0)) + ("" if ok else "*" + r["status"]))
    print("%6d %14s %14s %14s" % (g, *cells))
bad = [r for r in rows if not (r["status"] == "ok" and r["verified"])]
for r in bad[:3]:
    print("  not ok:", r["variant"], r["status"], r.get("reason", ""))
PY
  done
done
exit $rc
