#!/usr/bin/env bash
# Why Vulkan and CUDA differ by more than 10% on cells of the cross-API fetch_add table (issue 19, docs/crosscheck.md):
# 28 cells where Vulkan is 11-34% faster (low contention or padding) and 8 at padding 512-1024 (0.5-1.1 GB arrays)
# where it is 11-16% slower. One call of at most about 5 minutes; experiments that decide between the causes:
#
#   E1 same work, interleaved: the flagged cells at one FIXED iteration count on both backends (no calibration, so
#      the kernels do identical work), in the order cuda, vulkan, cuda, vulkan, each a fresh process (fresh
#      allocations). A ratio that holds in both passes is the backends'; one that flips is order or allocation.
#      OUT/e1-<group>-<backend>-<pass>.json.
#   E2 timer: the low-contention cells again with launches 8x longer (65536 iterations, about 30-120 ms). A fixed
#      timing offset (timestamp queries against CUDA events) shrinks 8x; a ratio that stays is in the kernel's rate.
#      OUT/e2-<backend>.json.
#   E3 the instructions: ncu on one launch of each backend (contiguous c1 p1): SASS with per-instruction counts
#      and SM / DRAM frequency during the kernel (OUT/ncu-<backend>-sass.txt, -details.txt), where ncu profiles a
#      Vulkan dispatch (if it does not, the file says so); and the Vulkan driver's shader disk cache searched for
#      machine code (OUT/vk-cache-sass.txt).
#   E4 footprint against stride: contention 1, padding 1024 at 1, 1/2, 1/4, 1/8, 1/16 of the grid (1.1 GB down to
#      69 MB, every thread still one word per 4 KiB) and padding 1000 against 1024 at the full grid (same footprint,
#      no power-of-two stride). A Vulkan deficit that shrinks with the footprint is address translation (page size
#      / TLB reach); one that stays at small footprints, or differs 1000 vs 1024, is address mapping.
#      OUT/e4-<backend>-w<groups>.json.
#   E6 placement: the same kernel through CUDA (build/placement rmw, no atomlab code) on the array at offsets 0, 4 KiB,
#      64 KiB and 1 MiB + 4 KiB into one allocation, after a 512 MiB allocation, and in managed memory, at two
#      faster and two slower cells: if CUDA's own rate moves across placements by about what separates Vulkan
#      from CUDA, placement (L2 slice / DRAM channel mapping, page size) explains the cells. OUT/e6-placement.txt.
#   E5 clocks: nvidia-smi sampled every ~0.3 s through the whole run (OUT/clocks.csv, OUT/marks.txt): the SM and
#      memory clocks and power under each backend's steps.
# OUT/explain-summary.txt has every table and how to read it. OUT defaults to out/results/<gpu>/vulkan-explain.
# Run from the repository root on the GPU machine (after scripts/gpu-vulkan.sh in the same call, or with .gl
# carried): bash scripts/gpu-vulkan-explain.sh
cd "$(dirname "$0")/.."
for f in .gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
ldconfig
. scripts/gpu-env.sh
gpu_vulkan_script gpu-vulkan-explain vulkan-explain 360
T=${DEVICE_TYPE:-gpu}
VK=$(gpu_device_id vulkan $T)
# The reference backend: cuda (REF=opencl compares against OpenCL instead, e.g. PoCL on the development machine).
REF=${REF:-cuda}
CU=$(gpu_device_id $REF $T)
step_note "devices: vulkan=${VK:-none} $REF=${CU:-none}"
if [ -z "$VK" ] || [ -z "$CU" ]; then
  step_note "needs a Vulkan and a $REF device: nothing to compare"
  exit 1
fi
gpu_vulkan_grid "$VK"

# E5: the clock sampler, for the whole run (its own process, ended by its id on exit).
mark() { echo "$(date +%s.%N) $*" >>"$OUT/marks.txt"; }
: >"$OUT/marks.txt"
echo "epoch_s,clocks.sm_mhz,clocks.mem_mhz,power_w,temp_c" >"$OUT/clocks.csv"
if command -v nvidia-smi >/dev/null; then
  (while :; do
    echo "$(date +%s.%N),$(nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu \
      --format=csv,noheader,nounits 2>/dev/null | head -1 | tr -d ' ')"
    sleep 0.2
  done) >>"$OUT/clocks.csv" &
  SAMPLER=$!
  trap 'kill $SAMPLER 2>/dev/null; rm -rf "$W"' EXIT
fi

# rmw NAME DEVICE ITERS ARGS...: one atomlab call of fixed iterations (no calibration) into OUT/NAME.json.
rmw() {
  local name=$1 dev=$2 iters=$3
  shift 3
  mark "$name"
  step "$name" 60 "$A" rmw --device "$dev" --op fetch_add --wg-size $WG --iters "$iters" --min-samples 3 \
    --max-samples 5 --budget 0.3 "$@" -o "$OUT/$name.json" --quiet
}
backend_id() { [ "$1" = vulkan ] && echo "$VK" || echo "$CU"; }

