#!/usr/bin/env bash
# atomlab report --quick on the OpenCL device (PoCL in CI): the folder holds
# report.md, a self-contained report.html with every heatmap and strategy
# bar chart inline, the strategy winners and histogram tables, the figures
# and the data; the Model section summarizes a calibration table where
# the user's cache folder ($XDG_CACHE_HOME/atomlab/<device>/) or the shipped data has smem-table.csv; headless chromium (where installed) loads the HTML
# without a console message and decodes every figure. Bad usage writes nothing.
. "$(dirname "$0")/lib.sh"
export XDG_CACHE_HOME=$WORK/nocache # a user's own calibration must not change what the report says
need_opencl
PATTERNS="contiguous cross-warp branched random"
ATOMLAB="$(cd "$(dirname "$ATOMLAB")" && pwd)/$(basename "$ATOMLAB")" # one check runs in another folder

"$ATOMLAB" report --quick -o "$WORK/rep" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && pass || fail "report exited $rc: $(cat "$WORK/err")"
grep -q "^report: $WORK/rep/report.md" "$WORK/out" && grep -q "16 of 16 rows verified" "$WORK/out" && pass ||
  fail "summary on stdout: $(cat "$WORK/out")"
[ "$(grep -c '^report: \[[1-6]/6\]' "$WORK/err")" -eq 6 ] && pass || fail "progress lines on stderr: $(cat "$WORK/err")"
for f in report.md report.html data/rmw.json data/rmw.csv data/strategy.json data/strategy.csv data/histogram.json \
  data/datasheet.json data/datasheet.csv; do
  [ -s "$WORK/rep/$f" ] && pass || fail "missing $f"
done
for p in $PATTERNS; do
  grep -q "^| $p | 4 of 4 | " "$WORK/rep/report.md" && pass || fail "report.md table row for $p"
done
# Findings first (before Device), on a CPU with its caveat and the noise count.
[ "$(grep -m1 '^## ' "$WORK/rep/report.md")" = "## Findings" ] && pass || fail "report.md does not open with Findings"
grep -q "^- These rates are a CPU's\|^- These rates are a CPU&#39;s" "$WORK/rep/report.md" && pass || fail "no CPU caveat"
grep -q "measured rows \(met the noise target\|stayed above the noise target\)" "$WORK/rep/report.md" && pass ||
  fail "no noise finding"
# The datasheet: one row per op, type, space and result (quick: fetch_add and cas, u32, global and local, unused
# and used), each with its peak; the file reads back as rows of its own kind.
[ "$(grep -c '^| \(fetch_add\|cas\) | u32 | \(global\|local\) | \(unused\|used\) | [0-9.e+-]* ±[0-9.e+-]*% | ' "$WORK/rep/report.md")" -eq 8 ] &&
  "$ATOMLAB" compare "$WORK/rep/data/datasheet.json" "$WORK/rep/data/datasheet.json" 2>&1 | grep -q "^summary: 8 matched (8 same" &&
  pass || fail "datasheet: $(sed -n '/^## Datasheet/,/^## Heatmaps/p' "$WORK/rep/report.md")"
for s in Findings Device "Access patterns" Datasheet Heatmaps Strategies Histogram Model Terms; do
  grep -q "^## $s" "$WORK/rep/report.md" && pass || fail "report.md section $s"
done
grep -qi "not measured\|not yet\|not fitted" "$WORK/rep/report.md" && fail "a placeholder is left: $(grep -i 'not measured\|not yet' "$WORK/rep/report.md")" || pass
# Strategies: one winner per pattern (fetch_add, result used) with its Gop/s and margin.
grep -q '^| pattern | op | result | winner | Gop/s | margin |$' "$WORK/rep/report.md" && pass || fail "winners table header"
for p in same-address same-line scattered; do
  grep -Eq "^\| $p \| fetch_add \| used \| [a-z_]+ \| [0-9.e+-]+ ±[0-9.e+-]+%( noisy)? \| ([0-9.]+x|-) \|$" "$WORK/rep/report.md" && pass ||
    fail "winner row for $p: $(sed -n '/^## Strategies/,/^## Histogram/p' "$WORK/rep/report.md")"
done
# Histogram: 12 rows (two yardsticks, 10 variants) x 3 distributions of u8 (4 with photo, where its JPEG is
# installed); the yardsticks and global always run and verify; no row is wrong.
grep -q '^| input/dist/variant | GB/s | to vendor copy | to read ceiling | to CUB | verified |$' "$WORK/rep/report.md" && pass ||
  fail "histogram table header"
