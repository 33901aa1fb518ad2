#!/usr/bin/env python3
"""The scatter shape grid: `atomlab app scatter` and PyTorch's scatter-add ops over a grid of shapes, one JSON.

usage: scatter_shapes.py GRID.json -o SHAPES.json [--only PATTERN[,PATTERN...]] [--budget-s N] [--merge | --resume]
                         [--devices LIST|all] [--no-torch] [--figures DIR] [--atomlab PATH] [--backend NAME]
                         [--dry-run]
       scatter_shapes.py GRID.json -o SHAPES.json --combine SHAPES.json... [--figures DIR]

GRID (experiments/scatter-shapes.json) declares the cells: type x dims x targets x distributions at `rows`
source rows, the variants, the PyTorch settings and the goals. A cell is named TYPE/dDIM/vTARGETS/DIST, a zipf
distribution DIST as zipf-S (f32/d64/v1048576/zipf-1.1); --only takes glob patterns of those names.

For each (type, dim, targets) the app runs once over the distributions that are not zipf and once per zipf
exponent (--zipf S), every variant of the grid; with PyTorch, its keys are dumped (--dump; the source and the
output arrays go to /dev/null through links: the peers use a random source of the same shape and dtype) and
each PyTorch op is timed on them with CUDA events (a warm-up, the output zeroed outside the timed region, the
median of `reps`; one sample where the warm-up took more than `slow_ms`; cuda_timer.py). The runs go in order:
those of the cells a goal names, then the least work a cell first. The output file is rewritten after every run
(a temporary file, then a rename), so a stopped call keeps its cells; an app run that --budget-s stops is sent
SIGTERM and keeps the cells it completed; --resume runs what the file lacks. The goals are judged each time.
--devices splits the runs over a machine's GPUs, one process of this script a GPU, and combines their files into
-o (--combine does that alone for files of separate calls). SIGTERM or SIGINT stops the app run in flight and
every process started; the file keeps the cells that ran. Progress goes to stderr with the elapsed seconds. Exit:
0 done (cells may be skipped, with the reason), 1 a cell did not verify, 2 bad usage (one `error:` line, nothing
run or written), 128+N stopped by signal N.
"""
import argparse
import fnmatch
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from cuda_timer import event_times
from gpus import ALLOWED, device_list

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GRID_KEYS = {"about", "rows", "index", "samples", "variants", "shapes", "torch", "goals"}
SHAPE_KEYS = {"type", "dims", "targets", "dists"}
TORCH_KEYS = {"reps", "slow_ms", "det_cells"}
GOAL_KEYS = {"id", "text", "cells", "ratio", "at_least", "share"}
TYPES = {"f32": 4, "bf16": 2, "f16": 2, "u32": 4, "i32": 4}
DISTS = ("uniform", "sorted", "clustered", "hot")
VARIANTS = ("auto", "atomic", "tma", "det", "vector", "run", "block", "part", "sweep", "bins", "dsm", "bucket")
# best_variant: the fastest verified of the variants auto may stand in for (tma and det are compared on their own)
BEST_OF = ("atomic", "vector", "run", "block", "part", "sweep", "bins", "dsm", "bucket")
MS_KEYS = ("auto", "best", "atomic", "tma", "det", "memcpy_ceiling", "read_ceiling")
TORCH_OPS = ("index_add_", "scatter_add_", "index_put_", "scatter_reduce_", "bincount", "det_index_add_")
# ratio name: (numerator, denominator) over ms (torch_best: the fastest op's ms); a speed ratio, > 1 where the first
# named is faster
RATIOS = {"auto_vs_best": ("best", "auto"), "auto_vs_atomic": ("atomic", "auto"), "auto_vs_tma": ("tma", "auto"),
          "auto_vs_torch_best": ("torch_best", "auto"), "auto_vs_memcpy_ceiling": ("memcpy_ceiling", "auto"),
          "auto_vs_read_ceiling": ("read_ceiling", "auto"), "det_vs_auto": ("auto", "det"),
          "det_vs_det_index_add_": ("det_index_add_", "det")}
T0 = time.monotonic()
STOP_GRACE_S = 20  # an app stopped by the budget gets this long to write the rows it completed


class Usage(Exception):
    pass


class Stopped(Exception):
    """SIGTERM or SIGINT: the app run in flight and the processes started are stopped, the file keeps what ran."""

    def __init__(self, sig):
        super().__init__(sig)
        self.sig = sig


def on_signal(sig, _frame):
    raise Stopped(sig)


# a process that --devices started names its device on each line
DEVICE_TAG = f"gpu {os.environ['ATL_SHAPES_DEVICE']}: " if os.environ.get("ATL_SHAPES_DEVICE") else ""


def log(msg):
    print(f"[{time.monotonic() - T0:8.1f} s] {DEVICE_TAG}{msg}", file=sys.stderr, flush=True)


def need(cond, param, allowed):
    if not cond:
        raise Usage(f"{param}: {allowed}")


