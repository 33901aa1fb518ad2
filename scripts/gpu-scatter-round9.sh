#!/usr/bin/env bash
# Scatter-add round 9 (issue [scatter]), at most 300 s: the sweep's split (range 0's pass sorts each chunk's other
# keys by range, so a later range reads only its own, 4 bytes a row of it, instead of every key). f32, D = 64,
# E = 8 M, V = 1 M, uniform keys (the 3x-PyTorch target, with i64 keys as PyTorch takes them), every row verified.
#   check: the split at small sizes on every distribution: 7 ranges, i64 keys, bf16, 32 ranges, a scalar dim, off.
#   f32-i32: atomic and the default (auto = sweep, split on) with i32 keys, dumped; PyTorch's index_add_ on the
#     dumped inputs with int64 and int32 indices (torch.json); then i64 keys; then both with --part-split off (round
#     8's default); then the split with later tickets of 2 and 8 chunks, and over 17 ranges.
#   call 2 (after call 1: tickets of 4 chunks were slower than 2, so the group is now from the resident groups: 1
#     here): the default with i32 and i64 keys and PyTorch again; tickets of 2 chunks (i32, i64); chunks of 8
#     steps; 11 and 15 ranges; the default again with both key types.
#   call 3 (call 2: 11 ranges 1.409 ms, 13 1.392, 15 1.351): the sweep over 15, 16, 17 and 19 ranges (i32 keys), 15
#     and 17 (i64 keys).
#   call 4 (the merged main, the split's ranges at 5/16 of the L2: 17 here): the default with i32 and i64 keys beside
#     PyTorch, then both again.
#   call 5: f32 against bf16 per element (the target "bf16 no slower per element than f32") on uniform, zipf and hot
#     keys, vector, sweep and auto, best against best (the f32 default is faster since the split; bf16's auto runs the sweep too).
# Writes OUT/*.json, info.txt and summary.txt (scripts/gpu-scatter-round8-summary.py reads any round's files).
#   ATOMLAB=build/atomlab OUT=out/scatter-round9 bash scripts/gpu-scatter-round9.sh [1|2|3|4|5]
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
CALL=${1:-1}
gpu_scatter_script gpu-scatter-round9 290
S="$A app scatter --backend cuda --rows $E --dim $D --targets $V --type f32 --dist uniform"
if [ "$CALL" = 1 ]; then
  n=0
  C="$A app scatter --backend cuda --rows 300000 --targets 20000 --samples 2 --variants sweep"
  for spec in "--partitions 7 --part-group 3" "--index i64 --partitions 13" "--type bf16 --index i64 --partitions 5" \
    "--dim 1 --type u32 --partitions 32" "--dim 7 --index i64 --partitions 2 --wg-size 512 --part-chunk 8" \
    "--partitions 13 --part-split off"; do
    n=$((n + 1))
    step check-$n 15 $C --dim 64 $spec -o "$OUT/check-$n.json" --quiet
  done
fi
if [ "$CALL" = 5 ]; then
  for t in f32 bf16; do
    step $t 90 $S --type $t --dist uniform,zipf,hot --variants vector,sweep,auto -o "$OUT/$t.json" --quiet
  done
  python3 - "$OUT" >"$OUT/summary.txt" 2>&1 <<'PY'
import sys
sys.path.insert(0, "scripts")
import scatter_rows
f32, bf16 = (scatter_rows.by(scatter_rows.rows(sys.argv[1], t + ".json"), False) for t in ("f32", "bf16"))
for t, rs in (("f32", f32), ("bf16", bf16)):
    scatter_rows.table(t, list(rs.values()), details=True)
for d in ("uniform", "zipf", "hot"):  # the same E x D elements: the ratio of times is the ratio per element
    a = min((scatter_rows.ms(r), v) for (dd, v), r in f32.items() if dd == d)
    b = min((scatter_rows.ms(r), v) for (dd, v), r in bf16.items() if dd == d)
    print(f"TARGET bf16 no slower per element than f32, {d}: best f32 {a[1]} {a[0]:.3f} ms, best bf16 {b[1]} "
          f"{b[0]:.3f} ms: bf16 {a[0] / b[0]:.2f}x f32's rate ({'met' if b[0] <= a[0] else 'NOT met'})")
PY
  cat "$OUT/summary.txt"
  exit ${STEP_FAILED:-0}
fi
if [ "$CALL" = 3 ]; then
  for p in 15 16 17 19; do step f32-p$p 25 $S --variants sweep --partitions $p -o "$OUT/f32-p$p.json" --quiet; done
  for p in 15 17; do step f32-p$p-i64 25 $S --index i64 --variants sweep --partitions $p -o "$OUT/f32-p$p-i64.json" --quiet; done
  python3 scripts/gpu-scatter-round8-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
  cat "$OUT/summary.txt"
  exit ${STEP_FAILED:-0}
fi
step f32-i32 40 $S --variants atomic,auto --dump "$W/d" -o "$OUT/f32-i32.json" --quiet
step torch 25 python3 scripts/peer-torch-scatter.py "$W/d" --rows $E --dim $D --targets $V --dists uniform \
  --det-reps 0 --int32 -o "$OUT/torch.json"
rm -rf "$W/d"
step f32-i64 30 $S --index i64 --variants auto -o "$OUT/f32-i64.json" --quiet
if [ "$CALL" = 1 ]; then
  step f32-i32-off 25 $S --variants sweep --part-split off -o "$OUT/f32-i32-off.json" --quiet
  step f32-i64-off 25 $S --index i64 --variants sweep --part-split off -o "$OUT/f32-i64-off.json" --quiet
  step f32-g2 25 $S --variants sweep --part-group 2 -o "$OUT/f32-g2.json" --quiet
  step f32-g8 25 $S --variants sweep --part-group 8 -o "$OUT/f32-g8.json" --quiet
  step f32-p17 25 $S --variants sweep --partitions 17 -o "$OUT/f32-p17.json" --quiet
elif [ "$CALL" = 4 ]; then
  step f32-i32-again 25 $S --variants auto -o "$OUT/f32-i32-again.json" --quiet
  step f32-i64-again 25 $S --index i64 --variants auto -o "$OUT/f32-i64-again.json" --quiet
else
  step f32-g2 25 $S --variants sweep --part-group 2 -o "$OUT/f32-g2.json" --quiet
  step f32-g2-i64 25 $S --index i64 --variants sweep --part-group 2 -o "$OUT/f32-g2-i64.json" --quiet
  step f32-c8 25 $S --variants sweep --part-chunk 8 -o "$OUT/f32-c8.json" --quiet
  step f32-p11 25 $S --variants sweep --partitions 11 -o "$OUT/f32-p11.json" --quiet
  step f32-p15 25 $S --variants sweep --partitions 15 -o "$OUT/f32-p15.json" --quiet
  step f32-i32-again 25 $S --variants auto -o "$OUT/f32-i32-again.json" --quiet
  step f32-i64-again 25 $S --index i64 --variants auto -o "$OUT/f32-i64-again.json" --quiet
fi
python3 scripts/gpu-scatter-round8-summary.py "$OUT" >"$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
exit ${STEP_FAILED:-0}