hrows=$(grep -c '^| u8/[a-z]*/[a-z0-9-]* | ' "$WORK/rep/report.md")
[ "$hrows" -eq 36 ] || [ "$hrows" -eq 48 ] && pass || fail "histogram rows: $(grep -c '^| u8/' "$WORK/rep/report.md")"
for d in solid uniform skewed; do
  grep -Eq "^\| u8/$d/memcpy-ceiling \| [0-9.e+-]+ ±[0-9.e+-]+%( noisy)? \| 1 \| - \| - \| yes \|$" "$WORK/rep/report.md" &&
    grep -Eq "^\| u8/$d/read-ceiling \| [0-9.e+-]+ ±[0-9.e+-]+%( noisy)? \| - \| 1 \| - \| yes \|$" "$WORK/rep/report.md" &&
    grep -Eq "^\| u8/$d/global \| [0-9.e+-]+ ±[0-9.e+-]+%( noisy)? \| [0-9.e+-]+ \| [0-9.e+-]+ \| - \| yes \|$" "$WORK/rep/report.md" && pass ||
    fail "histogram rows for $d: $(grep "^| u8/$d/" "$WORK/rep/report.md")"
done
grep -q '^| u8/.* | NO |$' "$WORK/rep/report.md" && fail "a histogram row did not verify" || pass
grep -q "^No calibration table for this device" "$WORK/rep/report.md" && grep -q "atomlab calibrate smem" "$WORK/rep/report.md" &&
  pass || fail "Model section without a table: $(sed -n '/^## Model/,/^## Files/p' "$WORK/rep/report.md")"

if command -v gnuplot >/dev/null; then
  # Every heatmap: linked from report.md (the file exists) and inline in report.html as a PNG.
  python3 - "$WORK/rep" $PATTERNS <<'PY' && pass || fail "figures in report.md and report.html"
import base64, os, re, sys
d, patterns = sys.argv[1], sys.argv[2:]
md = open(os.path.join(d, "report.md")).read()
links = re.findall(r"!\[fetch_add, ([a-z-]+)\]\((figures/[^)]+\.png)\)", md)
assert [p for p, _ in links] == patterns, links
bars = re.findall(r"!\[(bars-[^]]+\.png)\]\(figures/\1\)", md)  # one strategy bar chart per pattern
assert [b.split("-fetch_add")[0] for b in bars] == ["bars-same-address", "bars-same-line", "bars-scattered"], bars
for f in [f for _, f in links] + ["figures/" + b for b in bars]:
    assert os.path.getsize(os.path.join(d, f)) > 1000, f
