#!/usr/bin/env bash
# `atomlab model case-summary` and `atomlab plot` on a case-study folder, CPU only: the summary computed
# from MADE-UP model and timing files (not measurements) whose findings are known by construction, one
# variant built to contradict the seed; the figures' .dat files; bad input exits 2 with one line naming the
# file.
. "$(dirname "$0")/lib.sh"
# report DIR: what a case study's folder is summarized with
report() {
  "$ATOMLAB" model case-summary "$1" -o "$1/summary.txt" >"$WORK/out" 2>"$WORK/err" &&
    "$ATOMLAB" plot "$1" -o "$1" --format both >>"$WORK/out" 2>>"$WORK/err"
}
mkdir -p "$WORK/d"
python3 - "$WORK/d" <<'PY'
import sys
d = sys.argv[1]
sizes, wgs = [32, 4096, 1048576, 4194304], [256, 1024]
with open(f"{d}/predict.csv", "w") as f:
    f.write("id,kernel,case_kernel,image,result,pixels,wg_size,jobs_per_sm,n_hat,e,c,passes_per_job,s_cycles,"
            "busy_cycles,active_cycles,utilization,verdict,clock_mhz,clock_source,busy_us,measured_us,"
            "busy_over_measured,error_pct\n")
    i = 0
    for k in ("histogram", "histogram2"):
        for img in ("solid", "uniform"):
            for res in ("unused", "used"):
                for px in sizes:
                    for w in wgs:
                        big = px >= 1048576
                        # solid histogram saturates with e = 32; uniform stays at 0.5 with 3 passes; histogram2
                        # lowers U, except for POPC.INC (unused), where it is made to RAISE it
                        u = (1.1 if img == "solid" else 0.5) if big else 0.01
                        if k == "histogram2" and img == "solid":
                            u = u * 0.6 if res == "used" else u * 1.2
                        e = 32 if img == "solid" and k == "histogram" else 1.06
                        passes = 3 if img == "uniform" else 32
                        m = 100.0
                        f.write(f"{i},smem_histogram,{k},{img},{res},{px},{w},1,60,{e},0,{passes},20,1,1,{u},"
                                f"{'bottleneck' if u >= 0.8 else 'not a bottleneck'},1980,elapsed,{u * m},{m},{u},"
                                f"{(u - 1) * 100}\n")
                        i += 1
with open(f"{d}/hist-case.csv", "w") as f:
    f.write("kernel,image,result,pixels,wg_size,workgroups,warmup,reps,median_ms,min_ms,max_ms,gpixels_per_s,"
            "verified,wrong_bins,instructions\n")
    for k in ("histogram", "histogram2"):
        for img in ("solid", "uniform"):
            for res in ("unused", "used"):
                for px in sizes:
                    for w in wgs:
                        t = 1.0 if k == "histogram" else 0.8  # histogram2 1.25 times as fast
                        f.write(f"{k},{img},{res},{px},{w},264,1,5,{t},{t},{t},1,1,0,\"x\"\n")
with open(f"{d}/validate.csv", "w") as f:
    f.write("id,kernel,jobs_per_sm,n_hat,e,c,s_cycles,busy_cycles,active_cycles,utilization,verdict,duration_ns,"
            "clamped,reason,assumptions\n0,smem_validate_atomics,1,1,1,0,1,1,1,1.07,bottleneck,1,0,,\n"
            "1,smem_validate_stream,1,1,1,0,1,1,1,0.9,bottleneck,1,0,,\n")
PY
report "$WORK/d"
[ $? -eq 0 ] && pass || fail "report: $(cat "$WORK/err")"
"$ATOMLAB" model case-summary "$WORK/d" | cmp -s - "$WORK/d/summary.txt" && pass || fail "stdout and -o differ"
grep -q "^# The seed's histogram findings on this GPU (computed by atomlab model case-summary from $WORK/d)" \
  "$WORK/d/summary.txt" && pass || fail "head: $(head -1 "$WORK/d/summary.txt")"
S=$WORK/d/summary.txt
grep -q '^1\. solid images saturate the unit with e = 32 (ATOMS.ADD, histogram): HOLDS: e 32.0..32.0, U 1.10..1.10' "$S" &&
  pass || fail "finding 1: $(cat "$S")"
grep -q '^2\. uniform .* (ATOMS.ADD, histogram): HOLDS: U 0.50..0.50 .*passes per job .* 3.00..3.00: near 3' "$S" &&
  pass || fail "finding 2: $(cat "$S")"
grep -q '^3\. reordering .* (ATOMS.ADD): HOLDS: lower in 4 of 4 large-image runs, median U 1.10 -> 0.66; speedup of histogram2 (runs without the profiler) 1.25..1.25' "$S" &&
  pass || fail "finding 3 (used): $(cat "$S")"
