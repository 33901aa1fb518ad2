#!/usr/bin/env bash
# Issue [diagnose], round 8 (one H100 call, at most 150 s, every step under `timeout`): the privatized float adds'
# model at shapes it has not seen, and seed 000's speedup model measured more robustly:
#   1. the calibrations of the privatized float adds in ONE ncu run (OUT/cas-chain.csv, `model l2 --cas-chain`):
#      the contended chain c(E) (E = 1, 2, 4, 8, 16 warps a block on the same 32 words, one block a SM) and a
#      dependent load's round trip: the scatter copy at 2 warps a SM (256 blocks of 32, 8192 elements a work-item,
#      each one load's round trip; its atomic launches are skipped by both readers);
#   2. the hot-row f32 scatter, the atomic launch profiled and its block variant at the profiled grid, at dim 32 / 8
#      warps a block again (round 7: +32.7%) and the four shapes of round8/PREDICTIONS.md (dim 32 / 16 warps, dim 128
#      / 8 warps, dim 32 / 2 warps, dim 16 / 8 warps), through scripts/gpu-diagnose-validate.sh with the L2 sector
#      metrics, whose analysis runs in the call (validate/validation.json, validation-summary.txt);
#   3. seed 000's speedup model (`app swatomic --experiment`, CUDA, 7 samples a grid, where 18 s are left) with the
#      H200 CUDA run's constants fitted on all its grids (relative least squares), on its grids 8, 128, 1024 (round
#      7's), and on this call's own grids 8, 128, 1024 (the other 6 out of sample).
# The GPU machine gets no results/: the float shares (the scatter kernels' REDG.E.ADD.F32, round 6's SASS) and the
# table's bytes are inline, the H200 fit file is scripts/data/swatomic-h200-cuda-fit.json.gz.
# Writes under OUT (default out/gpu-diagnose-round8): summary.txt (with predicted against measured), run.log,
# cas-chain.csv, same-f32.csv, swatomic-cuda.json, swmodel-cuda.txt, validate/ (gpu-diagnose-validate.sh's files).
# Run: OUT=/some/dir bash scripts/gpu-diagnose-round8.sh   (a build in build/, ncu, python3)
# Round 8's second call is this script with R8_CALL=b (scripts/gpu-diagnose-round8b.sh): no copy at 16 warps a SM,
# its own shapes and its own predictions.
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
R8_CALL=${R8_CALL:-}
R8_SHAPES=${R8_SHAPES:-d32-w8|d32-w16|d128-w8|d32-w2|d16-w8}
R8_PRE=${R8_PRE:-'{"d32-w8": 296, "d32-w16": 252, "d128-w8": 226, "d32-w2": 975, "d16-w8": 566}'} # us, PREDICTIONS.md
export R8_PRE
gpu_ncu_script gpu-diagnose-round8$R8_CALL
T0=$(date +%s)
V=$OUT/validate
mkdir -p "$V"
printf 'kernel,f32_share\nscatter_add,1.0000\n' >"$V/types.csv"
# the suite's one table size (the block variant's: 33280 B at dim 64, 33024-34816 at dims 128-16: 6 a SM each)
echo 33280 >"$V/private-table.txt"
gpu_l2_one_word same-f32 f32 && cp "$OUT/same-f32.csv" "$V/"
# the L2 sector metrics rounds 7's three calls found in this ncu (the hot word's updates)
X=
for m in lts__t_sectors_op_red lts__t_sectors_op_atom lts__t_sectors_op_red_lookup_miss \
  lts__t_sectors_op_atom_lookup_miss; do
  X="$X${X:+,}$m.max,$m.sum"
done

# 1. the chain and the round trip, one export
SMS=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q -E 'H100|H200' && echo 132)
SMS=${SMS:-132}
CH="$A rmw --backend cuda --space local --type f32 --op fetch_add --result used --pattern cross-warp --padding 1 --iters 256 --workgroups $SMS --min-samples 1 --max-samples 1 --quiet -o $W/ch.json"
RT="$A app scatter --backend cuda --type f32 --rows 1048576 --dim 64 --targets 131072 --dist uniform --variants atomic --rows-per-warp 4096 --wg-size 32 --samples 1 --quiet -o $W/rt.json"
step chain 35 "$NCU" --clock-control none --kernel-name "regex:rmw|scatter_add" --force-overwrite -o "$W/chain" \
  --metrics "$GPU_L2_METRICS,sm__cycles_elapsed.avg,smsp__inst_executed_op_shared_atom_dot_cas.sum,smsp__inst_executed_op_shared_atom.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed" \
  bash -c "for e in 1 2 4 8 16; do $CH --contention \$e --wg-size \$((32 * e)) || exit 1; done; $RT" &&
  "$NCU" --import "$W/chain.ncu-rep" --csv --page raw --print-units base >"$OUT/cas-chain.csv" 2>>"$L"
if [ -s "$OUT/cas-chain.csv" ] && $A model l2 --counters "$OUT/cas-chain.csv" --s-same 1,1 --s-spread 1,1 \
  --cas-chain "$OUT/cas-chain.csv" >"$W/chain.txt" 2>&1; then
  cp "$OUT/cas-chain.csv" "$V/"
