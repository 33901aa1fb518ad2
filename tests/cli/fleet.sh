#!/usr/bin/env bash
# atomlab fleet on tests/data/fleet (five nodes of one synthetic GPU, tests/data/fleet/make-fleet.py): node-c's
# fetch_add peak 30% slow is flagged; node-d (4% slow, inside the 5% floor) and node-e (8% slow in a rate whose
# own noise is 5%) are not; the same data with the noise term off flags node-e, so the band is what spares it.
# Every output form, the figure, a failed row, mixed devices, the exit codes and bad input. No device needed.
. "$(dirname "$0")/lib.sh"
DATA="$(cd "$(dirname "$0")/../data/fleet" && pwd)"
NODES=("$DATA"/node-a "$DATA"/node-b "$DATA"/node-c "$DATA"/node-d "$DATA"/node-e)

"$ATOMLAB" fleet "${NODES[@]}" -o "$WORK/fleet.csv" -o "$WORK/fleet.md" -o "$WORK/fleet.html" \
  --figures "$WORK/fig" >"$WORK/out" 2>"$WORK/err" && pass || fail "fleet: $(cat "$WORK/err")"
python3 - "$WORK/fleet.csv" <<'PY' && pass || fail "flagged cells: $(cat "$WORK/fleet.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 5 * 6, len(rows)
flagged = [(r["node"], r["measure"], r["config"], r["mark"]) for r in rows if r["mark"] not in ("in",)]
assert flagged == [("node-c", "peak_gops", "op=fetch_add;type=u32;space=global;result=unused", "slow")], flagged
c = next(r for r in rows if r["node"] == "node-c" and r["mark"] == "slow")
assert abs(float(c["deviation"]) + 0.30) < 0.01 and abs(float(c["band"]) - 0.05) < 1e-9, c
e = next(r for r in rows if r["node"] == "node-e" and r["measure"] == "same_address_gops" and "global" in r["config"]
         and r["config"].startswith("op=fetch_add"))
assert -0.10 < float(e["deviation"]) < -0.05 and abs(float(e["band"]) - 0.10) < 1e-9, e  # spared by its own noise
d = next(r for r in rows if r["node"] == "node-d" and r["measure"] == "peak_gops" and r["config"].startswith("op=cas")
         and "global" in r["config"])
assert -0.05 < float(d["deviation"]) < -0.02 and d["mark"] == "in", d  # inside the floor
PY
grep -q "^| node-c | slow | -30.4% | ±5.0% |" "$WORK/fleet.md" && grep -q "^| node-c | synthetic GPU | 1 | 3 | 1 | -30.4% |" "$WORK/fleet.md" &&
  pass || fail "markdown: $(cat "$WORK/fleet.md")"
grep -q '<td class="slow">-30.4% slow</td>' "$WORK/fleet.html" && grep -q '</html>' "$WORK/fleet.html" && pass ||
  fail "html: $(cat "$WORK/fleet.html")"
grep -q "^fleet: 5 nodes, 6 ops, 1 flagged cells on 1 nodes" "$WORK/err" && [ ! -s "$WORK/out" ] && pass ||
  fail "summary: $(cat "$WORK/out" "$WORK/err")"
[ -s "$WORK/fig/fleet.dat" ] && grep -q "fleet.dat" "$WORK/fig/fleet.gp" && [ "$(grep -c ' 1 "node-c"' "$WORK/fig/fleet.dat")" = 1 ] &&
  pass || fail "figure: $(ls "$WORK/fig"; cat "$WORK/fig/fleet.dat")"
if command -v gnuplot >/dev/null; then [ -s "$WORK/fig/fleet.png" ] && pass || fail "no fleet.png: $(cat "$WORK/err")"; fi

