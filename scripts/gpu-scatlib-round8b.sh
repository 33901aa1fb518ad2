#!/usr/bin/env bash
# The scatter library, round 8, second call (issue [scatter] 18, item 7), at most 125 s (the steps stop at 120 s):
#   1. gpu_scatter_lib (tests/unit/scatter_lib.c --gpu) again: call 1's clustered keys at E = 2^20 picked part (the
#      sample's pairs sat at a fixed place in strata of 32 rows, across every cluster's end); now a place drawn
#      per stratum;
#   2. atl_scatter_add timed as a user calls it (tests/unit/scatter_lib_bench.c: 10 calls, each from a zeroed
#      output, the first checked; the pick alone timed too: call 1's wall time was 7.08 ms a call for 1.54 ms of
#      device time, a sort of the sample on the host, now a hash count) beside the app's auto row of the same
#      shape in the same call: the u32 bincount, E = 64 M, 2^20 bins uniform (dsm) and zipf (bins), 2^24 bins
#      uniform (part); f32, D = 64, E = 8 M, V = 1 M, uniform (part), zipf and hot (part in one range), sorted
#      (run). The f32 steps come last: what the deadline cuts is the least needed.
# Writes OUT/scatter_lib.txt, OUT/lib-*.json, OUT/app-*.json, info.txt and summary.txt (scripts/gpu-scatlib-summary.py).
#   ATOMLAB=build/atomlab OUT=out/scatlib8b bash scripts/gpu-scatlib-round8b.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatlib-round8b 120
T=${TESTS:-./build/tests/unit}
B=67108864
step -o "$OUT/scatter_lib.txt" gpu-scatter-lib 20 "$T/scatter_lib" --gpu
for d in uniform zipf; do
  step -o "$OUT/lib-bincount-2e20-$d.json" lib-bincount-2e20-$d 8 "$T/scatter_lib_bench" cuda u32 1 $B 1048576 $d 10
done
step app-bincount-2e20 14 $A app scatter --backend cuda --type u32 --dim 1 --rows $B --targets 1048576 \
  --dist uniform,zipf --variants auto --samples 10 -o "$OUT/app-bincount-2e20.json" --quiet
step -o "$OUT/lib-bincount-2e24.json" lib-bincount-2e24 6 "$T/scatter_lib_bench" cuda u32 1 $B 16777216 uniform 10
step app-bincount-2e24 8 $A app scatter --backend cuda --type u32 --dim 1 --rows $B --targets 16777216 --dist uniform \
  --variants auto --samples 10 -o "$OUT/app-bincount-2e24.json" --quiet
step app-f32 36 $A app scatter --backend cuda --type f32 --dim "$D" --rows "$E" --targets "$V" \
  --dist uniform,zipf,sorted,hot --variants auto --samples 10 -o "$OUT/app-f32.json" --quiet
for d in uniform zipf sorted hot; do
  step -o "$OUT/lib-f32-$d.json" lib-f32-$d 15 "$T/scatter_lib_bench" cuda f32 "$D" "$E" "$V" $d 10
done
python3 scripts/gpu-scatlib-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