fi
grep -i -m1 "^chain" "$W/chain.txt" >>"$S" 2>/dev/null || { echo "chain: none" >>"$S"; cat "$W/chain.txt" >>"$L" 2>/dev/null; }
if [ -z "$R8_CALL" ]; then
# the same copy at 16 warps a SM (2048 blocks of 32: a DRAM load like the strategies' 20-45% of the achievable),
# not read by the model: what the load does to the round trip (OUT/round-trip-16w.csv, its line in S)
step rt16 9 "$NCU" --clock-control none --kernel-name scatter_add --force-overwrite -o "$W/rt16" \
  --metrics "$GPU_L2_METRICS,sm__cycles_elapsed.avg,smsp__inst_executed_op_shared_atom_dot_cas.sum,dram__bytes.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed" \
  ${RT/--rows-per-warp 4096/--rows-per-warp 512} &&
  "$NCU" --import "$W/rt16.ncu-rep" --csv --page raw --print-units base >"$OUT/round-trip-16w.csv" 2>>"$L"
python3 - "$OUT/cas-chain.csv" "$OUT/round-trip-16w.csv" >>"$S" 2>>"$L" <<'PY'
import csv, sys, statistics
num = lambda v: float((v or "0").replace(",", "") or 0)
for path in sys.argv[1:]:
    try:
        rows = list(csv.reader(open(path)))
    except OSError:
        continue
    h = rows[0]
    v = []
    for r in rows[2:]:
        d = dict(zip(h, r))
        if num(d.get("lts__t_requests_op_atom.sum")) + num(d.get("lts__t_requests_op_red.sum")) > 0 or not num(d.get("dram__bytes.sum")):
            continue
        items = num(d.get("launch__grid_size")) * num(d.get("launch__block_size"))
        v.append((num(d.get("sm__cycles_elapsed.avg")) / (num(d["dram__bytes.sum"]) / 8 / items), items / 32 / 132,
                  num(d.get("dram__throughput.avg.pct_of_peak_sustained_elapsed"))))
    for rt, w, pct in v:
        print(f"round trip {path.split('/')[-1]}: {rt:.0f} SM cycles an element, {w:.1f} warps a SM, DRAM {pct:.1f}% of peak")
PY
fi

# 2. the pairs (most telling first: the suite's order; about 8 s each, its calibrations 17 s), the programs within
# what is left of 118 s, the suite (its analysis included) killed at 128 s after the start
left=$((124 - ($(date +%s) - T0)))
GPU_DIAGNOSE_EXTRA_METRICS=$X gpu_diagnose_validate $((left - 6)) \
  "scatter-hot-($R8_SHAPES)-.*" $((left + 4))

# 3. seed 000's speedup model with what is left of 150 s
left=$((150 - ($(date +%s) - T0)))
H200=$W/h200-swatomic.json
gzip -dc scripts/data/swatomic-h200-cuda-fit.json.gz >"$H200"
f="$OUT/swatomic-cuda.json"
if [ "$left" -ge 18 ]; then
  step swatomic-cuda $((left - 2)) $A app swatomic --backend cuda --wg-size 256 --groups 8:max:x2 --iters 8 \
    --samples 7 --spin-bound 4194304 --experiment -o "$f"
else
  step_note "swatomic: skipped, $left s left"
fi
if [ -s "$f" ]; then
  {
    echo "== the coordinator's pass, constants of the H200 CUDA run, all its grids: every grid out of sample (headline)"
    $A model swatomic "$f" --fit "$H200"
    echo "== constants of the H200 CUDA run, its grids 8, 128, 1024 (round 7's)"
    $A model swatomic "$f" --fit "$H200" --fit-grids 8,128,1024
    echo "== constants of this call's grids 8, 128, 1024 (the other 6 out of sample)"
    $A model swatomic "$f" --fit-grids 8,128,1024
  } >"$OUT/swmodel-cuda.txt" 2>&1
  grep -E "^==|median" "$OUT/swmodel-cuda.txt" >>"$S"
fi
echo "total $(($(date +%s) - T0)) s" >>"$S"

# predicted (round8/PREDICTIONS.md or PREDICTIONS-call2.md, written before the call: the block variant's time) against
# measured, and the call's own analysis (the round trip measured here)
python3 - "$V/validation.json" >>"$S" 2>&1 <<'PY'
import json, os, sys
pre = json.loads(os.environ["R8_PRE"])  # us, written before the call
try:
    rows = json.load(open(sys.argv[1]))
    rows = rows["rows"] if isinstance(rows, dict) else rows
except Exception as e:
    sys.exit(f"no validation.json: {e}")
ms = {r["program"]: r["measured_ms"] for r in rows if r.get("unit") == "L2"}
print("shape     pre-run block us  measured us  error (pre-run)  | in-call predicted x  measured x  error")
for s, us in pre.items():
    a, b = ms.get(f"scatter-hot-{s}-atomic"), ms.get(f"scatter-hot-{s}-block-grid")
    r = [x for x in rows if x.get("program") == f"scatter-hot-{s}-atomic" and x.get("unit") == "L2"]
    p, m = (r[0].get("predicted_speedup"), r[0].get("measured_speedup")) if r else (None, None)
    e = f"{100 * (b * 1e3 / us - 1):+.1f}%" if b else "-"
    ic = f"{p:.2f}  {m:.2f}  {100 * (p / m - 1):+.1f}%" if p and m else "-"
    print(f"{s:9s} {us:8.0f} {b * 1e3 if b else 0:12.1f}  {e:>14s}  | {ic}  (atomic {a if a else 0:.3f} ms)")
PY
grep -E -- "largest U|verdicts|advice applied|priced strategy|scatter-hot" "$V/validation-summary.txt" >>"$S" 2>/dev/null
cat "$S"
