#!/usr/bin/env bash
# Seed 000's software atomic add on an NVIDIA GPU (the H100), CUDA and NVIDIA
# OpenCL, in one run of about 2-3 minutes (every step under `timeout`):
#   1. `atomlab app swatomic --experiment` per backend over 8, 16, ... up to
#      the co-resident count (discovery): memory only, system / warp /
#      software atomic alone (micro-benchmark 1, Figure 8) and with the copy
#      (Figure 3's kernel, micro-benchmark 2, Figures 4 and 9), the ideal sum,
#      every row verified; the speedup model (t_fast, t_l, t_comp measured,
#      equations (1)-(4) predicted against measured) and the instruction view
#      (SASS counts per kernel);
#   2. the figures of each JSON (`atomlab plot`);
#   3. summary.txt: both backends' model and instruction tables, a per-grid
#      table and every row that is not ok and verified.
# Writes under OUT (default out/gpu-swatomics) 5 files: summary.txt, run.log,
# swatomic-cuda.json, swatomic-opencl.json and figures.tar.gz.
# Run: OUT=/some/dir bash scripts/gpu-swatomics.sh   (expects a build in build/)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-swatomics
S="$OUT/summary.txt"
L="$OUT/run.log"
{ echo "== $(date -u +%FT%TZ) $($A version 2>&1 | head -1)"; $SMI 2>&1; } >"$S"
: >"$L"
STEP_LOG=$L STEP_STATUS=$S
for be in cuda opencl; do
  f="$OUT/swatomic-$be.json"
  # the tables (model, instruction view, rows) go to their own file for the summary
  step "$be-experiment" 70 sh -c "$A app swatomic --backend $be --wg-size 256 --groups 8:max:x2 --iters 8 --samples 5 \
    --spin-bound 4194304 --experiment -o '$f' >'$W/$be.txt' 2>&1; r=\$?; cat '$W/$be.txt'; exit \$r"
  step "$be-plot" 10 $A plot "$f" -o "$W/figures-$be" --format both
  {
    echo
    echo "==== $be"
    sed -n '/^speedup model/,/^app /p' "$W/$be.txt" | sed '$d'
  } >>"$S"
  [ -s "$f" ] && python3 - "$f" >>"$S" 2>&1 <<'PY'
import json, atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
m = lambda r, k: r.get("metrics", {}).get(k)
by = {}
for r in rows:
    if r["variant"] != "model":
        by.setdefault(int(m(r, "workgroups") or 0), {})[r["variant"]] = r
cols = ["mem", "system", "warp", "software", "system+mem", "warp+mem", "software+mem"]
print("\nms per launch (median; * = not ok or not verified):")
print("%6s" % "wgs" + "".join("%13s" % c for c in cols) + "%13s" % "ideal(sys)")
for g in sorted(by):
    cells = []
    for c in cols:
        r = by[g].get(c)
        ok = r is not None and r["status"] == "ok" and r["verified"]
        cells.append("-" if r is None else ("%.4f" % r["time_ms"]["median"]) + ("" if ok else "*"))
    ideal = m(by[g].get("system+mem", {}), "ideal_ms")
    print("%6d" % g + "".join("%13s" % c for c in cells) + "%13s" % ("%.4f" % ideal if ideal else "-"))
bad = [r for r in rows if not (r["status"] in ("ok", "skipped") and (r["verified"] or r["variant"] == "model"))]
print("rows not ok/verified: %d" % len(bad))
for r in bad[:5]:
    print("  %s wgs=%s %s: %s" % (r["variant"], m(r, "workgroups"), r["status"], r.get("reason", "")[:200]))
PY
done
tar -C "$W" -czf "$OUT/figures.tar.gz" $(cd "$W" && ls -d figures-* 2>/dev/null) 2>>"$L"
echo "figures: $(tar -tzf "$OUT/figures.tar.gz" 2>/dev/null | grep -c '\.png$') PNG in figures.tar.gz" | tee -a "$S"
cat "$S"
exit ${STEP_FAILED:-0}
