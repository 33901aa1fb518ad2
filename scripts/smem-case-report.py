#!/usr/bin/env python3
"""The histogram case study's plots and summary (issue [smem-model], seed 002 section 4).

usage: smem-case-report.py DIR [--threshold 0.8]

Reads from DIR what scripts/gpu-smem.sh wrote there:
  predict.csv    `atomlab model predict --runs ... -o predict.csv` on the profiled hist-case run
                 (per launch: U, e, passes, B, measured time; labels kernel/image/result/pixels/wg_size)
  hist-case.csv  `atomlab hist-case -o` run WITHOUT the profiler (timings for the speedup)
  validate.csv   `atomlab profile ... -o validate.csv -- atomlab hist-case --validate` (optional)
and writes into DIR:
  smem-case-util.dat, smem-case-speedup.dat, smem-case-pred.dat   gnuplot data
  smem-case-util.{png,svg}, smem-case-speedup.{png,svg},
  smem-case-pred.{png,svg}                                         if gnuplot is installed
  summary.txt                                                      the findings, computed from the data
Plots are rendered by scripts/smem-case.gp; without gnuplot the .dat files are kept and
`gnuplot -e "dir='DIR'" scripts/smem-case.gp` renders them later, anywhere.
Exit status: 0 written, 2 missing or unreadable input (one line naming the file).
"""
import csv
import math
import os
import shutil
import statistics
import subprocess
import sys

KERNELS = ("histogram", "histogram2")
IMAGES = ("solid", "uniform")
RESULTS = ("used", "unused")  # used: ATOMS.ADD (the dummy read), unused: ATOMS.POPC.INC
INSTR = {"used": "ATOMS.ADD", "unused": "ATOMS.POPC.INC"}


def die(msg):
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(2)


def read_csv(path, need, optional=False):
    if optional and not os.path.exists(path):
        return []  # a step of the run that did not finish: the summary says so
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        die(f"unable to read '{path}': {e.strerror}")
    if not rows:
        die(f"'{path}' has no rows")
    missing = [c for c in need if c not in rows[0]]
    if missing:
        die(f"'{path}' lacks the column '{missing[0]}'")
    return rows


def num(row, key, path):
    try:
        return float(row[key])
    except (TypeError, ValueError):
        die(f"'{path}': {key} = '{row[key]}' is not a number")


