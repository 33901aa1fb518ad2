#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: the OpenCL NVIDIA platform runs the sweep
# and every row verifies. Skipped (77) where no GPU OpenCL device exists.
. "$(dirname "$0")/lib.sh"
gpu=$("$ATOMLAB" devices --format json 2>/dev/null | python3 -c '
import json, atl_json, sys
d = atl_json.load(sys.stdin)["devices"]
g = [x["id"] for x in d if x["type"] == "gpu"]
print(g[0] if g else "")' 2>/dev/null)
if [ -z "$gpu" ]; then
  echo "no GPU OpenCL device: skipped"
  exit 77
fi
"$ATOMLAB" rmw --device "$gpu" --pattern contiguous,random --op all --type all --space all --result used \
  --contention 32 --padding 1 --target-ms 1 --min-samples 2 --max-samples 2 --budget 0.1 -o "$WORK/gpu.json" \
  2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "GPU sweep failed: $(tail -3 "$WORK/err")"
python3 - "$WORK/gpu.json" <<'PY' && pass || fail "GPU rows verified or unsupported"
import json, atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
bad = [r for r in rows if not ((r["status"] == "ok" and r["verified"]) or r["status"] == "unsupported")]
for r in bad[:10]:
    print("bad row:", r["pattern"], r["op"], r["type"], r["space"], r["status"], r["reason"])
assert not bad and rows
PY
finish
