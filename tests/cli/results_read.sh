#!/usr/bin/env bash
# Every committed result still reads: each atomlab row set under results/ (JSON with "format_version" and
# "rows", gzipped or not) compared with itself by `atomlab compare` must match every row as "same". The other
# JSON files there are not row sets, and each must be one of the known kinds below (an unknown shape fails):
# device lists, peer programs' outputs (PyTorch, CuPy), the smem calibration's metadata, `model util`'s kernel
# tables, and the diagnose validation summaries of scripts/diagnose-validation.py. No device needed.
. "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# Rows without any header: scripts/gpu-l2-counters.sh joined its rmw files' rows and dropped the header until it
# kept the first file's (round 3 of [diagnose]); the file is kept as it was measured.
HEADERLESS="results/nvidia-h200/diagnose/l2-counters/rmw.json"
[ -d "$ROOT/results" ] || { echo "no results/ folder: skipped"; exit 77; }
cd "$ROOT" || exit 1
n=0
for f in $(git ls-files 'results/*.json' 'results/*.json.gz' 2>/dev/null || find results -name '*.json' -o -name '*.json.gz'); do
  src=$f
  case $f in *.gz) gzip -dc "$f" >"$WORK/f.json" 2>/dev/null || { fail "$f: not gzip"; continue; }; src=$WORK/f.json ;; esac
  kind=$(python3 - "$src" "$f" "$HEADERLESS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
keys = set(d) if isinstance(d, dict) else set()
if {"format_version", "rows"} <= keys:  # version 1 files name no kind: the reader migrates them
    print("rows %d" % len(d["rows"]))
elif isinstance(d, list) or "devices" in keys or ({"rows"} <= keys and "peer" in keys) or "peer" in keys:
    print("other")  # device lists; peer programs' outputs
elif "calibration" in keys or "kernels" in keys or {"measured", "rows"} <= keys:
    print("other")  # smem calibration metadata, model util's kernel table, diagnose validation summaries
elif sys.argv[2] == sys.argv[3] and keys == {"rows"}:
    print("other")
else:
    print("unknown " + ",".join(sorted(keys))[:200])
PY
  )
  case $kind in
  other) continue ;;
  "rows 0") continue ;; # a run stopped before its first row: nothing to match
  rows*)
    rows=${kind#rows }
    n=$((n + 1))
    "$ATOMLAB" compare "$src" "$src" >"$WORK/c.txt" 2>"$WORK/err" &&
      grep -q "^summary: $rows matched ($rows same" "$WORK/c.txt" && pass ||
      fail "$f against itself: $(grep '^summary' "$WORK/c.txt") $(tail -1 "$WORK/err")" ;;
  *) fail "$f: a JSON file of no known kind ($kind)" ;;
  esac
done
[ "$n" -ge 100 ] && pass || fail "only $n row sets under results/ (expected at least 100)"
echo "$n row sets read and matched themselves"
finish
