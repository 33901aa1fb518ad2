#!/usr/bin/env bash
# Scatter-add round 3 on an NVIDIA GPU (issue [scatter]), one call of at most 8 minutes on an H100:
#   1. f32, bf16 and f16 at the issue's shape (D = 64, E = 8 M rows, V = 1 M targets) on uniform, zipf and
#      hot keys, variants atomic, run, block, vector and auto: the 16-bit rows use the packed reductions
#      (red.global.add.noftz.bf16x2 / .f16x2, v4.bf16x2 / v4.f16x2 for vector), so their time per element
#      compares with f32's;
#   2. the weighted bincount (D = 1, u32 weights, E = 64 M keys) at 2^20 and 2^24 bins on uniform and zipf
#      keys (hot too at 2^20), variants atomic, run, block, bins and auto, with the ratio to the copy
#      ceiling;
#   3. the rows bins' work-groups take at a time (--bin-rows 1024, 4096, 16384) at 2^20 bins.
# Writes OUT/f32.json, bf16.json, f16.json, bincount-2e20.json, bincount-2e24.json, bin-rows-*.json,
# info.txt (the steps' status; app stderr goes there too) and OUT/summary.txt
# (scripts/gpu-scatter-bf16-summary.py: every row, 16-bit against f32 per element, the bincount's best
# variant per distribution against the 0.3x target and against the atomic variant).
#   ATOMLAB=build/atomlab OUT=out/scatter-bf16 bash scripts/gpu-scatter-bf16.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-scatter-bf16
A=${ATOMLAB:-./build/atomlab}
E=${ROWS:-8388608} D=${DIM:-64} V=${TARGETS:-1048576}
{ date -u +%FT%TZ; $SMI; $A version; } >"$OUT/info.txt" 2>&1
STEP_LOG=$OUT/info.txt STEP_STATUS=$OUT/info.txt
step_deadline 460
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V --dist uniform,zipf,hot"
for t in f32 bf16 f16; do
  step "$t" 100 $S --type $t --variants atomic,run,block,vector,auto -o "$OUT/$t.json" --quiet
done
B="$A app scatter --backend cuda --type u32 --dim 1 --rows 67108864"
step bincount-2e20 70 $B --targets 1048576 --dist uniform,zipf,hot --variants atomic,run,block,bins,auto \
  -o "$OUT/bincount-2e20.json" --quiet
step bincount-2e24 60 $B --targets 16777216 --dist uniform,zipf --variants atomic,run,block,bins,auto \
  -o "$OUT/bincount-2e24.json" --quiet
for n in 1024 16384; do
  step "bin-rows-$n" 30 $B --targets 1048576 --dist uniform,zipf --variants bins --bin-rows $n \
    -o "$OUT/bin-rows-$n.json" --quiet
done
python3 scripts/gpu-scatter-bf16-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