def dist_name(d):
    return d.replace(":", "-")


def load_grid(path):
    try:
        with open(path) as f:
            g = json.load(f)
    except OSError as e:
        raise Usage(f"grid: a readable JSON file ({path}: {e.strerror})")
    except ValueError as e:
        raise Usage(f"grid: valid JSON ({path}: {e})")
    need(isinstance(g, dict), "grid", "a JSON object")
    bad = sorted(set(g) - GRID_KEYS)
    need(not bad, "grid", f"keys among {', '.join(sorted(GRID_KEYS))} (not {', '.join(bad)})")
    need(isinstance(g.get("rows"), int) and g["rows"] >= 1, "grid.rows", "a positive integer")
    need(g.setdefault("index", "i32") in ("i32", "i64"), "grid.index", "i32 or i64")
    need(isinstance(g.setdefault("samples", 3), int) and g["samples"] >= 1, "grid.samples", "a positive integer")
    v = g.setdefault("variants", list(VARIANTS))
    need(isinstance(v, list) and v and set(v) <= set(VARIANTS) and "auto" in v, "grid.variants",
         f"a list of {', '.join(VARIANTS)} with auto")
    need(isinstance(g.get("shapes"), list) and g["shapes"], "grid.shapes", "a non-empty list")
    for s in g["shapes"]:
        need(isinstance(s, dict) and not set(s) - SHAPE_KEYS, "grid.shapes[]",
             f"objects with keys {', '.join(sorted(SHAPE_KEYS))}")
        need(s.get("type") in TYPES, "grid.shapes[].type", ", ".join(TYPES))
        for k, hi in (("dims", 512), ("targets", 2 ** 31 - 1)):
            need(isinstance(s.get(k), list) and s[k] and all(isinstance(x, int) and 1 <= x <= hi for x in s[k]),
                 f"grid.shapes[].{k}", f"a non-empty list of integers 1 to {hi}")
        need(isinstance(s.get("dists"), list) and s["dists"] and all(isinstance(d, str) and (d in DISTS or (
            d.startswith("zipf:") and zipf_ok(d[5:]))) for d in s["dists"]), "grid.shapes[].dists",
             f"a list of {', '.join(DISTS)} or zipf:S (S from 0.01 to 10)")
    t = g.setdefault("torch", {})
    need(isinstance(t, dict) and not set(t) - TORCH_KEYS, "grid.torch", f"an object with keys {', '.join(TORCH_KEYS)}")
    t.setdefault("reps", 5), t.setdefault("slow_ms", 500.0), t.setdefault("det_cells", ["*"])
    need(isinstance(t["reps"], int) and t["reps"] >= 1, "grid.torch.reps", "a positive integer")
    need(isinstance(t["slow_ms"], (int, float)) and t["slow_ms"] > 0, "grid.torch.slow_ms", "a positive number")
    need(isinstance(t["det_cells"], list), "grid.torch.det_cells", "a list of cell patterns")
    goals = g.setdefault("goals", [])
    need(isinstance(goals, list), "grid.goals", "a list")
    for k in goals:
        need(isinstance(k, dict) and not set(k) - GOAL_KEYS and {"id", "cells", "ratio", "at_least"} <= set(k),
             "grid.goals[]", f"objects with keys {', '.join(sorted(GOAL_KEYS))} (id, cells, ratio, at_least needed)")
        need(k["ratio"] in RATIOS, "grid.goals[].ratio", ", ".join(RATIOS))
        need(isinstance(k["cells"], list) and k["cells"], "grid.goals[].cells", "a non-empty list of cell patterns")
        need(isinstance(k["at_least"], (int, float)), "grid.goals[].at_least", "a number")
        need(0 < k.setdefault("share", 1.0) <= 1, "grid.goals[].share", "a number in (0, 1]")
    return g


def zipf_ok(s):
    try:
        return 0.01 <= float(s) <= 10
    except ValueError:
        return False


def plan(g):
    """The app runs: one per (type, dim, targets) and zipf exponent (the other distributions in one run)."""
    runs = []
    for s in g["shapes"]:
        for dim in s["dims"]:
            for v in s["targets"]:
                plain = [d for d in s["dists"] if not d.startswith("zipf:")]
                zipfs = [d for d in s["dists"] if d.startswith("zipf:")]
                for ds in ([plain] if plain else []) + [[z] for z in zipfs]:
                    runs.append({"type": s["type"], "dim": dim, "targets": v, "dists": ds,
                                 "cells": [f"{s['type']}/d{dim}/v{v}/{dist_name(d)}" for d in ds]})
    return runs


def run_cost(g, r):
    """Run r's work in bytes the host or the device passes over, for the order of the runs: the source rows made
    and sent once; each cell's expected sums over its rows (a float64 sum and magnitude a value) and, for each
    variant, the device's pass, the output read back and checked against the sums and hashed (byte by byte, on
    one host thread: weighed 16 times)."""
    E, D, V, eb = g["rows"], r["dim"], r["targets"], TYPES[r["type"]]
    per_variant = E * D * eb + V * D * (eb + 16) + 16 * V * D * eb
    return 2 * E * D * eb + len(r["cells"]) * (E * D * 16 + len(g["variants"]) * per_variant)


