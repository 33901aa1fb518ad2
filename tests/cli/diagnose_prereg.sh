#!/usr/bin/env bash
# scripts/gpu/diagnose_prereg.py on the CPU: `check` passes on the committed program list; `predict` and `measure`
# run every program through stand-ins for atomlab (profile writes a diagnosis and a raw export, app writes a verified
# row) and for the GPU driver (prints the op's time): a failing program and one past --timeout are recorded, not
# fatal; the files are written after each program (a --budget call stops early, the next goes on); each program's
# raw export is kept; the CUB programs, which have no driver, take the histogram app's cub time and its own variants;
# measured.json scores the verdicts and carries the summary against the rules.
. "$(dirname "$0")/lib.sh"
PREREG=$(cd "$(dirname "$0")/../../scripts/gpu" && pwd)/diagnose_prereg.py
python3 "$PREREG" check >"$WORK/check" && grep -q '^28 programs, 4 libraries, 11 op families' "$WORK/check" && pass ||
  fail "check: $(cat "$WORK/check")"
python3 "$PREREG" check --programs "$(dirname "$PREREG")/../../experiments/diagnose-prereg-2.json" >"$WORK/check2" &&
  grep -q '^28 programs, 4 libraries, 11 op families' "$WORK/check2" && pass || fail "check of the second run's list: $(cat "$WORK/check2")"
python3 "$PREREG" check --programs "$(dirname "$PREREG")/../../experiments/diagnose-prereg-3.json" >"$WORK/check3" &&
  grep -q '^28 programs, 4 libraries, 11 op families' "$WORK/check3" && pass || fail "check of the third run's list: $(cat "$WORK/check3")"
# the embedding backward without its forward: the forward before the range, the backward alone in it
python3 - "$PREREG" <<'PY' && pass || fail "the backward-only driver"
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("dp", sys.argv[1]); dp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dp)
prog = {"code": "torch_embedding_bwd_only", "library": "pytorch", "op": "embedding_backward", "input": {"dist": "zipf"}}
text = dp.driver(prog, 1)[0]
run = text[text.index("def run():"):]
assert "y.backward(retain_graph=True)" in run and "emb(k)" not in run and "y = emb(k).sum()" in text, run
PY
# a "not a bottleneck" whose finding is "call faster" claims the advised call is faster: judged like a bottleneck
python3 - "$PREREG" <<'PY' && pass || fail "the call-faster finding's score"
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("dp", sys.argv[1]); dp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dp)
rules = json.load(open(os.path.join(dp.ROOT, "experiments", "diagnose-prereg-3.json")))["rules"]
prog = {"id": "x", "op": "index_add_", "input": {}}
def judged(finding, ms):
    p = {"verdict": "not a bottleneck", "predicted_speedup": 4,
         "advice": {"call": "atl_scatter_add auto", "finding": finding, "kind": "predicted"}}
    return dp.judge(rules, prog, p, {"median_ms": 10}, 1, {"atl_scatter_add auto": {"ms": ms, "state": "verified"}})
assert judged("call faster", 2)["verdict_correct"] is True and judged("call faster", 9)["verdict_correct"] is False
assert judged(None, 2)["verdict_correct"] is False and judged(None, 9)["verdict_correct"] is True
s = dp.summary([judged("call faster", 2)])
assert s["issue_goals"]["advised_faster"]["of"] == 1 and s["predicted_within_2x"]["of"] == 1, s
assert "faster" in rules["verdict_correct"]["not a bottleneck, finding call faster"], rules["verdict_correct"]
PY
# replay: a kept export diagnosed again by this atomlab, judged against the run's recorded times (index_add_ on
# uniform keys: not a bottleneck, atomlab's call faster; the call measured 3.8x faster)
DATA=$(cd "$(dirname "$0")/../data" && pwd)
mkdir -p "$WORK/ex" "$WORK/rp"
cp "$DATA/ncu-h200-prereg-pytorch-index_add_-uniform.csv" "$WORK/ex/pytorch-index_add_-uniform.csv"
gzip -c "$DATA/ncu-h200-prereg-dram.csv" >"$WORK/ex/dram.csv.gz"
echo '{"kernels": [{"id": "pytorch-index_add_-uniform", "evidence": {"kernel_time": {"median_ms": 0.5104},
  "calls": {"atl_scatter_add auto": {"ms": 0.1353, "state": "verified"}}}}]}' >"$WORK/ex/measured.json"
