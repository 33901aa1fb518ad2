#!/usr/bin/env bash
# `atomlab model swatomic` on the command line, CPU only, over two H200 runs (tests/data/swatomic): the seed's equation (2)
# (410%), equation (2'') fitted on three grids (in/out marks and both medians: 12% out of sample; the floor and the
# pass named per grid), and bad input.
. "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
H200=$WORK/h200
mkdir -p "$H200"
for b in cuda opencl; do gzip -dc "$DATA/swatomic/h200-$b.json.gz" >"$H200/swatomic-$b.json"; done
"$ATOMLAB" model swatomic "$H200/swatomic-cuda.json" >"$WORK/seed.txt" 2>"$WORK/err"
[ $? -eq 0 ] && grep -q "^median |error|, the seed's equation (2) (9 grids): system 2%, software 82%, speedup 410%$" \
  "$WORK/seed.txt" && pass || fail "seed: $(cat "$WORK/seed.txt" "$WORK/err")"
"$ATOMLAB" model swatomic "$H200/swatomic-cuda.json" --fit-grids 8,128,1024 >"$WORK/fit.txt" 2>"$WORK/err"
[ $? -eq 0 ] && [ "$(grep -c ' in$' "$WORK/fit.txt")" -eq 3 ] && [ "$(grep -c ' out$' "$WORK/fit.txt")" -eq 6 ] &&
  grep -q '^median |error| out-of-sample (6 grids): .*speedup 12%$' "$WORK/fit.txt" &&
  grep -qE '^ +8 +1 floor ' "$WORK/fit.txt" && grep -qE '^ +1024 +32  pass ' "$WORK/fit.txt" && pass ||
  fail "fit: $(cat "$WORK/fit.txt" "$WORK/err")"
# another file's constants: every grid out of sample
"$ATOMLAB" model swatomic "$H200/swatomic-opencl.json" --fit "$H200/swatomic-cuda.json" --fit-grids 8,128,1024 \
  >"$WORK/x.txt" 2>&1
[ "$(grep -c ' out$' "$WORK/x.txt")" -eq 9 ] && ! grep -q 'in-sample' "$WORK/x.txt" && pass || fail "cross: $(cat "$WORK/x.txt")"
# bad input: one line naming the parameter, exit 2
expect_refused '--fit-grids' model swatomic "$H200/swatomic-cuda.json" --fit-grids 8
expect_refused '--fit-grids' model swatomic "$H200/swatomic-cuda.json" --fit-grids 8,x
expect_refused 'no swatomic model row' model swatomic "$DATA/compare-a.json"
expect_refused 'takes one file' model swatomic
expect_refused 'nope.json' model swatomic "$WORK/nope.json"
finish
