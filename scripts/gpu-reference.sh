#!/usr/bin/env bash
# Reference run on an NVIDIA GPU machine through NVIDIA's OpenCL driver:
# device facts, the GPU tests, and the full seed grid (contention and padding
# 1..1024 in powers of two, the four patterns, fetch_add). Writes under
# OUT (default out/gpu). Expects a build in build/ (carried or built there).
#   GRID_CONTENTION, GRID_PADDING, GRID_OPS override the grid (for a dry run).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out/gpu}
mkdir -p "$OUT"
# Libraries the build machine linked against that the GPU image may lack.
[ -d build/device-libs ] && export LD_LIBRARY_PATH=$PWD/build/device-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The GPU image lists only PoCL in /etc/OpenCL/vendors: add NVIDIA's ICD.
if [ -e /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 ] || ldconfig -p | grep -q libnvidia-opencl; then
  mkdir -p /tmp/icd
  echo libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd
  cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
  export OCL_ICD_VENDORS=/tmp/icd
fi
A=./build/atomlab
SMI="nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv"
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
start=$(date +%s)
$A rmw --device "$gpu" --pattern all --op "${GRID_OPS:-fetch_add}" --contention "${GRID_CONTENTION:-1:1024}" \
  --padding "${GRID_PADDING:-1:1024}" --budget 1 -o "$OUT/rmw-grid.json" -o "$OUT/rmw-grid.csv" --quiet
rc=$?
echo "grid: exit $rc in $(( $(date +%s) - start )) s" | tee -a "$OUT/info.txt"
echo "== gpu tests"
bash tests/cli/gpu_opencl.sh $A 2>&1 | tail -5 | tee "$OUT/gpu-tests.txt"
{ echo "== end"; $SMI; } >>"$OUT/info.txt" 2>&1
exit $rc
