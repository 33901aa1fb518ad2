#!/usr/bin/env bash
# The scatter library, round 8, second call (issue [scatter] 18, item 7), at most 100 s (the steps stop at 96 s):
# atl_scatter_add timed as a user calls it (tests/unit/scatter_lib_bench.c: 10 calls, each from a zeroed output,
# the first checked) beside the app's auto row of the same shape in the same call, on the paths the first call
# did not time: f32, D = 64, E = 8 M, V = 1 M with zipf, sorted and hot keys (auto: part in one range, run, part
# in one range), and the u32 bincount, E = 64 M, into 2^20 bins with zipf keys (bins) and 2^24 bins with uniform
# keys (part over L2-sized ranges).
# Writes OUT/lib-*.json, OUT/app-*.json, info.txt and summary.txt (scripts/gpu-scatlib-summary.py).
#   ATOMLAB=build/atomlab OUT=out/scatlib8b bash scripts/gpu-scatlib-round8b.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatlib-round8b 96
T=${TESTS:-./build/tests/unit}
B=67108864
for d in zipf sorted hot; do
  step -o "$OUT/lib-f32-$d.json" lib-f32-$d 12 "$T/scatter_lib_bench" cuda f32 "$D" "$E" "$V" $d 10
done
step app-f32 36 $A app scatter --backend cuda --type f32 --dim "$D" --rows "$E" --targets "$V" --dist zipf,sorted,hot \
  --variants auto --samples 10 -o "$OUT/app-f32.json" --quiet
step -o "$OUT/lib-bincount-2e20-zipf.json" lib-bincount-2e20-zipf 8 "$T/scatter_lib_bench" cuda u32 1 $B 1048576 zipf 10
step app-bincount-2e20 10 $A app scatter --backend cuda --type u32 --dim 1 --rows $B --targets 1048576 --dist zipf \
  --variants auto --samples 10 -o "$OUT/app-bincount-2e20.json" --quiet
step -o "$OUT/lib-bincount-2e24.json" lib-bincount-2e24 8 "$T/scatter_lib_bench" cuda u32 1 $B 16777216 uniform 10
step app-bincount-2e24 10 $A app scatter --backend cuda --type u32 --dim 1 --rows $B --targets 16777216 --dist uniform \
  --variants auto --samples 10 -o "$OUT/app-bincount-2e24.json" --quiet
python3 scripts/gpu-scatlib-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
