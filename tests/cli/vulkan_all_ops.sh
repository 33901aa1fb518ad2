#!/usr/bin/env bash
# Real SPIR-V kernels on the Vulkan device (lavapipe in CI) for every pattern x op x type x space x result
# use, and the workgroup scope: every row must verify exactly or be unsupported with a reason; u32, i32 and
# u64 run every op; plain_add (the deliberately non-atomic control) must be caught by the verifier.
. "$(dirname "$0")/lib.sh"
need_vulkan

"$ATOMLAB" rmw --backend vulkan --pattern all --op all --type all --space all --result all --contention 1,7 \
  --padding 3 --wg-size 32 --workgroups 4 --iters 16 --min-samples 1 --max-samples 1 -o "$WORK/all.json" --quiet \
  2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && pass || fail "sweep exited $rc: $(tail -3 "$WORK/err")"
# The workgroup scope, and the non-atomic control (plain_add, caught in both spaces).
"$ATOMLAB" rmw --backend vulkan --pattern contiguous,random --op all --type u32,u64 --scope block \
  --space all --contention 7 --padding 3 --wg-size 32 --workgroups 4 --iters 16 --min-samples 1 --max-samples 1 \
  -o "$WORK/block.json" --quiet 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && pass || fail "block-scope sweep exited $rc: $(tail -3 "$WORK/err")"
"$ATOMLAB" rmw --backend vulkan --op plain_add,fetch_add --space all --contention 64 --padding 1 --wg-size 64 \
  --workgroups 2 --iters 200 --min-samples 1 --max-samples 1 -o "$WORK/plain.json" --quiet 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && pass || fail "plain_add rows must not fail the run (exit $rc): $(cat "$WORK/err")"
python3 - "$WORK/all.json" "$WORK/block.json" "$WORK/plain.json" <<'PY' && pass || fail "every row verified or unsupported"
import atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
# 4 patterns x 12 atomic ops x 7 types x 2 spaces x 2 result uses x 2 contentions
assert len(rows) == 4 * 12 * 7 * 2 * 2 * 2, len(rows)
def bad(rows):
    return [r for r in rows if not ((r["status"] == "ok" and r["verified"]) or (r["status"] == "unsupported" and r["reason"]))]
for r in bad(rows)[:10]:
    print("bad row:", r["pattern"], r["op"], r["type"], r["space"], r["result"], r["status"], r["reason"])
assert not bad(rows)
ok = [r for r in rows if r["status"] == "ok"]
# every op ran on u32, i32 and u64 everywhere (lavapipe has 64-bit buffer and shared atomics)
assert len([r for r in ok if r["type"] in ("u32", "i32", "u64")]) == 3 * 4 * 12 * 2 * 2 * 2, len(ok)
# the instructions come from the SPIR-V: the op's atomic, on the space the row names
for r in ok:
    space = "buffer" if r["space"] == "global" else "shared"
    assert r.get("instructions", "").startswith("OpAtomic") and ("." + space + ".Device") in r.get("instructions", ""), r
add = [r for r in ok if r["op"] == "fetch_add" and r["type"] == "u32"][0]
assert add.get("instructions", "").startswith("OpAtomicIAdd."), add.get("instructions", "")
f32 = [r for r in ok if r["type"] == "f32"]
assert not f32 or all(r.get("instructions", "").startswith("OpAtomicFAddEXT.") for r in f32)
block = atl_json.load(sys.argv[2])["rows"]
assert len(block) == 2 * 12 * 2 * 2, len(block)
assert not bad(block) and all(r["status"] == "ok" for r in block), [r["reason"] for r in bad(block)][:3]
assert all(".Workgroup x" in r.get("instructions", "") for r in block), block[0].get("instructions")
plain = atl_json.load(sys.argv[3])["rows"]
for r in plain:
    if r["op"] == "plain_add":
        assert r["status"] == "ok" and r["verified"] is False and r["wrong_words"] > 0, r
        assert "verification failed" in r["reason"] and r.get("instructions", "") == "", r
    else:
        assert r["verified"] is True, r
print(len(ok), "verified rows,", len(rows) - len(ok), "unsupported;", len(block), "block-scope rows verified")
PY
# A scope Vulkan has no shader atomic for is unsupported with the reason, not a failure.
"$ATOMLAB" rmw --backend vulkan --scope system --contention 1 --padding 1 --wg-size 32 --workgroups 2 --iters 4 \
  --min-samples 1 --max-samples 1 -o "$WORK/sys.json" --quiet 2>"$WORK/err"
python3 - "$WORK/sys.json" <<'PY' && pass || fail "system scope unsupported with the reason"
import atl_json, sys
r = atl_json.load(sys.argv[1])["rows"][0]
assert r["status"] == "unsupported" and "system scope" in r["reason"], r
PY
finish
