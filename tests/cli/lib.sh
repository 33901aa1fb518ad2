# Shared helpers of the CLI tests: sourced with the atomlab binary as $1.
set -u
ATOMLAB=${1:?usage: $0 path/to/atomlab}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FAILS=0
PASSES=0

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { PASSES=$((PASSES + 1)); }

# Exits 77 (skipped) when no OpenCL device is present.
need_opencl() {
  if ! "$ATOMLAB" devices >/dev/null 2>&1; then
    echo "no OpenCL device: skipped"
    exit 77
  fi
}

# expect_usage_error NEEDLE ARGS...: exit code 2, exactly one stderr line
# "error: ..." containing NEEDLE (the parameter's name), and no output file.
expect_usage_error() {
  local needle=$1
  shift
  local out="$WORK/out.json"
  rm -f "$out"
  "$ATOMLAB" "$@" -o "$out" >"$WORK/stdout" 2>"$WORK/stderr"
  local rc=$?
  local lines
  lines=$(wc -l <"$WORK/stderr")
  if [ "$rc" -ne 2 ]; then
    fail "'$*' exited $rc, expected 2 (stderr: $(head -c 300 "$WORK/stderr"))"
  elif [ "$lines" -ne 1 ] || ! grep -q '^error: ' "$WORK/stderr"; then
    fail "'$*' did not print one 'error:' line: $(cat "$WORK/stderr")"
  elif ! grep -q -- "$needle" "$WORK/stderr"; then
    fail "'$*' error does not name '$needle': $(cat "$WORK/stderr")"
  elif ls "$WORK" | grep -q '^out.json'; then
    fail "'$*' left an output file behind"
  else
    pass
  fi
}

finish() {
  echo "$PASSES passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
}
