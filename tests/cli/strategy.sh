#!/usr/bin/env bash
# atomlab strategy on the OpenCL device (PoCL in CI): bad input is refused
# with exit 2 and no file; a small run writes valid JSON and CSV with every
# row verified (old values and final memory) and one winner per pattern.
. "$(dirname "$0")/lib.sh"
need_opencl
S="strategy --backend opencl"
expect_usage_error --pattern $S --pattern same-place
expect_usage_error --op $S --op cas
expect_usage_error --op $S --op exchange
expect_usage_error --strategy $S --strategy lockfree
expect_usage_error --result $S --result maybe
expect_usage_error --wg-size $S --wg-size 0
expect_usage_error --spin-bound $S --spin-bound 0
expect_usage_error --format $S --format xml
expect_usage_error --backend strategy --backend metal
expect_usage_error "unknown option" $S --bogus
expect_usage_error --iters $S --iters -3

"$ATOMLAB" strategy --help | grep -q -- '--stuck-lock' && pass || fail "strategy --help does not list its options"
[ "$("$ATOMLAB" strategy --strategy list | wc -l)" -eq 8 ] && pass || fail "--strategy list does not list 8 strategies"

# Small and quick: this checks correctness and the output, not speed.
Q="--wg-size 64 --workgroups 2 --iters 4 --min-samples 2 --max-samples 2"
"$ATOMLAB" $S --pattern same-address,same-line --strategy native,warp,block,cas $Q \
  -o "$WORK/s.json" -o "$WORK/s.csv" >"$WORK/stdout" 2>"$WORK/stderr"
rc=$?
[ $rc -eq 0 ] && pass || fail "strategy run exited $rc: $(tail -3 "$WORK/stderr")"
grep -q '^winners' "$WORK/stdout" && pass || fail "the table does not name the winners"
python3 - "$WORK/s.json" "$WORK/s.csv" <<'PY' && pass || fail "strategy JSON/CSV content"
import csv, json, sys, atl_json
d = atl_json.load(sys.argv[1])
assert d["format_version"] == 2 and d["kind"] == "strategy"
assert d["tool"]["commit"] and d["date"] and d["device"]["name"] and d["device"]["backend"] == "opencl"
rows = d["rows"]
assert len(rows) == 8, len(rows)
for r in rows:
    assert r["status"] == "ok" and r["verified"], (r["strategy"], r["status"], r["reason"])
    assert r["olds_checked"] > 0 and r["result"] == "used", r
    assert r["pattern"] in ("same-address", "same-line"), r["pattern"]
for p in ("same-address", "same-line"):
    w = [r for r in rows if r["pattern"] == p and r["winner"]]
    assert len(w) == 1, (p, len(w))
    assert w[0]["margin"] >= 1.0, w[0]["margin"]
    assert all(r["margin"] >= 1.0 for r in rows if r["pattern"] == p and not r["winner"])
assert sum(1 for r in rows if r["winner"]) == 2
c = list(csv.DictReader(open(sys.argv[2])))
assert len(c) == 8 and set(c[0]) >= {"pattern", "strategy", "winner", "margin", "olds_checked", "verified"}
assert sum(int(r["winner"]) for r in c) == 2
PY

# Divergent warps, results unused: still exact (every op is in the primitives test).
"$ATOMLAB" $S --pattern same-line --strategy warp,block,privatized --op xor --result unused --divergent $Q \
  --format csv >"$WORK/div.csv" 2>"$WORK/stderr"
rc=$?
[ $rc -eq 0 ] && pass || fail "divergent run exited $rc: $(tail -3 "$WORK/stderr")"
python3 - "$WORK/div.csv" <<'PY' && pass || fail "divergent rows verified"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 3, len(rows)
assert all(r["status"] == "ok" and r["verified"] == "1" and r["divergent"] == "yes" for r in rows), rows[0]
PY
finish
