#!/usr/bin/env bash
# The software atomic's ops on an NVIDIA GPU (issue [software-atomics]): `atomlab app swatomic --op OP`
# for add, sub, inc, min, max, and, or, xor on CUDA and on NVIDIA's OpenCL, over 8 .. the co-resident
# work-groups (system, warp and software atomics), every row's old values and final words checked.
# Run from the repository root after the build: OUT=DIR bash scripts/gpu-swops.sh   (about 3 minutes)
# Writes OUT/summary.txt (per op and backend: rows verified, and the M atomics/s of each variant at the
# largest grid) and OUT/swops.tar.gz (the JSON files, the log, info.txt).
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-swops
ocl=$(gpu_device_id opencl gpu)
{ date -u +%FT%TZ; $SMI; $A version; } >"$W/info.txt" 2>&1
for op in add sub inc min max and or xor; do
  for be in cuda opencl; do
    if [ $be = cuda ]; then D="--backend cuda"; elif [ -n "$ocl" ]; then D="--device $ocl"; else continue; fi
    STEP_LOG=$W/log.txt STEP_STATUS=$W/info.txt step "$be $op" 90 $A app swatomic $D --op $op --quiet \
      -o "$W/ops-$be-$op.json" >/dev/null
  done
done
python3 - "$W" >"$OUT/summary.txt" 2>&1 <<'PY'
import glob, json, os, sys
print(f"{'file':18s} {'rows':>4s} {'verified':>8s}  M atomics/s at the largest grid (system / warp / software)")
for f in sorted(glob.glob(os.path.join(sys.argv[1], "ops-*.json"))):
    rows = atl_json.load(f)["rows"]
    ok = [r for r in rows if r["status"] == "ok" and r["verified"]]
    top = max((r["metrics"].get("workgroups", 0) for r in rows), default=0)
    g = {r["variant"]: r["metrics"].get("matomics_per_s") for r in rows if r["metrics"].get("workgroups") == top}
    fmt = lambda v: "-" if g.get(v) is None else f"{g[v]:.0f}"
    bad = "; ".join(sorted({r["reason"][:80] for r in rows if r not in ok}))[:200]
    print(f"{os.path.basename(f)[:-5]:18s} {len(rows):4d} {len(ok):8d}  {top} groups: "
          f"{fmt('system')} / {fmt('warp')} / {fmt('software')} {bad}")
PY
tar -czf "$OUT/swops.tar.gz" -C "$W" .
cat "$W/info.txt" "$OUT/summary.txt"
