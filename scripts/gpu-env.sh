# Sourced by the GPU scripts: the environment a build from the development
# machine needs on the GPU machine, and the step helper (scripts/lib.sh).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# scripts/atl_json.py: the result rows the scripts' Python reads (format_version 2 rows flattened).
export PYTHONPATH=$PWD/scripts${PYTHONPATH:+:$PYTHONPATH}
# Libraries the build machine linked against that the GPU image may lack.
[ -d build/device-libs ] && export LD_LIBRARY_PATH=$PWD/build/device-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The GPU image lists only PoCL in /etc/OpenCL/vendors: add NVIDIA's ICD.
if ldconfig -p | grep -q libnvidia-opencl; then
  mkdir -p /tmp/icd
  echo libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd
  cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
  export OCL_ICD_VENDORS=/tmp/icd
fi
SMI="nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv"

# gpu_script NAME: the start every GPU script shares (after `cd` to the repository root and sourcing
# this file): OUT (default out/NAME) made, A the build's atomlab, W a scratch folder removed on exit.
gpu_script() {
  set -uo pipefail
  OUT=${OUT:-out/$1}
  mkdir -p "$OUT"
  A=./build/atomlab
  W=$(mktemp -d)
  trap 'rm -rf "$W"' EXIT
}
# gpu_deadline SECONDS: starts the script's clock and sets LIMIT_S, the whole script's limit (the environment's
# LIMIT_S where given, else SECONDS); since prints the seconds from the start.
gpu_deadline() {
  START=$(date +%s)
  LIMIT_S=${LIMIT_S:-$1}
}
since() { echo $(($(date +%s) - START)); }
# gpu_apps_start: what the apps' scripts do after gpu_script: info.txt under OUT begun with the GPU's state,
# atomlab's version and devices and the CUB plugin, and shown (later steps append their status to it); ocl set to
# NVIDIA's OpenCL GPU (gpu_device_id), as the apps run on both backends.
gpu_apps_start() {
  { echo "== start"; $SMI; $A version; $A devices; ls -l build/libatomlab_cub.so; } >"$OUT/info.txt" 2>&1
  cat "$OUT/info.txt"
  ocl=$(gpu_device_id opencl gpu)
}
# gpu_ncu_script NAME: gpu_script NAME for a script that runs ncu: NCU (the ncu binary), S (OUT/summary.txt,
# begun with the date, version, GPU and ncu version) and L (OUT/run.log) as the steps' status and log.
gpu_ncu_script() {
  gpu_script "$1"
  S="$OUT/summary.txt"
  L="$OUT/run.log"
  NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
  { echo "== $(date -u +%FT%TZ) $($A version 2>&1 | head -1)"; $SMI 2>&1; "$NCU" --version 2>&1 | tail -1; } >"$S"
  : >"$L"
  STEP_LOG=$L STEP_STATUS=$S
}
# gpu_l2_calibrate NAME COMMAND...: one L2 calibration run after gpu_ncu_script: COMMAND's rmw kernels under ncu
# with the L2 model's counters (atom/red requests, L2 cycles, the atomic unit's busiest slice), the raw page as
# OUT/NAME.csv for `atomlab model l2`.
GPU_L2_METRICS="lts__cycles_elapsed.avg,gpu__time_duration.sum,lts__t_requests_op_atom.sum"
GPU_L2_METRICS="$GPU_L2_METRICS,lts__t_requests_op_atom.max,lts__t_requests_op_atom.avg,lts__t_requests_op_red.sum"
GPU_L2_METRICS="$GPU_L2_METRICS,lts__t_requests_op_red.max,lts__t_requests_op_red.avg"
GPU_L2_METRICS="$GPU_L2_METRICS,lts__d_atomic_input_cycles_active.max"
gpu_l2_calibrate() {
  local name=$1
  shift
  step "$name" 45 "$NCU" --clock-control none --metrics "$GPU_L2_METRICS" --kernel-name regex:rmw --force-overwrite \
    -o "$W/$name" "$@" &&
    "$NCU" --import "$W/$name.ncu-rep" --csv --page raw --print-units base >"$OUT/$name.csv" 2>>"$L"
}
# gpu_l2_summary NAME...: after gpu_l2_calibrate, one line in S per OUT/NAME.csv: the S it gives (model l2's header).
gpu_l2_summary() {
  local f
  for f in "$@"; do
    [ -s "$OUT/$f.csv" ] && $A model l2 --counters "$OUT/$f.csv" --same "$OUT/$f.csv" --spread "$OUT/$f.csv" 2>&1 |
      head -1 | sed "s/^/$f: /" >>"$S"
  done
}
# gpu_l2_one_word NAME TYPE: the L2 cycles per request of ONE word the whole grid adds to (264 work-groups of 256, two
# per SM, all 67584 work-items on it; --type TYPE: u32, f32), as OUT/NAME.csv, and its line in S.
gpu_l2_one_word() {
  gpu_l2_calibrate "$1" $A rmw --backend cuda --wg-size 256 --workgroups 264 --contention 67584 --padding 1 \
    --pattern contiguous --op fetch_add --result unused,used --iters 64 --min-samples 1 --max-samples 1 --quiet \
    -o "$W/r.json" --type "$2"
  gpu_l2_summary "$1"
}
# gpu_diagnose_validate SECONDS [ONLY] [LIMIT]: after gpu_ncu_script, scripts/gpu-diagnose-validate.sh into
# OUT/validate, its programs within SECONDS (GPU_DIAGNOSE_SECONDS), only those ONLY matches (GPU_DIAGNOSE_ONLY, an
# extended regex over their names; "" all), the whole suite killed at LIMIT seconds (default 600); its exit in S.
gpu_diagnose_validate() {
  step_note "validation suite: scripts/gpu-diagnose-validate.sh (OUT=$OUT/validate, programs ${1} s)"
  OUT="$OUT/validate" GPU_DIAGNOSE_SECONDS=$1 GPU_DIAGNOSE_ONLY=${2:-} timeout "${3:-600}" \
    bash scripts/gpu-diagnose-validate.sh >"$W/validate.txt" 2>&1
  step_note "validate: exit $?"
}
# gpu_ncu_sass NAME FILTER LAUNCHES COMMAND...: after gpu_ncu_script, the source page of the first LAUNCHES launches
# of COMMAND's kernels matching FILTER (ncu's SourceCounters: each instruction with its executions), as
# OUT/sass-NAME.csv (scripts/sass-types.py reads the global atomics' types from it); a step of at most 40 s.
gpu_ncu_sass() {
  local name=$1 filter=$2 n=$3
  shift 3
  step "sass-$name" 40 "$NCU" --clock-control none --section SourceCounters --kernel-name "regex:$filter" \
    --launch-count "$n" --force-overwrite -o "$W/sass-$name" "$@" &&
    "$NCU" --import "$W/sass-$name.ncu-rep" --csv --page source --print-source sass >"$OUT/sass-$name.csv" 2>>"$L"
}
# gpu_sass_summary: one line in S per OUT/sass-*.csv: its atomic instructions (shared and global) and their count.
gpu_sass_summary() {
  local f
  for f in "$OUT"/sass-*.csv; do
    [ -s "$f" ] && echo "$(basename "$f"): $(grep -o -E '(ATOMS|ATOMG|ATOM|RED|REDG)\.[A-Z0-9_.]*' "$f" | sort |
      uniq -c | tr '\n' ' ')" >>"$S"
  done
}
# gpu_device_id BACKEND [TYPE]: the first device of BACKEND (and TYPE: gpu, cpu) that `atomlab devices`
# lists, or nothing; e.g. NVIDIA's OpenCL GPU beside PoCL's CPU device.
gpu_device_id() {
  "$A" devices --format json | python3 -c '
import json, sys
want = sys.argv[1:]
g = [x["id"] for x in json.load(sys.stdin)["devices"]
     if x["backend"] == want[0] and (len(want) < 2 or x["type"] == want[1])]
print(g[0] if g else "")' "$@"
}
# gpu_results_name: the results/ folder name of this machine's first GPU (nvidia-h100, nvidia-h200, ...), from
# nvidia-smi's name; "unknown-gpu" without one. Scripts default OUT to out/results/<name>/<kind>.
gpu_results_name() {
  local n
  n=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | grep -oE '[A-Z]+[0-9]+' | head -1)
  [ -n "$n" ] && echo "nvidia-$(echo "$n" | tr 'A-Z' 'a-z')" || echo unknown-gpu
}
# gpu_vulkan_script NAME DIR DEADLINE_S: the start the Vulkan scripts share (after `cd` to the repository root, the
# loader unpacked from .gl/*.deb, and this file sourced): gpu_script NAME with OUT defaulting to
# out/results/<gpu>/DIR, A the ATOMLAB binary where set, the steps' deadline (DEADLINE_S overrides it), their log and
# status under OUT, OUT/info.txt (date, GPU, atomlab, the Vulkan loader), and NVIDIA's ICD named to the loader where
# it finds no Vulkan device by itself.
gpu_vulkan_script() {
  OUT=${OUT:-out/results/$(gpu_results_name)/$2}
  gpu_script "$1"
  A=${ATOMLAB:-$A}
  step_deadline "${DEADLINE_S:-$3}"
  STEP_LOG=$OUT/log.txt STEP_STATUS=$OUT/status.txt
  { date -u +%FT%TZ; $SMI; $A version; ldconfig -p | grep libvulkan; } >"$OUT/info.txt" 2>&1
  if [ -z "$(gpu_device_id vulkan 2>/dev/null)" ]; then
    export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
    step_note "no Vulkan driver found by the loader: VK_DRIVER_FILES=$VK_DRIVER_FILES"
  fi
}
# gpu_vulkan_grid DEVICE: the one grid shape the Vulkan scripts measure every backend with, from the Vulkan DEVICE:
# SMS (its compute units), WG work-items a work-group (default 256) and NGROUPS work-groups (default 8 per SM: 2048
# resident threads per SM on sm_90), noted in the log; SCALE (default 1) and `it N`, N iterations divided by SCALE
# (at least 1): SCALE=k is a quick try on a slow device.
gpu_vulkan_grid() {
  SMS=$("$A" devices --format json | python3 -c '
import json, sys
d = [x for x in json.load(sys.stdin)["devices"] if x["id"] == sys.argv[1]][0]
print(d["compute_units"])' "$1")
  WG=${WG:-256} NGROUPS=${NGROUPS:-$((SMS * 8))}
  step_note "grid: $NGROUPS work-groups of $WG ($SMS SMs)"
  SCALE=${SCALE:-1}
  it() { echo $(($1 / SCALE > 0 ? $1 / SCALE : 1)); }
}
# gpu_vulkan_devices TYPE: VK, CU and CL, the Vulkan, CUDA and OpenCL devices of TYPE (gpu or cpu) by atomlab id,
# noted in the log; without a Vulkan device the script has nothing to measure and ends with exit 1.
gpu_vulkan_devices() {
  VK=$(gpu_device_id vulkan "$1")
  CU=$(gpu_device_id cuda "$1")
  CL=$(gpu_device_id opencl "$1")
  step_note "devices: vulkan=${VK:-none} cuda=${CU:-none} opencl=${CL:-none}"
  if [ -z "$VK" ]; then
    step_note "no Vulkan $1: nothing to measure (see log.txt)"
    exit 1
  fi
}
# gpu_vulkan_discovery SECONDS MODES: the occupancy probe side by side into OUT/discovery.txt, groups of 256 and
# 1024 at 2x, 4x and 8x the estimate: CUDA and OpenCL in the protocol's mode 0, Vulkan in each of MODES.
gpu_vulkan_discovery() {
  local probe=${OCCUPANCY_PROBE:-./build/tests/unit/occupancy_probe} wg dev
  if [ ! -x "$probe" ]; then
    step_note "discovery: $probe not built"
    return
  fi
  for wg in 256 1024; do
    for dev in $CU $CL; do
      step -o "$OUT/discovery.txt" discovery-$dev-$wg 30 "$probe" "$dev" $wg x2,x4,x8 0
    done
    step -o "$OUT/discovery.txt" discovery-$VK-$wg "$1" "$probe" "$VK" $wg x2,x4,x8 "$2"
  done
}
# gpu_scatter_script NAME DEADLINE_S: the start the scatter GPU scripts share (after `cd` to the repository root and
# this file sourced): gpu_script NAME, A the ATOMLAB binary, the issue's sizes E, D, V (ROWS, DIM, TARGETS override
# them), OUT/info.txt (date, GPU, atomlab, the devices' L2 sizes, PyTorch's version) that the steps' commands and
# status follow, and the steps' deadline.
gpu_scatter_script() {
  gpu_script "$1"
  A=${ATOMLAB:-./build/atomlab}
  E=${ROWS:-8388608} D=${DIM:-64} V=${TARGETS:-1048576}
  { date -u +%FT%TZ; $SMI; $A version; $A devices --format json | grep -E '"(name|l2_cache_bytes)"';
    python3 -c 'import torch; print("torch", torch.__version__)'; } >"$OUT/info.txt" 2>&1
  STEP_LOG=$OUT/info.txt STEP_STATUS=$OUT/info.txt
  step_deadline "$2"
}
