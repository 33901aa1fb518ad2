#!/usr/bin/env bash
# Crash-safe results: SIGTERM stops a sweep after the current row, leaves a
# valid file with every completed row and says how to resume; --resume
# finishes it without measuring those rows again; bad resume files are
# usage errors.
. "$(dirname "$0")/lib.sh"
need_opencl

SWEEP="rmw --contention 1:64:x2 --padding 1,2,4,8,16,32 --target-ms 40 --min-samples 3 --max-samples 3"
# stop it once three rows are done (the live table shows them), well before the end
stop_after_rows 3 $SWEEP -o "$WORK/r.json"
rc=$STOPPED_RC
[ $rc -eq 143 ] && pass || fail "SIGTERM: exit $rc, expected 143"
grep -q -- "--resume $WORK/r.json" "$WORK/err" && pass || fail "no resume hint: $(cat "$WORK/err")"
python3 - "$WORK/r.json" <<'PY' && pass || fail "interrupted file is valid and partial"
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
assert d["complete"] is False and d["rows_planned"] == 42, (d["complete"], d["rows_planned"])
assert 0 < len(d["rows"]) < 42, len(d["rows"])
assert all(r["status"] == "ok" and r["verified"] for r in d["rows"])
PY
done_rows=$(python3 -c 'import json, atl_json,sys; print(len(atl_json.load(sys.argv[1])["rows"]))' "$WORK/r.json")

"$ATOMLAB" $SWEEP --resume "$WORK/r.json" -o "$WORK/r2.json" --quiet 2>"$WORK/err2"
[ $? -eq 0 ] && pass || fail "resume failed: $(cat "$WORK/err2")"
grep -q "reused $done_rows rows" "$WORK/err2" && pass || fail "resume did not reuse the $done_rows rows: $(cat "$WORK/err2")"
python3 - "$WORK/r.json" "$WORK/r2.json" <<'PY' && pass || fail "resumed file is complete and keeps the earlier rows"
import json, atl_json, sys
a, b = (atl_json.load(p) for p in sys.argv[1:])
assert b["complete"] is True and len(b["rows"]) == 42
key = lambda r: (r["contention"], r["padding"])
old = {key(r): r for r in a["rows"]}
for r in b["rows"]:
    if key(r) in old:
        assert r["samples_ms"] == old[key(r)]["samples_ms"], "a reused row was measured again"
assert all(r["status"] == "ok" and r["verified"] for r in b["rows"])
PY

# resume files that do not fit: another device, garbage, a missing file
python3 - "$WORK/r.json" "$WORK/other.json" <<'PY'
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
d["device"]["name"] = "Some Other GPU"
atl_json.dump(d, open(sys.argv[2], "w"))
PY
expect_usage_error "--resume" $SWEEP --resume "$WORK/other.json"
echo '{"format_version": 1, "rows": [' >"$WORK/garbage.json"
expect_usage_error "--resume" $SWEEP --resume "$WORK/garbage.json"
expect_usage_error "--resume" $SWEEP --resume "$WORK/missing.json"
finish
