#!/usr/bin/env bash
# Issue [diagnose], round 7's third call (one H100 call, at most 120 s): only the deciding programs the second call's
# deadline cut (scripts/gpu-diagnose-round7.sh measured the rest): the hot f32 scatter at dim 64 with 4 warps a block
# and its block variant at the profiled grid, and the uniform u8 histogram's shared and byte-lanes variants (the other
# applied advice), with the L2 sector metrics the first two calls found in this ncu (lts__t_sectors_op_{red,atom}
# and their _lookup_miss). The analysis with the chain calibration and the one-word f32 S runs on the CPU afterwards
# (results/nvidia-h100/diagnose/round7/README.md); the run's own analysis has the float shares only.
# Writes under OUT (default out/gpu-diagnose-round7c): summary.txt, run.log, validate/ (gpu-diagnose-validate.sh's).
# Run: OUT=/some/dir bash scripts/gpu-diagnose-round7c.sh   (a build in build/, ncu, python3)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_ncu_script gpu-diagnose-round7c
mkdir -p "$OUT/validate"
printf 'kernel,f32_share\nscatter_add,1.0000\n' >"$OUT/validate/types.csv"
echo 33280 >"$OUT/validate/private-table.txt"
X=
for m in lts__t_sectors_op_red lts__t_sectors_op_atom lts__t_sectors_op_red_lookup_miss lts__t_sectors_op_atom_lookup_miss; do
  X="$X${X:+,}$m.max,$m.sum"
done
# the programs within 85 s (the suite's calibrations included), the whole suite killed at 110 s
GPU_DIAGNOSE_EXTRA_METRICS=$X gpu_diagnose_validate 85 "scatter-hot-d64-w4-.*|hist-uniform-(shared|byte-lanes)" 110
grep -E -- "largest U|verdicts|advice applied|priced strategy|speedup |scatter-hot|hist-uniform" \
  "$OUT/validate/validation-summary.txt" >>"$S" 2>/dev/null
cat "$S"
