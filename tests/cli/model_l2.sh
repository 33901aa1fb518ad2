#!/usr/bin/env bash
# `atomlab model l2` on the command line, CPU only: the REAL H200 rmw export of tests/data (README there)
# split into its calibration launches and the rest, the table and CSV, and bad input.
. "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
NCU=$DATA/ncu-h200-l2-rmw.csv
# the calibration exports: the header, the units row and the launches of tests/unit/test_l2model.c
{ sed -n 1,2p "$NCU"; sed -n '11,12p;23,24p' "$NCU"; } >"$WORK/same.csv"   # launches 8, 9, 20, 21
{ sed -n 1,2p "$NCU"; sed -n '5,6p;17,18p' "$NCU"; } >"$WORK/spread.csv"   # launches 2, 3, 14, 15
"$ATOMLAB" model l2 --counters "$NCU" --same "$WORK/same.csv" --spread "$WORK/spread.csv" >"$WORK/t.txt" 2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "model l2: $(cat "$WORK/err")"
grep -q '^L2 atomic model, L2 cycles per request: S_same ATOM 1.388 RED 1.372, S_spread ATOM 1.444 RED 1.115' \
  "$WORK/t.txt" && pass || fail "calibration line: $(head -1 "$WORK/t.txt")"
[ "$(grep -c '[0-9] bottleneck$' "$WORK/t.txt")" -eq 26 ] && [ "$(grep -c 'not a bottleneck$' "$WORK/t.txt")" -eq 10 ] &&
  pass || fail "verdicts: $(cat "$WORK/t.txt")"
# the same numbers given: the same table; CSV through -o
"$ATOMLAB" model l2 --counters "$NCU" --s-same 1.38783,1.37218 --s-spread 1.44426,1.11488 --format csv \
  -o "$WORK/l2.csv" 2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "model l2 -o: $(cat "$WORK/err")"
[ "$(wc -l <"$WORK/l2.csv")" -eq 37 ] && head -1 "$WORK/l2.csv" | grep -q '^id,kernel,duration_us,' &&
  grep -q '^4,"rmw",538.784,25821184,0,25821184,655360,2.386,hot words,0.976[0-9],0.793[0-9],0.976[0-9],0.569[0-9],526.0[0-9]*,bottleneck$' "$WORK/l2.csv" && pass ||
  fail "CSV: $(sed -n 1p "$WORK/l2.csv"; sed -n 6p "$WORK/l2.csv")"
# --advice: the strategy for every bottleneck (the hot ones: combine before the L2), none for the others
"$ATOMLAB" model l2 --counters "$NCU" --same "$WORK/same.csv" --spread "$WORK/spread.csv" --advice >"$WORK/a.txt" 2>&1
[ "$(grep -c '^  [0-9]* rmw (U .*hot words.*combine before the L2' "$WORK/a.txt")" -eq 14 ] &&
  [ "$(grep -c '^  [0-9]* rmw (U .*spread.*send fewer' "$WORK/a.txt")" -eq 12 ] && pass ||
  fail "advice: $(sed -n '/^advice/,$p' "$WORK/a.txt")"
# the words come from the advice table atl_diagnose reads: each strategy named with its atomlab call
[ "$(grep -c 'combine before the L2 - warp-aggregated (atl_warp_fetch: .*block-aggregated (atl_block_fetch: .*privatized (atl_scatter_add block: ' "$WORK/a.txt")" -eq 14 ] &&
  [ "$(grep -c 'send fewer - privatized (atl_scatter_add block: .*run-summed (atl_scatter_add run: ' "$WORK/a.txt")" -eq 12 ] &&
  pass || fail "advice from the table: $(sed -n '/^advice/,$p' "$WORK/a.txt")"
"$ATOMLAB" model l2 --counters "$NCU" --s-same 1,1 --s-spread 1,1 --advice --format csv | head -1 | grep -q ',verdict,advice,predicted_speedup,strategies$' &&
  pass || fail "advice column"
# the predicted speedup of a hot launch (docs/design/model.md, "Advice"): this export has no launch or DRAM columns, so
# only warp-aggregated is priced, at a warp's 32 lanes per hot request: the hot slice keeps 1 / 32 of its
# requests at the kernel's own cycles per request, speedup = 32 / U (U = B / C, uncapped)
"$ATOMLAB" model l2 --counters "$NCU" --same "$WORK/same.csv" --spread "$WORK/spread.csv" --advice --format csv |
  python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
