#!/usr/bin/env bash
# The Vulkan backend on an NVIDIA GPU (issue 19), one call of at most 8 minutes:
#   1. the Vulkan loader the lead carries in .gl/ (the image has none), NVIDIA's ICD named if the loader
#      finds no driver by itself; `atomlab devices` (OUT/devices.txt, .json): the GPU through Vulkan;
#   2. every op x type x space x result x scope at contention 32 verified on NVIDIA's Vulkan driver (OUT/vulkan-all-ops.json),
#      plain_add caught (the verifier works there too);
#   3. the full contiguous and cross-warp fetch_add grids, contention x padding 1..1024 (powers of two), on the
#      vulkan, cuda and opencl backends with one grid shape (OUT/grid-<backend>.json);
#   2b. what the driver exposes of the pipelines (VK_KHR_pipeline_executable_properties) in OUT/executables.txt;
#   4. `atomlab compare` of vulkan against cuda and opencl against cuda (OUT/compare-*.txt), and
#      OUT/summary.txt: the cross-API table at a few cells with each backend's instructions;
#   5. the standalone reproducer of the shared-memory rows that do not verify (tests/vulkan/repro_shared_atomics,
#      no atomlab code): OUT/repro.txt, again with atomlab's pipeline capture flags (OUT/repro-capture.txt), the
#      driver's pipeline-cache blobs searched for machine code (OUT/repro-sass.txt), and the same shared-memory
#      rows through CUDA on this GPU (OUT/cuda-local-ops.json).
# Everything goes under OUT with a log (OUT/log.txt) and the steps' status (OUT/status.txt). OUT defaults to
# out/results/<gpu>/vulkan (nvidia-h100, nvidia-h200: the layout of results/), so one run per GPU copies as is.
# Run from the repository root on the GPU machine, with .gl carried: bash scripts/gpu-vulkan.sh
cd "$(dirname "$0")/.."
# The loader: unpacked from the .deb files the lead carries (device README); ldconfig makes libvulkan.so.1 found.
for f in .gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
ldconfig
. scripts/gpu-env.sh
gpu_vulkan_script gpu-vulkan vulkan 450
step -o "$OUT/devices.txt" devices 60 $A devices --occupancy
step -o "$OUT/devices.json" devices-json 60 $A devices --format json
# DEVICE_TYPE=cpu and GRID_MAX=4 try the script on lavapipe and PoCL (the development machine).
T=${DEVICE_TYPE:-gpu} MAX=${GRID_MAX:-1024}
gpu_vulkan_devices "$T"
# What NVIDIA's driver tells of the rmw pipelines (VK_KHR_pipeline_executable_properties: statistics,
# internal representations), or why nothing: OUT/executables.txt.
EXE=${VK_EXECUTABLES:-./build/tests/unit/vk_executables}
[ -x "$EXE" ] && step -o "$OUT/executables.txt" executables 60 "$EXE" "$VK"
# One grid shape for every backend: 8 work-groups of 256 per SM (2048 resident threads per SM on sm_90).
gpu_vulkan_grid "$VK"

# 2. Every op verified, small and fast: fixed iterations, one sample per row.
step all-ops 100 $A rmw --device "$VK" --pattern all --op all,plain_add --type all --space all --result all \
  --scope device,block --contention 32 --padding 1 --wg-size $WG --workgroups $NGROUPS --iters 64 \
  --min-samples 1 --max-samples 1 -o "$OUT/vulkan-all-ops.json" --quiet

# 3. The grids, each backend in turn, short rows (5 ms launches, at most 0.3 s and 15 samples a row).
GRID="--pattern contiguous,cross-warp --op fetch_add --contention 1:$MAX --padding 1:$MAX --wg-size $WG
  --workgroups $NGROUPS --target-ms 5 --budget 0.3 --max-samples 15"
for b in vulkan cuda opencl; do
  case $b in vulkan) id=$VK ;; cuda) id=$CU ;; opencl) id=$CL ;; esac
  [ -z "$id" ] && { step_note "grid-$b: no $b GPU device, skipped"; continue; }
  step grid-$b 110 $A rmw --device "$id" $GRID -o "$OUT/grid-$b.json" --quiet
done

