#!/usr/bin/env bash
# Issue [truth], round 4 (one call, at most 9 minutes): are the full grid's repeats within 5% of each other once
# every repeat is the median of several rounds spread through the run (--rounds), and does the standalone
# cross-check agree within 5% when both programs measure in rounds?
#   1. tests/cli/gpu_crosscheck.sh: atomlab against tests/crosscheck/standalone_rmw.cu (crosscheck.txt);
#   2. the 968-row grid, --repeat 3 --rounds $ROUNDS (grid.json), in the time left;
#   3. summary.txt: cells within 5% of their median across repeats (per op), the same figure for repeats made of
#      one round each (round k of every repeat, from the same run: the control), median noise, seconds per repeat.
# Everything under OUT (default out/gpu-truth-round4); run.log has the commands' output.
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-truth-round4
gpu_deadline 530 # the whole script's limit: the grid gets what the cross-check leaves of it
ROUNDS=${ROUNDS:-3}
GRID_TIMING=${GRID_TIMING:---target-ms 4 --min-samples 3 --max-samples 6 --budget 0.05}
L=$OUT/run.log
CU=${DEVICE:-$(gpu_device_id cuda gpu)}
{ date -u +%FT%TZ; $SMI; $A version; echo "rounds $ROUNDS, grid timing: $GRID_TIMING"; } >"$OUT/info.txt" 2>&1
cat "$OUT/info.txt"

echo "== $(since) s: cross-check" | tee -a "$L"
CROSSCHECK_OUT=$OUT/crosscheck.txt timeout -k 10 170 bash tests/cli/gpu_crosscheck.sh "$A" build/standalone_rmw \
  >>"$L" 2>&1
echo "cross-check exit $? after $(since) s" | tee -a "$L"
cat "$OUT/crosscheck.txt" 2>/dev/null

LEFT=$((LIMIT_S - $(since) - 25)) # 25 s: the grid's stop after its current row, the summary
echo "== $(since) s: grid, --repeat 3 --rounds $ROUNDS, at most $LEFT s (SIGINT then: the rows so far are written)" |
  tee -a "$L"
timeout -s INT -k 15 "$LEFT" "$A" rmw --device "$CU" --pattern all --op fetch_add,cas --contention 1:1024 \
  --padding 1:1024 --repeat 3 --rounds "$ROUNDS" $GRID_TIMING -o "$OUT/grid.json" --quiet >>"$L" 2>&1
echo "grid exit $? after $(since) s" | tee -a "$L"

python3 - "$OUT/grid.json" <<'PY' | tee "$OUT/summary.txt"
import json, statistics, sys
d = json.load(open(sys.argv[1]))
s, st = d["summary"], d["settings"]
R, N = st.get("rounds", 1), st["repeats"]
def within(values, tol=0.05):
    m = statistics.median_low(values)  # the kept repeat: the lower middle, as atomlab keeps it
    return all(abs(v - m) <= tol * m for v in values)
print(f"grid: {s['rows']} rows, {s['rows_ok']} ok, {s['rows_verified']} verified, {s['rows_noisy']} noisy; "
      f"complete {d.get('complete')}; repeats {N} x rounds {R}; {st['target_ms']} ms launches, "
      f"{st['min_samples']}..{st['max_samples']} samples, budget {st['budget_s']} s")
reps = s.get("repeat_seconds", [])
print(f"elapsed {s['elapsed_s']:.1f} s; seconds per repeat: {', '.join(f'{x:.1f}' for x in reps)} "
      f"(target: at most 300); per round about {', '.join(f'{x / R:.1f}' for x in reps)}")
print(f"median noise {100 * s.get('noise_median', float('nan')):.2f}% (target at most 1%), "
      f"largest {100 * s.get('noise_max', float('nan')):.1f}%")
by = {}
for r in d["rows"]:
    v = r.get("visits_ms", [])
    if r["status"] != "ok" or not r["verified"] or len(v) < N * R:
        by.setdefault(r["config"]["op"], {}).setdefault("incomplete", 0)
        by[r["config"]["op"]]["incomplete"] += 1
        continue
    groups = [v[g * R:(g + 1) * R] for g in range(N)]
    o = by.setdefault(r["config"]["op"], {"cells": 0, "ok": 0, "one": [0] * R, "miss": []})
    o["cells"] += 1
    rep = [statistics.median_low(g) for g in groups]  # a repeat's value: its median round
    if within(rep):
        o["ok"] += 1
    else:
        c = r["config"]
        m = statistics.median_low(rep)
        o["miss"].append((max(abs(x - m) / m for x in rep), c["pattern"], c["contention"], c["padding"]))
    for k in range(R):  # the control: repeats of one round (round k of each), from the same visits
        o["one"][k] += within([g[k] for g in groups])
tc = sum(o.get("cells", 0) for o in by.values())
tk = sum(o.get("ok", 0) for o in by.values())
print(f"cells within 5% of their median across repeats: {tk} of {tc} = {100 * tk / max(tc, 1):.1f}% (target >= 95%)")
for op, o in sorted(by.items()):
    if "cells" not in o:
        print(f"  {op}: {o['incomplete']} rows without all their visits (stopped, failed or not verified)")
        continue
    one = ", ".join(f"{100 * x / max(o['cells'], 1):.1f}%" for x in o["one"])
    print(f"  {op}: {o['ok']} of {o['cells']} = {100 * o['ok'] / max(o['cells'], 1):.1f}%; "
          f"repeats of one round (round 1..{R} of each repeat): {one}"
          + (f"; {o['incomplete']} rows incomplete" if o.get("incomplete") else ""))
    for dev, pat, c, p in sorted(o["miss"], reverse=True)[:12]:
        print(f"    miss {pat} c{c} p{p}: largest deviation {100 * dev:.1f}%")
PY
echo "== done after $(since) s" | tee -a "$L"
