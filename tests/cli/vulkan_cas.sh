#!/usr/bin/env bash
# The CAS loop on lavapipe: every pattern of fetch_add and cas at contention 1 and 4, padding 1 and 2, all 32
# rows verified (exit 0), run twice (the lost updates reported on this grid came where calibration passed
# llvmpipe's loop limit, below).
. "$(dirname "$0")/lib.sh"
need_vulkan
# llvmpipe ends an invocation's loops after 65535 passes, silently (tests/vulkan/repro_loop_limit.c): one small
# work-group calibrates its iterations up to the cap, where the old code lost updates in both rows (the launch
# stopped growing, calibration went on to 2^24 iterations). The rows stay within the limit and verify; fixed
# iterations past it are unsupported, with the reason (exit 0).
"$ATOMLAB" rmw --backend vulkan --op fetch_add,cas --contention 1,4 --padding 1 --target-ms 100 --wg-size 8 \
  --workgroups 1 --min-samples 1 --max-samples 1 -o "$WORK/small.json" >"$WORK/table" 2>"$WORK/err"
rc=$?
python3 - "$WORK/small.json" <<'PY' >"$WORK/check" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
limit = d["device"]["limits"].get("max_loop_passes", 0)
for r in d["rows"]:
    iters = next(m["value"] for m in r["metrics"] if m["name"] == "iters")
    assert r["status"] == "ok" and r["verified"], r.get("reason")
    assert not limit or iters <= limit, (r["config"], iters, limit)
PY
check=$?
[ $rc -eq 0 ] && [ $check -eq 0 ] && pass || fail "small grid: exit $rc, $(cat "$WORK/check") $(tail -3 "$WORK/table")"
"$ATOMLAB" rmw --backend vulkan --op cas --contention 1 --padding 1 --iters 40000 --wg-size 8 --workgroups 1 \
  --min-samples 1 --max-samples 1 >"$WORK/table" 2>"$WORK/err"
rc=$?
if grep -q "llvmpipe" "$WORK/table"; then
  [ $rc -eq 0 ] && grep -q "unsupported (.* ends a kernel's loops after 65535 passes, silently: at most 32767" \
    "$WORK/table" && pass || fail "cas --iters 40000 on llvmpipe: exit $rc, $(tail -2 "$WORK/table") $(cat "$WORK/err")"
fi
for run in 1 2; do
  "$ATOMLAB" rmw --backend vulkan --pattern all --op fetch_add,cas --contention 1,4 --padding 1,2 \
    -o "$WORK/cas.json" >"$WORK/table" 2>"$WORK/err"
  rc=$?
  python3 - "$WORK/cas.json" <<'PY' >"$WORK/check" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
bad = [r for r in rows if r.get("status") != "ok" or not r.get("verified")]
assert len(rows) == 32 and d.get("complete") is True, (len(rows), d.get("complete"))
assert not bad, [(r.get("spec", r.get("config")), r.get("reason")) for r in bad]
PY
  check=$?
  [ $rc -eq 0 ] && [ $check -eq 0 ] && pass ||
    fail "run $run: exit $rc, $(cat "$WORK/check") $(grep -v ' yes ' "$WORK/table" | head -5) $(tail -2 "$WORK/err")"
done
finish
