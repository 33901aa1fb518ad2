#!/usr/bin/env python3
"""The diagnosis's validation: atomlab's shared-memory and L2 models against kernels
with known answers. Two steps, the second runs on any machine (the CPU's dry run over recorded files):

  diagnose_validation.py merge W MANIFEST OUT.csv
      joins the per-program ncu exports W/NAME.csv that scripts/gpu/diagnose.sh kept into one raw
      export, each launch with the columns program, source, expect_shared, expect_l2, alts (MANIFEST: one
      tab-separated line per program: name, source, expected shared verdict, expected L2 verdict,
      strategy=program pairs; "-" for none).
  diagnose_validation.py analyse DIR [--atomlab PATH]
      runs `atomlab model util` (DIR/smem-table.csv) and `atomlab model l2` (DIR/same.csv, DIR/spread.csv;
      DIR/same-f32.csv and DIR/types.csv where present: the float same-address S and the kernels' float shares;
      DIR/cas-chain.csv or the launches of the program rmw-shared-f32-word-1w: the shared CAS loop's chain;
      DIR/private-table.txt: the bytes of the privatized kernels' table a block, their residency)
      over DIR/programs.csv and writes DIR/validation.json, DIR/validation-summary.txt and the plot
      DIR/validation.{dat,gp,png} (png where gnuplot is installed).

Rows of validation.json: kernel, program, source, unit (shared or L2), u, u_lo, u_hi, bound,
predicted_ms, measured_ms, error, verdict, expected_verdict, evidence, advice, predicted_speedup,
measured_speedup, speedup_error, passes_per_job, dram_pct. One row per launch and unit that has atomics; of
atomlab's own programs (and CUB's) only the last launch of each kernel name (the timed one after a warm-up).

- predicted_ms: the unit's busy time. Shared: B = U_lo x T (passes x cycles per pass, `model util`), in
  time by the kernel's own clock (sm__cycles_elapsed.avg / duration); L2: busy_us of `model l2`.
- error = predicted / measured - 1: the model's error where the verdict is bottleneck (B should be the time).
- expected_verdict, in this order (evidence says which): the kernel's design (the manifest; the validation
  kernels smem_validate_atomics / smem_validate_stream); DRAM throughput >= 60% of peak: not a bottleneck;
  L2 only: DRAM < 5% with atomic requests: bottleneck; shared only: the advised alternative measured
  >= 1.5x faster: bottleneck; else unknown.
- advice, predicted_speedup: atomlab's (`advice`, `predicted_speedup` columns of its CSV);
  measured_speedup: this launch's time over the time of the program that applies the advised strategy
  (manifest alts; its longest launch with atomics), where atomlab has one.
"""
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

EXTRA = ("program", "source", "expect_shared", "expect_l2", "alts")
# The evidence's thresholds. DRAM decides "not a bottleneck" where it runs at this share of what a streaming copy
# reaches under ncu (dram.csv; without it, of peak): at 60% of peak against an achievable 72% a launch still has room
# for its atomics to bind (the uniform u8 histograms: byte-lanes, their shared passes cut, ran 1.23x faster). FASTER:
# the advised variant this much faster shows the unit's work was in the time (run-to-run spread of these launches is
# under 2%). EITHER: a launch with both units' atomics and idle DRAM, one of whose rows must be a bottleneck.
DRAM_SATURATED, DRAM_PEAK_SHARE, FASTER = 0.9, 0.6, 1.15
EITHER = "bottleneck (this unit or the other)"
CHAIN_PROGRAM = "rmw-shared-f32-word-1w"  # scripts/gpu/diagnose.sh: one warp a SM, f32 adds on one word


def num(s):
    try:
        return float(str(s).replace(",", ""))
    except ValueError:
        return 0.0


def read_raw(path):
    """The header and data rows of an ncu raw export (lines before the header, the units row skipped)."""
    rows = [r for r in csv.reader(open(path, newline="")) if r]
    i = next((k for k, r in enumerate(rows) if r[0] == "ID"), None)
    if i is None:
        return None, []
    head = rows[i]
    return head, [dict(zip(head, r)) for r in rows[i + 1:] if len(r) == len(head) and r[0] and r[0] != ""]


