#!/usr/bin/env bash
# Reference run on an NVIDIA GPU machine through NVIDIA's OpenCL driver:
# device facts, the GPU tests, and the full seed grid (contention and padding
# 1..1024 in powers of two, the four patterns, fetch_add). Writes under
# OUT (default out/gpu). Expects a build in build/ (carried or built there).
#   GRID_CONTENTION, GRID_PADDING, GRID_OPS override the grid (for a dry run).
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu
{ echo "== start"; $SMI; $A version; } >"$OUT/info.txt" 2>&1
$A devices --occupancy | tee -a "$OUT/info.txt"
$A devices --occupancy --format json >"$OUT/devices.json"
gpu=$($A devices --format json | python3 -c '
import json, sys
g = [x["id"] for x in json.load(sys.stdin)["devices"] if x["type"] == sys.argv[1]]
print(g[0] if g else "")' "${DEVICE_TYPE:-gpu}")
if [ -z "$gpu" ]; then
  echo "error: no GPU OpenCL device found" >&2
  exit 1
fi
echo "== seed grid on $gpu"
STEP_STATUS=$OUT/info.txt step grid "${STEP_LIMIT:-3600}" $A rmw --device "$gpu" --pattern all \
  --op "${GRID_OPS:-fetch_add}" --contention "${GRID_CONTENTION:-1:1024}" --padding "${GRID_PADDING:-1:1024}" \
  --budget 1 -o "$OUT/rmw-grid.json" -o "$OUT/rmw-grid.csv" --quiet
rc=$?
echo "== gpu tests"
bash tests/cli/gpu_opencl.sh $A 2>&1 | tail -5 | tee "$OUT/gpu-tests.txt"
{ echo "== end"; $SMI; } >>"$OUT/info.txt" 2>&1
exit $rc
