#!/usr/bin/env bash
# The diagnosis (issue [diagnose]) against kernels with known answers, shared AND global, in one GPU call of
# at most 8 minutes: `atomlab profile` (ncu underneath, --save-counters) over atomlab's own kernels (the
# seed's histograms with ATOMS.ADD and ATOMS.POPC.INC, the validation kernels, rmw loops of shared
# fetch_add and CAS, the histogram app's variants incl. CUB's, the scatter app's atomic and block variants
# (the block one a shared float CAS loop), the strategy kernels) and PyTorch's / CuPy's index_add_,
# scatter_add_, bincount and histc; where atomlab has the strategy its advice names, the kernel that applies
# it is profiled too, for the measured speedup. Then scripts/diagnose-validation.py (which also runs on a CPU
# over the files this leaves, `--dry`) writes validation.json and the plot.
# Writes under OUT (default out/gpu-diagnose-validate): summary.txt, run.log, smem-table.csv, same.csv,
# spread.csv, dram.csv (the achievable DRAM share: the scatter copy ceiling under ncu), programs.csv (every export, with program, source, expected and alternative columns),
# profile-*.txt (atomlab profile's own tables), validation.json, validation-summary.txt, validation.png.
# Run: OUT=/some/dir bash scripts/gpu-diagnose-validate.sh   (a build in build/, ncu, python3; torch, cupy
# where installed; GPU_DIAGNOSE_ONLY=REGEX: only the programs whose name it matches, GPU_DIAGNOSE_SECONDS: their
# deadline)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_ncu_script gpu-diagnose-validate
step_deadline "${GPU_DIAGNOSE_SECONDS:-390}" # the programs end by then; the analysis (20-40 s) follows
MAN=$W/manifest.tsv
# beside the models' own (the L2 model's include DRAM throughput: the evidence of memory-bound launches), the
# instructions issued
# (atomlab profile asks for smsp__inst_executed.max itself: the issue floor under a predicted speedup)
EXTRA_M=smsp__inst_executed.sum,sm__inst_executed.avg
# GPU_DIAGNOSE_EXTRA_METRICS: more, where a round's script checked them (ncu refuses a whole launch on an unknown name)
EXTRA_M=$EXTRA_M${GPU_DIAGNOSE_EXTRA_METRICS:+,$GPU_DIAGNOSE_EXTRA_METRICS}
: >"$MAN"

# 1. calibrations: the shared table (full grid; the committed one of this GPU model where it fails) and the L2
# model's two rmw exports (as scripts/gpu-l2-validate.sh)
step calibrate_smem 40 $A calibrate smem --reps 3 --out "$OUT/smem-table" ||
  step calibrate_smem_coarse 25 $A calibrate smem --reps 3 --e 1,2,4,8,16,24,32 --out "$OUT/smem-table"
if [ ! -s "$OUT/smem-table.csv" ]; then
  dev=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z' 'a-z' | grep -o 'h[0-9]00' | head -1)
  cp "results/nvidia-${dev:-h100}/smem/smem-table.csv" "$OUT/smem-table.csv"
  step_note "no table from this run: the committed results/nvidia-${dev:-h100}/smem/smem-table.csv"
fi
R="$A rmw --backend cuda --grid occupancy --op fetch_add --result unused,used --iters 64 --min-samples 1 --max-samples 1 --quiet -o $W/r.json"
gpu_l2_calibrate same $R --pattern contiguous --contention 1024 --padding 1
gpu_l2_calibrate spread $R --pattern contiguous --contention 1 --padding 32
for f in same spread; do
  [ -s "$OUT/$f.csv" ] || { cp results/nvidia-h200/diagnose/l2/$f.csv "$OUT/"; step_note "no $f.csv from this run: the H200's"; }
done
# the achievable DRAM share (the advice's DRAM floor): the scatter app's copy ceiling, a streaming copy of the
# same bytes, under ncu with the same metrics and the DRAM throughput; the model takes the median over the
# launches without atomics (atl_l2_dram_achievable), and its bytes per second: where a profiled kernel's export
# counts dram__bytes (atomlab profile asks for it), its DRAM floor is its bytes at that bandwidth
step dram 45 "$NCU" --clock-control none --metrics "$GPU_L2_METRICS,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes.sum" \
  --force-overwrite -o "$W/dram" $A app scatter --backend cuda --type f32 --rows 1048576 --dim 64 --targets 131072 \
  --samples 1 --quiet -o "$W/dram.json" --dist uniform --variants atomic &&
  "$NCU" --import "$W/dram.ncu-rep" --csv --page raw --print-units base >"$OUT/dram.csv" 2>>"$L"
