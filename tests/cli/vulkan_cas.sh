#!/usr/bin/env bash
# The CAS loop on lavapipe: every pattern of fetch_add and cas at contention 1 and 4, padding 1 and 2, all 32
# rows verified (exit 0), run twice (the lost updates reported on this grid came and went between runs).
. "$(dirname "$0")/lib.sh"
need_vulkan
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
