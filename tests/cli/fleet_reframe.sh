#!/usr/bin/env bash
# The ReFrame checks (reframe/checks.py) on this machine's local launcher, as CI runs them:
#   reframe -C reframe/settings.py -c reframe/checks.py -r
# with the stage and output folders under the build tree. Both checks must pass, each node's files must be
# collected for `atomlab fleet`, and a reference the device cannot reach must fail the run. reframe-hpc comes from
# scripts/setup-deps.sh (the project's .venv): without it this test fails, it does not skip.
. "$(dirname "$0")/lib.sh"
need_opencl
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="$(cd "$(dirname "$ATOMLAB")" && pwd)"
ATOMLAB="$BUILD/$(basename "$ATOMLAB")" # the checks run it from their stage folders
REFRAME=${ATL_REFRAME:-$ROOT/.venv/bin/reframe}
[ -x "$REFRAME" ] || REFRAME=$(command -v reframe || true)
if [ -z "$REFRAME" ]; then
  echo "FAIL: reframe not found (${ATL_REFRAME:-$ROOT/.venv/bin/reframe}, or reframe on PATH): run scripts/setup-deps.sh"
  exit 1
fi
OUT="$BUILD/reframe"
rm -rf "$OUT"
mkdir -p "$OUT/tmp"
# ReFrame's own log goes to $TMPDIR: kept under the build tree too
run_reframe() {
  (cd "$OUT" && TMPDIR="$OUT/tmp" ATOMLAB="$ATOMLAB" "$REFRAME" "$@")
}

run_reframe -C "$ROOT/reframe/settings.py" -c "$ROOT/reframe/checks.py" --prefix "$OUT/run" \
  --report-file "$OUT/report.json" -S fleet_dir="$OUT/fleet" -r >"$OUT/run.log" 2>&1 && pass ||
  fail "reframe run: $(tail -40 "$OUT/run.log")"
python3 - "$OUT/report.json" <<'PY' && pass || fail "report: $(tail -20 "$OUT/run.log")"
import json, sys
r = json.load(open(sys.argv[1]))
cases = [c for run in r["runs"] for c in run["testcases"]]
names = sorted(c["name"].split()[0] for c in cases)
assert names == ["AtomlabDatasheet", "AtomlabReport"], names
assert all(c["result"] == "pass" for c in cases), [(c["name"], c["result"]) for c in cases]
# every performance variable is a rate the device measured
perf = [v for c in cases for v in c["perfvalues"].values()]
assert len(perf) == 16 and all(v[0] > 0 for v in perf), perf
PY
node=$(ls "$OUT/fleet")
[ -f "$OUT/fleet/$node/datasheet-rmw.json" ] && [ -f "$OUT/fleet/$node/datasheet.json" ] &&
  [ -f "$OUT/fleet/$node/report/report.md" ] && pass || fail "collected files: $(ls -R "$OUT/fleet")"
"$ATOMLAB" fleet "$OUT/fleet/$node" >"$WORK/fleet.txt" 2>"$WORK/err" &&
  grep -q "^fleet: 1 nodes, 1 device model, 24 ops: 0 flagged" "$WORK/fleet.txt" && pass ||
  fail "atomlab fleet on the collected node: $(cat "$WORK/fleet.txt" "$WORK/err")"

# references the device cannot reach (an H100's, on this machine) fail the check's performance stage
sed "s|'extras': {'atomlab_profile': 'quick'}|'extras': {'atomlab_profile': 'quick', 'atomlab_references': 'nvidia-h100'}|" \
  "$ROOT/reframe/settings.py" >"$WORK/settings.py"
grep -q "'atomlab_references': 'nvidia-h100'}" "$WORK/settings.py" || fail "the local partition's extras moved"
run_reframe -C "$WORK/settings.py" -c "$ROOT/reframe/checks.py" --prefix "$OUT/refs" -n AtomlabDatasheet \
  --report-file "$OUT/refs.json" -r >"$OUT/refs.log" 2>&1 && fail "an H100's references passed on this device" ||
  { grep -q "failed to meet reference" "$OUT/refs.log" && pass || fail "references: $(tail -30 "$OUT/refs.log")"; }

echo "$PASSES passed, $FAILS failed"
[ "$FAILS" -eq 0 ]
