#!/usr/bin/env bash
# The test suite: install what is missing, build with warnings as errors, and
# run every ctest test (GPU tests skip themselves where there is no GPU); then
# the same suite again in an AddressSanitizer + UndefinedBehaviorSanitizer
# build, where any finding fails its test. The second pass runs even when the
# first fails; both are reported and any failure makes the exit status
# non-zero. Extra arguments go to both ctest runs (e.g. -L unit).
# ATL_NO_SANITIZERS=1 skips the second pass for a quick local run.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/setup-deps.sh || exit 1
bash scripts/build.sh -DATL_WERROR=ON || exit 1
plain=0
(cd build && ctest --output-on-failure -j2 "$@") || plain=$?
# The Python package (tests/python) in a venv of the build, numpy and pytest from PyPI, over the build's
# libatomlab.so.1; any pytest status but 0 fails, "no tests collected" (5) too.
echo "== the Python package's tests (pytest in build/pyvenv)"
python=0
if ! build/pyvenv/bin/python -c 'import numpy, pytest' 2>/dev/null; then
  { python3 -m venv build/pyvenv && build/pyvenv/bin/pip install -q numpy pytest; } || python=setup-failed
fi
if [ "$python" = 0 ]; then
  ATOMLAB_LIBRARY="$PWD/build/libatomlab.so.1" build/pyvenv/bin/python -m pytest -q -p no:cacheprovider tests/python ||
    python=$?
fi
asan=skipped
if [ "${ATL_NO_SANITIZERS:-0}" != 1 ]; then
  echo "== the same tests under ASan + UBSan"
  asan=0
  if cmake -S . -B build-asan -DATL_SANITIZE=ON -DATL_WERROR=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null &&
    cmake --build build-asan -j"$(nproc)"; then
    # lavapipe (the Vulkan backend's CPU driver) leaves LLVM threads running at exit, and LeakSanitizer's
    # tracer can crash stopping them ("Tracer caught signal 11"): the Vulkan tests run on their own, every
    # other test with the Vulkan backend left out; lavapipe's own leaks (tests/vulkan/lsan.supp) are not reported
    (cd build-asan && ATL_BACKENDS=opencl,cuda ctest --output-on-failure -j2 -LE vulkan "$@" &&
      LSAN_OPTIONS="suppressions=$PWD/../tests/vulkan/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
        ctest --output-on-failure -j2 -L vulkan "$@") || asan=$?
  else
    asan=build-failed
  fi
fi
echo "== test.sh: plain build: $([ "$plain" = 0 ] && echo passed || echo "FAILED ($plain)");" \
  "Python: $([ "$python" = 0 ] && echo passed || echo "FAILED ($python)");" \
  "ASan + UBSan build: $([ "$asan" = 0 ] && echo passed || echo "$asan" | sed 's/^[0-9]*$/FAILED (&)/');" \
  "$(($(date +%s) - start)) s"
[ "$plain" = 0 ] && [ "$python" = 0 ] && { [ "$asan" = 0 ] || [ "$asan" = skipped ]; }
