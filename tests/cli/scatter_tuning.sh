#!/usr/bin/env bash
# The scatter app's tuning as data (data/tuning/scatter.json, src/tuning/scatter_tuning.c) on PoCL: a row matched on
# the device's backend changes auto's pick (sorted keys into 500 targets recur within a block: the derived rule's head
# share of 0.05 picks block; a row's head share of 2 never sees a head, and their runs pick run), the row's name on
# the auto row; a malformed file and a row out of range fall back
# to the derived rule with a note naming the file and the field, and the run still verifies; the row's bucket_span.
. "$(dirname "$0")/lib.sh"
need_opencl
export XDG_CACHE_HOME="$WORK/cache" # no user tuning: the file under ATL_DATA_DIR is the first one found
mkdir -p "$WORK/data/tuning"
T="$WORK/data/tuning/scatter.json"
# auto_row WANT_PICK WANT_TEXT: auto's row on sorted keys ran WANT_PICK and its reason holds WANT_TEXT
auto_row() {
  ATL_DATA_DIR="$WORK/data" "$ATOMLAB" app scatter --backend opencl --rows 3000 --targets 500 --samples 2 --dim 4 \
    --dist sorted --variants auto -o "$WORK/r.json" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  [ $rc -eq 0 ] && python3 - "$WORK/r.json" "$1" "$2" <<'PY' && pass || fail "tuning (exit $rc): $(cat "$WORK/err")"
import atl_json, sys
r = atl_json.load(sys.argv[1])["rows"][2]
assert r["status"] == "ok" and r["verified"], r
assert r["reason"].split()[2] == sys.argv[2] and sys.argv[3] in r["reason"], r["reason"]
PY
}
echo '{"format_version": 1, "rows": []}' >"$T"
auto_row block "tuning derived: no row for this device"
echo '{"format_version": 1, "rows": [{"name": "test-opencl", "backend": "opencl", "source": "a test",
  "auto_head_share": 2}]}' >"$T"
auto_row run "tuning test-opencl)"
echo '{"format_version": 1, "rows": [' >"$T"
auto_row block "tuning derived: $T: not JSON"
echo '{"format_version": 1, "rows": [{"name": "bad", "source": "a test", "part_l2_share": 0}]}' >"$T"
auto_row block "rows[0].part_l2_share: the value is not allowed: a share of the L2 above 0, at most 1"
# A checkout moved or copied with its build (a GPU machine's copy): the binary finds data/tuning beside its build
# folder when the configured source path is gone (ATL_TEST_MOVED_CHECKOUT stands for that), with no ATL_DATA_DIR.
mkdir -p "$WORK/moved/build" "$WORK/moved/data/tuning"
cp "$ATOMLAB" "$WORK/moved/build/atomlab"
echo '{"format_version": 1, "rows": [{"name": "moved-opencl", "backend": "opencl", "source": "a test",
  "auto_head_share": 2}]}' >"$WORK/moved/data/tuning/scatter.json"
(cd "$WORK" && ATL_TEST_MOVED_CHECKOUT=1 "$WORK/moved/build/atomlab" app scatter --backend opencl --rows 3000 \
  --targets 500 --samples 2 --dim 4 --dist sorted --variants auto -o "$WORK/m.json" >/dev/null 2>"$WORK/err") &&
  python3 -c 'import atl_json, sys; r = atl_json.load(sys.argv[1])["rows"][2]; assert "tuning moved-opencl)" in r["reason"], r["reason"]' \
    "$WORK/m.json" && pass || fail "a moved checkout's tuning: $(cat "$WORK/err")"
# bucket_span from the row: 4096 targets a bucket over 1.1M rows put a row's pair past 4 bytes (rows x span > 2^32),
# so bucket takes its 8-byte pairs; the run names the span and verifies
echo '{"format_version": 1, "rows": [{"name": "wide-opencl", "backend": "opencl", "source": "a test",
  "bucket_span": 4096}]}' >"$T"
ATL_DATA_DIR="$WORK/data" "$ATOMLAB" app scatter --backend opencl --rows 1100000 --targets 300000 --samples 1 --dim 2 \
  --dist uniform,zipf --variants bucket -o "$WORK/w.json" >/dev/null 2>"$WORK/err" &&
  python3 - "$WORK/w.json" <<'PY' && pass || fail "bucket's 8-byte pairs: $(cat "$WORK/err")"
import atl_json, sys
rows = [r for r in atl_json.load(sys.argv[1])["rows"] if r["variant"].endswith("/bucket")]
assert len(rows) == 2, rows
for r in rows:
    m = r["metrics"]
    assert r["status"] == "ok" and r["verified"] and m["bucket_span"] == 4096 and m["buckets"] == 74, (r, m)
PY
finish
