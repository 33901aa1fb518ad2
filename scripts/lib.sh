# Sourced by the GPU scripts (scripts/gpu/diagnose.sh): the one way a step runs. A GPU
# machine returns only what a script wrote before its own time ran out, so every step is bounded, says how
# it ended and how long it took, and a script's run ends by its deadline whatever its steps ask for.
#
#   step [-o FILE] NAME LIMIT COMMAND...
#     runs COMMAND under `timeout LIMIT`, LIMIT cut to what is left before STEP_DEADLINE (epoch seconds,
#     where set); with 3 s or less left the step is skipped (status 124). Output: stdout to FILE (-o,
#     appended) or else STEP_LOG; stderr to STEP_LOG; where neither is set, inherited. STEP_LOG gets a
#     "== NAME: COMMAND" line first. Then "NAME: exit RC in S s" goes to stdout and STEP_STATUS (where
#     set). A step that fails sets STEP_FAILED=1 (a script's exit status: exit ${STEP_FAILED:-0}).
#     Returns COMMAND's exit status.
#   step_note TEXT...   a line to stdout and STEP_STATUS: the script's own notes beside the steps' lines.
#   step_deadline S     sets STEP_DEADLINE to S seconds from now.

step_note() {
  if [ -n "${STEP_STATUS:-}" ]; then
    echo "$*" | tee -a "$STEP_STATUS"
  else
    echo "$*"
  fi
}

step_deadline() {
  STEP_DEADLINE=$(($(date +%s) + $1))
}

step() {
  local out="" name limit left start rc secs
  if [ "$1" = -o ]; then
    out=$2
    shift 2
  fi
  name=$1
  limit=$2
  shift 2
  if [ -n "${STEP_DEADLINE:-}" ]; then
    left=$((STEP_DEADLINE - $(date +%s)))
    [ "$left" -lt "$limit" ] && limit=$left
    if [ "$limit" -le 3 ]; then
      step_note "$name: skipped, the run's deadline is reached"
      STEP_FAILED=1
      return 124
    fi
  fi
  [ -n "${STEP_LOG:-}" ] && echo "== $name: $*" >>"$STEP_LOG"
  start=$(date +%s.%N)
  if [ -n "$out" ] && [ -n "${STEP_LOG:-}" ]; then
    timeout "$limit" "$@" >>"$out" 2>>"$STEP_LOG"
  elif [ -n "$out" ]; then
    timeout "$limit" "$@" >>"$out"
  elif [ -n "${STEP_LOG:-}" ]; then
    timeout "$limit" "$@" >>"$STEP_LOG" 2>&1
  else
    timeout "$limit" "$@"
  fi
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  step_note "$name: exit $rc in $secs s$([ $rc -eq 124 ] && echo " (timed out after $limit s)")"
  [ $rc -ne 0 ] && STEP_FAILED=1
  return $rc
}
