#!/usr/bin/env bash
# Resource faults (ATL_FAULT, src/core/fault.c): a failing allocation, kernel
# build, read-back, and a device that disappears mid-run each give `error`
# rows with the reason, the sweep goes on, the output file is whole and valid,
# and the exit status is 1. With --workgroups given, occupancy discovery makes
# the first build, two allocs, one write, one launch and two reads.
. "$(dirname "$0")/lib.sh"
need_opencl

R="rmw --workgroups 2 --contention 1,2,4 --padding 1 --iters 5 --min-samples 1 --max-samples 1 --quiet"
check() { # check NAME PLAN EXPECTED_ERROR_ROWS
  local name=$1 plan=$2 errors=$3
  ATL_FAULT=$plan "$ATOMLAB" $R -o "$WORK/$name.json" 2>"$WORK/$name.err"
  local rc=$?
  [ $rc -eq 1 ] && pass || fail "$name: exit $rc, expected 1 ($(tail -2 "$WORK/$name.err"))"
  python3 - "$WORK/$name.json" "$errors" <<'PY' && pass || fail "$name: rows"
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
rows, errors = d["rows"], int(sys.argv[2])
assert d["complete"] is True and len(rows) == 3, len(rows)
bad = [r for r in rows if r["status"] == "error"]
assert len(bad) == errors, [r["status"] for r in rows]
assert all("injected fault" in r["reason"] for r in bad), [r["reason"] for r in bad]
assert all(r["verified"] for r in rows if r["status"] == "ok")
PY
}
check alloc alloc:3 1          # the first row's array
check build build:2 1          # the first row's kernel (cached afterwards)
check read read:3 1            # the first row's read-back for verification
check lost launch:3+ 3         # every launch from the first row's second one on
ls "$WORK" | grep -q '\.tmp\.' && fail "temporary files left behind" || pass
# a plan that is not one is a usage error
ATL_FAULT=frob:1 "$ATOMLAB" $R -o "$WORK/x.json" 2>"$WORK/x.err"
[ $? -eq 2 ] && grep -q "ATL_FAULT" "$WORK/x.err" && [ ! -e "$WORK/x.json" ] && pass || fail "bad ATL_FAULT plan"
finish
