#!/usr/bin/env bash
# scripts/gpu/scatter_shapes.py (the scatter shape grid) on PoCL without PyTorch (--no-torch), over
# tests/data/scatter-shapes/tiny.json: every field of shapes.json present, every cell verified, the ratios and
# ceilings computed from the app's rows, the torch fields null and said why, the goals judged (met, missed by how
# much, not judged), --merge, the figure's files, --dry-run's plan; the peers' path with a stand-in PyTorch; a failed
# check makes a cell unverified (exit 1); a run stopped after its first app run keeps that run's cells in a whole
# file (the write is temp + rename) and --resume goes on from it; --budget-s stops an app run and records its cells
# as skipped, keeping those it completed; the figure's log scale where the ratios span a decade; bad input (no grid
# file, an unknown key, a bad --only) is refused with one error line, exit 2 and nothing written.
. "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIPT="$ROOT/scripts/gpu/scatter_shapes.py"
GRID="$ROOT/tests/data/scatter-shapes/tiny.json"
APP="$(cd "$(dirname "$ATOMLAB")" && pwd)/$(basename "$ATOMLAB")"
SS=(--atomlab "$APP" --backend opencl --no-torch)

# Bad input, before anything runs (ATOMLAB as the script, for expect_refused).
refused() { local save=$ATOMLAB; ATOMLAB=python3; expect_refused "$@"; ATOMLAB=$save; }
refused "grid" "$SCRIPT" "$WORK/no-such-grid.json" -o "$WORK/out.json" "${SS[@]}"
python3 -c "import json,sys; g=json.load(open(sys.argv[1])); g['colour']='blue'; json.dump(g,open(sys.argv[2],'w'))" \
  "$GRID" "$WORK/unknown-key.json"
refused "colour" "$SCRIPT" "$WORK/unknown-key.json" -o "$WORK/out.json" "${SS[@]}"
python3 -c "import json,sys; g=json.load(open(sys.argv[1])); g['shapes'][0]['dists']=['zipf:x']; json.dump(g,open(sys.argv[2],'w'))" \
  "$GRID" "$WORK/bad-dist.json"
refused "dists" "$SCRIPT" "$WORK/bad-dist.json" -o "$WORK/out.json" "${SS[@]}"
refused "--only" "$SCRIPT" "$GRID" -o "$WORK/out.json" "${SS[@]}" --only "f32/d7/*"
refused "--only" "$SCRIPT" "$GRID" -o "$WORK/out.json" "${SS[@]}" --only ","
refused "--budget-s" "$SCRIPT" "$GRID" -o "$WORK/out.json" "${SS[@]}" --budget-s 0
if ! python3 -c "import torch" 2>/dev/null; then # without PyTorch the peers must be declined by name
  refused "--no-torch" "$SCRIPT" "$GRID" -o "$WORK/out.json" --atomlab "$APP" --backend opencl
fi
# --dry-run: the app's commands, one per (dim, targets) and zipf exponent, the cells a goal names (f32/d16/*) first,
# then the cheapest; nothing written.
python3 "$SCRIPT" "$GRID" -o "$WORK/dry.json" --dry-run 2>"$WORK/err" && [ ! -e "$WORK/dry.json" ] &&
  [ "$(grep -c ' run: .*app scatter --backend cuda ' "$WORK/err")" -eq 4 ] &&
  grep ' run: ' "$WORK/err" | head -1 | grep -q -- '--dim 16 --targets 300 .*--dist uniform,hot' &&
  grep ' run: ' "$WORK/err" | tail -1 | grep -q -- '--dim 1 .*--dist zipf .*--zipf 1.1' && pass ||
  fail "--dry-run: $(cat "$WORK/err")"
need_opencl

# The grid in two parts, the second merged into the first's file.
python3 "$SCRIPT" "$GRID" -o "$WORK/shapes.json" "${SS[@]}" --only 'f32/d1/*' 2>"$WORK/err1" &&
  python3 "$SCRIPT" "$GRID" -o "$WORK/shapes.json" "${SS[@]}" --only 'f32/d16/*' --merge \
    --scratch "$WORK/scr" --figures "$WORK/fig" 2>"$WORK/err2" && pass || fail "the grid: $(tail -3 "$WORK/err1" "$WORK/err2")"
