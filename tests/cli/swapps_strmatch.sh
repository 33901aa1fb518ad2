#!/usr/bin/env bash
# Seed 000's string match on PoCL: the four default keywords in the first
# 4 MiB of the GCIDE dictionary (Debian package dict-gcide), counted with
# system, warp and software atomics, must equal Python's own count of the
# same text. Skipped (77) only where the dictionary is not installed.
. "$(dirname "$0")/lib.sh"
need_opencl
DICT=/usr/share/dictd/gcide.dict.dz
if [ ! -r "$DICT" ]; then
  echo "$DICT missing (Debian package dict-gcide): skipped"
  exit 77
fi
export ATL_SW_ASSUME_CORESIDENT=2
if timeout 240 "$ATOMLAB" app swapps --backend opencl --apps strmatch --samples 1 --wg-size 64 --quiet \
  -o "$WORK/s.json" >"$WORK/s.out" 2>&1 && python3 - "$WORK/s.json" "$DICT" <<'PY' >"$WORK/s.chk" 2>&1; then
import gzip, json, sys, atl_json
rows = atl_json.load(sys.argv[1])["rows"]
text = gzip.open(sys.argv[2]).read(4194304)
keys = [b"gravity", b"water", b"which", b"the"]
want = []
for k in keys: # a keyword at every position (none of these overlaps itself)
    want.append(text.count(k))
assert want == [15, 410, 2563, 23802], want  # the counts docs/design/software-atomics.md quotes
assert sorted(r["variant"] for r in rows) == ["software", "system", "warp"], rows
for r in rows:
    assert r["status"] == "ok" and r["verified"], (r["variant"], r["reason"])
    got = [r["metrics"]["count%d" % i] for i in range(4)]
    assert got == want, (r["variant"], got, want)
    assert r["metrics"]["bytes"] == 4194304
PY
  pass
else
  fail "strmatch: $(tail -3 "$WORK/s.out") $(tail -3 "$WORK/s.chk")"
fi
finish
