#!/usr/bin/env bash
# ATL_VULKAN_ITERS (docs/design/vulkan.md): where rmw.comp's loop count comes from. On lavapipe every form must verify the
# rows NVIDIA's driver got wrong with the default (u64 and/or/xor, f32 add in shared memory, contiguous and
# cross-warp) and their global-memory twins, the row must say which form ran, and a bad value is a usage error.
# A form that lost the count (push constant not set, 0 iterations) leaves the words at their start: not verified.
. "$(dirname "$0")/lib.sh"
need_vulkan

for form in buffer push subgroup; do
  ATL_VULKAN_ITERS=$form "$ATOMLAB" rmw --backend vulkan --pattern contiguous,cross-warp --op and,or,xor,fetch_add \
    --type u64,f32 --space all --result all --contention 32 --padding 1 --wg-size 64 --workgroups 4 --iters 16 \
    --min-samples 1 --max-samples 1 -o "$WORK/$form.json" --quiet 2>"$WORK/err"
  rc=$?
  [ $rc -eq 0 ] && pass || fail "$form: exited $rc: $(tail -3 "$WORK/err")"
  python3 - "$WORK/$form.json" "$form" <<'PY' && pass || fail "$form: every row verified, the form named"
import atl_json, sys
rows, form = atl_json.load(sys.argv[1])["rows"], sys.argv[2]
ok = [r for r in rows if r["status"] == "ok"]
# u64: 4 ops; f32: fetch_add; x 2 patterns x 2 spaces x 2 result uses
assert len(ok) == 5 * 2 * 2 * 2, len(ok)
assert all(r["verified"] for r in ok), [(r["op"], r["type"], r["space"], r["reason"]) for r in ok if not r["verified"]][:3]
note = {"buffer": "(loop count: storage buffer)", "push": None, "subgroup": "(loop count: buffer, broadcast)"}[form]
for r in ok:
    ins = r.get("instructions", "")
    assert ins.startswith("OpAtomic"), ins
    assert (note in ins) if note else ("loop count" not in ins), ins
PY
done
ATL_VULKAN_ITERS=bogus "$ATOMLAB" rmw --backend vulkan --contention 1 --padding 1 --wg-size 32 --workgroups 2 \
  --iters 4 -o "$WORK/bad.json" --quiet 2>"$WORK/err"
rc=$?
[ $rc -eq 2 ] && grep -q "ATL_VULKAN_ITERS='bogus' is not allowed: buffer, push or subgroup" "$WORK/err" && pass ||
  fail "a bad ATL_VULKAN_ITERS must be a usage error naming it (exit $rc: $(cat "$WORK/err"))"
finish