grep -q '^\[ *[0-9.]* s\] .*dim 16 targets 300' "$WORK/err2" && pass || fail "progress lines with seconds: $(head -3 "$WORK/err2")"
python3 - "$WORK/shapes.json" "$WORK/fig" <<'PY' && pass || fail "shapes.json: the schema, ratios and goals"
import json, math, os, shutil, sys
d = json.load(open(sys.argv[1]))
for k in ("device", "tool", "torch", "cells", "goals"):
    assert k in d, k
assert d["device"] and d["tool"]["commit"] and d["torch"] is None and "--no-torch" in d["torch_note"], d
names = sorted(c["name"] for c in d["cells"])
want = sorted(f"f32/d{D}/v300/{s}" for D in (1, 16) for s in ("uniform", "zipf-1.1", "hot"))
assert names == want, names
ms_keys = {"auto", "best", "atomic", "tma", "det", "memcpy_ceiling", "read_ceiling"}
ops = {"index_add_", "scatter_add_", "index_put_", "scatter_reduce_", "bincount", "det_index_add_"}
ratio_keys = {"auto_vs_best", "auto_vs_atomic", "auto_vs_tma", "auto_vs_torch_best", "auto_vs_memcpy_ceiling",
              "det_vs_auto", "det_vs_det_index_add_"}
for c in d["cells"]:
    for k in ("type", "dim", "rows", "targets", "dist", "zipf", "verified", "auto_variant", "best_variant", "ms",
              "torch", "torch_best", "ratios"):
        assert k in c, (c["name"], k)
    assert c["seconds"]["app_run"] > 0 and c["seconds"]["torch"] is None, c["seconds"]
    assert c["verified"] is True and "skipped" not in c, c
    assert c["rows"] == 2000 and c["targets"] == 300 and c["type"] == "f32", c
    assert c["zipf"] == (1.1 if c["dist"] == "zipf" else None), c
    assert set(c["ms"]) == ms_keys and set(c["torch"]) == ops and ratio_keys <= set(c["ratios"]), c
    assert all(v is None for v in c["torch"].values()) and c["torch_best"] is None, c
    assert c["ms"]["tma"] is None, c  # CUDA sm_90 only: null where unsupported
    for k in ("auto", "best", "atomic", "det", "memcpy_ceiling", "read_ceiling"):
        assert c["ms"][k] > 0, (c["name"], k)
    assert c["auto_variant"] and c["best_variant"] in ("atomic", "run", "block", "part", "bins"), c
    assert c["tool"] == d["tool"]["commit"] and c["auto_note"].startswith("auto ran " + c["auto_variant"]), c
    assert c["variants_ms"]["atomic"] == c["ms"]["atomic"] and c["variants_ms"][c["best_variant"]] == c["ms"]["best"], c
    assert c["ms"]["best"] <= c["ms"]["atomic"], c  # the fastest verified of the others
    r, ms = c["ratios"], c["ms"]
    for k, (a, b) in {"auto_vs_best": ("best", "auto"), "auto_vs_atomic": ("atomic", "auto"),
                      "auto_vs_memcpy_ceiling": ("memcpy_ceiling", "auto"), "det_vs_auto": ("auto", "det")}.items():
        assert math.isclose(r[k], ms[a] / ms[b], rel_tol=1e-9), (c["name"], k)
    assert r["auto_vs_tma"] is None and r["auto_vs_torch_best"] is None and r["det_vs_det_index_add_"] is None, r
    assert math.isclose(r["auto_vs_read_ceiling"], ms["read_ceiling"] / ms["auto"], rel_tol=1e-9), c
goals = {g["id"]: g for g in d["goals"]}
assert set(goals) == {"slow-det", "impossible", "torch"}, goals
g = goals["slow-det"]
assert g["met"] is True and g["cells"] == 6 and g["by"] > 0 and math.isclose(g["by"], g["value"] / 0.001 - 1), g
g = goals["impossible"]
assert g["met"] is False and g["cells"] == 3 and g["share_met"] == 0 and math.isclose(g["by"], -0.5), g
assert len(g["missed_cells"]) == 3, g
g = goals["torch"]
assert g["met"] is None and g["by"] is None and "not judged" in g["why"], g
fig = sys.argv[2]
assert os.path.exists(os.path.join(fig, "scatter-shapes.dat")) and os.path.exists(os.path.join(fig, "scatter-shapes.gp"))
assert len(open(os.path.join(fig, "scatter-shapes.dat")).read().splitlines()) == 1 + 6  # every cell of the file
if shutil.which("gnuplot"):
    assert open(os.path.join(fig, "scatter-shapes.png"), "rb").read()[:8] == b"\x89PNG\r\n\x1a\n"
