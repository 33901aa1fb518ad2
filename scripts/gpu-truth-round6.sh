#!/usr/bin/env bash
# Issue [truth], round 6 (one call, at most 9 minutes): a contended contiguous cell (one hot line per work-group,
# e.g. fetch_add c64 p2 on 1024 x 264) runs at a level that moves between processes at every placement of its
# array (round 5: 31 or 36 Gop/s). Its time is its slowest work-group's, and a work-group's rate depends on where
# its line is served (the L2 slice and partition its physical address hashes to) relative to the SM that issues
# to it (which SM the hardware put the work-group on). Placements move the lines; --rotate (docs/method.md,
# "Rotation") also moves the work over the work-groups, so each placement pairs the lines with other SMs.
#   1. blocks.txt: `placement blocks` (tests/crosscheck/placement.cu, no atomlab code) in BLOCK_PROCS fresh
#      processes: every block's SM, start and cycles at 8 offsets x 8 rotations x 2 rounds, for add and cas at
#      c64 p2; scripts/truth_blocks.py says whether a block's cycles follow its SM, its line or the pair, and
#      whether the block -> SM map changes between launches and processes (the physics the method rests on);
#   2. procs.txt: the twelve drift/ cells in PROCS fresh processes each with --placements 8 --rotate and with
#      --placements 8 (alternating; the same samples otherwise): how far apart processes land, with and without;
#   3. the cross-check (tests/cli/gpu_crosscheck.sh) with --rotate on both sides (crosscheck.txt);
#   4. the 968-row grid, --repeat 3 --placements 8 --rotate (grid.json), summary.txt
#      (scripts/truth_repeatability.py).
# ROUNDS=2 adds --rounds 2 to the grid (about twice its time; LIMIT_S stops it by SIGINT with the rows so far).
# STEPS (default "blocks procs crosscheck grid") names the steps to run, in this order.
# Everything under OUT (default out/gpu-truth-round6); run.log has the commands' output.
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-truth-round6
START=$(date +%s)
LIMIT_S=${LIMIT_S:-530} # the whole script's limit
PROCS=${PROCS:-4}
BLOCK_PROCS=${BLOCK_PROCS:-3}
ROUNDS=${ROUNDS:-1}
STEPS=" ${STEPS:-blocks procs crosscheck grid} "
step_on() { [[ "$STEPS" == *" $1 "* ]]; }
ROTATE=${ROTATE:---rotate} # ROTATE= (empty) measures round 5's method, for a control on the same machine
GRID_TIMING=${GRID_TIMING:---target-ms 1.5 --min-samples 16 --max-samples 16 --budget 0.03}
L=$OUT/run.log
: >"$L"
CU=${DEVICE:-$(gpu_device_id cuda gpu)}
PROBE=build/placement
{
  date -u +%FT%TZ
  $SMI
  $A version
  git log -1 --format='%h %s' 2>/dev/null
  echo "steps:$STEPS; grid: --placements 8 $ROTATE --rounds $ROUNDS; timing: $GRID_TIMING"
} >"$OUT/info.txt" 2>&1
cat "$OUT/info.txt"
since() { echo $(($(date +%s) - START)); }

if step_on blocks; then
echo "== $(since) s: blocks: $BLOCK_PROCS processes of placement blocks (add and cas, c64 p2, 1024 x 264)" | tee -a "$L"
if [ -x "$PROBE" ]; then
  for i in $(seq "$BLOCK_PROCS"); do
    # iterations for about 1.5 ms a launch (round 5's rows: add c64 p2 160-215, cas c64 p2 4-9)
    timeout -k 5 60 "$PROBE" blocks add 64 2 1024 264 180 8 2 8 2 >"$OUT/blocks-add-$i.txt" 2>>"$L" ||
      echo "blocks add process $i: exit $?" | tee -a "$L"
    timeout -k 5 60 "$PROBE" blocks cas 64 2 1024 264 6 8 2 8 2 >"$OUT/blocks-cas-$i.txt" 2>>"$L" ||
      echo "blocks cas process $i: exit $?" | tee -a "$L"
  done
  { python3 scripts/truth_blocks.py "$OUT"/blocks-add-*.txt; python3 scripts/truth_blocks.py "$OUT"/blocks-cas-*.txt; } \
    2>&1 | tee "$OUT/blocks.txt"
  gzip -f "$OUT"/blocks-*-*.txt