# 4. Compare (the grid shape is the same, so every field matches).
for pair in cuda:vulkan cuda:opencl opencl:vulkan; do
  a=${pair%%:*} b=${pair##*:}
  [ -f "$OUT/grid-$a.json" ] && [ -f "$OUT/grid-$b.json" ] &&
    step -o "$OUT/compare-$a-$b.txt" compare-$a-$b 30 $A compare "$OUT/grid-$a.json" "$OUT/grid-$b.json" --threshold 10
done
python3 - "$OUT" <<'PY' >"$OUT/summary.txt" 2>&1
import collections, os, sys, atl_json
o = sys.argv[1]
def load(name):
    p = os.path.join(o, name)
    return atl_json.load(p)["rows"] if os.path.exists(p) else []
ops = load("vulkan-all-ops.json")
c = collections.Counter((r["status"], bool(r["verified"])) for r in ops if r["op"] != "plain_add")
print("vulkan all ops:", dict(c))
bad = [r for r in ops if r["op"] != "plain_add" and not ((r["status"] == "ok" and r["verified"]) or r["status"] == "unsupported")]
for r in bad[:20]:
    print("  NOT VERIFIED:", r["pattern"], r["op"], r["type"], r["space"], r["result"], r["scope"], r["contention"], r["status"], r["reason"])
plain = [r for r in ops if r["op"] == "plain_add" and r["status"] == "ok"]
print("plain_add (32 threads a word, must lose updates) caught:", sum(1 for r in plain if not r["verified"]), "of", len(plain))
uns = collections.Counter(r["reason"] for r in ops if r["status"] == "unsupported")
for why, n in uns.most_common(8):
    print(f"  unsupported x{n}: {why}")
grids = {b: {(r["pattern"], r["contention"], r["padding"]): r for r in load(f"grid-{b}.json")} for b in ("cuda", "opencl", "vulkan")}
print("\ncross-API fetch_add (Gop/s; instructions of the first row of each backend)")
for b, g in grids.items():
    if g:
        r = next(iter(g.values()))
        print(f"  {b:7s} {len(g)} rows, {sum(1 for x in g.values() if x['status'] == 'ok' and x['verified'])} verified: {r.get('instructions', '')}")
print(f"  {'pattern':11s} {'c':>5s} {'p':>5s} " + " ".join(f"{b:>9s}" for b in grids) + "  vulkan/cuda")
for pat in ("contiguous", "cross-warp"):
    for c in (1, 2, 8, 32, 64, 1024):
        for p in (1, 2, 16, 1024):
            if not any((pat, c, p) in g for g in grids.values()):
                continue
            vals = [grids[b].get((pat, c, p), {}).get("gops", 0) or 0 for b in grids]
            ratio = vals[2] / vals[0] if vals[0] else 0
            print(f"  {pat:11s} {c:5d} {p:5d} " + " ".join(f"{v:9.3f}" for v in vals) + f"  {ratio:6.2f}x")
PY
[ -f "$OUT/executables.txt" ] && { echo; echo "executables (first lines):"; head -c 1500 "$OUT/executables.txt"; } >>"$OUT/summary.txt"

# 5. The shared-memory rows that do not verify, without atomlab: the reproducer on the same device (its index is
# the Vulkan physical-device index, as atomlab's vulkan:N), plain and with atomlab's pipeline capture flags; its
# pipeline-cache blobs searched for NVIDIA machine code; the same rows through CUDA.
REPRO=${REPRO:-./build/tests/vulkan/repro_shared_atomics}
if [ -x "$REPRO" ]; then
  step -o "$OUT/repro.txt" repro 60 "$REPRO" --device "${VK#vulkan:}" --cache-dir "$W"
  step -o "$OUT/repro-capture.txt" repro-capture 60 "$REPRO" --device "${VK#vulkan:}" --capture
  step -o "$OUT/repro-sass.txt" repro-sass 60 python3 scripts/vk-blob-sass.py "$OUT/repro-sass-detail.txt" \
    "$W"/shared-u64-xor-one-op.bin "$W"/shared-f32-add-one-op.bin "$W"/shared-u64-add-one-op.bin \
    "$W"/shared-u32-xor-one-op.bin "$W"/buffer-u64-xor-one-op.bin
  mkdir -p "$OUT/repro-pipelines"
  cp "$W"/shared-u64-xor-one-op.bin "$W"/shared-f32-add-one-op.bin "$W"/shared-u64-add-one-op.bin \
    "$OUT/repro-pipelines/" 2>/dev/null
else
  step_note "repro: $REPRO not built (no libvulkan to link at build time)"
fi
[ -n "$CU" ] && step cuda-local-ops 60 $A rmw --device "$CU" --pattern contiguous,cross-warp --op and,or,xor,fetch_add \
  --type u64,f32 --space local --result all --contention 32 --padding 1 --wg-size $WG --workgroups $NGROUPS --iters 64 \
  --min-samples 1 --max-samples 1 -o "$OUT/cuda-local-ops.json" --quiet
python3 - "$OUT" <<'PY' >>"$OUT/summary.txt" 2>&1
import os, sys, atl_json
o = sys.argv[1]
print("\nstandalone reproducer (repro.txt; repro-capture.txt with atomlab's capture flags):")
for name in ("repro.txt", "repro-capture.txt"):
    p = os.path.join(o, name)
    if not os.path.exists(p):
        print(f"  {name}: not run")
        continue
    lines = open(p).read().splitlines()
    print(f"  {name}: " + next((l for l in reversed(lines) if "cases run" in l or l.startswith("SKIP")), "no result line"))
    for l in lines:
        if " FAIL " in f" {l} ":
            print("    " + l[:200])
p = os.path.join(o, "cuda-local-ops.json")
if os.path.exists(p):
    rows = [r for r in atl_json.load(p)["rows"] if r["status"] == "ok"]
    print(f"CUDA, the same shared-memory rows: {sum(1 for r in rows if r['verified'])} of {len(rows)} verified")
PY
cat "$OUT/summary.txt"
for f in "$OUT"/compare-*.txt; do [ -f "$f" ] && { echo "== $f"; grep -E "^summary|^not the same|^warning" "$f"; }; done
exit ${STEP_FAILED:-0}
