#!/usr/bin/env bash
# Reference runs of the CUDA backend on an NVIDIA GPU machine (issue [cuda]).
#   gpu-cuda-reference.sh check   GPU tests, then the shared-memory, scope/order
#                                 and type sweeps (the sweeps took 6 minutes on
#                                 an H200; BUDGET=0.5 halves the sampling)
#   gpu-cuda-reference.sh sweeps  the three sweeps without the GPU tests
#   gpu-cuda-reference.sh grid    the full grid through CUDA (fetch_add and CAS)
#                                 and through OpenCL (fetch_add), for the
#                                 same-GPU cross-check (OPENCL_GRID=0: CUDA only)
# Each step is cut at STEP_LIMIT seconds (default 280) so a call returns its files.
# Writes under OUT (default out/gpu-cuda); expects a build in build/.
cd "$(dirname "$0")/.."
mode=${1:?usage: gpu-cuda-reference.sh check|sweeps|grid}
. scripts/gpu-env.sh
gpu_script gpu-cuda
{ echo "== start $mode"; $SMI; $A version; $A devices --occupancy; } >"$OUT/info-$mode.txt" 2>&1
cat "$OUT/info-$mode.txt"
ocl=$(gpu_device_id opencl gpu)
STEP_STATUS=$OUT/info-$mode.txt
L=${STEP_LIMIT:-280}
case $mode in
check | sweeps)
  # sweeps: the three sweeps alone (the GPU test takes about 5 minutes on its own)
  [ "$mode" = check ] && step gpu_cuda $L bash tests/cli/gpu_cuda.sh $A
  step smem $L $A rmw --backend cuda --space local --pattern all --op fetch_add,cas --result unused,used \
    --contention 1:256:x4 --padding 1,2,4,8,32 --budget ${BUDGET:-1} -o "$OUT/cuda-smem.json" -o "$OUT/cuda-smem.csv"
  step scopes $L $A rmw --backend cuda --scope all --order relaxed,acq_rel,seq_cst --op fetch_add,cas,exchange \
    --pattern contiguous,cross-warp --contention 1,32,1024 --padding 1 --result unused,used --budget ${BUDGET:-1} \
    -o "$OUT/cuda-scopes.json"
  step types $L $A rmw --backend cuda --op fetch_add,fetch_min,fetch_max --type all --pattern contiguous \
    --contention 1,32,1024 --padding 1 --result unused,used --budget ${BUDGET:-1} -o "$OUT/cuda-types.json"
  ;;
grid)
  # --budget 0.5: the noisiest CAS rows stop sampling after half a second
  step cuda_grid $L $A rmw --backend cuda --pattern all --op fetch_add,cas --contention 1:1024 --padding 1:1024 \
    --budget 0.5 -o "$OUT/cuda-grid.json" -o "$OUT/cuda-grid.csv"
  [ -n "$ocl" ] && [ "${OPENCL_GRID:-1}" = 1 ] && step opencl_grid $L $A rmw --device "$ocl" --pattern all \
    --op fetch_add --contention 1:1024 --padding 1:1024 --budget 0.5 -o "$OUT/opencl-grid.json"
  # the same-GPU cross-check, from the two files of this one call: each backend sizes its own grid, so the
  # grid is left out of the match; pairs that ran other instructions or iteration counts are noted
  [ -s "$OUT/cuda-grid.json" ] && [ -s "$OUT/opencl-grid.json" ] &&
    $A compare "$OUT/cuda-grid.json" "$OUT/opencl-grid.json" --threshold 10 --ignore wg_size,workgroups \
      -o "$OUT/crosscheck.txt"
  ;;
esac
{ echo "== end"; $SMI; } >>"$OUT/info-$mode.txt" 2>&1
