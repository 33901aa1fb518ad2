#!/usr/bin/env python3
"""The pre-registered validation of atomlab's diagnosis (experiments/diagnose-prereg.json: the rules, then the programs).

  diagnose_prereg.py check   [--programs FILE]                 the program list meets its own bounds (CPU)
  diagnose_prereg.py predict --atomlab BIN --out DIR [...]     each program under `atomlab profile` -> DIR/predictions.json
  diagnose_prereg.py measure --atomlab BIN --out DIR [...]     the op's own time and the advised call's -> DIR/measured.json
  diagnose_prereg.py score --out DIR                           measured.json against the rules -> DIR/summary.json (CPU)

predict and measure need a GPU with PyTorch, CuPy and Nsight Compute (the CUB program: atomlab built with its plugin,
the Triton ones: torch.compile). The rules are read from the program file, never written here.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAMS = os.path.join(ROOT, "experiments", "diagnose-prereg.json")

# Each op's body: `x`, `k` (keys), `w` (weights), `out` built by PRELUDE; the op runs under an NVTX range "op@file:line".
OPS = {
    "torch_histc": "torch.histc(kf, bins=P['bins'], min=0, max=1)",
    "torch_bincount": "torch.bincount(k, minlength=P['bins'])",
    "torch_bincount_w": "torch.bincount(k, weights=w, minlength=P['bins'])",
    "torch_index_add": "out.index_add_(0, k, x)",
    "torch_scatter_add": "out1.scatter_add_(0, k, w)",
    "torch_scatter_amax": "out1.scatter_reduce_(0, k, w, reduce='amax')",
    "torch_scatter_amin": "out1.scatter_reduce_(0, k, w, reduce='amin')",
    "torch_index_put": "out1.index_put_((k,), w, accumulate=True)",
    "torch_embedding_bwd": "emb(k).sum().backward()",
    "cupy_scatter_add": "cupyx.scatter_add(cout1, ck, cw)",
    "cupy_bincount_w": "cupy.bincount(ck, weights=cw, minlength=P['bins'])",
    "compiled_scatter_add": "compiled_scatter_add(out1, k, w)",
    "compiled_index_add": "compiled_index_add(out, k, x)",
}

PRELUDE = r'''
import json, sys, numpy as np, torch
sys.path.insert(0, HERE)
import atl_nvtx
P = json.loads(sys.argv[1]); MODE = sys.argv[2]
rng = np.random.Generator(np.random.PCG64(P["seed"]))
n = P.get("n", P.get("rows")); T = P.get("targets", P.get("bins"))
if P["dist"] == "hot": keys = np.zeros(n, np.int64)
elif P["dist"] == "zipf": keys = np.minimum(rng.zipf(1.1, n) - 1, T - 1).astype(np.int64)
else: keys = rng.integers(0, T, n, dtype=np.int64)
k = torch.from_numpy(keys).cuda(); w = torch.from_numpy(rng.random(n, dtype=np.float32)).cuda()
kf = (k.float() + 0.5) / T  # histc's input: the keys' bins as floats in [0, 1) (hot: all in bin 0)
D = P.get("dim", 1)
x = torch.ones(n, D, device="cuda") if "dim" in P else None
out = torch.zeros(T, D, device="cuda") if "dim" in P else None
out1 = torch.zeros(T, device="cuda")
if "embedding" in P["code"]:
    emb = torch.nn.Embedding(T, D).cuda()
if P["library"] == "cupy":
    import cupy, cupyx
    ck = cupy.asarray(keys); cw = cupy.asarray(w.cpu().numpy()); cout1 = cupy.zeros(T, cupy.float32)
if P["library"] == "triton":
    compiled_scatter_add = torch.compile(lambda o, k, w: o.scatter_add_(0, k, w))
    compiled_index_add = torch.compile(lambda o, k, x: o.index_add_(0, k, x))
torch.cuda.synchronize()
def run():
    with atl_nvtx.op(P["op"]):
        BODY
if MODE == "profile":
    run(); torch.cuda.synchronize()
else:
    for _ in range(3): run()
    torch.cuda.synchronize(); times = []
    for _ in range(20):
        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
        a.record(); run(); b.record(); b.synchronize(); times.append(a.elapsed_time(b))
    times.sort(); print(json.dumps({"median_ms": times[10], "iqr_ms": times[14] - times[5], "samples": 20}))
'''


def driver(prog, seed):
    """The program's Python driver: PRELUDE with its op's body."""
    if prog["code"] == "atomlab_cub_histogram":
        return None
    body = OPS[prog["code"]]
    return PRELUDE.replace("HERE", repr(HERE)).replace("BODY", body), dict(prog["input"], seed=seed, code=prog["code"],
                                                                              library=prog["library"], op=prog["op"])


def cub_command(atomlab, prog):
    """The CUB program: atomlab's histogram app with the plugin's cub::DeviceHistogram variant."""
    dist = {"hot": "solid", "uniform": "uniform"}[prog["input"]["dist"]]
    return [atomlab, "app", "histogram", "--backend", "cuda", "--input", "u8", "--dist", dist, "--variants", "cub"]


def pick(rows, op):
    """The row the program's op launched (its NVTX source), else the longest with atomics."""
    mine = [r for r in rows if r["config"].get("source", "").startswith(op.split(".")[-1])
            or op in r["config"].get("source", "")]
    pool = [r for r in (mine or rows) if r["config"].get("verdict") not in ("no atomics", None)]
    dur = lambda r: next((m["value"] for m in r["metrics"] if m["name"] == "duration_us"), 0)
    return max(pool, key=dur) if pool else None


