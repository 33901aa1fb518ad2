#!/usr/bin/env bash
# Issue [diagnose], round 6 (one H100 call, at most 150 s, every step under `timeout`): only the rows that decide
# round 6's targets (round 5b's exports, re-analysed on the CPU, decide the rest):
#   1. the L2 cycles per request of ONE word the whole grid adds to, f32 (round 5b: 3.00), as validate/same-f32.csv;
#   2. the source pages of the hot scatter's atomic variant (REDG.E.ADD.F32: its float share, validate/types.csv) and
#      block variant at the profiled launch's grid (its private table's float adds: ATOMS.CAST.SPIN loops; the first
#      two launches are the copy ceiling);
#   3. scripts/gpu-diagnose-validate.sh over the programs that decide (GPU_DIAGNOSE_ONLY): the shared float add on
#      one word at 64, 16 and 1 warps a SM and on distinct words (the CAS pass and the chain of a word's updates),
#      the hot scatter with its block variant at the default 256 groups and at the profiled grid's 4096 (the advice's
#      measured speedups), the uniform u8 histogram's shared, warp-private and byte-lanes variants (the evidence);
#   4. the analysis again with the types (scripts/sass-types.py, scripts/diagnose-validation.py analyse).
# Writes under OUT (default out/gpu-diagnose-round6): summary.txt, run.log, same1-f32.csv, sass-*.csv, validate/
# (every file of gpu-diagnose-validate.sh, with same-f32.csv, types.csv and cas-chain.csv).
# Run: OUT=/some/dir bash scripts/gpu-diagnose-round6.sh   (a build in build/, ncu, python3)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_ncu_script gpu-diagnose-round6
T0=$(date +%s)
step_deadline 120

gpu_l2_one_word same1-f32 f32

SC="$A app scatter --backend cuda --type f32 --rows 1048576 --dim 64 --targets 131072 --samples 1 --quiet -o $W/s.json"
gpu_ncu_sass scatter-hot-block-grid scatter_add 3 $SC --dist hot --variants block --block-rows 256
gpu_ncu_sass scatter-hot-atomic scatter_add 3 $SC --dist hot --variants atomic
gpu_sass_summary

mkdir -p "$OUT/validate"
[ -s "$OUT/same1-f32.csv" ] && cp "$OUT/same1-f32.csv" "$OUT/validate/same-f32.csv"
# the suite within what is left of 140 s; its programs 15 s less (its merge and analysis)
left=$((140 - ($(date +%s) - T0)))
gpu_diagnose_validate $((left - 15)) "rmw-shared-f32-.*|scatter-hot-.*|hist-uniform-(shared|warp-private|byte-lanes)" "$left"
# the launches' float shares from the pages (the privatized float adds' chain), then the analysis again with them
V=$OUT/validate
STEP_DEADLINE=
if [ -s "$V/programs.csv" ]; then
  step -o "$V/types.csv" types 10 python3 scripts/sass-types.py "$V/programs.csv" "$OUT"/sass-*.csv &&
    step -o "$W/analyse.txt" analyse 20 python3 scripts/diagnose-validation.py analyse "$V" --atomlab "$A"
fi
head -8 "$OUT/validate/validation-summary.txt" >>"$S" 2>/dev/null
grep -E -- "<-- wrong|speedup |rmw-shared-f32|scatter-hot" "$OUT/validate/validation-summary.txt" >>"$S" 2>/dev/null
cat "$S"
