#!/usr/bin/env bash
# The scatter library, round 8 (issue [scatter] 18, item 7), one call of at most 100 s (the steps stop at 96 s):
#   1. gpu_scatter_lib (tests/unit/scatter_lib.c --gpu): atl_scatter_add on CUDA picks, for each distribution,
#      the method the app's auto rule names (part over L2-sized ranges for uniform f32 D = 64 into 64 MiB, part in
#      one range for zipf and hot, run for sorted and clustered; for D = 1, dsm over a cluster's distributed
#      shared memory at 2^20 bins on sm_90, part at 2^24, bins for zipf), and every one is exact (integers) or
#      within the bound (f32); forced block, atomic and dsm (zipf, hot) too;
#   2. atl_scatter_add timed as a user calls it (tests/unit/scatter_lib_bench.c: 10 calls, each from a zeroed
#      output) beside the app's row of the same shape in the same call: f32, D = 64, E = 8 M, V = 1 M, uniform keys
#      (the app's auto: part over L2-sized ranges, its best row of round 7) and the weighted bincount, u32, D = 1,
#      E = 64 M, 2^20 bins, uniform keys (auto: dsm), each first result checked.
# Writes OUT/scatter_lib.txt, OUT/lib-*.json, OUT/app-*.json, info.txt and summary.txt.
#   ATOMLAB=build/atomlab OUT=out/scatlib8 bash scripts/gpu-scatlib-round8.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatlib-round8 96
T=${TESTS:-./build/tests/unit}
step -o "$OUT/scatter_lib.txt" gpu-scatter-lib 34 "$T/scatter_lib" --gpu
step -o "$OUT/lib-f32.json" lib-f32 22 "$T/scatter_lib_bench" cuda f32 "$D" "$E" "$V" uniform 10
step app-f32 30 $A app scatter --backend cuda --type f32 --dim "$D" --rows "$E" --targets "$V" --dist uniform \
  --variants auto --samples 10 -o "$OUT/app-f32.json" --quiet
step -o "$OUT/lib-bincount-2e20.json" lib-bincount-2e20 12 "$T/scatter_lib_bench" cuda u32 1 67108864 1048576 uniform 10
step app-bincount-2e20 12 $A app scatter --backend cuda --type u32 --dim 1 --rows 67108864 --targets 1048576 \
  --dist uniform --variants auto,dsm --samples 10 -o "$OUT/app-bincount-2e20.json" --quiet
python3 scripts/gpu-scatlib-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
