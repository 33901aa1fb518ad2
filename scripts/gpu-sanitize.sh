#!/usr/bin/env bash
# compute-sanitizer over the CUDA rmw kernels (issues [cuda] and [reliability]).
#   memcheck   every op x type x space x result use, contiguous pattern; every
#              op with u32/u64 for the random and branched families
#   racecheck  shared-memory hazards: every op of the local-memory kernels
#   synccheck  barrier misuse: the same kernels as racecheck
# plain_add is the one deliberate race (docs/reliability.md): racecheck runs it
# on its own and should report hazards there, which shows the tool is looking.
# The tools run side by side (they are CPU-bound on NVRTC builds); each is cut
# at STEP_LIMIT seconds (default 200). Writes OUT/sanitize-*.txt and a summary.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out/gpu-sanitize}
LOGS=$OUT/sanitize # bundled into one archive at the end (few files come back from the GPU machine)
mkdir -p "$LOGS"
. scripts/gpu-env.sh
A=./build/atomlab
CS=${CS:-compute-sanitizer}
command -v "$CS" >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
# Tiny launches: the sanitizers check every access, not speed.
# Contention 64 in blocks of 128: two warps share each word, so a race between
# warps (what racecheck reports) is there to be found in plain_add.
Q="--backend cuda --workgroups 2 --wg-size 128 --iters 2 --min-samples 1 --max-samples 1 --contention 64 --padding 1 --quiet"
NOT_PLAIN=fetch_add,fetch_sub,inc,dec,fetch_min,fetch_max,and,or,xor,exchange,cas,cas_fail
LOCAL="--space local --op $NOT_PLAIN --type u32,u64,f32 --pattern contiguous,random,branched --result unused,used"

# PASSES=memcheck-walks,racecheck,... runs only those passes (default: all).
run() { # run NAME TOOL ATOMLAB-ARGS...: one sanitizer pass (in the background: a status file each), log kept
  local name=$1 tool=$2
  shift 2
  [ -n "${PASSES:-}" ] && [[ ",$PASSES," != *",$name,"* ]] && return
  STEP_LOG=$LOGS/$name.txt STEP_STATUS=$LOGS/status-$name.status step "$name ($tool)" "${STEP_LIMIT:-200}" \
    "$CS" --tool "$tool" --error-exitcode 99 --print-limit 50 $A rmw "$@" -o "$LOGS/$name.json" >/dev/null
  grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$LOGS/$name.txt" | tail -1 >>"$LOGS/status-$name.status"
}

run memcheck-types memcheck $Q --op all --type all --space global,local --pattern contiguous --result unused,used &
run memcheck-walks memcheck $Q --op $NOT_PLAIN --type u32,u64 --space global,local --pattern random,branched \
  --result unused,used &
run racecheck racecheck $Q $LOCAL &
run synccheck synccheck $Q $LOCAL &
run racecheck-plain-add racecheck $Q --space local --op plain_add --type u32 --pattern contiguous --result unused &
wait
{
  echo "compute-sanitizer $("$CS" --version | tail -1)"
  cat "$LOGS"/status-*.status
  for f in "$LOGS"/*.json; do
    python3 - "$f" <<'PY'
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
rows = d["rows"]
ok = sum(r["status"] == "ok" for r in rows)
ver = sum(bool(r["verified"]) for r in rows)
print(f"{sys.argv[1].rsplit('/', 1)[-1]}: {len(rows)} rows, {ok} ok, {ver} verified, "
      f"{sum(r['status'] == 'unsupported' for r in rows)} unsupported")
PY
  done
} | tee "$OUT/sanitize-summary.txt"
rm -f "$LOGS"/status-*.status
tar -C "$OUT" -czf "$OUT/sanitize.tgz" sanitize && rm -rf "$LOGS"
