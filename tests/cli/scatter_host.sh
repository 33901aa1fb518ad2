#!/usr/bin/env bash
# app scatter's host work over threads (src/apps/scatter_host.c): with ATL_HOST_THREADS=1 and 4 the source rows
# and keys (--dump) are byte-identical, and so are every row's verification, count of wrong elements and, for
# the rows whose output does not depend on the device's order (det, integer weights), the output's hash; a
# hot key's columns cut among threads, odd dims, f32, bf16 and u32. The check still fails at 4 threads: a
# skewed reference and a skewed det order are caught, with the same count and first element as at 1 thread. A
# thread count out of range (0, 257, a word) is refused with one error line, exit 2.
. "$(dirname "$0")/lib.sh"
need_opencl
S=(app scatter --backend opencl --rows 6000 --targets 300 --samples 1 --quiet)
cat >"$WORK/rows.py" <<'PY'
import atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"][2:]  # after the two yardsticks
exact = sys.argv[2] == "exact"
for r in rows:
    fixed = r["variant"].endswith("/det") or r["variant"].startswith("u32")
    h = int(r["out_hash53"]) if fixed and "out_hash53" in r else "-"
    print(r["variant"], r["status"], r["verified"], r["wrong"], h, r["reason"] if not exact else "")
PY
# run LABEL THREADS ARGS...: the rows' verdicts into $WORK/LABEL-THREADS.txt, the arrays into $WORK/LABEL-THREADS/
run() {
  local label=$1 threads=$2 want=$3
  shift 3
  ATL_HOST_THREADS=$threads timeout 300 "$ATOMLAB" "${S[@]}" "$@" --dump "$WORK/$label-$threads" \
    -o "$WORK/$label-$threads.json" 2>"$WORK/err"
  local rc=$?
  [ "$rc" -eq "$want" ] || { fail "$label at $threads threads: exit $rc, not $want: $(tail -3 "$WORK/err")"; return; }
  python3 "$WORK/rows.py" "$WORK/$label-$threads.json" exact >"$WORK/$label-$threads.txt" || fail "$label rows"
}
same() {
  local label=$1
  cmp -s "$WORK/$label-1.txt" "$WORK/$label-4.txt" && pass ||
    fail "$label: rows differ between 1 and 4 threads: $(diff "$WORK/$label-1.txt" "$WORK/$label-4.txt" | head -6)"
  for f in "$WORK/$label-1"/*.bin; do
    case "$f" in */out-*) continue ;; esac # the atomic variant's float output depends on the device's order
    cmp -s "$f" "$WORK/$label-4/$(basename "$f")" && pass || fail "$label: $(basename "$f") differs between 1 and 4 threads"
  done
}
for spec in "f32 33 atomic,det,run" "bf16 17 det,atomic" "u32 5 atomic,block,det"; do
  set -- $spec
  run "$1" 1 0 --type "$1" --dim "$2" --variants "$3" && run "$1" 4 0 --type "$1" --dim "$2" --variants "$3" && same "$1"
  grep -q " ok True 0 " "$WORK/$1-4.txt" && ! grep -vq " ok True 0 " "$WORK/$1-4.txt" && pass ||
    fail "$1 at 4 threads: rows not all verified: $(cat "$WORK/$1-4.txt")"
done
# The check can fail at 4 threads as at 1: the same elements caught, the same first one named.
for hook in ATL_SCATTER_SKEW_REFERENCE ATL_SCATTER_SKEW_DET_ORDER; do
  export "$hook=1"
  for t in 1 4; do
    ATL_HOST_THREADS=$t timeout 300 "$ATOMLAB" "${S[@]}" --type f32 --dim 33 --variants det --dist zipf,hot \
      -o "$WORK/$hook-$t.json" 2>"$WORK/err"
    [ $? -eq 1 ] && python3 "$WORK/rows.py" "$WORK/$hook-$t.json" reasons >"$WORK/$hook-$t.txt" && pass ||
      fail "$hook at $t threads: not caught (exit 1 asked): $(tail -3 "$WORK/err")"
  done
  unset "$hook"
  grep -q " ok False " "$WORK/$hook-4.txt" && cmp -s "$WORK/$hook-1.txt" "$WORK/$hook-4.txt" && pass ||
    fail "$hook: the verdicts differ or pass: $(cat "$WORK/$hook-1.txt" "$WORK/$hook-4.txt")"
done
# A thread count out of range is refused before anything runs.
for bad in 0 257 four; do
  ATL_HOST_THREADS=$bad expect_refused "ATL_HOST_THREADS" "${S[@]}" -o "$WORK/out.json"
done
finish