L2=()
[ -s "$OUT/same.csv" ] && [ -s "$OUT/spread.csv" ] && L2=(--l2-same "$OUT/same.csv" --l2-spread "$OUT/spread.csv")
if [ -s "$OUT/dram.csv" ] && $A model l2 --counters "$OUT/dram.csv" --s-same 1,1 --s-spread 1,1 --dram "$OUT/dram.csv" \
  >"$W/dram-check.txt" 2>>"$L"; then
  echo "achievable DRAM share (copy ceiling under ncu): $(head -1 "$W/dram-check.txt" | grep -o 'achievable DRAM.*')" >>"$S"
  L2+=(--dram "$OUT/dram.csv")
else
  rm -f "$OUT/dram.csv"
  step_note "no achievable DRAM share from this run: the advice's DRAM floor is at peak"
fi

# 2. the programs. prof NAME SOURCE EXPECT_SHARED EXPECT_L2 ALTS FILTER -- COMMAND...: atomlab profile over
# COMMAND (kernels matching FILTER, "" all), its export kept. EXPECT_*: the verdict the kernel's design fixes
# (bottleneck, not) or "-" (then the DRAM and speedup evidence decide, scripts/diagnose-validation.py); the
# privatized kernels (hist-case, the histogram app's shared variants) flush once per block: their L2 is "not";
# ALTS: strategy=PROGRAM pairs, the program that applies that strategy to the same input ("-" none); for the
# global variants, match-any (the warp's lanes of a bin combined, one shared atomic, one flush per block) is
# block-aggregated, not warp-aggregated (that would leave one global atomic per warp and bin).
# GPU_DIAGNOSE_ONLY (an extended regex over NAME): only the programs it matches (a short call's decisive rows).
wanted() { [ -z "${GPU_DIAGNOSE_ONLY:-}" ] || [[ $1 =~ ^(${GPU_DIAGNOSE_ONLY})$ ]]; }
prof() {
  local name=$1 src=$2 es=$3 el=$4 alts=$5 filter=$6
  shift 7
  wanted "$name" || return 0
  local kf=()
  [ -n "$filter" ] && kf=(--kernel "$filter")
  step -o "$OUT/profile-$name.txt" "$name" 50 $A profile --table "$OUT/smem-table.csv" ${L2[@]+"${L2[@]}"} --advice \
    --extra-metrics "$EXTRA_M" --save-counters "$W/$name.csv" --timeout 45 ${kf[@]+"${kf[@]}"} -- "$@"
  [ -s "$W/$name.csv" ] && printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$src" "$es" "$el" "$alts" >>"$MAN"
}
HC="$A hist-case --pixels 4194304 --wg-size 1024 --warmup 0 --reps 1"
RL="$A rmw --backend cuda --space local --grid occupancy --result used --pattern contiguous --padding 1 --iters 2048 --min-samples 1 --max-samples 1 --quiet -o $W/rl.json"
H="$A app histogram --backend cuda --input u8 --bytes 67108864 --samples 1 --no-cub --quiet -o $W/h.json"
HA="warp-aggregated=hist-solid-match-any;privatized=hist-solid-warp-private;byte-lanes=hist-solid-byte-lanes;block16=hist-solid-block16"
HU="warp-aggregated=hist-uniform-match-any;privatized=hist-uniform-warp-private;byte-lanes=hist-uniform-byte-lanes;block16=hist-uniform-block16"
SC="$A app scatter --backend cuda --type f32 --rows 1048576 --dim 64 --targets 131072 --samples 1 --quiet -o $W/s.json"
ST="$A strategy --backend cuda --op fetch_add --result used --iters 256 --min-samples 1 --max-samples 1 --quiet -o $W/st.json"
cat >"$W/cupy_ops.py" <<'PY'
import cupy as cp, cupyx
cp.random.seed(1)
for name in ("uniform", "hot"):
    keys = (cp.random.randint(0, 1 << 16, 1 << 24) if name == "uniform" else cp.zeros(1 << 24, dtype=cp.int64))
    cp.bincount(keys, minlength=1 << 16)
    cp.histogram(keys, bins=4096, range=(0, 1 << 16))
    out = cp.zeros(1 << 16, dtype=cp.float32)
    cupyx.scatter_add(out, keys, cp.ones(1 << 24, dtype=cp.float32))
