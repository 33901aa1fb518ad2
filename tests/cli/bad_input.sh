#!/usr/bin/env bash
# Every kind of bad input: one line naming the parameter, exit 2, no file.
. "$(dirname "$0")/lib.sh"
need_opencl

R="rmw --iters 1 --min-samples 1 --max-samples 1"
# axis values: zero, negative, non-numeric, overflowing, backwards, empty
expect_usage_error "--contention" $R --contention 0
expect_usage_error "--contention" $R --contention -4
expect_usage_error "--contention" $R --contention abc
expect_usage_error "--repeat" $R --repeat 0
expect_usage_error "--repeat" $R --repeat 101
expect_usage_error "--rounds" $R --rounds 0
expect_usage_error "--rounds" $R --rounds 17
expect_usage_error "--repeat 5 x rounds 16" $R --repeat 5 --rounds 16
expect_usage_error "--placements" $R --placements 0
expect_usage_error "--placements" $R --placements 9
expect_usage_error "--placements 2 is not allowed: strategy" strategy --placements 2
expect_usage_error "--rotate needs placements of at least 2" $R --rotate
expect_usage_error "--rotate needs placements of at least 2" strategy --rotate
expect_usage_error "--grid" $R --grid fastest
expect_usage_error "--contention" $R --contention 99999999999999999999
expect_usage_error "--contention" $R --contention 8:1
expect_usage_error "--padding" $R --padding 0
expect_usage_error "--padding" $R --padding 1.5
expect_usage_error "--padding" $R --padding ""
expect_usage_error "--wg-size" $R --wg-size 0
expect_usage_error "--wg-size" $R --wg-size 1000000
expect_usage_error "--workgroups" $R --workgroups -1
# contention larger than the thread count (the library names the parameter, not the flag)
expect_usage_error "contention 64 exceeds" $R --wg-size 16 --workgroups 2 --contention 64
# an array larger than the max allocation of every device, whichever rmw picks (16384 threads, one u32 word
# each, spaced past it)
pad=$("$ATOMLAB" devices --format json | python3 -c 'import json, atl_json,sys; print(max(d["max_alloc_bytes"] for d in atl_json.load(sys.stdin)["devices"]) // 4 // 16384 + 1)')
if [ "$pad" -lt 262144 ]; then
  expect_usage_error "max allocation" $R --wg-size 256 --workgroups 64 --contention 1 --padding "$pad"
fi
# an array past 32-bit indices
expect_usage_error "padding 4000000 with contention 1" $R --wg-size 256 --workgroups 64 --contention 1 --padding 4000000
# unknown op, pattern, type, space, result, format, device, backend
expect_usage_error "--op" $R --op fetch_mul
expect_usage_error "--pattern" $R --pattern diagonal
expect_usage_error "--type" $R --type f64
expect_usage_error "--space" $R --space texture
expect_usage_error "--result" $R --result maybe
expect_usage_error "--format" $R --format xml
expect_usage_error "--device" $R --device opencl:99.99
expect_usage_error "--backend" $R --backend metal
# timing values
expect_usage_error "--target-ms" $R --target-ms -3
expect_usage_error "--noise" $R --noise x
# a type the device lacks (PoCL and NVIDIA OpenCL have no float atomic add)
if ! "$ATOMLAB" devices --format json | python3 -c 'import json, atl_json,sys; sys.exit(0 if any(d["f32_atomic_add"] for d in atl_json.load(sys.stdin)["devices"]) else 1)'; then
  expect_usage_error "--type f32" $R --type f32
fi
# an output folder that does not exist
"$ATOMLAB" $R -o "$WORK/nope/out.json" >/dev/null 2>"$WORK/e"
[ $? -eq 2 ] && grep -q -- "-o" "$WORK/e" && [ ! -e "$WORK/nope" ] && pass || fail "-o into a missing folder"
finish
