#!/usr/bin/env bash
# Hang safety: a forced deadlock on PoCL. With --stuck-lock every lock starts
# held by a thread that never runs, so the lock strategies can only spin. The
# bounded spin and the abort flag must turn each into a `deadlock` row within
# 5 seconds, and the run must go on to measure the next configuration.
. "$(dirname "$0")/lib.sh"
need_opencl
start=$(date +%s.%N)
timeout 120 "$ATOMLAB" strategy --backend opencl --pattern same-address,same-line --stuck-lock \
  --strategy spin_lock,native,lock_thread --wg-size 64 --workgroups 2 --iters 2 --min-samples 1 --max-samples 1 \
  -o "$WORK/d.json" >"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
end=$(date +%s.%N)
[ $rc -eq 0 ] && pass || fail "a run with deadlock rows exited $rc (deadlocks are findings): $(tail -3 "$WORK/stderr")"
python3 - "$WORK/d.json" "$start" "$end" <<'PY' && pass || fail "deadlock rows reported in time, the run continued"
import json, atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
assert [r["strategy"] for r in rows] == ["spin_lock"] * 2 + ["native"] * 2 + ["lock_thread"] * 2, \
    [r["strategy"] for r in rows]
for r in rows:
    if r["strategy"] == "native":
        assert r["status"] == "ok" and r["verified"], r  # the next configuration ran normally
    else:
        assert r["status"] == "deadlock", (r["strategy"], r["status"], r["reason"])
        assert "gave up" in r["reason"] and r["stuck_lock"], r["reason"]
        assert r["row_seconds"] < 5.0, ("deadlock row took", r["row_seconds"])
        print(r["pattern"], r["strategy"], "deadlock after %.2f s" % r["row_seconds"])
print("whole run %.2f s" % (float(sys.argv[3]) - float(sys.argv[2])))
PY
grep -q 'deadlock' "$WORK/stdout" && pass || fail "the table does not show the deadlock"
finish
