#!/usr/bin/env bash
# One GPU call for several feature scripts (the GPU machine returns few files):
# runs each script with its own output folder and time limit, then bundles
# everything into OUT/all.tgz and prints the summaries.
#   gpu-session.sh NAME:SECONDS[:ENV=VALUE[:ENV=VALUE...]] ...   e.g. sanitize:110:STEP_LIMIT=100 strategies:250
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
OUT=${OUT:-out/gpu-session}
mkdir -p "$OUT/all"
for spec in "$@"; do
  IFS=: read -r name limit envs <<<"$spec"
  STEP_LOG=$OUT/all/$name.log STEP_STATUS=$OUT/session.txt step "$name" "$limit" \
    env ${envs:+${envs//:/ }} OUT="$OUT/all/$name" bash "scripts/gpu-$name.sh"
done
tar -C "$OUT" -czf "$OUT/all.tgz" all
for f in "$OUT"/all/*/summary*.txt "$OUT"/all/*/sanitize-summary.txt; do
  [ -f "$f" ] && { echo "== $f"; cat "$f"; }
done >>"$OUT/session.txt" 2>/dev/null
tail -c 9000 "$OUT/session.txt"
rm -rf "$OUT/all"