hot = [r for r in rows if r["verdict"] == "bottleneck" and r["access"] == "hot words"]
spread = [r for r in rows if r["verdict"] == "bottleneck" and r["access"] == "spread"]
assert hot and spread
for r in hot:
    want = 32 / float(r["u"])
    assert r["strategies"].startswith("warp-aggregated=") and ";" not in r["strategies"], r
    assert abs(float(r["predicted_speedup"]) / want - 1) < 2e-3, (r, want)
assert all(r["predicted_speedup"] == "" and r["strategies"] == "" for r in spread)
' && pass || fail "predicted speedup of the L2 advice"
expect_refused "--counters" model l2 --same "$WORK/same.csv" --spread "$WORK/spread.csv"
expect_refused "--same FILE or --s-same" model l2 --counters "$NCU" --spread "$WORK/spread.csv"
expect_refused "--same FILE or --s-same" model l2 --counters "$NCU" --same "$WORK/same.csv" --s-same 1,1 \
  --spread "$WORK/spread.csv"
expect_refused "--s-same" model l2 --counters "$NCU" --s-same 1.4 --s-spread 1,1
expect_refused "--s-spread" model l2 --counters "$NCU" --s-same 1,1 --s-spread 1,x
expect_refused "--format" model l2 --counters "$NCU" --s-same 1,1 --s-spread 1,1 --format json
expect_refused "--threshold" model l2 --counters "$NCU" --s-same 1,1 --s-spread 1,1 --threshold -1
expect_refused "--counters" model l2 --counters "$WORK/nonexistent.csv" --s-same 1,1 --s-spread 1,1
# a calibration export with RED launches only cannot give ATOM's S
{ sed -n 1,2p "$NCU"; sed -n '11,12p' "$NCU"; } >"$WORK/red.csv"
expect_refused "ATOM" model l2 --counters "$NCU" --same "$WORK/red.csv" --spread "$WORK/spread.csv"
expect_refused "unknown option" model l2 --counters "$NCU" --bogus
# profile --advice through a stand-in ncu on a REAL H100 launch (tests/data/h100-diagnose/programs.csv.gz: the
# histogram app's global variant on one colour, launch 21) with the DRAM calibration of that run (dram.csv):
# the L2 table's first line names the achievable share, and each priced strategy is listed, best recommended
H100=$WORK/h100
mkdir -p "$H100"
for f in programs dram; do gzip -dc "$DATA/h100-diagnose/$f.csv.gz" >"$H100/$f.csv"; done
{ sed -n 1,2p "$H100/programs.csv"; grep '^"21",' "$H100/programs.csv"; } >"$WORK/hist-global.csv"
fake_ncu "$WORK/ncu"
export FAKE_NCU_CSV=$WORK/hist-global.csv FAKE_NCU_ARGS=$WORK/ncu-args
export FAKE_NCU_METRICS="smsp__inst_executed_op_shared_atom smsp__inst_executed_op_shared_atom_dot_cas
sm__sass_data_bytes_mem_shared_op_atom sm__cycles_active sm__warps_active gpu__time_duration lts__t_requests_op_atom
lts__t_requests_op_red lts__cycles_elapsed dram__throughput dram__bytes l1tex__t_set_accesses_pipe_lsu_mem_global_op_red"
"$ATOMLAB" profile --table "$DATA/smem-table-h100-trim.csv" --ncu "$WORK/ncu" --sms 132 --warps-per-sm 64 \
  --l2-same "$WORK/same.csv" --l2-spread "$WORK/spread.csv" --dram "$H100/dram.csv" --advice -- true \
  >"$WORK/prof.txt" 2>"$WORK/err"
[ $? -eq 0 ] && pass || fail "profile --advice: $(cat "$WORK/err")"
grep -q '^L2 atomic model.*achievable DRAM 72.0% of peak' "$WORK/prof.txt" &&
  grep -q '^        privatized  *1.8e+03x .*bound by DRAM' "$WORK/prof.txt" &&
  grep -q '^        block-aggregated .*<- recommended' "$WORK/prof.txt" &&
  grep -q '^        warp-aggregated  *2[0-9.]*x .*bound by L2' "$WORK/prof.txt" && pass ||
  fail "profile advice: $(cat "$WORK/prof.txt")"
grep -q 'dram__bytes.sum' "$WORK/ncu-args" && grep -q 'l1tex__t_set_accesses_pipe_lsu_mem_global_op_red.sum' \
  "$WORK/ncu-args" && pass || fail "profile does not ask for the advice's counters: $(cat "$WORK/ncu-args")"
