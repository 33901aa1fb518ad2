#!/usr/bin/env bash
# Predicted busy time against measured kernel time (`model predict`) and the
# verdict checks (`--expect`) on the command line, CPU only: the REAL H100
# export and table of tests/data (README there), a made-up case-study CSV to
# label its launches, the SYNTHETIC export for --expect, and bad input.
. "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
TABLE=$DATA/smem-table-h100-trim.csv
NCU=$DATA/ncu-h100-rmw.csv

# Markdown: kernel 7 (fetch_add, 32 lanes on one word) by hand: B = 32768 x 677.9936 / 15.9936 = 1,389,090
# cycles = 701.6 us at 1980 MHz against 534.1 us measured (docs/design/model.md)
"$ATOMLAB" model predict --table "$TABLE" --counters "$NCU" --kernel rmw >"$WORK/pred.md" 2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "model predict: $(cat "$WORK/err")"
# and with the pipelined S' = (T(15.9936) - T(1)) / 14.9936 = (677.9936 - 220) / 14.9936 = 30.55: B' / measured = 0.946
grep -q '^| 7 | rmw | 3.277e+04 | 15.99 | 32.00 | - | 42.39 | 701.6 | 534.1 | 1.313 | 1.322 | bottleneck | 30.55 | 0.946 |$' "$WORK/pred.md" &&
  pass || fail "kernel 7 row: $(grep '^| 7 ' "$WORK/pred.md")"
grep -q '^| 19 | rmw | 0 |.* 0.000 | 0.000 | not | 0.00 | 0.000 |$' "$WORK/pred.md" && pass || fail "global kernel: $(grep '^| 19 ' "$WORK/pred.md")"
grep -q '^Bottleneck kernels (16): median |error| 81.0 %, largest 1223.2 %' "$WORK/pred.md" &&
  grep -q '^Other kernels (16): B / measured median 0.000, largest 0.000' "$WORK/pred.md" &&
  grep -q "^The same kernels with B' (pipelined S'): median |error| 49.3 %, largest 336.9 %" "$WORK/pred.md" &&
  pass || fail "summary: $(tail -3 "$WORK/pred.md")"
grep -q '| discovery |' "$WORK/pred.md" && fail "--kernel rmw kept discovery" || pass
# CSV through -o
"$ATOMLAB" model predict --table "$TABLE" --counters "$NCU" --kernel rmw -o "$WORK/pred.csv" 2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "model predict -o csv: $(cat "$WORK/err")"
grep -q '^7,rmw,,,,,,32768,15.9936,32,0,,42.3916,1.38909e+06,1.05056e+06,1.32224,bottleneck,1980,device,701.559,534.144,1.31343,31.343,30.5459,505.52,0.946411$' \
  "$WORK/pred.csv" && pass || fail "kernel 7 CSV: $(grep '^7,' "$WORK/pred.csv")"
[ "$(wc -l <"$WORK/pred.csv")" -eq 33 ] && pass || fail "CSV rows: $(wc -l <"$WORK/pred.csv")"

# --runs: 16 rows of one warm-up + one timed launch label the 32 rmw launches; each row's last launch stands for it
{
  echo "kernel,image,result,pixels,wg_size,workgroups,warmup,reps,median_ms"
  for i in $(seq 1 16); do echo "histogram,solid,used,$((i * 32)),256,264,1,1,0.5"; done
} >"$WORK/runs.csv"
"$ATOMLAB" model predict --table "$TABLE" --counters "$NCU" --kernel rmw --runs "$WORK/runs.csv" --format csv \
  >"$WORK/runs-pred.csv" 2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "predict --runs: $(cat "$WORK/err")"
[ "$(wc -l <"$WORK/runs-pred.csv")" -eq 17 ] && pass || fail "--runs rows: $(cat "$WORK/runs-pred.csv")"
grep -q '^8,rmw,histogram,solid,used,128,256,32768,' "$WORK/runs-pred.csv" && ! grep -q '^7,' "$WORK/runs-pred.csv" &&
  pass || fail "--runs labels: $(head -5 "$WORK/runs-pred.csv")"

# --expect on the synthetic export: hist_full is a bottleneck at 0.7 (U 0.714), hist_half (0.357) and copy (0) are not
SYN=$DATA/smem-table-synthetic.csv
RAW=$DATA/ncu-synthetic-raw.csv
"$ATOMLAB" model util --table "$SYN" --counters "$RAW" --threshold 0.7 --expect "hist_full=bottleneck" --expect "hist_half=not" \
  --expect copy=not >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] && [ "$(grep -c '^expect: ' "$WORK/err")" -eq 3 ] && pass || fail "--expect met: $(cat "$WORK/err")"
"$ATOMLAB" model util --table "$SYN" --counters "$RAW" --expect "hist_half=bottleneck" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && grep -q '^error: --expect hist_half=bottleneck: 1 of 1 launches got another verdict' "$WORK/err" &&
  pass || fail "--expect unmet: exit $rc, $(cat "$WORK/err")"
