# Attack class "owned outputs" (docs/design/reliability.md): atomlab deletes and
# replaces only what it wrote. A report folder is written only when it is new,
# empty or holds the manifest of an earlier report (its files replaced, the
# files of its manifest the new run does not write removed, nothing else
# touched); no output may be an input of the same command (rmw --resume F -o F
# excepted); one process at a time writes an output (a lock, exit 2 for the
# second); no write follows a symbolic link planted in a report or figure
# folder; the --resume hint is shell-quoted and a complete run prints none;
# report --compare rescues its file where it cannot be written.
. "$(dirname "$0")/lib.sh"
need_opencl
DATA="$(cd "$(dirname "$0")/../data" && pwd)"
R="rmw --iters 5 --min-samples 2 --max-samples 2 --contention 1,4 --padding 1 --quiet"
# rows that take about 2 s each: time to send a signal or start a second run while one is measured
SLOW="rmw --pattern contiguous --op fetch_add --type u32 --padding 1 --iters 30000 --min-samples 10 --max-samples 10 --quiet"

# wait_for TEXT FILE: until FILE holds TEXT (30 s at most)
wait_for() {
  for _ in $(seq 1 300); do
    grep -q -- "$1" "$2" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# --- report folders: only new, empty or atomlab's --------------------------------------------------
# a user's folder that holds a data/ folder (or a report.md) is refused before anything is measured
mkdir -p "$WORK/mine/data" && echo keep >"$WORK/mine/notes.txt" && echo keep >"$WORK/mine/data/own.csv"
expect_refused "'$WORK/mine' is not empty and not an atomlab report" report --quick -o "$WORK/mine"
[ -e "$WORK/mine/notes.txt" ] && [ -e "$WORK/mine/data/own.csv" ] && ! ls -d "$WORK"/mine.* >/dev/null 2>&1 && pass ||
  fail "report -o a user's folder touched it: $(ls -R "$WORK/mine")"
# the same through a symbolic link: the rule applies to the link's target
mkdir -p "$WORK/theirs" && echo keep >"$WORK/theirs/report.md" && ln -s theirs "$WORK/link-rep"
expect_refused "not an atomlab report" report --quick -o "$WORK/link-rep"
[ "$(cat "$WORK/theirs/report.md")" = keep ] && [ -L "$WORK/link-rep" ] && pass ||
  fail "report -o a link to a user's folder touched it: $(ls -la "$WORK/theirs")"

# an earlier report: its files replaced, a file its manifest names and this run does not write removed,
# a user's file kept
REP="$WORK/rep"
"$ATOMLAB" report --quick -o "$REP" >/dev/null 2>"$WORK/err" && [ -s "$REP/.atomlab-manifest" ] && pass ||
  fail "report --quick: $(tail -3 "$WORK/err")"
cp "$REP/data/rmw.json" "$WORK/rmw-first.json"
echo mine >"$REP/notes.txt"
echo mine >"$REP/data/mine.csv"
echo old >"$REP/data/old-step.json" && echo "data/old-step.json" >>"$REP/.atomlab-manifest"
# a manifest line through a link planted in the folder: the file behind the link is not removed
mkdir "$WORK/elsewhere" && echo keep >"$WORK/elsewhere/victim.txt" && ln -s "$WORK/elsewhere" "$REP/evil"
echo "evil/victim.txt" >>"$REP/.atomlab-manifest"
"$ATOMLAB" report --quick -o "$REP" >/dev/null 2>"$WORK/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$REP/notes.txt")" = mine ] && [ "$(cat "$REP/data/mine.csv")" = mine ] &&
  [ ! -e "$REP/data/old-step.json" ] && ! cmp -s "$REP/data/rmw.json" "$WORK/rmw-first.json" &&
  ! grep -q -e notes.txt -e mine.csv -e old-step "$REP/.atomlab-manifest" && [ -e "$WORK/elsewhere/victim.txt" ] &&
  ! ls -d "$REP".* >/dev/null 2>&1; then pass; else
  fail "report over an earlier report: exit $rc, $(ls -a "$REP" "$REP/data"), $(tail -2 "$WORK/err")"
