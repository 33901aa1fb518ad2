#!/usr/bin/env bash
# Why each histogram variant runs at the speed it does (issue [histogram], item 4), on an NVIDIA GPU:
#   1. for every variant, `atomlab profile` over one u8 run (uniform and solid, BYTES of input): the
#      shared-atomic utilization U of the model (docs/model.md) with the calibration table TABLE;
#   2. ncu's full section set for the DETAIL variant's kernel (and the read ceiling) on uniform u8: the
#      details page (throughputs, stall reasons, occupancy) and the SASS with per-instruction samples;
#   3. for every variant, the hardware's own utilization counters: shared-memory atomic wavefronts and all
#      shared wavefronts as a percentage of the L1 data pipe's peak, bank conflicts, DRAM throughput and
#      the ALU pipe (pipes.txt: the model's U above is an upper bound where e < 2, these are measured).
# STEPS (default "util details pipes") picks the steps.
# Run from the repository root after the build: OUT=DIR TABLE=smem-table.csv bash scripts/gpu-histogram-profile.sh
# Every step is cut at its own limit and none starts after DEADLINE seconds (default 200; scripts/lib.sh).
# Writes under OUT: util-summary.txt (U, n, e and verdict of each variant's kernel) and profile.tar.gz
# (the log, util-<variant>-<dist>.json, <variant>-details.txt, <variant>-sass.txt, pipes-*.csv) and,
# with step 3, pipes.txt.
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-histogram-profile
export PATH=$PATH:/usr/local/cuda/bin
A=$PWD/build/atomlab
TABLE=${TABLE:?TABLE must name a calibration table (atomlab calibrate smem)}
BYTES=${BYTES:-268435456}
VARIANTS=${VARIANTS:-shared warp-private match-any packed per-lane byte-lanes block16 cub}
DETAIL=${DETAIL:-byte-lanes} # the variant whose kernel gets ncu's full sections and its SASS
LOG=$W/profile-log.txt
{ echo "== start $(date -u +%FT%TZ)"; timeout 10 $SMI; $A version; timeout 10 ncu --version; } >"$LOG" 2>&1
T0=$(date +%s)
step_deadline "${DEADLINE:-200}"
STEP_LOG=$LOG STEP_STATUS=$LOG
H="app histogram --backend cuda --input u8 --samples 1 --bytes $BYTES --quiet -o /tmp/hist-profile.json"

STEPS=${STEPS:-util details pipes}
has() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }

# 1. utilization of the shared-memory atomic unit, one variant per profile so each kernel is named by it
has util && for dist in uniform solid; do
  for v in $VARIANTS; do
    step "util $v $dist" 40 $A profile --table "$TABLE" --result unused -o "$W/util-$v-$dist.json" -- \
      $A $H --dist $dist --variants $v
  done
done
# the last launch of each variant's own kernels (the read ceiling, read_all, runs first)
has util && python3 - "$W" >"$OUT/util-summary.txt" 2>&1 <<'PY'
import glob, json, os, sys
print(f"{'dist':8s} {'variant':13s} {'kernel':28s} {'n_hat':>6s} {'e':>6s} {'U':>7s} verdict")
for f in sorted(glob.glob(os.path.join(sys.argv[1], "util-*.json"))):
    v, dist = os.path.basename(f)[5:-5].rsplit("-", 1)
    ks = [k for k in atl_json.load(f)["kernels"] if k["kernel"] != "read_all"]
    last = {}
    for k in ks:  # CUB launches two kernels per sample: keep the last of each name
        last[k["kernel"]] = k
    for name, k in last.items():
        print(f"{dist:8s} {v:13s} {name[:28]:28s} {k['n_hat']:6.2f} {k['e']:6.2f} {k['U']:7.3f} {k.get('verdict', '')}")
PY

# 2. ncu's full sections for the DETAIL kernel (histogram) and the read ceiling (read_all), the timed launch of each
has details && step -o "$W/$DETAIL-details.txt" details 60 ncu --clock-control none --set full \
  --kernel-name regex:'histogram|read_all' --launch-skip 1 $A $H --dist uniform --variants "$DETAIL" --no-cub
has details && step -o "$W/$DETAIL-sass.txt" sass 60 ncu --clock-control none --section SourceCounters \
  --section WarpStateStats --kernel-name histogram --launch-skip 1 --launch-count 1 --page source --print-source sass \
  $A $H --dist uniform --variants "$DETAIL" --no-cub
# 3. the hardware's utilization counters, every variant, the last launch of each of its kernels
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum.pct_of_peak_sustained_elapsed
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,smsp__inst_executed_op_shared_atom.sum
M=$M,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
if has pipes; then
  for dist in uniform solid; do
    for v in $VARIANTS; do
      step -o "$W/pipes-$v-$dist.csv" "pipes $v $dist" 30 ncu --clock-control none --csv --print-units base \
        --metrics "$M" $A $H --dist $dist --variants $v
    done
  done
  python3 - "$W" >"$OUT/pipes.txt" 2>&1 <<'PY'
import csv, glob, io, os, sys
short = {"gpu__time_duration.sum": "us", "dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram%",
         "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum.pct_of_peak_sustained_elapsed": "atoms_wf%",
         "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed": "shared_wf%",
         "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum": "atom_conflicts",
         "smsp__inst_executed_op_shared_atom.sum": "atom_inst",
         "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active": "alu%",
         "sm__warps_active.avg.pct_of_peak_sustained_active": "occupancy%"}
cols = list(short.values())
print(f"{'dist':8s} {'variant':13s} {'kernel':20s} " + " ".join(f"{c:>14s}" for c in cols))
for f in sorted(glob.glob(os.path.join(sys.argv[1], "pipes-*.csv"))):
    v, dist = os.path.basename(f)[6:-4].rsplit("-", 1)
    text = open(f).read()
    start = text.find('"ID"')
    if start < 0:
        print(f"{dist:8s} {v:13s} no ncu rows: {text.strip().splitlines()[-1:]}")
        continue
    last = {}  # (launch id, kernel) -> {metric: value}; keep the last launch of each kernel name
    for r in csv.DictReader(io.StringIO(text[start:])):
        if not r.get("Kernel Name") or not r.get("Metric Name"):  # a line that is not ncu's (the app's output)
            continue
        k = r["Kernel Name"].split("(")[0].split("<")[0].split("::")[-1][:20]
        if k == "read_all":
            continue
        if r["ID"] != last.get(k, {}).get("id"):
            last[k] = {"id": r["ID"]}
        last[k][short.get(r["Metric Name"], r["Metric Name"])] = r["Metric Value"].replace(",", "")
    for k, m in last.items():
        if "Init" in k:  # CUB's zeroing kernel
            continue
        us = float(m.get("us", "nan")) / 1000 if m.get("us") else float("nan")  # ncu reports ns
        m["us"] = f"{us:.1f}"
        print(f"{dist:8s} {v:13s} {k:20s} " + " ".join(f"{m.get(c, '-'):>14s}" for c in cols))
PY
fi
echo "== done in $(($(date +%s) - T0)) s" >>"$LOG"
tar -czf "$OUT/profile.tar.gz" -C "$W" .
[ -f "$OUT/util-summary.txt" ] && cat "$OUT/util-summary.txt"
[ -f "$OUT/pipes.txt" ] && cat "$OUT/pipes.txt"
