#!/usr/bin/env bash
# Issue [diagnose], round 5, on the H100 in one GPU call of about 7 minutes (every step under `timeout`):
#   1. seed 000's speedup model out of sample: `atomlab app swatomic --experiment` (CUDA, NVIDIA OpenCL), then
#      `atomlab model swatomic` with the coordinator's pass fitted on the committed H200 CUDA run (grids 8, 128,
#      1024): every H100 grid is out of sample (docs/software-atomics.md, "The coordinator's pass");
#   2. the L2 calibration of float adds: same-address and spread rmw exports of f32 fetch_add (RED and ATOM),
#      beside the u32 ones the validation makes (the float same-address histograms were U 0.46 on the u32 one);
#   3. the atomic instructions (SASS with their types) of the kernels whose strategies' own costs the advice
#      missed or whose L2 requests are floats (the global scatter and histogram, what their strategies run): ncu's source page of the shared/global float and histogram
#      kernels (shared f32 add as a CAS loop; RED.ADD.F32 at the L2); and which opcode metrics this ncu has;
#   4. scripts/gpu-diagnose-validate.sh (the validation suite, shared and global, with the advice applied),
#      its programs' deadline cut so the whole call stays within 7 minutes.
# Writes under OUT (default out/gpu-diagnose-round5): summary.txt, run.log, swatomic-{cuda,opencl}.json,
# swmodel-{cuda,opencl}.txt, same-f32.csv, spread-f32.csv, sass-*.csv, opcode-metrics.txt and validate/ (every
# file of gpu-diagnose-validate.sh: programs.csv, same.csv, spread.csv, smem-table.csv, validation.json, ...).
# Run: OUT=/some/dir bash scripts/gpu-diagnose-round5.sh   (a build in build/, ncu, python3; torch, cupy where installed)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_ncu_script gpu-diagnose-round5
H200=results/nvidia-h200/swatomic/swatomic-cuda.json

# 1. the software atomic (about 15 s per backend on the H200), then the model: the H200 CUDA run's constants
for be in cuda opencl; do
  f="$OUT/swatomic-$be.json"
  step "swatomic-$be" 70 $A app swatomic --backend $be --wg-size 256 --groups 8:max:x2 --iters 8 --samples 5 \
    --spin-bound 4194304 --experiment -o "$f"
  [ -s "$f" ] || continue
  {
    echo "== $be: the seed's equation (2)"
    $A model swatomic "$f"
    echo "== $be: the coordinator's pass, constants of the H200 CUDA run (grids 8, 128, 1024): all out of sample"
    $A model swatomic "$f" --fit "$H200" --fit-grids 8,128,1024
    echo "== $be: the coordinator's pass fitted on this run's grids 8, 128, 1024 (in-sample), the rest out of sample"
    $A model swatomic "$f" --fit-grids 8,128,1024
  } >"$OUT/swmodel-$be.txt" 2>&1
  { echo; cat "$OUT/swmodel-$be.txt"; } >>"$S"
done

# 2. L2 calibration of float adds (the rmw kernels of gpu-diagnose-validate.sh's u32 ones, --type f32)
R="$A rmw --backend cuda --grid occupancy --op fetch_add --type f32 --result unused,used --iters 64 --min-samples 1 --max-samples 1 --quiet -o $W/r.json"
gpu_l2_calibrate same-f32 $R --pattern contiguous --contention 1024 --padding 1
gpu_l2_calibrate spread-f32 $R --pattern contiguous --contention 1 --padding 32
gpu_l2_summary same-f32 spread-f32

# 3. the atomic instructions of the kernels the advice missed, with their types (the source page's SASS)
"$NCU" --query-metrics 2>>"$L" | grep -i -E 'opcode|_op_.*(atom|red)' >"$OUT/opcode-metrics.txt"
SC="$A app scatter --backend cuda --type f32 --rows 1048576 --dim 64 --targets 131072 --samples 1 --quiet -o $W/s.json"
H="$A app histogram --backend cuda --input u8 --bytes 67108864 --samples 1 --no-cub --quiet -o $W/h.json"
gpu_ncu_sass scatter-hot-atomic scatter_add 2 $SC --dist hot --variants atomic
gpu_ncu_sass scatter-hot-block scatter_add 2 $SC --dist hot --variants block
gpu_ncu_sass hist-uniform-global histogram 2 $H --dist uniform --variants global
gpu_ncu_sass hist-uniform-shared histogram 2 $H --dist uniform --variants shared
gpu_ncu_sass hist-uniform-warp-private histogram 2 $H --dist uniform --variants warp-private
gpu_ncu_sass rmw-f32-same rmw 2 $R --pattern contiguous --contention 1024 --padding 1
python3 -c "import torch; assert torch.cuda.is_available()" 2>>"$L" &&
  gpu_ncu_sass torch "kernelHistogram1D|indexFunc" 8 python3 scripts/torch-scatter-ops.py --float-histc
gpu_sass_summary

# 4. the validation suite (its own summary, run.log and files under validate/); its programs end by the deadline
gpu_diagnose_validate "${GPU_DIAGNOSE_SECONDS:-190}"
tail -8 "$OUT/validate/summary.txt" >>"$S" 2>/dev/null
cat "$S"
