#!/usr/bin/env bash
# The GPU scripts' one step helper (scripts/lib.sh), on the CPU: where a step's output and status go, a
# failing, a timed-out and a skipped step, the run's deadline; every script parses, and every GPU script
# gets the helper through gpu-env.sh instead of defining its own.
. "$(dirname "$0")/lib.sh"
SCRIPTS=$(cd "$(dirname "$0")/../../scripts" && pwd)

for f in "$SCRIPTS"/*.sh; do
  bash -n "$f" && pass || fail "$(basename "$f") does not parse"
done
for f in "$SCRIPTS"/gpu-*.sh; do
  case $f in */gpu-env.sh) continue ;; esac
  # (or runs another GPU script with its own settings, as gpu-diagnose-round8b.sh runs round 8's)
  grep -qE '^\. scripts/(gpu-env|lib)\.sh|^ *exec bash "\$\(dirname "\$0"\)/gpu-[a-z0-9-]+\.sh"' "$f" && pass ||
    fail "$(basename "$f") does not source gpu-env.sh or lib.sh"
  ! grep -qE '^[[:space:]]*(step|timed|log)\(\)' "$f" && pass || fail "$(basename "$f") defines its own helper"
done

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
finish
