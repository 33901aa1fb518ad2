#!/usr/bin/env bash
# The apps (issue [strategies] items 3 and 4) on an NVIDIA GPU machine:
#   1. the GPU test of the apps (tests/cli/gpu_apps.sh) and the CUB plugin check;
#   2. every app on CUDA at GPU sizes, with the CUB baselines;
#   3. every app on NVIDIA's OpenCL;
#   4. a summary: the count app's best strategy against the read bandwidth
#      measured in the same run (target >= 0.9x) and against CUB, and one line
#      per app.
# Each step is cut at STEP_LIMIT seconds (default 90); the whole run takes
# about 2-3 minutes. Writes under OUT (default out/gpu-apps) at most 5 files:
# info.txt, tests.log, summary.txt, apps-json.tar.gz (every JSON result) and
# apps-tables.txt. Expects a build in build/ (with build/libatomlab_cub.so for CUB).
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-apps
gpu_apps_start
: >"$OUT/apps-tables.txt"
: >"$OUT/tests.log"
STEP_STATUS=$OUT/info.txt
L=${STEP_LIMIT:-90}

# 1. tests
STEP_LOG=$OUT/tests.log step gpu_apps 150 bash tests/cli/gpu_apps.sh $A
STEP_LOG=$OUT/tests.log step cub_plugin 30 ./build/tests/unit/test_cub_plugin "$PWD/build/libatomlab_cub.so"
step_note "tests: $(grep -E 'passed' "$OUT/tests.log" | tr '\n' ' ')"
STEP_LOG=$OUT/apps-tables.txt

# 2. CUDA at GPU sizes (count: 512 MiB of input by default, about 10x the H100's L2)
C="--backend cuda"
step cuda-count $L $A app count $C --samples 20 -o "$W/cuda-count.json"
step cuda-count-items8 $L $A app count $C --samples 20 --items 8 -o "$W/cuda-count-items8.json"
step cuda-dadd $L $A app double-add $C -o "$W/cuda-dadd.json"
step cuda-dadd-64 $L $A app double-add $C --targets 64 -o "$W/cuda-dadd-64.json"
step cuda-list $L $A app list $C -o "$W/cuda-list.json"
step cuda-list-256 $L $A app list $C --nodes 1048576 --threads 65536 --lists 256 -o "$W/cuda-list-256.json"
step cuda-skiplist $L $A app skiplist $C -o "$W/cuda-skiplist.json"
step cuda-access $L $A app access-table $C --target-ms 2 --samples 5 -o "$W/cuda-access.json"

# 3. NVIDIA OpenCL
if [ -n "$ocl" ]; then
  O="--device $ocl"
  step ocl-count $L $A app count $O --samples 20 -o "$W/opencl-count.json"
  step ocl-dadd $L $A app double-add $O -o "$W/opencl-dadd.json"
  step ocl-list $L $A app list $O -o "$W/opencl-list.json"
  step ocl-skiplist $L $A app skiplist $O -o "$W/opencl-skiplist.json"
  step ocl-access $L $A app access-table $O --op fetch_add,cas,exchange --target-ms 2 --samples 5 \
    -o "$W/opencl-access.json"
else
  step_note "no NVIDIA OpenCL device: OpenCL runs skipped"
fi
tar -C "$W" -czf "$OUT/apps-json.tar.gz" .

# 4. summary
python3 - "$W" >"$OUT/summary.txt" <<'PY'
import glob, json, os, sys
d = sys.argv[1]
def load(name):
    p = os.path.join(d, name)
    return atl_json.load(p) if os.path.exists(p) else None
def fmt(r):
    m = r["metrics"]
    keys = [k for k in ("gbps", "ratio_to_read", "madds_per_s", "retries_per_add", "minserts_per_s",
                        "retries_per_insert", "mkeys_per_s", "gops") if k in m]
    s = " ".join(f"{k}={m[k]:.4g}" for k in keys)
    v = "verified" if r["verified"] else "NOT VERIFIED" if r["status"] == "ok" else ""
    return f'{r["variant"]:<24} {r["status"]:<11} {v:<12} median {r["time_ms"]["median"]:.4f} ms  {s}' + \
        (f'  ({r["reason"]})' if r["reason"] else "")
for name in ["cuda-count.json", "cuda-count-items8.json", "opencl-count.json"]:
    doc = load(name)
    if not doc:
        print(f"{name}: missing"); continue
    rs = {r["variant"]: r for r in doc["rows"]}
    ceil = rs.get("read-ceiling", {}).get("metrics", {}).get("gbps", 0)
    strat = [r for v, r in rs.items() if v in ("thread", "warp", "block") and r["status"] == "ok" and r["verified"]]
    print(f"== {name} on {doc['device']['name']} ({doc['device']['backend']}), "
          f"{rs.get('thread', {}).get('metrics', {}).get('bytes', 0) / 2**20:.0f} MiB input")
    for r in doc["rows"]:
        print("  " + fmt(r))
    if strat and ceil:
        best = max(strat, key=lambda r: r["metrics"]["gbps"])
        ratio = best["metrics"]["gbps"] / ceil
        print(f"  BEST {best['variant']}: {best['metrics']['gbps']:.1f} GB/s = {ratio:.3f}x the read ceiling "
              f"({ceil:.1f} GB/s) -> target 0.9x {'MET' if ratio >= 0.9 else 'MISSED'}")
        cub = rs.get("cub")
        if cub and cub["status"] == "ok" and cub["metrics"].get("gbps"):
            print(f"  vs CUB DeviceReduce: {best['metrics']['gbps'] / cub['metrics']['gbps']:.3f}x "
                  f"(CUB {cub['metrics']['gbps']:.1f} GB/s = {cub['metrics']['gbps'] / ceil:.3f}x ceiling)")
        elif cub:
            print(f"  CUB: {cub['status']} {cub['reason']}")
for name in sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "*.json"))):
    if "count" in name:
        continue
    doc = load(name)
    print(f"== {name} on {doc['device']['name']}")
    rows = doc["rows"]
    if "access" in name:
        bad = [r for r in rows if not (r["status"] == "ok" and r["verified"])]
        by = {}
        for r in rows:
            op, cfg = r["variant"].split("/")
            by.setdefault(op, {})[cfg] = r["metrics"].get("gops", 0) if r["status"] == "ok" else float("nan")
        print(f"  {'op':<10} {'same-address':>13} {'same-line':>10} {'scattered':>10}  Gop/s")
        for op, c in by.items():
            print(f"  {op:<10} {c.get('same-address', 0):13.2f} {c.get('same-line', 0):10.2f} {c.get('scattered', 0):10.2f}")
        print(f"  {len(rows) - len(bad)} of {len(rows)} rows verified" + (f"; not: {[r['variant'] for r in bad]}" if bad else ""))
        continue
    for r in rows:
        print("  " + fmt(r))
    sk = {r["variant"]: r for r in rows}
    if "cas-insert" in sk and sk.get("cub-radix-sort", {}).get("status") == "ok" and sk["cas-insert"]["status"] == "ok":
        print(f"  skiplist sort / CUB radix sort time: "
              f"{sk['cas-insert']['time_ms']['median'] / sk['cub-radix-sort']['time_ms']['median']:.1f}x slower")
PY
cat "$OUT/summary.txt"
{ echo "== end"; $SMI; } >>"$OUT/info.txt" 2>&1
