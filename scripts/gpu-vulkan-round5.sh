#!/usr/bin/env bash
# Issue 19, round 5: the full cross-API grids under Vulkan's push-constant loop count (the default since round 4)
# and occupancy discovery through the three APIs, one call of at most about 5 minutes on an NVIDIA GPU:
#
#   O  `atomlab devices --occupancy` (OUT/devices.txt, devices.json): every backend's discovered and estimated
#      count at work-groups of 256;
#   D  the discovery protocol side by side (OUT/discovery.txt; build/tests/unit/occupancy_probe): cuda and opencl
#      at 2x, 4x, 8x the estimate; vulkan the same in discovery.comp's modes 0 (the protocol as discovery.k.c),
#      1 (every invocation held at a barrier until invocation 0 is done), 2 and 3 (acquire/release atomics), 8
#      (the invocations that ran and the work-group size they saw), 16-19 (0-3 with the most groups whose
#      invocation 0 ran at once measured beside the count), 32-33 and 48-49 (the reads as atomicAdd of a zero the
#      compiler cannot see, without and with the count of groups at once); work-groups of 256 and 1024. Vulkan's default (what
#      devices --occupancy and the rows use) is now mode 1, the hold (src/backend/vulkan/pipeline.c).
#      docs/vulkan.md, "Occupancy discovery through Vulkan", says how each outcome reads;
#   G  the contiguous and cross-warp fetch_add grids, contention x padding 1..1024 (powers of two), as the
#      committed results/nvidia-h100/vulkan/grid-*.json were made (scripts/gpu-vulkan.sh: 5 ms launches, at most
#      0.3 s and 15 samples a row, one grid shape for every backend), on vulkan, cuda and opencl
#      (OUT/grid-<backend>.json), then vulkan and cuda again in fresh processes (OUT/grid-<backend>-2.json): the
#      run-to-run spread a cross-API difference has to exceed;
#   C  `atomlab compare --threshold 10` of every pair and of each repeat (OUT/compare-<a>-<b>.txt);
#   I  the instructions: every row carries its own (SASS for CUDA and OpenCL, the SPIR-V atomics for Vulkan);
#      OUT/executables.txt has what NVIDIA's driver tells of the Vulkan pipelines
#      (VK_KHR_pipeline_executable_properties);
#   V  OUT/round5-summary.txt (scripts/gpu-vulkan-round5.py): rows verified per file (exit 1 when one is not),
#      the instructions per backend, every cell where Vulkan and CUDA differ by more than 10% with both repeats.
# Everything under OUT (default out/results/<gpu>/vulkan/round5) with OUT/log.txt and OUT/status.txt.
# Run from the repository root on the GPU machine, the Vulkan loader unpacked (or .gl carried):
#   bash scripts/gpu-vulkan-round5.sh
# DEVICE_TYPE=cpu GRID_MAX=4 tries it on lavapipe and PoCL (no CUDA there: the summary then exits 1).
cd "$(dirname "$0")/.."
for f in .gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
command -v ldconfig >/dev/null && ldconfig 2>/dev/null
. scripts/gpu-env.sh
gpu_vulkan_script gpu-vulkan-round5 vulkan/round5 420
T=${DEVICE_TYPE:-gpu} MAX=${GRID_MAX:-1024}
gpu_vulkan_devices "$T"
gpu_vulkan_grid "$VK"
backend_id() { case $1 in vulkan) echo "$VK" ;; cuda) echo "$CU" ;; opencl) echo "$CL" ;; esac; }

# O, D: discovery.
step -o "$OUT/devices.txt" devices 60 "$A" devices --occupancy
step -o "$OUT/devices.json" devices-json 30 "$A" devices --format json
gpu_vulkan_discovery 90 0,1,2,3,8,16,17,18,19,32,33,48,49

# G: the grids, then a second pass of vulkan and cuda.
GRID="--pattern contiguous,cross-warp --op fetch_add --contention 1:$MAX --padding 1:$MAX --wg-size $WG
  --workgroups $NGROUPS --target-ms 5 --budget 0.3 --max-samples 15"
for run in vulkan cuda opencl cuda-2 vulkan-2; do
  id=$(backend_id "${run%-2}")
  [ -z "$id" ] && { step_note "grid-$run: no ${run%-2} $T device, skipped"; continue; }
  step grid-$run 120 "$A" rmw --device "$id" $GRID -o "$OUT/grid-$run.json" --quiet
done

# C: compare.
for pair in cuda:vulkan cuda:opencl opencl:vulkan cuda:cuda-2 vulkan:vulkan-2 cuda-2:vulkan-2; do
  a=${pair%%:*} b=${pair##*:}
  [ -f "$OUT/grid-$a.json" ] && [ -f "$OUT/grid-$b.json" ] &&
    step -o "$OUT/compare-$a-$b.txt" compare-$a-$b 30 "$A" compare "$OUT/grid-$a.json" "$OUT/grid-$b.json" --threshold 10
done

# I: the Vulkan pipelines as the driver tells them.
EXE=${VK_EXECUTABLES:-./build/tests/unit/vk_executables}
[ -x "$EXE" ] && step -o "$OUT/executables.txt" executables 60 "$EXE" "$VK"

# V: the summary; its exit says whether every row verified.
step -o "$OUT/round5-summary.txt" summary 60 python3 scripts/gpu-vulkan-round5.py "$OUT"
cat "$OUT/round5-summary.txt"
exit ${STEP_FAILED:-0}
