#!/usr/bin/env bash
# `atomlab profile --counters` over atl_diagnose, CPU only: tests/data/ncu-synthetic-bincount-f32.csv (a float
# weighted bincount on one hot bin under an NVTX range, README there) with its SASS and the REAL H100 L2 calibration
# exports. The float share comes from the SASS (no --types file), no --table is needed, the advice names the user's
# call site and the atomlab call; bad inputs are refused before anything is read.
. "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
CSV=$DATA/ncu-synthetic-bincount-f32.csv
CAL=(--l2-same "$DATA/ncu-h100-l2-same.csv" --l2-spread "$DATA/ncu-h100-l2-spread.csv"
  --same-f32 "$DATA/ncu-h100-l2-same-f32.csv")
export XDG_CACHE_HOME=$WORK/cache ATL_DATA_DIR=$WORK/no-data
"$ATOMLAB" profile --counters "$CSV" --sass "$DATA/sass-synthetic-bincount.txt" "${CAL[@]}" >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "profile --counters: $(cat "$WORK/err")"
grep -q '^  1 .*: bottleneck (l2 U 1\.[0-9]*), float adds 100%: torch.bincount at train.py:42 -> atomlab atl_scatter_add bins (.*predicted [0-9.]*x)$' \
  "$WORK/out" && pass || fail "the float bincount's advice: $(cat "$WORK/out")"
grep -q '^  2 .*: not a bottleneck (l2 U 0\.' "$WORK/out" && pass || fail "the integer bincount: $(cat "$WORK/out")"
# the L2 table agrees: its float launch takes the SASS's share too
grep -q '^1 .* hot words   1\.00 .*bottleneck$' "$WORK/out" && pass || fail "the L2 table: $(cat "$WORK/out")"
"$ATOMLAB" profile --counters "$CSV" --sass "$DATA/sass-synthetic-bincount.txt" "${CAL[@]}" --diagnosis "$WORK/d.json" \
  >/dev/null 2>&1 && python3 - "$WORK/d.json" <<'PY' && pass || fail "--diagnosis: $(cat "$WORK/d.json")"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
c = rows[0]["config"]
assert json.load(open(sys.argv[1]))["kind"] == "diagnosis" and rows[0]["status"] == "ok"
assert c["source"] == "torch.bincount@train.py:42" and c["device"] == "NVIDIA H100 80GB HBM3", c
assert c["verdict"] == "bottleneck" and c["call"] == "atl_scatter_add bins" and c["speedup_kind"] == "predicted", c
PY
# the shared-memory table is the profiled device's, found by the product's lookup (the shipped H100 table)
grep -q '^note: the shared-memory table of NVIDIA H100 80GB HBM3: .*nvidia-h100/smem-table.csv$' "$WORK/err" &&
  grep -q '^shared-memory atomic unit utilization (table .*nvidia-h100/smem-table.csv' "$WORK/out" && pass ||
  fail "no table found for the H100: $(cat "$WORK/err" "$WORK/out")"
# a device without one: the shared-memory model is skipped with a note, the L2 advice is still given
sed 's/NVIDIA H100 80GB HBM3/NVIDIA X999/' "$CSV" >"$WORK/x999.csv"
"$ATOMLAB" profile --counters "$WORK/x999.csv" --sass "$DATA/sass-synthetic-bincount.txt" "${CAL[@]}" >"$WORK/x" \
  2>"$WORK/err" && grep -q 'note: .*no shared-memory table: the shared-memory model was skipped' "$WORK/x" &&
  grep -q '^  1 .*: bottleneck (l2 .*-> atomlab atl_scatter_add bins' "$WORK/x" && ! grep -q 'shared-memory atomic unit' \
  "$WORK/x" && pass || fail "no table: $(cat "$WORK/x" "$WORK/err")"
# without the SASS the type is not known: the float price, which the launch's time holds, decides, and is said
"$ATOMLAB" profile --counters "$CSV" "${CAL[@]}" >"$WORK/nosass" 2>"$WORK/err" &&
  grep -q '^  1 .*: bottleneck' "$WORK/nosass" && grep -q 'type not known (no --sass, no --types): float adds assumed' \
  "$WORK/nosass" && pass || fail "without --sass: $(cat "$WORK/nosass" "$WORK/err")"
