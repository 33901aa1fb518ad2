#!/usr/bin/env bash
# app scatter-reduce on an OpenCL device (PoCL in CI): max and min of f32 (integer atomics on the bit pattern, values
# of both signs), u32 and i32, uniform, hot and zipf keys, several columns, both kernels; every output element
# checked bit for bit against the host's (max and min are exact in any order), so a wrong order of signed and
# unsigned bits or a wrong aggregation of equal keys fails.
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
# Equal keys aggregated in a work-group (the group variant, the default and the library's kernel) against one atomic
# per element: a hot key, zipf keys (a head and a long tail), many work-groups (2048 rows each at D = 1), D = 8
# (f32 columns 2 and 3: a min and a max that the sign of a zero decides, -0.0 below +0.0; column 5: NaNs of both
# signs, ordered by their bits), a D that a work-group's size does not divide. Every output bit for bit against
# the host's max / min over the same order: a wrong aggregation, a lost key or a zero's sign fails.
for case in "f32 max hot 8 group 256" "f32 min hot 8 group 96" "f32 max zipf 8 group 256" "f32 min zipf 8 atomic 256" \
  "f32 max zipf 1 group 64" "f32 min hot 1 group 256" "i32 max zipf 3 group 100" "u32 min zipf 5 group 256" \
  "i32 min hot 3 atomic 256" "f32 max uniform 8 group 256"; do
  set -- $case
  "$ATOMLAB" app scatter-reduce --backend opencl --samples 1 --rows 20000 --targets 3000 --dim $4 --type $1 \
    --reduce $2 --dist $3 --variant $5 --wg-size $6 -o "$WORK/r.json" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ $rc -eq 0 ] && python3 - "$WORK/r.json" "$1/$3/$2/$5" <<'PY' && pass || fail "scatter-reduce $case (exit $rc): $(cat "$WORK/err" "$WORK/out")"
import atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
assert [r["variant"] for r in rows] == [sys.argv[2]], rows
assert all(r["status"] == "ok" and r["verified"] for r in rows), rows
PY
done
# auto (the default) picks as the library does, from a sample of the keys: group where they repeat, else atomic
# (uniform keys into 65536 targets: none recurs within a work-group's rows)
for case in "hot 8 group 3000" "zipf 1 group 3000" "uniform 8 atomic 65536" "uniform 1 atomic 65536"; do
  set -- $case
  "$ATOMLAB" app scatter-reduce --backend opencl --samples 1 --rows 20000 --targets $4 --dim $2 --dist $1 \
    -o "$WORK/r.json" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ $rc -eq 0 ] && python3 - "$WORK/r.json" "f32/$1/max/$3" <<'PY' && pass || fail "scatter-reduce auto $case (exit $rc): $(cat "$WORK/err" "$WORK/out")"
import atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
assert [r["variant"] for r in rows] == [sys.argv[2]] and rows[0]["verified"], rows
PY
done
expect_refused "--variant" app scatter-reduce --backend opencl --variant block
expect_refused "--reduce" app scatter-reduce --backend opencl --reduce sum
expect_refused "--type" app scatter-reduce --backend opencl --type bf16
finish