def host_bytes(g, r):
    """A floor of the app's host memory for run r: src, the output read back, the keys and the float64
    reference (sums and magnitudes for floats, each target's depth and place, the rows in key order)."""
    E, D, V, eb = g["rows"], r["dim"], r["targets"], TYPES[r["type"]]
    ref = V * D * 8 * (1 if r["type"] in ("u32", "i32") else 2) + V * 12 + E * 4
    return E * D * eb + V * D * eb + E * (12 if g["index"] == "i64" else 4) + ref


def gpu_bytes(g, r):
    """A floor of the device memory: the app's src, output, keys and scratch (16 bytes a row), or PyTorch's
    src, output, i64 keys and index_put_'s sorted copy of the source, whichever is more."""
    E, D, V, eb = g["rows"], r["dim"], r["targets"], TYPES[r["type"]]
    return max(E * D * eb + V * D * eb + E * 24, 2 * E * D * eb + V * D * eb + E * 32)


def mem_available():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def gpu_total(torch):
    if torch is not None:
        return torch.cuda.get_device_properties(0).total_memory
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=memory.total", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=30).stdout.split()
        return int(out[0]) * 2 ** 20 if out else None
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


def fits(g, r, torch):
    """None where run r fits this machine, else why not."""
    avail, gpu = mem_available(), gpu_total(torch)
    need_h, need_g = host_bytes(g, r), gpu_bytes(g, r)
    if avail is not None and need_h > 0.9 * avail:
        return f"host memory: the app needs about {need_h / 2**30:.1f} GiB, {avail / 2**30:.1f} GiB available"
    if gpu is not None and need_g > 0.9 * gpu:
        return f"device memory: about {need_g / 2**30:.1f} GiB needed of {gpu / 2**30:.1f} GiB"
    return None


def flat_rows(path):
    with open(path) as f:
        doc = json.load(f)
    rows = []
    for row in doc.get("rows", []):
        r = dict(row.get("config", {}))
        r.update({m["name"]: m["value"] for m in row.get("metrics", [])})
        r.update({k: row.get(k) for k in ("status", "reason", "verified")})
        r["ms"] = (row.get("time_ms") or {}).get("median")
        rows.append(r)
    return doc, rows


