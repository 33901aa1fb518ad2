#!/usr/bin/env bash
# The shared-memory atomic model on the command line, CPU only: `model util`
# and `model query` on the SYNTHETIC files of tests/data, `profile` through a
# stand-in ncu (a script that plays ncu's part with the synthetic export), and
# every bad input (one error line, exit 2, no file) or runtime failure (exit 1).
. "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
TABLE=$DATA/smem-table-synthetic.csv
RAW=$DATA/ncu-synthetic-raw.csv

# util: the hand-computed utilizations and verdicts, in every format. The unit model (docs/design/model.md): no
# wavefront or word count, so a job's 6 lanes (2400 / 400) are 6 passes on one word; a pass costs the synthetic
# table's slope at e = 8 (T = 30 + 4ne + 10c^2): 4 cycles for fetch-and-add, 4 + 10 (2 + 1) / 8 = 7.75 for CAS
# (c = n, n 1 -> 2); 25% CAS: 4.9375 a pass; B = 100 jobs x 6 x 4.9375 = 2962.5; U = B / 8300 = 0.357, B / 4150
# = 0.714 (bottleneck at --threshold 0.7). The seed's U (0.5, 1.0) stays in CSV/JSON as U_seed.
"$ATOMLAB" model util --table "$TABLE" --counters "$RAW" --threshold 0.7 >"$WORK/util.txt" 2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "model util failed: $(cat "$WORK/err")"
grep -q "hist_half.* 0.357  *0.36-0.36  not a bottleneck" "$WORK/util.txt" && pass || fail "hist_half: $(cat "$WORK/util.txt")"
grep -q "hist_full.* 0.714  *0.71-0.71  bottleneck" "$WORK/util.txt" && pass || fail "hist_full: $(cat "$WORK/util.txt")"
"$ATOMLAB" model util --table "$TABLE" --counters "$DATA/ncu-synthetic-details.csv" --threshold 0.7 -o "$WORK/util.json" 2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "model util -o json failed: $(cat "$WORK/err")"
python3 - "$WORK/util.json" <<'PY' && pass || fail "model util JSON"
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
k = {x["id"]: x for x in d["kernels"]}
assert abs(k["0"]["U"] - 2962.5 / 8300) < 1e-9 and k["0"]["verdict"] == "not a bottleneck", k["0"]
assert abs(k["1"]["U"] - 2962.5 / 4150) < 1e-9 and k["1"]["verdict"] == "bottleneck", k["1"]
assert abs(k["0"]["U_seed"] - 0.5) < 1e-9 and abs(k["1"]["U_seed"] - 1.0) < 1e-9 and not k["1"]["bound"]
assert k["1"]["passes_per_job"] == 6 and k["1"]["s_pass_fao_cycles"] == 4 and k["1"]["s_pass_cas_cycles"] == 7.75
assert k["0"]["n_hat"] == 2 and k["0"]["e"] == 6 and k["0"]["c"] == 0.5 and k["0"]["S_cycles"] == 41.5
assert k["2"]["U"] == 0 and d["result"] == "used" and d["tool"]["commit"] and d["date"]
PY
"$ATOMLAB" model util --table "$TABLE" --counters "$RAW" --format csv --threshold 0.3 >"$WORK/util.csv"
[ "$(grep -c ',bottleneck,' "$WORK/util.csv")" = 2 ] && pass || fail "--threshold 0.3: $(cat "$WORK/util.csv")"
# the unused variant: T = 10 + 2ne + 10c^2; at n=2, c=0.5: e=4 gives (26 + 36) / 2 = 31, e=8 (42 + 52) / 2 = 47,
# e=6 39 -> S = 19.5, B = 1950, U_seed = 1950 / 8300; the unit model: POPC.INC merges a word's lanes (1 pass),
# CAS 6: 0.75 x 1 + 0.25 x 6 = 2.25 passes x 4.9375 x 100 / 8300 = 0.133848
"$ATOMLAB" model util --table "$TABLE" --counters "$RAW" --result unused --format csv >"$WORK/unused.csv"
grep -q '^0,.*,19.5,1950,8300,0.133848,.*,0.23494,,,1110.94,POPC.INC$' "$WORK/unused.csv" && pass || fail "--result unused: $(cat "$WORK/unused.csv")"

# query
out=$("$ATOMLAB" model query --table "$TABLE" --n 2.5 --e 1 --c 1.25)
[ "$out" = "result=used n=2.5 e=1 c=1.25 T=57.5 S=23" ] && pass || fail "model query: $out"

