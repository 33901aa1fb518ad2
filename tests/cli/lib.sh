# Shared helpers of the CLI tests: sourced with the atomlab binary as $1.
set -u
ATOMLAB=${1:?usage: $0 path/to/atomlab}
# scripts/atl_json.py: result rows as the tests' (and scripts') Python reads them
# PoCL's kernel cache stays where it is when a test moves XDG_CACHE_HOME (atomlab's own cache): a cold PoCL cache
# compiles every kernel again, slowly, and LLVM's allocations then read as leaks under LeakSanitizer.
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pocl}
export PYTHONPATH="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../scripts" && pwd)${PYTHONPATH:+:$PYTHONPATH}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FAILS=0
PASSES=0

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { PASSES=$((PASSES + 1)); }

# start ARGS...: atomlab ARGS in the background (stdout $WORK/table, stderr $WORK/err); PID its pid. Under `set -m`,
# as from a terminal: a script's plain '&' would start it with SIGINT ignored. The table is emptied here, not by the
# child's redirection, so that an earlier run's rows never count as this one's.
start() {
  : >"$WORK/table"
  set -m
  "$ATOMLAB" "$@" >"$WORK/table" 2>"$WORK/err" &
  PID=$!
  set +m
}

# stop_after_rows N ARGS...: runs atomlab ARGS in the background (start), sends SIGTERM once N verified rows are in
# the live table (a minute at most), and sets STOPPED_RC to its exit status (143 where it stopped as it should).
stop_after_rows() {
  local rows=$1
  shift
  start "$@"
  for _ in $(seq 1 600); do
    [ "$(grep -c ' yes ' "$WORK/table")" -ge "$rows" ] && break
    sleep 0.1
  done
  kill -TERM $PID
  wait $PID
  STOPPED_RC=$?
}

# wait_catching PID SIGNAL SECONDS: until PID runs atomlab with a handler for SIGNAL (or SECONDS pass), so a
# signal sent next is the command's to handle, not a kill before its handlers are set.
wait_catching() {
  local bit=$((1 << ($(kill -l "$2") - 1))) i caught
  for i in $(seq 1 $(($3 * 10))); do
    caught=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
    [ -n "$caught" ] && [ "$(readlink "/proc/$1/exe")" = "$(readlink -f "$ATOMLAB")" ] &&
      [ $((0x$caught & bit)) -ne 0 ] && return 0
    sleep 0.1
  done
  return 1
}

# wait_exit PID SECONDS: waits for PID at most SECONDS; RC is its exit status, or "hung" (then it is killed).
wait_exit() {
  local pid=$1 i
  for i in $(seq 1 $(($2 * 10))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    RC=hung
  else
    wait "$pid"
    RC=$?
  fi
}

# wait_rows FILE N SECONDS: until the live table in FILE shows N verified rows (or SECONDS pass).
wait_rows() {
  local i
  for i in $(seq 1 $(($3 * 10))); do
    [ "$(grep -c ' yes ' "$1" 2>/dev/null)" -ge "$2" ] && return 0
    sleep 0.1
  done
  return 1
}

# Exits 77 (skipped) when no OpenCL device is present.
need_opencl() {
  if ! "$ATOMLAB" devices >/dev/null 2>&1; then
    echo "no OpenCL device: skipped"
    exit 77
  fi
}

# fake_ncu FILE: a stand-in ncu at FILE (the profile tests') that lists the metrics in $FAKE_NCU_METRICS (and, with
# FAKE_NCU_MORE set, the optional elapsed cycles and shared-atomic wavefronts), records its arguments in
# $FAKE_NCU_ARGS, runs the program and, where it succeeds, leaves $FAKE_NCU_CSV as its report.
fake_ncu() {
  cat >"$1" <<'SH'
#!/usr/bin/env bash
case "$1" in
  --query-metrics)
    printf '%s\n' $FAKE_NCU_METRICS
    [ -n "${FAKE_NCU_MORE:-}" ] && printf 'sm__cycles_elapsed\nl1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom\n'
    exit 0 ;;
  --import) cat "$2"; exit 0 ;;
esac
echo "$@" >"$FAKE_NCU_ARGS"
out=
while [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift 2 ;; --) shift; break ;; *) shift ;; esac; done
echo "==PROF== profiling" >&2
"$@"
rc=$?
[ $rc -eq 0 ] && cp "$FAKE_NCU_CSV" "$out.ncu-rep"
exit $rc
SH
  chmod +x "$1"
}

