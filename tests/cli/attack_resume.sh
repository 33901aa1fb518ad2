#!/usr/bin/env bash
# Attack class "--resume trusts the file" (docs/reliability-inputs.md): a
# forged or damaged row (iters -1, no samples, a 1e308 median, an infinite
# sample, gops that do not follow, an ok row not verified, status deadlock)
# is measured again and said so, never written back as a measurement; a file
# timed with other settings is refused (exit 2, naming the setting and both
# values); rows of the file outside the new sweep are kept unless
# --drop-others.
. "$(dirname "$0")/lib.sh"
need_opencl

Q=(--iters 5 --min-samples 2 --max-samples 2 --padding 1)
"$ATOMLAB" rmw "${Q[@]}" --contention 1,4 --quiet -o "$WORK/base.json" 2>"$WORK/e" || {
  fail "base run: $(cat "$WORK/e")"
  finish
  exit
}

# forge NAME PYTHON: base.json with row 0 (contention 1) changed by PYTHON (r: the row, d: the file)
forge() {
  python3 - "$WORK/base.json" "$WORK/$1.json" "$2" <<'PY'
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
r = d["rows"][0]
assert r["contention"] == 1
exec(sys.argv[3])
text = atl_json.dumps(d).replace('"INF"', "1e999")  # JSON has no infinity; cJSON reads 1e999 as one
open(sys.argv[2], "w").write(text)
PY
}

# remeasured NAME: resuming from NAME.json measures row 0 again (and says so), reuses row 1, and writes valid rows
remeasured() {
  local name=$1
  "$ATOMLAB" rmw "${Q[@]}" --contention 1,4 --resume "$WORK/$name.json" --quiet -o "$WORK/out-$name.json" \
    2>"$WORK/e"
  local rc=$?
  if [ $rc -ne 0 ]; then
    fail "$name: exit $rc: $(cat "$WORK/e")"
  elif ! grep -q "measuring again 1 row of .* fails validation" "$WORK/e" || ! grep -q "reused 1 rows" "$WORK/e"; then
    fail "$name: not said to be measured again: $(cat "$WORK/e")"
  elif ! python3 - "$WORK/base.json" "$WORK/out-$name.json" <<'PY'; then
import json, atl_json, math, statistics, sys
base, out = (atl_json.load(p) for p in sys.argv[1:])
rows = {r["contention"]: r for r in out["rows"]}
assert sorted(rows) == [1, 4] and out["complete"], out["rows"]
for r in rows.values():
    s = r["samples_ms"]
    assert r["status"] == "ok" and r["verified"] and r["iters"] == 5, r
    assert s and all(math.isfinite(x) and x > 0 for x in s), s
    assert math.isclose(r["time_ms"]["median"], statistics.median(s), rel_tol=1e-9), r["time_ms"]
    assert math.isclose(r["gops"], r["ops"] / (r["time_ms"]["median"] * 1e6), rel_tol=1e-9), r
# row 4 reused as it was
assert rows[4]["samples_ms"] == base["rows"][1]["samples_ms"]
PY
    fail "$name: the output holds a bad row"
  else
    pass
  fi
}

forge iters 'r["iters"] = -1'
remeasured iters
forge nosamples 'del r["samples_ms"]'
remeasured nosamples
forge emptysamples 'r["samples_ms"] = []; r["time_ms"]["samples"] = 0'
remeasured emptysamples
forge median 'r["time_ms"]["median"] = 1e308'
remeasured median
forge infinite 'r["samples_ms"][0] = "INF"'
remeasured infinite
forge zero 'r["samples_ms"] = [0, 0]; r["time_ms"]["median"] = 0'
remeasured zero
forge gops 'r["gops"] *= 1000; r["ops_per_us"] *= 1000'
remeasured gops
forge ops 'r["ops"] = 1'
remeasured ops
forge unverified 'r["verified"] = False'
remeasured unverified
forge deadlock 'r["status"] = "deadlock"'
remeasured deadlock

# --- timing settings must match: exit 2, naming the setting and both values, nothing written ---
expect_usage_error "fixed_iters differs: the file was measured with 5, this run asks for 6" \
  rmw --iters 6 --min-samples 2 --max-samples 2 --padding 1 --contention 1 --resume "$WORK/base.json"
expect_usage_error "min_samples differs: the file was measured with 2, this run asks for 1" \
  rmw --iters 5 --min-samples 1 --max-samples 2 --padding 1 --contention 1 --resume "$WORK/base.json"
expect_usage_error "target_ms differs: the file was measured with 20, this run asks for 7" \
  rmw "${Q[@]}" --target-ms 7 --contention 1 --resume "$WORK/base.json"
forge noise 'd["settings"]["noise_threshold"] = 0.5'
expect_usage_error "noise differs: the file was measured with 0.5, this run asks for 0.02" \
  rmw "${Q[@]}" --contention 1 --resume "$WORK/noise.json"
forge budget 'd["settings"]["budget_s"] = 60'
expect_usage_error "budget_s differs" rmw "${Q[@]}" --contention 1 --resume "$WORK/budget.json"
forge calibrated 'd["settings"]["fixed_iters"] = 0'
expect_usage_error "fixed_iters differs: the file was measured with none (calibrated)" \
  rmw "${Q[@]}" --contention 1 --resume "$WORK/calibrated.json"
forge nosettings 'del d["settings"]'
expect_usage_error "records no timing settings" rmw "${Q[@]}" --contention 1 --resume "$WORK/nosettings.json"

# --- rows outside the new sweep are kept (after the sweep's rows), unless --drop-others ---
cp "$WORK/base.json" "$WORK/same.json"
"$ATOMLAB" rmw "${Q[@]}" --contention 4,8 --resume "$WORK/same.json" --quiet -o "$WORK/same.json" 2>"$WORK/e"
rc=$?
python3 - "$WORK/same.json" <<'PY' && [ $rc -eq 0 ] && grep -q "kept 1 rows" "$WORK/e" && pass ||
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
assert [r["contention"] for r in d["rows"]] == [4, 8, 1], [r["contention"] for r in d["rows"]]
assert d["complete"] and d["rows_planned"] == 3, (d["complete"], d["rows_planned"])
PY
  fail "-o the resume file: rows outside the sweep kept after it (exit $rc): $(cat "$WORK/e")"
"$ATOMLAB" rmw "${Q[@]}" --contention 4,8 --resume "$WORK/base.json" --drop-others --quiet -o "$WORK/drop.json" \
  2>"$WORK/e"
rc=$?
python3 - "$WORK/drop.json" <<'PY' && [ $rc -eq 0 ] && grep -q "dropped 1 rows" "$WORK/e" && pass ||
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
assert [r["contention"] for r in d["rows"]] == [4, 8], [r["contention"] for r in d["rows"]]
PY
  fail "--drop-others leaves the other rows out (exit $rc): $(cat "$WORK/e")"
expect_usage_error "--drop-others" rmw "${Q[@]}" --contention 1 --drop-others

finish