PY
ls -a "$WORK" | grep -q '\.tmp$' && fail "a temporary file left beside shapes.json" || pass
# --combine: the files of a grid split over two GPUs as one: each cell from the file that ran it (with that file's
# commit), a cell skipped in one and ran in the other taken as ran, the goals judged again; nothing runs.
python3 - "$WORK/shapes.json" "$WORK" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
for part, dim, commit in (("a", 16, None), ("b", 1, "feedc0de")):
    p = json.loads(json.dumps(d))
    p["cells"] = [{"name": c["name"], "skipped": "budget"} if c["dim"] == dim else dict(c, tool=commit or c["tool"])
                  for c in p["cells"]]
    p["goals"] = []
    json.dump(p, open(os.path.join(sys.argv[2], f"part-{part}.json"), "w"))
PY
python3 "$SCRIPT" "$GRID" -o "$WORK/both.json" --combine "$WORK/part-a.json" "$WORK/part-b.json" 2>"$WORK/err" &&
  python3 - "$WORK/both.json" "$WORK/shapes.json" <<'PY' && pass || fail "--combine: $(cat "$WORK/err")"
import json, sys
both, whole = (json.load(open(p)) for p in sys.argv[1:])
assert sorted(c["name"] for c in both["cells"]) == sorted(c["name"] for c in whole["cells"]), both["cells"]
assert not any("skipped" in c for c in both["cells"]), both["cells"]
assert {c["tool"] for c in both["cells"] if c["dim"] == 16} == {"feedc0de"}, both["cells"]
assert "feedc0de" in both["tool"]["commits"] and len(both["tool"]["commits"]) == 2, both["tool"]
assert both["tool"]["commit"] == whole["tool"]["commit"], both["tool"]  # the last file's, not its last cell's
assert [g["id"] for g in both["goals"]] == [g["id"] for g in whole["goals"]], both["goals"]
PY
expect_refused_py() { python3 "$SCRIPT" "$GRID" -o "$WORK/bad.json" --combine "$1" 2>"$WORK/err"; [ $? -eq 2 ] &&
  grep -q '^error: --combine' "$WORK/err" && [ ! -e "$WORK/bad.json" ] && pass || fail "--combine $1: $(cat "$WORK/err")"; }
echo '{"cells": 3}' >"$WORK/not-shapes.json"
expect_refused_py "$WORK/not-shapes.json"
expect_refused_py "$WORK/no-such.json"

# --devices 0,1: the runs split over two processes (each its device's: on PoCL both run on the CPU), their files
# combined into -o: every cell of the one-process file, each log line naming its device, no part file left.
python3 "$SCRIPT" "$GRID" -o "$WORK/dev/shapes.json" "${SS[@]}" --only 'f32/d1/*,f32/d16/*' --devices 0,1 \
  2>"$WORK/err" && python3 - "$WORK/dev/shapes.json" "$WORK/shapes.json" <<'PY' && pass || fail "--devices: $(tail -5 "$WORK/err")"
import json, sys
two, one = (json.load(open(p)) for p in sys.argv[1:])
assert sorted(c["name"] for c in two["cells"]) == sorted(c["name"] for c in one["cells"]), two["cells"]
assert all(c["verified"] and "skipped" not in c for c in two["cells"]), two["cells"]
assert [g["id"] for g in two["goals"]] == [g["id"] for g in one["goals"]], two["goals"]
PY
grep -q '\] gpu 0: ' "$WORK/err" && grep -q '\] gpu 1: ' "$WORK/err" && [ -z "$(ls "$WORK/dev" | grep gpu)" ] && pass ||
  fail "--devices: each process's lines and no part file left: $(ls "$WORK/dev"; head -5 "$WORK/err")"
refused "--devices" "$SCRIPT" "$GRID" -o "$WORK/out.json" "${SS[@]}" --devices 0,x

