#!/usr/bin/env bash
# Issue [truth], round 5 (one call, at most 9 minutes): does measuring every row over several placements of its
# array (--placements 8: the samples taken in turn at 8 offsets 2 MiB apart, other L2 lines; docs/method.md,
# "Placements") make a cell's number repeatable, where a row used to catch one allocation's placement?
#   1. tests/cli/gpu_crosscheck.sh: atomlab against tests/crosscheck/standalone_rmw.cu, both at 8 placements
#      (crosscheck.txt);
#   2. procs.txt: the twelve cells of drift/ (contiguous fetch_add and cas, contention 8, 64, 512, padding 2, 16)
#      in PROCS fresh processes each with --placements 8 and with 1 (alternating; same samples otherwise): how far
#      apart processes land, the cross-check's and the repeats' trouble;
#   3. the 968-row grid, --repeat 3 --placements 8 (grid.json), summary.txt (scripts/truth_repeatability.py);
#   4. if CONTROL_S seconds are left: the same grid without placements (control.json; round 4's one-round
#      repeats are the control otherwise).
# Everything under OUT (default out/gpu-truth-round5); run.log has the commands' output.
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-truth-round5
gpu_deadline 530 # the whole script's limit
PLACEMENTS=${PLACEMENTS:-8}
PROCS=${PROCS:-4}
CONTROL_S=${CONTROL_S:-250} # the control runs only with this much time left after the grid
GRID_TIMING=${GRID_TIMING:---target-ms 1.5 --min-samples 16 --max-samples 16 --budget 0.03}
CONTROL_TIMING=${CONTROL_TIMING:---target-ms 4 --min-samples 3 --max-samples 6 --budget 0.05}
L=$OUT/run.log
CU=${DEVICE:-$(gpu_device_id cuda gpu)}
{
  date -u +%FT%TZ
  $SMI
  $A version
  echo "placements $PLACEMENTS; grid timing: $GRID_TIMING; control timing: $CONTROL_TIMING"
} >"$OUT/info.txt" 2>&1
cat "$OUT/info.txt"
GRID="--device $CU --pattern all --op fetch_add,cas --contention 1:1024 --padding 1:1024 --repeat 3 --quiet"

echo "== $(since) s: cross-check, $PLACEMENTS placements on both sides" | tee -a "$L"
CROSSCHECK_PLACEMENTS=$PLACEMENTS CROSSCHECK_OUT=$OUT/crosscheck.txt timeout -k 10 170 \
  bash tests/cli/gpu_crosscheck.sh "$A" build/standalone_rmw >>"$L" 2>&1
echo "cross-check exit $? after $(since) s" | tee -a "$L"
cat "$OUT/crosscheck.txt" 2>/dev/null

echo "== $(since) s: $PROCS processes each of the drift cells with --placements $PLACEMENTS and 1" | tee -a "$L"
for i in $(seq "$PROCS"); do
  for p in "$PLACEMENTS" 1; do
    timeout -k 5 30 "$A" rmw --device "$CU" --pattern contiguous --op fetch_add,cas --contention 8,64,512 \
      --padding 2,16 --placements "$p" $GRID_TIMING --quiet -o "$OUT/procs-p$p-$i.json" >>"$L" 2>&1 ||
      echo "process $i placements $p: exit $?" | tee -a "$L"
  done
done
python3 - "$OUT" "$PLACEMENTS" <<'PY' | tee "$OUT/procs.txt"
import glob, json, statistics, sys
out, P = sys.argv[1], sys.argv[2]
print("cell: Gop/s of each process, and (max - min) / median over the processes; placements 'P' against 1")
got = {}
for p in (P, "1"):
    for f in sorted(glob.glob(f"{out}/procs-p{p}-*.json")):
        for r in json.load(open(f))["rows"]:
            c = r["config"]
            m = {x["name"]: x["value"] for x in r["metrics"]}
            ok = r["status"] == "ok" and r["verified"]
            got.setdefault((c["op"], c["contention"], c["padding"]), {}).setdefault(p, []).append(
                (m.get("gops", float("nan")) if ok else float("nan"), m.get("placement_spread"),
                 m.get("cas_attempts_per_op")))
worst = {P: 0, "1": 0}
for k in sorted(got):
    for p in (P, "1"):
        v = [g for g, _, _ in got[k].get(p, [])]
        if not v:
            continue
        med = statistics.median(v)
        spread = (max(v) - min(v)) / med if med > 0 else float("nan")
        worst[p] = max(worst[p], spread)
        ps = [s for _, s, _ in got[k][p] if s is not None]
        att = [a for _, _, a in got[k][p] if a is not None]  # CAS: attempts per update in the last launch
        print(f"{k[0]:<10}c{k[1]:<4} p{k[2]:<3} placements {p}: spread {100 * spread:5.1f}%  "
              + " ".join(f"{x:.3g}" for x in v)
              + (f"   (placement spread in each: {' '.join(f'{100 * s:.0f}%' for s in ps)})" if ps else "")
              + (f"   (CAS attempts per update: {' '.join(f'{a:.3g}' for a in att)})" if att else ""))
print(f"largest spread between processes: placements {P} {100 * worst[P]:.1f}%, placements 1 {100 * worst['1']:.1f}%")
PY

LEFT=$((LIMIT_S - $(since) - 25)) # 25 s: the grid's stop after its current row, the summary
echo "== $(since) s: grid, --repeat 3 --placements $PLACEMENTS, at most $LEFT s (SIGINT then: the rows so far)" |
  tee -a "$L"
timeout -s INT -k 15 "$LEFT" "$A" rmw $GRID --placements "$PLACEMENTS" $GRID_TIMING -o "$OUT/grid.json" >>"$L" 2>&1
echo "grid exit $? after $(since) s" | tee -a "$L"
python3 scripts/truth_repeatability.py "$OUT/grid.json" "grid, --placements $PLACEMENTS" | tee "$OUT/summary.txt"

LEFT=$((LIMIT_S - $(since) - 20))
if [ "$LEFT" -ge "$CONTROL_S" ]; then
  echo "== $(since) s: control, the grid at one placement, at most $LEFT s" | tee -a "$L"
  timeout -s INT -k 15 "$LEFT" "$A" rmw $GRID $CONTROL_TIMING -o "$OUT/control.json" >>"$L" 2>&1
  echo "control exit $? after $(since) s" | tee -a "$L"
  python3 scripts/truth_repeatability.py "$OUT/control.json" "control, one placement" | tee -a "$OUT/summary.txt"
else
  echo "== $(since) s: no control ($LEFT s left, $CONTROL_S needed): round 4's is the control" | tee -a "$L"
fi
echo "== done after $(since) s" | tee -a "$L"