def run_app(a, g, r, dump, timeout):
    """The app's rows for run r and None; None and why where it gave none; its rows so far and why where the
    budget stopped it (SIGTERM: the app writes the rows it completed; SIGKILL after STOP_GRACE_S)."""
    out = os.path.join(a.scratch, "app.json")
    if os.path.exists(out):
        os.remove(out)
    cmd = [a.atomlab, "app", "scatter", "--backend", a.backend, "--rows", str(g["rows"]), "--dim", str(r["dim"]),
           "--targets", str(r["targets"]), "--type", r["type"], "--index", g["index"], "--samples", str(g["samples"]),
           "--variants", ",".join(g["variants"]), "--dist", ",".join(d.split(":")[0] for d in r["dists"]),
           "-o", out, "--quiet"]
    if r["dists"][0].startswith("zipf:"):
        cmd += ["--zipf", r["dists"][0][5:]]
    if dump:
        cmd += ["--dump", dump]
    log("run: " + " ".join(cmd))
    if a.dry_run:
        return None, "dry run"
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=os.setpgrp)
    try:
        _, err = p.communicate(timeout=timeout)
    except Stopped:  # the app is in its own process group: stopped with this script
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            p.communicate(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
        why = f"budget: the app ran past the {timeout:.0f} s left of --budget-s"
        try:
            return (flat_rows(out) if os.path.exists(out) else None), why
        except (OSError, ValueError):
            return None, why
    if p.returncode not in (0, 1) or not os.path.exists(out):
        return None, f"the app failed (exit {p.returncode}): {err.strip().splitlines()[-1] if err.strip() else ''}"
    return flat_rows(out), None


def cell_from_rows(rows, r, dist):
    """The cell of distribution dist from the app's rows."""
    base = dist.split(":")[0]
    zipf = float(dist[5:]) if dist.startswith("zipf:") else None
    ceil = {k: next((x for x in rows if x["variant"].endswith("/" + k)), None) for k in ("memcpy-ceiling",
                                                                                          "read-ceiling")}
    mine = {x["variant"].rsplit("/", 1)[1]: x for x in rows if x["variant"].split("/")[1:2] == [base]}
    used = [x for x in list(mine.values()) + list(ceil.values()) if x is not None]
    verified = bool(used) and all(x["status"] == "unsupported" or (x["status"] == "ok" and x["verified"])
                                  for x in used)
    ok = {v: x for v, x in mine.items() if x["status"] == "ok" and x["verified"] and x["ms"]}
    best = min((v for v in BEST_OF if v in ok), key=lambda v: ok[v]["ms"], default=None)
    auto = ok.get("auto")
    ms = {k: None for k in MS_KEYS}
    for v in ("auto", "atomic", "tma", "det"):
        ms[v] = ok[v]["ms"] if v in ok else None
    ms["best"] = ok[best]["ms"] if best else None
    for k, c in (("memcpy_ceiling", ceil["memcpy-ceiling"]), ("read_ceiling", ceil["read-ceiling"])):
        if auto and c and c.get("gbps"):
            ms[k] = auto["bytes_moved"] / (c["gbps"] * 1e9) * 1e3
    why = auto["reason"] if auto else ""
    return {"type": r["type"], "dim": r["dim"], "targets": r["targets"], "dist": base, "zipf": zipf,
            "verified": verified, "auto_variant": why.split()[2] if why.startswith("auto ran ") else None,
            "best_variant": best, "ms": ms, "variants_ms": {v: ok[v]["ms"] for v in sorted(ok)},
            "auto_note": why or None,
            "bytes_moved": auto["bytes_moved"] if auto else None,
            "unverified": sorted(x["variant"] for x in used if x["status"] != "unsupported" and
                                 not (x["status"] == "ok" and x["verified"]))}


def complete(rows, dist, g):
    """Whether the app's rows hold every variant of distribution dist (a run stopped by the budget keeps those)."""
    return len([x for x in rows if x["variant"].split("/")[1:2] == [dist.split(":")[0]]]) >= len(g["variants"])


def skipped_cell(name, g, r, dist, why):
    """A cell that did not run: every field, null, and why."""
    return {"name": name, "type": r["type"], "dim": r["dim"], "rows": g["rows"], "targets": r["targets"],
            "dist": dist.split(":")[0], "zipf": float(dist[5:]) if dist.startswith("zipf:") else None,
            "verified": False, "auto_variant": None, "best_variant": None, "ms": {k: None for k in MS_KEYS},
            "bytes_moved": None, "unverified": [], "torch": {k: None for k in TORCH_OPS}, "torch_best": None,
            "torch_notes": {}, "ratios": {k: None for k in RATIOS}, "skipped": why}


def ratios(cell):
    ms = dict(cell["ms"], torch_best=None, det_index_add_=None)
    t = cell.get("torch") or {}
    if cell.get("torch_best"):
        ms["torch_best"] = t[cell["torch_best"]]
    ms["det_index_add_"] = t.get("det_index_add_")
    return {k: (ms[a] / ms[b] if ms[a] and ms[b] else None) for k, (a, b) in RATIOS.items()}


def import_torch():
    try:
        import torch  # noqa: the GPU machine's PyTorch
        if not torch.cuda.is_available():
            return None, "PyTorch has no CUDA device here"
        return torch, None
    except ImportError as e:
        return None, f"PyTorch is not importable ({e})"


def torch_time(torch, fn, zero, reps, slow_ms):
    """The median of reps CUDA-event timings after a warm-up; the warm-up alone where it took over slow_ms."""
    ms, times = event_times(torch, fn, zero, reps, slow_ms)
    return ms, None if times else "one call (its warm-up took over slow_ms)"


def torch_cell(torch, g, cell, src, idx_path, deadline):
    """PyTorch's ops on the cell's keys: ms per op (None where it cannot run), and notes."""
    E, D, V = g["rows"], cell["dim"], cell["targets"]
    dev = torch.device("cuda")
    with open(idx_path, "rb") as f:  # u32 keys below 2^31 (targets fit an int): read as i32, widened to i64
        idx = torch.frombuffer(bytearray(f.read()), dtype=torch.int32).to(dev).long()
    idx2 = idx.view(E, 1).expand(E, D)
    dst = torch.zeros(V, D, dtype=src.dtype, device=dev)
    ops = {"index_add_": lambda: dst.index_add_(0, idx, src),
           "scatter_add_": lambda: dst.scatter_add_(0, idx2, src),
           "index_put_": lambda: dst.index_put_((idx,), src, accumulate=True),
           "scatter_reduce_": lambda: dst.scatter_reduce_(0, idx2, src, "sum")}
    if D == 1:
        ops["bincount"] = lambda: torch.bincount(idx, weights=src.view(-1), minlength=V)
    name = f"{cell['type']}/d{D}/v{V}/{cell['dist']}" + (f"-{cell['zipf']:g}" if cell["zipf"] else "")
    if any(fnmatch.fnmatchcase(name, p) for p in g["torch"]["det_cells"]):
        ops["det_index_add_"] = ops["index_add_"]
    res, notes = {k: None for k in TORCH_OPS}, {}
    for op, fn in ops.items():
        if time.monotonic() > deadline:
            notes[op] = "not timed: --budget-s spent"
            continue
        torch.use_deterministic_algorithms(op == "det_index_add_")
        try:
            res[op], note = torch_time(torch, fn, dst.zero_, g["torch"]["reps"], g["torch"]["slow_ms"])
            if note:
                notes[op] = note
        except (RuntimeError, TypeError, NotImplementedError) as e:
            notes[op] = f"failed: {str(e).splitlines()[0][:200]}"
        finally:
            torch.use_deterministic_algorithms(False)
    for op in TORCH_OPS:
        if op not in ops and op not in notes:
            notes[op] = "dim 1 only" if op == "bincount" else "not timed here (grid's torch.det_cells)"
    del dst, idx, idx2
    torch.cuda.empty_cache()
    return res, notes


def judge(goals, cells):
    """Each goal: met, the value judged (the worst cell's ratio, or the share of cells that meet it) and by how
    much it is met (> 0) or missed (< 0): value / threshold - 1, or share - share asked."""
    out = []
    for k in goals:
        named = [c for c in cells if any(fnmatch.fnmatchcase(c["name"], p) for p in k["cells"])]
        sel = [c for c in named if "skipped" not in c]
        vals = [(c["name"], c["ratios"].get(k["ratio"])) for c in sel]
        have = [(n, v) for n, v in vals if v is not None]
        g = {"id": k["id"], "text": k.get("text", ""), "ratio": k["ratio"], "at_least": k["at_least"],
             "share": k["share"], "cells": len(have), "cells_without_value": [n for n, v in vals if v is None],
             "cells_skipped": [c["name"] for c in named if "skipped" in c]}
        if not have:
            g.update(met=None, value=None, by=None, why="not judged: no cell of the goal has the ratio")
        else:
            good = [n for n, v in have if v >= k["at_least"]]
            worst = min(have, key=lambda nv: nv[1])
            share = len(good) / len(have)
            if k["share"] >= 1:
                g.update(value=worst[1], worst_cell=worst[0], by=worst[1] / k["at_least"] - 1)
            else:
                g.update(value=share, worst_cell=worst[0], by=share - k["share"])
            g.update(met=share >= k["share"] - 1e-12, share_met=share,
                     missed_cells=[n for n, _ in have if n not in good])
        out.append(g)
    return out


def settle(doc, g, cells, newest):
    """doc's cells in the grid's order, its goals judged over them, and its tool: newest (the commit of the last run
    or file) and every commit a cell that ran was measured at (a merge or --combine keeps each cell's own)."""
    order = {n: i for i, n in enumerate(n for r in plan(g) for n in r["cells"])}
    doc["cells"] = sorted(cells, key=lambda c: order.get(c["name"], len(order)))
    doc["tool"] = {"commit": newest, "commits": sorted({c["tool"] for c in doc["cells"]
                                                        if "skipped" not in c and c.get("tool")})}
    doc["goals"] = judge(g["goals"], doc["cells"])


def write_atomic(path, doc):
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".shapes-", suffix=".tmp", dir=d)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def grid_commit(path):
    """The last commit of the grid file, where this is a git checkout (None elsewhere)."""
    try:
        p = subprocess.run(["git", "log", "-1", "--format=%H", "--", os.path.abspath(path)], cwd=ROOT,
                           capture_output=True, text=True, timeout=30)
        return p.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def figures(doc, folder):
    """auto / best and auto / torch_best per cell: a .dat, a .gp and, where gnuplot is, a .png."""
    os.makedirs(folder, exist_ok=True)
    dat, gp, png = (os.path.join(folder, "scatter-shapes." + e) for e in ("dat", "gp", "png"))
    with open(dat, "w") as f:
        f.write("# cell auto_vs_best auto_vs_torch_best (speed ratios: > 1 where auto is faster; NaN: none)\n")
        for c in doc["cells"]:
            if "skipped" not in c:
                r = c["ratios"]
                f.write(f"{c['name']} " + " ".join("NaN" if r[k] is None else f"{r[k]:.4f}"
                                                   for k in ("auto_vs_best", "auto_vs_torch_best")) + "\n")
    torch_any = any(c.get("ratios", {}).get("auto_vs_torch_best") for c in doc["cells"])
    vals = [c["ratios"][k] for c in doc["cells"] if "skipped" not in c for k in ("auto_vs_best", "auto_vs_torch_best")
            if c["ratios"].get(k)]
    # ratios that span a decade or more (PyTorch's deterministic op, a slow variant) read on a log scale, where a
    # ratio and its inverse lie equally far from 1
    log_y = bool(vals) and max(vals) / min(vals) >= 10
    y_scale = "set logscale y 10\nset yrange [*:*]" if log_y else "set yrange [0:*]"
    with open(gp, "w") as f:
        f.write(f"""set terminal pngcairo size 1600,700 font ",9" noenhanced
set output '{os.path.basename(png)}'
set title 'atomlab app scatter, auto against the best variant and PyTorch''s best op ({doc['device']})'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'speed ratio (other ms / auto ms)'
set xtics rotate by 90 right
set grid ytics
set key top left
{y_scale}
plot '{os.path.basename(dat)}' using 2:xtic(1) title 'best variant / auto'""" +
                (", '' using 3 title 'PyTorch best / auto'" if torch_any else "") + "\n")
    if shutil.which("gnuplot"):
        subprocess.run(["gnuplot", os.path.basename(gp)], cwd=folder, check=False)
    return [p for p in (dat, gp, png) if os.path.exists(p)]


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], add_help=True)
    ap.add_argument("grid")
    ap.add_argument("-o", dest="out", required=True)
    ap.add_argument("--only", default="*", help="comma-separated glob patterns of cell names (f32/d64/*)")
    ap.add_argument("--budget-s", type=float, default=540.0,
                    help="stop starting work, and stop an app run, after this many seconds (540: one 10-minute call)")
    ap.add_argument("--merge", action="store_true", help="keep the cells of an existing -o file this run does not redo")
    ap.add_argument("--resume", action="store_true",
                    help="--merge, and run only the cells the -o file lacks or skipped: the same command again goes on")
    ap.add_argument("--combine", nargs="+", metavar="SHAPES", help="write -o from these shapes.json files of calls "
                    "that split the grid (each cell from the last that ran it), the goals judged again; runs nothing")
    ap.add_argument("--devices", metavar="LIST", help="CUDA device ordinals (0,1) or all: the runs split over them, "
                    "one process a device, their files combined into -o")
    ap.add_argument("--no-torch", action="store_true", help="no PyTorch peers: their fields null")
    ap.add_argument("--figures", metavar="DIR")
    ap.add_argument("--atomlab", default=os.path.join(ROOT, "build", "atomlab"))
    ap.add_argument("--backend", default="cuda")
    ap.add_argument("--scratch", default=None, help="folder for the app's rows and the dumped keys")
    ap.add_argument("--dry-run", action="store_true", help="print the app commands, run nothing, write nothing")
    ap.error = lambda msg: (_ for _ in ()).throw(Usage(f"arguments: {msg} (see scatter_shapes.py --help)"))
    return ap.parse_args(argv)