# the achievable DRAM share needs a streaming launch (no atomics, a DRAM share): this export has none
expect_refused "--dram" model l2 --counters "$NCU" --s-same 1,1 --s-spread 1,1 --dram "$NCU"
expect_refused "--table" model l2 --counters "$NCU" --s-same 1,1 --s-spread 1,1 --table "$WORK/nonexistent.csv"
# float adds: the f32 same-address calibration and the kernels' float shares; bad ones refused
printf 'kernel,f32_share\nrmw,1\n' >"$WORK/types.csv"
"$ATOMLAB" model l2 --counters "$NCU" --same "$WORK/same.csv" --spread "$WORK/spread.csv" --same-f32 "$WORK/same.csv" \
  --types "$WORK/types.csv" >"$WORK/f.txt" 2>"$WORK/err" && pass || fail "--types: $(cat "$WORK/err")"
printf 'kernel,f32_share\nrmw,3\n' >"$WORK/bad-types.csv"
expect_refused "--types" model l2 --counters "$NCU" --s-same 1,1 --s-spread 1,1 --types "$WORK/bad-types.csv"
expect_refused "--types" model l2 --counters "$NCU" --s-same 1,1 --s-spread 1,1 --types "$WORK/nonexistent.csv"
expect_refused "--same-f32" model l2 --counters "$NCU" --s-same 1,1 --s-spread 1,1 --same-f32 "$WORK/nonexistent.csv"
# float adds without an f32 calibration: the ratio of the same-word export's architecture (the REAL H100 one names
# compute capability 9.0) in the shipped data/tuning/l2.json, said in a line: the hot word's launch 8 at 2.19 x
# the integer price's U, its range down to that price; a malformed table keeps the integer price and says why; an
# export without the compute capability says that
mkdir -p "$WORK/data/tuning" "$WORK/cache"
H1=(--same "$DATA/ncu-h100-l2-same.csv" --spread "$DATA/ncu-h100-l2-spread.csv" --types "$WORK/types.csv")
XDG_CACHE_HOME="$WORK/cache" "$ATOMLAB" model l2 --counters "$NCU" "${H1[@]}" >"$WORK/r.txt" 2>"$WORK/err" &&
  grep -q '^float adds on hot words (no f32 calibration of this device): S_same times the sm_90 ratio 2.146 ATOM, 2.186 RED (row nvidia-sm_90' \
  "$WORK/r.txt" && grep -q '^8  *rmw .* hot words   2.19   0.80-2.19 ' "$WORK/r.txt" && pass ||
  fail "the float rule: $(cat "$WORK/err" "$WORK/r.txt")"
echo '{"format_version": 1, "rows": [' >"$WORK/data/tuning/l2.json"
XDG_CACHE_HOME="$WORK/cache" ATL_DATA_DIR="$WORK/data" "$ATOMLAB" model l2 --counters "$NCU" "${H1[@]}" >"$WORK/m.txt" \
  2>"$WORK/err" && grep -qF "priced as integer adds, no ratio for sm_90: $WORK/data/tuning/l2.json: not JSON" "$WORK/m.txt" &&
  grep -q '^8  *rmw .* hot words   1.00   0.80-1.00 ' "$WORK/m.txt" && pass || fail "a malformed float rule: $(cat "$WORK/err" "$WORK/m.txt")"
"$ATOMLAB" model l2 --counters "$NCU" --same "$WORK/same.csv" --spread "$WORK/spread.csv" --types "$WORK/types.csv" \
  >"$WORK/n.txt" 2>"$WORK/err" && grep -q "priced as integer adds, no ratio: the calibration does not name the device's architecture" \
  "$WORK/n.txt" && pass || fail "no architecture: $(cat "$WORK/err" "$WORK/n.txt")"
# the privatized float adds on the REAL H100 hot-row scatter (tests/data/ncu-h100-scatter-hot-r6.csv, the
# f32 atomic launch twice) with a REAL one-warp chain export (96 SM cycles an update at every E): 6 tables a
# SM with a 33280-byte table (8 without one, the launch's register limit); the warps' loads at the DRAM floor (no
# streaming calibration: its share of peak), their loops at least the hot word's chain, 6 waves x 512 updates x 96
# cycles at the launch's SM clock (1.98 GHz): 149 us; 82 + 149 us, the prediction 21.4x; profile takes the same inputs
R6=$WORK/f32
mkdir -p "$R6"
for f in types same cas-chain; do gzip -dc "$DATA/h100-diagnose/f32-$f.csv.gz" >"$R6/$f.csv"; done
HOT=$DATA/ncu-h100-scatter-hot-r6.csv
L2IN=(--types "$R6/types.csv" --same-f32 "$R6/same.csv" --cas-chain "$R6/cas-chain.csv")
"$ATOMLAB" model l2 --counters "$HOT" --s-same 1.4,1.4 --s-spread 1.4,1.1 "${L2IN[@]}" --private-table 33280 \
  --advice >"$WORK/p.txt" 2>"$WORK/err" && pass || fail "model l2 --private-table: $(cat "$WORK/err")"
