#!/usr/bin/env bash
# Issue [diagnose], round 7 (one H100 call, at most 150 s, every step under `timeout`): what prices the privatized
# float adds BEFORE the strategy is applied, and the applied advices again:
#   1. the L2 sector metrics this ncu knows (lts__t_sectors_op_{red,atom}[_lookup_miss]: the hot slice's distinct
#      sectors, so the hot words' updates, not the slice's requests), checked with --query-metrics (ncu refuses a
#      launch on an unknown name), as OUT/metrics.txt;
#   2. the contended chain of a private table's word: E warps a block (E = 1, 2, 4, 8, 16), one block a SM, each lane
#      its own word and the block's E warps on the same 32 words (`rmw --space local --type f32 --pattern cross-warp
#      --contention E --wg-size 32E`), one export, OUT/cas-chain.csv (`model l2 --cas-chain`; validate/ where the model reads it);
#   3. scripts/gpu-diagnose-validate.sh over the programs that decide (ROUND7_ONLY, GPU_DIAGNOSE_ONLY's regex), with
#      the sector metrics. The first call (09:10 UTC): the hot scatter f32 with its block variant at the profiled
#      grid at dim 64 / 8 warps a block and dim 32 / 4 warps; the second (default): the two other shapes, dim 32 / 8
#      warps and dim 64 / 4 warps, and the uniform u8 histogram's shared and byte-lanes variants (the other applied
#      advice, cut by the first call's deadline);
#   4. seed 000's speedup model (`atomlab app swatomic --experiment`, CUDA; `model swatomic` with the committed
#      H200 run's constants, scripts/data/swatomic-h200-cuda-fit.json.gz: out of sample), where time is left.
# The float shares (validate/types.csv) are round 6's SASS pages' (the scatter kernels' REDG.E.ADD.F32); the one-word
# f32 S (validate/same-f32.csv) is measured. The GPU machine gets no results/: nothing here reads it.
# Writes under OUT (default out/gpu-diagnose-round7): summary.txt, run.log, metrics.txt, swatomic-cuda.json,
# swmodel-cuda.txt, validate/ (every file of gpu-diagnose-validate.sh, with cas-chain.csv, types.csv, same-f32.csv).
# Run: OUT=/some/dir bash scripts/gpu-diagnose-round7.sh   (a build in build/, ncu, python3)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_ncu_script gpu-diagnose-round7
T0=$(date +%s)
V=$OUT/validate
mkdir -p "$V"
# the kernels' float shares: round 6's source pages of the scatter kernels (REDG.E.ADD.F32 only; the GPU machine
# gets no results/, so the line is here); the one-word f32 S is measured (5 s)
printf 'kernel,f32_share\nscatter_add,1.0000\n' >"$V/types.csv"
gpu_l2_one_word same-f32 f32 && cp "$OUT/same-f32.csv" "$V/"
# the privatized kernels' table a block (their residency): the scatter block variant's 32 KiB of sums and a key a
# slot, 33280 B at dim 64 (33792 at dim 32: 6 blocks a SM either way)
echo 33280 >"$V/private-table.txt"

# 1. the sector metrics ncu knows here (base names; .max and .sum of each)
"$NCU" --query-metrics --query-metrics-mode all >"$W/query.txt" 2>>"$L" ||
  "$NCU" --query-metrics >"$W/query.txt" 2>>"$L"
X=
for m in lts__t_sectors_op_red lts__t_sectors_op_atom lts__t_sectors_op_red_lookup_miss \
  lts__t_sectors_op_atom_lookup_miss; do
  grep -q -E "^$m([[:space:]]|\.)" "$W/query.txt" && X="$X${X:+,}$m.max,$m.sum"
done
echo "$X" | tr ',' '\n' >"$OUT/metrics.txt"
echo "sector metrics: ${X:-none}" >>"$S"

