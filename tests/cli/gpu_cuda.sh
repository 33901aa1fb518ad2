#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and driver: the CUDA backend runs every op,
# type, space, result use, scope and order; every row verifies or is
# unsupported with a reason, and every measured row names the machine
# instructions behind it. Skipped (77) where CUDA is unavailable.
. "$(dirname "$0")/lib.sh"
need_cuda
# Short timings: this checks correctness and the recorded instructions, not speed.
Q="--target-ms 1 --min-samples 2 --max-samples 2 --budget 0.1"
"$ATOMLAB" rmw --backend cuda --pattern contiguous,random --op all --type all --space all --result used \
  --contention 32 --padding 1 $Q -o "$WORK/types.json" 2>"$WORK/err1"
[ $? -eq 0 ] && pass || fail "CUDA op x type sweep failed: $(tail -3 "$WORK/err1")"
"$ATOMLAB" rmw --backend cuda --pattern contiguous --op all --type u32,u64 --scope all --order all \
  --result used --contention 32 --padding 1 $Q -o "$WORK/scopes.json" 2>"$WORK/err2"
[ $? -eq 0 ] && pass || fail "CUDA scope x order sweep failed: $(tail -3 "$WORK/err2")"
python3 - "$WORK/types.json" "$WORK/scopes.json" <<'PY' && pass || fail "CUDA rows verified, unsupported ones explained, instructions recorded"
import json, atl_json, sys
for path in sys.argv[1:]:
    rows = atl_json.load(path)["rows"]
    bad = [r for r in rows if not ((r["status"] == "ok" and r["verified"]) or (r["status"] == "unsupported" and r["reason"]))]
    for r in bad[:10]:
        print("bad row:", r["pattern"], r["op"], r["type"], r["space"], r["scope"], r["order"], r["status"], r["reason"])
    assert not bad, path
    ok = [r for r in rows if r["status"] == "ok"]
    assert ok, path
    # the integer ops run everywhere on sm_90; the floats run fetch_add
    assert all(r["instructions"] and not r["instructions"].startswith("unknown") for r in ok), \
        [r["instructions"] for r in ok if not r["instructions"] or r["instructions"].startswith("unknown")][:3]
    print(path, len(ok), "verified,", len(rows) - len(ok), "unsupported")
PY
finish
