#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: atomlab strategy on CUDA verifies every
# strategy on every pattern (full and divergent warps; results used), names
# the instructions behind each row, and a stuck lock becomes `deadlock`
# rather than a hang. Skipped (77) where CUDA is unavailable.
. "$(dirname "$0")/lib.sh"
need_cuda
Q="--target-ms 1 --min-samples 2 --max-samples 2 --budget 0.2 --workgroups 16"
for div in "" --divergent; do
  "$ATOMLAB" strategy --backend cuda --pattern all --op fetch_add,fetch_min,xor $div $Q \
    -o "$WORK/s$div.json" 2>"$WORK/err"
  [ $? -eq 0 ] && pass || fail "CUDA strategy run $div failed: $(tail -3 "$WORK/err")"
  python3 - "$WORK/s$div.json" <<'PY' && pass || fail "CUDA strategy rows verified $div"
import json, atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
bad = [r for r in rows if not ((r["status"] == "ok" and r["verified"]) or
                               (r["status"] == "unsupported" and r["strategy"] == "privatized" and r["pattern"] == "scattered"))]
for r in bad[:10]:
    print("bad row:", r["pattern"], r["op"], r["strategy"], r["status"], r["reason"])
assert not bad
assert all(r["instructions"] for r in rows if r["status"] == "ok")
print(len(rows), "rows")
PY
done
timeout 120 "$ATOMLAB" strategy --backend cuda --pattern same-line --strategy spin_lock,native --stuck-lock \
  --spin-bound 65536 $Q -o "$WORK/d.json" 2>"$WORK/err"
python3 - "$WORK/d.json" <<'PY' && pass || fail "CUDA stuck lock reported as deadlock"
import json, atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
assert rows[0]["status"] == "deadlock" and rows[1]["status"] == "ok" and rows[1]["verified"], rows
PY
finish