# the L2 table prices it as the diagnosis does: an H200 float scatter on one key, U 1.00 from 0.37 (integer adds)
"$ATOMLAB" profile --counters "$DATA/ncu-h200-prereg-pytorch-scatter_add_-hot.csv" --l2-same "$DATA/ncu-h200-l2-same.csv" \
  --l2-spread "$DATA/ncu-h200-l2-spread.csv" >"$WORK/h200" 2>"$WORK/err" &&
  grep -q '^4  .* hot words   1\.00   0\.37-1\.00 .* bottleneck$' "$WORK/h200" &&
  grep -q '^  4 .*: bottleneck (l2 U 1\.00).*atl_scatter_add auto' "$WORK/h200" && pass ||
  fail "the table of a type not known: $(cat "$WORK/h200" "$WORK/err")"
# the L2 table and the diagnosis take every launch's float share from the one rule: on each committed H200 export and
# the synthetic bincount (its float share from the SASS, from --types, or not known), the table's U of every launch
# is the diagnosis's u_l2; the hot float scatter is priced as float adds by both (U 1.00, not 0.46 as integer adds)
H200=(--l2-same "$DATA/ncu-h200-l2-same.csv" --l2-spread "$DATA/ncu-h200-l2-spread.csv")
agree=0
for f in "$DATA"/ncu-h200-prereg-pytorch-*.csv "sass:$CSV" "types:$CSV" "none:$CSV"; do
  case $f in
  sass:*) args=(--counters "${f#*:}" --sass "$DATA/sass-synthetic-bincount.txt" "${CAL[@]}") ;;
  types:*) args=(--counters "${f#*:}" --types "$WORK/agree-types.csv" "${CAL[@]}") ;;
  none:*) args=(--counters "${f#*:}" "${CAL[@]}") ;;
  *) args=(--counters "$f" "${H200[@]}") ;;
  esac
  printf 'kernel,f32_share\nvoid at::native::(anonymous namespace)::kernelHistogram1D<float,0.5\n' >"$WORK/agree-types.csv"
  "$ATOMLAB" profile "${args[@]}" --diagnosis "$WORK/agree.json" >"$WORK/agree" 2>"$WORK/err" &&
    python3 - "$WORK/agree" "$WORK/agree.json" "$(basename "$f")" <<'PY' && agree=$((agree + 1)) || fail "the L2 table and the diagnosis disagree on $f: $(cat "$WORK/agree" "$WORK/err")"
import json, re, sys
text = open(sys.argv[1]).read()
table = text[text.index("\nid    kernel "):text.index("\ndiagnosis:")].strip().splitlines()[1:]
u_table = {}
for line in table:
    m = re.match(r"^(\S+)\s.*\s(hot words|spread|none)\s+([0-9.]+)\s", line)
    if m:
        u_table[m.group(1)] = m.group(3)
rows = json.load(open(sys.argv[2]))["rows"]
metric = lambda r, n: next((m["value"] for m in r["metrics"] if m["name"] == n), None)
diag = {r["config"]["id"]: r for r in rows if metric(r, "u_l2") is not None}
assert diag and set(diag) == set(u_table), (sorted(diag), u_table)
for i, r in diag.items():
    assert "%.2f" % metric(r, "u_l2") == u_table[i], (i, metric(r, "u_l2"), u_table[i])
if sys.argv[3] == "ncu-h200-prereg-pytorch-scatter_add_-hot.csv":
    assert metric(diag["4"], "f32_share") == 1 and u_table["4"] == "1.00", (diag["4"]["metrics"], u_table)
PY
done
[ "$agree" -eq 9 ] && pass || fail "the L2 table and the diagnosis agree on $agree of 9 exports"
# --types still overrides the SASS's float share
printf 'kernel,f32_share\nvoid at::native,0.0001\n' >"$WORK/types.csv"
"$ATOMLAB" profile --counters "$CSV" "${CAL[@]}" --types "$WORK/types.csv" >"$WORK/typed" 2>"$WORK/err" && pass ||
  fail "--types: $(cat "$WORK/err")"
# the L2 calibration from the device's cache folder (the product's lookup), no --l2-same / --l2-spread given
mkdir -p "$WORK/cache/atomlab/nvidia-h100"
for f in same spread same-f32; do cp "$DATA/ncu-h100-l2-$f.csv" "$WORK/cache/atomlab/nvidia-h100/l2-$f.csv"; done
"$ATOMLAB" profile --counters "$CSV" --sass "$DATA/sass-synthetic-bincount.txt" >"$WORK/cached" 2>"$WORK/err" &&
  grep -q '^note: the L2 calibration of NVIDIA H100 80GB HBM3: .*/nvidia-h100/l2-same-f32.csv$' "$WORK/err" &&
  grep -q '^  1 .*: bottleneck (l2 U 1\.00).*atl_scatter_add bins (block-aggregated; predicted' "$WORK/cached" && pass ||
  fail "the cached L2 calibration: $(cat "$WORK/err" "$WORK/cached")"