def combine(a, g):
    """--combine: the shapes files of calls that split the grid (over GPUs or calls) as one -o file: each cell from
    the last file where it ran (a skipped cell only where none ran it; a cell keeps its file's tool commit), the goals
    judged again. Runs nothing."""
    cells, doc = {}, None
    for path in a.combine:
        try:
            with open(path) as f:
                d = json.load(f)
            assert isinstance(d["cells"], list) and all(isinstance(c, dict) and "name" in c for c in d["cells"])
        except (ValueError, KeyError, OSError, TypeError, AssertionError):
            raise Usage(f"--combine: shapes.json files of this grid ({path} is not one)")
        doc = doc or d
        for c in d["cells"]:
            c.setdefault("tool", (d.get("tool") or {}).get("commit"))
            if "skipped" not in c or cells.get(c["name"], c).get("skipped"):
                cells[c["name"]] = c
    settle(doc, g, list(cells.values()), (d.get("tool") or {}).get("commit"))  # the last file's commit
    ran = [c for c in doc["cells"] if "skipped" not in c]
    write_atomic(a.out, doc)
    log(f"wrote {a.out} ({len(ran)} of {len(doc['cells'])} cells ran, from {len(a.combine)} files)")
    for p in figures(doc, a.figures) if a.figures else []:
        log(f"figure: {p}")
    return 0


