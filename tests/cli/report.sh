#!/usr/bin/env bash
# atomlab report --quick on the OpenCL device (PoCL in CI): the folder holds
# report.md, a self-contained report.html with every heatmap inline, the
# figures and the data; headless chromium (where installed) loads the HTML
# without a console message and decodes every figure. Bad usage writes nothing.
. "$(dirname "$0")/lib.sh"
need_opencl
PATTERNS="contiguous cross-warp branched random"
ATOMLAB="$(cd "$(dirname "$ATOMLAB")" && pwd)/$(basename "$ATOMLAB")" # one check runs in another folder

"$ATOMLAB" report --quick -o "$WORK/rep" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && pass || fail "report exited $rc: $(cat "$WORK/err")"
grep -q "^report: $WORK/rep/report.md" "$WORK/out" && grep -q "16 of 16 rows verified" "$WORK/out" && pass ||
  fail "summary on stdout: $(cat "$WORK/out")"
[ "$(grep -c '^report: \[[1-3]/3\]' "$WORK/err")" -eq 3 ] && pass || fail "progress lines on stderr: $(cat "$WORK/err")"
for f in report.md report.html data/rmw.json data/rmw.csv; do
  [ -s "$WORK/rep/$f" ] && pass || fail "missing $f"
done
for p in $PATTERNS; do
  grep -q "^| $p | 4 of 4 | " "$WORK/rep/report.md" && pass || fail "report.md table row for $p"
done
for s in Device "Access patterns" Heatmaps Strategies Histogram Model; do
  grep -q "^## $s" "$WORK/rep/report.md" && pass || fail "report.md section $s"
done

if command -v gnuplot >/dev/null; then
  # Every heatmap: linked from report.md (the file exists) and inline in report.html as a PNG.
  python3 - "$WORK/rep" $PATTERNS <<'PY' && pass || fail "figures in report.md and report.html"
import base64, os, re, sys
d, patterns = sys.argv[1], sys.argv[2:]
md = open(os.path.join(d, "report.md")).read()
links = re.findall(r"!\[fetch_add, ([a-z-]+)\]\((figures/[^)]+\.png)\)", md)
assert [p for p, _ in links] == patterns, links
for _, f in links:
    assert os.path.getsize(os.path.join(d, f)) > 1000, f
html = open(os.path.join(d, "report.html")).read()
srcs = re.findall(r'src="([^"]*)"', html)
assert len(srcs) == len(patterns), len(srcs)
for s in srcs:  # self-contained: nothing to fetch
    assert s.startswith("data:image/png;base64,"), s[:60]
    assert base64.b64decode(s.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
assert all('id="fig-%s"' % p in html for p in patterns)
PY
  browser=$(command -v chromium || command -v chromium-browser || true)
  if [ -n "$browser" ]; then
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --virtual-time-budget=5000 \
      --enable-logging=stderr --v=0 --dump-dom "file://$WORK/rep/report.html" >"$WORK/dom.html" 2>"$WORK/browser.err"
    grep -q 'data-figures-loaded="4/4"' "$WORK/dom.html" && pass ||
      fail "chromium: not every figure decoded: $(grep -o '<body[^>]*>' "$WORK/dom.html") $(tail -3 "$WORK/browser.err")"
    grep -q ':CONSOLE' "$WORK/browser.err" && fail "chromium console: $(grep ':CONSOLE' "$WORK/browser.err")" || pass
  else
    echo "chromium not installed: browser check skipped"
  fi
else
  grep -q "No images: gnuplot did not draw them" "$WORK/rep/report.md" && pass || fail "report without gnuplot says so"
fi

# Bad usage: exit 2, one line, no folder.
"$ATOMLAB" report --quick --frob >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && pass || fail "unknown option: $(cat "$WORK/err")"
"$ATOMLAB" report --quick -o "$WORK/no/such/dir" >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && [ ! -e "$WORK/no" ] && grep -q "^error: -o" "$WORK/err" && pass || fail "-o in a missing folder: $(cat "$WORK/err")"
(cd "$WORK" && "$ATOMLAB" report --quick --device 999 >/dev/null 2>"$WORK/err")
[ $? -eq 2 ] && [ ! -e "$WORK/atomlab-report" ] && grep -q "^error: --device" "$WORK/err" && pass ||
  fail "--device 999: $(cat "$WORK/err")"
finish