def metric(row, name):
    return next((m["value"] for m in row["metrics"] if m["name"] == name), None)


def predict(args, doc):
    out = []
    for prog in doc["programs"]:
        with tempfile.TemporaryDirectory() as tmp:
            d = driver(prog, doc["seed"])
            if d is None:
                cmd = cub_command(args.atomlab, prog)
            else:
                path = os.path.join(tmp, "prog.py")
                open(path, "w").write(d[0])
                cmd = [sys.executable, path, json.dumps(d[1]), "profile"]
            diag = os.path.join(tmp, "diagnosis.json")
            prof = [args.atomlab, "profile", "--diagnosis", diag, "--save-counters", os.path.join(args.out, prog["id"] + ".csv")]
            prof += args.profile_args + ["--"] + cmd
            rc = subprocess.run(prof, stdout=open(os.path.join(args.out, prog["id"] + ".txt"), "w"), stderr=subprocess.STDOUT).returncode
            rows = json.load(open(diag))["rows"] if rc == 0 and os.path.exists(diag) else []
        r = pick(rows, prog["op"])
        c = r["config"] if r else {}
        out.append({"id": prog["id"], "library": prog["library"], "op": prog["op"], "program": prog["code"],
                    "input": prog["input"], "verdict": c.get("verdict", "failed (exit %d)" % rc), "kernel": c.get("kernel"),
                    "advice": {"strategy": c.get("strategy"), "call": c.get("call"), "kind": c.get("speedup_kind")},
                    "predicted_speedup": metric(r, "speedup") if r else None})
    json.dump({"rules": doc["rules"], "kernels": out}, open(os.path.join(args.out, "predictions.json"), "w"), indent=1)


# The op family's atomlab calls (src/profile/diagnose.c's op_calls: the hot call and the spread call), by the
# program's op: the verdict is scored against the best of them where the advised call is one no app runs.
FAMILY_CALLS = {"histc": ["atl_scatter_add bins"], "bincount": ["atl_scatter_add bins"],
                "bincount_weighted": ["atl_scatter_add bins"],
                "scatter_reduce_amax": ["atl_scatter_reduce max"], "scatter_reduce_amin": ["atl_scatter_reduce min"]}
SCATTER_FAMILY = ["atl_scatter_add block", "atl_scatter_add auto"]
APP_SECONDS = 120


