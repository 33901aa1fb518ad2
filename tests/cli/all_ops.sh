#!/usr/bin/env bash
# Real kernels on the OpenCL device for every pattern x op x type x space x
# result use: every row must verify exactly or be unsupported with a reason.
. "$(dirname "$0")/lib.sh"
need_opencl

"$ATOMLAB" rmw --pattern all --op all --type all --space all --result all --contention 1,7 --padding 3 \
  --wg-size 64 --workgroups 4 --iters 24 --min-samples 1 --max-samples 1 -o "$WORK/all.json" --quiet 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && pass || fail "sweep exited $rc: $(tail -3 "$WORK/err")"
python3 - "$WORK/all.json" <<'PY' && pass || fail "every row verified or unsupported"
import json, atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
# 4 patterns x 12 atomic ops x 7 types x 2 spaces x 2 result uses x 2 contentions
assert len(rows) == 4 * 12 * 7 * 2 * 2 * 2, len(rows)
bad = [r for r in rows if not ((r["status"] == "ok" and r["verified"]) or (r["status"] == "unsupported" and r["reason"]))]
for r in bad[:10]:
    print("bad row:", r["pattern"], r["op"], r["type"], r["space"], r["result"], r["status"], r["reason"])
assert not bad
ok = [r for r in rows if r["status"] == "ok"]
# every integer op ran on u32 and i32 everywhere
assert len([r for r in ok if r["type"] in ("u32", "i32")]) == 4 * 12 * 2 * 2 * 2 * 2
print(len(ok), "verified rows,", len(rows) - len(ok), "unsupported")
PY
finish
