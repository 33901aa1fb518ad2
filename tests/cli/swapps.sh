#!/usr/bin/env bash
# Seed 000's applications on PoCL (`atomlab app swapps`): the scalar product
# and MapReduce (matrix multiplication and KMeans, two-pass and single-pass
# at thread and wavefront granularity) verified with system, warp and
# software atomics; bad input is a one-line usage error naming the
# parameter; a wrong host reference is caught (exit 1). String match has its
# own test (swapps_strmatch.sh: it needs dict-gcide). ATL_SW_ASSUME_CORESIDENT=2
# as in swatomic.sh: PoCL's discovery may find 1 work-group on 2 busy cores.
. "$(dirname "$0")/lib.sh"
need_opencl
export ATL_SW_ASSUME_CORESIDENT=2
B="app swapps --backend opencl --samples 1 --wg-size 64 --quiet"
check() { # FILE VARIANTS...: every row ok and verified, each variant present
  python3 - "$@" <<'PY' || return 1
import json, atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
seen = {(r["app"], r["variant"]) for r in rows}
for want in sys.argv[2:]:
    app, variant = want.split(":")
    assert (app, variant) in seen, ("missing", want, sorted(seen))
for r in rows:
    assert r["status"] == "ok" and r["verified"], (r["app"], r["variant"], r["status"], r.get("reason"))
PY
}
run() { # NAME CHECK-ARGS -- ATOMLAB-ARGS...
  local name=$1 want=()
  shift
  while [ "$1" != "--" ]; do want+=("$1"); shift; done
  shift
  if timeout 240 "$ATOMLAB" $B "$@" -o "$WORK/$name.json" >"$WORK/$name.out" 2>&1 &&
    check "$WORK/$name.json" "${want[@]}" >"$WORK/$name.chk" 2>&1; then
    pass
  else
    fail "swapps $name $*: $(tail -3 "$WORK/$name.out") $(tail -2 "$WORK/$name.chk" 2>/dev/null)"
  fi
}
run dot dot:system dot:warp dot:software -- --apps dot --elements 70001
M="matmul kmeans"
want=()
for w in $M; do for v in twopass thread-system thread-warp thread-software wave-system wave-software; do
  want+=("mapreduce:$w/$v"); done; done
run mapreduce "${want[@]}" -- --apps mapreduce --matmul 8,20 --kmeans 700

# a wrong host reference must be caught: every row ok but not verified, exit 1
ATL_SWAPPS_SKEW_REFERENCE=1 "$ATOMLAB" $B --apps dot,mapreduce --elements 4096 --matmul 8 --kmeans 512 \
  --variants system,software -o "$WORK/skew.json" >"$WORK/skew.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && python3 - "$WORK/skew.json" <<'PY'; then
import json, atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
assert len(rows) == 2 + 2 * 5, len(rows)  # dot: 2; per workload: twopass and 4
for r in rows:
    assert r["status"] == "ok" and not r["verified"] and "verification failed" in r["reason"], r
PY
  pass
else
  fail "a skewed reference was not caught: exit $rc, $(tail -3 "$WORK/skew.out")"
fi

# bad input: exit 2, one line naming the parameter, no file
expect_usage_error "--apps" app swapps --apps dot,bogus
expect_usage_error "--variants" app swapps --variants fast
expect_usage_error "--workgroups" app swapps --workgroups 1
expect_usage_error "--elements" app swapps --elements 0
expect_usage_error "--matmul" app swapps --matmul 8,0
expect_usage_error "--kmeans" app swapps --kmeans 512,x
expect_usage_error "--keywords" app swapps --keywords the,then
expect_usage_error "--keywords" app swapps --keywords a,b,c,d,e
expect_usage_error "--text-bytes" app swapps --text-bytes 0
expect_usage_error "dict-gcide" app swapps --apps strmatch --text "$WORK/no-such-dictionary.dz"
expect_usage_error "--workgroups 3 is not allowed" app swapps --backend opencl --apps dot --workgroups 3
finish