def merge(w, manifest, out):
    header, rows = [], []
    for line in open(manifest):
        f = line.rstrip("\n").split("\t")
        if len(f) < 5:
            continue
        path = os.path.join(w, f[0] + ".csv")
        head, data = read_raw(path) if os.path.exists(path) else (None, [])
        if head is None:
            print(f"{f[0]}: no export", file=sys.stderr)
            continue
        header += [h for h in head if h not in header]
        for d in data:
            d.update(zip(EXTRA, f[:5]))
            rows.append(d)
    header += list(EXTRA)
    # a column one program's export lacks: the device's attributes from a launch that has them (one GPU per
    # run), any metric 0 (the programs' metric lists agree in a GPU run; recorded exports may not)
    seen = {h: next((d[h] for d in rows if d.get(h)), "") for h in header if h.startswith("device__attribute")}
    for d in rows:
        for h in header:
            if h not in d:
                d[h] = seen.get(h) or "0"
    for k, d in enumerate(rows):  # one id per launch of the run, so that a message naming a launch is unique
        d["ID"] = str(k)
    write_raw(out, header, rows)
    print(f"{len(rows)} launches of {len(set(d['program'] for d in rows))} programs -> {out}")


def write_raw(path, header, rows):
    with open(path, "w", newline="") as fh:
        wr = csv.writer(fh, quoting=csv.QUOTE_ALL)
        wr.writerow(header)
        wr.writerow([""] * len(header))
        for d in rows:
            wr.writerow([d.get(h, "0") for h in header])