cp.cuda.Device().synchronize()
print("cupy ops done")
PY
# most telling first: the run's deadline skips what is left
prof validate atomlab-validate - - - "" -- $A hist-case --validate --warmup 0 --reps 1
prof hc-solid-add atomlab-hist-case bottleneck not - "" -- $HC --kernel histogram --image solid --result used
prof hc-solid-popc atomlab-hist-case - not - "" -- $HC --kernel histogram --image solid --result unused
prof rmw-shared-word atomlab-rmw bottleneck - - rmw -- $RL --op fetch_add --contention 32
prof rmw-shared-cas-word atomlab-rmw bottleneck - - rmw -- $RL --op cas --contention 32
prof rmw-shared-f32-word atomlab-rmw bottleneck - - rmw -- $RL --op fetch_add --type f32 --contention 32
# round 6: the shared float add (a CAS loop, ATOMS.CAST.SPIN) out of the f32-word rule's sample: a quarter of the
# warps (16 a SM) on one word each, and every lane on its own word; and one warp a SM on one word, where nothing
# but the loop's round trip is in the time (a successful update of a word every round trip: the chain a private
# table's hot word pays, model l2 --cas-chain)
prof rmw-shared-f32-word-16w atomlab-rmw - - - rmw -- $RL --op fetch_add --type f32 --contention 32 --wg-size 256 --workgroups 264
prof rmw-shared-f32-free atomlab-rmw - - - rmw -- $RL --op fetch_add --type f32 --contention 1
prof rmw-shared-f32-word-1w atomlab-rmw - - - rmw -- $RL --op fetch_add --type f32 --contention 32 --wg-size 32 --workgroups 132 --iters 256
wanted torch && python3 -c "import torch; assert torch.cuda.is_available()" 2>>"$L" &&
  prof torch torch - - - "index|scatter|bincount|histc|[Hh]istogram" -- python3 scripts/torch-scatter-ops.py --float-histc
wanted cupy && python3 -c "import cupy" 2>>"$L" && prof cupy cupy - - - "" -- python3 "$W/cupy_ops.py"
prof hist-solid-global atomlab-histogram - - "privatized=hist-solid-shared;block16=hist-solid-block16;block-aggregated=hist-solid-match-any" histogram -- $H --dist solid --variants global
prof hist-solid-shared atomlab-histogram - not "$HA" histogram -- $H --dist solid --variants shared
for v in match-any warp-private byte-lanes block16; do
  prof hist-solid-$v atomlab-histogram - not - histogram -- $H --dist solid --variants $v
