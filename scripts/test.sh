#!/usr/bin/env bash
# The test suite: install what is missing, build with warnings as errors, and
# run every ctest test (GPU tests skip themselves where there is no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
bash scripts/build.sh -DATL_WERROR=ON
cd build
ctest --output-on-failure -j2 "$@"