else
  echo "no $PROBE (built where nvcc is): no blocks step" | tee -a "$L"
fi
fi

if step_on procs; then
echo "== $(since) s: $PROCS processes each of the drift cells with --placements 8 $ROTATE and without" | tee -a "$L"
for i in $(seq "$PROCS"); do
  for v in rot plain; do
    extra=$([ "$v" = rot ] && echo "$ROTATE")
    timeout -k 5 40 "$A" rmw --device "$CU" --pattern contiguous --op fetch_add,cas --contention 8,64,512 \
      --padding 2,16 --placements 8 $extra $GRID_TIMING --quiet -o "$OUT/procs-$v-$i.json" >>"$L" 2>&1 ||
      echo "process $i $v: exit $?" | tee -a "$L"
  done
done
python3 - "$OUT" <<'PY' | tee "$OUT/procs.txt"
import glob, json, statistics, sys
out = sys.argv[1]
print("cell: Gop/s of each process, and (max - min) / median over the processes; 'rot' (--placements 8 --rotate) "
      "against 'plain' (--placements 8)")
got = {}
for v in ("rot", "plain"):
    for f in sorted(glob.glob(f"{out}/procs-{v}-*.json")):
        for r in json.load(open(f))["rows"]:
            c = r["config"]
            m = {x["name"]: x["value"] for x in r["metrics"]}
            ok = r["status"] == "ok" and r["verified"]
            got.setdefault((c["op"], c["contention"], c["padding"]), {}).setdefault(v, []).append(
                (m.get("gops", float("nan")) if ok else float("nan"), m.get("placement_spread")))
worst = {"rot": 0, "plain": 0}
within = {"rot": 0, "plain": 0}
for k in sorted(got):
    for v in ("rot", "plain"):
        g = [x for x, _ in got[k].get(v, [])]
        if not g:
            continue
        med = statistics.median(g)
        spread = (max(g) - min(g)) / med if med > 0 else float("nan")
        worst[v] = max(worst[v], spread)
        within[v] += all(abs(x - med) <= 0.05 * med for x in g)
        ps = [s for _, s in got[k][v] if s is not None]
        print(f"{k[0]:<10}c{k[1]:<4} p{k[2]:<3} {v:<5}: spread {100 * spread:5.1f}%  " + " ".join(f"{x:.3g}" for x in g)
              + (f"   (placement spread in each: {' '.join(f'{100 * s:.0f}%' for s in ps)})" if ps else ""))
for v in ("rot", "plain"):
    print(f"{v}: largest spread between processes {100 * worst[v]:.1f}%; cells with every process within 5% of "
          f"their median: {within[v]} of {len(got)}")
PY
fi

if step_on crosscheck; then
echo "== $(since) s: cross-check, 8 placements $ROTATE on both sides" | tee -a "$L"
CROSSCHECK_PLACEMENTS=8 CROSSCHECK_ROTATE=$ROTATE CROSSCHECK_OUT=$OUT/crosscheck.txt timeout -k 10 170 \
  bash tests/cli/gpu_crosscheck.sh "$A" build/standalone_rmw >>"$L" 2>&1
echo "cross-check exit $? after $(since) s" | tee -a "$L"
cat "$OUT/crosscheck.txt" 2>/dev/null
fi

if step_on grid; then
LEFT=$((LIMIT_S - $(since) - 25)) # 25 s: the grid's stop after its current row, the summary
GRID="--device $CU --pattern all --op fetch_add,cas --contention 1:1024 --padding 1:1024 --repeat 3 --quiet"
echo "== $(since) s: grid, --repeat 3 --rounds $ROUNDS --placements 8 $ROTATE, at most $LEFT s (SIGINT then: the rows so far)" |
  tee -a "$L"
timeout -s INT -k 15 "$LEFT" "$A" rmw $GRID --rounds "$ROUNDS" --placements 8 $ROTATE $GRID_TIMING \
  -o "$OUT/grid.json" >>"$L" 2>&1
echo "grid exit $? after $(since) s" | tee -a "$L"
python3 scripts/truth_repeatability.py "$OUT/grid.json" "grid, --rounds $ROUNDS --placements 8 $ROTATE" |
  tee "$OUT/summary.txt"
fi
echo "== done after $(since) s" | tee -a "$L"
