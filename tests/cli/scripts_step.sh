#!/usr/bin/env bash
# The GPU scripts' one step helper (scripts/lib.sh), on the CPU: where a step's output and status go, a
# failing, a timed-out and a skipped step, the run's deadline; every script parses, and the GPU scripts that run
# steps get the helper from lib.sh instead of defining their own. The reference runner (scripts/gpu/reference.sh)
# on the CPU with a small plan: one summary line per entry (ok, failed, timeout), a run.json each, bad names refused.
. "$(dirname "$0")/lib.sh"
SCRIPTS=$(cd "$(dirname "$0")/../../scripts" && pwd)

for f in "$SCRIPTS"/*.sh "$SCRIPTS"/gpu/*.sh; do
  bash -n "$f" && pass || fail "$(basename "$f") does not parse"
done
f=$SCRIPTS/gpu/diagnose.sh
grep -qE '^\. scripts/lib\.sh' "$f" && pass || fail "$(basename "$f") does not source lib.sh"
! grep -qE '^[[:space:]]*(step|timed|log)\(\)' "$f" && pass || fail "$(basename "$f") defines its own helper"

(
  . "$SCRIPTS/lib.sh"
  cd "$WORK"
  # output: both streams to STEP_LOG after a header; the status line to stdout and STEP_STATUS
  STEP_LOG=log STEP_STATUS=status step both 10 sh -c 'echo to-out; echo to-err >&2' >stdout
  [ $? -eq 0 ] && [ "$(head -1 log)" = "== both: sh -c echo to-out; echo to-err >&2" ] && grep -qx to-out log &&
    grep -qx to-err log && grep -qE '^both: exit 0 in [0-9]+\.[0-9] s$' status && cmp -s status stdout &&
    [ -z "${STEP_FAILED:-}" ] && echo ok1
  # -o: stdout to its file (appended), stderr to STEP_LOG
  echo first >o.txt
  STEP_LOG=log2 step -o o.txt split 10 sh -c 'echo to-out; echo to-err >&2' >/dev/null
  [ "$(cat o.txt)" = "$(printf 'first\nto-out')" ] && grep -qx to-err log2 && ! grep -qx to-out log2 && echo ok2
  # nothing set: inherited
  [ "$(step plain 10 echo hello 2>&1 | head -1)" = hello ] && echo ok3
  # a failing step: its status, and the script's
  step bad 10 false >status3
  rc=$?
  [ $rc -eq 1 ] && grep -q '^bad: exit 1 in' status3 && [ "$STEP_FAILED" = 1 ] && echo ok4
  # a step past its limit is stopped: 124, said so
  start=$(date +%s)
  step slow 1 sleep 30 >status4
  rc=$?
  [ $rc -eq 124 ] && [ $(($(date +%s) - start)) -lt 10 ] && grep -q '^slow: exit 124 in .* (timed out after 1 s)$' status4 &&
    echo ok5
  # the run's deadline: a long limit is cut to what is left; with 3 s or less left nothing starts
  step_deadline 5
  start=$(date +%s)
  step cut 60 sleep 30 >/dev/null
  rc=$?
  [ $rc -eq 124 ] && [ $(($(date +%s) - start)) -lt 10 ] && echo ok6
  STEP_STATUS=status5 step late 60 touch started >/dev/null
  rc=$?
  [ $rc -eq 124 ] && [ ! -e started ] && grep -q "^late: skipped, the run's deadline is reached$" status5 && echo ok7
) >"$WORK/results" 2>"$WORK/err"
for i in 1 2 3 4 5 6 7; do
  grep -qx "ok$i" "$WORK/results" && pass || fail "case $i of the step helper (stderr: $(head -c 300 "$WORK/err"))"
done
# the reference runner in a repository of its own: a stand-in atomlab, a plan of three entries
R=$WORK/repo
mkdir -p "$R/scripts/gpu" "$R/build" "$R/experiments"
cp "$SCRIPTS/gpu/reference.sh" "$R/scripts/gpu/"
cat >"$R/build/atomlab" <<'SH'
#!/bin/sh
case $1 in
version) echo "atomlab 0.1.0 (commit 0123456789ab)" ;;
devices) echo '{"devices": [{"type": "cpu", "backend": "opencl", "slug": "cpu"}, {"type": "gpu", "backend": "cuda", "slug": "fake-gpu"}]}' ;;
*) echo "$@" >"$D/args.txt" ;;
esac
SH
chmod +x "$R/build/atomlab"
cat >"$R/experiments/reference.json" <<'JSON'
{"entries": [{"name": "quick", "feeds": "t", "budget_s": 20, "command": "$A rmw -o $D/r.json"},
             {"name": "slow", "feeds": "t", "budget_s": 1, "command": "sleep 20"},
             {"name": "bad", "feeds": "t", "budget_s": 20, "command": "exit 3"},
             {"name": "later", "feeds": "t", "budget_s": 20, "alone": true, "command": "touch $D/ran"}]}
JSON
(cd "$R" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm plan) || fail "git init"
(cd "$R" && OUT=$WORK/o bash scripts/gpu/reference.sh >"$WORK/ref.txt" 2>&1)
rc=$?
D=$R/results/reference/fake-gpu
[ $rc -eq 1 ] && grep -qE '^quick: ok in [0-9.]+ s$' "$WORK/ref.txt" && grep -qE '^slow: timeout \(budget 1 s\) in ' "$WORK/ref.txt" &&
  grep -qE '^bad: failed \(exit 3\) in ' "$WORK/ref.txt" && pass || fail "reference.sh: rc $rc, $(cat "$WORK/ref.txt")"
[ ! -e "$D/later" ] && ! grep -q '^later' "$WORK/ref.txt" && pass || fail "an entry marked alone ran under all"
[ "$(cat "$D/quick/args.txt" 2>/dev/null)" = "rmw -o $D/quick/r.json" ] || [ "$(cat "$D/quick/args.txt" 2>/dev/null)" = "rmw -o results/reference/fake-gpu/quick/r.json" ] &&
  pass || fail "the entry's command: $(cat "$D/quick/args.txt")"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["status"] == "timeout" and d["commit"] == sys.argv[2] and d["slug"] == "fake-gpu", d' \
  "$D/slow/run.json" "$(cd "$R" && git rev-parse --short=12 HEAD)" && pass || fail "run.json: $(cat "$D/slow/run.json")"
tar -tzf "$WORK/o/reference-fake-gpu.tar.gz" | grep -qx 'results/reference/fake-gpu/quick/run.json' && [ -s "$WORK/o/summary.txt" ] &&
  pass || fail "the tar in OUT: $(ls "$WORK/o")"
(cd "$R" && bash scripts/gpu/reference.sh nope >/dev/null 2>"$WORK/err")
[ $? -eq 2 ] && grep -q '^error: NAME: one of quick,slow,bad,later, or all$' "$WORK/err" && pass || fail "a bad name: $(cat "$WORK/err")"
(cd "$R" && bash scripts/gpu/reference.sh later >/dev/null 2>&1)
[ -e "$D/later/ran" ] && pass || fail "an entry marked alone did not run when named"
sed -i 's/"budget_s": 20, "command": "\$A rmw/"budget_s": 21, "command": "$A rmw/' "$R/experiments/reference.json"
(cd "$R" && bash scripts/gpu/reference.sh quick >/dev/null 2>"$WORK/err")
[ $? -eq 2 ] && grep -q '^error: tree: uncommitted changes' "$WORK/err" && pass || fail "a dirty tree ran: $(cat "$WORK/err")"
finish
