#!/usr/bin/env bash
# Histogram design runs (issue [histogram]) on an NVIDIA GPU, all in one call:
#   1. for each atomlab binary in BINARIES (builds of the same commit with different compile-time
#      settings, e.g. -DBYTE_LANES_WG=1024u), the INPUT (default u8) distributions over 1 GiB with
#      VARIANTS and CUB;
#   2. nvdisasm of every cubin in build/sass (made on the build machine with nvcc -cubin), so the
#      instructions per key can be read;
#   3. ncu's throughput, instruction, occupancy and stall sections for the first binary's NCU_VARIANT.
# Run from the repository root: OUT=DIR BINARIES="build/atomlab build-alt/atomlab" bash scripts/gpu-histogram-design.sh
# Writes OUT/summary.txt (GB/s and ratios per binary, variant and distribution) and OUT/design.tar.gz
# (the JSON files, the SASS listings, ncu's text, the log).
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-histogram-design
export PATH=$PATH:/usr/local/cuda/bin
BINARIES=${BINARIES:-build/atomlab}
VARIANTS=${VARIANTS:-shared,warp-private,per-lane,byte-lanes,auto,cub}
NCU_VARIANT=${NCU_VARIANT:-byte-lanes}
INPUT=${INPUT:-u8}
LOG=$W/log.txt
{ echo "== start $(date -u +%FT%TZ)"; $SMI; } >"$LOG" 2>&1
P=${PHOTO:+--photo $PHOTO}
STEP_LOG=$LOG STEP_STATUS=$LOG
n=0
for b in $BINARIES; do
  n=$((n + 1))
  echo "== $b: $($b version)" >>"$LOG"
  step "run$n" 120 $b app histogram --backend cuda --input "$INPUT" --dist all $P --variants "$VARIANTS" \
    --samples 10 -o "$W/run$n.json"
done
for c in build/sass/*.cubin; do
  [ -f "$c" ] && nvdisasm -c "$c" >"$W/$(basename "$c" .cubin).sass" 2>&1
done
first=${BINARIES%% *}
step -o "$W/ncu.txt" ncu 90 ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis \
  --section Occupancy --section LaunchStats --section InstructionStats --section WarpStateStats \
  --section SchedulerStats --kernel-name histogram --launch-skip 1 --launch-count 1 \
  $first app histogram --backend cuda --input "$INPUT" --dist uniform --variants "$NCU_VARIANT" --no-cub --samples 1 \
  --bytes 268435456 --quiet -o "$W/ncu-run.json"
python3 - "$W" "$BINARIES" >"$OUT/summary.txt" 2>&1 <<'PY'
import json, atl_json, os, sys
w, bins = sys.argv[1], sys.argv[2].split()
for n, b in enumerate(bins, 1):
    f = os.path.join(w, f"run{n}.json")
    if not os.path.exists(f):
        print(f"== {b}: no result"); continue
    doc = atl_json.load(f)
    print(f"== {b} ({doc['tool'].get('commit')}) on {doc['device'].get('name')}")
    for r in doc["rows"]:
        m = r["metrics"]
        g = m.get("gbps")
        print(f"  {r['variant']:28s} {r['status']:11s} verified={r['verified']!s:5s} "
              f"GB/s={g if g is None else round(g, 1)} x_read={round(m.get('ratio_to_read', 0), 3)} "
              f"x_cub={round(m.get('ratio_to_cub', 0), 3)} wg={m.get('wg_size')} groups={m.get('work_groups')} "
              f"{r.get('instructions', '')[:60]} {r['reason'][:60]}")
PY
cp "$LOG" "$W/log.txt" 2>/dev/null
tar -czf "$OUT/design.tar.gz" -C "$W" .
cat "$OUT/summary.txt"
grep -E "Duration|Throughput|Registers|Achieved Active Warps|Issue Slots Busy|Executed Ipc A|highest-utilized" "$W/ncu.txt" | head -20
