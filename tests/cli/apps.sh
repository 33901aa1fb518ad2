#!/usr/bin/env bash
# Every app on an OpenCL device (PoCL in CI) at small sizes: every row is
# verified, unsupported with a reason, or (the naive lock only) deadlock;
# counts equal the host's; the lists and skiplist pass the host's checks.
. "$(dirname "$0")/lib.sh"
need_opencl

B="--backend opencl --samples 2"
run_app() { # NAME FILE ARGS...: runs one app, exit 0 expected
  local name=$1 file=$2
  shift 2
  "$ATOMLAB" app "$name" $(without_given "$B" "$*") "$@" -o "$WORK/$file" >"$WORK/$file.out" 2>"$WORK/$file.err"
  local rc=$?
  [ $rc -eq 0 ] && pass || fail "app $name $* exited $rc: $(tail -3 "$WORK/$file.err")"
}
run_app count count.json --containers 3000 --items 5 --wg-size 64
run_app count count_limit.json --containers 1000 --items 40 --limit 7.5 --wg-size 32
run_app double-add dadd.json --threads 256 --adds 3 --wg-size 64
run_app double-add dadd_spread.json --threads 256 --adds 2 --targets 5 --wg-size 64
run_app list list.json --nodes 2000 --threads 300 --wg-size 64
run_app list list_heads.json --nodes 2000 --threads 128 --lists 7 --wg-size 64
run_app skiplist skip.json --nodes 1500 --threads 96 --wg-size 32
run_app access-table access.json --op fetch_add,cas,exchange --workgroups 4 --wg-size 64 --target-ms 0.5 \
  --same-address-threads 100

python3 - "$WORK" <<'PY' && pass || fail "app rows verified and complete"
import json, atl_json, os, sys
work = sys.argv[1]
def rows(name):
    doc = atl_json.load(os.path.join(work, name))
    assert doc["kind"] == "app" and doc["device"]["backend"] == "opencl" and doc["tool"]["commit"], name
    return {r["variant"]: r for r in doc["rows"]}
def good(r):
    return (r["status"] == "ok" and r["verified"]) or (r["status"] == "unsupported" and r["reason"])
for name in ["count.json", "count_limit.json"]:
    rs = rows(name)
    assert set(rs) == {"read-ceiling", "thread", "warp", "block", "cub"}, rs.keys()
    assert all(good(r) for r in rs.values()), [(v, r["status"], r["reason"]) for v, r in rs.items()]
    for v in ["read-ceiling", "thread", "block"]:
        assert rs[v]["status"] == "ok" and rs[v]["metrics"]["gbps"] > 0, v
    assert rs["block"]["metrics"]["ratio_to_read"] > 0
    assert rs["thread"]["metrics"]["count"] == rs["block"]["metrics"]["count"]
    assert rs["cub"]["status"] == "unsupported"  # CUB is CUDA only
for name in ["dadd.json", "dadd_spread.json"]:
    rs = rows(name)
    for v in ["lock", "cas-loop"]:
        assert rs[v]["status"] == "ok" and rs[v]["verified"], (name, v, rs[v]["reason"])
    assert rs["lock-naive"]["status"] in ("ok", "deadlock"), rs["lock-naive"]
    assert rs["native"]["status"] == "unsupported" and rs["native"]["reason"]
for name, variant in [("list.json", "cas-one-head"), ("list_heads.json", "cas-7-heads")]:
    r = rows(name)[variant]
    assert r["status"] == "ok" and r["verified"], (name, r["reason"])
    assert r["metrics"]["nodes"] == 2000 and r["metrics"]["retries_per_insert"] >= 0
rs = rows("skip.json")
assert rs["cas-insert"]["status"] == "ok" and rs["cas-insert"]["verified"], rs["cas-insert"]["reason"]
assert rs["cub-radix-sort"]["status"] == "unsupported"
rs = rows("access.json")
assert len(rs) == 9, rs.keys()
assert all(r["status"] == "ok" and r["verified"] for r in rs.values()), [(v, r["reason"]) for v, r in rs.items()]
assert rs["fetch_add/same-address"]["metrics"]["contention"] == 128  # 100 threads round up to 2 work-groups
assert rs["fetch_add/same-line"]["metrics"]["threads"] == 256
assert rs["fetch_add/scattered"]["metrics"]["padding"] == 32
PY
# the access table prints one line per op with three columns
[ "$(grep -c '^fetch_add\|^cas \|^exchange' "$WORK/access.json.out")" -eq 3 ] && pass || fail "access table lines: $(cat "$WORK/access.json.out")"
# CSV and table outputs from the same row struct
"$ATOMLAB" app list $B --nodes 100 --threads 10 -o "$WORK/list.csv" 2>/dev/null
head -1 "$WORK/list.csv" | grep -q '^app,variant,status,verified' && grep -q 'retries_per_insert=' "$WORK/list.csv" && pass || fail "CSV output"
"$ATOMLAB" app count $B --containers 100 --items 3 --format json --no-cub | python3 -c 'import json, atl_json,sys; d=atl_json.load(sys.stdin); assert len(d["rows"])==4' && pass || fail "JSON on stdout, --no-cub"
finish
