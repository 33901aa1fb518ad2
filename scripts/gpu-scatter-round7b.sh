#!/usr/bin/env bash
# Scatter-add round 7, second call (issue [scatter]), at most 150 s (the steps stop at 140 s). The first call found
# dsm (every bin in a cluster's distributed table, one launch) slower than L2 atomics on uniform keys (1.074 ms
# against atomic's 0.831 at 2^20 bins), and its part prefetch step cut by its timeout. This call:
#   0. check at a small size on CUDA: dsm with --dsm-beyond global (a table of part of the bins, the rest added
#      to the output by L2 atomics in the same launch), 16-bit counters; then 32-bit ones with the key cache,
#      i32 weights and i64 keys;
#   1. 2^20 bins, uniform keys: atomic, then dsm --dsm-beyond global with tables of 2^14, 2^13 and 2^12 words a
#      group (half, a quarter and an eighth of the bins in the cluster's tables), and with 32-bit counters added
#      by reductions that return nothing (--dsm-counters 32: 2^15 and 2^14 words, half and a quarter of the
#      bins): do the two kinds of atomic units together beat the L2's alone (0.3x the read ceiling);
#   2. f32, D = 64, uniform keys: atomic and auto (dumped for PyTorch), PyTorch's index_add_ on them (3x), then
#      auto with --part-prefetch l2 (0.7x with a margin);
#   3. 2^24 bins, uniform and zipf keys: atomic, part, auto, and CUB (now refused there: it crashed in call 1);
#   4. where time is left: part on uniform keys at 512 a group; over 9 ranges with the prefetch (its evict_last
#      output may hold more than half the L2: fewer passes over the keys).
# Writes OUT/*.json, info.txt and summary.txt (scripts/gpu-scatter-round7-summary.py reads both calls' files).
#   ATOMLAB=build/atomlab OUT=out/scatter-round7b bash scripts/gpu-scatter-round7b.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatter-round7b 140
C="$A app scatter --backend cuda --rows 300000 --targets 20000 --samples 2 --dim 1 --dsm-beyond global --dsm-counters 16"
step check-split 10 $C --type u32 --variants dsm --dsm-words 256 -o "$OUT/check-split.json" --quiet
step check-split-i32 10 $C --type i32 --index i64 --variants dsm --dsm-words 128 --dsm-cache 256 --dsm-counters 32 \
  -o "$OUT/check-split-i32.json" --quiet
B="$A app scatter --backend cuda --type u32 --dim 1 --rows 67108864 --targets 1048576 --dist uniform"
step split-w14 15 $B --variants atomic,dsm --dsm-beyond global --dsm-counters 16 --dsm-words 16384 -o "$OUT/split-w14.json" --quiet
for w in 15 14; do # 32-bit counters (reductions that return nothing): 2^19, 2^18 bins in the tables
  step split32-w$w 12 $B --variants dsm --dsm-beyond global --dsm-counters 32 --dsm-words $((1 << w)) \
    -o "$OUT/split32-w$w.json" --quiet
done
for w in 13 12; do
  step split-w$w 12 $B --variants dsm --dsm-beyond global --dsm-counters 16 --dsm-words $((1 << w)) -o "$OUT/split-w$w.json" --quiet
done
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V --type f32 --dist uniform --part-prefetch none"
step f32 25 $S --variants atomic,auto --dump "$W/d" -o "$OUT/f32.json" --quiet
step torch 15 python3 scripts/peer-torch-scatter.py "$W/d" --rows $E --dim $D --targets $V --dists uniform \
  --det-reps 0 -o "$OUT/torch.json"
rm -rf "$W/d"
step f32-l2 20 $S --variants auto --part-prefetch l2 -o "$OUT/f32-l2.json" --quiet
step bincount-2e24 25 $A app scatter --backend cuda --type u32 --dim 1 --rows 67108864 --targets 16777216 \
  --dist uniform,zipf --variants atomic,part,auto,cub -o "$OUT/bincount-2e24.json" --quiet
for cfg in "11 512 none" "9 256 l2"; do
  set -- $cfg
  step "part-p$1-wg$2-$3" 18 $S --variants part --partitions $1 --wg-size $2 --part-prefetch $3 \
    -o "$OUT/part-p$1-wg$2-$3.json" --quiet
done
python3 scripts/gpu-scatter-round7-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
