#!/usr/bin/env bash
# Atomics on two or more GPUs (issue [multi-gpu]), one call of at most 8 minutes on a 2-GPU machine:
#   info      nvidia-smi, its topology matrix (NVLink or PCIe between the GPUs), atomlab devices with the
#             peer facts (P2P access, native atomics over the link, rank, host-memory atomics, NVLinks)
#   check     the gpu test tests/cli/gpu_multi.sh (devices' peers, rmw --device all, a small crossgpu)
#   rmw       a quick grid on every GPU at once (rmw --device all), and the same grid on cuda:0 alone
#   crossgpu  app crossgpu: system scope in peer memory (NVLink) and in mapped host memory, device scope
#             as the control, and the single-GPU baseline of every pattern (word, line, scattered), RED and ATOM
# Writes OUT/info.txt (every step's exit and time), OUT/log.txt, OUT/devices.json, OUT/rmw-all.json,
# OUT/rmw-one.json, OUT/crossgpu.json and OUT/summary.txt (the tables docs/multi-gpu.md takes its numbers from).
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-multi
A=${ATOMLAB:-./build/atomlab}
step_deadline "${DEADLINE_S:-470}"
{ date -u +%FT%TZ; $SMI; nvidia-smi topo -m; $A version; } >"$OUT/info.txt" 2>&1
STEP_LOG=$OUT/log.txt STEP_STATUS=$OUT/info.txt
step -o "$OUT/devices.txt" devices 30 $A devices
step -o "$OUT/devices.json" devices-json 30 $A devices --format json
step check 150 bash tests/cli/gpu_multi.sh "$A"
# the cross-GPU sweep first: it is what no other script measures
step crossgpu 200 $A app crossgpu --backend cuda -o "$OUT/crossgpu.json" --quiet
GRID="--backend cuda --op fetch_add,cas --result unused,used --contention 1:1024:x4 --padding 1,32 --target-ms 10 --max-samples 10"
step rmw-all 100 $A rmw $GRID --device all -o "$OUT/rmw-all.json" -o "$OUT/rmw-all.csv" --quiet
step rmw-one 60 $A rmw $GRID --device cuda:0 -o "$OUT/rmw-one.json" --quiet
python3 - "$OUT" <<'PY' >"$OUT/summary.txt" 2>&1
import json, os, sys, atl_json
o = sys.argv[1]
def rows(name):
    p = os.path.join(o, name)
    return atl_json.load(p)["rows"] if os.path.exists(p) else []
if os.path.exists(os.path.join(o, "devices.json")):
    for p in json.load(open(os.path.join(o, "devices.json"))).get("peers", []):
        print(f"peer {p['from']} -> {p['to']}: p2p {p['p2p_access']} native atomics {p['native_atomics']} "
              f"rank {p['performance_rank']} host-native atomics {p['host_native_atomics']} link {p['link']} "
              f"({p['nvlinks_active']} NVLinks)")
x = {r["variant"]: r for r in rows("crossgpu.json")}
def cell(v):
    r = x.get(v)
    if r is None:
        return f"{'-':>22s}"
    if r["status"] != "ok":
        return f"{r['status']:>22s}"
    mark = "ok" if r["verified"] else f"LOST {r.get('lost_updates', 0):.0f}"
    return f"{r.get('gops', 0):9.3f} {mark:>12s}"
print("\ncrossgpu: Gop/s (all GPUs together) and verification; local = cuda:0 alone, same pattern")
print(f"{'pattern':10s} {'result':7s} {'local-system':>22s} {'peer-system':>22s} {'host-system':>22s} "
      f"{'peer-device (ctl)':>22s} {'host-device (ctl)':>22s} {'peer/local':>10s}")
for pat in ("word", "line", "scattered"):
    for res in ("unused", "used"):
        loc, peer = x.get(f"local-system-{pat}-{res}"), x.get(f"peer-system-{pat}-{res}")
        ratio = (peer["gops"] / loc["gops"]) if loc and peer and loc.get("gops") and peer.get("gops") else 0
        print(f"{pat:10s} {res:7s} {cell(f'local-system-{pat}-{res}')} {cell(f'peer-system-{pat}-{res}')} "
              f"{cell(f'host-system-{pat}-{res}')} {cell(f'peer-device-{pat}-{res}')} "
              f"{cell(f'host-device-{pat}-{res}')} {ratio:10.3f}")
print("\ninstructions per variant (SASS of cuda:0's kernel)")
for v, r in x.items():
    print(f"  {v:32s} {r.get('instructions', '')}  {r.get('reason', '')[:120]}")
a, one = rows("rmw-all.json"), rows("rmw-one.json")
if a:
    print(f"\nrmw --device all: {len(a)} rows, {sum(r['verified'] for r in a)} verified, "
          f"devices {sorted({r['device'] for r in a})}")
    single = {(r["op"], r["result"], r["contention"], r["padding"]): r for r in one}
    print(f"{'op':10s} {'result':7s} {'cont':>5s} {'pad':>4s} " + " ".join(f"{d:>12s}" for d in sorted({r['device'] for r in a}))
          + f" {'cuda:0 alone':>13s}")
    keys = sorted({(r["op"], r["result"], r["contention"], r["padding"]) for r in a})
    for k in keys:
        per = {r["device"]: r for r in a if (r["op"], r["result"], r["contention"], r["padding"]) == k}
        s = single.get(k)
        print(f"{k[0]:10s} {k[1]:7s} {k[2]:5d} {k[3]:4d} " + " ".join(f"{per[d].get('gops', 0):12.3f}" for d in sorted(per))
              + f" {s.get('gops', 0) if s else 0:13.3f}")
PY
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