done
# the advice prices privatization at the profiled launch's own grid (a private table per work-group: 4096 groups of
# 256 rows here); the block variant's default (--block-rows 4096: 256 groups, a quarter of the warps) is the second pair
prof scatter-hot-atomic atomlab-scatter - - "privatized=scatter-hot-block-grid;block-aggregated=scatter-hot-block" scatter_add -- $SC --dist hot --variants atomic
prof scatter-hot-block atomlab-scatter - - - scatter_add -- $SC --dist hot --variants block
prof scatter-hot-block-grid atomlab-scatter - - - scatter_add -- $SC --dist hot --variants block --block-rows 256
# round 7: a second hot scatter out of the sample of the privatized chain's design: rows of one line (dim 32: the
# hot slice's requests are each word's updates), 4 warps a block (4 contenders a private word), 16384 groups whose
# 33 KB tables hold 6 a SM where the atomic launch holds 16
SC32="$A app scatter --backend cuda --type f32 --rows 2097152 --dim 32 --targets 131072 --wg-size 128 --samples 1 --quiet -o $W/s32.json"
prof scatter-hot-d32-atomic atomlab-scatter - - "privatized=scatter-hot-d32-block-grid" scatter_add -- $SC32 --dist hot --variants atomic
prof scatter-hot-d32-block-grid atomlab-scatter - - - scatter_add -- $SC32 --dist hot --variants block --block-rows 128
# round 7's second call: the other two shapes of (lines a row, warps a block): one line and 8 warps (48 a SM with the
# table), two lines and 4 warps (24 a SM)
SC32W8="$A app scatter --backend cuda --type f32 --rows 2097152 --dim 32 --targets 131072 --wg-size 256 --samples 1 --quiet -o $W/s32w8.json"
prof scatter-hot-d32-w8-atomic atomlab-scatter - - "privatized=scatter-hot-d32-w8-block-grid" scatter_add -- $SC32W8 --dist hot --variants atomic
prof scatter-hot-d32-w8-block-grid atomlab-scatter - - - scatter_add -- $SC32W8 --dist hot --variants block --block-rows 256
SC64W4="$A app scatter --backend cuda --type f32 --rows 1048576 --dim 64 --targets 131072 --wg-size 128 --samples 1 --quiet -o $W/s64w4.json"
prof scatter-hot-d64-w4-atomic atomlab-scatter - - "privatized=scatter-hot-d64-w4-block-grid" scatter_add -- $SC64W4 --dist hot --variants atomic
prof scatter-hot-d64-w4-block-grid atomlab-scatter - - - scatter_add -- $SC64W4 --dist hot --variants block --block-rows 128
# round 8: shapes the privatized float adds' model has not seen (scripts/gpu-diagnose-round8.sh; predictions in
# results/nvidia-h100/diagnose/round8/PREDICTIONS.md): 16 warps a block (4 tables a SM by warps), rows of four lines,
# 2 warps a block (12 warps a SM), rows of half a warp (dim 16: two rows an atomic instruction); 32 rows a warp each
R8="$A app scatter --backend cuda --type f32 --targets 131072 --samples 1 --quiet -o $W/s8.json --dist hot"
r8() { # NAME ROWS DIM WARPS [ROWS_A_WARP]: the atomic launch (advised) and the block variant at its grid
  local n=${5:-32}
  prof "scatter-hot-$1-atomic" atomlab-scatter - - "privatized=scatter-hot-$1-block-grid" scatter_add -- $R8 --rows "$2" \
    --dim "$3" --wg-size $((32 * $4)) --rows-per-warp "$n" --variants atomic
  prof "scatter-hot-$1-block-grid" atomlab-scatter - - - scatter_add -- $R8 --rows "$2" --dim "$3" --wg-size $((32 * $4)) \
    --variants block --block-rows $((n * $4))
}
r8 d32-w16 2097152 32 16
r8 d128-w8 524288 128 8
r8 d32-w2 2097152 32 2
r8 d16-w8 4194304 16 8
# round 8's second call (scripts/gpu-diagnose-round8b.sh; predictions in results/nvidia-h100/diagnose/round8/
# PREDICTIONS-call2.md): 16 warps of two-line rows, four-line rows at 4 warps, two-line rows at 2 warps, 64 rows a warp
r8 d64-w16 1048576 64 16
r8 d128-w4 524288 128 4
r8 d64-w2 1048576 64 2
r8 d64-w8-r64 1048576 64 8 64
prof strat-same-native atomlab-strategy - - "warp-aggregated=strat-same-warp;block-aggregated=strat-same-block;privatized=strat-same-block" strategy -- $ST --pattern same-address --strategy native
prof strat-same-warp atomlab-strategy - - - strategy -- $ST --pattern same-address --strategy warp
prof strat-same-block atomlab-strategy - - - strategy -- $ST --pattern same-address --strategy block
[ -e build/libatomlab_cub.so ] &&
  prof hist-solid-cub cub - - - Histogram -- $A app histogram --backend cuda --input u8 --bytes 67108864 --samples 1 \
    --quiet -o $W/hc.json --dist solid --variants cub
prof hc-uniform-add atomlab-hist-case - not - "" -- $HC --kernel histogram --image uniform --result used
prof hc2-solid-add atomlab-hist-case - not - "" -- $HC --kernel histogram2 --image solid --result used
prof hist-uniform-global atomlab-histogram - - "privatized=hist-uniform-shared;block16=hist-uniform-block16;block-aggregated=hist-uniform-match-any" histogram -- $H --dist uniform --variants global
prof hist-uniform-shared atomlab-histogram - not "$HU" histogram -- $H --dist uniform --variants shared
prof scatter-uniform-atomic atomlab-scatter - - - scatter_add -- $SC --dist uniform --variants atomic
prof strat-scattered-native atomlab-strategy - - - strategy -- $ST --pattern scattered --strategy native
prof rmw-shared-free atomlab-rmw - - - rmw -- $RL --op fetch_add --contention 1
prof rmw-shared-cas-free atomlab-rmw - - - rmw -- $RL --op cas --contention 1
prof hc-uniform-popc atomlab-hist-case - not - "" -- $HC --kernel histogram --image uniform --result unused
for v in match-any warp-private byte-lanes block16; do
  prof hist-uniform-$v atomlab-histogram - not - histogram -- $H --dist uniform --variants $v
done
step_note "$(wc -l <"$MAN") programs profiled"

# 3. one export of every program, then the model and the validation (the same script runs offline: --dry)
# (past the programs' deadline on purpose: what was profiled is always analysed)
STEP_DEADLINE=
step merge 20 python3 scripts/diagnose-validation.py merge "$W" "$MAN" "$OUT/programs.csv"
step validate 60 python3 scripts/diagnose-validation.py analyse "$OUT" --atomlab "$A"
tar czf "$OUT/exports.tgz" -C "$W" $(cd "$W" && ls *.csv 2>/dev/null) 2>/dev/null
cat "$OUT/validation-summary.txt" >>"$S" 2>/dev/null
cat "$S"
