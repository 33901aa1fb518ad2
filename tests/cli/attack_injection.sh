#!/usr/bin/env bash
# Attack: no code from data. A result file whose strings (row patterns, strategy
# and variant names, the device's name and platform, the recorded command) or
# whose path hold gnuplot or shell syntax (backquotes, quotes, newlines,
# system(...), $(...), @macros) or HTML (</script><script>) must reach gnuplot,
# report.md and report.html as text: `atomlab plot` and `atomlab report
# --render` run nothing from it (no MARKER file appears), draw as many images
# and exit as on the clean file, keep the columns of every .dat file, and
# write no tag from the data into either document.
. "$(dirname "$0")/lib.sh"
DATA="$(cd "$(dirname "$0")/../data" && pwd)"
MARK="$WORK/mark"
mkdir -p "$MARK"

# The hostile strings, one per attack: each would create a file in $MARK if
# gnuplot or a shell ran it. Written where python reads them (newlines included).
python3 - "$MARK" "$WORK/payloads.json" <<'PY'
import json, atl_json, sys
m = sys.argv[1]
payloads = [
    "`touch %s/backquote`" % m,
    "x' . system('touch %s/single') . '" % m,
    'x" . system("touch %s/double") . "' % m,
    "x\nsystem('touch %s/newline')\n#" % m,
    'x"\nsystem("touch %s/newline2")\nprint "' % m,
    "x'\nsystem('touch %s/newline3')\nprint '" % m,
    "$(touch %s/dollar)" % m,
    "x'\nevil = \"system('touch %s/macro')\"\n@evil\n#" % m,
    "x\\\" . system(\"touch %s/backslash\") . \"" % m,
    "</script><script>alert(1)</script><img src=x onerror=alert(2)>",
]
json.dump(payloads, open(sys.argv[2], "w"))
PY
NPAYLOADS=$(python3 -c 'import json, atl_json,sys; print(len(atl_json.load(sys.argv[1])))' "$WORK/payloads.json")

# poison SRC DST INDEX: SRC with payload INDEX appended to every string an emitter takes from it.
poison() {
  python3 - "$1" "$2" "$3" "$WORK/payloads.json" <<'PY'
import json, atl_json, sys
src, dst, i, payloads = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
p = atl_json.load(payloads)[i]
d = atl_json.load(src)
dev = d.setdefault("device", {})
for k in ("name", "platform", "vendor", "driver", "version", "backend"):
    dev[k] = dev.get(k, "") + p
d["command"] = d.get("command", "") + p
d.setdefault("tool", {})["version"] = "0.1.0" + p
for r in d["rows"]:
    if r.get("app") == "swatomic":
        continue  # its figures take their columns from the exact variant names: only the device is data there
    for k in ("pattern", "strategy", "app", "reason"):
        if k in r:
            r[k] = r[k] + p
    if "variant" in r:  # plot groups by the variant up to its last '/': keep the groups, poison both halves
        head, _, tail = r["variant"].rpartition("/")
        r["variant"] = head + p + "/" + tail + "'\"`@\n#x"
for w in d.get("winners", []):
    for k in ("pattern", "op", "result", "strategy"):
        if k in w:
            w[k] = w[k] + p
atl_json.dump(d, open(dst, "w"))
PY
}

# The shape of a figure folder: per .dat file, its data lines' field counts (gnuplot's
# tokens: a quoted string is one); sorted, so names may differ.
dat_shape() {
  python3 - "$1" <<'PY'
import os, re, sys
d = sys.argv[1]
shapes = []
for f in sorted(os.listdir(d)):
    if f.endswith(".dat"):
        lines = [l for l in open(os.path.join(d, f), errors="replace").read().split("\n") if l and not l.startswith("#")]
        shapes.append(tuple(len(re.findall(r'"[^"]*"|\S+', l)) for l in lines))
print(sorted(shapes))
PY
}

