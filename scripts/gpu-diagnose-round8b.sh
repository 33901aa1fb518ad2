#!/usr/bin/env bash
# Issue [diagnose], round 8's second call (one H100 call, at most 150 s, every step under `timeout`): the model of
# the privatized float adds as round 8b (results/nvidia-h100/diagnose/round8/README.md: a row's round trips at the
# calibrated round trip, its loops at the contenders that are in their loops at the time) at shapes it has not seen,
# predicted before the call (round8/PREDICTIONS-call2.md), and seed 000's speedup model measured again:
#   1. the chain c(E) and a dependent load's round trip (the scatter copy at 2 warps a SM) in one export, as call 1;
#   2. the hot-row f32 scatter pairs (the atomic launch profiled, the block variant at its grid): dim 16 / 8 warps
#      (call 1 cut its block variant), then dim 64 / 16 warps, dim 128 / 4 warps, dim 64 / 8 warps
#      with 64 rows a warp, through scripts/gpu-diagnose-validate.sh with the L2 sector metrics, analysed in the call;
#   3. seed 000's speedup model (`app swatomic --experiment`, CUDA, 7 samples a grid, where 18 s are left), the fit
#      as committed before call 1 (relative least squares; headline: the H200's constants from all its grids).
# Writes under OUT (default out/gpu-diagnose-round8b): summary.txt (with predicted against measured), run.log,
# cas-chain.csv, same-f32.csv, swatomic-cuda.json, swmodel-cuda.txt, validate/.
# Run: OUT=/some/dir bash scripts/gpu-diagnose-round8b.sh   (a build in build/, ncu, python3)
# It is scripts/gpu-diagnose-round8.sh with this call's shapes and predictions (the call ran the same steps at 186c8fc).
R8_CALL=b R8_SHAPES='d16-w8|d64-w16|d128-w4|d64-w8-r64' \
  R8_PRE='{"d16-w8": 634, "d64-w16": 212, "d128-w4": 461, "d64-w2": 940, "d64-w8-r64": 278}' \
  exec bash "$(dirname "$0")/gpu-diagnose-round8.sh" "$@" # us, PREDICTIONS-call2.md
