#!/usr/bin/env bash
# Issue 19, round 4: the three open items of the Vulkan backend on an NVIDIA GPU, one call of at most 7 minutes
# (docs/vulkan.md, docs/crosscheck.md). In the order of their weight (the deadline skips the last):
#
#   R  the standalone reproducer, every variant (OUT/repro.txt): ww-iters-buffer (the loop count from a storage
#      buffer, which failed on the H100 and H200) beside the count from a push constant, a specialization constant,
#      a uniform buffer, a per-lane storage buffer and a broadcast storage-buffer value, and ww-iters-buffer with
#      the results unused, folded, or on even lanes only.
#   F  the 24 shared-memory rows that were wrong (u64 and/or/xor, f32 fetch_add; contiguous and cross-warp at
#      contention 32; result used and unused; device and workgroup scope) under each form of atomlab's loop count,
#      ATL_VULKAN_ITERS=buffer (the old form), push, subgroup (OUT/forms-<form>.json; CUDA verified the same rows on
#      this GPU before: results/nvidia-h100/vulkan/cuda-local-ops.json); the pipelines' executable statistics under each form (OUT/executables-<form>.txt;
#      OUT/executables-shared-<form>.txt those of the 24 rows' kernels),
#      and the measured fetch_add kernel at six cells under each form against CUDA (OUT/cells-<form>.json,
#      OUT/cells-cuda.json): does a form change the speed of the loop the grids measure?
#   D  occupancy discovery side by side: `atomlab devices --occupancy` (OUT/devices-occupancy.txt) and
#      build/tests/unit/occupancy_probe on cuda, opencl and vulkan at 2x, 4x and 8x the estimate, work-groups of
#      256 and 1024, on Vulkan in discovery.comp's modes 0-3 and 8 (8 counts the invocations that ran and the
#      work-group size they saw) (OUT/discovery.txt). A count that follows the launch
#      is a poll that never closed; a count that stays at 2x the hardware's is residency (or the work-group size).
#   X  the two unexplained cells: cross-warp fetch_add at contention 1024, padding 256-1024 (Vulkan 0.39-0.49 of
#      CUDA) and cross-warp contention 1 padding 1024 (0.57 then 0.84), fixed iterations, one grid shape:
#      X1 stride: contention 1024 at paddings 128..1024, powers of two and not, on cuda, opencl, vulkan
#         (OUT/x1-<backend>.json): a drop at every stride >= 1 KiB is the span; at powers of two only, aliasing;
#      X2 words: padding 256 and 1024 at 264..2112 work-groups (66..528 words) (OUT/x2-<backend>-w<G>.json);
#      X3 placement: Vulkan's buffers at offsets 0, 4 KiB, 64 KiB, 1 MiB + 4 KiB into their allocation, in a
#         dedicated allocation and in host-visible device memory (ATL_VULKAN_OFFSET, ATL_VULKAN_MEMORY;
#         OUT/x3-<placement>.json), and CUDA's own placements and its loop not unrolled at the same cells
#         (build/placement_rmw; OUT/x3-cuda-placement.txt);
#      X4 contention 1, padding 1024: contiguous and cross-warp put every thread on the same word (t * 1024), so
#         the two rows are one experiment; each backend three times in fresh processes, 3 repeats each
#         (OUT/x4-<backend>-<n>.json): a Vulkan spread between identical rows is the run's state, not the pattern.
#   A  every op again on NVIDIA's Vulkan driver under the push and subgroup forms (OUT/all-ops-<form>.json): every row
#      verified or unsupported, plain_add caught.
# OUT/round4-summary.txt has the tables (scripts/gpu-vulkan-round4.py). Everything goes under OUT (default
# out/results/<gpu>/vulkan/round4) with OUT/log.txt and OUT/status.txt.
# Run from the repository root on the GPU machine, with .gl carried: bash scripts/gpu-vulkan-round4.sh
cd "$(dirname "$0")/.."
for f in .gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
ldconfig
. scripts/gpu-env.sh
gpu_vulkan_script gpu-vulkan-round4 vulkan/round4 400
# DEVICE_TYPE=cpu tries the script on lavapipe and PoCL (the development machine; REF=opencl there).
T=${DEVICE_TYPE:-gpu}
gpu_vulkan_devices "$T"
REF=${REF:-cuda}
RF=$([ "$REF" = cuda ] && echo "$CU" || echo "$CL")
step_note "reference=$REF"
gpu_vulkan_grid "$VK"
backend_id() { case $1 in vulkan) echo "$VK" ;; opencl) echo "$CL" ;; *) echo "$RF" ;; esac; }
# rmw NAME DEVICE ITERS ARGS...: fixed iterations, a few samples, into OUT/NAME.json.
rmw() {
  local name=$1 dev=$2 iters=$3
  shift 3
  step "$name" 60 "$A" rmw --device "$dev" --wg-size $WG --iters "$iters" --min-samples 3 --max-samples 5 \
    --budget 0.3 "$@" -o "$OUT/$name.json" --quiet
}

# R: the reproducer, every variant.
REPRO=${REPRO:-./build/tests/vulkan/repro_shared_atomics}
if [ -x "$REPRO" ]; then
  step -o "$OUT/repro.txt" repro 90 "$REPRO" --device "${VK#vulkan:}"
