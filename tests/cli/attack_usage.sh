#!/usr/bin/env bash
# Attack class "usage errors that passed or changed silently"
# (docs/reliability-inputs.md): every usage error exits 2 with exactly one
# "error:" line naming the parameter, before anything is measured and with no
# file written; nothing the user asked for is clamped or dropped quietly.
. "$(dirname "$0")/lib.sh"
DATA="$(cd "$(dirname "$0")/../data" && pwd)"
# Run in $WORK (anything written to the current folder shows up) with absolute paths.
case $ATOMLAB in /*) ;; *) ATOMLAB="$PWD/$ATOMLAB" ;; esac
cd "$WORK" || exit 1

# --- commands that used to exit 0 on a usage error (no device needed) ---
expect_refused "'--bogus'" version --bogus
expect_refused "'extra'" version extra
expect_refused "calibrate needs a subcommand: allowed: smem" calibrate
expect_refused "model needs a subcommand: allowed: util, query, predict" model
expect_refused "app needs a subcommand: allowed: count, access-table" app
for cmd in version calibrate model app; do # --help is still help: usage on stdout, exit 0
  if "$ATOMLAB" $cmd --help >"$WORK/h" 2>"$WORK/e" && grep -q "usage: atomlab" "$WORK/h" && [ ! -s "$WORK/e" ]; then
    pass
  else
    fail "'atomlab $cmd --help' is not usage on stdout with exit 0"
  fi
done

# --- result files: the message names the field and the value found ---
sed 's/"format_version": 1/"format_version": "1"/' "$DATA/compare-a.json" >"$WORK/fv-string.json"
grep -v '"format_version"' "$DATA/compare-a.json" >"$WORK/fv-missing.json"
expect_refused "'format_version' is the string '1'" compare "$WORK/fv-string.json" "$DATA/compare-b.json"
expect_refused "'format_version' is missing" compare "$WORK/fv-missing.json" "$DATA/compare-b.json"

# --- ATL_BACKENDS with a name that is no backend: refused, naming the allowed ones ---
ATL_BACKENDS=none expect_refused "allowed: cuda, opencl" devices
ATL_BACKENDS=opencl,bogus expect_refused "'bogus' is not a backend" devices

# --- the plan limit is checked before anything is allocated or measured ---
expect_refused "rmw plans 338228674560 rows" rmw --op all --type all --pattern all --space all --result all --scope all \
  --order all --contention 1:4096:+1 --padding 1:4096:+1 -o "$WORK/out.json"
expect_refused "rmw plans 120000 rows" rmw --contention 1:200:+1 --padding 1:600:+1 -o "$WORK/out.json"
expect_refused "--max-rows 1" rmw --contention 1,4 --padding 1 --max-rows 1 -o "$WORK/out.json"
expect_refused "--max-rows" rmw --max-rows 0
expect_refused "strategy plans 24 rows" strategy --max-rows 20 -o "$WORK/out.json"

# --- --iters above what the library runs (2^24) is refused, not clamped ---
expect_refused "16777216" rmw --iters 16777217 -o "$WORK/out.json"
expect_refused "16777216" strategy --iters 1073741824 -o "$WORK/out.json"

need_opencl
ATL_BACKENDS=none expect_refused "ATL_BACKENDS 'none'" rmw --contention 1 --padding 1 -o "$WORK/out.json"
# a fault plan with a negative count (sscanf's %u read -1 as 4294967295, so it was accepted and never fired)
ATL_FAULT=alloc:-1 expect_refused "ATL_FAULT item 'alloc:-1'" rmw --contention 1 --padding 1 -o "$WORK/out.json"
Q=(--iters 5 --min-samples 2 --max-samples 2 --contention 1,4 --padding 1)
Q1=(--iters 5 --min-samples 2 --max-samples 2 --contention 1 --padding 1) # an option given twice is refused

# --- a plan within --max-rows runs ---
if "$ATOMLAB" rmw "${Q[@]}" --max-rows 2 --quiet -o "$WORK/ok.json" 2>"$WORK/e" && [ -s "$WORK/ok.json" ]; then
  pass
else
  fail "--max-rows 2 with 2 rows: $(cat "$WORK/e")"
fi

# --- names given twice, or "all" inside a list, are one axis value each ---
rows() { python3 -c 'import json, atl_json,sys; print(len(atl_json.load(sys.argv[1])["rows"]))' "$1"; }
if "$ATOMLAB" rmw "${Q1[@]}" --pattern all,all --quiet -o "$WORK/all.json" 2>"$WORK/e" &&
  [ "$(rows "$WORK/all.json")" = 4 ]; then
  pass
else
  fail "--pattern all,all is the four patterns: $(cat "$WORK/e")"
fi
if "$ATOMLAB" rmw "${Q1[@]}" --op fetch_add,fetch_add --pattern random,all --quiet -o "$WORK/dup.json" \
  2>"$WORK/e" && [ "$(rows "$WORK/dup.json")" = 4 ]; then
  pass
else
  fail "--op fetch_add,fetch_add --pattern random,all is four rows: $(cat "$WORK/e")"
fi

# --- a --resume row with a bad configuration field: the field is named ---
python3 - "$WORK/ok.json" "$WORK/badfield.json" <<'PY'
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
del d["rows"][0]["op"]
atl_json.dump(d, open(sys.argv[2], "w"))
PY
expect_refused "'op' is missing" rmw "${Q[@]}" --resume "$WORK/badfield.json" -o "$WORK/out.json"

finish