fi

# a link planted in an earlier report under a file the report writes: replaced, its target untouched
echo secret >"$WORK/target.txt"
png=$(cd "$REP/figures" && ls | grep '\.png$' | head -1)
rm -f "$REP/figures/$png" "$REP/report.md"
ln -s "$WORK/target.txt" "$REP/figures/$png"
ln -s "$WORK/target.txt" "$REP/report.md"
"$ATOMLAB" report --quick -o "$REP" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && [ "$(cat "$WORK/target.txt")" = secret ] && [ ! -L "$REP/figures/$png" ] && [ ! -L "$REP/report.md" ] &&
  pass || fail "report wrote through a planted link: exit $rc, target: $(head -c 40 "$WORK/target.txt")"
# a manifest that names a path outside its folder: the folder is refused, the file outside kept
mkdir "$WORK/forged" && printf '# atomlab manifest 1\n../elsewhere/victim.txt\n' >"$WORK/forged/.atomlab-manifest"
expect_refused "which is not a path inside it" report --quick -o "$WORK/forged"
[ -e "$WORK/elsewhere/victim.txt" ] && pass || fail "a forged manifest removed a file outside its folder"
# a planted link for a folder the report writes into: refused before measuring
mv "$REP/figures" "$WORK/figures-elsewhere" && ln -s "$WORK/figures-elsewhere" "$REP/figures"
expect_refused "figures' is a symbolic link" report --quick -o "$REP"
rm "$REP/figures" && mv "$WORK/figures-elsewhere" "$REP/figures"

# --device all over an earlier one-device report: the old top-level report is removed, the user's file kept
"$ATOMLAB" report --quick --device all -o "$REP" >/dev/null 2>"$WORK/err"
rc=$?
if [ $rc -eq 0 ] && [ ! -e "$REP/report.md" ] && [ ! -e "$REP/data/rmw.json" ] && [ ! -e "$REP/figures" ] &&
  [ "$(cat "$REP/notes.txt")" = mine ] && [ "$(cat "$REP/data/mine.csv")" = mine ] &&
  ls "$REP"/*/report.md >/dev/null 2>&1 && grep -q '/report.md$' "$REP/.atomlab-manifest"; then pass; else
  fail "report --device all over a report: exit $rc, $(ls -a "$REP"), $(tail -2 "$WORK/err")"
fi

# --render of a report measured without gnuplot: the images it draws join the manifest
ATL_GNUPLOT=/nonexistent "$ATOMLAB" report --quick -o "$WORK/rend" >/dev/null 2>&1
"$ATOMLAB" report --render "$WORK/rend" >/dev/null 2>"$WORK/err"
rc=$?
png=$(cd "$WORK/rend" && ls figures/*.png 2>/dev/null | head -1)
[ $rc -eq 0 ] && [ -n "$png" ] && grep -qxF "$png" "$WORK/rend/.atomlab-manifest" && pass ||
  fail "report --render: exit $rc, image '$png' not in the manifest: $(tail -2 "$WORK/err")"

# --- no output is an input --------------------------------------------------------------------------
cp "$DATA/compare-a.json" "$WORK/A.json"
cp "$DATA/compare-b.json" "$WORK/B.json"
expect_refused "is the input" compare "$WORK/A.json" "$WORK/B.json" -o "$WORK/A.json"
ln -s A.json "$WORK/A-link.json"
expect_refused "is the input" compare "$WORK/A-link.json" "$WORK/B.json" -o "$WORK/A.json"
cmp -s "$WORK/A.json" "$DATA/compare-a.json" && pass || fail "compare -o its input changed it"
cp "$DATA/smem-table-synthetic.csv" "$WORK/T.csv"
cp "$DATA/ncu-synthetic-raw.csv" "$WORK/C.csv"
expect_refused "is the input" model util --table "$WORK/T.csv" --counters "$WORK/C.csv" -o "$WORK/C.csv"
expect_refused "is the input" model predict --table "$WORK/T.csv" --counters "$WORK/C.csv" -o "$WORK/T.csv"
cmp -s "$WORK/C.csv" "$DATA/ncu-synthetic-raw.csv" && cmp -s "$WORK/T.csv" "$DATA/smem-table-synthetic.csv" && pass ||
  fail "model -o its input changed it"
SUB=$(dirname "$(ls "$REP"/*/report.md | head -1)") # the device's report of --device all
cp -r "$SUB" "$WORK/rep-b"
cp "$WORK/rep-b/data/rmw.json" "$WORK/rmw-b.json"
expect_refused "is the input" report --compare "$SUB" "$WORK/rep-b" -o "$WORK/rep-b/data/rmw.json"
cmp -s "$WORK/rep-b/data/rmw.json" "$WORK/rmw-b.json" && pass || fail "report --compare -o its input changed it"
# rmw --resume F -o F stays the way to finish a run
"$ATOMLAB" $R -o "$WORK/res.json" 2>/dev/null
"$ATOMLAB" ${R/--contention 1,4/--contention 1,4,8} --resume "$WORK/res.json" -o "$WORK/res.json" 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && python3 -c 'import atl_json,sys; sys.exit(len(atl_json.load(sys.argv[1])["rows"]) != 3)' "$WORK/res.json" &&
  pass || fail "--resume F -o F: exit $rc, $(cat "$WORK/err")"