python3 "$PREREG" replay --programs "$(dirname "$PREREG")/../../experiments/diagnose-prereg-2.json" --atomlab "$ATOMLAB" \
  --exports "$WORK/ex" --measured "$WORK/ex/measured.json" --out "$WORK/rp" >"$WORK/log" 2>&1 &&
  python3 - "$WORK/rp/replayed.json" <<'PY' && pass || fail "replay: $(cat "$WORK/log")"
import json, sys
k = json.load(open(sys.argv[1]))["kernels"]
assert len(k) == 1 and k[0]["verdict"] == "not a bottleneck" and k[0]["finding"] == "call faster", k
assert k[0]["verdict_correct"] is True and 2 < k[0]["predicted_speedup"] < 4.7 and k[0]["measured_speedup"] > 3.7, k
PY
# the stand-in atomlab: profile fails for histc, hangs for amax, else one bottleneck launch of the program's op
cat >"$WORK/atomlab" <<'SH'
#!/usr/bin/env bash
if [ "$1" = app ]; then  # app ... --variants V ... -o FILE: one verified row of V at 2 ms (CUB's: 8 ms)
  v=; o=; r=
  while [ $# -gt 0 ]; do case "$1" in --variants) v=$2;; --reduce) r=$2;; -o) o=$2;; esac; shift; done
  ms=2; [ "$v" = cub ] && ms=8
  printf '{"rows":[{"config":{"variant":"f32/x/%s"},"status":"ok","verified":true,"time_ms":{"median":%s,"iqr":0.1,"samples":5}},{"config":{"variant":"f32/memcpy-ceiling"},"status":"ok","verified":true,"time_ms":{"median":0.1,"iqr":0}}]}' "${r:-${v##*,}}" "$ms" >"$o"
  exit 0
fi
t=0
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  case "$1" in --diagnosis) d=$2;; --save-counters) c=$2;; --timeout) t=$((t + 1));; esac
  shift
done
[ "$t" -le 1 ] || { echo "error: --timeout: given twice" >&2; exit 2; }
[ $# -gt 0 ] || exit 1
shift
case "$*" in *'"histc"'*) exit 3;; *'"scatter_reduce_amax"'*) touch "$(dirname "$0")/amax-started"; sleep 30;; esac
op=$(printf '%s' "$3" | python3 -c 'import json, sys; print(json.loads(sys.stdin.read() or "{}").get("op", "histogram"))' 2>/dev/null)
echo '"ID","Kernel Name"' >"$c"
printf '{"rows":[{"config":{"source":"%s@prog.py:9","verdict":"bottleneck","call":"atl_scatter_add block","op_call":"atl_scatter_add block","speedup_kind":"predicted","kernel":"k"},"metrics":[{"name":"speedup","value":4},{"name":"duration_us","value":750}]},{"config":{"source":"%s@prog.py:9","verdict":"no atomics","kernel":"fill"},"metrics":[{"name":"duration_us","value":250}]}]}' "$op" "$op" >"$d"
SH
# the stand-in driver: the op's own time, 10 ms
printf '#!/bin/sh\necho "${CUDA_VISIBLE_DEVICES:-none}" >>"%s/devices"\necho '"'"'{"median_ms": 10, "iqr_ms": 0.5, "samples": 20}'"'"'\n' "$WORK" >"$WORK/python"
chmod +x "$WORK/atomlab" "$WORK/python"
RUN=(--atomlab "$WORK/atomlab" --python "$WORK/python" --out "$WORK/out" --timeout 2)
mkdir -p "$WORK/out"
echo '{"device": "kept", "kernels": []}' >"$WORK/out/predictions.json"  # a file's other keys stay
python3 "$PREREG" predict "${RUN[@]}" --budget 0.000001 >"$WORK/log" 2>&1 &&
  [ "$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["kernels"]))' "$WORK/out/predictions.json")" = 1 ] &&
  grep -q 'budget' "$WORK/log" && pass || fail "predict --budget: $(cat "$WORK/log")"
python3 "$PREREG" predict "${RUN[@]}" --profile-args --timeout 1 >"$WORK/log" 2>&1 &&
  python3 - "$WORK/out" <<'PY' && pass || fail "predict: $(cat "$WORK/log")"
