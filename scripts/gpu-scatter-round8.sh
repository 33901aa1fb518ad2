#!/usr/bin/env bash
# Scatter-add round 8 (issue [scatter]), at most 150 s (the steps stop at 140 s): f32, D = 64, E = 8 M, V = 1 M,
# uniform keys, the 3x-PyTorch target (about 1.45 ms on an H100). Every step is one app call (about 20 s of host
# inputs and float64 reference each), most important first. Both calls begin with i32 keys (atomic dumped for
# PyTorch) and PyTorch's index_add_ / scatter_add_ on the dumped inputs (int64 keys, as PyTorch takes them).
#   call 1: the default (auto = part over 11 ranges, red.v4, --part-prefetch l2) beside the new sweep variant (every
#     range in one launch, work-groups taking range-major chunks from a counter); --part-add bulk (a row's sum staged
#     in shared memory, added by ONE cp.reduce.async.bulk .add.f32) for part and sweep; i64 keys (the default and the
#     sweep); 13 and 9 ranges, and work-groups of 512: part and sweep.
#   call 2 (after call 1: auto runs the sweep, which narrows i64 keys to u32 in range 0's pass): auto beside part (the
#     default before) with i32 keys, then with i64 keys; the sweep over 13 ranges; the i32 step again (noise); the
#     sweep over 15 and 17 ranges.
#   call 3 (the sweep's ranges now fit 0.4 of the L2: 13 on an H100): auto beside part with i32 keys, PyTorch's
#     index_add_ with int64 AND int32 indices; auto beside part with i64 keys; auto alone again with i32 and i64 keys.
# Writes OUT/*.json, info.txt and summary.txt (scripts/gpu-scatter-round8-summary.py).
#   ATOMLAB=build/atomlab OUT=out/scatter-round8 bash scripts/gpu-scatter-round8.sh [1|2|3]
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
CALL=${1:-1}
gpu_scatter_script gpu-scatter-round8 $([ "$CALL" = 3 ] && echo 112 || echo 140)
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V --type f32 --dist uniform"
step f32-i32 40 $S --variants atomic,auto,$([ "$CALL" = 1 ] && echo sweep || echo part) --dump "$W/d" \
  -o "$OUT/f32-i32.json" --quiet
step torch 20 python3 scripts/peer-torch-scatter.py "$W/d" --rows $E --dim $D --targets $V --dists uniform \
  --det-reps 0 $([ "$CALL" = 3 ] && echo --int32) -o "$OUT/torch.json"
rm -rf "$W/d"
if [ "$CALL" = 3 ]; then
  step f32-i64 35 $S --index i64 --variants auto,part -o "$OUT/f32-i64.json" --quiet
  step f32-i32-again 25 $S --variants auto -o "$OUT/f32-i32-again.json" --quiet
  step f32-i64-again 25 $S --index i64 --variants auto -o "$OUT/f32-i64-again.json" --quiet
elif [ "$CALL" = 2 ]; then
  step f32-i64 35 $S --index i64 --variants auto,part -o "$OUT/f32-i64.json" --quiet
  step f32-p13 30 $S --variants sweep --partitions 13 -o "$OUT/f32-p13.json" --quiet
  step f32-i32-again 30 $S --variants auto,part -o "$OUT/f32-i32-again.json" --quiet
  step f32-p15 30 $S --variants sweep --partitions 15 -o "$OUT/f32-p15.json" --quiet
  step f32-p17 30 $S --variants sweep --partitions 17 -o "$OUT/f32-p17.json" --quiet
else
  step f32-i32-bulk 35 $S --variants part,sweep --part-add bulk -o "$OUT/f32-i32-bulk.json" --quiet
  step f32-i64 35 $S --index i64 --variants auto,sweep -o "$OUT/f32-i64.json" --quiet
  step f32-p13 30 $S --variants part,sweep --partitions 13 -o "$OUT/f32-p13.json" --quiet
  step f32-wg512 30 $S --variants part,sweep --wg-size 512 -o "$OUT/f32-wg512.json" --quiet
  step f32-p9 30 $S --variants part,sweep --partitions 9 -o "$OUT/f32-p9.json" --quiet
fi
python3 scripts/gpu-scatter-round8-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
