#!/usr/bin/env python3
"""The efficiencies of atomlab's advised calls (data/tuning/diagnose-calls.json) from committed measurements (CPU).

  diagnose_calls_fit.py [--out data/tuning/diagnose-calls.json]

Each measured call (the apps' verified median times, with the arguments they ran) gives an efficiency: the fewest
bytes its job moves (keys and values read; the output once where it fits the device's L2, else read and written) at
the device's achievable DRAM rate, over its time less the launch floor. An entry of the table is the median of the
efficiencies of one call, key law (hot: one key; head: zipf; spread: uniform; runs: sorted) and shape (scalar: one element a key;
rows: a row of elements a key), and names every measurement it comes from. The diagnosis prices a call as
launch floor + bytes / (rate x efficiency) (src/profile/call_price.c; docs/design/model.md, "Pricing atomlab's call").
"""
import argparse
import csv
import gzip
import io
import json
import os
import statistics

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = "results/reference/nvidia-h200"
MEASURED = REF + "/diagnose-prereg-measure/measured.json"
SCATTER = REF + "/scatter/scatter.json"
SHAPES = REF + "/scatter-shapes/shapes.json"
DRAM = REF + "/diagnose-prereg-predict/dram.csv.gz"
EXPORT = REF + "/diagnose-prereg-predict/pytorch-histc-hot.csv.gz"  # any export of the run: the device's L2 size
LAUNCH_US = 3.0  # the launch floor: assumed, not fitted (no committed measurement isolates an empty launch)
FASTER = 1.5  # the rules' "faster" of experiments/diagnose-prereg-3.json: measured_speedup >= 1.5
LAWS = {"hot": "hot", "zipf": "head", "uniform": "spread", "sorted": "runs"}
WIDTH = {"f32": 4, "u32": 4, "i32": 4, "i64": 8, "f64": 8, "u64": 8, "bf16": 2}


def export_rows(path):
    with gzip.open(os.path.join(ROOT, path), "rt") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[2:]


def number(text):
    return float(text.replace(",", "")) if text.strip() else None


def dram_rate():
    """The achievable DRAM rate, bytes/ns, as the profile's --dram reads it: the median over the export's launches
    without atomics of dram__bytes.sum / gpu__time_duration.sum (ns)."""
    h, rows = export_rows(DRAM)
    v = [number(r[h.index("dram__bytes.sum")]) / number(r[h.index("gpu__time_duration.sum")]) for r in rows
         if not number(r[h.index("lts__t_requests_op_red.sum")]) and not number(r[h.index("lts__t_requests_op_atom.sum")])]
    return statistics.median(v)


def l2_bytes():
    h, rows = export_rows(EXPORT)
    return number(rows[0][h.index("device__attribute_l2_cache_size")])


def option(args, name, default=None):
    return args[args.index(name) + 1] if name in args else default


def job_bytes(rows, targets, dim, value, key, l2):
    out = targets * dim * WIDTH[value]
    return rows * (WIDTH[key] + dim * WIDTH[value]) + (out if out <= l2 else 2 * out)


def from_measured(l2):
    """(call, law, shape, bytes, ms, what) of every verified call measured.json holds (the advised calls and the
    family's; block is no longer advised and is left out)."""
    doc = json.load(open(os.path.join(ROOT, MEASURED)))
    for k in doc["kernels"]:
        for call, t in k["evidence"]["calls"].items():
            a = t["args"]
            if t["state"] != "verified" or call.endswith("block") or a[:2] not in (["app", "scatter"],
                                                                                 ["app", "scatter-reduce"]):
                continue
            rows, targets, dim = int(option(a, "--rows")), int(option(a, "--targets")), int(option(a, "--dim"))
            b = job_bytes(rows, targets, dim, option(a, "--type"), option(a, "--index", "i64"), l2)
            yield (call.split()[0] if call.startswith("atl_scatter_reduce") else call, LAWS[option(a, "--dist")],
                   "rows" if dim > 1 else "scalar", b, t["ms"], "%s: %s" % (MEASURED, k["id"]))


