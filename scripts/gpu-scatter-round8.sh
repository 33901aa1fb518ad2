#!/usr/bin/env bash
# Scatter-add round 8 (issue [scatter]), at most 150 s (the steps stop at 140 s): f32, D = 64, E = 8 M, V = 1 M,
# uniform keys, the 3x-PyTorch target (about 1.45 ms on an H100). Every step is one app call (about 20 s of host
# inputs and float64 reference each), most important first:
#   1. i32 keys: the default (auto = part over 11 ranges, red.v4, --part-prefetch l2), the new sweep variant (every
#      range in one launch, work-groups taking range-major chunks from a counter) and atomic (dumped for PyTorch);
#   2. PyTorch's index_add_ / scatter_add_ on the dumped inputs (int64 keys, as PyTorch takes them);
#   3. --part-add bulk (a row's sum staged in shared memory, added by ONE cp.reduce.async.bulk .add.f32) for part
#      and sweep;
#   4. i64 keys (PyTorch's key type, the same key values): the default and the sweep;
#   5. 13 and 9 ranges, and work-groups of 512: part and sweep.
# Writes OUT/*.json, info.txt and summary.txt (scripts/gpu-scatter-round8-summary.py).
#   ATOMLAB=build/atomlab OUT=out/scatter-round8 bash scripts/gpu-scatter-round8.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatter-round8 140
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V --type f32 --dist uniform"
step f32-i32 40 $S --variants atomic,auto,sweep --dump "$W/d" -o "$OUT/f32-i32.json" --quiet
step torch 20 python3 scripts/peer-torch-scatter.py "$W/d" --rows $E --dim $D --targets $V --dists uniform \
  --det-reps 0 -o "$OUT/torch.json"
rm -rf "$W/d"
step f32-i32-bulk 35 $S --variants part,sweep --part-add bulk -o "$OUT/f32-i32-bulk.json" --quiet
step f32-i64 35 $S --index i64 --variants auto,sweep -o "$OUT/f32-i64.json" --quiet
step f32-p13 30 $S --variants part,sweep --partitions 13 -o "$OUT/f32-p13.json" --quiet
step f32-wg512 30 $S --variants part,sweep --wg-size 512 -o "$OUT/f32-wg512.json" --quiet
step f32-p9 30 $S --variants part,sweep --partitions 9 -o "$OUT/f32-p9.json" --quiet
python3 scripts/gpu-scatter-round8-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
