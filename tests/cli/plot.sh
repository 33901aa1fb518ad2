#!/usr/bin/env bash
# atomlab plot on committed result files (no device needed): real PNG and SVG
# images where gnuplot exists, the data and scripts with a clear message where
# it does not, deterministic names, and bad input refused with nothing written.
. "$(dirname "$0")/lib.sh"
DATA="$(cd "$(dirname "$0")/../data" && pwd)"
ATOMLAB="$(cd "$(dirname "$ATOMLAB")" && pwd)/$(basename "$ATOMLAB")" # the default-folder check runs elsewhere

# Images: PNG magic bytes and a size, SVG that parses as XML.
check_images() { # check_images DIR EXPECTED_COUNT
  python3 - "$1" "$2" <<'PY'
import os, sys, xml.etree.ElementTree as ET
d, want = sys.argv[1], int(sys.argv[2])
pngs = sorted(f for f in os.listdir(d) if f.endswith(".png"))
svgs = sorted(f for f in os.listdir(d) if f.endswith(".svg"))
assert len(pngs) == want and len(svgs) == want, (pngs, svgs)
for f in pngs:
    data = open(os.path.join(d, f), "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000, f
for f in svgs:
    root = ET.parse(os.path.join(d, f)).getroot()
    assert root.tag.endswith("svg"), f
PY
}

if command -v gnuplot >/dev/null; then
  "$ATOMLAB" plot "$DATA/plot-small.json" --format both -o "$WORK/figs" >"$WORK/out" 2>"$WORK/err"
  [ $? -eq 0 ] && pass || fail "plot exited non-zero: $(cat "$WORK/err")"
  check_images "$WORK/figs" 3 && pass || fail "plot-small.json: 3 PNG and 3 SVG images"
  for name in heatmap-contiguous-fetch_add-u32-global-unused-device-relaxed \
    heatmap-random-fetch_add-u32-global-unused-device-relaxed \
    line-contention-contiguous-cas-u32-global-unused-device-relaxed-p1; do
    [ -s "$WORK/figs/$name.dat" ] && [ -s "$WORK/figs/$name.gp" ] && grep -qx "$WORK/figs/$name.png" "$WORK/out" &&
      pass || fail "figure $name (stdout: $(cat "$WORK/out"))"
  done
  # The heatmap's data: 2 contention x 2 padding cells, Gop/s within the IQR ends.
  python3 - "$WORK/figs/heatmap-random-fetch_add-u32-global-unused-device-relaxed.dat" <<'PY' && pass || fail "heatmap data"
import sys
rows = [l.split() for l in open(sys.argv[1]) if not l.startswith("#")]
assert len(rows) == 4, rows
assert sorted((r[2], r[3]) for r in rows) == [("1", "1"), ("1", "2"), ("4", "1"), ("4", "2")], rows
for r in rows:
    v, lo, hi = map(float, r[4:7])
    assert 0 < lo <= v <= hi, r
PY
  # One colour scale for every heatmap of the file, ticks at both ends.
  a=$(grep -h "^set cbrange" "$WORK/figs"/heatmap-contiguous-*.gp)
  b=$(grep -h "^set cbrange" "$WORK/figs"/heatmap-random-*.gp)
  [ -n "$a" ] && [ "$a" = "$b" ] && grep -q '^set cbtics (".*" .*, ".*" .*)$' "$WORK/figs"/heatmap-random-*.gp && pass ||
    fail "heatmaps of one file with other colour scales: '$a' against '$b'"
  # Deterministic: a second run writes the same names, nothing more.
  ls "$WORK/figs" >"$WORK/first"
  "$ATOMLAB" plot "$DATA/plot-small.json" --format both -o "$WORK/figs" >/dev/null 2>&1
  ls "$WORK/figs" | diff - "$WORK/first" >/dev/null && pass || fail "a rerun changed the file names"
  # Strategy rows (with fields plot does not know): one bar chart per (pattern, op).
  "$ATOMLAB" plot "$DATA/strategy-small.json" --format both -o "$WORK/bars" >"$WORK/out" 2>"$WORK/err" &&
    check_images "$WORK/bars" 2 && [ -s "$WORK/bars/bars-contiguous-fetch_add.dat" ] &&
    [ "$(grep -vc '^#' "$WORK/bars/bars-random-fetch_add.dat")" -eq 4 ] && pass ||
    fail "strategy bars: $(cat "$WORK/err")"
  # A strategy that did not run has no bar, and its chart says which and why.
  python3 - "$DATA/strategy-small.json" "$WORK/strat-miss.json" <<'PY'
import atl_json, sys
d = atl_json.load(sys.argv[1])
r = [r for r in d["rows"] if r.get("pattern") == "random"][0]
r["status"] = "unsupported"
atl_json.dump(d, open(sys.argv[2], "w"))
print(r["strategy"], file=open(sys.argv[2] + ".name", "w"))
PY
  "$ATOMLAB" plot "$WORK/strat-miss.json" -o "$WORK/miss" >/dev/null 2>&1 &&
    grep -q "^set label 1 'no bar: $(cat "$WORK/strat-miss.json.name") (unsupported)'" "$WORK/miss/bars-random-fetch_add.gp" &&
    pass || fail "a missing bar is not named: $(grep -h label "$WORK"/miss/*.gp 2>/dev/null)"
  # Default folder: FILE-figures in the working directory; png only by default.
  (cd "$WORK" && "$ATOMLAB" plot "$DATA/strategy-small.json" >/dev/null 2>&1) &&
    [ -s "$WORK/strategy-small-figures/bars-random-fetch_add.png" ] &&
    [ ! -e "$WORK/strategy-small-figures/bars-random-fetch_add.svg" ] && pass || fail "default folder and format"
  # An app file (`atomlab app histogram` on the H100): one bar chart per input and distribution.
  "$ATOMLAB" plot "$DATA/app-histogram-h100.json" --format both -o "$WORK/app" >"$WORK/out" 2>"$WORK/err"
  [ $? -eq 0 ] && check_images "$WORK/app" 3 && [ -s "$WORK/app/bars-histogram-u8-uniform.png" ] &&
    grep -q '"cub"' "$WORK/app/bars-histogram-u8-uniform.dat" && grep -q "read ceiling" "$WORK/app/bars-histogram-u8-uniform.gp" &&
    pass || fail "app file: 3 bar charts with CUB and the read ceiling: $(cat "$WORK/err")"
else
  echo "gnuplot not installed: image checks skipped"
fi
# An app file with no row ok and verified draws nothing: exit 1, said plainly.
python3 - "$DATA/app-histogram-h100.json" "$WORK/app-unverified.json" <<'PY'
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
for r in d["rows"]:
    r["verified"] = False
atl_json.dump(d, open(sys.argv[2], "w"))
PY
"$ATOMLAB" plot "$WORK/app-unverified.json" -o "$WORK/app-none" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && grep -q "nothing to draw" "$WORK/err" && pass || fail "unverified app file (exit $rc): $(cat "$WORK/err")"

# Without gnuplot: one clear message, the data and scripts, no image, exit 0.
ATL_GNUPLOT=/nonexistent/gnuplot "$ATOMLAB" plot "$DATA/plot-small.json" -o "$WORK/nognuplot" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && grep -q "^warning: gnuplot not found" "$WORK/err" && [ "$(ls "$WORK/nognuplot"/*.dat | wc -l)" -eq 3 ] &&
  [ "$(ls "$WORK/nognuplot"/*.gp | wc -l)" -eq 3 ] && ! ls "$WORK/nognuplot" | grep -q '\.png$' && pass ||
  fail "without gnuplot (exit $rc): $(cat "$WORK/err")"

# Bad input: exit 2, one error line naming the problem, no folder written.
echo '{"hello": 1}' >"$WORK/other.json"
echo 'not json' >"$WORK/text.json"
sed 's/"format_version": 1/"format_version": 99/' "$DATA/plot-small.json" >"$WORK/v99.json"
expect_usage_error "unable to open" plot "$WORK/missing.json"
expect_usage_error "not JSON" plot "$WORK/text.json"
expect_usage_error "not an atomlab result" plot "$WORK/other.json"
expect_usage_error "format_version 99" plot "$WORK/v99.json"
expect_usage_error "--format" plot "$DATA/plot-small.json" --format gif
expect_usage_error "one result file" plot
expect_usage_error "one result file" plot "$DATA/plot-small.json" "$DATA/plot-small.json"
finish
