#!/usr/bin/env bash
# One GPU call for several feature scripts (the GPU machine returns few files):
# runs each script with its own output folder and time limit, then bundles
# everything into OUT/all.tgz and prints the summaries.
#   gpu-session.sh NAME:SECONDS[:ENV=VALUE[:ENV=VALUE...]] ...   e.g. sanitize:110:STEP_LIMIT=100 strategies:250
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out/gpu-session}
mkdir -p "$OUT/all"
for spec in "$@"; do
  IFS=: read -r name limit envs <<<"$spec"
  start=$(date +%s)
  env ${envs:+${envs//:/ }} OUT="$OUT/all/$name" timeout "$limit" bash "scripts/gpu-$name.sh" >"$OUT/all/$name.log" 2>&1
  echo "== $name: exit $? in $(($(date +%s) - start)) s (limit $limit)" | tee -a "$OUT/session.txt"
done
tar -C "$OUT" -czf "$OUT/all.tgz" all
for f in "$OUT"/all/*/summary*.txt "$OUT"/all/*/sanitize-summary.txt; do
  [ -f "$f" ] && { echo "== $f"; cat "$f"; }
done >>"$OUT/session.txt" 2>/dev/null
tail -c 9000 "$OUT/session.txt"
rm -rf "$OUT/all"
