#!/usr/bin/env bash
# Scatter-add on an NVIDIA GPU (issue [scatter]): `atomlab app scatter` at the issue's shape (f32, D = 64,
# E = 8 M rows, V = 1 M targets, every distribution, every variant, the copy ceiling), PyTorch's
# index_add_ / scatter_add_ / deterministic index_add_ on the same inputs (scripts/peer-torch-scatter.py),
# and D = 1 with u32 weights (a weighted bincount) at 2^20 and 2^24 bins. Writes OUT/scatter.json,
# OUT/torch.json, OUT/bincount.json and OUT/summary.txt. About 3-4 minutes on an H100.
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-scatter
A=${ATOMLAB:-./build/atomlab}
E=${ROWS:-8388608} D=${DIM:-64} V=${TARGETS:-1048576}
{ date -u +%FT%TZ; $SMI; $A version; python3 -c 'import torch; print("torch", torch.__version__)'; } >"$OUT/info.txt" 2>&1
STEP_LOG=$OUT/info.txt STEP_STATUS=$OUT/info.txt
step scatter 240 $A app scatter --backend cuda --rows $E --dim $D --targets $V --dump "$W/d" -o "$OUT/scatter.json" --quiet
step torch 240 python3 scripts/peer-torch-scatter.py "$W/d" --rows $E --dim $D --targets $V -o "$OUT/torch.json"
rm -rf "$W/d"
step bincount 120 $A app scatter --backend cuda --type u32 --dim 1 --rows 67108864 --targets 1048576 \
  --variants atomic,run,block -o "$OUT/bincount-2e20.json" --quiet
step bincount24 120 $A app scatter --backend cuda --type u32 --dim 1 --rows 67108864 --targets 16777216 \
  --variants atomic,run,block -o "$OUT/bincount-2e24.json" --quiet
python3 - "$OUT" <<'PY' >"$OUT/summary.txt" 2>&1
import json, os, sys, atl_json
o = sys.argv[1]
def rows(name):
    p = os.path.join(o, name)
    return atl_json.load(p)["rows"] if os.path.exists(p) else []
ours = rows("scatter.json")
torch = json.load(open(os.path.join(o, "torch.json")))["results"] if os.path.exists(os.path.join(o, "torch.json")) else []
print("atomlab scatter (GB/s of the fewest bytes, ratio to the copy ceiling, verified)")
for r in ours:
    print(f"  {r['variant']:28s} {r['time_ms']['median']:9.3f} ms {r.get('gbps', 0):8.1f} GB/s "
          f"{r.get('ratio_to_ceiling', 0):6.3f}x  {'ok' if r['verified'] else 'NOT VERIFIED'}")
print("PyTorch on the same inputs (ms; speedup of atomlab's fastest variant)")
for t in torch:
    best = min((r["time_ms"]["median"] for r in ours if r["verified"] and r["variant"].split("/")[1] == t["dist"]
                and not r["variant"].endswith("ceiling")), default=0)
    print(f"  {t['dist']:10s} {t['op']:28s} {t['median_ms']:10.3f} ms  atomlab {best:8.3f} ms  "
          f"{t['median_ms'] / best if best else 0:7.2f}x  agrees: {t['agrees']}")
for name in ("bincount-2e20.json", "bincount-2e24.json"):
    for r in rows(name):
        print(f"  {name[:-5]} {r['variant']:24s} {r['time_ms']['median']:9.3f} ms {r.get('gbps', 0):8.1f} GB/s "
              f"{r.get('ratio_to_ceiling', 0):6.3f}x  {'ok' if r['verified'] else 'NOT VERIFIED'}")
PY
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