import json, os, sys
out = sys.argv[1]
doc = json.load(open(os.path.join(out, "predictions.json")))
k = {x["id"]: x for x in doc["kernels"]}
assert "success" in doc["rules"] and len(k) == 28 and doc["device"] == "kept", len(k)
assert set(doc["kernels"][0]) >= {"id", "library", "op", "program", "input", "verdict", "advice", "predicted_speedup"}
assert k["pytorch-histc-hot"]["verdict"] == "failed (exit 3)", k["pytorch-histc-hot"]
assert k["pytorch-scatter_reduce_amax-hot"]["verdict"] == "failed (timed out)", k["pytorch-scatter_reduce_amax-hot"]
b = k["pytorch-index_add_-zipf"]
assert b["verdict"] == "bottleneck" and b["predicted_speedup"] == 4 and b["kernel_share"] == 0.75, b
assert os.path.exists(os.path.join(out, "pytorch-index_add_-zipf.csv")), "the raw export is kept"
assert os.path.exists(os.path.join(out, "cub-histogram-hot.diagnosis.json"))
PY
python3 "$PREREG" measure "${RUN[@]}" >"$WORK/log" 2>&1 && python3 - "$WORK/out" <<'PY' && pass || fail "measure: $(cat "$WORK/log")"
import json, os, sys
doc = json.load(open(os.path.join(sys.argv[1], "measured.json")))
k = {x["id"]: x for x in doc["kernels"]}
assert len(k) == 28 and set(doc["kernels"][0]) >= {"id", "verdict_correct", "evidence", "measured_speedup"}
m = k["pytorch-index_add_-zipf"]  # 10 ms x its launch's share 0.75 against the block variant's 2 ms
assert abs(m["measured_speedup"] - 3.75) < 1e-9 and m["verdict_correct"] is True, m
a = m["evidence"]["calls"]["atl_scatter_add block"]
assert a["args"][:2] == ["app", "scatter"] and "--variants" in a["args"] and a["state"] == "verified", a
assert k["pytorch-histc-hot"]["verdict_correct"] is None  # failed in predict: nothing to score
c = k["cub-histogram-hot"]  # no driver: the op's time is the histogram app's cub variant, judged by its own calls
assert c["evidence"]["kernel_time"]["median_ms"] == 8 and c["verdict_correct"] is True, c
h = c["evidence"]["calls"]["atl_app_histogram block16"]["args"]
assert h[:2] == ["app", "histogram"] and h[h.index("--variants") + 1] == "block16" and "--bytes" in h, h
s = doc["summary"]
assert s["verdicts"]["of"] == s["verdicts"]["count"] > 0 and s["predicted_within_2x"]["share"] == 1, s
PY
grep -q '^rules: verdicts correct [0-9]*/[0-9]* (100%)' "$WORK/out/summary.txt" && pass || fail "summary: $(cat "$WORK/out/summary.txt")"
# --devices: the programs spread over the devices, each process seeing its worker's alone; the same file results
mkdir -p "$WORK/par" && cp "$WORK/out/predictions.json" "$WORK/par/" && rm -f "$WORK/devices"
python3 "$PREREG" measure --atomlab "$WORK/atomlab" --python "$WORK/python" --out "$WORK/par" --timeout 2 --devices 0,1 >"$WORK/log" 2>&1 &&
  python3 - "$WORK" <<'PY' && pass || fail "measure --devices: $(cat "$WORK/log")"
import json, os, sys
w = sys.argv[1]
seen = set(open(os.path.join(w, "devices")).read().split())
assert seen == {"0", "1"}, seen
one, two = (json.load(open(os.path.join(w, d, "measured.json"))) for d in ("out", "par"))
assert [k["id"] for k in one["kernels"]] == [k["id"] for k in two["kernels"]], "the programs' order is kept"
assert one["summary"] == two["summary"], (one["summary"], two["summary"])
PY
# SIGTERM while a program's profile runs (the stand-in sleeps 30 s for amax): its process group stopped at once,
# exit 143, the program not recorded (a later call runs it)
mkdir -p "$WORK/sig"
rm -f "$WORK/amax-started"
python3 "$PREREG" predict --atomlab "$WORK/atomlab" --python "$WORK/python" --out "$WORK/sig" --timeout 60 \
  --only pytorch-scatter_reduce_amax-hot >"$WORK/log" 2>&1 &
pid=$!
# the signal once the profile runs, not before the script has set its handlers
for _ in $(seq 1 300); do [ -e "$WORK/amax-started" ] && break; sleep 0.1; done
start=$(date +%s)
kill -TERM $pid
wait $pid
rc=$?
took=$(( $(date +%s) - start ))
[ $rc -eq 143 ] && [ $took -lt 15 ] && grep -q 'stopped by signal 15' "$WORK/log" &&
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])) if __import__("os").path.exists(sys.argv[1]) else {}; assert not d.get("kernels"), d' \
    "$WORK/sig/predictions.json" && pass || fail "SIGTERM: exit $rc after $took s: $(cat "$WORK/log")"
echo "diagnose_prereg: $PASSES passed, $FAILS failed"
[ "$FAILS" -eq 0 ]
