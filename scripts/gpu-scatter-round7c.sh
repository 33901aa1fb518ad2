#!/usr/bin/env bash
# Scatter-add round 7, third call (issue [scatter]), at most 120 s (the steps stop at 112 s), deciding steps only:
#   1. the weighted bincount, 2^20 bins, uniform and zipf keys: atomic, bins, dsm with its new defaults (32-bit
#      counters for 2^19 bins in a cluster's tables, the rest by L2 atomics in the same launch: call 2's 0.657 ms
#      against atomic's 0.829), auto (now dsm for uniform keys on sm_90) and CUB's HistogramEven (5x);
#   2. f32, D = 64, uniform keys: auto with --part-prefetch l2 (call 2's step ran out of time before its row) and
#      atomic (dumped for PyTorch), PyTorch's index_add_ on them (3x), then part over 11 ranges without the
#      prefetch (the baseline in the same call).
# Writes OUT/*.json, info.txt and summary.txt (scripts/gpu-scatter-round7-summary.py).
#   ATOMLAB=build/atomlab OUT=out/scatter-round7c bash scripts/gpu-scatter-round7c.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatter-round7c 112
step bincount-2e20 20 $A app scatter --backend cuda --type u32 --dim 1 --rows 67108864 --targets 1048576 \
  --dist uniform,zipf --variants atomic,bins,dsm,auto,cub -o "$OUT/bincount-2e20.json" --quiet
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V --type f32 --dist uniform"
step f32-l2 42 $S --variants atomic,auto --part-prefetch l2 --dump "$W/d" -o "$OUT/f32-l2.json" --quiet
step torch 15 python3 scripts/peer-torch-scatter.py "$W/d" --rows $E --dim $D --targets $V --dists uniform \
  --det-reps 0 -o "$OUT/torch.json"
rm -rf "$W/d"
step part-p11-wg256-none 32 $S --variants part --partitions 11 --part-prefetch none -o "$OUT/part-p11-wg256-none.json" --quiet
python3 scripts/gpu-scatter-round7-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