# the text form on stdout; a flagged node is a finding (exit 0), a gate with --fail-on-outlier (exit 1)
"$ATOMLAB" fleet "${NODES[@]}" >"$WORK/t.txt" 2>"$WORK/err" && grep -q "^fleet: 5 nodes, 1 device model, 6 ops: 1 flagged cell on 1 node" "$WORK/t.txt" &&
  grep -q "^  node-c  slow -30.4% (band ±5.0%)" "$WORK/t.txt" && pass || fail "text: $(cat "$WORK/t.txt" "$WORK/err")"
"$ATOMLAB" fleet "${NODES[@]}" --fail-on-outlier >/dev/null 2>&1
[ $? -eq 1 ] && pass || fail "--fail-on-outlier with node-c flagged did not exit 1"
"$ATOMLAB" fleet "$DATA"/node-a "$DATA"/node-b "$DATA"/node-d "$DATA"/node-e --fail-on-outlier -o "$WORK/ok.csv" 2>"$WORK/err" &&
  ! grep -qv ',in$' <(tail -n +2 "$WORK/ok.csv") && pass || fail "the fleet without node-c: $(cat "$WORK/err" "$WORK/ok.csv")"

# without the noise term node-e's 8% is outside the 5% floor: the noise is what spares it
"$ATOMLAB" fleet "${NODES[@]}" --noise-factor 0 -o "$WORK/n0.csv" 2>/dev/null &&
  grep -q '^node-e,.*same_address_gops,.*,slow$' "$WORK/n0.csv" && pass || fail "--noise-factor 0: $(cat "$WORK/n0.csv")"
# a larger floor spares node-c; a smaller one flags node-d
"$ATOMLAB" fleet "${NODES[@]}" --floor 40 -o "$WORK/f40.csv" 2>/dev/null && ! grep -q ',slow$' "$WORK/f40.csv" && pass ||
  fail "--floor 40"
"$ATOMLAB" fleet "${NODES[@]}" --floor 2 -o "$WORK/f2.csv" 2>/dev/null && grep -q '^node-d,.*op=cas;.*global.*,peak_gops,.*,slow$' "$WORK/f2.csv" &&
  pass || fail "--floor 2: $(grep node-d "$WORK/f2.csv")"

# a row that did not verify is flagged whatever its rate; too few nodes judge nothing
cp -r "$DATA"/node-* "$WORK/"
python3 - "$WORK/node-b/datasheet.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["rows"][1]["verified"] = False
json.dump(d, open(sys.argv[1], "w"))
PY
"$ATOMLAB" fleet "$WORK"/node-a "$WORK"/node-b "$WORK"/node-c "$WORK"/node-d "$WORK"/node-e -o "$WORK/v.csv" 2>/dev/null &&
  [ "$(grep -c '^node-b,.*op=cas;.*global.*,failed$' "$WORK/v.csv")" = 2 ] && pass || fail "not verified: $(grep node-b "$WORK/v.csv")"
"$ATOMLAB" fleet "$DATA"/node-a "$DATA"/node-c -o "$WORK/two.csv" 2>/dev/null && ! grep -qv ',unjudged$' <(tail -n +2 "$WORK/two.csv") &&
  pass || fail "two nodes: $(cat "$WORK/two.csv")"
# another device model is allowed, said, and compared with its own kind only
python3 - "$WORK/node-e/datasheet.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["device"]["name"] = "other GPU"
json.dump(d, open(sys.argv[1], "w"))
PY
"$ATOMLAB" fleet "$WORK"/node-a "$DATA"/node-b "$DATA"/node-c "$DATA"/node-d "$WORK"/node-e >"$WORK/m.txt" 2>"$WORK/err" &&
  grep -q "^note: the nodes hold 2 device models" "$WORK/err" && grep -q "2 device models, 12 ops" "$WORK/m.txt" && pass ||
  fail "mixed devices: $(cat "$WORK/m.txt" "$WORK/err")"