# SIGTERM during the second app run: the run stopped with the script (its process group), exit 143, the first
# run's cells kept whole.
cat >"$WORK/sleeper" <<SH
#!/usr/bin/env bash
if [ -e "$WORK/slept" ]; then echo \$\$ >"$WORK/sleeper.pid"; exec sleep 60; fi
touch "$WORK/slept"
exec "$APP" "\$@"
SH
chmod +x "$WORK/sleeper"
mkdir -p "$WORK/term"
python3 "$SCRIPT" "$GRID" -o "$WORK/term/shapes.json" --atomlab "$WORK/sleeper" --backend opencl --no-torch \
  --only 'f32/d1/*' 2>"$WORK/err" &
pid=$!
for _ in $(seq 1 300); do [ -s "$WORK/sleeper.pid" ] && break; sleep 0.2; done
kill -TERM $pid
wait $pid
rc=$?
sleep 0.5
app=$(cat "$WORK/sleeper.pid" 2>/dev/null)
[ $rc -eq 143 ] && [ -n "$app" ] && ! kill -0 "$app" 2>/dev/null &&
  python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["cells"]; assert len(c) == 2 and all(x["verified"] for x in c), c' \
    "$WORK/term/shapes.json" && pass || fail "SIGTERM: exit $rc, the app ${app:-never started} left running or the file: $(tail -3 "$WORK/err")"

# The ceilings are the auto row's bytes at the copy's and the read kernel's bandwidth: the app's own ratios of its
# last run (kept in --scratch) say the same.
python3 - "$WORK/shapes.json" "$WORK/scr/app.json" <<'PY' && pass || fail "the ceilings against the app's ratios"
import json, math, sys
cell = next(c for c in json.load(open(sys.argv[1]))["cells"] if c["name"] == "f32/d16/v300/zipf-1.1")
row = next(r for r in json.load(open(sys.argv[2]))["rows"] if r["config"]["variant"] == "f32/zipf/auto")
m = {x["name"]: x["value"] for x in row["metrics"]}
auto = row["time_ms"]["median"]
assert math.isclose(cell["ms"]["auto"], auto), (cell["ms"], auto)
assert math.isclose(cell["ms"]["memcpy_ceiling"], auto * m["ratio_to_memcpy"], rel_tol=1e-6), (cell["ms"], m)
assert math.isclose(cell["ms"]["read_ceiling"], auto * m["ratio_to_read"], rel_tol=1e-6), (cell["ms"], m)
PY

# The peers' path with a stand-in PyTorch (tests/cli/fake_torch: the same calls in plain Python, really adding):
# each op timed on the dumped keys, bincount at dim 1 only, det_index_add_ under the deterministic mode, an op that
# fails is null with why, torch_best the fastest non-deterministic op, the torch ratios and goal judged; the dump's
# source and outputs go to /dev/null through links (only the keys are written).
FAKE_TORCH_LOG="$WORK/torch.log" FAKE_TORCH_FAIL=scatter_reduce_ PYTHONPATH="$ROOT/tests/cli/fake_torch:$PYTHONPATH" \
  python3 "$SCRIPT" "$GRID" -o "$WORK/torch.json" --atomlab "$APP" --backend opencl --scratch "$WORK/tscr" \
  --only 'f32/d1/v300/uniform,f32/d16/v300/uniform' 2>"$WORK/err" && pass || fail "fake torch: $(tail -3 "$WORK/err")"
python3 - "$WORK/torch.json" "$WORK/torch.log" <<'PY' && pass || fail "fake torch: the peers' fields"
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["torch"] == "0.0+fake" and d["torch_note"] is None, d
cells = {c["name"]: c for c in d["cells"]}
assert sorted(cells) == ["f32/d1/v300/uniform", "f32/d16/v300/uniform"], cells
for name, c in cells.items():
    t = c["torch"]
    for op in ("index_add_", "scatter_add_", "index_put_", "det_index_add_"):
        assert t[op] > 0, (name, op, t)
    assert t["scatter_reduce_"] is None and "fake failure" in c["torch_notes"]["scatter_reduce_"], c["torch_notes"]
    assert (t["bincount"] is not None) == (c["dim"] == 1), (name, t)
    fast = {k: v for k, v in t.items() if v is not None and k != "det_index_add_"}
    assert c["torch_best"] == min(fast, key=fast.get), c
    r = c["ratios"]
    assert math.isclose(r["auto_vs_torch_best"], t[c["torch_best"]] / c["ms"]["auto"]), r
    assert math.isclose(r["det_vs_det_index_add_"], t["det_index_add_"] / c["ms"]["det"]), r
