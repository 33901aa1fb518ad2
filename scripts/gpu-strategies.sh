#!/usr/bin/env bash
# Atomic strategies on an NVIDIA GPU machine (issue [strategies]), about 3 minutes:
#   1. the GPU tests of the feature: every primitive's old values and final
#      memory on CUDA (full and divergent warps), the CLI on CUDA, a stuck lock
#   2. atomlab strategy, every strategy x same-address / same-line / scattered,
#      fetch_add with results used, on CUDA and on NVIDIA's OpenCL
#   3. compute-sanitizer memcheck and racecheck on a small CUDA run
# Prints a summary (winners, the warp/native and block/warp ratios against
# the targets >= 20x and >= 1x on the same-address counter) and writes under
# OUT (default out/gpu-strategies): summary.txt tests.txt sanitizer.txt
# cuda-strategy.{json,csv} opencl-strategy.{json,csv}. Each step has a time
# limit (tests 45 s, each comparison 70 s, each sanitizer tool 30 s; at worst
# about 4 minutes in all, typically less); the comparisons write checkpoints,
# so a cut run keeps its rows (the lock strategies come last). Expects a
# build in build/.
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-strategies
S="$OUT/summary.txt"
{ echo "== gpu-strategies $(date -u +%FT%TZ)"; $SMI; $A version; $A devices; } >"$S" 2>&1
ocl=$(gpu_device_id opencl gpu)
cuda=$(gpu_device_id cuda)
# Two blocks of 256 per SM: enough to saturate the atomic units, and it keeps
# the naive spin lock's same-address row (one hand-off per thread, serial)
# to seconds rather than minutes.
sms=$($A devices --format json | python3 -c '
import json, atl_json, sys
g = [x["compute_units"] for x in json.load(sys.stdin)["devices"] if x["type"] == "gpu"]
print(g[0] if g else 132)')
echo "cuda device: ${cuda:-none}; opencl device: ${ocl:-none}" >>"$S"
STEP_STATUS=$S

# 1. GPU tests of this feature (the primitives test, the CLI test with a stuck lock)
T="$OUT/tests.txt"
: >"$T"
[ -x build/tests/strategy/test_strategy ] &&
  STEP_LOG=$T step test_strategy_cuda 20 ./build/tests/strategy/test_strategy cuda
STEP_LOG=$T step gpu_strategy_cli 45 bash tests/cli/gpu_strategy.sh $A

# 2. the comparison: same run, same device, every strategy and pattern
R="--pattern all --op fetch_add --result used --strategy all --wg-size 256 --workgroups $((2 * sms))
   --min-samples 3 --max-samples 15 --budget 1 --quiet"
[ -n "$cuda" ] && STEP_LOG=$S step cuda_strategy 70 $A strategy --device "$cuda" $R \
  -o "$OUT/cuda-strategy.json" -o "$OUT/cuda-strategy.csv"
[ -n "$ocl" ] && STEP_LOG=$S step opencl_strategy 70 $A strategy --device "$ocl" $R \
  -o "$OUT/opencl-strategy.json" -o "$OUT/opencl-strategy.csv"

# 3. compute-sanitizer on a small CUDA run (the NVRTC-built kernels through the driver API)
Z="$OUT/sanitizer.txt"
: >"$Z"
if [ -n "$cuda" ] && command -v compute-sanitizer >/dev/null; then
  small="strategy --device $cuda --pattern same-line --strategy all --wg-size 128 --workgroups 4 --iters 2
         --min-samples 1 --max-samples 1 --quiet --format csv"
  compute-sanitizer --version >>"$Z" 2>&1
  for tool in memcheck racecheck; do
    echo "== $tool" >>"$Z"
    : >"$OUT/$tool.log"
    STEP_LOG=$OUT/$tool.log step "sanitizer_$tool" 30 compute-sanitizer --tool $tool --print-limit 20 $A $small
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|Hazard|hazard|error" "$OUT/$tool.log" | head -40 >>"$Z"
    tail -5 "$OUT/$tool.log" >>"$Z"
    rm -f "$OUT/$tool.log"
  done
else
  echo "compute-sanitizer or CUDA device missing: skipped" >>"$Z"
fi

# Summary: winners, ratios against the targets, the tests' verdicts
python3 - "$OUT" >>"$S" 2>&1 <<'PY'
import json, atl_json, os, sys
out = sys.argv[1]
for name in ("cuda", "opencl"):
    path = os.path.join(out, name + "-strategy.json")
    if not os.path.exists(path):
        print(f"\n{name}: no result file")
        continue
    d = atl_json.load(path)
    rows = d["rows"]
    print(f"\n{name}: {d['device']['name']} ({d['device']['driver']}), commit {d['tool']['commit']}, "
          f"{len(rows)} rows, {sum(r['status'] == 'ok' and r['verified'] for r in rows)} verified")
    for r in rows:
        if r["status"] != "ok" or not r["verified"]:
            print(f"  {r['pattern']:12} {r['strategy']:11} {r['status']}: {r['reason'][:100]}")
    print(f"  {'pattern':12} " + " ".join(f"{s:>11}" for s in
          ("native", "warp", "block", "privatized", "cas", "lock_warp", "lock_thread", "spin_lock")) + "  Gop/s")
    for p in ("same-address", "same-line", "scattered"):
        g = {r["strategy"]: r for r in rows if r["pattern"] == p}
        cells = []
        for s in ("native", "warp", "block", "privatized", "cas", "lock_warp", "lock_thread", "spin_lock"):
            r = g.get(s)
            cells.append(f"{r['gops']:11.3f}" if r and r["status"] == "ok" and r["verified"] else f"{(r or {}).get('status', '-'):>11}")
        print(f"  {p:12} " + " ".join(cells))
    for w in (r for r in rows if r.get("winner")):
        print(f"  winner {w['pattern']:12} {w['strategy']:11} {w['gops']:.3f} Gop/s, margin {w['margin']:.2f}x")
    g = {r["strategy"]: r for r in rows if r["pattern"] == "same-address" and r["status"] == "ok" and r["verified"]}
    if all(k in g for k in ("native", "warp", "block")):
        wn = g["warp"]["gops"] / g["native"]["gops"]
        bw = g["block"]["gops"] / g["warp"]["gops"]
        print(f"  same-address counter: warp/native {wn:.1f}x (target >= 20: {'met' if wn >= 20 else 'MISSED'}), "
              f"block/warp {bw:.2f}x (target >= 1: {'met' if bw >= 1 else 'MISSED'})")
    for s in ("native", "warp", "block"):
        r = g.get(s)
        if r:
            print(f"  {s} instructions: {r.get('instructions', '')}")
PY
grep -E "passed|FAIL|skipped|verified" "$T" | head -20 >>"$S"
echo "== sanitizer" >>"$S"
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|== " "$Z" >>"$S"
cat "$S"