def spread(a, g, runs):
    """--devices: the runs over the devices (the costliest first, each to the device with the least work so far),
    one process of this script a device (CUDA_VISIBLE_DEVICES, --only its cells, its own file -o.gpuN.json), then
    their files (after the kept cells of -o, with --merge or --resume) combined into -o. A signal stops them all."""
    load, mine = {d: 0 for d in a.devices}, {d: [] for d in a.devices}
    for r in sorted(runs, key=lambda r: -run_cost(g, r)):
        d = min(load, key=load.get)
        load[d] += run_cost(g, r)
        mine[d] += r["cells"]
    left = max(1.0, a.budget_s - (time.monotonic() - T0))
    kids = []
    for d, names in mine.items():
        if not names:
            continue
        part = f"{a.out}.gpu{d}.json"
        cmd = [sys.executable, os.path.abspath(__file__), a.grid, "-o", part, "--only", ",".join(names),
               "--budget-s", f"{left:.0f}", "--atomlab", a.atomlab, "--backend", a.backend] + \
              (["--no-torch"] if a.no_torch else []) + \
              (["--scratch", os.path.join(a.scratch, f"gpu{d}")] if a.scratch else [])
        log(f"device {d}: {len(names)} cells")
        env = dict(os.environ, CUDA_VISIBLE_DEVICES=d, ATL_SHAPES_DEVICE=d)
        kids.append((part, subprocess.Popen(cmd, env=env)))
    stopped = None
    try:
        for _, k in kids:
            k.wait(timeout=left + 2 * STOP_GRACE_S + 60)
    except (Stopped, subprocess.TimeoutExpired) as e:
        stopped = e
        for _, k in kids:
            k.send_signal(signal.SIGTERM)
        for _, k in kids:
            try:
                k.wait(timeout=STOP_GRACE_S + 10)
            except subprocess.TimeoutExpired:
                k.kill()
                k.wait()
    parts = [p for p, _ in kids if os.path.exists(p)]
    a.combine = ([a.out] if (a.merge or a.resume) and os.path.exists(a.out) else []) + parts
    rc = combine(a, g) if a.combine else 0
    for p in parts:
        os.remove(p)
    if isinstance(stopped, Stopped):
        raise stopped
    return 1 if rc or any(k.returncode == 1 for _, k in kids) else 0