def app_args(call, prog):
    """The atomlab app that runs an advised call on the program's sizes, distribution, key and value types; None
    where none does."""
    i = prog["input"]
    dist = {"hot": "hot", "uniform": "uniform", "zipf": "zipf"}[i["dist"]]
    n, t = i.get("n", i.get("rows")), i.get("targets", i.get("bins"))
    sizes = ["--backend", "cuda", "--rows", str(n), "--targets", str(t), "--dim", str(i.get("dim", 1)), "--dist", dist]
    if call.startswith("atl_scatter_reduce"):
        return None if dist == "zipf" else ["app", "scatter-reduce"] + sizes + ["--type", "f32", "--reduce", call.split()[-1]]
    value = "u32" if prog["op"] == "bincount" else "f32"  # unweighted bincount counts integers
    table = {"atl_scatter_add bins": ["--variants", "bins"], "atl_scatter_add block": ["--variants", "block"],
             "atl_scatter_add auto": ["--variants", "auto"]}
    return ["app", "scatter"] + sizes + ["--type", value, "--index", "i64"] + table[call] if call in table else None


def app_ms(atomlab, a):
    """The app's median device time per launch over its verified rows; None where it failed or did not verify."""
    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, "r.json")
        try:
            rc = subprocess.run([atomlab] + a + ["-o", res, "--quiet"], timeout=APP_SECONDS).returncode
        except subprocess.TimeoutExpired:
            return None
        if rc != 0 or not os.path.exists(res):
            return None
        rows = [r for r in json.load(open(res))["rows"] if r.get("verified")  # the call's rows, not the ceilings'
                and not r["config"].get("variant", "").endswith("-ceiling")]
        return min((r["time_ms"]["median"] for r in rows), default=None)


