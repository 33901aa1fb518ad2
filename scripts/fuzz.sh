#!/usr/bin/env bash
# Fuzzes atomlab's input parsers and its escaping of data (src/core/escape.c) with libFuzzer (clang) under ASan + UBSan:
#   scripts/fuzz.sh [SECONDS]   each harness for SECONDS (default 600), in parallel,
# then merges the new interesting inputs into tests/fuzz/corpus/<name>/ (commit
# them: CI replays every corpus input). Logs go to build-fuzz/fuzz-<name>.log.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
command -v clang >/dev/null || { echo "error: clang is not installed (apt-get install clang)" >&2; exit 2; }
CC=clang cmake -S . -B build-fuzz -DATL_FUZZ=ON -DATL_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_axis fuzz_result_json fuzz_smem_table fuzz_ncu_csv fuzz_l2_csv fuzz_result_file fuzz_escape fuzz_tuning \
  fuzz_call_table
pids=()
for name in axis result_json smem_table ncu_csv l2_csv result_file escape tuning call_table; do
  work=build-fuzz/corpus-$name
  mkdir -p "$work"
  cp -n tests/fuzz/corpus/$name/* "$work"/ 2>/dev/null || true
  ./build-fuzz/tests/fuzz/fuzz_$name "$work" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
    -print_final_stats=1 >"build-fuzz/fuzz-$name.log" 2>&1 &
  pids+=($!)
done
rc=0
for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
for name in axis result_json smem_table ncu_csv l2_csv result_file escape tuning call_table; do
  tail -12 "build-fuzz/fuzz-$name.log" | grep -E "stat::|Done|ERROR|SUMMARY" || true
  ./build-fuzz/tests/fuzz/fuzz_$name -merge=1 tests/fuzz/corpus/$name build-fuzz/corpus-$name >/dev/null 2>&1 || rc=1
  echo "$name: $(ls tests/fuzz/corpus/$name | wc -l) corpus inputs"
done
exit $rc