# 2. the contended chain: E warps of one block a SM on the same 32 words, the same --iters (E = 1 has no failed CAS:
# its CAS instructions a warp are the iterations, model l2's count of the others' updates)
SMS=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q -E 'H100|H200' && echo 132)
SMS=${SMS:-$("$A" devices --format json | python3 -c 'import json,sys
print(max([d["compute_units"] for d in json.load(sys.stdin)["devices"] if d["backend"] == "cuda"] or [132]))')}
CH="$A rmw --backend cuda --space local --type f32 --op fetch_add --result used --pattern cross-warp --padding 1 --iters 256 --workgroups $SMS --min-samples 1 --max-samples 1 --quiet -o $W/ch.json"
# (with the sector metrics: a launch ncu refuses on them is tried again without them, and the suite gets none)
chain() {
  step "$1" 25 "$NCU" --clock-control none --kernel-name regex:rmw --force-overwrite -o "$W/chain" \
    --metrics "$GPU_L2_METRICS,sm__cycles_elapsed.avg,smsp__inst_executed_op_shared_atom_dot_cas.sum,smsp__inst_executed_op_shared_atom.sum,sm__warps_active.avg.pct_of_peak_sustained_active${X:+,$X}" \
    bash -c "for e in 1 2 4 8 16; do $CH --contention \$e --wg-size \$((32 * e)) || exit 1; done"
}
chain chain || { [ -n "$X" ] && X= && echo "sector metrics: dropped (the chain's ncu run failed with them)" >>"$S" && chain chain-plain; } &&
  "$NCU" --import "$W/chain.ncu-rep" --csv --page raw --print-units base >"$OUT/cas-chain.csv" 2>>"$L"
# the suite's analysis takes it where this build's model reads it (model l2 refuses what it cannot price)
if [ -s "$OUT/cas-chain.csv" ] && $A model l2 --counters "$OUT/cas-chain.csv" --s-same 1,1 --s-spread 1,1 \
  --cas-chain "$OUT/cas-chain.csv" >"$W/chain.txt" 2>&1; then
  cp "$OUT/cas-chain.csv" "$V/"
fi
grep -i -m3 chain "$W/chain.txt" >>"$S" 2>/dev/null

# 3. the suite's deciding programs within what is left of 112 s (the speedup model after it), 15 s for its analysis
left=$((112 - ($(date +%s) - T0)))
# (ROUND7_ONLY: the programs; the first call's were "scatter-hot-(atomic|block-grid|d32-.*)|hist-uniform-(shared|byte-lanes)")
GPU_DIAGNOSE_EXTRA_METRICS=$X gpu_diagnose_validate $((left - 15)) \
  "${ROUND7_ONLY:-hist-uniform-(shared|byte-lanes)|scatter-hot-(d32-w8|d64-w4)-.*}" "$left"

# 4. seed 000's speedup model, CUDA, with what is left of 147 s
left=$((147 - ($(date +%s) - T0)))
# the committed H200 CUDA run's rows without their samples (results/nvidia-h200/swatomic/swatomic-cuda.json: the
# GPU machine gets no results/; `model swatomic --fit` gives the same constants from both)
H200=$W/h200-swatomic.json
gzip -dc scripts/data/swatomic-h200-cuda-fit.json.gz >"$H200"
if [ "$left" -ge 20 ]; then
  f="$OUT/swatomic-cuda.json"
  step swatomic-cuda $((left - 5)) $A app swatomic --backend cuda --wg-size 256 --groups 8:max:x2 --iters 8 \
    --samples 5 --spin-bound 4194304 --experiment -o "$f"
  if [ -s "$f" ]; then
    {
      echo "== cuda: the coordinator's pass, constants of the H200 CUDA run (grids 8, 128, 1024): all out of sample"
      $A model swatomic "$f" --fit "$H200" --fit-grids 8,128,1024
      echo "== cuda: the seed's equation (2)"
      $A model swatomic "$f"
    } >"$OUT/swmodel-cuda.txt" 2>&1
    { echo; head -40 "$OUT/swmodel-cuda.txt"; } >>"$S"
  fi
else
  step_note "swatomic: skipped, $left s left"
fi
echo "total $(($(date +%s) - T0)) s" >>"$S"
grep -E -- "largest U|verdicts|advice applied|priced strategy|<-- wrong|speedup |scatter-hot|hist-uniform" \
  "$V/validation-summary.txt" >>"$S" 2>/dev/null
cat "$S"