rm -r "$WORK/cache/atomlab/nvidia-h100"
# without a calibration: atomlab's call priced at the launch's own DRAM peak; an op no table names: a floor, named so
"$ATOMLAB" profile --counters "$CSV" --sass "$DATA/sass-synthetic-bincount.txt" --threshold 0.3 >"$WORK/peak" \
  2>"$WORK/err" && grep -q '^  1 .*(warp-aggregated; predicted [0-9.]*x)$' "$WORK/peak" &&
  grep -q "atomlab's call priced .* B/ns (peak)" "$WORK/peak" && pass || fail "the peak: $(cat "$WORK/peak" "$WORK/err")"
sed 's/torch.bincount@train.py:42/my_op@train.py:42/' "$CSV" >"$WORK/unknown.csv"
"$ATOMLAB" profile --counters "$WORK/unknown.csv" --sass "$DATA/sass-synthetic-bincount.txt" --threshold 0.3 \
  >"$WORK/floor" 2>"$WORK/err" && grep -q '^  1 .*; floor: at least 1\.[0-9]*x)$' "$WORK/floor" && pass ||
  fail "the floor: $(cat "$WORK/floor" "$WORK/err")"
expect_refused "--sass" profile --counters "$CSV" --sass "$WORK/nonexistent.txt"
expect_refused "--counters" profile --counters "$WORK/nonexistent.csv"
expect_refused "--counters" profile --counters "$CSV" -- true
expect_refused "program" profile
# scatter_reduce amax on a hot key: the advice names atomlab's op for it (app scatter-reduce's call)
sed 's/torch.bincount@train.py:42/torch.Tensor.scatter_reduce_(amax)@model.py:7/' "$CSV" >"$WORK/amax.csv"
"$ATOMLAB" profile --counters "$WORK/amax.csv" --sass "$DATA/sass-synthetic-bincount.txt" "${CAL[@]}" >"$WORK/amax" \
  2>"$WORK/err" && grep -q '^  1 .*: torch.Tensor.scatter_reduce_(amax) at model.py:7 -> atomlab atl_scatter_reduce max (' \
  "$WORK/amax" && pass || fail "amax advice: $(cat "$WORK/amax" "$WORK/err")"
# the NVTX helper names a wrapped torch op by its caller's line (a stand-in torch module records the ranges)
mkdir -p "$WORK/stub/torch/nn"
cat >"$WORK/stub/torch/__init__.py" <<'PY'
import types
pushed = []
cuda = types.SimpleNamespace(nvtx=types.SimpleNamespace(range_push=pushed.append, range_pop=lambda: None))
def bincount(x, weights=None, minlength=0): return "bincount"
class Tensor:
    def scatter_reduce_(self, dim, index, src, reduce, include_self=True): return reduce
PY
printf 'def embedding(*a, **k): return None\n' >"$WORK/stub/torch/nn/functional.py"
touch "$WORK/stub/torch/nn/__init__.py"
PYTHONPATH="$WORK/stub:$(dirname "$0")/../../scripts/gpu" python3 - <<'PY' && pass || fail "atl_nvtx names"
import torch, atl_nvtx
atl_nvtx.wrap()
torch.bincount([0], minlength=1)
torch.Tensor().scatter_reduce_(0, None, None, "amax")
with atl_nvtx.op("step"):
    pass
names = [n.split("@")[0] + "@" + n.split("@")[1].split(":")[0] for n in torch.pushed]
assert names == ["torch.bincount@<stdin>", "torch.Tensor.scatter_reduce_(amax)@<stdin>", "step@<stdin>"], torch.pushed
assert all(n.rsplit(":", 1)[1].isdigit() for n in torch.pushed), torch.pushed
PY
# the pre-registered validation's program list meets its bounds (>= 25 programs, 4 libraries, 5 families, 2 inputs)
python3 "$(dirname "$0")/../../scripts/gpu/diagnose_prereg.py" check >"$WORK/prereg" 2>&1 && pass ||
  fail "prereg check: $(cat "$WORK/prereg")"
finish