def run_csv(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    return list(csv.DictReader(p.stdout.splitlines())), ""


def models(out, atomlab, progs, head, launches):
    """model util and model l2 over the launches; a launch the model refuses (`model util` names it and
    stops: exit 2) is set aside with its reason and the rest modelled again."""
    refused = []
    usable = os.path.join(out, "programs-modelled.csv")
    # the achievable DRAM share (a streaming kernel's export) where the run recorded one: the advice's DRAM floor
    dram = ["--dram", os.path.join(out, "dram.csv")] if os.path.exists(os.path.join(out, "dram.csv")) else []
    for _ in range(50):
        write_raw(usable, head, launches)
        smem, err = run_csv([atomlab, "model", "util", "--table", os.path.join(out, "smem-table.csv"), "--counters",
                             usable, "--format", "csv"] + dram)
        m = re.search(r"kernel (\d+) \(", err)
        if smem is None and m:
            refused += [dict(d, reason=err) for d in launches if d["ID"] == m.group(1)]
            launches = [d for d in launches if d["ID"] != m.group(1)]
            continue
        if smem is None:
            sys.exit(f"model util: {err[:2000]}")
        l2cmd = [atomlab, "model", "l2", "--counters", usable, "--format", "csv", "--advice", "--table",
                 os.path.join(out, "smem-table.csv")] + dram
        if os.path.exists(os.path.join(out, "same.csv")):
            l2cmd += ["--same", os.path.join(out, "same.csv"), "--spread", os.path.join(out, "spread.csv")]
        # the shared CAS loop's round trip (a private table's hot-word chain of float adds): cas-chain.csv,
        # else the launches of the suite's one-warp-a-SM f32 loop (CHAIN_PROGRAM)
        chain = os.path.join(out, "cas-chain.csv")
        one = [d for d in launches if d.get("program") == CHAIN_PROGRAM]
        if not os.path.exists(chain) and one:
            write_raw(chain, head, one)
        # the f32 same-address calibration and the kernels' float shares (from their SASS), where recorded
        for flag, name in (("--same-f32", "same-f32.csv"), ("--types", "types.csv"), ("--cas-chain", "cas-chain.csv")):
            if os.path.exists(os.path.join(out, name)):
                l2cmd += [flag, os.path.join(out, name)]
        # the bytes of the privatized kernels' table (their residency), where the run recorded them
        table = os.path.join(out, "private-table.txt")
        if os.path.exists(table):
            l2cmd += ["--private-table", open(table).read().strip()]
        l2, err = run_csv(l2cmd)
        if l2 is None:
            sys.exit(f"model l2: {err[:2000]}")
        return launches, smem, l2, refused
    sys.exit("model util refused more than 50 launches")


def rate(x):
    return f"{x * 100:.1f}%" if x is not None else "-"


def achievable_dram(out):
    """the DRAM share of peak the run's streaming launches reached (dram.csv: the median over launches without atomic
    requests, as atl_l2_dram_achievable), 0..1; None without the file"""
    path = os.path.join(out, "dram.csv")
    if not os.path.exists(path):
        return None
    _, data = read_raw(path)
    v = sorted(num(d.get("dram__throughput.avg.pct_of_peak_sustained_elapsed")) / 100 for d in data
               if num(d.get("lts__t_requests_op_atom.sum")) + num(d.get("lts__t_requests_op_red.sum")) == 0
               and 0 < num(d.get("dram__throughput.avg.pct_of_peak_sustained_elapsed")) <= 100)
    return statistics.median(v) if v else None


def analyse(out, atomlab):
    achievable = achievable_dram(out)
    progs = os.path.join(out, "programs.csv")
    head, launches = read_raw(progs)
    launches, smem, l2, refused = models(out, atomlab, progs, head, launches)
    if not (len(launches) == len(smem) == len(l2)):
        sys.exit(f"programs.csv has {len(launches)} launches, model util {len(smem)}, model l2 {len(l2)} rows")
    rows = []
    for i, (p, s, g) in enumerate(zip(launches, smem, l2)):
        prog = p.get("program") or p.get("source") or "program"
        src = p.get("source") or prog
        dur_ms = num(p.get("gpu__time_duration.sum")) / 1e6
        dram = num(p.get("dram__throughput.avg.pct_of_peak_sustained_elapsed"))
        base = {"index": i, "kernel": p["Kernel Name"][:160], "program": prog, "source": src, "dram_pct": dram,
                "measured_ms": dur_ms, "alts": p.get("alts", "-") or "-"}
        if num(s.get("jobs_per_sm")) > 0 and s.get("verdict") != "error":
            elapsed = num(p.get("sm__cycles_elapsed.avg"))
            clock = elapsed / dur_ms if elapsed > 0 and dur_ms > 0 else num(p.get("device__attribute_clock_rate"))
            busy = num(s["busy_unit_cycles"])
            r = dict(base, unit="shared", u=num(s["utilization"]), u_lo=num(s["u_lo"]), u_hi=num(s["u_hi"]),
                     verdict=s["verdict"], bound=s["verdict"] == "bound",
                     predicted_ms=busy / clock if clock > 0 else None, passes_per_job=num(s["passes_per_job"]),
                     advice=s.get("advice") or None, predicted_speedup=num(s["predicted_speedup"]) or None
                     if s.get("predicted_speedup") else None, expect=p.get("expect_shared", "-"))
            # the shared advice names one strategy ("NAME: why"), priced by predicted_speedup
            r["strategies"] = ({s["advice"].split(":")[0]: num(s["predicted_speedup"])}
                               if s.get("advice") and s.get("predicted_speedup") else {})
            rows.append(r)
        if g.get("access", "none") != "none":
            r = dict(base, unit="L2", u=num(g["u"]), u_lo=num(g["u_low"]), u_hi=num(g["u_high"]), verdict=g["verdict"],
                     bound=False, predicted_ms=num(g["busy_us"]) / 1e3, passes_per_job=None,
                     advice=g.get("advice") or None, predicted_speedup=num(g["predicted_speedup"]) or None
                     if g.get("predicted_speedup") else None, expect=p.get("expect_l2", "-"))
            # every strategy the L2 advice priced, "NAME=SPEEDUP;..." best first (predicted_speedup is the best's)
            r["strategies"] = {a.split("=")[0]: num(a.split("=")[1]) for a in (g.get("strategies") or "").split(";")
                               if "=" in a}
            rows.append(r)
    # atomlab's own programs and CUB launch each kernel after a warm-up: the last launch of a name is the row
    last = {}
    for r in rows:
        if r["source"].startswith("atomlab") or r["source"] == "cub":
            last[(r["program"], r["kernel"], r["unit"])] = r["index"]
    rows = [r for r in rows if not (r["source"].startswith("atomlab") or r["source"] == "cub")
            or last[(r["program"], r["kernel"], r["unit"])] == r["index"]]
    # the time of each program's main kernel: its longest launch with atomics (for the measured speedups)
    main = {}
    for r in rows:
        main[r["program"]] = max(main.get(r["program"], 0), r["measured_ms"])
    for r in rows:
        r["error"] = r["predicted_ms"] / r["measured_ms"] - 1 if r["predicted_ms"] is not None and r["measured_ms"] > 0 else None
        alts = dict(a.split("=", 1) for a in r.pop("alts").split(";") if "=" in a)
        r["measured_speedup"], r["alternative"], r["strategy"], r["pairs"] = None, None, None, []
        if r["advice"] and r["measured_ms"] == main.get(r["program"]):
            # every strategy the advice priced that the manifest has a program for; the first (manifest order) is
            # THE applied one: its own prediction against the measured speedup
            for strategy, alt in alts.items():
                if strategy in r["strategies"] and main.get(alt):
                    pred, meas = r["strategies"][strategy], r["measured_ms"] / main[alt]
                    r["pairs"].append({"strategy": strategy, "alternative": alt, "predicted_speedup": pred,
                                       "measured_speedup": meas, "speedup_error": pred / meas - 1 if pred else None})
            if r["pairs"]:
                first = r["pairs"][0]
                r["strategy"], r["alternative"] = first["strategy"], first["alternative"]
                r["measured_speedup"], r["predicted_speedup"] = first["measured_speedup"], first["predicted_speedup"]
        r["speedup_error"] = (r["predicted_speedup"] / r["measured_speedup"] - 1
                              if r["predicted_speedup"] and r["measured_speedup"] else None)
    # the rows of each launch (a launch with shared and global atomics has both)
    units = {}
    for r in rows:
        units.setdefault(r["index"], []).append(r)
    dram_full = DRAM_SATURATED * achievable if achievable else DRAM_PEAK_SHARE
    for r in rows:
        if "smem_validate_atomics" in r["kernel"] or "smem_validate_stream" in r["kernel"]:
            r["expect"] = "design"
    for r in rows:
        expect = r["expect"]
        if "smem_validate_atomics" in r["kernel"]:
            expect = "bottleneck" if r["unit"] == "shared" else "not"
        elif "smem_validate_stream" in r["kernel"]:
            expect = "not"
        # both units' atomics, neither's verdict fixed by design (the match-any histogram's L2 is: its time is the
        # match instruction's, which idle DRAM does not tell from atomics)
        both = len(units[r["index"]]) > 1 and all(x["expect"] not in ("bottleneck", "not") for x in units[r["index"]])
        if expect in ("bottleneck", "not"):
            r["expected_verdict"], r["evidence"] = ("bottleneck" if expect == "bottleneck" else "not a bottleneck"), "design"
        elif r["unit"] == "shared" and r["measured_speedup"] and r["measured_speedup"] >= FASTER:
            # the same input with the unit's work cut (the advised variant) ran faster: the unit's work was in the time
            r["expected_verdict"], r["evidence"] = "bottleneck", f"advised variant >= {FASTER}x faster"
        elif r["dram_pct"] >= 100 * dram_full:
            r["expected_verdict"], r["evidence"] = "not a bottleneck", f"dram >= {100 * dram_full:.0f}%"
        elif 0 < r["dram_pct"] < 5 and both:
            # the launch's atomics bind, but the DRAM says nothing of which unit's: one of its rows is the bottleneck
            r["expected_verdict"], r["evidence"] = EITHER, "dram < 5%, shared and global atomics"
        elif r["unit"] == "L2" and 0 < r["dram_pct"] < 5:
            r["expected_verdict"], r["evidence"] = "bottleneck", "dram < 5%"
        else:
            r["expected_verdict"], r["evidence"] = "unknown", "-"
    for r in rows:
        r["right"] = (None if r["expected_verdict"] == "unknown" else
                      any(x["verdict"] == "bottleneck" for x in units[r["index"]]) if r["expected_verdict"] == EITHER
                      else r["verdict"] == r["expected_verdict"])
    for r in rows:
        del r["index"], r["expect"]
    summary = {}
    for unit in ("shared", "L2"):
        u_rows = [r for r in rows if r["unit"] == unit]
        bott = [abs(r["error"]) for r in u_rows if r["verdict"] == "bottleneck" and r["error"] is not None]
        decided = [r for r in u_rows if r["expected_verdict"] != "unknown"]
        summary[unit] = {"rows": len(u_rows), "bottlenecks": len(bott),
                         "median_error": statistics.median(bott) if bott else None,
                         "max_error": max(bott) if bott else None,
                         "max_u": max((r["u"] for r in u_rows), default=None),
                         "bound": sum(r["bound"] for r in u_rows),
                         "verdicts_decided": len(decided),
                         "verdicts_right": sum(bool(r["right"]) for r in decided)}
    sp = [abs(r["speedup_error"]) for r in rows if r["speedup_error"] is not None]
    summary["speedup"] = {"applied": len(sp), "median_error": statistics.median(sp) if sp else None,
                          "max_error": max(sp) if sp else None, "within_30pct": sum(e <= 0.3 for e in sp)}
    allp = [abs(q["speedup_error"]) for r in rows for q in r["pairs"] if q["speedup_error"] is not None]
    summary["speedup_all_pairs"] = {"pairs": len(allp), "median_error": statistics.median(allp) if allp else None,
                                    "within_30pct": sum(e <= 0.3 for e in allp)}
    summary["kernels"] = len(set((r["program"], r["kernel"]) for r in rows))
    summary["max_u"] = max((r["u"] for r in rows), default=None)
    hfile = next((os.path.join(out, f) for f in ("summary.txt", "gpu-summary.txt") if os.path.exists(os.path.join(out, f))), None)
    measured = open(hfile).read().splitlines()[:4] if hfile else []
    summary["refused"] = [{"program": d.get("program"), "kernel": d["Kernel Name"][:160], "reason": d["reason"]}
                          for d in refused]
    json.dump({"measured": measured, "summary": summary, "rows": rows}, open(os.path.join(out, "validation.json"), "w"),
              indent=1)
    lines = [f"{summary['kernels']} kernels, {len(rows)} rows (launch x unit); largest U {summary['max_u']}"]
    for unit in ("shared", "L2"):
        x = summary[unit]
        lines.append(f"{unit}: {x['rows']} rows, {x['bottlenecks']} bottlenecks, median |B - measured| / measured "
                     f"{rate(x['median_error'])} (largest {rate(x['max_error'])}), largest U {x['max_u']}, "
                     f"{x['bound']} bound, verdicts right {x['verdicts_right']} of {x['verdicts_decided']} decided")
    for d in refused:
        lines.append(f"refused by the model: {d.get('program')} {d['Kernel Name'][:40]}: {d['reason'][:200]}")
    x = summary["speedup"]
    lines.append(f"advice applied: {x['applied']}, median |predicted / measured speedup - 1| {rate(x['median_error'])}"
                 f" (largest {rate(x['max_error'])}), {x['within_30pct']} within 30%")
    x = summary["speedup_all_pairs"]
    lines.append(f"every priced strategy with a measured alternative: {x['pairs']} pairs, median |predicted / measured"
                 f" - 1| {rate(x['median_error'])}, {x['within_30pct']} within 30%")
    for r in rows:
        flag = "  <-- wrong" if r["right"] is False else ""
        sp = (f" speedup {r['strategy']} pred {r['predicted_speedup']:.2f} meas {r['measured_speedup']:.2f}"
              if r["predicted_speedup"] and r["measured_speedup"] else "")
        sp += "".join(f"; {q['strategy']} pred {q['predicted_speedup']:.2f} meas {q['measured_speedup']:.2f}"
                      for q in r["pairs"][1:])
        pred = f"{r['predicted_ms']:.4f}" if r["predicted_ms"] is not None else "-"
        lines.append(f"{r['program'][:22]:22} {r['kernel'][:34]:34} {r['unit']:6} U {r['u']:.2f} "
                     f"[{r['u_lo']:.2f}-{r['u_hi']:.2f}] {pred:>9} / {r['measured_ms']:.4f} ms {r['verdict']:16} "
                     f"expected {r['expected_verdict']} ({r['evidence']}){sp}{flag}")
    open(os.path.join(out, "validation-summary.txt"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))
    plot(out, rows)


def plot(out, rows):
    with open(os.path.join(out, "validation.dat"), "w") as f:
        for unit in ("shared", "L2"):
            f.write(f"# {unit}: measured_ms predicted_ms bottleneck(1/0)\n")
            for r in rows:
                if r["unit"] == unit and r["predicted_ms"] and r["measured_ms"] > 0:
                    f.write(f"{r['measured_ms']:.6g} {r['predicted_ms']:.6g} {int(r['verdict'] == 'bottleneck')}\n")
            f.write("\n\n")
    gp = """set terminal pngcairo size 900,700
set output 'validation.png'
set logscale xy
set xlabel 'measured kernel time (ms)'
set ylabel 'predicted busy time of the unit (ms)'
set title 'atomlab diagnose: predicted against measured (bottleneck rows should lie on the diagonal)'
set key top left
plot x title 'predicted = measured' lc rgb 'gray', \\
  'validation.dat' index 0 using 1:($3 == 1 ? $2 : 1/0) title 'shared, bottleneck' pt 7 lc rgb 'blue', \\
  '' index 0 using 1:($3 == 0 ? $2 : 1/0) title 'shared, other' pt 6 lc rgb 'blue', \\
  '' index 1 using 1:($3 == 1 ? $2 : 1/0) title 'L2, bottleneck' pt 5 lc rgb 'red', \\
  '' index 1 using 1:($3 == 0 ? $2 : 1/0) title 'L2, other' pt 4 lc rgb 'red'
"""
    open(os.path.join(out, "validation.gp"), "w").write(gp)
    if shutil.which("gnuplot"):
        subprocess.run(["gnuplot", "validation.gp"], cwd=out)


def main():
    a = sys.argv[1:]
    if len(a) == 4 and a[0] == "merge":
        return merge(a[1], a[2], a[3])
    if len(a) in (2, 4) and a[0] == "analyse" and (len(a) == 2 or a[2] == "--atomlab"):
        return analyse(a[1], a[3] if len(a) == 4 else "build/atomlab")
    sys.exit(__doc__)


main()
