#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: every app runs on the CUDA backend at small
# sizes and verifies; the CUB baselines run where the plugin was built.
# Skipped (77) where CUDA is unavailable.
. "$(dirname "$0")/lib.sh"
need_cuda
B="--backend cuda --samples 3"
run_app() {
  local name=$1 file=$2
  shift 2
  timeout 120 "$ATOMLAB" app "$name" $(without_given "$B" "$*") "$@" -o "$WORK/$file" >"$WORK/$file.out" 2>"$WORK/$file.err"
  local rc=$?
  [ $rc -eq 0 ] && pass || fail "CUDA app $name $* exited $rc: $(tail -3 "$WORK/$file.err")"
}
run_app count count.json --containers 100000 --items 16
run_app double-add dadd.json --threads 2048 --adds 4
run_app double-add dadd8.json --threads 2048 --adds 4 --targets 8
run_app list list.json --nodes 20000 --threads 2048
run_app list list64.json --nodes 100000 --threads 8192 --lists 64
run_app skiplist skip.json --nodes 100000 --threads 4096
run_app access-table access.json --op fetch_add,cas --target-ms 1
PLUGIN=0
[ -f "$(dirname "$ATOMLAB")/libatomlab_cub.so" ] && PLUGIN=1
python3 - "$WORK" "$PLUGIN" <<'PY' && pass || fail "CUDA app rows verified"
import json, atl_json, os, sys
work, plugin = sys.argv[1], sys.argv[2] == "1"
for name in ["count.json", "dadd.json", "dadd8.json", "list.json", "list64.json", "skip.json", "access.json"]:
    doc = atl_json.load(os.path.join(work, name))
    for r in doc["rows"]:
        ok = (r["status"] == "ok" and r["verified"]) or (r["status"] == "unsupported" and r["reason"]) \
            or (r["variant"] == "lock-naive" and r["status"] == "deadlock")
        assert ok, (name, r["variant"], r["status"], r["reason"])
    rs = {r["variant"]: r for r in doc["rows"]}
    if name == "count.json":
        for v in ["thread", "warp", "block"]:
            assert rs[v]["status"] == "ok" and rs[v]["instructions"], v
        assert (rs["cub"]["status"] == "ok") == plugin, rs["cub"]
    if name == "skip.json":
        assert (rs["cub-radix-sort"]["status"] == "ok") == plugin, rs["cub-radix-sort"]
    if name.startswith("dadd"):
        assert rs["native"]["status"] == "ok" and rs["lock"]["status"] == "ok" and rs["cas-loop"]["status"] == "ok"
    print(name, "ok:", ", ".join(f'{v}={r["status"]}' for v, r in rs.items()))
PY
finish
