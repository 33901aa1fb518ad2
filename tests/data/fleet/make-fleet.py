#!/usr/bin/env python3
"""Writes node-a ... node-e/datasheet.json: five nodes of one synthetic GPU model with small datasheets (three
rows: peak and same-address rates). Every rate lies within 1% of its base except three planted ones:
node-c's fetch_add global peak is 30% slower (the outlier), node-d's cas peak is 4% slower (inside the 5% floor),
node-e's fetch_add global same-address rate is 8% slower with 5% noise of its own (inside its noise band)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = [  # op, type, space, peak Gop/s, same-address Gop/s
    ("fetch_add", "u32", "global", 600.0, 2.80),
    ("cas", "u32", "global", 280.0, 0.0061),
    ("fetch_add", "u32", "local", 8300.0, 261.0),
]
JITTER = {"node-a": 1.000, "node-b": 1.006, "node-c": 0.995, "node-d": 1.003, "node-e": 0.992}
PLANTED = {("node-c", "fetch_add", "global", "peak"): 0.70, ("node-d", "cas", "global", "peak"): 0.96,
           ("node-e", "fetch_add", "global", "same"): 0.92}
NOISY = {("node-e", "fetch_add", "global"): 0.05}


def row(node, op, typ, space, peak, same):
    peak *= JITTER[node] * PLANTED.get((node, op, space, "peak"), 1)
    same *= JITTER[node] * PLANTED.get((node, op, space, "same"), 1)
    median = 1024 * 132 * 1000 / (peak * 1e9) * 1e3  # ms per launch of 1000 iterations of 132x1024 threads
    metric = lambda n, u, v, h: {"name": n, "unit": u, "value": v, "hint": h}
    return {"config": {"op": op, "type": typ, "space": space, "result": "unused"}, "status": "ok", "reason": "",
            "verified": True, "wrong": 0,
            "time_ms": {"median": median, "min": median * 0.99, "max": median * 1.01, "mean": median,
                        "q1": median * 0.995, "q3": median * 1.005, "iqr": median * 0.01, "noise": 0.01,
                        "noisy": False, "samples": 0},
            "samples_ms": [],
            "metrics": [metric("peak_gops", "Gop/s", peak, "higher"), metric("same_address_gops", "Gop/s", same, "higher"),
                        metric("same_address_threads", "", 1024, ""),
                        metric("same_address_noise", "", NOISY.get((node, op, space), 0.005), "lower"),
                        metric("same_address_slowdown", "x", peak / same, "lower")],
            "row_seconds": 0}


for node in JITTER:
    rows = [row(node, *b) for b in BASE]
    doc = {"format_version": 2, "tool": {"name": "atomlab", "version": "0.1.0", "commit": "synthetic"},
           "date": "2026-11-29T00:00:00Z", "command": "tests/data/fleet/make-fleet.py", "complete": True,
           "rows_planned": len(rows),
           "device": {"id": "cuda:0", "backend": "cuda", "platform": "synthetic", "name": "synthetic GPU",
                      "vendor": "none", "driver": "none", "version": "none", "language_version": "none", "type": "gpu",
                      "limits": {"compute_units": 132, "clock_mhz": 1980}},
           "kind": "datasheet",
           "summary": {"rows": len(rows), "rows_ok": len(rows), "rows_verified": len(rows), "rows_noisy": 0},
           "rows": rows}
    os.makedirs(os.path.join(HERE, node), exist_ok=True)
    with open(os.path.join(HERE, node, "datasheet.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
