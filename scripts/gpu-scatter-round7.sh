#!/usr/bin/env bash
# Scatter-add round 7 on an NVIDIA GPU (issue [scatter]), in one call of at most 150 s (the steps stop at 140 s):
#   0. check at a small size on CUDA: the dsm bincount (a cluster of 16 groups, of 8, one group; 3 bins whose
#      16-bit counters carry and wrap; i32 weights with i64 keys) and CUB's counts, every distribution;
#   1. f32, D = 64, E = 8 M, V = 1 M, every distribution: the default (auto) rows and the atomic variant, whose
#      verified output is dumped for PyTorch; then PyTorch's index_add_ / scatter_add_ on exactly those inputs
#      (scripts/peer-torch-scatter.py, no deterministic mode: time): uniform at 0.7x the copy ceiling and 3x
#      index_add_ in the same call;
#   2. the weighted bincount (u32, D = 1, E = 64 M) with 2^20 and 2^24 bins, uniform and zipf keys: atomic (the
#      native one), dsm (16-bit counters in a 16-group cluster's distributed shared memory: 2^20 bins in one
#      launch, 2^24 in 16), auto, and CUB's HistogramEven on the same keys (counts: CUB has no weights; verified
#      against the rows per bin); dsm with a per-group cache of 2048 keys (a zipf head's hot words), and over a
#      cluster of 8 (2 launches at 2^20);
#   3. where time is left: part on uniform keys with --part-prefetch l2 (each launch asks its range's output rows
#      into the L2 in address order first, instead of each row coming from DRAM at its first update in the keys'
#      random order), at 512 and 1024 work-items a group, over 11, 12 and 10 ranges (which shape gives uniform
#      keys a margin over 0.7x).
# Writes OUT/*.json, info.txt (each step's command and status) and summary.txt
# (scripts/gpu-scatter-round7-summary.py: every ratio against its target).
#   ATOMLAB=build/atomlab OUT=out/scatter-round7 bash scripts/gpu-scatter-round7.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatter-round7 140
C="$A app scatter --backend cuda --rows 300000 --targets 20000 --samples 2 --dim 1 --dsm-counters 16 --dsm-beyond launch" # round 7's dsm defaults then
step check-dsm 15 $C --type u32 --variants dsm,cub -o "$OUT/check-dsm.json" --quiet
step check-dsm-i32 10 $C --type i32 --index i64 --targets 3 --variants dsm --dsm-cache 256 \
  -o "$OUT/check-dsm-i32.json" --quiet
step check-dsm-c8 10 $C --type u32 --dsm-cluster 8 --dsm-words 512 --variants dsm -o "$OUT/check-dsm-c8.json" --quiet
B="$A app scatter --backend cuda --type u32 --dim 1 --rows 67108864 --dist uniform,zipf --dsm-counters 16 --dsm-beyond launch"
step bincount-2e20 20 $B --targets 1048576 --variants atomic,bins,dsm,auto,cub -o "$OUT/bincount-2e20.json" --quiet
step bincount-2e24 30 $B --targets 16777216 --variants atomic,part,dsm,auto,cub -o "$OUT/bincount-2e24.json" --quiet
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V --type f32 --part-prefetch none" # the default then
step f32 60 $S --variants atomic,auto --dump "$W/d" -o "$OUT/f32.json" --quiet
step torch 30 python3 scripts/peer-torch-scatter.py "$W/d" --rows $E --dim $D --targets $V --det-reps 0 \
  -o "$OUT/torch.json"
rm -rf "$W/d"
step bincount-2e20-cache 12 $B --targets 1048576 --variants dsm --dsm-cache 2048 -o "$OUT/bincount-2e20-cache.json" \
  --quiet
step bincount-2e20-c8 12 $B --targets 1048576 --variants dsm --dsm-cluster 8 -o "$OUT/bincount-2e20-c8.json" --quiet
for cfg in "11 256 l2" "11 512 none" "11 512 l2" "12 256 l2" "11 1024 none" "10 256 l2"; do
  set -- $cfg
  step "part-p$1-wg$2-$3" 15 $S --dist uniform --variants part --partitions $1 --wg-size $2 --part-prefetch $3 \
    -o "$OUT/part-p$1-wg$2-$3.json" --quiet
done
python3 scripts/gpu-scatter-round7-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
