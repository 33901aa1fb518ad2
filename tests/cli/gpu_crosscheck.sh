#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: atomlab's rmw rows against an independent
# program (tests/crosscheck/standalone_rmw.cu: the seed's kernel in the CUDA
# runtime API with its own timing and check) at a few grid points, at the
# grid and iteration counts atomlab chose. Each point must agree within 5%
# (CROSSCHECK_TOLERANCE); the table goes to stdout and, where CROSSCHECK_OUT
# names a file, to that file. Skipped (77) where CUDA or the program is absent.
# $2: the standalone program (default: standalone_rmw beside atomlab).
#
# Why it is built this way (docs/design/method.md, "Rounds"): on an H100 a contended point with few hot cache lines
# runs at levels up to 30% apart, set by where its lines fall among the L2 slices and by a device state that
# other traffic moves; one process, measuring back to back, catches one level (contiguous c32 p1 once differed
# 22% between the two programs, each run in its own processes). So both programs do the same thing: each
# process measures the same cells (the points, and the cells of the same axes around them, 1.1 GB ones
# among them, whose traffic moves the state as a grid's does) in ROUNDS_IN rounds, cell after cell, and
# reports each cell's median round; PROCS processes of each, alternating, and the medians over them compared.
# Both take every round's samples in turn at PLACEMENTS offsets of their array, 2 MiB apart for 8 (other L2
# lines; docs/design/method.md, "Placements"), two samples at each: a round is then the median across placements
# on both sides, not one allocation's draw each.
. "$(dirname "$0")/lib.sh"
STANDALONE=${2:-$(dirname "$ATOMLAB")/standalone_rmw}
need_cuda
if [ ! -x "$STANDALONE" ]; then
  echo "no standalone program ($STANDALONE; built where nvcc is): skipped"
  exit 77
fi
TOL=${CROSSCHECK_TOLERANCE:-0.05}
PROCS=${CROSSCHECK_ROUNDS:-3}       # alternating processes of each program
ROUNDS_IN=${CROSSCHECK_ROUNDS_IN:-3} # rounds within each process (odd: the median round is one round)
TARGET_MS=${CROSSCHECK_TARGET_MS:-4}
PLACEMENTS=${CROSSCHECK_PLACEMENTS:-8}
ROTATE=${CROSSCHECK_ROTATE---rotate} # each placement also rotates the work over the work-groups, on both sides (docs/design/method.md, "Rotation"); CROSSCHECK_ROTATE= turns it off
REPS=$((PLACEMENTS > 1 ? 2 * PLACEMENTS : 5)) # launches a round: two turns over the placements
POINTS="contiguous:1:1 contiguous:32:1 contiguous:1:32 contiguous:1024:1 cross-warp:32:1 cross-warp:8:16"
TABLE=$WORK/table.txt
: >"$WORK/rates"
for proc in $(seq "$PROCS"); do
  timeout 300 "$ATOMLAB" rmw --backend cuda --pattern contiguous,cross-warp --op fetch_add \
    --contention 1,8,32,1024 --padding 1,16,32,1024 --rounds "$ROUNDS_IN" --target-ms "$TARGET_MS" \
    --placements "$PLACEMENTS" $ROTATE --min-samples "$REPS" --max-samples "$REPS" -o "$WORK/rows.json" --quiet 2>"$WORK/err" || {
    fail "atomlab rmw (process $proc): $(tail -2 "$WORK/err")"
    break
  }
  # The cells as the standalone program takes them, at atomlab's iterations; each point's rate to the list.
  read -r wg groups cells < <(python3 -c '
import atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
bad = [r for r in rows if not (r["verified"] and r["status"] == "ok")]
if bad:
    sys.exit("not ok and verified: %s c%s p%s" % (bad[0]["pattern"], bad[0]["contention"], bad[0]["padding"]))
print(rows[0]["wg_size"], rows[0]["workgroups"],
      " ".join("%s:%d:%d:%d" % (r["pattern"], r["contention"], r["padding"], r["iters"]) for r in rows))
for r in rows:
    print("atomlab", r["pattern"], r["contention"], r["padding"], r["ops_per_us"], r["iters"], file=sys.stderr)
' "$WORK/rows.json" 2>>"$WORK/rates") || {
    fail "atomlab rows (process $proc): $(tail -1 "$WORK/rates")"
    break
  }
  timeout 300 "$STANDALONE" --placements "$PLACEMENTS" $ROTATE "$wg" "$groups" "$REPS" "$ROUNDS_IN" $cells >"$WORK/sa.txt" 2>"$WORK/err" || {
    fail "standalone (process $proc): exit $? ($(tail -2 "$WORK/err"))"
    break
  }
  awk '$10 != "verified" || $11 != 1 {exit 1} {print "standalone", $1, $2, $3, $5}' "$WORK/sa.txt" >>"$WORK/rates" ||
    fail "standalone (process $proc): a cell did not verify: $(cat "$WORK/sa.txt")"
done
# The table: each point's median over the processes of each program, and the ratio.
python3 - "$WORK/rates" "$TOL" "$POINTS" "$PROCS" "$ROUNDS_IN" "${wg:-?}" "${groups:-?}" "$PLACEMENTS" "$ROTATE" >"$TABLE" <<'PY'
import statistics, sys
rates, tol, points, procs, rounds, wg, groups, placements, rotate = sys.argv[1:]
got = {}
for line in open(rates):
    f = line.split()
    if len(f) >= 5 and f[0] in ("atomlab", "standalone"):
        got.setdefault((f[0], f[1], int(f[2]), int(f[3])), []).append(float(f[4]))
print(f"# {procs} alternating processes of each program, {rounds} rounds of every cell in each; grid {wg} x {groups};")
print(f"# {placements} placements of the array in every round (two launches at each){' ' + rotate if rotate else ''}")
print("# each value is a process's median round; the medians over processes are compared")
print(f"{'pattern':<11} {'c':>5} {'p':>5} {'atomlab_opus':>12} {'standalone':>12} {'ratio':>7}  atomlab | standalone per process")
for point in points.split():
    pat, c, p = point.split(":")
    a = got.get(("atomlab", pat, int(c), int(p)), [])
    s = got.get(("standalone", pat, int(c), int(p)), [])
    if not a or not s:
        print(f"{pat:<11} {c:>5} {p:>5} {'-':>12} {'-':>12} {'-':>7}  missing")
        continue
    ma, ms = statistics.median(a), statistics.median(s)
    print(f"{pat:<11} {c:>5} {p:>5} {ma:>12.6g} {ms:>12.6g} {ma / ms:>7.4f}  "
          + " ".join(f"{x:.6g}" for x in a) + " | " + " ".join(f"{x:.6g}" for x in s))
PY
while read -r pat c p opus sa ratio rest; do
  case "$pat" in '#'* | pattern) continue ;; esac
  if [ "$ratio" = - ]; then
    fail "$pat c$c p$p: no rates"
  elif python3 -c "import sys; sys.exit(0 if abs($ratio - 1) <= $TOL else 1)"; then
    pass
  else
    fail "$pat c$c p$p: atomlab $opus ops/us against the standalone program's $sa (ratio $ratio, tolerance $TOL)"
  fi
done <"$TABLE"
cat "$TABLE"
[ -n "${CROSSCHECK_OUT:-}" ] && cp "$TABLE" "$CROSSCHECK_OUT"
finish
