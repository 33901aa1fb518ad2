#!/usr/bin/env bash
# Attack class "signals, pipes, children, timeouts", continued (docs/design/reliability.md):
# - SIGHUP (a closed terminal) stops rmw, strategy and an app as SIGTERM does: every completed row written,
#   "complete": false, exit 129;
# - an app run with -o checkpoints its file while it runs (ATL_CHECKPOINT_S shortens the 30 s), so a
#   SIGKILL keeps what it measured;
# - a second SIGINT stops at once (not after the row in flight), the completed rows written, exit 130;
# - an interrupted strategy prints no winners from part of its rows;
# - apps past the machine's memory are refused up front (exit 2, no file); --dump on a full disk
#   fails (exit 1); an option given twice is refused (exit 2).
# Background runs start under `set -m`, as from a terminal (a script's plain '&' ignores SIGINT).
. "$(dirname "$0")/lib.sh"
need_opencl
ATOMLAB="$(cd "$(dirname "$ATOMLAB")" && pwd)/$(basename "$ATOMLAB")"

# json_state FILE: "complete rows" of a result file, or "invalid".
json_state() {
  python3 - "$1" <<'PY' 2>/dev/null || echo invalid
import json, sys
d = json.load(open(sys.argv[1]))
print(str(d.get("complete")).lower(), len(d["rows"]))
PY
}

RMW="rmw --contention 1:64:x2 --padding 1,2,4 --target-ms 40 --min-samples 3 --max-samples 3"
STRAT="strategy --pattern all --op fetch_add --strategy all --workgroups 2 --target-ms 40 --min-samples 3 --max-samples 3"

# 1. SIGHUP: rmw and strategy after two rows, an app after a fixed wait.
for cmd in rmw strategy; do
  args=$RMW
  [ $cmd = strategy ] && args=$STRAT
  f="$WORK/$cmd-hup.json"
  start $args -o "$f"
  wait_rows "$WORK/table" 2 60 || echo "note: $cmd showed no 2 rows in 60 s"
  kill -HUP $PID
  wait_exit $PID 60
  state=$(json_state "$f")
  [ "$RC" = 129 ] && echo "$state" | grep -Eq '^false [1-9][0-9]*$' && pass ||
    fail "$cmd SIGHUP: exit $RC, file: $state, stderr: $(tail -2 "$WORK/err")"
done
# an interrupted strategy prints no winners from part of its rows
start $STRAT -o "$WORK/strategy-int.json"
wait_rows "$WORK/table" 2 60 || echo "note: strategy showed no 2 rows in 60 s"
kill -INT $PID
wait_exit $PID 60
[ "$RC" = 130 ] && ! grep -q "^winners" "$WORK/table" && grep -q "^no winners: [0-9]* of [0-9]* rows" "$WORK/table" &&
  pass || fail "interrupted strategy: exit $RC, winners from a partial set: $(tail -4 "$WORK/table")"

"$ATOMLAB" app access-table --target-ms 1 --samples 1 --quiet -o "$WORK/warm.json" 2>/dev/null
f="$WORK/app-hup.json"
start app access-table --target-ms 80 -o "$f" --quiet
sleep 5
kill -HUP $PID
wait_exit $PID 60
state=$(json_state "$f")
[ "$RC" = 129 ] && echo "$state" | grep -Eq '^false [1-9][0-9]*$' && pass ||
  fail "app SIGHUP: exit $RC, file: $state, stderr: $(cat "$WORK/err")"

# 2. An app's checkpoint: the file is there while it runs, and survives SIGKILL.
f="$WORK/app-ck.json"
rm -f "$f"
set -m
ATL_CHECKPOINT_S=1 "$ATOMLAB" app access-table --target-ms 80 -o "$f" --quiet >/dev/null 2>"$WORK/err" &
PID=$!
set +m
wait_file_rows() { # FILE SECONDS: until FILE is a partial result with a row (or SECONDS pass)
  local end=$((SECONDS + $2))
  while [ $SECONDS -lt $end ]; do
    json_state "$1" | grep -Eq '^false [1-9]' && return 0
    sleep 0.2
  done
  return 1
}
wait_file_rows "$f" 60
kill -KILL $PID
wait_exit $PID 10
state=$(json_state "$f")
echo "$state" | grep -Eq '^false [1-9][0-9]*$' && pass || fail "app checkpoint after SIGKILL: file: $state"

