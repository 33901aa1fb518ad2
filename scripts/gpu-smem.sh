#!/usr/bin/env bash
# The shared-memory atomic model on an NVIDIA GPU (issue [smem-model]) in ONE run of about 3 minutes
# (every step under `timeout`, each cut to what is left of 285 s; GPU_SMEM_SECONDS changes that):
#   1. atomlab calibrate smem: the full T(n, e, c) table (both fetch-and-add variants, 5 reps per point;
#      2.5 s on the H100); if it does not finish, a coarse grid; if neither, the committed H100 table.
#   2. ncu --query-metrics, filtered to the metrics the model reads (sm_90 names, kept for docs/model.md).
#   3. validation: atomlab profile --expect ... -- atomlab hist-case --validate: a loop of shared atomics
#      only (must be a bottleneck) and a memory stream with rare atomics (must not be); B vs measured too.
#   4. the case study under the profiler: histogram and histogram2, solid and uniform, ATOMS.POPC.INC and
#      ATOMS.ADD, 32 px to 4 Mpx, 128-1024 threads per block, ONE launch per row (--warmup 0 --reps 1),
#      the raw ncu export kept; then `atomlab model predict --runs` over it: B against the measured time
#      of every launch (predict.csv, predict.md).
#   5. the same grid WITHOUT the profiler (median of 5 launches) for the speedup of histogram2.
#   6. atomlab model case-summary: summary.txt, whether the seed's findings hold here; atomlab plot on the
#      folder: the figures (PNG + SVG where gnuplot is installed there; else the .dat and .gp files, which
#      `atomlab plot` on the unpacked folder, or gnuplot on the .gp, render anywhere).
# Run from the repository root after the build: OUT=/some/dir bash scripts/gpu-smem.sh
# Leaves in OUT (at most 6 files): summary.txt, gpu-smem-log.txt, predict.md, smem-case-util.png,
# smem-case-speedup.png and smem-results.tgz with everything else (smem-table.csv/.json, ncu-metrics.txt,
# validate.csv, validate-ncu.csv, validate-predict.md, hist-case-ncu.csv (the raw ncu export of the case
# study), hist-case-profiled.csv, predict.csv, hist-case.csv, the .dat files and SVGs).
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-smem
export PATH=$PATH:/usr/local/cuda/bin
A=$PWD/build/atomlab
LOG=$OUT/gpu-smem-log.txt
{ echo "== start $(date -u +%FT%TZ)"; timeout 10 $SMI; $A version; timeout 20 $A devices; timeout 10 ncu --version; } >"$LOG" 2>&1
step_deadline "${GPU_SMEM_SECONDS:-285}" # the whole run ends by then, whatever the steps' limits
STEP_LOG=$LOG STEP_STATUS=$LOG

# 1. the calibration table
if ! step calibrate_full 40 $A calibrate smem --reps 5 --out "$OUT/smem-table"; then
  step_note "the full grid did not finish: a coarse grid instead"
  step calibrate_coarse 20 $A calibrate smem --reps 3 --e 1,2,4,8,16,24,32 --out "$OUT/smem-table"
fi
TABLE=$OUT/smem-table.csv
if [ -s "$TABLE" ]; then
  timeout 20 python3 - "$TABLE" "$OUT/smem-table.json" <<'PY' | tee -a "$LOG"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
meta = atl_json.load(sys.argv[2])["calibration"]
t = {(r["result"], int(r["n"]), int(r["e"]), int(r["c"])): r for r in rows}
print(f"table: {len(rows)} points, {meta['seconds']:.1f} s, {meta['launches']} launches on {meta['sms_used']} SMs, "
      f"{meta['retried_samples']} samples repeated; instructions {meta['instructions']}")
