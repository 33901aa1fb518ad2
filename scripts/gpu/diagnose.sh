#!/usr/bin/env bash
# The diagnosis (`atomlab profile`: the shared-memory and L2 models over ncu counters) against kernels whose
# answer is known by design, on an NVIDIA GPU with ncu: the shared table and the L2 model's calibrations measured
# first, then `atomlab profile --advice --save-counters` over each program below, then
# scripts/gpu/diagnose_validation.py (which also runs on a CPU over the files this leaves) writes
# validation.json, validation-summary.txt and the plot.
#
#   OUT=DIR bash scripts/gpu/diagnose.sh
#
# GPU_DIAGNOSE_ONLY: an extended regex over the program names (only those run); GPU_DIAGNOSE_SECONDS (default
# 390): the calibrations and programs end by then, the analysis (20-60 s) follows. Writes under OUT:
# summary.txt, run.log, smem-table.csv, same.csv, spread.csv, dram.csv, programs.csv, profile-*.txt,
# validation.json, validation-summary.txt. Expects a build in build/.
set -uo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib.sh
export PYTHONPATH=$PWD/scripts${PYTHONPATH:+:$PYTHONPATH}
OUT=${OUT:-out/diagnose}
mkdir -p "$OUT"
A=./build/atomlab
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
S=$OUT/summary.txt
L=$OUT/run.log
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
{ echo "== $(date -u +%FT%TZ) $($A version 2>&1 | head -1)"; nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1
  "$NCU" --version 2>&1 | tail -1; } >"$S"
: >"$L"
STEP_LOG=$L STEP_STATUS=$S
step_deadline "${GPU_DIAGNOSE_SECONDS:-390}"
MAN=$W/manifest.tsv
: >"$MAN"
EXTRA_M=smsp__inst_executed.sum,sm__inst_executed.avg
L2_M="lts__cycles_elapsed.avg,gpu__time_duration.sum,lts__t_requests_op_atom.sum,lts__t_requests_op_atom.max"
L2_M="$L2_M,lts__t_requests_op_atom.avg,lts__t_requests_op_red.sum,lts__t_requests_op_red.max"
L2_M="$L2_M,lts__t_requests_op_red.avg,lts__d_atomic_input_cycles_active.max"

# 1. calibrations: the shared table (a coarser one where the full grid does not finish) and the L2 model's
# same-word and spread rmw exports; the achievable DRAM share from the scatter app's copy ceiling under ncu
step calibrate_smem 40 $A calibrate smem --reps 3 --out "$OUT/smem-table" ||
  step calibrate_smem_coarse 25 $A calibrate smem --reps 3 --e 1,2,4,8,16,24,32 --out "$OUT/smem-table"
[ -s "$OUT/smem-table.csv" ] || { step_note "no shared table: nothing to validate"; exit 1; }
l2_calibrate() {
  local name=$1
  shift
  step "$name" 45 "$NCU" --clock-control none --metrics "$L2_M" --kernel-name regex:rmw --force-overwrite \
    -o "$W/$name" "$@" &&
    "$NCU" --import "$W/$name.ncu-rep" --csv --page raw --print-units base >"$OUT/$name.csv" 2>>"$L"
}
R="$A rmw --backend cuda --grid occupancy --op fetch_add --result unused,used --iters 64 --min-samples 1 --max-samples 1 --quiet -o $W/r.json"
l2_calibrate same $R --pattern contiguous --contention 1024 --padding 1
l2_calibrate spread $R --pattern contiguous --contention 1 --padding 32
step dram 45 "$NCU" --clock-control none --metrics "$L2_M,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes.sum" \
  --force-overwrite -o "$W/dram" $A app scatter --backend cuda --type f32 --rows 1048576 --dim 64 --targets 131072 \
  --samples 1 --quiet -o "$W/dram.json" --dist uniform --variants atomic &&
  "$NCU" --import "$W/dram.ncu-rep" --csv --page raw --print-units base >"$OUT/dram.csv" 2>>"$L"
L2=()
[ -s "$OUT/same.csv" ] && [ -s "$OUT/spread.csv" ] && L2=(--l2-same "$OUT/same.csv" --l2-spread "$OUT/spread.csv")
[ -s "$OUT/dram.csv" ] && L2+=(--dram "$OUT/dram.csv")

