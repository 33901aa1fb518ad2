#!/usr/bin/env bash
# The shared-memory atomic model on an NVIDIA GPU (issue [smem-model]), about 4 minutes:
#   1. atomlab calibrate smem: the full T(n, e, c) table (both fetch-and-add
#      variants, 5 reps per point), cut at 200 s; if it does not finish, a
#      coarse grid instead (cut at 60 s). Prints the elapsed time.
#   2. ncu --query-metrics, filtered to the candidate metrics (to confirm the
#      sm_90 names the profile command asks for).
#   3. atomlab profile -- atomlab rmw --space local,global ...: a real program whose
#      kernels are loops of shared-memory atomics (U should be near 1) or global
#      ones (U = 0), with ncu's raw CSV export of that same run kept for
#      tests/data, then `model util` offline on that file.
#   4. the seed's histogram case study: atomlab profile -- atomlab hist-case
#      (Listings 1 and 2, solid and uniform images), then hist-case alone over
#      image sizes and block sizes for the speedup of histogram2.
# Run from the repository root after the build: OUT=/some/dir bash scripts/gpu-smem.sh
# Writes into OUT (default out/gpu-smem): smem-table.csv, smem-table.json,
# ncu-metrics.txt, ncu-rmw-local.csv, profile.txt, profile.json, hist-case.csv, gpu-smem-log.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out/gpu-smem}
mkdir -p "$OUT"
. scripts/gpu-env.sh
export PATH=$PATH:/usr/local/cuda/bin
A=$PWD/build/atomlab
LOG=$OUT/gpu-smem-log.txt
log() { echo "$*" | tee -a "$LOG"; }
{ echo "== start $(date -u +%FT%TZ)"; $SMI; $A version; $A devices; ncu --version; } >"$LOG" 2>&1
timed() { # timed NAME LIMIT COMMAND...: runs with a time limit, logs the exit status and wall time
  local name=$1 limit=$2 start rc
  shift 2
  start=$(date +%s.%N)
  timeout "$limit" "$@" >>"$LOG" 2>&1
  rc=$?
  log "$name: exit $rc in $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s"
  return $rc
}

# 1. the calibration table
if ! timed calibrate_full 120 $A calibrate smem --reps 5 --out "$OUT/smem-table"; then
  log "the full grid did not finish: a coarse grid instead"
  timed calibrate_coarse 40 $A calibrate smem --reps 3 --e 1,2,4,8,16,24,32 --out "$OUT/smem-table"
fi
tail -4 "$LOG" | grep -E "calibrate smem:|kernel:|note:" || true
if [ -s "$OUT/smem-table.csv" ]; then
  python3 - "$OUT/smem-table.csv" "$OUT/smem-table.json" <<'PY' | tee -a "$LOG"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
meta = json.load(open(sys.argv[2]))["calibration"]
t = {(r["result"], int(r["n"]), int(r["e"]), int(r["c"])): r for r in rows}
print(f"table: {len(rows)} points, {meta['seconds']:.1f} s, {meta['launches']} launches on {meta['sms_used']} SMs, "
      f"{meta['retried_samples']} samples repeated; instructions {meta['instructions']}")
for v in ("used", "unused"):
    for p in ((1, 1, 0), (1, 32, 0), (1, 32, 1), (8, 32, 0), (32, 1, 0), (32, 32, 0), (32, 32, 32), (64, 32, 0),
              (64, 32, 64), (64, 1, 0)):
        r = t.get((v,) + p)
        if r:
            spread = float(r["t_max_cycles"]) - float(r["t_min_cycles"])
            print(f"  {v:6} n={p[0]:2} e={p[1]:2} c={p[2]:2}: T={float(r['t_cycles']):8.1f} S={float(r['s_cycles']):7.2f}"
                  f" cycles (max-min {spread:.0f})")
PY
fi

# 2. the metric names this ncu offers on this GPU
ncu --query-metrics 2>&1 | grep -E "shared_atom|op_shared|shared_op_atom|cycles_active|warps_active|time_duration|device__attribute" \
  >"$OUT/ncu-metrics.txt"
log "ncu-metrics.txt: $(wc -l <"$OUT/ncu-metrics.txt") lines"

# 3. profile a real program: loops of shared-memory fetch_add and CAS (result used and unused; 1 and 32 lanes
#    per word), whose U should be near 1, and the same on global memory, where no shared atomic runs (U = 0)
TABLE=$OUT/smem-table.csv
[ -s "$TABLE" ] || { log "no table from this run: profile uses the SYNTHETIC test table"; TABLE=tests/data/smem-table-synthetic.csv; }
PROG=($A rmw --backend cuda --space local,global --op fetch_add,cas --result unused,used --contention 1,32
  --padding 1 --wg-size 256 --workgroups 264 --iters 2048 --min-samples 1 --max-samples 1)
timed profile 60 $A profile --table "$TABLE" --save-counters "$OUT/ncu-rmw-local.csv" -- "${PROG[@]}"
sed -n '/shared-memory atomic unit utilization/,$p' "$LOG" | head -60 >"$OUT/profile.txt"
cat "$OUT/profile.txt"
if [ -s "$OUT/ncu-rmw-local.csv" ]; then
  timed model_util 30 $A model util --table "$TABLE" --counters "$OUT/ncu-rmw-local.csv" -o "$OUT/profile.json"
  head -c 600 "$OUT/ncu-rmw-local.csv" | head -3 | cut -c1-400
fi

# 4. the histogram case study under the profiler (ids in launch order: per row a warm-up and one timed launch),
#    then alone for timings
mark=$(wc -l <"$LOG")
timed profile_hist 50 $A profile --table "$TABLE" -- $A hist-case --pixels 4194304 --wg-size 512 --reps 1
{ echo; echo "== hist-case under the profiler"; tail -n +"$((mark + 1))" "$LOG"; } | tee -a "$OUT/profile.txt"
timed hist_case 30 $A hist-case --pixels 65536,1048576,4194304 --wg-size 256,1024 --reps 5 -o "$OUT/hist-case.csv"
[ -s "$OUT/hist-case.csv" ] && python3 - "$OUT/hist-case.csv" <<'PY' | tee -a "$LOG"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t = {(r["kernel"], r["image"], r["result"], r["pixels"], r["wg_size"]): float(r["median_ms"]) for r in rows}
print(f"hist-case: {len(rows)} rows, all verified: {all(r['verified'] == '1' for r in rows)}")
for (k, i, res, p, w), ms in sorted(t.items()):
    if k == "histogram" and ("histogram2", i, res, p, w) in t:
        print(f"  {i:7} {res:6} {p:>8} px wg {w:>4}: histogram {ms:.4f} ms, histogram2 {t[('histogram2', i, res, p, w)]:.4f} ms,"
              f" speedup {ms / t[('histogram2', i, res, p, w)]:.2f}")
PY
log "== end $(date -u +%FT%TZ)"
$SMI >>"$LOG" 2>&1
