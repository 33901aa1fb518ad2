#!/usr/bin/env bash
# Configures and builds atomlab into build/ (extra arguments go to cmake).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build build -j"$(nproc)"
# The first 4 MiB of the GCIDE dictionary (dict-gcide), 1.4 MB packed, next to
# the binary: GPU machines lack the package, and build/ travels to them
# (`atomlab app swapps`'s string match reads it there).
DICT=/usr/share/dictd/gcide.dict.dz
if [ -r "$DICT" ] && [ ! -s build/gcide-4m.txt.gz ]; then
  { gzip -dc "$DICT" 2>/dev/null || true; } | head -c 4194304 | gzip -9 >build/gcide-4m.txt.gz.tmp &&
    mv build/gcide-4m.txt.gz.tmp build/gcide-4m.txt.gz
fi
