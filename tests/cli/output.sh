#!/usr/bin/env bash
# Output formats: table on stdout, CSV and JSON files with their schema.
. "$(dirname "$0")/lib.sh"
need_opencl

R="rmw --iters 16 --min-samples 3 --max-samples 3 --contention 1,4 --padding 1,2 --op fetch_add,cas"
"$ATOMLAB" $R >"$WORK/table.txt" 2>"$WORK/err" || fail "table run failed: $(cat "$WORK/err")"
head -1 "$WORK/table.txt" | grep -q "^pattern *op *type" && pass || fail "table header"
[ "$(grep -c ' yes ' "$WORK/table.txt")" -eq 8 ] && pass || fail "table has 8 verified rows: $(cat "$WORK/table.txt")"

"$ATOMLAB" $R -o "$WORK/r.json" --quiet 2>"$WORK/err" || fail "json run failed: $(cat "$WORK/err")"
python3 - "$WORK/r.json" <<'PY' && pass || fail "json schema"
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
assert d["format_version"] == 2 and d["kind"] == "rmw"
assert d["tool"]["name"] == "atomlab" and d["tool"]["version"] and d["tool"]["commit"]
for k in ("date", "command", "device", "occupancy", "settings", "rows"):
    assert k in d, k
dev = d["device"]
for k in ("backend", "platform", "name", "driver", "limits"):
    assert k in dev, k
assert dev["limits"]["max_alloc_bytes"] > 0 and dev["limits"]["compute_units"] > 0
occ = d["occupancy"]
assert occ["discovered_workgroups"] >= 1 and occ["estimated_workgroups"] >= 1
assert len(d["rows"]) == 8
for r in d["rows"]:
    assert r["status"] == "ok" and r["verified"] is True and r["wrong_words"] == 0, r
    t = r["time_ms"]
    assert t["samples"] == 3 == len(r["samples_ms"])
    assert t["min"] <= t["q1"] <= t["median"] <= t["q3"] <= t["max"]
    assert r["ops"] == r["iters"] * r["wg_size"] * r["workgroups"]
    assert abs(r["gops"] * 1e3 - r["ops_per_us"]) < 1e-6 * max(1, r["ops_per_us"])
    if r["op"] == "cas":
        assert r["cas_attempts_per_op"] >= 1
PY

"$ATOMLAB" $R --format csv -o "$WORK/r.csv" --quiet 2>"$WORK/err" || fail "csv run failed"
python3 - "$WORK/r.csv" <<'PY' && pass || fail "csv schema"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 8
for r in rows:
    assert r["status"] == "ok" and r["verified"] == "1" and r["wrong"] == "0"
    assert float(r["median_ms"]) > 0 and int(r["samples"]) == 3
PY
# stdout formats without -o
"$ATOMLAB" $R --format json 2>/dev/null | python3 -c 'import json, atl_json,sys; assert len(atl_json.load(sys.stdin)["rows"]) == 8' && pass || fail "json on stdout"
ls "$WORK" | grep -q '\.tmp\.' && fail "temporary files left behind" || pass
finish
