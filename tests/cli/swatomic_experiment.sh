#!/usr/bin/env bash
# Seed 000's experiments on PoCL (`atomlab app swatomic --experiment`): the
# memory-only, atomic-only and atomic+memory kernels of every variant run and
# verify (old values, final words, copied words); the ideal sum is the sum of
# its parts; the model row has its three constants and the software row's
# prediction is equations (1)-(4) recomputed here from them; the instruction
# view says it is unavailable on PoCL; the figures are drawn from the JSON;
# bad --groups values are one-line usage errors naming the option.
. "$(dirname "$0")/lib.sh"
need_opencl
export ATL_SW_ASSUME_CORESIDENT=2 # PoCL's discovery often finds 1 on a busy machine (see swatomic.sh)
J="$WORK/exp.json"
if timeout 300 "$ATOMLAB" app swatomic --backend opencl --samples 3 --groups 2:max:x2 --wg-size 64 --experiment \
  -o "$J" >"$WORK/exp.out" 2>&1; then
  pass
else
  fail "swatomic --experiment exited $?: $(tail -5 "$WORK/exp.out")"
fi
python3 - "$J" >"$WORK/check.out" 2>&1 <<'PY' && pass || fail "experiment rows: $(cat "$WORK/check.out")"
import json, atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
by = {r["variant"]: r for r in rows}
want = ["model", "mem", "system", "system+mem", "warp", "warp+mem", "software", "software+mem"]
assert sorted(by) == sorted(want), sorted(by)
for v in want[1:]:
    r = by[v]
    assert r["status"] == "ok" and r["verified"], (v, r["status"], r["reason"])
    assert r["metrics"]["workgroups"] == 2, v
    assert "unavailable" in r.get("instructions", ""), (v, r.get("instructions"))
for v in ("system", "warp", "software"):
    both, alone, mem = by[v + "+mem"], by[v], by["mem"]
    ideal = alone["time_ms"]["median"] + mem["time_ms"]["median"]
    assert abs(both["metrics"]["ideal_ms"] - ideal) <= 1e-9 + 1e-6 * ideal, (v, both["metrics"]["ideal_ms"], ideal)
m = by["model"]
if m["status"] == "ok":  # "skipped" only when a busy machine made every try noise
    t = m["metrics"]
    tf, tl, tc = t["t_fast_ns"], t["t_l_ns"], t["t_comp_ns"]
    assert tf > 0 and tl > 0 and tc > 0, t
    sw = by["software"]["metrics"]
    # 64 work-items = 2 wavefronts of 32 in the one requesting work-group; the system kernel's callers are
    # both work-groups' 4 wavefronts
    nc, ncwg, nwg = 32, 2, 2
    sys_pred = nc * 4 * tc
    sw_pred = (2 * nc * tl + 2 * tf) + (5 * tf + ncwg * tl + nwg / 2 * tl) + 2 * tf
    assert abs(sw["t_a_system_pred_ns"] - sys_pred) <= 1e-6 * sys_pred, (sw, sys_pred)
    assert abs(sw["t_a_software_pred_ns"] - sw_pred) <= 1e-6 * sw_pred, (sw, sw_pred)
    assert abs(sw["predicted_speedup"] - sys_pred / sw_pred) <= 1e-6 * sys_pred / sw_pred
    meas = by["system"]["time_ms"]["median"] / by["software"]["time_ms"]["median"]
    assert abs(sw["measured_speedup"] - meas) <= 1e-6 * meas
    # per atomic round: both medians divided by the same iteration count
    sys_meas, sw_meas = sw["t_a_system_meas_ns"], sw["t_a_software_meas_ns"]
    assert abs(sys_meas / sw_meas - meas) <= 1e-6 * meas, sw
    assert abs(sw["system_model_error"] - (sys_pred / sys_meas - 1)) <= 1e-6 * abs(sys_pred / sys_meas), sw
    assert abs(sw["speedup_model_error"] - (sys_pred / sw_pred / meas - 1)) <= 1e-6 * abs(sys_pred / sw_pred / meas), sw
else:
    assert m["status"] == "skipped", m
PY
grep -q "speedup model" "$WORK/exp.out" && grep -q "instruction view" "$WORK/exp.out" && pass ||
  fail "the model and instruction tables are not printed: $(head -20 "$WORK/exp.out")"

# the figures of seed 000 from the JSON
if "$ATOMLAB" plot "$J" -o "$WORK/fig" >"$WORK/plot.out" 2>&1 && [ -s "$WORK/fig/swatomic.dat" ] &&
  [ -s "$WORK/fig/swatomic-fig4-copy.gp" ] && [ -s "$WORK/fig/swatomic-fig8-mb1.gp" ] &&
  [ -s "$WORK/fig/swatomic-fig9-mb2.gp" ] && [ -s "$WORK/fig/swatomic-model.gp" ] &&
  awk '!/^#/ && $1 == 2 && NF == 11 {ok = 1} END {exit !ok}' "$WORK/fig/swatomic.dat"; then
  pass
else
  fail "plot of the experiment: $(cat "$WORK/plot.out") $(cat "$WORK/fig/swatomic.dat" 2>/dev/null)"
fi

# bad input: exit 2, one line naming the parameter
expect_usage_error "--groups 3 is not allowed" app swatomic --backend opencl --groups 3 --experiment
expect_usage_error "--groups '0' is not allowed" app swatomic --backend opencl --groups 0
expect_usage_error "--groups 'x' is not allowed" app swatomic --backend opencl --groups 8,x
expect_usage_error "--workgroups '1' is not allowed" app swatomic --backend opencl --workgroups 1
expect_usage_error "--groups '2:8:x3' is not allowed" app swatomic --backend opencl --groups 2:8:x3
expect_usage_error "--groups 4:max:x2 is not allowed" app swatomic --backend opencl --groups 4:max:x2
# an axis expands before the co-residency check: 2:4:x2 is 2 and 4, and 4 is refused
expect_usage_error "--groups 4 is not allowed" app swatomic --backend opencl --groups 2:4:x2
finish
