#!/usr/bin/env bash
# Scatter-add round 6 on an NVIDIA GPU (issue [scatter]): the part variant's 16-bit warp path (bf16 no slower per
# element than f32), its local table for keys already seen (--part-table seen) and a warp's hot key summed in
# registers (--part-hot warp), both for zipf at 0.7x the ceiling; one call of at most 8 minutes on an H100
# (about 6):
#   1. check at a small size on CUDA: bf16 part (8 values a unit, every distribution, 5 ranges) and auto; bf16
#      with i64 keys and the seen table in one range; f16 at dim 34 (a pair a unit); f32 with the seen table;
#      f32 and bf16 with the warp's hot key; the deterministic variant (f32 on 7 groups of 1024, u32 i64 at 128);
#   2. bf16 at the issue's shape (D = 64, E = 8 M, V = 1 M; uniform, zipf, hot): round 5's best bf16 variants
#      (vector, block, run) beside auto, which now picks part; then auto with the seen table, with the hot key;
#   3. f32 at the same shape: auto (part with round 5's best configuration: L2-sized ranges for uniform keys,
#      one range for zipf and hot) and the atomic variant, inputs dumped; auto with the seen table, the hot
#      key (and its batch 2), both; PyTorch's index_add_ on the uniform keys (the 3x target);
#   4. the deterministic variant (det_place's ranks by match-any, rows and partials loaded ahead), checked at
#      a small size on other grids and work-group sizes, then f32 on every distribution with its sort and sum
#      times (det_sort_ms, det_sum_ms);
#   5. the weighted bincount, 2^20 bins, uniform keys: atomic, bins and auto, and atomic at 256 and 2048 rows a
#      warp (0.3x the ceiling: round 5 0.286x).
# Writes OUT/*.json, info.txt (each step's command and status) and summary.txt
# (scripts/gpu-scatter-round6-summary.py: every ratio against its target).
#   ATOMLAB=build/atomlab OUT=out/scatter-round6 bash scripts/gpu-scatter-round6.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatter-round6 450
C="$A app scatter --backend cuda --rows 300000 --targets 20000 --samples 2"
step check-bf16 25 $C --type bf16 --dim 64 --variants part,auto --partitions 5 --part-batch 2 \
  -o "$OUT/check-bf16.json" --quiet
step check-bf16-seen 25 $C --type bf16 --dim 64 --index i64 --variants part --partitions 1 --part-table seen \
  --part-batch 4 -o "$OUT/check-bf16-seen.json" --quiet
step check-f16 25 $C --type f16 --dim 34 --variants part --partitions 3 --part-table seen \
  -o "$OUT/check-f16.json" --quiet
step check-f32-seen 25 $C --type f32 --dim 64 --variants part --partitions 1 --part-table seen \
  -o "$OUT/check-f32-seen.json" --quiet
step check-f32-hot 25 $C --type f32 --dim 64 --variants part,auto --partitions 1 --part-hot warp \
  -o "$OUT/check-f32-hot.json" --quiet
step check-bf16-hot 25 $C --type bf16 --dim 64 --variants part --partitions 3 --part-hot warp --part-table seen \
  -o "$OUT/check-bf16-hot.json" --quiet
step check-det 25 $C --type f32 --dim 64 --variants det --groups 7 --wg-size 1024 -o "$OUT/check-det.json" --quiet
step check-det-u32 25 $C --type u32 --dim 33 --index i64 --variants det --wg-size 128 -o "$OUT/check-det-u32.json" \
  --quiet
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V --dist uniform,zipf,hot"
step bf16 70 $S --type bf16 --variants vector,block,run,auto -o "$OUT/bf16.json" --quiet
step bf16-seen 35 $S --type bf16 --variants auto --part-table seen -o "$OUT/bf16-seen.json" --quiet
step bf16-hot 35 $S --type bf16 --variants auto --part-hot warp -o "$OUT/bf16-hot.json" --quiet
step f32 60 $S --type f32 --variants atomic,auto --dump "$W/d" -o "$OUT/f32.json" --quiet
step f32-seen 35 $S --type f32 --variants auto --part-table seen -o "$OUT/f32-seen.json" --quiet
step f32-hot 35 $S --type f32 --variants auto --part-hot warp -o "$OUT/f32-hot.json" --quiet
step f32-hot-b2 30 $S --type f32 --dist zipf,hot --variants part --partitions 1 --part-hot warp --part-batch 2 \
  -o "$OUT/f32-hot-b2.json" --quiet
step f32-hot-seen 35 $S --type f32 --variants auto --part-hot warp --part-table seen -o "$OUT/f32-hot-seen.json" \
  --quiet
step det 60 $S --type f32 --dist all --variants det -o "$OUT/det.json" --quiet
step torch 40 python3 scripts/peer-torch-scatter.py "$W/d" --rows $E --dim $D --targets $V --dists uniform \
  --det-reps 1 -o "$OUT/torch.json"
rm -rf "$W/d"
B="$A app scatter --backend cuda --type u32 --dim 1 --rows 67108864 --targets 1048576 --dist uniform"
step bincount-2e20 35 $B --variants atomic,bins,auto -o "$OUT/bincount-2e20.json" --quiet
for rpw in 256 2048; do
  step "bincount-2e20-rpw$rpw" 25 $B --variants atomic --rows-per-warp $rpw -o "$OUT/bincount-2e20-rpw$rpw.json" --quiet
done
python3 scripts/gpu-scatter-round6-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
