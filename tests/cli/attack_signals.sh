#!/usr/bin/env bash
# Attack class "signals, pipes, children, timeouts" (docs/reliability-signals.md):
# - SIGINT/SIGTERM mid-run: rmw, strategy and apps write every completed row
#   ("complete": false), say so (rmw: how to resume) and exit 128+N;
# - a closed stdout (| head -1) ends only the table: the file is whole, the
#   exit status is not 141 (SIGPIPE);
# - report: SIGINT reaches its running step, no child is left, the staging
#   folder keeps the data and the earlier report stays whole; a new run
#   replaces the folder whole (no stale file survives);
# - children are bounded: a gnuplot or ncu that hangs is stopped by --timeout,
#   a signal to plot or profile stops them too, and profile's temporary folder
#   (in $TMPDIR) is gone on every exit; --save-counters on a folder is a usage
#   error before ncu runs.
# Every wait has a bound, so a broken build fails here instead of hanging.
# Background runs start under `set -m`, as from a terminal: a script's plain
# '&' would start them with SIGINT ignored.
. "$(dirname "$0")/lib.sh"
need_opencl
DATA=$(cd "$(dirname "$0")/../data" && pwd)
ATOMLAB="$(cd "$(dirname "$ATOMLAB")" && pwd)/$(basename "$ATOMLAB")"

# leftovers NAME: pids of live processes whose command line or working folder names NAME (a path under
# $WORK, so nobody else's). Zombies have neither, so they do not count.
leftovers() {
  {
    pgrep -f -- "$1"
    ls -l /proc/[0-9]*/cwd 2>/dev/null | grep -F -- "$1" | sed -n 's|.*/proc/\([0-9]*\)/cwd .*|\1|p'
  } | sort -u
}

# kill_leftovers NAME: after a failure, what a broken build left running is ended (by pid).
kill_leftovers() {
  local p
  for p in $(leftovers "$1"); do kill -KILL "$p" 2>/dev/null; done
}

# expect_timed_out CMD CHILD SLEEPER ARGS...: the command ARGS (atomlab CMD --timeout 1, whose CHILD runs
# SLEEPER, which hangs) exits 1 within 10 s saying "CHILD timed out after 1 s", and leaves no SLEEPER running.
expect_timed_out() {
  local cmd=$1 child=$2 sleeper=$3 start pid took
  shift 3
  start=$(date +%s)
  set -m
  "$@" >/dev/null 2>"$WORK/err" &
  pid=$!
  set +m
  wait_exit $pid 40
  took=$(($(date +%s) - start))
  [ "$RC" = 1 ] && [ $took -le 10 ] && grep -q "^error: $child timed out after 1 s" "$WORK/err" && pass ||
    fail "$cmd --timeout 1: exit $RC after $took s: $(cat "$WORK/err")"
  sleep 0.2
  [ -z "$(leftovers "$sleeper")" ] && pass || fail "$cmd --timeout left $child's child running"
  kill_leftovers "$sleeper"
}

# signal_while_child SIG SLEEPER ARGS...: the command ARGS in the background, sent SIG once its child's
# SLEEPER runs; RC its exit status (wait_exit).
signal_while_child() {
  local sig=$1 sleeper=$2 pid
  shift 2
  set -m
  "$@" >/dev/null 2>"$WORK/err" &
  pid=$!
  set +m
  for _ in $(seq 1 100); do [ -n "$(leftovers "$sleeper")" ] && break; sleep 0.1; done
  kill -"$sig" $pid
  wait_exit $pid 40
  sleep 0.2
}

# json_state FILE: "complete rows planned" of a result file, or "invalid".
json_state() {
  python3 - "$1" <<'PY' 2>/dev/null || echo invalid
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
rows = d["rows"]
assert all(r.get("verified") in (True, 1) for r in rows if r.get("status") == "ok")
print(str(d.get("complete")).lower(), len(rows), d.get("rows_planned", "-"))
PY
}

