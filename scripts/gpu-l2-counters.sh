#!/usr/bin/env bash
# Data for the first model of global (L2) atomics (issue [diagnose], item 2), in one GPU call of about
# 2-4 minutes: which of the candidate L2 / L1 global-atomic counters this ncu offers on this GPU, and
# their values for rmw kernels whose access pattern is known (same address within a warp, across
# warps, one word per lane, one word per line, random words; RED against ATOM; CAS), next to the same
# rows' measured throughput without ncu. Writes under OUT (default out/gpu-l2-counters):
#   summary.txt          the metrics found and one line per profiled kernel
#   query-atomics.txt    ncu --query-metrics lines that name global atomics (atom/red) or L2 cycles
#   rmw.json             the rows timed without ncu (atomlab rmw)
#   counters.csv         ncu --import --csv --page raw --print-units base of the profiled launches
# Run: OUT=/some/dir bash scripts/gpu-l2-counters.sh   (expects a build in build/ and ncu)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_ncu_script gpu-l2-counters
step_deadline 280
step -o "$W/query.txt" query 60 "$NCU" --query-metrics
grep -Ei 'atom|_red|op_red|lts__cycles|lts__t_requests\b|lts__d_' "$W/query.txt" >"$OUT/query-atomics.txt"
want="lts__t_requests_op_atom lts__t_requests_op_red lts__t_sectors_op_atom lts__t_sectors_op_red
lts__d_atomic_input_cycles_active lts__cycles_elapsed lts__cycles_active
l1tex__t_set_accesses_pipe_lsu_mem_global_op_atom l1tex__t_set_accesses_pipe_lsu_mem_global_op_red
l1tex__t_requests_pipe_lsu_mem_global_op_atom l1tex__t_requests_pipe_lsu_mem_global_op_red
smsp__inst_executed_op_global_atom smsp__inst_executed_op_global_red
smsp__sass_inst_executed_op_global_atom smsp__sass_inst_executed_op_global_red
smsp__sass_thread_inst_executed_op_global_atom smsp__sass_thread_inst_executed_op_global_red
sm__cycles_active gpu__time_duration sm__cycles_elapsed"
metrics=""
for m in $want; do
  if grep -q "^$m\b" "$W/query.txt"; then
    case $m in
    lts__*) metrics="$metrics,$m.sum,$m.max,$m.avg" ;;
    sm__* | gpu__*) metrics="$metrics,$m.avg,$m.sum" ;;
    *) metrics="$metrics,$m.sum" ;;
    esac
    echo "found $m" >>"$S"
  else
    echo "missing $m" >>"$S"
  fi
done
metrics=${metrics#,}
# the rows: a fixed iteration count and one sample each, so that ncu replays few launches
rows=(
  "--pattern contiguous --op fetch_add --contention 1,32,1024 --padding 1,32 --result unused,used"
  "--pattern cross-warp --op fetch_add --contention 32 --padding 1 --result unused,used"
  "--pattern random --op fetch_add --contention 1 --padding 1 --result unused,used"
  "--pattern contiguous --op cas --contention 1,32 --padding 1 --result used"
)
i=0
for r in "${rows[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  step timed-$i 60 $A rmw --backend cuda --grid occupancy $r --budget 0.3 -o "$W/t$i.json" --quiet
  # shellcheck disable=SC2086
  step profiled-$i 90 "$NCU" --clock-control none --metrics "$metrics" --kernel-name regex:rmw \
    --force-overwrite -o "$W/p$i" $A rmw --backend cuda --grid occupancy $r --iters 64 --min-samples 1 \
    --max-samples 1 --quiet -o "$W/p$i.json"
  [ -f "$W/p$i.ncu-rep" ] && "$NCU" --import "$W/p$i.ncu-rep" --csv --page raw --print-units base \
    >"$W/c$i.csv" 2>>"$L"
done
python3 - "$W" "$OUT" >>"$S" 2>&1 <<'PY'
import csv, glob, io, json, os, sys, atl_json
w, out = sys.argv[1:]
rows, head = [], None
for f in sorted(glob.glob(os.path.join(w, "t*.json"))):
    rows += json.load(open(f))["rows"]
    head = head or json.load(open(f))  # the first file's header (format, device, commit, date) stays with the rows
if head:
    json.dump({**head, "complete": False, "rows": rows}, open(os.path.join(out, "rmw.json"), "w"), indent=1)
header, lines = None, []
for f in sorted(glob.glob(os.path.join(w, "c*.csv"))):
    r = list(csv.reader(open(f)))
    if len(r) < 3:
        continue
    header = header or r[0]
    lines += [x for x in r[2:] if len(x) == len(r[0])]
if header:
    with open(os.path.join(out, "counters.csv"), "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(header)
        wr.writerows(lines)
    print(f"{len(lines)} profiled launches in counters.csv")
for x in rows:
    print(x["pattern"], x["op"], x["result"], x["contention"], x["padding"], round(x.get("gops", 0), 2), "Gop/s",
          x["status"], x.get("instructions", ""))
PY
cat "$S"