def main(argv):
    a = parse_args(argv)
    g = load_grid(a.grid)
    if a.combine:
        return combine(a, g)
    need(a.budget_s > 0, "--budget-s", "a positive number of seconds")
    pats = [p for p in a.only.split(",") if p]
    runs = plan(g)
    names = [n for r in runs for n in r["cells"]]
    need(pats and all(any(fnmatch.fnmatchcase(n, p) for n in names) for p in pats), "--only",
         f"comma-separated glob patterns each matching a cell of the grid (e.g. {names[0]}, f32/d64/*)")
    need(os.access(a.atomlab, os.X_OK) or a.dry_run, "--atomlab", f"an atomlab binary ({a.atomlab} is none)")
    old = {"cells": []}
    if (a.merge or a.resume) and os.path.exists(a.out):
        try:
            with open(a.out) as f:
                old = json.load(f)
            assert isinstance(old["cells"], list)
        except (ValueError, KeyError, OSError, TypeError, AssertionError):
            raise Usage(f"--merge: -o names a shapes.json to merge into ({a.out} is not one)")
    done = {c.get("name") for c in old["cells"] if "skipped" not in c} if a.resume else set()
    for r in runs:
        r["cells"] = [n for n in r["cells"] if any(fnmatch.fnmatchcase(n, p) for p in pats) and n not in done]
        r["dists"] = [d for d in r["dists"] if f"{r['type']}/d{r['dim']}/v{r['targets']}/{dist_name(d)}" in r["cells"]]
    # the cells some goal names (not by "*" alone) first, then the cheapest a cell: a call cut short by --budget-s has
    # judged what it could and run as many cells as it could
    named = [p for k in g["goals"] for p in k["cells"] if p != "*"]
    runs = sorted((r for r in runs if r["cells"]), key=lambda r: (
        not any(fnmatch.fnmatchcase(n, p) for n in r["cells"] for p in named), run_cost(g, r) / len(r["cells"])))
    a.devices = device_list(a.devices) if a.devices else []
    need(a.devices is not None, "--devices", ALLOWED)
    if len(a.devices) > 1 and runs and not a.dry_run:
        return spread(a, g, runs)
    torch, why_no_torch = (None, "not run (--no-torch)") if a.no_torch or a.dry_run else import_torch()
    if torch is None and not (a.no_torch or a.dry_run):
        raise Usage(f"torch: importable with a CUDA device, or --no-torch ({why_no_torch})")
    return run_grid(a, g, runs, old, torch, why_no_torch)


def peers(torch, why_no_torch, g, r, c, idx_path, deadline, held):
    """Cell c's PyTorch fields: each op's ms on the dumped keys, torch_best, torch_notes."""
    c["torch"], c["torch_best"], c["torch_notes"] = {k: None for k in TORCH_OPS}, None, {}
    if torch is None:
        c["torch_notes"] = {"*": why_no_torch}
        return
    dt = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}.get(r["type"])
    if dt is None:
        c["torch_notes"] = {"*": f"no PyTorch op for {r['type']} values here"}
        return
    if held.get("key") != (r["type"], r["dim"]):
        held.clear()
        torch.cuda.empty_cache()
        held.update(key=(r["type"], r["dim"]), src=(torch.rand(g["rows"], r["dim"], device="cuda") + 0.5).to(dt))
    c["torch"], c["torch_notes"] = torch_cell(torch, g, c, held["src"], idx_path, deadline)
    timed = {k: v for k, v in c["torch"].items() if v is not None and k != "det_index_add_"}
    c["torch_best"] = min(timed, key=timed.get) if timed else None


def run_grid(a, g, runs, old, torch, why_no_torch):
    if not runs:
        log("nothing to run: every cell asked for is in the output")
    if a.scratch:
        os.makedirs(a.scratch, exist_ok=True)
        return grid_runs(a, g, runs, old, torch, why_no_torch)
    a.scratch = tempfile.mkdtemp(prefix="scatter-shapes-")
    try:
        return grid_runs(a, g, runs, old, torch, why_no_torch)
    finally:
        shutil.rmtree(a.scratch, ignore_errors=True)


