#!/usr/bin/env bash
# Issue [truth], round 6 (one call, at most 150 s of wall time; LIMIT_S): a contended contiguous cell (one hot line
# per work-group, e.g. fetch_add c64 p2 on 1024 x 264) runs at a level that moves between processes at every
# placement of its array (round 5: 31 or 36 Gop/s). Its time is its slowest work-group's, and a work-group's rate
# depends on where its line is served (the L2 slice and partition its physical address hashes to) relative to the
# SM that issues to it (which SM the hardware put the work-group on). Placements move the lines; --rotate
# (docs/method.md, "Rotation") also moves the work over the work-groups, so each placement pairs the lines with
# other SMs. Only what decides the targets, each step under its own limit and the whole under LIMIT_S:
#   1. blocks.txt: `placement blocks` (tests/crosscheck/placement.cu, no atomlab code) in BLOCK_PROCS fresh
#      processes (add at c64 p2; cas in the first two): every block's SM, start and cycles at 4 offsets 4 MiB
#      apart x 8 rotations x 3 fills (cudaMemset as atomlab; each line zeroed from the SM that will update it;
#      none) x 2 rounds; scripts/truth_blocks.py says whether a block's cycles follow its SM, its line or the
#      pair, whether the fill (which SM last wrote a line) sets the level, and whether the block -> SM map
#      changes between launches and processes (the physics the method rests on);
#   2. procs.txt: the twelve drift/ cells in PROCS fresh processes each with --placements 8 --rotate and with
#      --placements 8 (alternating; the same samples otherwise): how far apart processes land, with and without;
#   3. crosscheck.txt: tests/cli/gpu_crosscheck.sh with --rotate on both sides (target: every point within 5%);
#   4. sub-rot.json, sub-plain.json, summary.txt: the grid's contended contiguous part (contention 2:1024 x padding
#      1:64 and 1024, the 550 MB cells among them as the traffic between visits; 160 rows) with --repeat 3
#      --placements 8, with --rotate and then without (scripts/truth_repeatability.py): most of the full grid's
#      misses are here (round 5: 64 of 88), so this decides whether rotation moves the repeatability target.
# Run 2 (RUN=2): rotation moves on every pair of turns (docs/method.md, "Rotation"), so 32 samples a row pair the
# lines with SMs 16 ways: the procs step and the sub-grid with --rotate at 32 samples (procs: against plain at 16),
# no blocks step; the cross-check last, with 2 processes of each program, only if 50 s are left.
# Everything under OUT (default out/gpu-truth-round6); run.log has the commands' output; JSON gzipped at the end.
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-truth-round6
gpu_deadline 140 # the whole script's limit
PROCS=${PROCS:-3}
BLOCK_PROCS=${BLOCK_PROCS:-3}
ROTATE=${ROTATE:---rotate}
RUN=${RUN:-1}
if [ "$RUN" = 2 ]; then
  STEPS=" ${STEPS:-procs grid crosscheck-last} "
  ROT_SAMPLES=${ROT_SAMPLES:-32} SUB_VARIANTS=${SUB_VARIANTS:-rot} SUB_CAP=${SUB_CAP:-90}
else
  STEPS=" ${STEPS:-blocks procs crosscheck grid} "
  ROT_SAMPLES=${ROT_SAMPLES:-16} SUB_VARIANTS=${SUB_VARIANTS:-rot plain} SUB_CAP=${SUB_CAP:-38}
fi
TIMING="--target-ms 1.5 --min-samples 16 --max-samples 16 --budget 0.03"
ROT_TIMING="--target-ms 1.5 --min-samples $ROT_SAMPLES --max-samples $ROT_SAMPLES --budget 0.03"
L=$OUT/run.log
: >"$L"
CU=${DEVICE:-$(gpu_device_id cuda gpu)}
PROBE=build/placement
{
  date -u +%FT%TZ
  $SMI
  $A version
  echo "run $RUN; steps:$STEPS; --placements 8 $ROTATE; timing: $TIMING (with --rotate: $ROT_TIMING); limit $LIMIT_S s"
} >"$OUT/info.txt" 2>&1
cat "$OUT/info.txt"
step_on() { [[ "$STEPS" == *" $1 "* ]]; }
# cap S: S seconds, or what is left of LIMIT_S (less 5 s for the summaries), whichever is less; at least 1
cap() {
  local left=$((LIMIT_S - $(since) - 5))
  [ "$left" -lt "$1" ] && echo $((left > 1 ? left : 1)) || echo "$1"
}