# --- one writer at a time ----------------------------------------------------------------------------
"$ATOMLAB" $SLOW --contention 1,2,4 -o "$WORK/busy.json" 2>"$WORK/err1" &
first=$!
wait_for . "$WORK/.busy.json.lock"
"$ATOMLAB" $R -o "$WORK/busy.json" 2>"$WORK/err2"
rc=$?
[ $rc -eq 2 ] && grep -q "^error: -o: '$WORK/busy.json' is being written by another atomlab process (pid $first)" \
  "$WORK/err2" && pass || fail "a second -o of a file being written: exit $rc, $(cat "$WORK/err2")"
"$ATOMLAB" $R --resume "$WORK/res.json" -o "$WORK/busy.json" 2>"$WORK/err2"
[ $? -eq 2 ] && grep -q "being written by another atomlab process" "$WORK/err2" && pass ||
  fail "--resume into a file being written: $(cat "$WORK/err2")"
wait $first
[ $? -eq 0 ] && [ ! -e "$WORK/.busy.json.lock" ] && pass || fail "the first writer: $(cat "$WORK/err1"), $(ls -a "$WORK")"
# two --resume F -o F at once
"$ATOMLAB" $SLOW --contention 1 -o "$WORK/twice.json" 2>/dev/null
"$ATOMLAB" $SLOW --contention 1,2,4 --resume "$WORK/twice.json" -o "$WORK/twice.json" 2>"$WORK/err1" &
first=$!
wait_for . "$WORK/.twice.json.lock"
"$ATOMLAB" $SLOW --contention 1,2,4 --resume "$WORK/twice.json" -o "$WORK/twice.json" 2>"$WORK/err2"
rc=$?
wait $first
[ $rc -eq 2 ] && grep -q "being written by another atomlab process (pid $first)" "$WORK/err2" && pass ||
  fail "two --resume F -o F at once: exit $rc, $(cat "$WORK/err2")"
# a lock file left by a killed process does not block
echo 99999 >"$WORK/.stale.json.lock"
"$ATOMLAB" $R -o "$WORK/stale.json" 2>"$WORK/err" && [ ! -e "$WORK/.stale.json.lock" ] && pass ||
  fail "a stale lock file blocked: $(cat "$WORK/err")"
# two reports into one folder
: >"$WORK/err1" # emptied before the child starts: wait_for must see this run's progress, not the last one's
"$ATOMLAB" report --quick -o "$WORK/rep2" >/dev/null 2>"$WORK/err1" &
first=$!
wait_for '\[1/' "$WORK/err1"
"$ATOMLAB" report --quick -o "$WORK/rep2" >/dev/null 2>"$WORK/err2"
rc=$?
wait $first
[ $rc -eq 2 ] && grep -q "being written by another atomlab process (pid $first)" "$WORK/err2" && pass ||
  fail "a second report into a folder being written: exit $rc, $(cat "$WORK/err2")"

