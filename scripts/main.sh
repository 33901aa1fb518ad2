#!/usr/bin/env bash
# The main job: install what is missing, build, and write the default report
# (`atomlab report`) for the best device present (PoCL on a CPU-only machine).
# The report goes to out/<device>/report-<date>/; extra arguments go to
# `atomlab report` (e.g. --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD/scripts${PYTHONPATH:+:$PYTHONPATH}" # atl_json.py reads result rows
bash scripts/setup-deps.sh
bash scripts/build.sh
./build/atomlab devices
read -r id slug < <(./build/atomlab devices --format json | python3 -c '
import json, atl_json, sys
d = json.load(sys.stdin)["devices"]
rank = {"gpu": 3, "accel": 2, "cpu": 1}
best = max(d, key=lambda x: (rank.get(x["type"], 0), x["compute_units"]))
print(best["id"], best["slug"])')
mkdir -p "out/$slug"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
dir="out/$slug/report-$stamp"
rc=0
./build/atomlab report --device "$id" -o "$dir" "$@" || rc=$?
[ -s "$dir/data/rmw.json" ] || exit $((rc ? rc : 1))
python3 - "$dir" <<'PY'
import json, atl_json, os, sys
d = sys.argv[1]
rmw = atl_json.load(os.path.join(d, "data/rmw.json"))
rows = rmw["rows"]
ok = [r for r in rows if r["status"] == "ok" and r["verified"]]
best = max(ok, key=lambda r: r["gops"]) if ok else None
print("\natomlab: %d of %d rows verified on %s" % (len(ok), len(rows), rmw["device"]["name"]))
if best:
    print("atomlab: fastest: %s %s contention %d padding %d at %.3f Gop/s" % (
        best["pattern"], best["op"], best["contention"], best["padding"], best["gops"]))
try:
    for w in (r for r in atl_json.load(os.path.join(d, "data/strategy.json"))["rows"] if r.get("winner")):
        print("atomlab: strategy winner on %s: %s at %.3f Gop/s (%.2fx the runner-up)" % (
            w["pattern"], w["strategy"], w["gops"], w["margin"]))
except (OSError, ValueError, KeyError):
    print("atomlab: no strategy results (see %s/data/strategy.log)" % d)
print("atomlab: report in %s/report.md and %s/report.html; data in %s/data/" % (d, d, d))
PY
exit $rc