# 3. A second SIGINT stops at once: rows of 1.5 s, the second signal during the second row.
f="$WORK/rmw-twice.json"
start rmw --contention 1:64:x2 --padding 1 --target-ms 1500 --min-samples 3 --max-samples 3 -o "$f"
wait_rows "$WORK/table" 1 90 || echo "note: rmw showed no row in 90 s"
kill -INT $PID
sleep 0.3
t0=$(date +%s%N)
kill -INT $PID
wait_exit $PID 30
took=$((($(date +%s%N) - t0) / 1000000))
state=$(json_state "$f")
[ "$RC" = 130 ] && [ $took -lt 4000 ] && echo "$state" | grep -Eq '^false [1-9][0-9]*$' &&
  grep -q "stopped at once" "$WORK/err" && pass ||
  fail "rmw second SIGINT: exit $RC after $took ms, file: $state, stderr: $(cat "$WORK/err")"
# an app: a checkpoint shows a row done, then two signals
f="$WORK/app-twice.json"
set -m
ATL_CHECKPOINT_S=1 "$ATOMLAB" app access-table --target-ms 1500 -o "$f" --quiet >/dev/null 2>"$WORK/err" &
PID=$!
set +m
wait_file_rows "$f" 90 || echo "note: the app wrote no row in 90 s"
kill -INT $PID
sleep 0.3
t0=$(date +%s%N)
kill -INT $PID
wait_exit $PID 30
took=$((($(date +%s%N) - t0) / 1000000))
state=$(json_state "$f")
[ "$RC" = 130 ] && [ $took -lt 4000 ] && echo "$state" | grep -Eq '^false [1-9][0-9]*$' && pass ||
  fail "app second SIGINT: exit $RC after $took ms, file: $state, stderr: $(cat "$WORK/err")"

# 4. Apps past the machine's memory: refused before anything is allocated (exit 2 at once, one line naming the
# option, no file). crossgpu's largest run (2^26 threads) and scatter-reduce's (2^28 elements) fit a test machine:
# ATL_ASSUME_HOST_MEMORY stands for a smaller one; swatomic's grid is bounded by the co-resident count, which
# ATL_SW_ASSUME_CORESIDENT raises.
f="$WORK/huge.json"
for args in "scatter --rows 1073741824 --dim 1 --type bf16 --targets 1073741824 --index i64" \
  "access-table --workgroups 16777216 --wg-size 256" \
  "swatomic --workgroups 65535 --wg-size 256 --iters 1024" \
  "crossgpu --workgroups 32768 --wg-size 1024" \
  "scatter-reduce --rows 268435456 --dim 1 --targets 65536"; do
  t0=$(date +%s)
  ATL_SW_ASSUME_CORESIDENT=65535 ATL_ASSUME_HOST_MEMORY=$(case "${args%% *}" in crossgpu | scatter-reduce) echo 1073741824;; esac) \
    timeout -s KILL 20 "$ATOMLAB" app $args -o "$f" >/dev/null 2>"$WORK/err"
  rc=$?
  took=$(($(date +%s) - t0))
  [ $rc -eq 2 ] && [ $took -le 10 ] && [ ! -e "$f" ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] &&
    grep -Eq "^error: --(rows|targets|workgroups): the run needs [0-9.]+ GiB of host memory, this machine has [0-9.]+ GiB available$|max allocation" "$WORK/err" &&
    pass || fail "app $args past the memory: exit $rc after $took s, file: $(ls "$f" 2>&1), $(head -c 300 "$WORK/err")"
  rm -f "$f"
done

# 5. --dump on a full disk (a dump file that is /dev/full) and on a folder that is not one: exit 1.
mkdir -p "$WORK/dump"
ln -s /dev/full "$WORK/dump/src-f32.bin"
for dir in "$WORK/dump" /dev/full; do
  "$ATOMLAB" app scatter --dump "$dir" --samples 1 --dist uniform --variants atomic >/dev/null 2>"$WORK/err"
  rc=$?
  [ $rc -eq 1 ] && grep -q "dump: writing" "$WORK/err" && pass ||
    fail "app scatter --dump $dir: exit $rc, $(cat "$WORK/err")"
done

# 6. An option given twice is refused; a sweep's -o still takes several files.
for args in "app scatter --rows 4 --rows 8" "rmw --contention 1 --contention 2" "strategy --iters 2 --iters 3" \
  "app count --wg-size 64 --wg-size 64" "report -o $WORK/r1 -o $WORK/r2" "plot x --format svg --format png"; do
  "$ATOMLAB" $args >/dev/null 2>"$WORK/err"
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -Eq "^error: -?-[a-z-]+: given twice$" "$WORK/err" && pass ||
    fail "'$args': exit $rc, $(cat "$WORK/err")"
done
"$ATOMLAB" rmw --contention 1 --padding 1 --iters 2 --min-samples 3 --max-samples 3 -o "$WORK/a.json" -o "$WORK/b.csv" \
  >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && [ -s "$WORK/a.json" ] && [ -s "$WORK/b.csv" ] && pass || fail "rmw -o twice: exit $rc, $(cat "$WORK/err")"
finish
