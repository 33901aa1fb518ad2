#!/usr/bin/env bash
# On a machine with two or more CUDA GPUs: the peer facts of `atomlab devices`,
# `rmw --device all` with rows of every GPU, each verified, and a small
# `app crossgpu` whose rows (system scope in peer memory and on one GPU) verify.
# Skipped (77) with fewer than two CUDA GPUs.
. "$(dirname "$0")/lib.sh"
ncuda=$("$ATOMLAB" devices --format json 2>/dev/null | python3 -c '
import json, sys
print(sum(d["backend"] == "cuda" for d in json.load(sys.stdin)["devices"]))' 2>/dev/null)
if [ "${ncuda:-0}" -lt 2 ]; then
  echo "fewer than two CUDA GPUs (${ncuda:-0}): skipped"
  exit 77
fi
"$ATOMLAB" devices --format json >"$WORK/devices.json" 2>"$WORK/err"
python3 - "$WORK/devices.json" <<'PY' && pass || fail "devices lists the peers of cuda:0 and cuda:1"
import json, sys
peers = json.load(open(sys.argv[1])).get("peers", [])
pair = [p for p in peers if p["from"] == "cuda:0" and p["to"] == "cuda:1"]
assert pair, peers
for key in ("p2p_access", "native_atomics", "performance_rank", "host_native_atomics", "nvlinks_active", "link"):
    assert key in pair[0], key
PY
timeout 300 "$ATOMLAB" rmw --backend cuda --device all --op fetch_add,cas --result used --contention 1,64 \
  --padding 1 --target-ms 2 --max-samples 5 -o "$WORK/rmw.json" >"$WORK/rmw.out" 2>"$WORK/rmw.err"
rc=$?
[ $rc -eq 0 ] && pass || fail "rmw --device all exited $rc: $(tail -3 "$WORK/rmw.err")"
python3 - "$WORK/rmw.json" "$ncuda" <<'PY' && pass || fail "rmw rows of every GPU, verified"
import sys, atl_json
rows = atl_json.load(sys.argv[1])["rows"]
devs = {r["device"] for r in rows}
assert len(devs) == int(sys.argv[2]), devs
assert len(rows) == 4 * len(devs) and all(r["status"] == "ok" and r["verified"] for r in rows)
PY
timeout 300 "$ATOMLAB" app crossgpu --backend cuda --workgroups 8 --target-ms 1 --samples 3 -o "$WORK/x.json" \
  >"$WORK/x.out" 2>"$WORK/x.err"
rc=$?
[ $rc -eq 0 ] && pass || fail "app crossgpu exited $rc: $(tail -5 "$WORK/x.err")"
python3 - "$WORK/x.json" <<'PY' && pass || fail "crossgpu rows: every one measured, system scope verified where native"
import sys, atl_json
rows = atl_json.load(sys.argv[1])["rows"]
assert len(rows) == 36, len(rows)
for r in rows:
    assert r["status"] == "ok", (r["variant"], r["status"], r.get("reason"))
    strict = r.get("control", 0) != 1
    assert not strict or r["verified"], (r["variant"], r.get("reason"))
    assert r["instructions"], r["variant"]  # the SASS atomics of the row's kernel
assert any(r["variant"] == "peer-system-word-used" and r["verified"] for r in rows)
PY
finish