html = open(os.path.join(d, "report.html")).read()
srcs = re.findall(r'src="([^"]*)"', html)
assert len(srcs) == len(patterns) + len(bars), len(srcs)
for s in srcs:  # self-contained: nothing to fetch
    assert s.startswith("data:image/png;base64,"), s[:60]
    assert base64.b64decode(s.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
assert all('id="fig-%s"' % p in html for p in patterns)
PY
  browser=$(command -v chromium || command -v chromium-browser || true)
  if [ -n "$browser" ]; then
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --virtual-time-budget=5000 \
      --enable-logging=stderr --v=0 --dump-dom "file://$WORK/rep/report.html" >"$WORK/dom.html" 2>"$WORK/browser.err"
    nimg=$(grep -o '<img ' "$WORK/rep/report.html" | wc -l) # 4 heatmaps and 3 strategy bar charts
    [ "$nimg" -eq 7 ] && grep -q "data-figures-loaded=\"$nimg/$nimg\"" "$WORK/dom.html" && pass ||
      fail "chromium: not every figure decoded: $(grep -o '<body[^>]*>' "$WORK/dom.html") $(tail -3 "$WORK/browser.err")"
    grep -q ':CONSOLE' "$WORK/browser.err" && fail "chromium console: $(grep ':CONSOLE' "$WORK/browser.err")" || pass
    # the rendered page opens with its findings, each with numbers (a rate, a ratio or a count)
    python3 - "$WORK/dom.html" <<'PY' && pass || fail "chromium: the rendered page has no findings with numbers"
import re, sys
dom = open(sys.argv[1]).read()
m = re.search(r'<h2 id="findings">Findings</h2>.*?<ul>(.*?)</ul>', dom, re.S)
assert m, "no findings section"
items = re.findall(r"<li>(.*?)</li>", m.group(1), re.S)
numbered = [i for i in items if re.search(r"\d", i)]  # all but a CPU's caveat carry numbers
assert len(items) >= 2 and len(numbered) >= len(items) - 1, items
assert dom.index('id="findings"') < dom.index('id="device"'), "findings not first"
PY
  else
    echo "chromium not installed: browser check skipped"
  fi
else
  grep -q "No images: gnuplot did not draw them" "$WORK/rep/report.md" && pass || fail "report without gnuplot says so"
fi

# Model: a calibration table in the user's cache folder ($XDG_CACHE_HOME/atomlab/<device slug>/smem-table.csv) is
# summarized; one at results/<device slug>/ under the folder it runs in is not read (the product reads no results/).
slug=$("$ATOMLAB" devices --format json 2>/dev/null | python3 -c '
import json, atl_json, sys
print([d for d in atl_json.load(sys.stdin)["devices"] if d["id"].startswith("opencl")][0]["slug"])')
mkdir -p "$WORK/m/results/$slug" "$WORK/cache/atomlab/$slug"
printf 'result,n,e,c,t_cycles\nunused,1,1,0,100\nunused,1,1,1,130\nused,1,1,0,200\nused,1,1,1,230\n' >"$WORK/cache/atomlab/$slug/smem-table.csv"
cp "$WORK/cache/atomlab/$slug/smem-table.csv" "$WORK/m/results/$slug/smem-table.csv"
(cd "$WORK/m" && XDG_CACHE_HOME=$WORK/nocache "$ATOMLAB" report --quick --backend opencl -o rep0 >/dev/null 2>"$WORK/err") &&
  grep -q "^No calibration table for this device (none in the user's cache folder" "$WORK/m/rep0/report.md" && pass ||
  fail "report read results/ in its folder: $(sed -n '/^## Model/,/^## Files/p' "$WORK/m/rep0/report.md") $(cat "$WORK/err")"
(cd "$WORK/m" && XDG_CACHE_HOME=$WORK/cache "$ATOMLAB" report --quick --backend opencl -o rep >/dev/null 2>"$WORK/err") && pass || fail "report with a table: $(cat "$WORK/err")"
grep -q "2 points (result unused), 2 (result used)" "$WORK/m/rep/report.md" && grep -q '^| 1 | 1 | 0 | 100 | 200 |$' "$WORK/m/rep/report.md" &&
  pass || fail "Model section with a table: $(sed -n '/^## Model/,/^## Files/p' "$WORK/m/rep/report.md")"
# ... and one shipped for the device (ATL_DATA_DIR/<slug>/, as the installed share/atomlab/<slug>/) where the cache has none
mkdir -p "$WORK/shipped/$slug"
cp "$WORK/cache/atomlab/$slug/smem-table.csv" "$WORK/shipped/$slug/"
(cd "$WORK/m" && XDG_CACHE_HOME=$WORK/nocache ATL_DATA_DIR=$WORK/shipped "$ATOMLAB" report --quick --backend opencl -o rep2 >/dev/null 2>&1) &&
  grep -q "2 points (result unused), 2 (result used)" "$WORK/m/rep2/report.md" && pass ||
  fail "a shipped table: $(sed -n '/^## Model/,/^## Files/p' "$WORK/m/rep2/report.md")"

# --render: a folder measured where gnuplot was missing (figures as .dat and .gp only) gets its images and
# documents from its data, measuring nothing.
if command -v gnuplot >/dev/null; then
  cp -r "$WORK/rep" "$WORK/norender"
  rm -f "$WORK/norender"/figures/*.png "$WORK/norender"/figures/*.svg "$WORK/norender"/report.md "$WORK/norender"/report.html
  "$ATOMLAB" report --render "$WORK/norender" >"$WORK/out" 2>"$WORK/err" && [ -s "$WORK/norender/report.md" ] &&
    [ "$(ls "$WORK/norender"/figures/*.png | wc -l)" -eq "$(ls "$WORK/rep"/figures/*.png | wc -l)" ] &&
    [ "$(grep -o 'data:image/png' "$WORK/norender/report.html" | wc -l)" -eq "$(grep -o 'data:image/png' "$WORK/rep/report.html" | wc -l)" ] &&
    cmp -s "$WORK/rep/data/rmw.json" "$WORK/norender/data/rmw.json" && pass || fail "--render: $(cat "$WORK/err")"
fi
# a program's diagnosis in the folder (profile --diagnosis DIR/data/diagnosis.json): its section, the advice's words
# made from the rows; a folder without one has no such section
DIAG_DATA=$(cd "$(dirname "$0")/../data" && pwd)
cp -r "$WORK/rep" "$WORK/diag"
"$ATOMLAB" profile --counters "$DIAG_DATA/ncu-synthetic-bincount-f32.csv" --sass "$DIAG_DATA/sass-synthetic-bincount.txt" \
  --l2-same "$DIAG_DATA/ncu-h100-l2-same.csv" --l2-spread "$DIAG_DATA/ncu-h100-l2-spread.csv" \
  --same-f32 "$DIAG_DATA/ncu-h100-l2-same-f32.csv" --diagnosis "$WORK/diag/data/diagnosis.json" >/dev/null 2>&1 &&
  "$ATOMLAB" report --render "$WORK/diag" >/dev/null 2>"$WORK/err" && grep -q '^## Diagnosis' "$WORK/diag/report.md" &&
  grep -q 'torch.bincount at train.py:42 -&gt; atomlab atl_scatter_add bins (block-aggregated; predicted' \
    "$WORK/diag/report.md" &&
  ! grep -q '^## Diagnosis' "$WORK/rep/report.md" && pass || fail "the diagnosis section: $(cat "$WORK/err")"
"$ATOMLAB" report --render "$WORK/nothing-here" >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "^error: --render" "$WORK/err" && pass ||
  fail "--render without a report folder: $(cat "$WORK/err")"
"$ATOMLAB" report --render "$WORK/rep" --quick >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && grep -q "measures nothing" "$WORK/err" && pass || fail "--render with --quick: $(cat "$WORK/err")"

# Bad usage: exit 2, one line, no folder.
"$ATOMLAB" report --quick --frob >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && pass || fail "unknown option: $(cat "$WORK/err")"
"$ATOMLAB" report --quick -o "$WORK/no/such/dir" >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && [ ! -e "$WORK/no" ] && grep -q "^error: -o" "$WORK/err" && pass || fail "-o in a missing folder: $(cat "$WORK/err")"
(cd "$WORK" && "$ATOMLAB" report --quick --device 999 >/dev/null 2>"$WORK/err")
[ $? -eq 2 ] && [ ! -e "$WORK/atomlab-report" ] && grep -q "^error: --device" "$WORK/err" && pass ||
  fail "--device 999: $(cat "$WORK/err")"
# --compare: two report folders side by side (datasheets with ratios, each device's findings); bad input refused.
"$ATOMLAB" report --compare "$WORK/rep" "$WORK/m/rep" -o "$WORK/side.md" >/dev/null 2>"$WORK/err" &&
  grep -q "^## Datasheets" "$WORK/side.md" && grep -q "^## Findings 2: " "$WORK/side.md" &&
  grep -q '^| fetch_add | u32 | global | unused | [0-9.]* | [0-9.]* | [0-9.]* ([0-9.]*x) |' "$WORK/side.md" && pass ||
  fail "--compare: $(cat "$WORK/err") $(head -20 "$WORK/side.md" 2>/dev/null)"
expect_refused "--compare takes 2 to 8" report --compare "$WORK/rep" -o "$WORK/out.md"
expect_refused "--compare '$WORK/nowhere'" report --compare "$WORK/rep" "$WORK/nowhere" -o "$WORK/out.md"
# --repeat 2: the sweeps run twice and the findings say which differences held in every pass.
"$ATOMLAB" report --quick --repeat 2 -o "$WORK/rep2" >/dev/null 2>"$WORK/err" &&
  grep -q "^Measured in 2 passes (--repeat): [0-9]* of the [0-9]* differences below held in every pass" "$WORK/rep2/report.md" &&
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["settings"]["repeats"] == 2 and all(any(m["name"] == "repeats" for m in r["metrics"]) for r in d["rows"])
' "$WORK/rep2/data/rmw.json" && pass || fail "report --repeat 2: $(tail -2 "$WORK/err")"
expect_refused "--repeat" report --quick --repeat 11 -o "$WORK/out"
finish