"$ATOMLAB" model util --table "$SYN" --counters "$RAW" --expect "nosuch=not" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && grep -q '^error: --expect nosuch: no kernel of that name' "$WORK/err" && pass ||
  fail "--expect missing kernel: exit $rc, $(cat "$WORK/err")"
# on the real export: the shared fetch_add loops are bottlenecks, the global-memory ones are not and the CAS loops on
# distinct words are "bound" (no wavefront count on that export), so "rmw" is mixed
"$ATOMLAB" model util --table "$TABLE" --counters "$NCU" --expect rmw=bottleneck --expect discovery=not >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && grep -q '^error: --expect rmw=bottleneck: 20 of 32 launches' "$WORK/err" &&
  grep -q '^expect: discovery=not a bottleneck: met by all 1 launches' "$WORK/err" && pass ||
  fail "--expect on the H100 export: exit $rc, $(cat "$WORK/err")"

# profile asks for the optional metrics (elapsed cycles, shared-atomic wavefronts) only where ncu lists them
fake_ncu "$WORK/ncu"
export FAKE_NCU_CSV=$RAW FAKE_NCU_ARGS=$WORK/ncu-args
export FAKE_NCU_METRICS="smsp__inst_executed_op_shared_atom sm__cycles_active sm__warps_active gpu__time_duration"
"$ATOMLAB" profile --table "$SYN" --ncu "$WORK/ncu" --threshold 0.7 --expect hist_full=bottleneck -- true >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] && ! grep -q "cycles_elapsed\|wavefronts" "$WORK/ncu-args" && grep -q "^expect: hist_full=bottleneck" "$WORK/err" &&
  pass || fail "profile without the extras: $(cat "$WORK/ncu-args" "$WORK/err")"
FAKE_NCU_MORE=1 "$ATOMLAB" profile --table "$SYN" --ncu "$WORK/ncu" --threshold 0.7 --expect hist_full=not -- true >"$WORK/out" 2>"$WORK/err"
rc=$?
grep -q "sm__cycles_elapsed.avg" "$WORK/ncu-args" && grep -q "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum" "$WORK/ncu-args" &&
  [ $rc -eq 1 ] && grep -q "^error: --expect hist_full=not a bottleneck: 1 of 1" "$WORK/err" && pass ||
  fail "profile with the extras: exit $rc, $(cat "$WORK/ncu-args" "$WORK/err")"
# the validation kernels need CUDA: without it a runtime failure (exit 1) that says so
if ! "$ATOMLAB" devices --format json 2>/dev/null | grep -q '"backend": *"cuda"'; then
  "$ATOMLAB" hist-case --validate >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ $rc -eq 1 ] && grep -q "^error: .*cuda" "$WORK/err" && pass || fail "validate without CUDA: exit $rc, $(cat "$WORK/err")"
fi

# bad input: exit 2, one line naming the parameter, no file
printf 'kernel,image,result,pixels,wg_size,reps\nhistogram,solid,used,32,128,1\n' >"$WORK/one-row.csv"
printf 'kernel,image,result\nhistogram,solid,used\n' >"$WORK/no-reps.csv"
expect_usage_error "--runs" model predict --table "$TABLE" --counters "$NCU" --kernel rmw --runs "$WORK/one-row.csv"
expect_usage_error "--runs" model predict --table "$TABLE" --counters "$NCU" --kernel rmw --runs "$WORK/no-reps.csv"
expect_usage_error "--runs" model predict --table "$TABLE" --counters "$NCU" --kernel rmw --runs "$WORK/missing.csv"
expect_usage_error "--kernel" model predict --table "$TABLE" --counters "$NCU" --kernel nosuch
expect_usage_error "--kernel" model predict --table "$TABLE" --counters "$NCU" --kernel ""
expect_usage_error "--format" model predict --table "$TABLE" --counters "$NCU" --format json
expect_usage_error "--counters" model predict --table "$TABLE"
expect_usage_error "--table" model predict --counters "$NCU"
expect_usage_error "clock" model predict --table "$SYN" --counters "$RAW"
expect_usage_error "--runs" model util --table "$TABLE" --counters "$NCU" --runs "$WORK/one-row.csv"
expect_usage_error "--expect" model util --table "$SYN" --counters "$RAW" --expect hist_full=maybe
expect_usage_error "--expect" model util --table "$SYN" --counters "$RAW" --expect =bottleneck
expect_usage_error "--expect" model predict --table "$TABLE" --counters "$NCU" --expect rmw=not
expect_usage_error "--validate" hist-case --validate --pixels 64
expect_usage_error "--wg-size" hist-case --validate --wg-size 100
expect_usage_error "--warmup" hist-case --warmup -1
expect_usage_error "--warmup" hist-case --warmup 101
finish
