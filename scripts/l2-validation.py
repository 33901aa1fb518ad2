#!/usr/bin/env python3
"""The L2 atomic model against measured kernel times: reads DIR/programs.csv (the ncu raw export of the
programs, with a `source` column and dram__throughput.avg.pct_of_peak_sustained_elapsed) and DIR/l2.csv
(`atomlab model l2 --format csv` of the same export, row for row) and writes DIR/validation.json
(rows: kernel, source, unit, u, u_low, u_high, u_input, predicted_ms, measured_ms, error, verdict,
expected_verdict, dram_pct, access, imbalance; `measured`: where and when, the first four lines of the GPU
run's summary (DIR/summary.txt, or DIR/gpu-summary.txt where it was renamed): date, atomlab version and
commit, GPU and driver, ncu version) with a summary on stdout.

expected_verdict is the independent evidence of what bound the launch: `not a bottleneck` where its DRAM
throughput is at least 60% of peak (memory-bound), `bottleneck` where DRAM is below 5% of peak and the
launch made global atomic requests (nothing else it does moves memory), else `unknown`.

usage: l2-validation.py DIR"""
import csv
import json
import os
import statistics
import sys

out = sys.argv[1]
num = lambda s: float(s.replace(",", "")) if s else 0.0
prog = [x for x in csv.DictReader(open(os.path.join(out, "programs.csv"))) if x["ID"]]
model = list(csv.DictReader(open(os.path.join(out, "l2.csv"))))
if len(prog) != len(model):
    sys.exit(f"programs.csv has {len(prog)} launches, l2.csv {len(model)}: not the same export")
rows = []
for p, m in zip(prog, model):
    if m["access"] == "none":
        continue
    dram = num(p.get("dram__throughput.avg.pct_of_peak_sustained_elapsed", ""))
    meas = float(m["duration_us"]) / 1e3
    pred = float(m["busy_us"]) / 1e3
    expected = "not a bottleneck" if dram >= 60 else "bottleneck" if dram < 5 else "unknown"
    rows.append({"kernel": p["Kernel Name"][:160], "source": p["source"], "unit": "L2 atomics",
                 "u": float(m["u"]), "u_low": float(m["u_low"]), "u_high": float(m["u_high"]),
                 "u_input": float(m["u_input"]), "predicted_ms": pred, "measured_ms": meas,
                 "error": pred / meas - 1 if meas > 0 else None, "verdict": m["verdict"],
                 "expected_verdict": expected, "dram_pct": dram, "access": m["access"],
                 "imbalance": float(m["imbalance"])})
head = next((os.path.join(out, f) for f in ("summary.txt", "gpu-summary.txt") if os.path.exists(os.path.join(out, f))), None)
measured = open(head).read().splitlines()[:4] if head else []
json.dump({"measured": measured, "rows": rows}, open(os.path.join(out, "validation.json"), "w"), indent=1)
bott = [abs(r["error"]) for r in rows if r["verdict"] == "bottleneck"]
decided = [r for r in rows if r["expected_verdict"] != "unknown"]
right = [r for r in decided if r["verdict"] == r["expected_verdict"]]
print(f"{len(rows)} launches with global atomics; {len(bott)} called bottlenecks, median |B - measured| / measured "
      f"{statistics.median(bott) * 100:.1f}%, largest {max(bott) * 100:.1f}%" if bott else "no bottleneck")
print(f"largest U {max(r['u'] for r in rows):.3f}; verdicts where the DRAM evidence decides: {len(right)} of "
      f"{len(decided)} right")
for r in rows:
    flag = "" if r["expected_verdict"] in ("unknown", r["verdict"]) else "  <-- wrong"
    print(f'{r["source"]:9} {r["kernel"][:44]:44} U {r["u"]:.2f} [{r["u_low"]:.2f}-{r["u_high"]:.2f}] '
          f'input {r["u_input"]:.2f} dram {r["dram_pct"]:4.1f}% {r["measured_ms"]:8.3f} ms {r["access"]:9} '
          f'{r["verdict"]:16} expected {r["expected_verdict"]}{flag}')