grep -q '^3\. reordering .* (ATOMS.POPC.INC): DOES NOT HOLD: lower in 0 of 4' "$S" && pass ||
  fail "finding 3 (unused): $(cat "$S")"
grep -q "^validation smem_validate_atomics: expected 'bottleneck': RIGHT" "$S" &&
  grep -q "^validation smem_validate_stream: expected 'not a bottleneck': WRONG (U 0.9)" "$S" && pass ||
  fail "validation lines: $(cat "$S")"
grep -q '^predicted busy time B vs measured kernel time (64 profiled launches' "$S" && pass || fail "B line: $(cat "$S")"
# gnuplot's data: 4 panels of 4 sizes, pixels + 2 kernels x 2 block sizes
[ "$(grep -c '^4194304 ' "$WORK/d/smem-case-util.dat")" -eq 4 ] &&
  grep -q '^4194304 1.1 1.1 0.66 0.66$' "$WORK/d/smem-case-util.dat" && pass ||
  fail "util.dat: $(head -8 "$WORK/d/smem-case-util.dat")"
grep -q '^4194304 1.25 1.25$' "$WORK/d/smem-case-speedup.dat" && pass || fail "speedup.dat"
if command -v gnuplot >/dev/null; then
  [ -s "$WORK/d/smem-case-util.png" ] && [ -s "$WORK/d/smem-case-speedup.svg" ] && [ -s "$WORK/d/smem-case-pred.png" ] &&
    pass || fail "no plots although gnuplot is installed: $(cat "$WORK/err")"
fi
# uniform images above the threshold at e near 1: not decidable from U (an upper bound there)
mkdir -p "$WORK/up"
cp "$WORK/d/hist-case.csv" "$WORK/up/"
sed 's/,0.5,not a bottleneck,/,1.5,bottleneck,/' "$WORK/d/predict.csv" >"$WORK/up/predict.csv"
report "$WORK/up"
grep -q '^2\. uniform .* (ATOMS.ADD, histogram): UNDECIDED (U is only an upper bound at e < 2): U 1.50..1.50' \
  "$WORK/up/summary.txt" && pass || fail "undecided: $(cat "$WORK/up/summary.txt")"
# the profiled case study did not finish: the timings alone still give the speedups, the rest says NO DATA
mkdir -p "$WORK/timing"
cp "$WORK/d/hist-case.csv" "$WORK/timing/"
report "$WORK/timing"
rc=$?
[ $rc -eq 0 ] && grep -q '^# NO predict.csv' "$WORK/timing/summary.txt" && grep -q '^1\. .*: NO DATA' "$WORK/timing/summary.txt" &&
  grep -q '^4194304 1.25 1.25$' "$WORK/timing/smem-case-speedup.dat" && pass ||
  fail "timings only: exit $rc, $(cat "$WORK/err" "$WORK/timing/summary.txt")"
if command -v gnuplot >/dev/null; then
  [ -s "$WORK/timing/smem-case-speedup.png" ] && pass || fail "timings only: no speedup plot: $(cat "$WORK/err")"
fi
# bad input: exit 2, one line naming the file
mkdir -p "$WORK/empty" "$WORK/nocol"
cp "$WORK/d/hist-case.csv" "$WORK/nocol/"
cut -d, -f1-10 "$WORK/d/predict.csv" >"$WORK/nocol/predict.csv"
for dir in empty nocol; do
  "$ATOMLAB" model case-summary "$WORK/$dir" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "^error: .*predict.csv" "$WORK/err" && pass ||
    fail "$dir: exit $rc, $(cat "$WORK/err")"
done
# plot: the folder with a bad file is refused the same way; one with neither file is a folder, not a result
"$ATOMLAB" plot "$WORK/nocol" -o "$WORK/nocol-fig" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 2 ] && grep -q "^error: .*predict.csv' lacks the column 'utilization'" "$WORK/err" && pass ||
  fail "plot nocol: exit $rc, $(cat "$WORK/err")"
"$ATOMLAB" plot "$WORK/empty" -o "$WORK/empty-fig" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 2 ] && grep -q "is a folder" "$WORK/err" && pass || fail "plot empty: exit $rc, $(cat "$WORK/err")"
printf 'kernel,image,result,pixels,wg_size,median_ms\nhistogram,solid,used,x,256,1\n' >"$WORK/nocol/hist-case.csv"
rm "$WORK/nocol/predict.csv"
expect_refused "pixels = 'x' is not a number" model case-summary "$WORK/nocol"
expect_refused "one folder" model case-summary
expect_refused "--threshold" model case-summary "$WORK/d" --threshold 0
expect_refused "--table" model case-summary "$WORK/d" --table x.csv
finish
