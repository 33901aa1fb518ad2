#!/usr/bin/env bash
# Every result file kept as test data still reads: each atomlab row set under tests/data (JSON with
# "format_version" and "rows", gzipped or not) compared with itself by `atomlab compare` must match every row as
# "same", and there must be one of format 1 and one of format 2 of each kind (rmw, strategy, app). The other JSON
# files there must be of a known kind (an unknown shape fails): peer programs' outputs (PyTorch), the reference
# runner's run.json, the diagnose validation summaries, the scatter shape grid and its shapes.json. No device
# needed.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../data" || exit 1
n=0
: >"$WORK/kinds"
for f in $(find . -name '*.json' -o -name '*.json.gz' | sort); do
  src=$f
  case $f in *.gz) gzip -dc "$f" >"$WORK/f.json" 2>/dev/null || { fail "$f: not gzip"; continue; }; src=$WORK/f.json ;; esac
  kind=$(python3 - "$src" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError:
    print("notjson")
    sys.exit()
keys = set(d) if isinstance(d, dict) else set()
if {"format_version", "rows"} <= keys:  # version 1 files name no kind: their rows say it
    rows = d["rows"]
    r = rows[0] if rows else {}
    c = r.get("config", r)
    kind = d.get("kind") or ("app" if "app" in c else "strategy" if "strategy" in c else "rmw")
    print("rows %d v%d %s" % (len(rows), d["format_version"], kind))
elif "peer" in keys or keys >= {"format", "command"} or {"measured", "rows"} <= keys:
    print("other")  # a peer program's output, the runner's run.json, a diagnose validation summary
elif {"shapes", "goals"} <= keys or {"cells", "goals", "torch"} <= keys:
    print("other")  # the scatter shape grid (experiments/scatter-shapes.json's form) and its runner's shapes.json
elif {"about", "entries"} <= keys:
    print("other")  # a reference plan (experiments/reference.json's form: the results index fixture's plan.json)
elif {"about", "rows", "device", "cells"} == keys:
    print("other")  # a shape grid's cells as the auto rule sees them (test_scatter_auto's h200-grid-picks.json)
else:
    print("unknown " + ",".join(sorted(keys))[:200])
PY
  )
  case $kind in
  other) continue ;;
  rows*)
    set -- $kind
    rows=$2
    echo "$3 $4" >>"$WORK/kinds"
    n=$((n + 1))
    "$ATOMLAB" compare "$src" "$src" >"$WORK/c.txt" 2>"$WORK/err" &&
      grep -q "^summary: $rows matched ($rows same" "$WORK/c.txt" && pass ||
      fail "$f against itself: $(grep '^summary' "$WORK/c.txt") $(tail -1 "$WORK/err")" ;;
  *) fail "$f: a JSON file of no known kind ($kind)" ;;
  esac
done
for k in "v1 rmw" "v2 rmw" "v1 strategy" "v2 strategy" "v1 app" "v2 app"; do
  grep -qx "$k" "$WORK/kinds" && pass || fail "no row set of format ${k% *} and kind ${k#* } under tests/data"
done
echo "$n row sets read and matched themselves"
finish
