#!/usr/bin/env bash
# The commands whose work moved from cli/ into the library (branch arch3, issue [architecture]) on a GPU,
# one call of at most 8 minutes on a 1-GPU machine (a second GPU adds rmw --device all):
#   check     the existing GPU tests of the CLI: tests/cli/gpu_cuda.sh, gpu_strategy.sh, gpu_apps.sh
#   devices   atomlab devices (table and JSON: src/core/device_write.c)
#   rmw       a small grid on CUDA and on NVIDIA's OpenCL (the sweep driver, src/core/sweep_command.c and
#             rmw_plan.c), with -o JSON and CSV; resumed from its own file (every row reused)
#   strategy  every strategy on the three patterns (strategy_plan.c, strategy_winners.c)
#   app       histogram u8 (the app's help and run through src/apps/help.c, config.c)
#   report    report --quick (the steps of src/report/steps.c) into OUT/report
#   multi     rmw --device all where there are two GPUs or more
# Writes OUT/info.txt (every step's exit and time), OUT/log.txt and each step's files; exit 1 if a step failed.
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-arch3
A=${ATOMLAB:-./build/atomlab}
step_deadline "${DEADLINE_S:-450}"
{ date -u +%FT%TZ; $SMI; $A version; } >"$OUT/info.txt" 2>&1
STEP_LOG=$OUT/log.txt STEP_STATUS=$OUT/info.txt
step -o "$OUT/devices.txt" devices 30 $A devices
step -o "$OUT/devices.json" devices-json 30 $A devices --format json
step check-cuda 120 bash tests/cli/gpu_cuda.sh "$A"
step check-strategy 90 bash tests/cli/gpu_strategy.sh "$A"
step check-apps 90 bash tests/cli/gpu_apps.sh "$A"
GRID="--op fetch_add,cas --result unused,used --contention 1,32,1024 --padding 1,32 --target-ms 5 --max-samples 10"
step rmw-cuda 60 $A rmw $GRID --backend cuda -o "$OUT/rmw-cuda.json" -o "$OUT/rmw-cuda.csv" --quiet
step rmw-resume 30 $A rmw $GRID --backend cuda --resume "$OUT/rmw-cuda.json" -o "$OUT/rmw-resumed.json" --quiet
ocl=$(gpu_device_id opencl gpu)
[ -n "$ocl" ] && step rmw-opencl 60 $A rmw $GRID --device "$ocl" -o "$OUT/rmw-opencl.json" --quiet
step -o "$OUT/strategy.txt" strategy 60 $A strategy --backend cuda --target-ms 5 --max-samples 10 \
  -o "$OUT/strategy.json"
step app 60 $A app histogram --backend cuda --input u8 --dist all --bytes 67108864 -o "$OUT/histogram.json" --quiet
step report 120 $A report --quick --backend cuda -o "$OUT/report"
if [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
  step multi 60 $A rmw $GRID --backend cuda --device all -o "$OUT/rmw-all.json" --quiet
fi
cat "$OUT/info.txt"
exit ${STEP_FAILED:-0}
