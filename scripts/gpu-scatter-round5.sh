#!/usr/bin/env bash
# Scatter-add round 5 on an NVIDIA GPU (issue [scatter]): the part variant's bucketing and batched loads, auto
# picking part, and what round 4 did not re-measure; one call of at most 8 minutes on an H100 (about 6):
#   1. check: part on CUDA at a small size, bucketed (--part-keys bucket) over 7, 3 and 5 ranges (its f32
#      vector, u32 i64-key and bf16 paths), batched loads, dim 1; auto; and the bucketed part on NVIDIA's
#      OpenCL driver; every row verified;
#   2. part at the issue's shape (f32, D = 64, E = 8 M, V = 1 M) on uniform keys at several points: rereading
#      every key (round 4's kernel) against bucketing, --part-batch 1, 2 and 4, 6 to 24 ranges; then zipf and
#      hot keys in one range either way;
#   3. f32 every distribution: atomic, vector, block, run, det and auto (which may now pick part), inputs
#      dumped for the peer; then PyTorch's index_add_, scatter_add_ and deterministic index_add_ on them
#      (scripts/peer-torch-scatter.py; uniform, zipf, hot);
#   4. bf16 against f32 per element (uniform, zipf, hot);
#   5. the weighted bincount (u32, D = 1, E = 64 M): 2^20 and 2^24 bins, atomic, bins, part and auto; part at
#      2^24 over 3 (from the L2) and 6 ranges, and bucketed.
# Writes OUT/*.json, info.txt (each step's command and status, the device's L2) and summary.txt
# (scripts/gpu-scatter-round5-summary.py: every ratio against its target).
#   ATOMLAB=build/atomlab OUT=out/scatter-round5 bash scripts/gpu-scatter-round5.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatter-round5 450
C="$A app scatter --backend cuda --rows 300000 --targets 20000 --samples 2"
step check-f32 20 $C --type f32 --dim 64 --variants part,auto --partitions 7 --part-keys bucket --part-batch 4 \
  -o "$OUT/check-f32.json" --quiet
step check-u32 20 $C --type u32 --dim 33 --index i64 --variants part --partitions 3 --part-keys bucket \
  --part-batch 2 -o "$OUT/check-u32.json" --quiet
step check-bf16 20 $C --type bf16 --dim 64 --variants part --partitions 5 --part-keys bucket \
  -o "$OUT/check-bf16.json" --quiet
step check-d1 20 $C --type u32 --dim 1 --variants part --partitions 3 --part-batch 4 -o "$OUT/check-d1.json" --quiet
ocl=$(gpu_device_id opencl gpu)
[ -n "$ocl" ] && step check-opencl 40 $A app scatter --device "$ocl" --rows 300000 --targets 20000 --samples 2 \
  --type f32 --dim 64 --variants part --partitions 7 --part-keys bucket -o "$OUT/check-opencl.json" --quiet
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V --type f32"
# uniform keys: HOW P B (round 4's kernel read every key in each of 11 launches, one unit a lane at a time)
for cfg in "reread 11 1" "reread 11 2" "reread 11 4" "bucket 11 1" "bucket 11 2" "bucket 11 4" "bucket 6 4" \
  "bucket 8 2" "bucket 8 4" "bucket 16 4" "bucket 24 4"; do
  set -- $cfg
  step "part-$1-p$2-b$3" 25 $S --dist uniform --variants part --part-keys $1 --partitions $2 --part-batch $3 \
    -o "$OUT/part-$1-p$2-b$3.json" --quiet
done
for cfg in "reread 1 1" "reread 1 4" "bucket 1 4"; do
  set -- $cfg
  step "head-$1-p$2-b$3" 35 $S --dist zipf,hot --variants part --part-keys $1 --partitions $2 --part-batch $3 \
    -o "$OUT/head-$1-p$2-b$3.json" --quiet
done
step f32 120 $S --variants atomic,vector,block,run,det,auto --dump "$W/d" -o "$OUT/f32.json" --quiet
step torch 60 python3 scripts/peer-torch-scatter.py "$W/d" --rows $E --dim $D --targets $V --dists uniform,zipf,hot \
  --det-reps 1 -o "$OUT/torch.json"
rm -rf "$W/d"
step bf16 60 $S --type bf16 --dist uniform,zipf,hot --variants atomic,run,block,vector,part,auto \
  -o "$OUT/bf16.json" --quiet
B="$A app scatter --backend cuda --type u32 --dim 1 --rows 67108864"
step bincount-2e20 45 $B --targets 1048576 --dist uniform,zipf,hot --variants atomic,bins,part,auto \
  -o "$OUT/bincount-2e20.json" --quiet
step bincount-2e24 45 $B --targets 16777216 --dist uniform,zipf --variants atomic,bins,part,auto \
  -o "$OUT/bincount-2e24.json" --quiet
step bincount-2e24-p6 25 $B --targets 16777216 --dist uniform --variants part --partitions 6 \
  -o "$OUT/bincount-2e24-p6.json" --quiet
step bincount-2e24-bucket 25 $B --targets 16777216 --dist uniform --variants part --part-keys bucket \
  -o "$OUT/bincount-2e24-bucket.json" --quiet
python3 scripts/gpu-scatter-round5-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