# a report folder's data/ is read where the folder holds no .json itself
mkdir -p "$WORK/report-node/data" && cp "$DATA/node-a/datasheet.json" "$WORK/report-node/data/"
"$ATOMLAB" fleet "$WORK/report-node" "$DATA"/node-b "$DATA"/node-c >/dev/null 2>&1 && pass || fail "report folder"

# names from files and folders reach Markdown, HTML and gnuplot only escaped
mkdir -p "$WORK/poison"
for n in a b c; do
  mkdir -p "$WORK/poison/<b>node-$n|x"
  python3 - "$DATA/node-$n/datasheet.json" "$WORK/poison/<b>node-$n|x/datasheet.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["device"]["name"] = "<script>alert(1)</script>|gpu`x`"
d["rows"][0]["config"]["op"] = "fetch_add'\"; system(\"id\")"
json.dump(d, open(sys.argv[2], "w"))
PY
done
"$ATOMLAB" fleet "$WORK/poison"/* -o "$WORK/p.md" -o "$WORK/p.html" --figures "$WORK/pfig" 2>"$WORK/err" &&
  ! grep -q "<script>\|<b>" "$WORK/p.html" "$WORK/p.md" && grep -q '&lt;b&gt;node-a\\|x' "$WORK/p.md" &&
  ! grep -q 'system("id")' "$WORK/pfig/fleet.dat" "$WORK/pfig/fleet.gp" && pass ||
  fail "escaping: $(cat "$WORK/err"; grep -n 'script\|node-a' "$WORK/p.md" "$WORK/p.html" | head; grep system "$WORK/pfig"/*)"

# bad input: one error line, exit 2, nothing written
mkdir -p "$WORK/empty" "$WORK/bad" "$WORK/x/node-a"
echo '{"not": "atomlab"}' >"$WORK/bad/r.json"
cp "$DATA/node-a/datasheet.json" "$WORK/x/node-a/"
check_bad() { # what, then the arguments
  local what=$1
  shift
  rm -f "$WORK/o.md"
  "$ATOMLAB" fleet "$@" >"$WORK/bo" 2>"$WORK/be"
  local rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/be")" = 1 ] && grep -q "^error: " "$WORK/be" && [ ! -e "$WORK/o.md" ] && [ ! -s "$WORK/bo" ] && pass ||
    fail "$what: rc $rc: $(cat "$WORK/bo" "$WORK/be")"
}
check_bad "no folders" -o "$WORK/o.md"
check_bad "an empty folder" "$DATA/node-a" "$WORK/empty" -o "$WORK/o.md"
check_bad "a missing folder" "$DATA/node-a" "$WORK/nowhere" -o "$WORK/o.md"
check_bad "a file, not a folder" "$DATA/node-a/datasheet.json" -o "$WORK/o.md"
check_bad "not a result" "$DATA/node-a" "$WORK/bad" -o "$WORK/o.md"
check_bad "two nodes of one name" "$DATA/node-a" "$WORK/x/node-a" -o "$WORK/o.md"
check_bad "an unknown extension" "$DATA/node-a" -o "$WORK/o.pdf"
check_bad "an output in a missing folder" "$DATA/node-a" -o "$WORK/nowhere/o.md"
check_bad "a bad floor" "$DATA/node-a" --floor -1 -o "$WORK/o.md"
check_bad "a bad k" "$DATA/node-a" --k x -o "$WORK/o.md"
check_bad "figures in a missing folder" "$DATA/node-a" --figures "$WORK/nowhere/fig" -o "$WORK/o.md"
: >"$WORK/afile"
check_bad "figures on a file" "$DATA/node-a" --figures "$WORK/afile" -o "$WORK/o.md"
check_bad "an unknown option" "$DATA/node-a" --bogus -o "$WORK/o.md"
"$ATOMLAB" fleet --help | grep -q "^Exit status: 0 compared and written, whatever it found" && pass || fail "--help"

echo "$PASSES passed, $FAILS failed"
[ "$FAILS" -eq 0 ]
