#!/usr/bin/env bash
# Valgrind memcheck over the main CLI paths on PoCL (ATL_BACKENDS=opencl): devices, an rmw sweep
# with every output format, a resumed sweep, a sweep under an injected
# device fault, an app and an app's usage error, and the commands that read
# results back: compare (every format) plot (with and without gnuplot), model util on the recorded
# tables and counters of tests/data, and report --quick (the children it
# runs, gnuplot and atomlab rmw/plot, are not traced: their own runs above are). Any invalid access, use of uninitialised memory or definite
# leak fails; scripts/valgrind.supp suppresses only what lies in the dynamic
# loader and PoCL (each entry says why). Skipped (77) without valgrind.
#
# Each command first runs once without valgrind, so that PoCL compiles its
# kernels into its cache (POCL_CACHE_DIR) before valgrind starts: with a cold
# cache PoCL runs LLVM's compiler inside atomlab, whose pass managers keep
# memory at exit (llvm::PMDataManager::add, 1.6 MB "definitely lost" in
# libLLVM) that is neither atomlab's nor PoCL's to free, and traced it takes
# minutes. With the kernels cached, valgrind traces every line of atomlab
# (the build call included: a cache hit) and none of LLVM's, without a
# suppression that could hide a real leak of ours (docs/design/reliability.md). PoCL
# still compiles a work-group function for a launch shape its cache lacks on
# one of its own device threads (pocl_check_kernel_disk_cache, no atomlab frame
# there): scripts/valgrind.supp names that stack.
. "$(dirname "$0")/lib.sh"
need_opencl
# PoCL's paths only: lavapipe (the Vulkan backend's CPU driver) JIT-compiles with LLVM inside atomlab
# whenever a Vulkan device is opened, outside PoCL's kernel cache, and LLVM's pass managers keep that
# memory at exit (the same "definitely lost" as above; seen in the sweep and app cases).
export ATL_BACKENDS=opencl
command -v valgrind >/dev/null || { echo "valgrind not installed: skipped"; exit 77; }
SUPP="$(cd "$(dirname "$0")/../.." && pwd)/scripts/valgrind.supp"
VG="valgrind --quiet --suppressions=$SUPP --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite --error-exitcode=99"
R="rmw --iters 5 --min-samples 2 --max-samples 2 --contention 1,4 --padding 1 --pattern all --op fetch_add,cas,exchange --result used"
run() { # run NAME EXPECTED_EXIT ARGS...
  local name=$1 expect=$2
  shift 2
  "$ATOMLAB" "$@" >/dev/null 2>&1 # warms PoCL's kernel cache (see above)
  $VG "$ATOMLAB" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
  local rc=$?
  if [ $rc -eq "$expect" ]; then pass; else fail "$name: exit $rc (99 = valgrind found errors): $(grep -m5 '==' "$WORK/$name.err")"; fi
}
run devices 0 devices
run sweep 0 $R -o "$WORK/a.json" -o "$WORK/a.csv" -o "$WORK/a.txt"
run resume 0 ${R/--contention 1,4/--contention 1,4,16} --resume "$WORK/a.json" -o "$WORK/b.json"
ATL_FAULT=launch:4+ run fault 1 $R -o "$WORK/c.json"
run usage 2 ${R/--contention 1,4/--contention 0}
# an app through its registry entry: options read into lists and texts, the configuration freed
run app 0 app histogram --input u8,u32 --bins 256 --dist solid --variants global,shared --bytes 4096 --samples 1 \
  -o "$WORK/h.json"
run app_usage 2 app swatomic --groups 8,x
DATA="$(cd "$(dirname "$0")/../data" && pwd)"
run compare 0 compare "$DATA/compare-a.json" "$DATA/compare-b.json"
run compare_json 0 compare "$DATA/compare-a.json" "$DATA/compare-b.json" -o "$WORK/cmp.json"
run compare_csv 0 compare "$WORK/a.json" "$WORK/b.json" --format csv
run compare_bad 2 compare "$DATA/compare-a.json" "$WORK/missing.json"
run plot 0 plot "$DATA/plot-small.json" --format both -o "$WORK/figs"
run plot_bars 0 plot "$DATA/strategy-small.json" -o "$WORK/bars"
ATL_GNUPLOT=/nonexistent run plot_nognuplot 0 plot "$WORK/b.json" -o "$WORK/nognuplot"
run plot_bad 2 plot "$WORK/a.csv"
run model_util 0 model util --table "$DATA/smem-table-synthetic.csv" --counters "$DATA/ncu-synthetic-raw.csv"
run model_util_json 0 model util --table "$DATA/smem-table-synthetic.csv" --counters "$DATA/ncu-synthetic-details.csv" -o "$WORK/util.json"
run model_util_csv 0 model util --table "$DATA/smem-table-synthetic.csv" --counters "$DATA/ncu-synthetic-raw.csv" --result unused --format csv
run model_util_bad 2 model util --table "$DATA/ncu-synthetic-raw.csv" --counters "$DATA/ncu-synthetic-raw.csv"
run describe 0 rmw --describe
run report 0 report --quick -o "$WORK/report"
finish
