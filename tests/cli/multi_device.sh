#!/usr/bin/env bash
# --device all and lists: every device measured at once (one thread each),
# one file whose rows name their device, each verified; bad lists refused
# before measuring; a SIGTERM keeps every completed row of every device and
# --resume finishes the rest. PoCL lists two devices with
# POCL_DEVICES="basic pthread" (two "pthread" entries give one).
. "$(dirname "$0")/lib.sh"
export POCL_DEVICES="basic pthread"
ndev=$(ATL_BACKENDS=opencl "$ATOMLAB" devices 2>/dev/null | grep -c "^[0-9]")
if [ "${ndev:-0}" -lt 2 ]; then
  echo "fewer than two OpenCL devices with POCL_DEVICES='$POCL_DEVICES': skipped"
  exit 77
fi

# Bad lists: one error line naming --device, exit 2, nothing written.
expect_usage_error "--device" rmw --device 7,0
expect_usage_error "--device" rmw --device 0,0
expect_usage_error "--device" rmw --device opencl:0.0,0
expect_usage_error "--device" rmw --device x,1
expect_usage_error "--device" rmw --device 0,
expect_usage_error "--device" rmw --device ,
expect_usage_error "--device" rmw --device all --backend cuda
expect_usage_error "--device" rmw --device 9

QUICK="--target-ms 2 --min-samples 3 --max-samples 3 --budget 0.2"
"$ATOMLAB" rmw --device all --op fetch_add,cas --result used --contention 1,32 --padding 1 $QUICK \
  -o "$WORK/all.json" -o "$WORK/all.csv" >"$WORK/table" 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && pass || fail "rmw --device all exited $rc: $(cat "$WORK/err")"
python3 - "$WORK/all.json" "$WORK/all.csv" <<'PY' && pass || fail "rows of both devices, verified, each naming its device"
import csv, sys, atl_json
d = atl_json.load(sys.argv[1])
rows = d["rows"]
assert d["complete"] is True and len(rows) == 8, (d["complete"], len(rows))
devs = sorted({r["device"] for r in rows})
assert devs == ["opencl:0.0", "opencl:0.1"], devs
for dev in devs:
    mine = [(r["op"], r["contention"]) for r in rows if r["device"] == dev]
    assert sorted(mine) == sorted([(o, c) for o in ("fetch_add", "cas") for c in (1, 32)]), (dev, mine)
assert all(r["status"] == "ok" and r["verified"] and r["wrong"] == 0 for r in rows)
# the old values were checked: result used
assert all(r["result"] == "used" for r in rows)
c = list(csv.DictReader(open(sys.argv[2])))
assert sorted({r["device"] for r in c}) == devs and len(c) == 8
PY
# the table: a device column, one line per row
[ "$(grep -c '^opencl:0\.[01] ' "$WORK/table")" -eq 8 ] && head -1 "$WORK/table" | grep -q '^device ' && pass ||
  fail "table lacks the device column: $(head -3 "$WORK/table")"

# A list picks those devices, in its order; compare pairs rows by device too.
"$ATOMLAB" rmw --device opencl:0.1,0 --contention 1 --padding 1 $QUICK -o "$WORK/list.json" --quiet 2>"$WORK/err"
python3 - "$WORK/list.json" <<'PY' && pass || fail "a comma list: $(cat "$WORK/err")"
import sys, atl_json
rows = atl_json.load(sys.argv[1])["rows"]
assert [r["device"] for r in rows] == ["opencl:0.1", "opencl:0.0"], [r["device"] for r in rows]
PY
"$ATOMLAB" compare "$WORK/list.json" "$WORK/list.json" --format json >"$WORK/cmp" 2>&1 &&
  [ "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["rows"]) if isinstance(d, dict) and "rows" in d else len(d))' "$WORK/cmp")" -eq 2 ] &&
  pass || fail "compare of a two-device file: $(head -c 400 "$WORK/cmp")"

# "all" of one device (PoCL's default): its rows still name the device.
env -u POCL_DEVICES "$ATOMLAB" rmw --device all --contention 1 --padding 1 $QUICK -o "$WORK/one.json" --quiet 2>"$WORK/err"
python3 - "$WORK/one.json" <<'PY' && pass || fail "--device all of one device: $(cat "$WORK/err")"
import sys, atl_json
rows = atl_json.load(sys.argv[1])["rows"]
assert len(rows) == 1 and rows[0]["device"] == "opencl:0.0" and rows[0]["verified"], rows
PY

# strategy --device all: rows of both devices, each device's winner ranked among its own rows.
"$ATOMLAB" strategy --device all --pattern same-address --strategy native,cas $QUICK -o "$WORK/s.json" \
  >"$WORK/s.out" 2>"$WORK/err"
