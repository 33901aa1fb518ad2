#!/usr/bin/env bash
# app scatter-reduce on an OpenCL device (PoCL in CI): max and min of f32 (integer atomics on the bit pattern, values
# of both signs), u32 and i32, uniform keys and one hot key, several columns; every output element checked bit for
# bit against the host's (max and min are exact in any order), so a wrong order of signed and unsigned bits fails.
. "$(dirname "$0")/lib.sh"
need_opencl
for case in "f32 max uniform" "f32 min hot" "f32 min uniform" "f32 max hot" "u32 max uniform" "u32 min hot" \
  "i32 min uniform" "i32 max hot"; do
  set -- $case
  "$ATOMLAB" app scatter-reduce --backend opencl --samples 2 --rows 5000 --targets 37 --dim 3 --type $1 \
    --reduce $2 --dist $3 -o "$WORK/r.json" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ $rc -eq 0 ] && python3 - "$WORK/r.json" <<'PY' && pass || fail "scatter-reduce $case (exit $rc): $(cat "$WORK/err" "$WORK/out")"
import atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
assert rows and all(r["status"] == "ok" and r["verified"] for r in rows), rows
PY
done
expect_refused "--reduce" app scatter-reduce --backend opencl --reduce sum
expect_refused "--type" app scatter-reduce --backend opencl --type bf16
finish