g = next(g for g in d["goals"] if g["id"] == "torch")
assert g["met"] is not None and g["cells"] == 1, g
log = open(sys.argv[2]).read().split("\n")
assert "index_add_ 1" in log and "index_put_ 0" in log and "bincount 0" in log, log[:20]
assert not any(l.endswith(" 1") and not l.startswith("index_add_") for l in log), "deterministic beyond det"
PY
[ "$(ls "$WORK/tscr")" = "" ] || [ "$(ls "$WORK/tscr")" = app.json ] && pass || fail "the dumps left: $(ls -R "$WORK/tscr")"

# A failed check: the app's rows do not verify, so the cells are not verified and the script exits 1.
ATL_SCATTER_SKEW_REFERENCE=1 python3 "$SCRIPT" "$GRID" -o "$WORK/skew.json" "${SS[@]}" --only 'f32/d1/v300/hot' \
  2>"$WORK/err"
rc=$?
python3 - "$WORK/skew.json" <<'PY' && [ $rc -eq 1 ] && pass || fail "a skewed reference: exit $rc, cells verified"
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
assert len(cells) == 1 and all(c["verified"] is False and c["unverified"] for c in cells), cells
PY

# Stopped after its first app run (killed): the file holds that run's cells, whole, and no temporary file.
cat >"$WORK/killer" <<SH
#!/usr/bin/env bash
if [ -e "$WORK/once" ]; then kill -9 \$PPID; sleep 5; exit 0; fi
touch "$WORK/once"
exec "$APP" "\$@"
SH
chmod +x "$WORK/killer"
mkdir -p "$WORK/kill"
( python3 "$SCRIPT" "$GRID" -o "$WORK/kill/shapes.json" --atomlab "$WORK/killer" --backend opencl --no-torch \
  --only 'f32/d1/*' 2>"$WORK/err"; true ) 2>/dev/null # the shell's "Killed" line
python3 - "$WORK/kill/shapes.json" <<'PY' && pass || fail "killed after one run: the first run's cells, whole"
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
assert sorted(c["name"] for c in cells) == ["f32/d1/v300/hot", "f32/d1/v300/uniform"], cells
assert all(c["verified"] for c in cells)
PY
[ "$(ls -a "$WORK/kill" | grep -c '\.tmp$')" -eq 0 ] && pass || fail "a temporary file left after the kill"
# --resume: the same command again runs only the cells the file lacks (the zipf run), and keeps the others.
python3 "$SCRIPT" "$GRID" -o "$WORK/kill/shapes.json" "${SS[@]}" --only 'f32/d1/*' --resume 2>"$WORK/err"
python3 - "$WORK/kill/shapes.json" <<'PY' && [ "$(grep -c ' run: ' "$WORK/err")" -eq 1 ] &&
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
assert sorted(c["name"] for c in cells) == ["f32/d1/v300/hot", "f32/d1/v300/uniform", "f32/d1/v300/zipf-1.1"], cells
assert all(c["verified"] for c in cells)
PY
  grep -q -- '--dist zipf ' "$WORK/err" && pass || fail "--resume: $(cat "$WORK/err")"
# --merge over cells of another commit: the cell run again takes its place in the grid's order, the others keep their
# commit, and the file's tool names this run's commit and both.
python3 - "$WORK/kill/shapes.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["cells"] = [dict(c, tool="feedc0de") for c in d["cells"]]
json.dump(dict(d, tool={"commit": "feedc0de"}), open(sys.argv[1], "w"))
PY
python3 "$SCRIPT" "$GRID" -o "$WORK/kill/shapes.json" "${SS[@]}" --only 'f32/d1/v300/uniform' --merge 2>"$WORK/err"
python3 - "$WORK/kill/shapes.json" <<'PY' && pass || fail "--merge of another commit's file: $(tail -3 "$WORK/err")"
import json, sys
d = json.load(open(sys.argv[1]))
assert [c["name"] for c in d["cells"]] == ["f32/d1/v300/uniform", "f32/d1/v300/hot", "f32/d1/v300/zipf-1.1"], d["cells"]
now = d["cells"][0]["tool"]
assert now != "feedc0de" and [c["tool"] for c in d["cells"][1:]] == ["feedc0de"] * 2, d["cells"]
assert d["tool"] == {"commit": now, "commits": sorted([now, "feedc0de"])}, d["tool"]
PY

