#!/usr/bin/env bash
# The verifier must catch the lost updates of a non-atomic load-add-store.
. "$(dirname "$0")/lib.sh"
need_opencl

# 512 threads per word: plain_add loads in every thread of a work-group, then
# stores in every thread (docs/design/method.md), so all but one update per word and
# group are lost, deterministically. fetch_add in the same run must verify.
"$ATOMLAB" rmw --op plain_add,fetch_add --contention 512 --padding 1 --wg-size 256 --workgroups 2 \
  --iters 2000 --min-samples 1 --max-samples 1 -o "$WORK/p.json" --quiet 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && pass || fail "plain_add rows must not fail the run (exit $rc): $(cat "$WORK/err")"
python3 - "$WORK/p.json" <<'PY' && pass || fail "plain_add caught, fetch_add verified"
import json, atl_json, sys
rows = {r["op"]: r for r in atl_json.load(sys.argv[1])["rows"]}
p, a = rows["plain_add"], rows["fetch_add"]
assert p["status"] == "ok" and p["verified"] is False and p["wrong_words"] > 0, p
assert "verification failed" in p["reason"]
assert a["verified"] is True and a["wrong_words"] == 0, a
print("plain_add: %s" % p["reason"])
PY
finish