def from_scatter(l2):
    """The scatter app's auto rows of scatter.json (its command's sizes; i32 keys, as its bytes_moved counts)."""
    doc = json.load(open(os.path.join(ROOT, SCATTER)))
    a = doc["command"].split()
    rows, targets, dim = int(option(a, "--rows")), int(option(a, "--targets")), int(option(a, "--dim"))
    for r in doc["rows"]:
        value, law, variant = (r["config"]["variant"].split("/") + ["", ""])[:3]
        if variant == "auto" and r.get("verified"):
            yield ("atl_scatter_add auto", LAWS[law], "rows" if dim > 1 else "scalar",
                   job_bytes(rows, targets, dim, value, "i32", l2), r["time_ms"]["median"],
                   "%s: %s" % (SCATTER, r["config"]["variant"]))


def from_shapes(l2):
    """The shape grid's cells with a verified auto time (shapes.json: its rows, its key type, each cell's value type,
    dim, targets and law; zipf of either exponent is a head)."""
    doc = json.load(open(os.path.join(ROOT, SHAPES)))
    for c in doc["cells"]:
        ms = (c.get("ms") or {}).get("auto")
        if ms and c.get("verified"):
            yield ("atl_scatter_add auto", LAWS[c["dist"].split(":")[0]], "rows" if c["dim"] > 1 else "scalar",
                   job_bytes(c["rows"], c["targets"], c["dim"], c["type"], doc["index"], l2), ms,
                   "%s: %s" % (SHAPES, c["name"]))


def fit(leave_out=()):
    rate, l2 = dram_rate(), l2_bytes()
    groups = {}
    for call, law, shape, b, ms, what in list(from_measured(l2)) + list(from_scatter(l2)) + list(from_shapes(l2)):
        if what.split(": ")[-1] in leave_out:
            continue
        eff = b / rate / (ms * 1e6 - LAUNCH_US * 1e3)
        groups.setdefault((call, law, shape), []).append((eff, "%s (%.4g ms, %.4g MB)" % (what, ms, b / 1e6)))
    calls = [{"call": c, "access": law, "shape": shape, "efficiency": round(statistics.median(e for e, _ in v), 3),
              "measured": [w for _, w in v]} for (c, law, shape), v in sorted(groups.items())]
    return rate, l2, calls


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "data", "tuning", "diagnose-calls.json"))
    ap.add_argument("--leave-out", nargs="*", default=[],
                    help="entries (program ids of measured.json) left out of the fit: a check of a fit on the rest")
    args = ap.parse_args()
    rate, l2, calls = fit(args.leave_out)
    doc = {"format_version": 1,
           "what": "The efficiencies of atomlab's advised calls, by call, key law (access: hot, head, spread) and "
                   "shape (scalar, rows), that the diagnosis prices a call with (src/profile/call_price.c; "
                   "docs/design/model.md, \"Pricing atomlab's call\"): call time = launch_us + the job's bytes / "
                   "(the device's achievable DRAM rate x efficiency). A row per architecture (arch, e.g. sm_90, from "
                   "the export's compute capability); a device no row matches, and a call, law or shape no entry "
                   "holds, get no call price: the strategy's figure stands and the reason says so. Written by "
                   "scripts/diagnose_calls_fit.py from the committed measurements each entry names.",
           "rows": [{"name": "nvidia-sm_90", "backend": "cuda", "vendor": "NVIDIA", "arch": "sm_90",
                     "source": "fitted on an H200 (sm_90) by scripts/diagnose_calls_fit.py: the verified calls of "
                               "%s (the second pre-registered run: fitted on the data it was judged on, not a "
                               "validation of it), the auto rows of %s and the shape grid's verified auto cells of %s; efficiencies over %.4g bytes/ns (%s, the "
                               "run's --dram), an L2 of %.0f bytes" % (MEASURED, SCATTER, SHAPES, rate, DRAM, l2),
                     "launch_us": LAUNCH_US,
                     "launch_source": "assumed: no committed measurement isolates an empty launch",
                     "faster": FASTER,
                     "faster_source": "the rules' faster of experiments/diagnose-prereg-3.json (measured_speedup "
                                      ">= 1.5)",
                     "calls": calls}]}
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    for c in calls:
        print("%-24s %-7s %-7s %.3f (%d)" % (c["call"], c["access"], c["shape"], c["efficiency"], len(c["measured"])))


if __name__ == "__main__":
    main()
