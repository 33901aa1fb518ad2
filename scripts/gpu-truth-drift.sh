#!/usr/bin/env bash
# Where does the spread between --repeat passes come from (issue [truth])? Twelve cells around those that moved most
# between the passes of the committed H100 grid (results/nvidia-h100/truth/grid-repeat3.json), measured
#   inproc:  one process, --repeat 8 (passes about half a second apart, one allocation);
#   procs:   8 processes one after the other, --repeat 1 each (a new context and allocation each time);
#   grown:   one process, --repeat 8, after a 1.1 GB cell has grown the array slot as in the full grid.
# Everything under OUT (default out/gpu-truth-drift); summary.txt has each cell's spread per experiment.
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-truth-drift
CU=${DEVICE:-$(gpu_device_id cuda gpu)}
COMMON="--device $CU ${TIMING:---target-ms 10 --budget 0.3} --quiet"
cells() { # the six cells as two sweeps (fetch_add and cas share the pattern)
  "$A" rmw $COMMON --pattern contiguous --op fetch_add,cas --contention 8,64,512 --padding 2,16 "$@"
}
{ date -u +%FT%TZ; $SMI; $A version; } >"$OUT/info.txt" 2>&1
cells --repeat 8 -o "$OUT/inproc.json"
for i in 1 2 3 4 5 6 7 8; do
  cells -o "$OUT/proc-$i.json"
done
"$A" rmw $COMMON --pattern contiguous --op fetch_add --contention 1,8,64,512 --padding 1024,2,16 --repeat 8 \
  -o "$OUT/grown.json"
python3 - "$OUT" <<'PY' >"$OUT/summary.txt"
import glob, json, statistics, sys
out = sys.argv[1]
def rows(f):
    for r in json.load(open(f))["rows"]:
        c = r["config"]
        m = {x["name"]: x["value"] for x in r["metrics"]}
        yield (c["op"], c["contention"], c["padding"]), m
inproc = dict(rows(f"{out}/inproc.json"))
grown = dict(rows(f"{out}/grown.json"))
procs = {}
for f in sorted(glob.glob(f"{out}/proc-*.json")):
    for k, m in rows(f):
        procs.setdefault(k, []).append(m["gops"])
print("cell (op, contention, padding): Gop/s median; spread = (max - min) / median")
print(f"{'cell':<24}{'inproc':>10}{'spread':>8}{'procs':>10}{'spread':>8}{'grown':>10}{'spread':>8}")
for k in sorted(inproc):
    p = procs.get(k, [])
    pm = statistics.median(p) if p else float("nan")
    ps = (max(p) - min(p)) / pm if p else float("nan")
    g = grown.get(k, {})
    print(f"{str(k):<24}{inproc[k]['gops']:>10.2f}{inproc[k].get('repeat_spread', 0):>8.3f}{pm:>10.2f}{ps:>8.3f}"
          f"{g.get('gops', float('nan')):>10.2f}{g.get('repeat_spread', float('nan')):>8.3f}")
    print("   procs:", " ".join(f"{x:.2f}" for x in p))
PY
cat "$OUT/summary.txt"