for v in ("used", "unused"):
    for p in ((1, 1, 0), (1, 32, 0), (16, 1, 0), (16, 32, 0), (32, 1, 0), (32, 32, 0), (64, 1, 0), (64, 32, 0)):
        r = t.get((v,) + p)
        if r:
            print(f"  {v:6} n={p[0]:2} e={p[1]:2} c={p[2]:2}: T={float(r['t_cycles']):8.1f} S={float(r['s_cycles']):7.2f}")
PY
else
  step_note "no table from this run: the model uses the committed H100 table results/nvidia-h100/smem/smem-table.csv"
  TABLE=results/nvidia-h100/smem/smem-table.csv
fi

# 2. the metric names this ncu offers on this GPU
timeout 30 ncu --query-metrics 2>&1 |
  grep -E "shared_atom|op_shared|shared_op_atom|cycles_active|cycles_elapsed|warps_active|time_duration|device__attribute|wavefronts_mem_shared" \
    >"$OUT/ncu-metrics.txt"
step_note "ncu-metrics.txt: $(wc -l <"$OUT/ncu-metrics.txt") lines; shared-atomic wavefronts offered: $(grep -c wavefronts_mem_shared_op_atom "$OUT/ncu-metrics.txt")"

# 3. validation: two kernels whose verdict is known (docs/model.md); profile exits 1 if a verdict is wrong
step validate 60 $A profile --table "$TABLE" --save-counters "$OUT/validate-ncu.csv" -o "$OUT/validate.csv" \
  --expect smem_validate_atomics=bottleneck --expect smem_validate_stream=not \
  -- $A hist-case --validate --warmup 0 --reps 1
grep -E "^(expect|error): " "$LOG" | tail -3
[ -s "$OUT/validate-ncu.csv" ] &&
  step validate_predict 20 $A model predict --table "$TABLE" --counters "$OUT/validate-ncu.csv" -o "$OUT/validate-predict.md"
[ -s "$OUT/validate-predict.md" ] && cat "$OUT/validate-predict.md" >>"$LOG"

# 4. the case study under the profiler, one launch per row, and the model's busy time against each launch's time
PIXELS=32,256,2048,16384,131072,1048576,4194304
WG=128,256,512,1024
step profile_hist 150 $A profile --table "$TABLE" --save-counters "$OUT/hist-case-ncu.csv" \
  -- $A hist-case --pixels $PIXELS --wg-size $WG --warmup 0 --reps 1 -o "$OUT/hist-case-profiled.csv"
if [ -s "$OUT/hist-case-ncu.csv" ] && [ -s "$OUT/hist-case-profiled.csv" ]; then
  step predict_csv 30 $A model predict --table "$TABLE" --counters "$OUT/hist-case-ncu.csv" \
    --runs "$OUT/hist-case-profiled.csv" -o "$OUT/predict.csv"
  step predict_md 30 $A model predict --table "$TABLE" --counters "$OUT/hist-case-ncu.csv" \
    --runs "$OUT/hist-case-profiled.csv" -o "$OUT/predict.md"
  tail -3 "$OUT/predict.md" | tee -a "$LOG"
fi

# 5. the same grid without the profiler: the timings behind the speedup
step hist_case 60 $A hist-case --pixels $PIXELS --wg-size $WG --reps 5 -o "$OUT/hist-case.csv"

# 6. plots and the summary, computed from the files above
step summary 20 $A model case-summary "$OUT" -o "$OUT/summary.txt"
step plot 30 $A plot "$OUT" -o "$OUT" --format both
[ -s "$OUT/summary.txt" ] && cat "$OUT/summary.txt"
step_note "== end $(date -u +%FT%TZ)"
timeout 10 $SMI >>"$LOG" 2>&1

# at most 6 files come back: everything but these goes into one archive
KEEP="summary.txt gpu-smem-log.txt predict.md smem-case-util.png smem-case-speedup.png smem-results.tgz"
( cd "$OUT" && rest=$(ls -1 | grep -vxF -f <(tr ' ' '\n' <<<"$KEEP")) &&
  [ -n "$rest" ] && tar czf smem-results.tgz $rest && rm -f $rest )
ls -la "$OUT"
