#!/usr/bin/env bash
# Where CUDA cannot run, atomlab still starts: `devices` lists the other
# backends with a note, and `--backend cuda` says why CUDA is unavailable
# (exit 1). Checked without a driver, and with the toolkit's stub libcuda
# (every symbol present, cuInit fails). Skipped where a CUDA device exists.
. "$(dirname "$0")/lib.sh"
if "$ATOMLAB" devices --format json 2>/dev/null | grep -q '"backend":[[:space:]]*"cuda"'; then
  echo "a CUDA device is present: skipped"
  exit 77
fi
if "$ATOMLAB" devices 2>"$WORK/err" >/dev/null || [ $? -eq 1 ]; then pass; else fail "devices crashed"; fi
if grep -q "CUDA is unavailable" "$WORK/err" || ! grep -q cuda "$WORK/err"; then pass; else fail "devices note: $(cat "$WORK/err")"; fi
"$ATOMLAB" rmw --backend cuda >/dev/null 2>"$WORK/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "^error: .*cuda" "$WORK/err"; then pass; else fail "--backend cuda: exit $rc: $(cat "$WORK/err")"; fi
stub=""
for d in "${CUDA_HOME:-/usr/local/cuda}/lib64/stubs" /usr/local/cuda/lib64/stubs; do
  [ -e "$d/libcuda.so" ] && stub=$d/libcuda.so && break
done
if [ -n "$stub" ]; then
  mkdir -p "$WORK/stub"
  ln -s "$stub" "$WORK/stub/libcuda.so.1"
  LD_LIBRARY_PATH=$WORK/stub "$ATOMLAB" rmw --backend cuda >/dev/null 2>"$WORK/err"
  rc=$?
  if [ $rc -eq 1 ] && grep -q "CUDA is unavailable: cuInit failed" "$WORK/err"; then pass; else
    fail "stub driver: exit $rc: $(cat "$WORK/err")"; fi
fi
finish