no_marker() { # no_marker WHAT: nothing appeared in $MARK
  if [ -n "$(ls -A "$MARK")" ]; then
    fail "$1: data ran as code: $(ls "$MARK" | tr '\n' ' ')"
    rm -f "$MARK"/*
  else
    pass
  fi
}

command -v gnuplot >/dev/null || echo "gnuplot not installed: the scripts are written but not run"

# 1. atomlab plot on rmw, strategy and app files, each poisoned with each payload; swatomic-small is an
# `app swatomic --experiment` file in miniature (seed 000's figures).
python3 - "$DATA/app-histogram-h100.json" "$WORK/swatomic-small.json" <<'PY'
import json, atl_json, sys
d = atl_json.load(sys.argv[1])
d["rows"] = [{"app": "swatomic", "variant": v, "status": "ok", "verified": True, "time_ms": {"median": ms * g},
              "metrics": {"workgroups": g, "ideal_ms": 2.0 * g, "predicted_speedup": 2.0, "measured_speedup": 1.5}}
             for g in (2, 4) for v, ms in (("system", 1.0), ("warp", 0.5), ("software", 0.25), ("mem", 1.0),
                                           ("system+mem", 2.5), ("warp+mem", 1.5), ("software+mem", 1.2))]
atl_json.dump(d, open(sys.argv[2], "w"))
PY
for src in plot-small strategy-small app-histogram-h100 swatomic-small; do
  clean="$DATA/$src.json"
  [ -e "$clean" ] || clean="$WORK/$src.json"
  "$ATOMLAB" plot "$clean" -o "$WORK/clean-$src" >/dev/null 2>&1
  want_rc=$?
  want_png=$(ls "$WORK/clean-$src" | grep -c '\.png$')
  want_shape=$(dat_shape "$WORK/clean-$src")
  i=0
  while [ $i -lt "$NPAYLOADS" ]; do
    # The file's own path is hostile too (a name holds no '/': its markers are relative, made in the
    # folder gnuplot runs in): it is written into the .dat files' comments.
    evil="$WORK/in/$src-$i\`touch pwned-path\`'
system('touch pwned-pathnl').json"
    mkdir -p "$WORK/in"
    poison "$clean" "$evil" $i
    out="$WORK/figs-$src-$i"
    "$ATOMLAB" plot "$evil" -o "$out" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    mv "$out"/pwned-* "$MARK"/ 2>/dev/null
    no_marker "plot $src payload $i"
    [ $rc -eq "$want_rc" ] && pass || fail "plot $src payload $i exited $rc, the clean file $want_rc: $(head -c 400 "$WORK/err")"
    png=$(ls "$out" 2>/dev/null | grep -c '\.png$')
    [ "$png" -eq "$want_png" ] && pass || fail "plot $src payload $i drew $png images, the clean file $want_png: $(head -c 400 "$WORK/err")"
    [ "$(dat_shape "$out")" = "$want_shape" ] && pass ||
      fail "plot $src payload $i: the .dat columns changed: $(dat_shape "$out") against $want_shape"
    i=$((i + 1))
  done
done

# 2. atomlab model predict: kernel names from an ncu export enter its Markdown table.
python3 - "$DATA/ncu-h100-rmw.csv" "$WORK/ncu-evil.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
k = rows[0].index("Kernel Name")
for r in rows[2:] if rows[1] and rows[1][0] == "" else rows[1:]:
    if len(r) > k:
        r[k] = r[k] + "</script><script>alert(1)</script> | `x` [a](javascript:alert(2))"
csv.writer(open(sys.argv[2], "w", newline=""), quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
PY
"$ATOMLAB" model predict --table "$DATA/smem-table-h100-trim.csv" --counters "$DATA/ncu-h100-rmw.csv" >"$WORK/pred-clean.md" 2>&1
"$ATOMLAB" model predict --table "$DATA/smem-table-h100-trim.csv" --counters "$WORK/ncu-evil.csv" >"$WORK/pred.md" 2>"$WORK/err"
if [ $? -ne 0 ]; then
  fail "model predict on poisoned kernel names: $(head -3 "$WORK/err")"
elif grep -q '<' "$WORK/pred.md" || ! grep -q '&lt;/script&gt;' "$WORK/pred.md"; then
  fail "model predict: HTML from the kernel names in the Markdown: $(grep -m2 'script' "$WORK/pred.md")"
elif [ "$(grep -c '^| ' "$WORK/pred.md")" -ne "$(grep -c '^| ' "$WORK/pred-clean.md")" ] ||
  [ "$(grep '^| [0-9]' "$WORK/pred.md" | sed 's/\\|//g' | awk -F'|' '{print NF}' | sort -u)" != \
    "$(grep '^| [0-9]' "$WORK/pred-clean.md" | awk -F'|' '{print NF}' | sort -u)" ]; then
  fail "model predict: a kernel name split the table's rows or cells"
else
  pass
fi

# 3. atomlab report --render on a report folder whose data/*.json and figure names are poisoned.
if ! "$ATOMLAB" devices >/dev/null 2>&1; then
  echo "no OpenCL device: report --render checks skipped"
  finish
  exit $?
fi
"$ATOMLAB" report --quick -o "$WORK/rep" >/dev/null 2>"$WORK/err" || true
if [ ! -s "$WORK/rep/data/rmw.json" ]; then
  fail "report --quick wrote no data/rmw.json: $(tail -3 "$WORK/err")"
  finish
  exit $?
fi
rm -f "$WORK/rep"/figures/*.png "$WORK/rep"/figures/*.svg
cp -r "$WORK/rep" "$WORK/rep-clean"
"$ATOMLAB" report --render "$WORK/rep-clean" >/dev/null 2>&1
want_rc=$?
# Every payload at once in one folder (each in its own field), then each payload alone.
i=0
while [ $i -lt "$NPAYLOADS" ]; do
  r="$WORK/rep-$i"
  cp -r "$WORK/rep" "$r"
  # Only the random pattern's rows: the other patterns keep their heatmaps, so figures are embedded.
  python3 - "$r/data/rmw.json" $i "$WORK/payloads.json" <<'PY'
import json, atl_json, sys
path, i = sys.argv[1], int(sys.argv[2])
p = atl_json.load(sys.argv[3])[i]
d = atl_json.load(path)
for k in ("name", "platform", "vendor", "driver", "version", "language_version"):
    d["device"][k] = d["device"].get(k, "") + p
d["date"] = d.get("date", "") + p
for r in d["rows"]:
    if r.get("pattern") == "random":
        r["pattern"] = "random" + p
atl_json.dump(d, open(path, "w"))
PY
  [ -s "$r/data/strategy.json" ] && poison "$r/data/strategy.json" "$r/data/strategy.json" $i
  [ -s "$r/data/histogram.json" ] && poison "$r/data/histogram.json" "$r/data/histogram.json" $i
  "$ATOMLAB" report --render "$r" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  no_marker "report --render payload $i"
  [ $rc -eq "$want_rc" ] && pass || fail "report --render payload $i exited $rc, the clean folder $want_rc: $(tail -3 "$WORK/err")"
  [ "$(ls "$r"/figures/*.png 2>/dev/null | wc -l)" -gt 0 ] && pass || fail "report --render payload $i drew no image"
  i=$((i + 1))
done
# A figure whose file name is HTML (another hand may write into figures/): linked and embedded as text only.
r="$WORK/rep-$((NPAYLOADS - 1))"
png=$(ls "$r"/figures/bars-*.png 2>/dev/null | head -1)
if [ -n "$png" ]; then
  cp "$png" "$r/figures/bars-<script>alert(3)<!--\"' onload=alert(4) x=.png"
  "$ATOMLAB" report --render "$r" >/dev/null 2>&1
  no_marker "report --render with a hostile figure name"
fi
# The documents: the payloads are there, as text only. report.md has no '<' of its own, report.html one
# <script> (the figure check at its end); no tag attribute from the data.
python3 - "$r" <<'PY' && pass || fail "report.md / report.html carry HTML from the data"
import re, sys
d = sys.argv[1]
md = open(d + "/report.md", errors="replace").read()
html = open(d + "/report.html", errors="replace").read()
assert "<" not in md, [l for l in md.splitlines() if "<" in l][:5]
assert "&lt;/script&gt;&lt;script&gt;" in md, "the payload never reached report.md: the test proves nothing"
assert "](figures/" in md and not re.search(r"\]\(figures/[^)]*[\s<>\"']", md), "a link target carries markup"
assert html.count("<script") == 1, re.findall(r".{0,60}<script.{0,60}", html)[:5]
assert "&lt;/script&gt;&lt;script&gt;" in html, "the payload never reached report.html: the test proves nothing"
for tag in re.findall(r"<[^>]*>", html):  # only the tags src/report/write.c writes: no attribute from the data
    assert re.fullmatch(r"</?[a-z0-9]+(?: [a-z-]+=\"[^\"<>]*\")*>|<!DOCTYPE html>", tag), tag[:120]
PY
# report --compare of the poisoned folders: the payloads as text only.
"$ATOMLAB" report --compare "$WORK/rep-0" "$r" -o "$WORK/side.md" >/dev/null 2>&1
python3 - "$WORK/side.md" <<'PY' && pass || fail "report --compare carries HTML from the data"
import sys
md = open(sys.argv[1], errors="replace").read()
assert "<" not in md, [l for l in md.splitlines() if "<" in l][:5]
assert "&lt;" in md, "the payload never reached the comparison: the test proves nothing"
PY
finish