# bad input: exit 2, one line naming the parameter, no file
printf 'result,n,e,c,t_cycles\nused,2,1,3,5\n' >"$WORK/bad-table.csv"
printf '"ID","Kernel Name","sm__cycles_active.avg"\n"0","k","12"\n' >"$WORK/bad-counters.csv"
printf '"ID","Kernel Name","sm__cycles_active.avg","sm__warps_active.avg.pct_of_peak_sustained_active","smsp__inst_executed_op_shared_atom.sum","device__attribute_multiprocessor_count","device__attribute_max_warps_per_multiprocessor"\n"0","k","100","50","10","1","8"\n' >"$WORK/no-ops.csv"
expect_usage_error "--table" model util --counters "$RAW"
expect_usage_error "--table" model util --table "$WORK/missing.csv" --counters "$RAW"
expect_usage_error "--table" model util --table "$WORK/bad-table.csv" --counters "$RAW"
expect_usage_error "--table" model util --table "$RAW" --counters "$RAW"
expect_usage_error "--counters" model util --table "$TABLE"
expect_usage_error "--counters" model util --table "$TABLE" --counters "$WORK/missing.csv"
expect_usage_error "--counters" model util --table "$TABLE" --counters "$WORK/bad-counters.csv"
expect_usage_error "--counters" model util --table "$TABLE" --counters "$TABLE"
expect_usage_error "O (thread-level" model util --table "$TABLE" --counters "$WORK/no-ops.csv"
expect_usage_error "--result" model util --table "$TABLE" --counters "$RAW" --result sometimes
expect_usage_error "--threshold" model util --table "$TABLE" --counters "$RAW" --threshold 0
expect_usage_error "--threshold" model util --table "$TABLE" --counters "$RAW" --threshold abc
expect_usage_error "--format" model util --table "$TABLE" --counters "$RAW" --format xml
expect_usage_error "--sms" model util --table "$TABLE" --counters "$RAW" --sms -1
expect_usage_error "--bogus" model util --table "$TABLE" --counters "$RAW" --bogus
expect_usage_error "frobnicate" model frobnicate
expect_usage_error "exceed" model query --table "$TABLE" --n 1 --e 1 --c 2
expect_usage_error "--n" model query --table "$TABLE" --n x --e 1 --c 0
# calibrate: usage errors come before any device is needed
expect_usage_error "--reps" calibrate smem --reps 0
expect_usage_error "--n" calibrate smem --n 0
expect_usage_error "--e" calibrate smem --e 33
expect_usage_error "--result" calibrate smem --result maybe
expect_usage_error "--delay" calibrate smem --delay 5
expect_usage_error "model" calibrate gmem
# calibrate on a machine without CUDA: a runtime failure that says so, and no table
if ! "$ATOMLAB" devices --format json 2>/dev/null | grep -q '"backend": *"cuda"'; then
  "$ATOMLAB" calibrate smem --out "$WORK/t" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ $rc -eq 1 ] && grep -q "^error: .*cuda" "$WORK/err" && [ ! -e "$WORK/t.csv" ] && pass ||
    fail "calibrate without CUDA: exit $rc, $(cat "$WORK/err")"
fi

# profile through a stand-in ncu
fake_ncu "$WORK/ncu"
export FAKE_NCU_CSV=$RAW FAKE_NCU_ARGS=$WORK/ncu-args
export FAKE_NCU_METRICS="smsp__inst_executed_op_shared_atom smsp__inst_executed_op_shared_atom_dot_cas
sm__sass_data_bytes_mem_shared_op_atom sm__cycles_active sm__warps_active gpu__time_duration"
P="profile --table $TABLE --ncu $WORK/ncu --sms 4 --warps-per-sm 8"
"$ATOMLAB" $P --save-counters "$WORK/saved.csv" -- echo program-output >"$WORK/prof.txt" 2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "profile with a stand-in ncu: $(cat "$WORK/err")"
grep -q "program-output" "$WORK/prof.txt" && grep -q "hist_full.*bottleneck" "$WORK/prof.txt" && pass ||
  fail "profile output: $(cat "$WORK/prof.txt")"
grep -q -- "--clock-control none --metrics smsp__inst_executed_op_shared_atom.sum,smsp__inst_executed_op_shared_atom_dot_cas.sum,sm__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,sm__sass_data_bytes_mem_shared_op_atom.sum" "$WORK/ncu-args" &&
  pass || fail "ncu arguments: $(cat "$WORK/ncu-args")"
cmp -s "$WORK/saved.csv" "$RAW" && pass || fail "--save-counters did not keep the export"
# a program that fails: exit 1 and ncu's words
"$ATOMLAB" $P -- false >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && grep -q "^error: ncu or the program failed" "$WORK/err" && pass || fail "failing program: exit $rc, $(cat "$WORK/err")"
# counters that cannot be read: exit 1
FAKE_NCU_CSV=$WORK/bad-counters.csv "$ATOMLAB" $P -- true >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && grep -q "^error: the counters could not be read" "$WORK/err" && pass ||
  fail "unreadable counters: exit $rc, $(cat "$WORK/err")"
# no ncu: exit 1 with what to do
"$ATOMLAB" profile --table "$TABLE" --ncu "$WORK/no-ncu" -- true >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && grep -q "^error: ncu (Nsight Compute CLI) not found" "$WORK/err" && pass ||
  fail "missing ncu: exit $rc, $(cat "$WORK/err")"
# bad usage of profile: exit 2
# (without --table profile looks the table up for the profiled device, or skips the shared-memory model)
for args in "profile --table $TABLE --ncu $WORK/ncu" "profile --table $WORK/bad-table.csv -- true" "profile --bogus -- true"; do
  "$ATOMLAB" $args >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && pass || fail "'$args': exit $rc, $(cat "$WORK/err")"
done
finish
