#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: app scatter on CUDA at a small size, every type (f32, u32, i32, bf16 with
# sm_90's packed red.add.noftz.bf16x2 and v4.bf16x2, f16 with .f16x2, odd D's straddling pairs included), both
# key types and every variant verify (the sweep, its split over 2 to 32 ranges and off, and part's bulk reductions at dims 64, 128 and 36 (red); dsm's cluster of 16, 8 and 1, one launch and many; CUB's counts at 2^20 bins) (part over 3, 5 and 7 ranges of keys too: its vector, scalar and 16-bit paths, rereading the keys and bucketed); det gives one output hash on
# 5 grids and work-group sizes. Skipped (77) where CUDA is unavailable.
. "$(dirname "$0")/lib.sh"
if ! "$ATOMLAB" devices --format json 2>/dev/null | python3 -c '
import json, atl_json, sys
sys.exit(0 if any(d["backend"] == "cuda" for d in atl_json.load(sys.stdin)["devices"]) else 1)'; then
  echo "no CUDA device: skipped"
  exit 77
fi
S="app scatter --backend cuda --rows 300000 --targets 20000 --samples 2"
cat >"$WORK/check.py" <<'PY'
import atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
spec = sys.argv[2].split()
want = 2 + 5 * (len(spec[spec.index("--variants") + 1].split(",")) if "--variants" in spec else 13)
dim = int(spec[spec.index("--dim") + 1])  # an unsupported row carries no measured config: the spec's dim
def tma_fits(r):  # the bulk copies move whole rows of 16-byte granules; f16 has no bulk add
    t = r["variant"].split("/")[0].split("-")[0]
    return t != "f16" and dim * {"f32": 4, "u32": 4, "i32": 4, "bf16": 2}.get(t, 2) % 16 == 0
bad = [(r["variant"], r["status"], r["reason"]) for r in rows
       if not (r["status"] == "ok" and r["verified"]) and
       not (r["variant"].split("/")[-1] in ("vector", "bins", "dsm", "cub") and r["status"] == "unsupported") and
       not (r["variant"].endswith("/tma") and r["status"] == "unsupported" and not tma_fits(r))]
assert not bad and len(rows) == want, (bad, len(rows))
PY
scatter_specs 120 "$WORK/check.py" "CUDA app scatter" "--type f32 --dim 64" "--type u32 --dim 1 --index i64" "--type i32 --dim 7" "--type bf16 --dim 64" \
  "--type f16 --dim 33 --index i64" "--type bf16 --dim 5" "--type f16 --dim 64" "--type bf16 --dim 1" \
  "--type f32 --dim 64 --partitions 7 --variants part --part-prefetch none" "--type u32 --dim 33 --index i64 --partitions 3 --variants part" \
  "--type bf16 --dim 64 --partitions 5 --variants part" \
  "--type f32 --dim 64 --partitions 7 --variants part,sweep --part-add bulk" "--type f32 --dim 128 --index i64 --partitions 3 --variants sweep --part-add bulk --part-hot warp --wg-size 512" \
  "--type f32 --dim 36 --partitions 5 --variants part,sweep --part-add bulk --part-prefetch none" "--type u32 --dim 8 --partitions 1 --variants sweep" \
  "--type f32 --dim 64 --index i64 --targets 262144 --variants auto,sweep,part" \
  "--type f32 --dim 64 --partitions 7 --variants sweep --part-group 3" "--type bf16 --dim 64 --index i64 --partitions 5 --variants sweep" \
  "--type f32 --dim 64 --index i64 --partitions 13 --variants sweep --part-split off" "--type u32 --dim 1 --partitions 32 --variants sweep" \
  "--type f32 --dim 7 --index i64 --partitions 2 --variants sweep --wg-size 512 --part-chunk 8" "--type i32 --dim 3 --partitions 33 --variants sweep" \
  "--type f32 --dim 64 --partitions 7 --variants part --part-keys bucket --part-batch 4" \
  "--type i32 --dim 33 --index i64 --partitions 3 --variants part --part-keys bucket --part-batch 2" \
  "--type bf16 --dim 64 --partitions 1 --variants part --part-table seen --part-hot warp --part-batch 2" \
  "--type f16 --dim 34 --index i64 --partitions 3 --variants part --part-hot warp" \
  "--type u32 --dim 1 --targets 1048576 --variants dsm,cub" "--type i32 --dim 1 --index i64 --variants dsm" \
  "--type u32 --dim 1 --targets 3 --variants dsm --dsm-cache 2048 --dsm-counters 16 --dsm-beyond launch" \
  "--type u32 --dim 1 --targets 100000 --dsm-cluster 8 --dsm-counters 16 --dsm-beyond launch --variants dsm" \
  "--type u32 --dim 1 --targets 100000 --dsm-cluster 1 --dsm-words 2048 --dsm-counters 16 --dsm-beyond launch --variants dsm" \
  "--type u32 --dim 1 --targets 100000 --dsm-words 1024 --dsm-counters 16 --variants dsm" \
  "--type i32 --dim 1 --targets 100000 --dsm-words 1024 --dsm-beyond launch --variants dsm"
scatter_det_grids "CUDA det" 120 "--groups 0" "--groups 1" "--groups 132 --wg-size 64" "--groups 4096 --wg-size 1024" \
  "--groups 77 --wg-size 96" -- $S --dim 64
finish
