#!/usr/bin/env bash
# Issue [diagnose], round 9 (one H100 call, about 30 s, at most 150 s, every step under `timeout`): ONLY seed 000's
# copy-kernel experiment (`app swatomic --experiment`, CUDA, the grids and samples of round 8: 8:max:x2, 8 rounds a
# launch, 7 samples a grid) and the speedup model's equation (2'') (docs/software-atomics.md "The coordinator's
# pass") with its constants fitted on the H200 CUDA run's 9 grids (scripts/data/swatomic-h200-cuda-fit.json.gz, the
# rows of results/nvidia-h200/swatomic/swatomic-cuda.json; the GPU machine gets no results/) and this call's own
# t_fast, t_l, t_comp: every grid of this call out of sample, the headline. Also, for reference: the seed's equation
# (2) as it stands and (2'') fitted on this call's own grids (in-sample).
# Writes under OUT (default out/gpu-diagnose-round9): summary.txt (the GPU, the step's status, the medians),
# run.log, swatomic-cuda.json, swmodel-cuda.txt (the per-grid tables).
# Run: OUT=/some/dir bash scripts/gpu-diagnose-round9.sh   (a build in build/)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_ncu_script gpu-diagnose-round9
step_deadline 140
H200=$W/h200-swatomic.json
gzip -dc scripts/data/swatomic-h200-cuda-fit.json.gz >"$H200"
f="$OUT/swatomic-cuda.json"
step swatomic-cuda 120 $A app swatomic --backend cuda --wg-size 256 --groups 8:max:x2 --iters 8 --samples 7 \
  --spin-bound 4194304 --experiment -o "$f"
if [ -s "$f" ]; then
  {
    echo "== equation (2''), constants of the H200 CUDA run (all its 9 grids): every grid out of sample (headline)"
    $A model swatomic "$f" --fit "$H200"
    echo "== the seed's equation (2) as it stands"
    $A model swatomic "$f"
    echo "== equation (2''), constants of this call's own 9 grids (in-sample)"
    $A model swatomic "$f" --fit "$f"
  } >"$OUT/swmodel-cuda.txt" 2>&1
  grep -E "^==|median|speedup model" "$OUT/swmodel-cuda.txt" >>"$S"
fi
cat "$S"
exit "${STEP_FAILED:-0}"
