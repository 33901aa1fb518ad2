#!/usr/bin/env bash
# Scatter-add on an NVIDIA GPU (issue [scatter]), one call of at most 8 minutes on an H100:
#   1. `atomlab app scatter` at the issue's shape (f32, D = 64, E = 8 M rows, V = 1 M targets, every
#      distribution, every variant including det, the copy ceiling), its inputs dumped;
#   2. PyTorch's index_add_ / scatter_add_ / index_add_ under torch.use_deterministic_algorithms(True) on
#      the same inputs (scripts/peer-torch-scatter.py);
#   3. bf16 at the same shape (every distribution; atomic, run, block, vector, det; f16: atomic, run, det on
#      uniform, zipf, hot): per element against f32;
#   4. i64 keys (atomic, run, det; uniform and zipf) against the i32 keys of step 1;
#   5. det on 3 grids (--groups 0, 132, 4096; zipf and hot, E = 1 M): the output hashes must agree;
#   6. D = 1 with u32 weights (a weighted bincount) at 2^20 and 2^24 bins.
# Writes OUT/scatter.json, torch.json, scatter-bf16.json, scatter-f16.json, scatter-i64.json,
# det-groups-*.json, bincount-*.json and OUT/summary.txt (every ratio).
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-scatter
A=${ATOMLAB:-./build/atomlab}
E=${ROWS:-8388608} D=${DIM:-64} V=${TARGETS:-1048576}
{ date -u +%FT%TZ; $SMI; $A version; python3 -c 'import torch; print("torch", torch.__version__)'; } >"$OUT/info.txt" 2>&1
STEP_LOG=$OUT/info.txt STEP_STATUS=$OUT/info.txt
step_deadline 470
# SKIP="NAME ...": leave those steps out (a rerun of the rest)
run_step() {
  case " ${SKIP:-} " in
  *" $1 "*) step_note "$1: skipped (SKIP)" ;;
  *) step "$@" ;;
  esac
}
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V"
run_step scatter 150 $S --dump "$W/d" -o "$OUT/scatter.json" --quiet
run_step torch 150 python3 scripts/peer-torch-scatter.py "$W/d" --rows $E --dim $D --targets $V -o "$OUT/torch.json"
rm -rf "$W/d"
# 16-bit floats on every distribution: the packed bf16x2 / f16x2 reductions (the scalar forms compiled to a
# CAS loop that took 24 s a launch on zipf keys, docs/scatter.md)
run_step bf16 120 $S --type bf16 --variants atomic,run,block,vector,det -o "$OUT/scatter-bf16.json" --quiet
run_step f16 60 $S --type f16 --dist uniform,zipf,hot --variants atomic,run,det -o "$OUT/scatter-f16.json" --quiet
run_step i64 60 $S --index i64 --dist uniform,zipf --variants atomic,run,det -o "$OUT/scatter-i64.json" --quiet
for g in 0 132 4096; do
  run_step "det-groups-$g" 20 $A app scatter --backend cuda --rows 1048576 --dim $D --targets $V --dist zipf,hot \
    --variants det --groups $g -o "$OUT/det-groups-$g.json" --quiet
done
run_step bincount 30 $A app scatter --backend cuda --type u32 --dim 1 --rows 67108864 --targets 1048576 \
  --variants atomic,run,block,bins,det -o "$OUT/bincount-2e20.json" --quiet
run_step bincount24 30 $A app scatter --backend cuda --type u32 --dim 1 --rows 67108864 --targets 16777216 \
  --variants atomic,run,block,bins -o "$OUT/bincount-2e24.json" --quiet
python3 scripts/gpu-scatter-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