# 1. SIGTERM and SIGINT mid-run: every completed row written, "complete": false, 128+N.
RMW="rmw --contention 1:64:x2 --padding 1,2,4,8,16,32 --target-ms 40 --min-samples 3 --max-samples 3"
STRAT="strategy --pattern all --op fetch_add --strategy all --workgroups 2 --target-ms 40 --min-samples 3 --max-samples 3"
for sig in TERM INT; do
  want=$((128 + $(kill -l $sig)))
  for cmd in rmw strategy; do
    args=$RMW
    [ $cmd = strategy ] && args=$STRAT
    f="$WORK/$cmd-$sig.json"
    start $args -o "$f"
    wait_rows "$WORK/table" 2 60 || echo "note: $cmd showed no 2 rows in 60 s"
    kill -$sig $PID
    wait_exit $PID 60
    state=$(json_state "$f")
    if [ "$RC" != "$want" ]; then
      fail "$cmd SIG$sig: exit $RC, expected $want ($(tail -2 "$WORK/err"))"
    elif ! echo "$state" | grep -Eq '^false [1-9][0-9]* '; then
      fail "$cmd SIG$sig: '$f' is not a partial result with its completed rows: $state ($(tail -2 "$WORK/err"))"
    elif [ $cmd = rmw ] && ! grep -q -- "--resume $f" "$WORK/err"; then
      fail "rmw SIG$sig: no resume hint: $(cat "$WORK/err")"
    elif [ $cmd = strategy ] && ! grep -q "interrupted (signal $(kill -l $sig)).*written" "$WORK/err"; then
      fail "strategy SIG$sig: stderr does not say what was written: $(cat "$WORK/err")"
    else
      pass
    fi
  done
done

# 2. Apps: SIGINT mid-run writes the completed rows. Apps print their table at the end, so the signal comes
# after a fixed wait; small runs first have PoCL build (and cache) every kernel the interrupted runs may
# reach, so that the wait is spent on rows, and so that in the sanitizer pass (which gets further in the
# same wait) no run compiles a kernel the first pass did not: LLVM's compiler inside an ASan process
# leaves memory that LeakSanitizer reports, and the exit status would be 1, not 130.
"$ATOMLAB" app histogram --input u8 --dist solid --bytes 65536 --samples 1 --quiet -o "$WORK/warm.json" 2>/dev/null
"$ATOMLAB" app access-table --target-ms 1 --samples 1 --quiet -o "$WORK/warm.json" 2>/dev/null
for app in "histogram --input u8 --dist all --bytes 33554432" "access-table --target-ms 80"; do
  f="$WORK/app.json"
  rm -f "$f"
  set -m
  "$ATOMLAB" app $app -o "$f" --quiet >/dev/null 2>"$WORK/err" &
  pid=$!
  set +m
  sleep 5
  kill -INT $pid
  wait_exit $pid 60
  state=$(json_state "$f")
  [ "$RC" = 130 ] && echo "$state" | grep -Eq '^false [1-9][0-9]* ' && grep -q "interrupted (signal 2)" "$WORK/err" &&
    pass || fail "app $app SIGINT: exit $RC, file: $state, stderr: $(cat "$WORK/err")"
done

# 3. A closed stdout ends only the table: the file is whole and the exit status is not 141 (SIGPIPE).
for args in "rmw --contention 1:64:x2 --padding 1,2 --iters 20 --min-samples 3 --max-samples 3" \
  "strategy --pattern all --op fetch_add --strategy all --workgroups 2 --iters 20 --min-samples 3 --max-samples 3"; do
  f="$WORK/pipe.json"
  rm -f "$f"
  "$ATOMLAB" $args -o "$f" 2>"$WORK/err" | head -1 >/dev/null
  rc=${PIPESTATUS[0]}
  state=$(json_state "$f")
  [ "$rc" -ne 141 ] && [ "$rc" -lt 128 ] && echo "$state" | grep -Eq '^true ([0-9]+) \1$' && pass ||
    fail "'${args%% *} ... | head -1': exit $rc, file: $state ($(tail -1 "$WORK/err"))"