if step_on blocks; then
  echo "== $(since) s: blocks: $BLOCK_PROCS processes of placement blocks (add, and cas in two; c64 p2, 1024 x 264)" |
    tee -a "$L"
  if [ -x "$PROBE" ]; then
    for i in $(seq "$BLOCK_PROCS"); do
      # iterations for about 1.5 ms a launch (round 5's rows: add c64 p2 160-215, cas c64 p2 4-9)
      timeout -k 2 "$(cap 8)" "$PROBE" blocks add 64 2 1024 264 180 4 4 8 2 >"$OUT/blocks-add-$i.txt" 2>>"$L" ||
        echo "blocks add process $i: exit $?" | tee -a "$L"
      [ "$i" -le 2 ] && { timeout -k 2 "$(cap 8)" "$PROBE" blocks cas 64 2 1024 264 6 4 4 8 2 >"$OUT/blocks-cas-$i.txt" \
        2>>"$L" || echo "blocks cas process $i: exit $?" | tee -a "$L"; }
    done
    { python3 scripts/truth_blocks.py "$OUT"/blocks-add-*.txt; python3 scripts/truth_blocks.py "$OUT"/blocks-cas-*.txt; } \
      2>&1 | tee "$OUT/blocks.txt"
  else
    echo "no $PROBE (built where nvcc is): no blocks step" | tee -a "$L"
  fi
fi

if step_on procs; then
  echo "== $(since) s: $PROCS processes each of the drift cells with --placements 8 $ROTATE and without" | tee -a "$L"
  for i in $(seq "$PROCS"); do
    for v in rot plain; do
      extra=$([ "$v" = rot ] && echo "$ROTATE $ROT_TIMING" || echo "$TIMING")
      timeout -k 2 "$(cap 12)" "$A" rmw --device "$CU" --pattern contiguous --op fetch_add,cas --contention 8,64,512 \
        --padding 2,16 --placements 8 $extra --quiet -o "$OUT/procs-$v-$i.json" >>"$L" 2>&1 ||
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
        try:
            rows = json.load(open(f))["rows"]
        except (ValueError, KeyError):
            print(f"{f}: unreadable (stopped?)")
            continue
        for r in rows:
            c = r["config"]
            m = {x["name"]: x["value"] for x in r["metrics"]}
            ok = r["status"] == "ok" and r["verified"]
            got.setdefault((c["op"], c["contention"], c["padding"]), {}).setdefault(v, []).append(
                (m.get("gops", float("nan")) if ok else float("nan"), m.get("placement_spread")))
worst, within = {"rot": 0, "plain": 0}, {"rot": 0, "plain": 0}
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
  echo "== $(since) s: cross-check, 8 placements $ROTATE on both sides, 1.5 ms launches" | tee -a "$L"
  CROSSCHECK_PLACEMENTS=8 CROSSCHECK_ROTATE=$ROTATE CROSSCHECK_TARGET_MS=1.5 CROSSCHECK_OUT=$OUT/crosscheck.txt \
    timeout -k 5 "$(cap 55)" bash tests/cli/gpu_crosscheck.sh "$A" build/standalone_rmw >>"$L" 2>&1
  echo "cross-check exit $? after $(since) s" | tee -a "$L"
  cat "$OUT/crosscheck.txt" 2>/dev/null
fi

if step_on grid; then
  SUB="--device $CU --pattern contiguous --op fetch_add,cas --contention 2:1024 --padding 1:64,1024 --repeat 3 --quiet"
  : >"$OUT/summary.txt"
  for v in $SUB_VARIANTS; do
    extra=$([ "$v" = rot ] && echo "$ROTATE $ROT_TIMING" || echo "$TIMING")
    t=$(cap "$SUB_CAP")
    echo "== $(since) s: contiguous sub-grid, --repeat 3 --placements 8 $extra, at most $t s (SIGINT: the rows so far)" |
      tee -a "$L"
    timeout -s INT -k 5 "$t" "$A" rmw $SUB --placements 8 $extra -o "$OUT/sub-$v.json" >>"$L" 2>&1
    echo "sub-grid $v exit $? after $(since) s" | tee -a "$L"
    [ -s "$OUT/sub-$v.json" ] &&
      python3 scripts/truth_repeatability.py "$OUT/sub-$v.json" "contiguous sub-grid, --placements 8 $extra" |
      tee -a "$OUT/summary.txt"
  done
fi
if step_on crosscheck-last; then
  t=$(cap 60)
  if [ "$t" -ge 50 ]; then
    echo "== $(since) s: cross-check, 2 processes each, 8 placements $ROTATE, 1.5 ms launches, at most $t s" | tee -a "$L"
    CROSSCHECK_ROUNDS=2 CROSSCHECK_PLACEMENTS=8 CROSSCHECK_ROTATE=$ROTATE CROSSCHECK_TARGET_MS=1.5 \
      CROSSCHECK_OUT=$OUT/crosscheck.txt timeout -k 5 "$t" bash tests/cli/gpu_crosscheck.sh "$A" build/standalone_rmw >>"$L" 2>&1
    echo "cross-check exit $? after $(since) s" | tee -a "$L"
    cat "$OUT/crosscheck.txt" 2>/dev/null
  else
    echo "== $(since) s: no cross-check ($t s left, 50 needed)" | tee -a "$L"
  fi
fi
gzip -f "$OUT"/*.json "$OUT"/blocks-*-*.txt 2>/dev/null
echo "== done after $(since) s" | tee -a "$L"