# E1 first (the order of the experiments is their weight: the deadline skips the last).
# E1: the flagged cells in four groups, each at one iteration count (about 2-25 ms a launch on an H200).
E1_A="--pattern contiguous,cross-warp --contention 1,2,4 --padding 1,2,4"
E1_B="--pattern cross-warp --contention 16:1024 --padding 2:128"
E1_C="--pattern contiguous --contention 16 --padding 2,4,8"
E1_D="--pattern contiguous,cross-warp --contention 1,1024 --padding 256,512,1024"
for pass in 1 2; do
  for b in $REF vulkan; do
    id=$(backend_id $b)
    rmw e1-A-$b-$pass "$id" "$(it 8192)" --workgroups $NGROUPS $E1_A
    rmw e1-B-$b-$pass "$id" "$(it 2048)" --workgroups $NGROUPS $E1_B
    rmw e1-C-$b-$pass "$id" "$(it 2048)" --workgroups $NGROUPS $E1_C
    rmw e1-D-$b-$pass "$id" "$(it 1024)" --workgroups $NGROUPS $E1_D
  done
done
# E6: placement. The same kernel through CUDA (build/placement rmw, no atomlab code) on the array placed several
# ways in one process, at two of the faster cells and two of the slower ones, E1's iteration counts.
PLACE=${PLACEMENT:-./build/placement}
if [ -x "$PLACE" ] && [ "$REF" = cuda ]; then
  : >"$OUT/e6-placement.txt"
  mark e6-placement
  for cell in "contiguous 1 1 8192" "cross-warp 32 4 2048" "contiguous 1 1024 1024" "cross-warp 1 1024 1024"; do
    set -- $cell
    echo "cell $1 $2 $3 iters $(it $4)" >>"$OUT/e6-placement.txt"
    step -o "$OUT/e6-placement.txt" "e6-$1-$2-$3" 60 "$PLACE" rmw "$1" "$2" "$3" $WG $NGROUPS "$(it $4)" 7
  done
else
  step_note "e6: $PLACE not built (no nvcc at build time) or the reference is not CUDA: placement not measured"
fi
# E3: the instructions. ncu on one rmw launch per backend (contiguous c1 p1, 64 iterations); a Vulkan dispatch has
# no CUDA kernel name, so its first 6 launches are profiled unfiltered (whatever the driver runs for atomlab's
# fills shows beside the rmw dispatch).
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
ONE="--op fetch_add --pattern contiguous --contention 1 --padding 1 --wg-size $WG --workgroups $NGROUPS --iters 64
  --min-samples 1 --max-samples 1 --quiet"
if [ -x "$NCU" ] || command -v "$NCU" >/dev/null; then
  for b in $REF vulkan; do
    filter="--launch-count 6"
    [ $b = cuda ] && filter="--kernel-name regex:rmw --launch-count 1"
    [ $b = opencl ] && filter="--kernel-name regex:rmw --launch-count 1"
    mark "ncu-$b"
    step ncu-$b 75 "$NCU" --clock-control none $filter --section SpeedOfLight --section LaunchStats \
      --section InstructionStats --section SourceCounters --section MemoryWorkloadAnalysis -f -o "$W/ncu-$b" \
      "$A" rmw --device "$(backend_id $b)" $ONE -o "$W/ncu-$b.json"
    if [ -f "$W/ncu-$b.ncu-rep" ]; then
      "$NCU" --import "$W/ncu-$b.ncu-rep" --page details >"$OUT/ncu-$b-details.txt" 2>&1
      "$NCU" --import "$W/ncu-$b.ncu-rep" --page source --print-source sass >"$OUT/ncu-$b-sass.txt" 2>&1
    else
      grep -h "==PROF==\|==WARNING==\|==ERROR==" "$OUT/log.txt" | tail -5 >"$OUT/ncu-$b-sass.txt"
      echo "no ncu report for the $b launch (see the lines above from log.txt)" >>"$OUT/ncu-$b-sass.txt"
    fi
  done
else
  step_note "ncu: not found, E3's SASS comes only from the driver's cache"
fi
# The driver's own shader disk cache, kept in W, searched for an ELF image of the rmw pipeline.
mark vk-cache
mkdir -p "$W/glcache"
step vk-cache 60 env __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH="$W/glcache" \
  __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "$A" rmw --device "$VK" $ONE -o "$W/cache.json"
step vk-cache-sass 60 python3 scripts/vk-blob-sass.py "$OUT/vk-cache-sass.txt" "$W/glcache"
# E4: footprint against stride.
for b in $REF vulkan; do
  id=$(backend_id $b)
  rmw e4-$b-w$NGROUPS "$id" "$(it 1024)" --workgroups $NGROUPS --pattern contiguous,cross-warp --contention 1 \
    --padding 1000,1024
  for div in 2 4 8 16; do
    g=$((NGROUPS / div))
    [ "$g" -ge 1 ] && rmw e4-$b-w$g "$id" "$(it 1024)" --workgroups $g --pattern contiguous,cross-warp \
      --contention 1 --padding 1000,1024
  done
done
# E2: group A with 8x the iterations.
for b in $REF vulkan; do
  rmw e2-$b "$(backend_id $b)" "$(it 65536)" --workgroups $NGROUPS $E1_A --max-samples 3
done
mark end
[ -n "${SAMPLER:-}" ] && kill "$SAMPLER" 2>/dev/null

python3 scripts/gpu-vulkan-explain.py "$OUT" "$REF" >"$OUT/explain-summary.txt" 2>&1
cat "$OUT/explain-summary.txt"
exit ${STEP_FAILED:-0}