done

# 4. report: SIGINT during the sweep. An earlier complete report is in the folder (with a planted file).
REP="$WORK/rep-sig"
"$ATOMLAB" report --quick -o "$REP" >/dev/null 2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "report --quick: $(cat "$WORK/err")"
echo stale >"$REP/data/stale.txt"
cp "$REP/data/rmw.json" "$WORK/rmw-first.json"
: >"$WORK/err" # emptied before the child starts: the progress awaited below must be this run's
set -m
"$ATOMLAB" report -o "$REP" >/dev/null 2>"$WORK/err" &
pid=$!
set +m
for _ in $(seq 1 200); do # the sweep has started (its progress line comes just before)
  grep -q '\[1/[0-9]*\]' "$WORK/err" && break
  sleep 0.1
done
sleep 2 # a few rows of the sweep
kill -INT $pid
wait_exit $pid 60
left=$(leftovers "$REP")
[ "$RC" = 130 ] && pass || fail "report SIGINT: exit $RC, expected 130: $(cat "$WORK/err")"
[ -z "$left" ] && pass || fail "report SIGINT left its children running: $(for p in $left; do tr '\0' ' ' </proc/$p/cmdline; echo; done)"
kill_leftovers "$REP"
staging=$(ls -d "$REP".staging-* 2>/dev/null | head -1)
if [ -n "$staging" ] && [ "$(json_state "$staging/data/rmw.json" | cut -d' ' -f1)" = false ] &&
  grep -qF "$staging" "$WORK/err"; then
  pass
else
  fail "report SIGINT: no staging folder with the completed rows named on stderr: $(cat "$WORK/err")"
fi
[ -s "$REP/report.md" ] && [ -e "$REP/data/stale.txt" ] && cmp -s "$REP/data/rmw.json" "$WORK/rmw-first.json" && pass ||
  fail "report SIGINT: the earlier report in '$REP' was changed: $(ls "$REP" "$REP/data")"
# a new run into the folder replaces the earlier report's files (its manifest), not the planted one
"$ATOMLAB" report --quick -o "$REP" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && [ -s "$REP/report.md" ] && ! cmp -s "$REP/data/rmw.json" "$WORK/rmw-first.json" &&
  [ "$(cat "$REP/data/stale.txt")" = stale ] && pass ||
  fail "report into an earlier report: exit $rc, files: $(ls "$REP/data"): $(tail -2 "$WORK/err")"
ls -d "$REP".old-* >/dev/null 2>&1 && fail "the earlier report was left as $(ls -d "$REP".old-*)" || pass
[ "$(ls -d "$REP".staging-* 2>/dev/null | wc -l)" -le 1 ] && pass || fail "a finished run left its staging folder"
# a folder that is not a report is not replaced
mkdir -p "$WORK/notrep" && echo keep >"$WORK/notrep/mine.txt"
"$ATOMLAB" report --quick -o "$WORK/notrep" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 2 ] && [ -e "$WORK/notrep/mine.txt" ] && pass || fail "report into a non-report folder: exit $rc, $(cat "$WORK/err")"

# 5. Children that hang are bounded: gnuplot and ncu stand-ins that sleep 30 s.
mkdir -p "$WORK/slow" "$WORK/tmp"
cp "$(command -v sleep)" "$WORK/slow/gp-sleeper"
cp "$(command -v sleep)" "$WORK/slow/ncu-sleeper"
printf '#!/bin/sh\n"%s" 30\necho woke\n' "$WORK/slow/gp-sleeper" >"$WORK/slow/gnuplot"
printf '#!/bin/sh\n"%s" 30\necho woke\n' "$WORK/slow/ncu-sleeper" >"$WORK/slow/ncu"
chmod +x "$WORK/slow/gnuplot" "$WORK/slow/ncu"

expect_timed_out plot gnuplot "$WORK/slow/gp-sleeper" \
  env ATL_GNUPLOT="$WORK/slow/gnuplot" "$ATOMLAB" plot "$DATA/plot-small.json" -o "$WORK/figs" --timeout 1
