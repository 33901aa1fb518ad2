#!/usr/bin/env bash
# Issue [diagnose], round 6 (one H100 call, about 6 minutes, every step under `timeout`): the validation again with
# what round 5 left unpriced, every input the analysis needs made by this run (the GPU bundle carries no results/):
#   1. the L2 cycles per request of ONE word the whole grid adds to, u32 and f32 (round 5b: 1.25 and 3.00): the
#      float one-key histograms' S (`model l2 --same-f32`), written as validate/same-f32.csv;
#   2. the source pages (SASS) of PyTorch's and CuPy's kernels and of atomlab's f32 scatter: their global atomics'
#      types, turned into validate/types.csv (scripts/sass-types.py; `model l2 --types`);
#   3. scripts/gpu-diagnose-validate.sh: round 5's suite plus the shared float add out of its sample (a quarter of
#      the warps on one word; every lane on its own word) and the hot scatter's block variant at the profiled
#      launch's own grid (--block-rows 256: 4096 groups, the grid the privatized advice prices);
#   4. the analysis again with (1) and (2) (scripts/diagnose-validation.py analyse).
# Writes under OUT (default out/gpu-diagnose-round6): summary.txt, run.log, same1-u32.csv, same1-f32.csv,
# sass-*.csv, validate/ (every file of gpu-diagnose-validate.sh, plus same-f32.csv, types.csv and the re-analysis).
# Run: OUT=/some/dir bash scripts/gpu-diagnose-round6.sh   (a build in build/, ncu, python3; torch, cupy where
# installed)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_ncu_script gpu-diagnose-round6
T0=$(date +%s)
step_deadline 400 # the steps end by then; the analysis follows

# 1. one word, the whole grid: 264 work-groups of 256 (two per SM), all 67584 work-items on it
ONE="$A rmw --backend cuda --wg-size 256 --workgroups 264 --contention 67584 --padding 1 --pattern contiguous --op fetch_add --result unused,used --iters 64 --min-samples 1 --max-samples 1 --quiet -o $W/r.json"
gpu_l2_calibrate same1-u32 $ONE --type u32
gpu_l2_calibrate same1-f32 $ONE --type f32
for f in same1-u32 same1-f32; do
  [ -s "$OUT/$f.csv" ] && $A model l2 --counters "$OUT/$f.csv" --same "$OUT/$f.csv" --spread "$OUT/$f.csv" 2>&1 |
    head -1 | sed "s/^/$f: /" >>"$S"
done

# 2. source pages: the instructions of each kernel with their executions (the types of its global atomics)
sass() { # NAME FILTER LAUNCHES COMMAND...
  local name=$1 filter=$2 n=$3
  shift 3
  step "sass-$name" 45 "$NCU" --clock-control none --section SourceCounters --kernel-name "regex:$filter" \
    --launch-count "$n" --force-overwrite -o "$W/sass-$name" "$@" &&
    "$NCU" --import "$W/sass-$name.ncu-rep" --csv --page source --print-source sass >"$OUT/sass-$name.csv" 2>>"$L"
}
python3 -c "import torch; assert torch.cuda.is_available()" 2>>"$L" &&
  sass torch "index|scatter|bincount|histc|[Hh]istogram" 40 python3 scripts/torch-scatter-ops.py --float-histc
cat >"$W/cupy_ops.py" <<'PY'
import cupy as cp, cupyx
for name in ("uniform", "hot"):
    keys = (cp.random.randint(0, 1 << 16, 1 << 24) if name == "uniform" else cp.zeros(1 << 24, dtype=cp.int64))
    out = cp.zeros(1 << 16, dtype=cp.float32)
    cupyx.scatter_add(out, keys, cp.ones(1 << 24, dtype=cp.float32))
cp.cuda.Device().synchronize()
PY
python3 -c "import cupy" 2>>"$L" && sass cupy "scatter_add" 2 python3 "$W/cupy_ops.py"
# atomlab's f32 scatter (the hot row's adds: REDG.E.ADD.F32), one launch of each variant the suite profiles
for v in atomic block; do
  sass "scatter-hot-$v" scatter_add 3 $A app scatter --backend cuda --type f32 --rows 1048576 --dim 64 \
    --targets 131072 --samples 1 --quiet -o "$W/s.json" --dist hot --variants $v
done
for f in "$OUT"/sass-*.csv; do
  [ -s "$f" ] && echo "$(basename "$f"): $(grep -o -E '(ATOMS|ATOMG|ATOM|RED|REDG)\.[A-Z0-9_.]*' "$f" | sort | uniq -c |
    tr '\n' ' ')" >>"$S"
done

# 3. the suite (its own deadline inside what is left of ours)
mkdir -p "$OUT/validate"
[ -s "$OUT/same1-f32.csv" ] && cp "$OUT/same1-f32.csv" "$OUT/validate/same-f32.csv"
step_note "validation suite: scripts/gpu-diagnose-validate.sh (OUT=$OUT/validate)"
# the whole call within 8 minutes: the suite gets what is left of 420 s, its programs 50 s less (its merge and analysis)
left=$((420 - ($(date +%s) - T0)))
OUT="$OUT/validate" GPU_DIAGNOSE_SECONDS=$((left - 50)) timeout "$left" bash scripts/gpu-diagnose-validate.sh \
  >"$W/validate.txt" 2>&1
step_note "validate: exit $? ($left s allowed)"

# 4. the kernels' float shares from the pages, then the analysis with them and the one-word f32 S
STEP_DEADLINE=
V=$OUT/validate
if [ -s "$V/programs.csv" ] && ls "$OUT"/sass-*.csv >/dev/null 2>&1; then
  step -o "$V/types.csv" types 15 python3 scripts/sass-types.py "$V/programs.csv" "$OUT"/sass-*.csv
  [ -s "$V/types.csv" ] || rm -f "$V/types.csv"
fi
[ -s "$V/programs.csv" ] && step -o "$W/analyse.txt" analyse 30 python3 scripts/diagnose-validation.py analyse "$V" --atomlab "$A"
head -8 "$V/validation-summary.txt" >>"$S" 2>/dev/null
grep -E -- "<-- wrong|speedup " "$V/validation-summary.txt" >>"$S" 2>/dev/null
cat "$S"