# --budget-s: an app run that takes too long is stopped, its cells and the later ones skipped with the reason.
# A run the budget stops keeps the cells it completed: an app that wrote the uniform cell's rows (and the hot cell's
# first) and then hangs is stopped (SIGTERM); the uniform cell is kept, the hot one skipped with the reason.
cat >"$WORK/partial" <<SH
#!/usr/bin/env bash
"$APP" "\$@" >/dev/null 2>&1
out=\$(printf '%s\\n' "\$@" | grep -A1 '^-o\$' | tail -1)
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['rows']=[r for r in d['rows'] if '/hot/' not in r['config']['variant']]+[r for r in d['rows'] if '/hot/' in r['config']['variant']][:2]; d['complete']=False; json.dump(d,open(sys.argv[1],'w'))" "\$out"
exec sleep 120
SH
chmod +x "$WORK/partial"
timeout 100 python3 "$SCRIPT" "$GRID" -o "$WORK/partial.json" --atomlab "$WORK/partial" --backend opencl --no-torch \
  --only 'f32/d1/v300/uniform,f32/d1/v300/hot' --budget-s 40 2>"$WORK/err"
python3 - "$WORK/partial.json" <<'PY' && pass || fail "a stopped run's completed cells: $(tail -3 "$WORK/err")"
import json, sys
cells = {c["name"]: c for c in json.load(open(sys.argv[1]))["cells"]}
assert sorted(cells) == ["f32/d1/v300/hot", "f32/d1/v300/uniform"], cells
u, h = cells["f32/d1/v300/uniform"], cells["f32/d1/v300/hot"]
assert "skipped" not in u and u["verified"] and u["ms"]["auto"] > 0, u
assert h["skipped"].startswith("budget") and h["ms"]["auto"] is None, h
PY

# The figure's scale: linear from 0 where the ratios lie within a decade, a log scale where they span more.
python3 - "$ROOT/scripts/gpu" "$WORK/figs" <<'PY' && pass || fail "the figure's scale"
import os, sys
sys.path.insert(0, sys.argv[1])
import scatter_shapes
def gp(vals, sub):
    cells = [{"name": f"c{i}", "ratios": {"auto_vs_best": v, "auto_vs_torch_best": None}} for i, v in enumerate(vals)]
    scatter_shapes.figures({"device": "x", "cells": cells}, os.path.join(sys.argv[2], sub))
    return open(os.path.join(sys.argv[2], sub, "scatter-shapes.gp")).read()
near, wide = gp([0.8, 1.3], "near"), gp([0.3, 45.0], "wide")
assert "set yrange [0:*]" in near and "logscale" not in near, near
assert "set logscale y 10" in wide and "[0:*]" not in wide, wide
PY

printf '#!/usr/bin/env bash\nsleep 60\n' >"$WORK/slow"
chmod +x "$WORK/slow"
timeout 50 python3 "$SCRIPT" "$GRID" -o "$WORK/budget.json" --atomlab "$WORK/slow" --backend opencl --no-torch \
  --only 'f32/d1/*' --budget-s 2 2>"$WORK/err"
rc=$?
python3 - "$WORK/budget.json" <<'PY' && [ $rc -eq 0 ] && pass || fail "--budget-s: exit $rc, $(tail -2 "$WORK/err")"
import json, sys
d = json.load(open(sys.argv[1]))
cells = d["cells"]
assert len(cells) == 3 and all(c["skipped"].startswith("budget") and c["verified"] is False for c in cells), cells
assert all(c["ms"]["auto"] is None and c["ratios"]["auto_vs_best"] is None for c in cells), cells
assert all(g["met"] is None and g["cells_skipped"] for g in d["goals"] if g["id"] == "slow-det"), d["goals"]
PY
finish