expect_usage_error "--timeout" plot "$DATA/plot-small.json" --timeout -1
expect_usage_error "--timeout" plot "$DATA/plot-small.json" --timeout soon
# SIGINT to plot while gnuplot runs: gnuplot is stopped too
signal_while_child INT "$WORK/slow/gp-sleeper" \
  env ATL_GNUPLOT="$WORK/slow/gnuplot" "$ATOMLAB" plot "$DATA/plot-small.json" -o "$WORK/figs"
[ "$RC" = 130 ] && [ -z "$(leftovers "$WORK/slow/gp-sleeper")" ] && pass ||
  fail "plot SIGINT: exit $RC, gnuplot's child left: $(leftovers "$WORK/slow/gp-sleeper"), $(cat "$WORK/err")"
kill_leftovers "$WORK/slow/gp-sleeper"

TABLE=$DATA/smem-table-synthetic.csv
expect_timed_out profile ncu "$WORK/slow/ncu-sleeper" \
  env -u NCU PATH="$WORK/slow:$PATH" TMPDIR="$WORK/tmp" "$ATOMLAB" profile --table "$TABLE" --timeout 1 -- true
[ -z "$(ls -A "$WORK/tmp")" ] && pass || fail "profile --timeout left its temporary folder: $(ls -A "$WORK/tmp")"
# SIGTERM while ncu runs: 143, ncu and its child gone, the temporary folder gone
signal_while_child TERM "$WORK/slow/ncu-sleeper" \
  env -u NCU PATH="$WORK/slow:$PATH" TMPDIR="$WORK/tmp" "$ATOMLAB" profile --table "$TABLE" -- true
[ "$RC" = 143 ] && pass || fail "profile SIGTERM: exit $RC, expected 143: $(cat "$WORK/err")"
[ -z "$(leftovers "$WORK/slow/ncu-sleeper")" ] && pass ||
  fail "profile SIGTERM left ncu running: pids $(leftovers "$WORK/slow/ncu-sleeper" | tr '\n' ' ')"
kill_leftovers "$WORK/slow/ncu-sleeper"
[ -z "$(ls -A "$WORK/tmp")" ] && pass || fail "profile SIGTERM left its temporary folder: $(ls -A "$WORK/tmp")"

# --save-counters: a folder is a usage error before ncu runs; a good run writes it and leaves no temporary folder.
cat >"$WORK/ncu" <<'SH'
#!/usr/bin/env bash
case "$1" in
  --query-metrics) printf 'smsp__inst_executed_op_shared_atom\nsm__cycles_active\nsm__warps_active\n'; exit 0 ;;
  --import) cat "$2"; exit 0 ;;
esac
out=
while [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift 2 ;; --) shift; break ;; *) shift ;; esac; done
"$@" && cp "$FAKE_NCU_CSV" "$out.ncu-rep"
SH
chmod +x "$WORK/ncu"
mkdir -p "$WORK/counters-dir" "$WORK/tmp2"
P="profile --table $TABLE --ncu $WORK/ncu --sms 4 --warps-per-sm 8"
FAKE_NCU_CSV=$DATA/ncu-synthetic-raw.csv TMPDIR="$WORK/tmp2" "$ATOMLAB" $P --save-counters "$WORK/counters-dir" -- true \
  >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "^error: --save-counters" "$WORK/err" && pass ||
  fail "profile --save-counters on a folder: exit $rc, $(cat "$WORK/err")"
FAKE_NCU_CSV=$DATA/ncu-synthetic-raw.csv TMPDIR="$WORK/tmp2" "$ATOMLAB" $P --save-counters "$WORK/saved.csv" -- true \
  >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$WORK/saved.csv" "$DATA/ncu-synthetic-raw.csv" && [ -z "$(ls -A "$WORK/tmp2")" ] && pass ||
  fail "profile --save-counters: exit $rc, temporary: $(ls -A "$WORK/tmp2"), $(cat "$WORK/err")"
finish
