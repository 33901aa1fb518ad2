#!/usr/bin/env bash
# Scatter-add round 6 on an NVIDIA GPU (issue [scatter]), only the rows that decide this round's targets, in one
# call of at most 150 s (the steps stop at 140 s; round 5 took about 15 s a step at the issue's shape):
#   1. check at a small size on CUDA (every distribution): part's 16-bit warp path at an even dim that is not a
#      multiple of 8 (f16, dim 34: a pair a unit) with i64 keys, the seen table and the warp's hot key; the det
#      variant's new ranking (det_place by match-any) on 7 work-groups of 1024; every row verified (det: bit
#      for bit against the host's emulation of its order);
#   2. zipf keys, D = 64, E = 8 M, V = 1 M, part in one range: f32 as round 5 ran it, bf16 through part's new
#      warp path (and block, round 5's best bf16 row), then both with --part-table seen --part-hot warp (zipf
#      at 0.7x the ceiling; bf16 no slower per element than f32);
#   3. the det variant, f32, uniform, zipf and hot keys (round 5: 0.206x, 0.177x, 0.136x, the worst), with its
#      sort and sum times (0.4x the ceiling);
#   4. the weighted bincount, 2^20 bins, uniform keys, atomic at 256 rows a warp (0.3x the ceiling; round 5
#      0.286x at 32);
#   5. if the deadline leaves time: f32 zipf with the seen table alone, then the hot key alone.
# Writes OUT/*.json, info.txt (each step's command and status) and summary.txt
# (scripts/gpu-scatter-round6-summary.py: every ratio against its target).
#   ATOMLAB=build/atomlab OUT=out/scatter-round6 bash scripts/gpu-scatter-round6.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatter-round6 140
C="$A app scatter --backend cuda --rows 300000 --targets 20000 --samples 2"
step check-f16 15 $C --type f16 --dim 34 --index i64 --variants part --partitions 3 --part-table seen --part-hot warp \
  -o "$OUT/check-f16.json" --quiet
step check-det 15 $C --type f32 --dim 64 --variants det --groups 7 --wg-size 1024 -o "$OUT/check-det.json" --quiet
Z="$A app scatter --backend cuda --rows $E --dim $D --targets $V --dist zipf --partitions 1"
NEW="--part-table seen --part-hot warp"
step f32 25 $Z --type f32 --variants part --part-table recur -o "$OUT/f32.json" --quiet
step bf16 25 $Z --type bf16 --variants part,block --part-table recur -o "$OUT/bf16.json" --quiet
step f32-new 25 $Z --type f32 --variants part $NEW -o "$OUT/f32-new.json" --quiet
step bf16-new 25 $Z --type bf16 --variants part $NEW -o "$OUT/bf16-new.json" --quiet
step det 30 $A app scatter --backend cuda --rows $E --dim $D --targets $V --type f32 --dist uniform,zipf,hot \
  --variants det -o "$OUT/det.json" --quiet
step bincount-rpw256 15 $A app scatter --backend cuda --type u32 --dim 1 --rows 67108864 --targets 1048576 \
  --dist uniform --variants atomic --rows-per-warp 256 -o "$OUT/bincount-rpw256.json" --quiet
# where time is left before the deadline: the seen table and the hot key apart (which of the two helps)
step f32-seen 20 $Z --type f32 --variants part --part-table seen -o "$OUT/f32-seen.json" --quiet
step f32-hot 20 $Z --type f32 --variants part --part-hot warp -o "$OUT/f32-hot.json" --quiet
python3 scripts/gpu-scatter-round6-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