# scatter_det_grids LABEL LIMIT "GRID"... -- ARGS...: `atomlab ARGS --variants det GRID` on every grid (each within
# LIMIT seconds), every row ok and verified; passes where all of them hash their output alike (bit-identical).
scatter_det_grids() {
  local label=$1 limit=$2 grids=()
  shift 2
  while [ "$1" != "--" ]; do grids+=("$1"); shift; done
  shift
  : >"$WORK/hashes"
  for g in "${grids[@]}"; do
    timeout "$limit" "$ATOMLAB" "$@" --variants det $g -o "$WORK/det.json" --quiet 2>"$WORK/err" &&
      python3 - "$WORK/det.json" >>"$WORK/hashes" <<'PY' || fail "$label $g: $(tail -3 "$WORK/err")"
import atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"][2:]  # after the two yardsticks
assert len(rows) == 5 and all(r["status"] == "ok" and r["verified"] for r in rows), rows
print(" ".join(f"{r['variant']}={int(r['out_hash53'])}" for r in rows))
PY
  done
  [ "$(sort -u "$WORK/hashes" | wc -l)" -eq 1 ] && [ "$(wc -l <"$WORK/hashes")" -eq ${#grids[@]} ] && pass ||
    fail "$label output differs between grids: $(cat "$WORK/hashes")"
}

# need_cuda: the GPU tests' prelude, skipped (77) where atomlab lists no CUDA device.
need_cuda() {
  if ! "$ATOMLAB" devices --format json 2>/dev/null | python3 -c '
import json, atl_json, sys
sys.exit(0 if any(d["backend"] == "cuda" for d in atl_json.load(sys.stdin)["devices"]) else 1)'; then
    echo "no CUDA device: skipped"
    exit 77
  fi
}

# Exits 77 (skipped) when no Vulkan device is present (lavapipe in CI: mesa-vulkan-drivers).
need_vulkan() {
  if ! "$ATOMLAB" devices 2>/dev/null | grep -q '^[0-9]* *vulkan:'; then
    echo "no Vulkan device: skipped"
    exit 77
  fi
}

# expect_refused NEEDLE ARGS...: within $REFUSE_WITHIN seconds (60 unless the
# test sets it; a hang is a failure, not a hung test) exit code 2, exactly one stderr line "error: ..." containing NEEDLE
# (the parameter's name), and no file $WORK/out* left behind.
expect_refused() {
  local needle=$1
  shift
  rm -rf "$WORK"/out*
  timeout "${REFUSE_WITHIN:-60}" "$ATOMLAB" "$@" >"$WORK/stdout" 2>"$WORK/stderr" </dev/null
  local rc=$?
  if [ "$rc" -eq 124 ]; then
    fail "'$*' hung (killed after ${REFUSE_WITHIN:-60} s)"
  elif [ "$rc" -ne 2 ]; then
    fail "'$*' exited $rc, expected 2 (stderr: $(head -c 300 "$WORK/stderr"))"
  elif [ "$(wc -l <"$WORK/stderr")" -ne 1 ] || ! grep -q '^error: ' "$WORK/stderr"; then
    fail "'$*' did not print one 'error:' line: $(head -c 600 "$WORK/stderr")"
  elif ! grep -q -- "$needle" "$WORK/stderr"; then
    fail "'$*' error does not name '$needle': $(cat "$WORK/stderr")"
  elif ls "$WORK" | grep -q '^out'; then
    fail "'$*' left an output file behind"
  else
    pass
  fi
}

# expect_usage_error NEEDLE ARGS...: expect_refused with -o $WORK/out.json
# added, so a command that measured anyway would leave that file behind.
expect_usage_error() {
  local needle=$1
  shift
  expect_refused "$needle" "$@" -o "$WORK/out.json"
}

finish() {
  echo "$PASSES passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
}

# without_given "BASE" "SPEC": the words of BASE less each "--NAME VALUE" pair whose --NAME SPEC gives (a
# command refuses an option given twice, so a spec's value replaces the base's). BASE's options take values.
without_given() {
  local a out=() i=0
  read -r -a a <<<"$1"
  while [ $i -lt ${#a[@]} ]; do
    if [[ ${a[$i]} == --* && " $2 " == *" ${a[$i]} "* ]]; then
      i=$((i + 2))
      continue
    fi
    out+=("${a[$i]}")
    i=$((i + 1))
  done
  echo "${out[*]}"
}

# scatter_specs TIMEOUT CHECK LABEL SPEC...: `atomlab $S SPEC -o $WORK/s.json` for each SPEC (S: the app's shared
# arguments), each within TIMEOUT seconds, then `python3 CHECK $WORK/s.json SPEC` must accept the rows.
scatter_specs() {
  local limit=$1 check=$2 label=$3 spec
  shift 3
  for spec in "$@"; do
    # shellcheck disable=SC2086
    timeout "$limit" "$ATOMLAB" $(without_given "$S" "$spec") $spec -o "$WORK/s.json" --quiet 2>"$WORK/err" &&
      python3 "$check" "$WORK/s.json" "$spec" && pass || fail "$label $spec: $(tail -3 "$WORK/err")"
  done
}

# `cmake --install` of the build folder $1 into $WORK/prefix (PREFIX), its log in $WORK/install.log; SAN: the
# sanitizer flags a program linked against that tree needs (a sanitizer build installs instrumented libraries).
install_build() {
  PREFIX="$WORK/prefix"
  SAN=""
  grep -q '^ATL_SANITIZE:BOOL=ON' "$1/CMakeCache.txt" && SAN="-fsanitize=address,undefined"
  cmake --install "$1" --prefix "$PREFIX" >"$WORK/install.log" 2>&1
}