rc=$?
python3 - "$WORK/s.json" <<'PY' && [ $rc -eq 0 ] && pass || fail "strategy --device all exited $rc: $(cat "$WORK/err")"
import sys, atl_json
rows = atl_json.load(sys.argv[1])["rows"]
assert sorted(r["device"] for r in rows) == ["opencl:0.0"] * 2 + ["opencl:0.1"] * 2, [r["device"] for r in rows]
assert all(r["status"] == "ok" and r["verified"] for r in rows)
for dev in ("opencl:0.0", "opencl:0.1"):
    assert sum(r["winner"] for r in rows if r["device"] == dev) == 1, dev
PY
grep -q "^  opencl:0.1 " "$WORK/s.out" && pass || fail "strategy winners do not name the device: $(tail -4 "$WORK/s.out")"

# app --device all: each device runs the app at once; rows name their device. crossgpu spreads itself: refused.
"$ATOMLAB" app double-add --device all --threads 256 --samples 3 -o "$WORK/app.json" >"$WORK/app.out" 2>"$WORK/err"
rc=$?
python3 - "$WORK/app.json" <<'PY' && [ $rc -eq 0 ] && pass || fail "app --device all exited $rc: $(cat "$WORK/err")"
import sys, atl_json
rows = atl_json.load(sys.argv[1])["rows"]
for dev in ("opencl:0.0", "opencl:0.1"):
    mine = [r for r in rows if r["device"] == dev]
    assert sorted(r["variant"] for r in mine) == ["cas-loop", "lock", "lock-naive", "native"], (dev, mine)
    assert all(r["verified"] for r in mine if r["status"] == "ok") and sum(r["status"] == "ok" for r in mine) == 3
PY
expect_usage_error "--device" app crossgpu --device all

# SIGTERM mid-run: every completed row of both devices written; --resume measures only the rest.
SWEEP="rmw --device all --contention 1:64:x2 --padding 1,2,4 --target-ms 20 --min-samples 3 --max-samples 3"
stop_after_rows 4 $SWEEP -o "$WORK/r.json"
rc=$STOPPED_RC
[ $rc -eq 143 ] && pass || fail "SIGTERM: exit $rc, expected 143: $(cat "$WORK/err")"
table_rows=$(grep -c ' yes ' "$WORK/table")
python3 - "$WORK/r.json" "$table_rows" <<'PY' && pass || fail "interrupted two-device file keeps every row the table showed"
import sys, atl_json
d = atl_json.load(sys.argv[1])
rows = d["rows"]
assert d["complete"] is False and d["rows_planned"] == 42, (d["complete"], d["rows_planned"])
assert len(rows) == int(sys.argv[2]) and 0 < len(rows) < 42, (len(rows), sys.argv[2])
assert all(r["status"] == "ok" and r["verified"] for r in rows)
PY
done_rows=$(python3 -c 'import sys, atl_json; print(len(atl_json.load(sys.argv[1])["rows"]))' "$WORK/r.json")
"$ATOMLAB" $SWEEP --resume "$WORK/r.json" -o "$WORK/r2.json" --quiet 2>"$WORK/err2"
rc=$?
[ $rc -eq 0 ] && grep -q "reused $done_rows rows" "$WORK/err2" && pass ||
  fail "resume exited $rc, did not reuse $done_rows rows: $(cat "$WORK/err2")"
python3 - "$WORK/r2.json" <<'PY' && pass || fail "resumed two-device file is complete"
import sys, atl_json
rows = atl_json.load(sys.argv[1])["rows"]
assert len(rows) == 42 and all(r["status"] == "ok" and r["verified"] for r in rows), len(rows)
for dev in ("opencl:0.0", "opencl:0.1"):
    assert len({(r["contention"], r["padding"]) for r in rows if r["device"] == dev}) == 21, dev
PY
# report --device all: one report per device in DIR/<id>, then DIR/side-by-side.md of them
"$ATOMLAB" report --device all --backend opencl --quick -o "$WORK/rep" >"$WORK/rep.out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ -s "$WORK/rep/opencl-0.0/report.md" ] && [ -s "$WORK/rep/opencl-0.1/report.html" ] &&
  grep -q '^| .*opencl-0.1 | pthread' "$WORK/rep/side-by-side.md" && pass ||
  fail "report --device all: exit $rc, $(ls -R "$WORK/rep" 2>&1 | head -20) $(tail -5 "$WORK/rep.out")"
expect_refused "--device" report --device 0,0 --quick -o "$WORK/out-rep"
finish
