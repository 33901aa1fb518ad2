#!/usr/bin/env bash
# The test suite: install what is missing, build with warnings as errors, and
# run every ctest test (GPU tests skip themselves where there is no GPU); then
# the same suite again in an AddressSanitizer + UndefinedBehaviorSanitizer
# build, where any finding fails its test. Extra arguments go to both ctest runs
# (e.g. -L unit). ATL_NO_SANITIZERS=1 skips the second pass for a quick local run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
bash scripts/build.sh -DATL_WERROR=ON
(cd build && ctest --output-on-failure -j2 "$@")
if [ "${ATL_NO_SANITIZERS:-0}" != 1 ]; then
  echo "== the same tests under ASan + UBSan"
  cmake -S . -B build-asan -DATL_SANITIZE=ON -DATL_WERROR=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
  cmake --build build-asan -j"$(nproc)"
  (cd build-asan && ctest --output-on-failure -j2 "$@")
fi
