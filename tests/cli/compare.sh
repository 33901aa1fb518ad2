#!/usr/bin/env bash
# atomlab compare on two committed files built so that every verdict occurs
# (tests/data/README.md), in all three formats; warnings for different
# devices; bad input refused with nothing written. No device needed.
. "$(dirname "$0")/lib.sh"
DATA="$(cd "$(dirname "$0")/../data" && pwd)"
A="$DATA/compare-a.json"
B="$DATA/compare-b.json"

"$ATOMLAB" compare "$A" "$B" --format json -o "$WORK/c.json" 2>"$WORK/err" && pass || fail "compare json: $(cat "$WORK/err")"
grep -q "^warning" "$WORK/err" && fail "same device gave a warning: $(cat "$WORK/err")" || pass
python3 - "$WORK/c.json" <<'PY' && pass || fail "verdicts"
import json, atl_json, math, sys
d = atl_json.load(sys.argv[1])
got = {r["contention"]: (r["verdict"], r["flags"]) for r in d["rows"]}
want = {1: ("same", ""), 2: ("faster", ""), 4: ("slower", ""), 8: ("unclear", ""), 16: ("n/a", "A:error"),
        32: ("same", "A:not-verified")}
assert got == want, got
assert [r["contention"] for r in d["only_a"]] == [64] and [r["contention"] for r in d["only_b"]] == [128]
s = d["summary"]
assert (s["same"], s["faster"], s["slower"], s["unclear"], s["n/a"], s["only_a"], s["only_b"], s["flagged"]) == \
    (2, 1, 1, 1, 1, 1, 1, 2), s
ratios = [r["time_ratio"] for r in d["rows"] if r["verdict"] != "n/a"]
assert abs(math.exp(sum(map(math.log, ratios)) / len(ratios)) - s["geomean_time_ratio"]) < 1e-12
faster = next(r for r in d["rows"] if r["verdict"] == "faster")
assert faster["b"]["median_ms"] < faster["a"]["median_ms"] and faster["time_ratio"] < 1
PY

"$ATOMLAB" compare "$A" "$B" >"$WORK/t.txt" 2>"$WORK/err" && grep -q "only in A: .*c=64" "$WORK/t.txt" &&
  grep -q "only in B: .*c=128" "$WORK/t.txt" && grep -q "^summary: 6 matched (2 same, 1 faster, 1 slower, 1 unclear, 1 n/a)" "$WORK/t.txt" &&
  grep -q "^geometric mean of B/A time over 5 rows" "$WORK/t.txt" && pass || fail "table: $(cat "$WORK/t.txt" "$WORK/err")"
# labels name the grid as the rows hold it (wg=SIZExGROUPS), every byte printable
grep -q "only in A: .* wg=[0-9]*x[0-9]*$" "$WORK/t.txt" && ! LC_ALL=C grep -q '[^[:print:]]' "$WORK/t.txt" && pass ||
  fail "labels: $(LC_ALL=C cat -v "$WORK/t.txt")"

"$ATOMLAB" compare "$A" "$B" -o "$WORK/c.csv" 2>/dev/null && python3 - "$WORK/c.csv" <<'PY' && pass || fail "csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["verdict"] for r in rows] == ["same", "faster", "slower", "unclear", "n/a", "same", "only_a", "only_b"], rows
assert rows[3]["time_ratio"] and float(rows[3]["time_ratio"]) > 1.05
PY

# A higher threshold turns the 20% changes and the 10% unclear row into "same".
"$ATOMLAB" compare "$A" "$B" --threshold 25 --format json | python3 -c '
import json, atl_json, sys
d = atl_json.load(sys.stdin)
assert d["summary"]["same"] == 5 and d["threshold_pct"] == 25, d["summary"]' && pass || fail "--threshold 25"

# Strategy rows match by strategy as well; rows of another device give a warning, not a failure.
"$ATOMLAB" compare "$DATA/strategy-small.json" "$DATA/strategy-small.json" >"$WORK/s.txt" 2>&1 &&
  grep -q "^summary: 8 matched (8 same" "$WORK/s.txt" && pass || fail "strategy rows: $(cat "$WORK/s.txt")"
sed 's/"name": "Test Device"/"name": "Other Device"/' "$B" >"$WORK/other-device.json"
"$ATOMLAB" compare "$A" "$WORK/other-device.json" >/dev/null 2>"$WORK/err" && [ "$(wc -l <"$WORK/err")" -eq 1 ] &&
  grep -q "^warning: A was measured on Test Device (opencl), B on Other Device (opencl)" "$WORK/err" && pass ||
  fail "device warning: $(cat "$WORK/err")"

# Rows written before scope and order were recorded (device-scope relaxed atomics) match the rows that name them.
python3 - "$A" "$WORK/old.json" <<'PY'
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
for r in d["rows"]:
    r.pop("scope", None)
    r.pop("order", None)
atl_json.dump(d, open(sys.argv[2], "w"))
PY
"$ATOMLAB" compare "$WORK/old.json" "$A" >"$WORK/old.out" 2>/dev/null
rows=$(python3 -c 'import json, atl_json,sys; print(len(atl_json.load(sys.argv[1])["rows"]))' "$A")
grep -q "^summary: $rows matched (.*), 0 only in A, 0 only in B" "$WORK/old.out" && pass ||
  fail "rows without scope and order did not match: $(grep summary "$WORK/old.out")"