def main():
    args = sys.argv[1:]
    threshold = 0.8
    if "--threshold" in args:
        i = args.index("--threshold")
        try:
            threshold = float(args[i + 1])
        except (IndexError, ValueError):
            die("--threshold needs a number")
        del args[i:i + 2]
    if len(args) != 1:
        die("usage: smem-case-report.py DIR [--threshold X]")
    d = args[0]
    pred_path, time_path = os.path.join(d, "predict.csv"), os.path.join(d, "hist-case.csv")
    if not os.path.exists(pred_path) and not os.path.exists(time_path):
        die(f"neither predict.csv nor hist-case.csv in '{d}': nothing to report")
    pred = read_csv(pred_path, ("case_kernel", "image", "result", "pixels", "wg_size", "utilization", "e",
                                "passes_per_job", "busy_us", "measured_us", "busy_over_measured", "verdict"), True)
    times = read_csv(time_path, ("kernel", "image", "result", "pixels", "wg_size", "median_ms", "verified"), True)

    # U[(kernel, image, result, wg)][pixels], and the counters' e and passes
    util, e_of, passes_of, pipe_of = {}, {}, {}, {}
    for r in pred:
        key = (r["case_kernel"], r["image"], r["result"], int(r["wg_size"]))
        px = int(r["pixels"])
        util.setdefault(key, {})[px] = num(r, "utilization", pred_path)
        e_of.setdefault(key, {})[px] = num(r, "e", pred_path)
        if r["passes_per_job"] != "":
            passes_of.setdefault(key, {})[px] = num(r, "passes_per_job", pred_path)
        if r.get("pipelined_over_measured"):
            pipe_of.setdefault(key, {})[px] = num(r, "pipelined_over_measured", pred_path)
    ms = {}
    for r in times:
        ms[(r["kernel"], r["image"], r["result"], int(r["wg_size"]), int(r["pixels"]))] = num(r, "median_ms", time_path)
    wgs = sorted({k[3] for k in util} | {k[3] for k in ms})
    sizes = sorted({px for v in util.values() for px in v} | {k[4] for k in ms})

    # gnuplot data: one block per panel (result x image), columns pixels then one series per (kernel, wg)
    with open(os.path.join(d, "smem-case-util.dat"), "w") as f:
        f.write(f"# U of the shared-memory atomic unit; series: {' '.join(f'{k}/wg{w}' for k in KERNELS for w in wgs)}\n")
        for res in RESULTS:
            for img in IMAGES:
                f.write(f"# panel {img} {res} ({INSTR[res]})\n")
                for px in sizes:
                    vals = [util.get((k, img, res, w), {}).get(px) for k in KERNELS for w in wgs]
                    f.write(f"{px} " + " ".join("NaN" if v is None else f"{v:.6g}" for v in vals) + "\n")
                f.write("\n\n")
    with open(os.path.join(d, "smem-case-speedup.dat"), "w") as f:
        f.write(f"# speedup of histogram2 over histogram (median time ratio); series: {' '.join(f'wg{w}' for w in wgs)}\n")
        for res in RESULTS:
            for img in IMAGES:
                f.write(f"# panel {img} {res} ({INSTR[res]})\n")
                for px in sizes:
                    vals = []
                    for w in wgs:
                        a, b = ms.get(("histogram", img, res, w, px)), ms.get(("histogram2", img, res, w, px))
                        vals.append(a / b if a and b else None)
                    f.write(f"{px} " + " ".join("NaN" if v is None else f"{v:.6g}" for v in vals) + "\n")
                f.write("\n\n")
    with open(os.path.join(d, "smem-case-pred.dat"), "w") as f:
        f.write("# measured_us busy_us U   (block 0: bottleneck verdicts, block 1: the others)\n")
        for want in ("bottleneck", "not a bottleneck"):
            for r in pred:
                if r["verdict"] == want:
                    f.write(f"{r['measured_us']} {r['busy_us']} {r['utilization']}\n")
            f.write("\n\n")

    lines = summarize(pred, util, e_of, passes_of, pipe_of, ms, wgs, sizes, threshold, d)
    with open(os.path.join(d, "summary.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))

    gp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "smem-case.gp")
    if shutil.which("gnuplot"):
        figs = "util speedup pred" if pred and ms else "util pred" if pred else "speedup"
        rc = subprocess.call(["gnuplot", "-e", f"dir='{d}'; wgs='{' '.join(map(str, wgs))}'; figs='{figs}'", gp])
        if rc != 0:
            print(f"note: gnuplot exited {rc}: plots incomplete", file=sys.stderr)
    else:
        print(f"note: no gnuplot here: render later with gnuplot -e \"dir='DIR'; wgs='{' '.join(map(str, wgs))}'\" "
              "scripts/smem-case.gp", file=sys.stderr)


def span(values):
    return f"{min(values):.2f}..{max(values):.2f}" if values else "-"


def summarize(pred, util, e_of, passes_of, pipe_of, ms, wgs, sizes, threshold, d):
    big = max(sizes)
    large = [px for px in sizes if px >= big // 4]  # the large images: where the seed's curves settle
    out = [f"# The seed's histogram findings on this GPU (computed by scripts/smem-case-report.py from {d})",
           *([] if pred else ["# NO predict.csv: the profiled case study did not complete (see gpu-smem-log.txt); "
                              "the findings on U cannot be computed"]),
           *([] if ms else ["# NO hist-case.csv: the timings did not complete; no speedups"]),
           f"# U >= {threshold} is a bottleneck; 'large' = the sizes {', '.join(map(str, large))} px; "
           f"block sizes {', '.join(map(str, wgs))}", ""]

    def at(table, kernel, img, res):
        return [table[(kernel, img, res, w)][px] for w in wgs for px in large if px in table.get((kernel, img, res, w), {})]

    for res in RESULTS:
        u_s, e_s = at(util, "histogram", "solid", res), at(e_of, "histogram", "solid", res)
        if not u_s:
            out.append(f"1. solid saturates with e = 32 ({INSTR[res]}): NO DATA")
            continue
        holds = min(e_s) >= 31 and min(u_s) >= threshold
        out.append(f"1. solid images saturate the unit with e = 32 ({INSTR[res]}, histogram): "
                   f"{'HOLDS' if holds else 'DOES NOT HOLD'}: e {min(e_s):.1f}..{max(e_s):.1f}, "
                   f"U {min(u_s):.2f}..{max(u_s):.2f} on large images; B'/measured (pipelined S') "
                   f"{span(at(pipe_of, 'histogram', 'solid', res))}")
    for res in RESULTS:
        u_u, e_u = at(util, "histogram", "uniform", res), at(e_of, "histogram", "uniform", res)
        p_u = at(passes_of, "histogram", "uniform", res)
        if not u_u:
            out.append(f"2. uniform stays below saturation with e near 3 ({INSTR[res]}): NO DATA")
            continue
        below = max(u_u) < threshold
        if p_u:
            near3 = 2 <= statistics.median(p_u) <= 4
            e_text = (f"passes per job (the seed's e: bank-conflict passes) {min(p_u):.2f}..{max(p_u):.2f}: "
                      f"{'near 3' if near3 else 'not near 3'}")
        else:
            near3 = None
            e_text = (f"e near 3 NOT CHECKABLE: ncu offered no shared-atomic wavefront count; atomlab's e (lanes per "
                      f"distinct word) is {min(e_u):.2f}..{max(e_u):.2f}")
        upper = statistics.median(e_u) < 2  # the table's S there is mostly latency: U only an upper bound
        verdict = ("HOLDS" if below and near3 else "HOLDS IN PART" if below else
                   "UNDECIDED (U is only an upper bound at e < 2)" if upper else "DOES NOT HOLD")
        out.append(f"2. uniform images stay below saturation with e near 3 ({INSTR[res]}, histogram): {verdict}: "
                   f"U {min(u_u):.2f}..{max(u_u):.2f} on large images ({'below' if below else 'NOT below'} "
                   f"{threshold}); B'/measured (pipelined S') {span(at(pipe_of, 'histogram', 'uniform', res))}; "
                   f"{e_text}")
    for res in RESULTS:
        pairs = [(util[("histogram", "solid", res, w)][px], util[("histogram2", "solid", res, w)][px])
                 for w in wgs for px in large
                 if px in util.get(("histogram", "solid", res, w), {}) and px in util.get(("histogram2", "solid", res, w), {})]
        if not pairs:
            out.append(f"3. reordering lowers utilization ({INSTR[res]}): NO DATA")
            continue
        lower = sum(b < a for a, b in pairs)
        sp = [ms[("histogram", "solid", res, w, px)] / ms[("histogram2", "solid", res, w, px)]
              for w in wgs for px in large
              if ("histogram", "solid", res, w, px) in ms and ("histogram2", "solid", res, w, px) in ms]
        verdict = "HOLDS" if lower == len(pairs) else "HOLDS IN PART" if lower else "DOES NOT HOLD"
        out.append(f"3. reordering (histogram2) lowers utilization on solid images ({INSTR[res]}): {verdict}: lower "
                   f"in {lower} of {len(pairs)} large-image runs, median U {statistics.median(a for a, _ in pairs):.2f}"
                   f" -> {statistics.median(b for _, b in pairs):.2f}; speedup of histogram2 (runs without the "
                   f"profiler) " + (f"{min(sp):.2f}..{max(sp):.2f}, median {statistics.median(sp):.2f}" if sp else "-"))
    out.append("")
    bott = [abs(float(r["busy_over_measured"]) - 1) for r in pred if r["verdict"] == "bottleneck"]
    rest = [float(r["busy_over_measured"]) for r in pred if r["verdict"] != "bottleneck"]
    pipe = [abs(float(r["pipelined_over_measured"]) - 1) for r in pred
            if r["verdict"] == "bottleneck" and r.get("pipelined_over_measured")]
    out.append("predicted busy time B vs measured kernel time: NO DATA" if not pred else
               f"predicted busy time B vs measured kernel time ({len(pred)} profiled launches, predict.md): "
               + (f"bottleneck launches {len(bott)}: median |B/measured - 1| {statistics.median(bott) * 100:.0f} %, "
                  f"largest {max(bott) * 100:.0f} %; " if bott else "no bottleneck launch; ")
               + (f"other launches {len(rest)}: B/measured median {statistics.median(rest):.2f}" if rest else ""))
    if pipe:
        out.append(f"  with atomlab's pipelined S' = (T(n) - T(1)) / (n - 1) instead of T(n) / n: bottleneck launches "
                   f"median |B'/measured - 1| {statistics.median(pipe) * 100:.0f} %, largest {max(pipe) * 100:.0f} %")
    vpath = os.path.join(d, "validate.csv")
    if os.path.exists(vpath):
        want = {"smem_validate_atomics": "bottleneck", "smem_validate_stream": "not a bottleneck"}
        got = {}
        for r in read_csv(vpath, ("kernel", "utilization", "verdict")):
            got.setdefault(r["kernel"], []).append((r["verdict"], r["utilization"]))
        for k, v in want.items():
            runs = got.get(k, [])
            ok = runs and all(x == v for x, _ in runs)
            out.append(f"validation {k}: expected '{v}': {'RIGHT' if ok else 'WRONG' if runs else 'NOT RUN'}"
                       + (f" (U {', '.join(u for _, u in runs)})" if runs else ""))
    else:
        out.append("validation: no validate.csv (not run)")
    return out


if __name__ == "__main__":
    main()
