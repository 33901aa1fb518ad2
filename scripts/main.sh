#!/usr/bin/env bash
# The main job: install what is missing, build, and run the default
# characterization on the best device present (PoCL on a CPU-only machine).
# Results go to out/<device>/; extra arguments go to `atomlab rmw`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
bash scripts/build.sh
./build/atomlab devices
slug=$(./build/atomlab devices --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)["devices"]
rank = {"gpu": 3, "accel": 2, "cpu": 1}
best = max(d, key=lambda x: (rank.get(x["type"], 0), x["compute_units"]))
print(best["slug"])')
mkdir -p "out/$slug"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
json="out/$slug/rmw-$stamp.json"
csv="out/$slug/rmw-$stamp.csv"
./build/atomlab rmw --pattern all --op fetch_add,cas --contention 1:64:x4 --padding 1,16 -o "$json" -o "$csv" "$@"
for op in fetch_add cas; do
  bash scripts/plot-heatmap.sh "$csv" "out/$slug/plots-$stamp" "$op" "$slug" >/dev/null || true
done
python3 - "$json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
ok = [r for r in rows if r["status"] == "ok" and r["verified"]]
best = max(ok, key=lambda r: r["gops"]) if ok else None
print("\natomlab: %d of %d rows verified on %s" % (len(ok), len(rows), d["device"]["name"]))
if best:
    print("atomlab: fastest: %s %s contention %d padding %d at %.3f Gop/s" % (
        best["pattern"], best["op"], best["contention"], best["padding"], best["gops"]))
print("atomlab: results in %s (and .csv); heatmaps in %s" % (sys.argv[1], sys.argv[1].replace("rmw-", "plots-").replace(".json", "/")))
PY