else
  step_note "repro: $REPRO not built (no libvulkan to link at build time)"
fi

# F: the 24 rows under each form of the loop count, and the same rows through CUDA.
ROWS24="--pattern contiguous,cross-warp --op and,or,xor,fetch_add --type u64,f32 --space local --result all
  --scope device,block --contention 32 --padding 1 --workgroups $NGROUPS"
for form in buffer push subgroup; do
  ATL_VULKAN_ITERS=$form rmw forms-$form "$VK" 64 $ROWS24 --min-samples 1 --max-samples 1
done
EXE=${VK_EXECUTABLES:-./build/tests/unit/vk_executables}
for form in buffer push subgroup; do
  [ -x "$EXE" ] && ATL_VULKAN_ITERS=$form step -o "$OUT/executables-$form.txt" executables-$form 40 "$EXE" "$VK"
  [ -x "$EXE" ] && ATL_VULKAN_ITERS=$form step -o "$OUT/executables-shared-$form.txt" executables-shared-$form 40 \
    "$EXE" "$VK" --shared-rows
done
# The kernel the grids measure, under each form, at cells of every kind (combined, slow, fast).
CELLS="--op fetch_add --pattern contiguous,cross-warp --contention 1,32,1024 --padding 1,1024 --workgroups $NGROUPS"
for form in buffer push subgroup; do
  ATL_VULKAN_ITERS=$form rmw cells-$form "$VK" "$(it 1024)" $CELLS
done
[ -n "$RF" ] && rmw cells-$REF "$RF" "$(it 1024)" $CELLS

# D: occupancy discovery side by side.
step -o "$OUT/devices-occupancy.txt" devices-occupancy 60 "$A" devices --occupancy
gpu_vulkan_discovery 60 0,1,2,3,8

# X1: stride at contention 1024 (264 words at the grid shape), every backend.
X1="--op fetch_add --pattern cross-warp --contention 1024 --padding 128,192,256,320,384,512,768,1000,1024
  --workgroups $NGROUPS"
for b in $REF vulkan $([ "$REF" = cuda ] && [ -n "$CL" ] && echo opencl); do
  rmw x1-$b "$(backend_id $b)" "$(it 1024)" $X1
done
# X3: placement, Vulkan's knobs and CUDA's own (placement_rmw: offsets, managed memory, the loop not unrolled).
X3="--op fetch_add --pattern cross-warp --contention 1024 --padding 128,256,1024 --workgroups $NGROUPS"
for place in offset-0 offset-4096 offset-65536 offset-1052672 dedicated host-visible; do
  case $place in
  offset-*) env="ATL_VULKAN_OFFSET=${place#offset-}" ;;
  *) env="ATL_VULKAN_MEMORY=$place" ;;
  esac
  export "$env"
  rmw x3-$place "$VK" "$(it 1024)" $X3
  unset ATL_VULKAN_OFFSET ATL_VULKAN_MEMORY
done
PLACE=${PLACEMENT_RMW:-./build/placement_rmw}
if [ -x "$PLACE" ] && [ "$REF" = cuda ]; then
  : >"$OUT/x3-cuda-placement.txt"
  for cell in "cross-warp 1024 256" "cross-warp 1024 1024" "cross-warp 1024 128"; do
    set -- $cell
    echo "cell $1 $2 $3 iters $(it 1024)" >>"$OUT/x3-cuda-placement.txt"
    step -o "$OUT/x3-cuda-placement.txt" "x3-cuda-$1-$2-$3" 40 "$PLACE" "$1" "$2" "$3" $WG $NGROUPS "$(it 1024)" 5
  done
else
  step_note "x3: $PLACE not built (no nvcc at build time) or the reference is not CUDA: CUDA placement not measured"
fi
# X4: contention 1, padding 1024, contiguous and cross-warp (identical addresses), fresh processes.
for n in 1 2 3; do
  for b in $REF vulkan; do
    rmw x4-$b-$n "$(backend_id $b)" "$(it 1024)" --op fetch_add --pattern contiguous,cross-warp --contention 1 --padding 1024 \
      --workgroups $NGROUPS --repeat 3
  done
done
# X2: the number of words at contention 1024 (workgroups x 256 / 1024 words).
for g in $((NGROUPS / 4)) $((NGROUPS / 2)) $((NGROUPS * 2)); do
  for b in $REF vulkan; do
    rmw x2-$b-w$g "$(backend_id $b)" "$(it 1024)" --op fetch_add --pattern cross-warp --contention 1024 --padding 256,1024 \
      --workgroups $g
  done
done

# A: every op under the new forms.
for form in push subgroup; do
  ATL_VULKAN_ITERS=$form step all-ops-$form 60 "$A" rmw --device "$VK" --pattern all --op all,plain_add --type all \
    --space all --result all --scope device,block --contention 32 --padding 1 --wg-size $WG --workgroups $NGROUPS \
    --iters 64 --min-samples 1 --max-samples 1 -o "$OUT/all-ops-$form.json" --quiet
done

python3 scripts/gpu-vulkan-round4.py "$OUT" "$REF" >"$OUT/round4-summary.txt" 2>&1
cat "$OUT/round4-summary.txt"
exit ${STEP_FAILED:-0}