# --- plot: no write through a link planted in its folder ------------------------------------------------
"$ATOMLAB" plot "$DATA/plot-small.json" -o "$WORK/figs-names" >/dev/null 2>&1
mkdir "$WORK/figs"
n=0
for f in $(cd "$WORK/figs-names" && ls | head -6); do
  echo "secret $f" >"$WORK/secret-$f"
  ln -s "$WORK/secret-$f" "$WORK/figs/$f"
  n=$((n + 1))
done
"$ATOMLAB" plot "$DATA/plot-small.json" -o "$WORK/figs" >/dev/null 2>"$WORK/err"
bad=0
for f in $(cd "$WORK/figs-names" && ls | head -6); do
  [ "$(cat "$WORK/secret-$f")" = "secret $f" ] && [ ! -L "$WORK/figs/$f" ] || bad=$((bad + 1))
done
[ $n -ge 3 ] && [ $bad -eq 0 ] && ! ls -A "$WORK/figs" | grep -q '^\.atl-' && pass ||
  fail "plot wrote through $bad of $n planted links: $(cat "$WORK/err")"
cp "$DATA/plot-small.json" "$WORK/p.json"
expect_refused "is the input" plot "$WORK/p.json" -o "$WORK/p.json"

# --- printed commands: shell-quoted; none for a complete run ---------------------------------------------
name="$WORK/my run; echo X.json"
set -m
"$ATOMLAB" ${SLOW/--padding 1/--padding 1,2,4,8} --contention 1:512 -o "$name" 2>"$WORK/err" & # rows for seconds: the signal comes mid-run
pid=$!
set +m
wait_catching $pid INT 30
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
python3 - "$WORK/err" "$name" <<'PY' && [ $rc -eq 130 ] && pass || fail "the --resume hint: exit $rc, $(cat "$WORK/err")"
import shlex, sys
text, name = open(sys.argv[1]).read(), sys.argv[2]
hint = text.split("--resume ", 1)[1].strip()
sys.exit(shlex.split(hint) != [name])
PY
# a signal during the last row: the run is complete, exit 0, no hint
set -m
"$ATOMLAB" $SLOW --contention 1 -o "$WORK/last.json" 2>"$WORK/err" &
pid=$!
set +m
wait_catching $pid INT 30
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 0 ] && ! grep -q -e "--resume" -e interrupted "$WORK/err" && pass ||
  fail "a signal during the last row of a complete run: exit $rc, $(cat "$WORK/err")"
set -m
"$ATOMLAB" strategy --pattern same-address --strategy native --iters 200000 --min-samples 5 --max-samples 5 \
  --workgroups 2 -o "$WORK/last-s.json" --quiet 2>"$WORK/err" &
pid=$!
set +m
wait_catching $pid INT 30
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 0 ] && ! grep -q -e '"complete": false' -e interrupted "$WORK/err" && pass ||
  fail "strategy: a signal during the last row of a complete run: exit $rc, $(cat "$WORK/err")"

# --- report --compare on a full disk: the rescue file --------------------------------------------------
ATL_FAULT=file:1 "$ATOMLAB" report --compare "$SUB" "$WORK/rep-b" -o "$WORK/side.md" >/dev/null 2>"$WORK/err"
rc=$?
rescue=$(ls "$WORK" | grep '^side\.rescued-.*\.md$' | head -1)
[ $rc -eq 1 ] && [ -n "$rescue" ] && grep -q '^# ' "$WORK/$rescue" && grep -q "are in '.*$rescue'" "$WORK/err" &&
  [ ! -e "$WORK/side.md" ] && pass || fail "report --compare on a full disk: exit $rc, rescue '$rescue', $(cat "$WORK/err")"
finish
