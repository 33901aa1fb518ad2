#!/usr/bin/env bash
# The L2 atomic model (docs/model.md, "Global atomics") against programs it was not calibrated on, in one
# GPU call of about 3-5 minutes: calibration exports of atomlab's rmw (same address; one word per line),
# then ncu over atomlab's scatter and histogram apps and PyTorch's index_add_, scatter_add_, bincount and
# histc on uniform and one-hot inputs; `atomlab model l2` on every launch, with the DRAM throughput of
# each launch as the independent evidence of what bound it (memory-bound: dram >= 60% of peak).
# Writes under OUT (default out/gpu-l2-validate): summary.txt, run.log, same.csv, spread.csv,
# programs.csv (the exports), l2.csv (the model's table), validation.json (rows: kernel, source, u,
# u_low, u_high, predicted_ms, measured_ms, error, verdict, expected_verdict, dram_pct).
# Run: OUT=/some/dir bash scripts/gpu-l2-validate.sh   (expects a build in build/, ncu, python3 with torch)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_ncu_script gpu-l2-validate
step_deadline 420
M="lts__cycles_elapsed.avg,gpu__time_duration.sum,lts__t_requests_op_atom.sum,lts__t_requests_op_atom.max"
M="$M,lts__t_requests_op_atom.avg,lts__t_requests_op_red.sum,lts__t_requests_op_red.max,lts__t_requests_op_red.avg"
M="$M,lts__d_atomic_input_cycles_active.max,dram__throughput.avg.pct_of_peak_sustained_elapsed"
# prof NAME FILTER COMMAND...: ncu over COMMAND (kernels matching FILTER), the raw export to $W/NAME.csv
prof() {
  local name=$1 filter=$2
  shift 2
  step "$name" 90 "$NCU" --clock-control none --metrics "$M" --kernel-name "regex:$filter" --force-overwrite \
    -o "$W/$name" "$@" &&
    "$NCU" --import "$W/$name.ncu-rep" --csv --page raw --print-units base >"$W/$name.csv" 2>>"$L"
}
R="$A rmw --backend cuda --grid occupancy --op fetch_add --result unused,used --iters 64 --min-samples 1 --max-samples 1 --quiet -o $W/r.json"
prof same rmw $R --pattern contiguous --contention 1024 --padding 1
prof spread rmw $R --pattern contiguous --contention 1 --padding 32
cp "$W/same.csv" "$W/spread.csv" "$OUT/" 2>/dev/null
SC="$A app scatter --backend cuda --rows 1048576 --dim 64 --targets 131072 --samples 1 --quiet -o $W/s.json"
prof scatter scatter $SC --dist uniform,zipf,hot --variants atomic,block
HI="$A app histogram --backend cuda --bytes 67108864 --samples 1 --quiet -o $W/h.json"
prof histogram "hist" $HI --variants global,shared,block16
prof torch "index|scatter|bincount|histc|[Hh]istogram" python3 scripts/torch-scatter-ops.py
python3 - "$W" "$OUT" <<'PY' >>"$S" 2>&1
import csv, os, sys
w, out = sys.argv[1:]
header, rows = None, []
for src in ("scatter", "histogram", "torch"):
    f = os.path.join(w, src + ".csv")
    if not os.path.exists(f):
        print("missing", f)
        continue
    r = [x for x in csv.reader(open(f)) if x]
    i = next(k for k, x in enumerate(r) if x and x[0] == "ID")
    header = header or r[i] + ["source"]
    for x in r[i + 1:]:
        if len(x) == len(r[i]) and x[0]:
            rows.append(x + [src])
with open(os.path.join(out, "programs.csv"), "w", newline="") as f:
    wr = csv.writer(f, quoting=csv.QUOTE_ALL)
    wr.writerow(header)
    wr.writerow([""] * len(header))
    wr.writerows(rows)
print(len(rows), "launches profiled")
PY
step -o "$OUT/l2.csv" model 30 $A model l2 --counters "$OUT/programs.csv" --same "$OUT/same.csv" \
  --spread "$OUT/spread.csv" --format csv
$A model l2 --counters "$OUT/programs.csv" --same "$OUT/same.csv" --spread "$OUT/spread.csv" >>"$S" 2>&1
python3 scripts/l2-validation.py "$OUT" >>"$S" 2>&1
cat "$S"
