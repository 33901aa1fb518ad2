#!/usr/bin/env bash
# The Vulkan backend as a user sees it: `atomlab devices` lists the Vulkan device (lavapipe in CI) with its
# API facts, --backend vulkan picks it, ATL_BACKENDS leaves it out, a machine without a Vulkan driver says so
# and still runs, unknown backend names are usage errors, and `atomlab report --backend vulkan --quick`
# completes with the strategies and apps unsupported (with the reason).
. "$(dirname "$0")/lib.sh"
need_vulkan

"$ATOMLAB" devices >"$WORK/dev" 2>&1
grep -q "vulkan:0 .*llvmpipe\|vulkan:0 " "$WORK/dev" && pass || fail "devices does not list vulkan:0: $(cat "$WORK/dev")"
grep -q "conformance [0-9]*\.[0-9]*\.[0-9]*\.[0-9]*, subgroup [0-9]*" "$WORK/dev" && pass ||
  fail "devices lacks the Vulkan facts line: $(cat "$WORK/dev")"
"$ATOMLAB" devices --format json >"$WORK/dev.json"
python3 - "$WORK/dev.json" <<'PY' && pass || fail "devices --format json: the Vulkan device and its features"
import json, sys
devs = [d for d in json.load(open(sys.argv[1]))["devices"] if d["backend"] == "vulkan"]
assert devs, "no vulkan device"
d = devs[0]
assert d["platform"].startswith("Vulkan ") and d["version"].startswith("Vulkan 1."), d
assert "int64 atomics" in d["features"] and "f32 add" in d["features"], d["features"]
assert d["max_wg_size"] > 0 and d["local_mem_bytes"] > 0 and d["max_alloc_bytes"] > 0, d
PY
# lavapipe names itself llvmpipe; the row says so
grep -q "llvmpipe" "$WORK/dev" && pass || fail "lavapipe (llvmpipe) not listed: $(cat "$WORK/dev")"
# ATL_BACKENDS=opencl leaves Vulkan out
ATL_BACKENDS=opencl "$ATOMLAB" devices >"$WORK/dev2" 2>&1
! grep -q "vulkan:" "$WORK/dev2" && pass || fail "ATL_BACKENDS=opencl still lists vulkan"
# No Vulkan driver: the loader finds no ICD; the binary runs on and says why
VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json "$ATOMLAB" devices >"$WORK/dev3" 2>&1
rc=$?
grep -q "vulkan: Vulkan is unavailable" "$WORK/dev3" && pass || fail "no note about the missing Vulkan driver: $(cat "$WORK/dev3")"
VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json "$ATOMLAB" rmw --backend vulkan \
  --contention 1 --padding 1 >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -ne 0 ] && grep -qi "vulkan" "$WORK/err" && pass || fail "rmw --backend vulkan without a driver: exit $rc, $(cat "$WORK/err")"
# Unknown backends stay usage errors
expect_usage_error "--backend" rmw --backend metal
# One measured row through the CLI table, with its SPIR-V instruction
"$ATOMLAB" rmw --backend vulkan --contention 4 --padding 1 --wg-size 32 --workgroups 2 --iters 8 --min-samples 1 \
  --max-samples 1 >"$WORK/t" 2>&1
grep -q "yes .*ok \[OpAtomicIAdd.buffer.Device x1\]" "$WORK/t" && pass || fail "rmw table row: $(cat "$WORK/t")"
# The report on the Vulkan device: rmw rows verified, strategies and apps unsupported, exit 0
"$ATOMLAB" report --backend vulkan --quick -o "$WORK/rep" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && pass || fail "report --backend vulkan exited $rc: $(cat "$WORK/err")"
grep -q "16 of 16 rows verified" "$WORK/out" && pass || fail "report summary: $(cat "$WORK/out")"
python3 - "$WORK/rep/data/strategy.json" "$WORK/rep/data/histogram.json" <<'PY' && pass || fail "report strategies/apps unsupported with a reason"
import atl_json, sys
for path in sys.argv[1:]:
    rows = atl_json.load(path)["rows"]
    assert rows and all(r["status"] == "unsupported" and r["reason"] for r in rows), [(r["status"], r["reason"]) for r in rows if r["status"] != "unsupported"][:3]
PY
finish