def grid_runs(a, g, runs, old, torch, why_no_torch):
    doc = {"grid": os.path.relpath(os.path.abspath(a.grid), ROOT), "device": None, "tool": {"commit": None},
           "torch": torch.__version__ if torch else None, "torch_note": None if torch else why_no_torch,
           "torch_src": "random values of the cell's shape and dtype on the device; the keys are the app's (--dump)",
           "rows": g["rows"], "index": g["index"], "samples": g["samples"],
           "goals_note": "the goals are the grid file's, committed before any result of the grid; each is judged "
                         "over the cells present (a speed ratio: other ms / this ms)",
           "grid_commit": grid_commit(a.grid), "cells": [], "goals": []}
    mine = {n for r in runs for n in r["cells"]}
    kept_tool = (old.get("tool") or {}).get("commit")  # a kept cell without its own commit ran with its file's
    cells = [dict(c, tool=c.get("tool", kept_tool)) for c in old["cells"] if c.get("name") not in mine]
    doc.update(device=old.get("device"), tool={"commit": (old.get("tool") or {}).get("commit")})
    if torch is None and old.get("torch"):  # a merge without PyTorch keeps the version its cells were timed with
        doc.update(torch=old["torch"], torch_note=f"this call: {why_no_torch}")
    held, bad = {}, 0  # held: PyTorch's source of the last (type, dim), reused by its runs
    deadline = T0 + a.budget_s
    for i, r in enumerate(runs):
        left = deadline - time.monotonic()
        log(f"{i + 1}/{len(runs)} {r['type']} dim {r['dim']} targets {r['targets']} {','.join(r['dists'])} "
            f"({left:.0f} s of the budget left)")
        skip = fits(g, r, torch) if not a.dry_run else None
        if skip is None and left < 1:
            skip = "budget: --budget-s spent before this run"
        dump = None
        if skip is None and torch is not None:
            dump = tempfile.mkdtemp(prefix="dump-", dir=a.scratch)
            os.symlink(os.devnull, os.path.join(dump, f"src-{r['type']}.bin"))  # the keys alone are written
            for d in r["dists"]:
                os.symlink(os.devnull, os.path.join(dump, f"out-{d.split(':')[0]}.bin"))
        t_app = time.monotonic()
        got, why = run_app(a, g, r, dump, left) if skip is None else (None, skip)
        t_app = time.monotonic() - t_app
        if a.dry_run:
            continue
        for n, d in zip(r["cells"], r["dists"]):
            if got is None or (why and not complete(got[1], d, g)):
                cells.append(skipped_cell(n, g, r, d, why))
                log(f"  {n}: skipped: {why}")
                continue
            app_doc, rows = got
            doc["device"] = app_doc.get("device", {}).get("name") or doc["device"]
            doc["tool"]["commit"] = app_doc.get("tool", {}).get("commit") or doc["tool"]["commit"]
            c = dict({"name": n, "rows": g["rows"], "tool": app_doc.get("tool", {}).get("commit")},
                     **cell_from_rows(rows, r, d))
            t_torch = time.monotonic()
            idx_path = os.path.join(dump or "", f"idx-{d.split(':')[0]}.bin")
            peers(torch, why_no_torch, g, r, c, idx_path, deadline, held)
            c["ratios"] = ratios(c)
            # wall seconds: the app run (all of its cells) and this cell's PyTorch ops, to plan --only splits
            t_torch = round(time.monotonic() - t_torch, 1) if torch else None
            c["seconds"] = {"app_run": round(t_app, 1), "torch": t_torch}
            bad += not c["verified"]
            cells.append(c)
            log(f"  {n}: verified {c['verified']} auto {c['ms']['auto']} ms ({c['auto_variant']}), best "
                f"{c['best_variant']} {c['ms']['best']} ms, torch best {c['torch_best']}")
        if dump:
            shutil.rmtree(dump, ignore_errors=True)
        settle(doc, g, cells, doc["tool"]["commit"])
        write_atomic(a.out, doc)
        log(f"wrote {a.out} ({len(cells)} cells)")
    if a.dry_run:
        return 0
    if not runs:
        settle(doc, g, cells, doc["tool"]["commit"])
        write_atomic(a.out, doc)
    if a.figures:
        for p in figures(doc, a.figures):
            log(f"figure: {p}")
    for k in doc["goals"]:
        state = {True: "met", False: "MISSED", None: "not judged"}[k["met"]]
        by = "" if k["by"] is None else f" by {k['by']:+.3f}"
        log(f"goal {k['id']}: {state}{by} ({k['text']})")
    return 1 if bad else 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        sys.exit(main(sys.argv[1:]))
    except Usage as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    except Stopped as e:
        log(f"stopped by signal {e.sig}: {sys.argv[sys.argv.index('-o') + 1] if '-o' in sys.argv else '-o'} keeps "
            "the cells that ran")
        sys.exit(128 + e.sig)
