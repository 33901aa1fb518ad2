#!/usr/bin/env bash
# atomlab app histogram on PoCL: every portable variant x every input x every
# distribution at a small size verifies bin for bin; the packed variant's
# 16-bit counters are flushed before they overflow (a solid input puts
# millions of keys in one bin), and so are per-lane's; block16's pass 0x8000
# (262,144 keys in one bin); 65,536 bins run or say why not.
. "$(dirname "$0")/lib.sh"
need_opencl
B="--backend opencl --samples 1"
run() { # run FILE ARGS...
  local file=$1
  shift
  timeout 120 "$ATOMLAB" app histogram $B "$@" -o "$WORK/$file" >"$WORK/$file.out" 2>"$WORK/$file.err"
  local rc=$?
  [ $rc -eq 0 ] && pass || fail "app histogram $* exited $rc: $(tail -3 "$WORK/$file.err")"
}
run all.json --input all --dist all --bytes 65536
run wg64.json --input u8,rgba --dist skewed --bytes 32768 --wg-size 64 --variants shared,warp-private,packed
run flush.json --input u8 --dist solid,uniform --bytes 16777216 --variants packed,per-lane
run bins65536.json --input u32 --bins 65536 --dist solid,uniform --bytes 1048576 --variants global,shared,packed,block16,auto
python3 - "$WORK" <<'PY' && pass || fail "histogram rows"
import json, os, sys
work = sys.argv[1]
def rows(name):
    doc = json.load(open(os.path.join(work, name)))
    assert doc["kind"] == "app" and doc["device"] and doc["tool"]["commit"], name
    return {r["variant"]: r for r in doc["rows"]}
rs = rows("all.json")
assert len(rs) == 3 * 3 * 10, len(rs)
for i in ["u8", "rgba", "u32"]:
    for d in ["solid", "uniform", "skewed"]:
        for v in ["read-ceiling", "global", "shared", "warp-private", "packed", "per-lane", "block16", "auto"]:
            r = rs[f"{i}/{d}/{v}"]
            if v == "per-lane" and r["status"] == "unsupported":  # 4096 columns need 512 KiB
                assert "local memory" in r["reason"], r
                continue
            assert r["status"] == "ok" and r["verified"], (i, d, v, r["status"], r["reason"])
            m = r["metrics"]
            assert m["gbps"] > 0 and m["ratio_to_read"] > 0 and m["bytes"] == 65536, (i, d, v, m)
            assert m["bins"] == {"u8": 256, "rgba": 1024, "u32": 4096}[i]
        for v in ["match-any", "cub"]:
            r = rs[f"{i}/{d}/{v}"]
            assert r["status"] == "unsupported" and r["reason"], (i, d, v, r)
for name in ["wg64.json", "flush.json"]:
    for v, r in rows(name).items():
        assert r["status"] == "ok" and r["verified"], (name, v, r["reason"])
r = rows("bins65536.json")
assert r["u32/uniform/global"]["verified"], r["u32/uniform/global"]
for d in ["solid", "uniform"]:  # block16's counters pass 0x8000 many times on the solid input
    for v in ["block16", "auto"]:
        x = r[f"u32/{d}/{v}"]
        assert x["status"] == "ok" and x["verified"], x
for v in ["shared", "packed"]:
    x = r[f"u32/uniform/{v}"]
    assert (x["status"] == "ok" and x["verified"]) or (x["status"] == "unsupported" and "local memory" in x["reason"]), x
print("histogram rows ok:", len(rs), "variants")
PY
# the table and CSV views carry the same rows
"$ATOMLAB" app histogram $B --bytes 4096 --dist solid --variants global --format csv >"$WORK/h.csv" 2>/dev/null &&
  grep -q '^histogram,u8/solid/global,ok,1,' "$WORK/h.csv" && pass || fail "histogram CSV row"
finish
