#!/usr/bin/env bash
# `atomlab report` on the NVIDIA GPU through CUDA (issue [report]): the
# default characterization (device facts, access-pattern table, fetch_add
# heatmaps of the four patterns: 144 rows, about a minute on an H100), then
# the same files checked: report.md, a self-contained report.html, figures, data.
# Writes under OUT (default out/gpu-report): report.tar.gz (the whole folder),
# report.md and report.html (to read at once), log.txt. Expects a build in build/.
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-report
{
  echo "== gpu-report $(date -u +%FT%TZ)"
  $SMI
  $A version
  $A devices
} >"$OUT/log.txt" 2>&1
cat "$OUT/log.txt"
REPORT=$(mktemp -d)/report
STEP_LOG=$OUT/log.txt STEP_STATUS=$OUT/log.txt step report 200 $A report --backend cuda -o "$REPORT"
rc=$?
# Stopped by the timeout, the report leaves REPORT as it was (absent) and what it completed in
# REPORT.staging-PID: ship that instead of nothing.
staged=$(ls -d "$REPORT".staging-* 2>/dev/null | head -1)
if [ ! -d "$REPORT" ] && [ -n "$staged" ]; then
  tar -C "$(dirname "$staged")" -czf "$OUT/report-interrupted.tar.gz" "$(basename "$staged")"
  echo "report: interrupted; its completed data is in $OUT/report-interrupted.tar.gz" | tee -a "$OUT/log.txt"
fi
if [ -d "$REPORT" ]; then
  cp "$REPORT/report.md" "$REPORT/report.html" "$OUT/" 2>/dev/null
  tar -C "$(dirname "$REPORT")" -czf "$OUT/report.tar.gz" report
  # The checks the CPU test makes, on the GPU's report.
  python3 - "$REPORT" <<'PY' 2>&1 | tee -a "$OUT/log.txt"
import base64, json, os, re, sys
d = sys.argv[1]
rows = atl_json.load(os.path.join(d, "data/rmw.json"))["rows"]
ok = sum(r["status"] == "ok" and r["verified"] for r in rows)
print("rows: %d, verified: %d" % (len(rows), ok))
html = open(os.path.join(d, "report.html")).read()
srcs = re.findall(r'src="([^"]*)"', html)
good = sum(s.startswith("data:image/png;base64,") and base64.b64decode(s.split(",", 1)[1])[:4] == b"\x89PNG" for s in srcs)
print("report.html: %d inline PNG figures of %d images, %d bytes" % (good, len(srcs), len(html)))
print("figures:", sorted(f for f in os.listdir(os.path.join(d, "figures")) if f.endswith(".png")))
print("CHECK", "PASS" if rows and ok == len(rows) and good == 4 == len(srcs) else "FAIL")
PY
  sed -n '/^## Access patterns/,/^## Heatmaps/p' "$REPORT/report.md"
fi
ls -la "$OUT"
