#!/usr/bin/env bash
# Scatter-add round 6, second call (issue [scatter]): the deterministic variant's counts scanned by many
# work-groups (det_sums, det_scan, det_spread: round 6's first call measured its sort at 3.8-4.1 ms of 5.2-5.5,
# the counts' scan by one work-group), and the part variant's seen table on uniform and hot keys (auto's
# configuration, against the same without it: may it be part's default?). One call of at most 150 s (the
# steps stop at 140 s):
#   1. check: det at a small size on 7 work-groups of 1024 (every distribution, bit for bit against the host's
#      emulation of its order);
#   2. det, f32, D = 64, E = 8 M, V = 1 M, every distribution, with its sort and sum times (0.4x the ceiling);
#   3. f32 auto on uniform and hot keys without and with --part-table seen.
# Writes OUT/*.json, info.txt and summary.txt (scripts/gpu-scatter-round6b-summary.py).
#   ATOMLAB=build/atomlab OUT=out/scatter-round6b bash scripts/gpu-scatter-round6b.sh
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_scatter_script gpu-scatter-round6b 140
step check-det 15 $A app scatter --backend cuda --rows 300000 --targets 20000 --samples 2 --type f32 --dim 64 \
  --variants det --groups 7 --wg-size 1024 -o "$OUT/check-det.json" --quiet
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V --type f32"
step det 75 $S --dist all --variants det --max-samples 10 -o "$OUT/det.json" --quiet
step auto 20 $S --dist uniform,hot --variants auto --part-table recur -o "$OUT/auto.json" --quiet
step auto-seen 20 $S --dist uniform,hot --variants auto --part-table seen -o "$OUT/auto-seen.json" --quiet
python3 scripts/gpu-scatter-round6b-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
