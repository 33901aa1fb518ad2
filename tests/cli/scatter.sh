#!/usr/bin/env bash
# app scatter on the CPU (PoCL): every distribution and variant (bins and dsm at dim 1, dsm's 16-bit counters
# carrying and wrapping at 3 bins of 20000 rows, over 10 launches at 37 bins, negative i32 weights, its key
# cache, the bins past its table added to the output in its one launch, its 32-bit counters; part at
# 1, 3, 11 and 500 ranges of keys, and bucketed at 3, 7 and 499; the sweep, every range in one launch, over 11
# ranges of 20 chunks and 500 ranges, with i64 keys; --part-add bulk, which falls back to red there), f32,
# bf16 and f16 (against the float64 sum within the summation bound; odd dims: 16-bit pairs that straddle words) and u32 / i32 (exact), i32 and i64 keys, each row verified, the two
# yardsticks first; the check can fail (a skewed reference is caught); det is bit-identical on every grid and
# work-group size; --dump writes the arrays a peer loads; bad input is refused before anything.
. "$(dirname "$0")/lib.sh"
need_opencl
S="app scatter --rows 3000 --targets 500 --samples 2"
cat >"$WORK/check.py" <<'PY'
import atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
spec = sys.argv[2].split()
nvar = len(spec[spec.index("--variants") + 1].split(",")) if "--variants" in spec else 13
assert len(rows) == 2 + (2 if "--dist" in sys.argv[2] else 5) * nvar, len(rows)
assert rows[0]["variant"].endswith("/memcpy-ceiling") and rows[1]["variant"].endswith("/read-ceiling"), rows[:2]
dim1 = "--dim 1 " in sys.argv[2] + " "
for r in rows:
    if r["variant"].endswith("/vector"):  # sm_90's vector reduction: unsupported on a CPU, and says why
        assert r["status"] == "unsupported" and "red.global.add.v4.f32" in r["reason"], r
        continue
    if r["variant"].endswith("/tma"):  # PyTorch's sm_90 method: CUDA sm_90 only, and says why
        assert r["status"] == "unsupported" and "cp.reduce.async.bulk" in r["reason"], r
        continue
    if r["variant"].endswith("/cub"):  # the CUB baseline: CUDA only, and says so
        assert r["status"] == "unsupported" and ("CUDA" in r["reason"] or "dim 64" in r["reason"]), r
        continue
    if (r["variant"].endswith("/bins") and not dim1) or \
            (r["variant"].endswith("/dsm") and not (dim1 and r["variant"].startswith(("u32", "i32")))):
        assert r["status"] == "unsupported" and "dim 1 only" in r["reason"], r  # the bincount's variants say so
        continue
    assert r["status"] == "ok" and r["verified"], (r["variant"], r["reason"])
    if r["variant"].endswith("/auto"):  # auto names what it ran, never det; bins only at dim 1
        assert r["reason"].startswith("auto ran ") and "det" not in r["reason"].split()[2], r["reason"]
        assert dim1 or "auto ran bins" not in r["reason"], r["reason"]
    if r["variant"].endswith(("/part", "/sweep")):  # ranges of keys: as many as asked, else the output / (L2 / 2)
        out = r["targets"] * r["dim"] * (2 if r["variant"].startswith(("bf16", "f16")) else 4)
        half = int(r["l2_bytes"]) * 2 // 5 if r["variant"].endswith("/sweep") else int(r["l2_bytes"]) // 2
        want = int(sys.argv[2].split("--partitions ")[1].split()[0]) if "--partitions" in sys.argv[2] else \
            min(-(-out // half), r["targets"]) if half else 1
        assert r["partitions"] == want, (r["partitions"], want)
        sweep = r["variant"].endswith("/sweep")  # one launch for all ranges; never bucketed
        assert r["part_sweep"] == sweep, r["part_sweep"]
        assert r["part_narrow"] == 0, r  # the sweep's narrowing of i64 keys is the CUDA path's
        assert r["part_bucketed"] == ("--part-keys bucket" in sys.argv[2] and want <= 1024 and not sweep), r
        assert r["part_bulk"] == 0, r  # the bulk reductions are CUDA sm_90's: red here
    if not r["variant"].endswith("-ceiling"):  # every ratio against both yardsticks, with the bytes it counts
        assert r["gbps"] > 0 and r["ratio_to_memcpy"] > 0 and r["ratio_to_read"] > 0 and r["bytes_moved"] > 0, r
PY
scatter_specs 300 "$WORK/check.py" "scatter" "--type f32 --dim 64" "--type u32 --dim 1" "--type f32 --dim 33 --rows-per-warp 7" "--type u32 --dim 512 --rows 300" \
  "--type i32 --dim 3 --index i64 --dist zipf,hot" "--type bf16 --dim 33 --dist uniform,clustered" \
  "--type f16 --dim 2 --index i64 --dist zipf,sorted" "--type bf16 --dim 1 --bin-rows 700 --wg-size 64" \
  "--type f32 --dim 1 --index i64 --dist zipf,hot --bin-rows 1000" "--type f32 --dim 64 --partitions 3" \
  "--type u32 --dim 5 --index i64 --partitions 500" "--type f16 --dim 7 --partitions 11 --dist zipf,hot" \
  "--type f32 --dim 64 --partitions 3 --part-keys bucket --part-batch 4 --part-prefetch none" \
  "--type i32 --dim 5 --index i64 --partitions 499 --part-keys bucket --dist zipf,hot" \
  "--type bf16 --dim 33 --partitions 7 --part-keys bucket --dist uniform,sorted" \
  "--type f32 --dim 64 --rows 20000 --wg-size 64 --partitions 11 --part-add bulk --variants part,sweep,auto" \
  "--type bf16 --dim 5 --index i64 --partitions 500 --part-keys bucket --part-chunk 3 --variants sweep" \
  "--type f32 --dim 64 --index i64 --rows 20000 --wg-size 64 --partitions 11 --variants sweep,part" \
  "--type u32 --dim 1 --rows 20000 --targets 3 --dsm-words 2 --dsm-counters 16 --dsm-beyond launch --variants dsm,atomic" \
  "--type i32 --dim 1 --index i64 --rows 20000 --targets 37 --dsm-words 2 --dsm-counters 16 --dsm-beyond launch --variants dsm" \
  "--type u32 --dim 1 --rows 20000 --targets 37 --dsm-words 4 --dsm-cache 8 --dsm-counters 16 --dsm-beyond launch --variants dsm" \
  "--type i32 --dim 1 --rows 20000 --targets 37 --dsm-words 2 --dsm-counters 16 --variants dsm,atomic" \
  "--type u32 --dim 1 --index i64 --rows 20000 --targets 37 --dsm-words 4 --dsm-counters 32 --variants dsm" \
  "--type i32 --dim 1 --rows 20000 --targets 500 --dsm-words 64 --dsm-counters 32 --dsm-beyond global --variants dsm"
# det: bit-identical output on 5 grids and work-group sizes (the hash of the output bytes), every row within
# the bound and equal bit for bit to the host's emulation of its fixed order; 20000 rows: 5 chunks, 20 tiles.
scatter_det_grids det 300 "--groups 1" "--groups 3 --wg-size 64" "--groups 0 --wg-size 32" "--groups 7 --wg-size 128" \
  "--groups 1000" -- $(without_given "$S" --rows) --rows 20000 --dim 5
# Past one group of 64 tiles (300000 rows: 293 tiles, 5 groups; the hot row and the zipf head cross groups, which
# det_group and det_combine sum), on a work-group size that is not a power of two too (the counts' scans). A
# det_group that adds a key's first group to the output as if the key ended there differs from the emulation in 6
# of the hot row's 8 columns.
scatter_det_grids "det groups" 300 "--groups 1" "--groups 0 --wg-size 32" "--groups 5 --wg-size 96" \
  -- $(without_given "$S" "--rows --targets") --rows 300000 --targets 3000 --dim 8
# The bit-for-bit check can fail: an emulation without the tile cuts differs on one hot row of 20000 rows.
ATL_SCATTER_SKEW_DET_ORDER=1 timeout 300 "$ATOMLAB" $(without_given "$S" --rows) --rows 20000 --dist hot --variants det -o "$WORK/bad.json" \
  --quiet 2>/dev/null
rc=$?
[ $rc -eq 1 ] && python3 -c '
import atl_json, sys
r = atl_json.load(sys.argv[1])["rows"][2]
assert not r["verified"] and "fixed order" in r["reason"], r' "$WORK/bad.json" && pass ||
  fail "a skewed det order was not caught (exit $rc)"
# The check can fail: a reference off by one in one element makes every scatter row unverified, exit 1.
ATL_SCATTER_SKEW_REFERENCE=1 timeout 300 "$ATOMLAB" $S --dist hot --variants atomic -o "$WORK/bad.json" --quiet 2>/dev/null
rc=$?
[ $rc -eq 1 ] && python3 -c '
import atl_json, sys
r = atl_json.load(sys.argv[1])["rows"][2]
assert not r["verified"] and r["wrong_words"] == 1 and "out[0][0]" in r["reason"], r' "$WORK/bad.json" && pass ||
  fail "a skewed reference was not caught (exit $rc)"
# --dump: the arrays a peer loads, of the right sizes.
"$ATOMLAB" $S --dist hot,uniform --variants atomic --dim 8 --dump "$WORK/d" -o "$WORK/d.json" --quiet 2>"$WORK/err" &&
  [ "$(stat -c %s "$WORK/d/src-f32.bin")" -eq $((3000 * 8 * 4)) ] &&
  [ "$(stat -c %s "$WORK/d/idx-hot.bin")" -eq $((3000 * 4)) ] &&
  [ "$(stat -c %s "$WORK/d/out-uniform.bin")" -eq $((500 * 8 * 4)) ] && pass || fail "--dump: $(ls -l "$WORK/d" 2>&1)"
# The fewest bytes count the output rows the keys name, once read and once written: one row for the hot keys, the
# distinct dumped keys for the uniform ones.
python3 - "$WORK/d.json" "$WORK/d/idx-uniform.bin" <<'PY' && pass || fail "bytes_moved: the output rows the keys name"
import atl_json, struct, sys
rows = {r["variant"].split("/")[1]: r["metrics"] for r in atl_json.load(sys.argv[1])["rows"] if r["variant"].endswith("/atomic")}
raw = open(sys.argv[2], "rb").read()
named = len(set(struct.unpack(f"<{len(raw) // 4}I", raw)))
assert 0 < named < 500, named
for dist, touched in (("hot", 1), ("uniform", named)):
    assert rows[dist]["bytes_moved"] == 3000 * 8 * 4 + 3000 * 4 + 2 * touched * 8 * 4, (dist, rows[dist], touched)
PY
# dsm's table by default, the bins past it by L2 atomics: the tuning's dsm_bin_share of the bins (a quarter: 1024
# of 4096 bins in one work-group's table on PoCL, where a cluster is one group).
"$ATOMLAB" $(without_given "$S" "--targets --dim --type") --type u32 --dim 1 --targets 4096 --dist uniform \
  --variants dsm -o "$WORK/dsm.json" --quiet 2>"$WORK/err" && python3 -c '
import atl_json, sys
r = atl_json.load(sys.argv[1])["rows"][2]
assert r["verified"] and r["dsm_beyond"] == 1 and r["dsm_cluster"] == 1 and r["dsm_words"] == 1024, r
' "$WORK/dsm.json" &&
  pass || fail "dsm's default table: $(cat "$WORK/err")"
expect_usage_error "dim" app scatter --dim 0
expect_usage_error "dim" app scatter --dim 513
expect_usage_error "dist" app scatter --dist pareto
expect_usage_error "type" app scatter --type f64
expect_usage_error "index" app scatter --index u16
expect_usage_error "wg-size" app scatter --wg-size 48
expect_usage_error "zipf" app scatter --zipf 0
expect_usage_error "groups" app scatter --groups -1
expect_usage_error "partitions" app scatter --targets 500 --partitions 501
expect_usage_error "part-keys" app scatter --part-keys sort
expect_usage_error "part-batch" app scatter --part-batch 9
expect_usage_error "part-prefetch" app scatter --part-prefetch l1
expect_usage_error "part-add" app scatter --part-add tma
expect_usage_error "part-chunk" app scatter --part-chunk 0
expect_usage_error "dsm-words" app scatter --dsm-words 3
expect_usage_error "dsm-cache" app scatter --dsm-cache 6
expect_usage_error "dsm-beyond" app scatter --dsm-beyond l2
expect_usage_error "dsm-counters" app scatter --dsm-counters 8
expect_usage_error "dsm-cluster" app scatter --backend opencl --dsm-cluster 2
finish
