#!/usr/bin/env bash
# Scatter-add round 4 on an NVIDIA GPU (issue [scatter]): the partitioned variant (part), one call of at most
# 7 minutes on an H100:
#   1. check: part on CUDA at a small size over 7, 3 and 5 ranges of keys (its f32 vector, u32 scalar with i64
#      keys and bf16 plain paths), every row verified;
#   2. f32 at the issue's shape (D = 64, E = 8 M rows, V = 1 M targets), every distribution (uniform, zipf,
#      sorted, clustered, hot), variants atomic, vector, block, run and auto, inputs dumped for the peer;
#   3. PyTorch's index_add_ / scatter_add_ (and index_add_ deterministic, one timed run) on the same inputs
#      (scripts/peer-torch-scatter.py);
#   4. part on the same inputs (a step of its own, so a fault in it loses none of step 2's rows): its ranges
#      from the L2's size (the output's 256 MiB over half the L2), then --partitions 1 (no partitioning: what
#      the vote, match-any and local table give by themselves), 4 (64 MiB slices, beyond the L2) and 32
#      (8 MiB slices, 32 passes over the keys);
#   5. the CUB baseline on the same inputs (cub::DeviceRadixSort::SortPairs + cub::DeviceReduce::ReduceByKey of
#      the rows, libatomlab_cub.so next to the binary), a step of its own for the same reason.
# Writes OUT/check-*.json, f32.json, torch.json, part-auto.json, part-p1.json, part-p4.json, part-p32.json, cub.json, info.txt (the
# steps' commands and status, the device's L2 size; app stderr goes there too) and OUT/summary.txt
# (scripts/gpu-scatter-round4-summary.py: every row, the best per distribution against 0.7x the ceiling, part
# per number of ranges, atomlab against PyTorch).
#   ATOMLAB=build/atomlab OUT=out/scatter-round4 bash scripts/gpu-scatter-round4.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatter-round4 410
C="$A app scatter --backend cuda --rows 300000 --targets 20000 --samples 2 --variants part"
step check-f32 20 $C --type f32 --dim 64 --partitions 7 -o "$OUT/check-f32.json" --quiet
step check-u32 20 $C --type u32 --dim 33 --index i64 --partitions 3 -o "$OUT/check-u32.json" --quiet
step check-bf16 20 $C --type bf16 --dim 64 --partitions 5 -o "$OUT/check-bf16.json" --quiet
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V --type f32"
step f32 150 $S --variants atomic,vector,block,run,auto --dump "$W/d" -o "$OUT/f32.json" --quiet
step torch 80 python3 scripts/peer-torch-scatter.py "$W/d" --rows $E --dim $D --targets $V --det-reps 1 \
  -o "$OUT/torch.json"
rm -rf "$W/d"
step part-auto 45 $S --variants part -o "$OUT/part-auto.json" --quiet
for p in 1 4 32; do
  step "part-p$p" 45 $S --variants part --partitions $p -o "$OUT/part-p$p.json" --quiet
done
step cub 60 $S --variants cub -o "$OUT/cub.json" --quiet
python3 scripts/gpu-scatter-round4-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