grep -q '^chain of a shared word.s CAS loop .* E=1 96; private table 33280 bytes' "$WORK/p.txt" &&
  [ "$(grep -c "2.097e+06 updates, 6 tables resident a SM with the table, 96 SM cycles an update by 8 .*loads 82.*, their CAS loops 14[89]" \
    "$WORK/p.txt")" -eq 2 ] && grep -q '^        privatized  *21.[34]x  after 23[01].*bound by latency' "$WORK/p.txt" &&
  pass || fail "the private chain: $(cat "$WORK/p.txt")"
"$ATOMLAB" model l2 --counters "$HOT" --s-same 1.4,1.4 --s-spread 1.4,1.1 "${L2IN[@]}" --advice >"$WORK/p0.txt" &&
  grep -q "8 tables resident a SM, 96 SM cycles" "$WORK/p0.txt" && pass || fail "no table: $(cat "$WORK/p0.txt")"
# the chain export with streaming launches (tests/data/ncu-h100-chain-copy-r7.csv: a run's chain and copy
# exports merged): a load's round trip (the copy's SM cycles an element, 1728 here at saturation), so the hot-row
# scatter's rows are priced as round trips: 6 waves x 32 rows x 3 loads x 1728 cycles at 1.98 GHz = 503 us; the loops
# meet 1.42 contenders (so long a round trip leaves few warps in their loops at a time)
"$ATOMLAB" model l2 --counters "$DATA/ncu-h100-scatter-hot-r7.csv" --s-same 1.4,1.4 --s-spread 1.4,1.1 \
  --cas-chain "$DATA/ncu-h100-chain-copy-r7.csv" --types "$R6/types.csv" --private-table 33280 --advice >"$WORK/rt.txt" \
  2>"$WORK/err" && grep -q "E=16 47.23; private table 33280 bytes a block; a dependent load's round trip 1728 SM cycles" \
  "$WORK/rt.txt" && grep -q "by 1.42 contending warps: the warps' loads 50[23].* us, their CAS loops 32.[2-4][0-9]* us" "$WORK/rt.txt" &&
  grep -q "each 3 loads of 1728 SM cycles and 2 CAS loops, 1.42 warps in their loops" "$WORK/rt.txt" && pass || fail "round trip: $(cat "$WORK/err" "$WORK/rt.txt")"
expect_refused "--private-table" model l2 --counters "$HOT" --s-same 1,1 --s-spread 1,1 --private-table -1
expect_refused "--cas-chain" model l2 --counters "$HOT" --s-same 1,1 --s-spread 1,1 --cas-chain "$NCU"
export FAKE_NCU_CSV=$HOT
"$ATOMLAB" profile --table "$DATA/smem-table-h100-trim.csv" --ncu "$WORK/ncu" --sms 132 --warps-per-sm 64 \
  --l2-same "$WORK/same.csv" --l2-spread "$WORK/spread.csv" "${L2IN[@]}" --private-table 33280 --advice -- true \
  >"$WORK/prof7.txt" 2>"$WORK/err" && grep -q "6 tables resident a SM with the table, 96 SM cycles an update" \
  "$WORK/prof7.txt" && pass || fail "profile's private chain: $(cat "$WORK/err" "$WORK/prof7.txt")"
# a bad input of the advice is said before ncu runs
rm -f "$FAKE_NCU_ARGS"
expect_refused "--types" profile --table "$DATA/smem-table-h100-trim.csv" --ncu "$WORK/ncu" --types \
  "$WORK/bad-types.csv" -- true
expect_refused "--cas-chain" profile --table "$DATA/smem-table-h100-trim.csv" --ncu "$WORK/ncu" --cas-chain "$NCU" -- true
expect_refused "--private-table" profile --table "$DATA/smem-table-h100-trim.csv" --ncu "$WORK/ncu" --private-table x -- true
[ ! -e "$FAKE_NCU_ARGS" ] && pass || fail "profile ran ncu before refusing its inputs"
finish