def own_time(prog, seed):
    d = driver(prog, seed)
    if not d:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "prog.py")
        open(path, "w").write(d[0])
        try:
            r = subprocess.run([sys.executable, path, json.dumps(d[1]), "time"], capture_output=True, text=True,
                               timeout=APP_SECONDS)
        except subprocess.TimeoutExpired:
            return None
        return json.loads(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 else None


def measure_one(args, rules, prog, p):
    call = (p.get("advice") or {}).get("call")
    own = own_time(prog, args.seed)
    calls = FAMILY_CALLS.get(prog["op"], SCATTER_FAMILY)
    times = {}
    for c in ([call] if call else []) + calls:
        a = app_args(c, prog)
        if a and c not in times:
            times[c] = {"args": a, "ms": app_ms(args.atomlab, a)}
    speed = lambda c: own["median_ms"] / times[c]["ms"] if own and c in times and times[c]["ms"] else None
    advised = speed(call) if call else None
    family = [s for s in (speed(c) for c in calls) if s is not None]
    v = p.get("verdict")
    scored = advised if advised is not None else (max(family) if family else None)
    correct = None if scored is None or v not in ("bottleneck", "not a bottleneck") else \
        ((scored >= 1.5) == (v == "bottleneck"))
    return {"id": prog["id"], "verdict": v, "verdict_correct": correct, "measured_speedup": advised,
            "predicted_speedup": p.get("predicted_speedup"), "speedup_kind": (p.get("advice") or {}).get("kind"),
            "evidence": {"kernel_time": own, "advised_call": call, "calls": times,
                         "family_best_speedup": max(family) if family else None, "rule": rules["faster"]}}


def measure(args, doc):
    """Each predicted program's own time and its atomlab calls', written after every program."""
    preds = {k["id"]: k for k in json.load(open(os.path.join(args.out, "predictions.json")))["kernels"]}
    args.seed = doc["seed"]
    path = os.path.join(args.out, "measured.json")
    out = json.load(open(path))["kernels"] if os.path.exists(path) else []
    done = {k["id"] for k in out}
    for prog in doc["programs"]:
        if prog["id"] in done or prog["id"] not in preds or args.only and prog["id"] not in args.only:
            continue
        out.append(measure_one(args, doc["rules"], prog, preds[prog["id"]]))
        tmp = path + ".part"
        json.dump({"kernels": out}, open(tmp, "w"), indent=1)
        os.replace(tmp, path)
        print(prog["id"], out[-1]["verdict_correct"], out[-1]["measured_speedup"], flush=True)


def score(args, doc):
    """measured.json against the rules' success line: verdicts right, speedups within 2x, floors held (CPU)."""
    preds = {k["id"]: k for k in json.load(open(os.path.join(args.out, "predictions.json")))["kernels"]}
    meas = json.load(open(os.path.join(args.out, "measured.json")))["kernels"]
    scored = [k for k in meas if k["verdict_correct"] is not None]
    bottlenecks = [k for k in preds.values() if k["verdict"] == "bottleneck"]
    with_speedup = [k for k in bottlenecks if k["predicted_speedup"] is not None]
    pairs = [(k["predicted_speedup"], k["measured_speedup"], k["speedup_kind"]) for k in meas
             if k["predicted_speedup"] is not None and k["measured_speedup"] is not None]
    predicted = [(p, m) for p, m, kind in pairs if kind == "predicted"]
    floors = [(p, m) for p, m, kind in pairs if kind == "floor"]
    errors = sorted(abs(p / m - 1) for p, m in predicted)
    frac = lambda good, n: round(good / n, 3) if n else None
    out = {"predicted": len(preds), "measured": len(meas), "verdicts_scored": len(scored),
           "verdicts_right": frac(sum(k["verdict_correct"] for k in scored), len(scored)),
           "bottlenecks": len(bottlenecks), "bottlenecks_with_speedup": len(with_speedup),
           "speedups_measured": len(predicted), "speedups_within_2x": frac(sum(0.5 <= p / m <= 2 for p, m in predicted), len(predicted)),
           "median_speedup_error": errors[len(errors) // 2] if errors else None,
           "floors_measured": len(floors), "floors_held": frac(sum(m >= 0.9 * p for p, m in floors), len(floors)),
           "fixes_faster": frac(sum(m >= 1.5 for p, m, _ in pairs), len(pairs)), "fixes_measured": len(pairs)}
    rules_pass = (out["verdicts_right"] or 0) >= 0.8 and (out["speedups_within_2x"] or 0) >= 0.7 and \
        (out["floors_held"] or 0) >= 0.9
    out["success_by_the_rules"] = rules_pass
    json.dump(out, open(os.path.join(args.out, "summary.json"), "w"), indent=1)
    print(json.dumps(out, indent=1))


def check(doc):
    progs = doc["programs"]
    fams = {p["op"] for p in progs}
    libs = {p["library"] for p in progs}
    dists = {}
    for p in progs:
        dists.setdefault((p["library"], p["op"]), set()).add(p["input"]["dist"])
    bad = [k for k, v in dists.items() if len(v) < 2]
    unknown = [p["code"] for p in progs if p["code"] not in OPS and p["code"] != "atomlab_cub_histogram"]
    ok = len(progs) >= 25 and len(libs) >= 4 and len(fams) >= 5 and not bad and not unknown and "rules" in doc
    print(f"{len(progs)} programs, {len(libs)} libraries, {len(fams)} op families; "
          f"single-distribution: {bad or 'none'}; unknown code: {unknown or 'none'}")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["check", "predict", "measure", "score"])
    ap.add_argument("--programs", default=PROGRAMS)
    ap.add_argument("--only", nargs="*", default=[], help="measure: only these program ids")
    ap.add_argument("--atomlab", default=os.path.join(ROOT, "build", "atomlab"))
    ap.add_argument("--out", default="prereg-out")
    ap.add_argument("--profile-args", nargs=argparse.REMAINDER, default=[],
                    help="passed to atomlab profile (the L2 calibration: --l2-same, --l2-spread, --same-f32, ...)")
    args = ap.parse_args()
    doc = json.load(open(args.programs))
    if args.mode == "check":
        return check(doc)
    os.makedirs(args.out, exist_ok=True)
    {"predict": predict, "measure": measure, "score": score}[args.mode](args, doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