# Two backends on one device: their grids differ, --ignore pairs the rows
# anyway; pairs that ran other instructions or iteration counts more than 25% apart are noted, not flagged.
python3 - "$A" "$B" "$WORK/cuda.json" "$WORK/ocl.json" <<'PY'
import json, sys
for src, dst, wgs in ((sys.argv[1], sys.argv[3], 2), (sys.argv[2], sys.argv[4], 3)):
    d = json.load(open(src))
    for r in d["rows"]:
        r["workgroups"] = wgs
        r["iters"] = 200 if wgs == 3 and r["contention"] == 1 else 100
        r["instructions"] = "ATOMG.E.CAS x2, ATOMG.E.ADD x1" if wgs == 3 and r["contention"] == 2 else \
            "ATOMG.E.ADD x4, ATOMG.E.CAS x1"
    json.dump(d, open(dst, "w"))
PY
"$ATOMLAB" compare "$WORK/cuda.json" "$WORK/ocl.json" >"$WORK/x.txt" 2>&1 && grep -q "^summary: 0 matched" "$WORK/x.txt" &&
  pass || fail "other grids matched without --ignore: $(grep summary "$WORK/x.txt")"
"$ATOMLAB" compare "$WORK/cuda.json" "$WORK/ocl.json" --ignore wg_size,workgroups --format json 2>/dev/null |
  python3 -c '
import json, sys
d = json.load(sys.stdin)
s, got = d["summary"], {r["contention"]: r["flags"] for r in d["rows"]}
assert (s["same"] + s["faster"] + s["slower"] + s["unclear"] + s["n/a"], s["flagged"]) == (6, 2), s
assert (s["instructions_differ"], s["iters_differ"]) == (0, 1), s
assert got[1] == "iters-differ" and got[2] == "" and got[16] == "A:error", got' && pass || fail "--ignore and notes"
sed -i 's/"ATOMG.E.CAS x2, ATOMG.E.ADD x1"/"ATOMG.E.CAS x2, ATOMS.ADD x1"/' "$WORK/ocl.json"
"$ATOMLAB" compare "$WORK/cuda.json" "$WORK/ocl.json" --ignore workgroups >"$WORK/x.txt" 2>&1 &&
  grep -q "c=2 .*instructions-differ" "$WORK/x.txt" &&
  grep -q "^not the same work: 1 pairs emitted other atomic instructions (instructions-differ), 1 ran" "$WORK/x.txt" &&
  pass || fail "instructions-differ: $(cat "$WORK/x.txt")"
# A Vulkan row names SPIR-V (OpAtomic...), the driver's input: against SASS it is no instruction difference.
sed -i 's/"ATOMG.E.CAS x2, ATOMS.ADD x1"/"OpAtomicCompareExchange.buffer.Device x1"/' "$WORK/ocl.json"
"$ATOMLAB" compare "$WORK/cuda.json" "$WORK/ocl.json" --ignore workgroups >"$WORK/x.txt" 2>&1 &&
  ! grep -q "c=2 .*instructions-differ" "$WORK/x.txt" && grep -q "^not the same work: 0 pairs" "$WORK/x.txt" && pass || fail "SPIR-V vs SASS flagged: $(cat "$WORK/x.txt")"

# --repeat 2: every row measured twice (its repeats and spread recorded), the setting in the file; compare
# weighs the spread; resuming it under another --repeat is refused as other timing.
if need_opencl; then
  RP="rmw --pattern contiguous --op fetch_add --contention 1,4 --padding 1 --iters 4 --min-samples 3 --max-samples 3"
  "$ATOMLAB" $RP --repeat 2 -o "$WORK/rep.json" --quiet 2>"$WORK/err" &&
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["settings"]["repeats"] == 2, d["settings"]
for r in d["rows"]:
    m = {x["name"]: x["value"] for x in r["metrics"]}
    assert m["repeats"] == 2 and m["repeat_spread"] >= 0 and r["verified"], m
' "$WORK/rep.json" && pass || fail "--repeat 2: $(cat "$WORK/err")"
  "$ATOMLAB" compare "$WORK/rep.json" "$WORK/rep.json" 2>&1 | grep -q "^summary: 2 matched (2 same" && pass ||
    fail "--repeat file against itself"
  expect_refused "repeats differs" $RP --repeat 3 --resume "$WORK/rep.json" -o "$WORK/out.json"
fi

# Bad input.
sed 's/"format_version": 1/"format_version": 3/' "$B" >"$WORK/v3.json"
echo '[1, 2]' >"$WORK/array.json"
expect_usage_error "format_version 3" compare "$A" "$WORK/v3.json"
expect_usage_error "unable to open" compare "$A" "$WORK/missing.json"
expect_usage_error "not JSON" compare "$WORK/array.json" "$B"
expect_usage_error "two result files" compare "$A"
expect_usage_error "--threshold" compare "$A" "$B" --threshold -1
expect_usage_error "--threshold" compare "$A" "$B" --threshold 5x
expect_usage_error "--format" compare "$A" "$B" --format xml
expect_usage_error "--ignore 'grid'" compare "$A" "$B" --ignore workgroups,grid
finish