# 2. the programs. prof NAME SOURCE EXPECT_SHARED EXPECT_L2 ALTS FILTER -- COMMAND...: atomlab profile over COMMAND
# (kernels matching FILTER, "" all), its export kept. EXPECT_*: the verdict the kernel's design fixes (bottleneck,
# not) or "-" (the DRAM and speedup evidence decide); ALTS: strategy=PROGRAM pairs, the program that applies that
# strategy to the same input ("-" none). Most telling first: the deadline skips what is left.
wanted() { [ -z "${GPU_DIAGNOSE_ONLY:-}" ] || [[ $1 =~ ^(${GPU_DIAGNOSE_ONLY})$ ]]; }
prof() {
  local name=$1 src=$2 es=$3 el=$4 alts=$5 filter=$6
  shift 7
  wanted "$name" || return 0
  local kf=()
  [ -n "$filter" ] && kf=(--kernel "$filter")
  step -o "$OUT/profile-$name.txt" "$name" 50 $A profile --table "$OUT/smem-table.csv" ${L2[@]+"${L2[@]}"} --advice \
    --extra-metrics "$EXTRA_M" --save-counters "$W/$name.csv" --timeout 45 ${kf[@]+"${kf[@]}"} -- "$@"
  [ -s "$W/$name.csv" ] && printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$src" "$es" "$el" "$alts" >>"$MAN"
}
HC="$A hist-case --pixels 4194304 --wg-size 1024 --warmup 0 --reps 1"
RL="$A rmw --backend cuda --space local --grid occupancy --result used --pattern contiguous --padding 1 --iters 2048 --min-samples 1 --max-samples 1 --quiet -o $W/rl.json"
H="$A app histogram --backend cuda --input u8 --bytes 67108864 --samples 1 --no-cub --quiet -o $W/h.json"
SC="$A app scatter --backend cuda --type f32 --rows 1048576 --dim 64 --targets 131072 --samples 1 --quiet -o $W/s.json"
ST="$A strategy --backend cuda --op fetch_add --result used --iters 256 --min-samples 1 --max-samples 1 --quiet -o $W/st.json"
prof validate atomlab-validate - - - "" -- $A hist-case --validate --warmup 0 --reps 1
prof hc-solid-add atomlab-hist-case bottleneck not - "" -- $HC --kernel histogram --image solid --result used
prof hc-solid-popc atomlab-hist-case - not - "" -- $HC --kernel histogram --image solid --result unused
prof rmw-shared-word atomlab-rmw bottleneck - - rmw -- $RL --op fetch_add --contention 32
prof rmw-shared-cas-word atomlab-rmw bottleneck - - rmw -- $RL --op cas --contention 32
prof rmw-shared-f32-word atomlab-rmw bottleneck - - rmw -- $RL --op fetch_add --type f32 --contention 32
prof strat-same-native atomlab-strategy - - "warp-aggregated=strat-same-warp;block-aggregated=strat-same-block;privatized=strat-same-block" strategy -- $ST --pattern same-address --strategy native
prof strat-same-warp atomlab-strategy - - - strategy -- $ST --pattern same-address --strategy warp
prof strat-same-block atomlab-strategy - - - strategy -- $ST --pattern same-address --strategy block
prof hist-solid-global atomlab-histogram - - "privatized=hist-solid-shared;block-aggregated=hist-solid-match-any" histogram -- $H --dist solid --variants global
prof hist-solid-shared atomlab-histogram - not - histogram -- $H --dist solid --variants shared
prof hist-solid-match-any atomlab-histogram - not - histogram -- $H --dist solid --variants match-any
prof scatter-hot-atomic atomlab-scatter - - "block-aggregated=scatter-hot-block" scatter_add -- $SC --dist hot --variants atomic
prof scatter-hot-block atomlab-scatter - - - scatter_add -- $SC --dist hot --variants block
prof scatter-uniform-atomic atomlab-scatter - - - scatter_add -- $SC --dist uniform --variants atomic
prof rmw-shared-free atomlab-rmw - - - rmw -- $RL --op fetch_add --contention 1
prof hc-uniform-add atomlab-hist-case - not - "" -- $HC --kernel histogram --image uniform --result used
step_note "$(wc -l <"$MAN") programs profiled"

# 3. one export of every program, then the models and the validation (past the deadline on purpose: what was
# profiled is always analysed)
STEP_DEADLINE=
step merge 20 python3 scripts/gpu/diagnose_validation.py merge "$W" "$MAN" "$OUT/programs.csv"
step validate 60 python3 scripts/gpu/diagnose_validation.py analyse "$OUT" --atomlab "$A"
cat "$OUT/validation-summary.txt" >>"$S" 2>/dev/null
cat "$S"
exit ${STEP_FAILED:-0}
