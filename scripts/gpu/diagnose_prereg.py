#!/usr/bin/env python3
"""The pre-registered validation of atomlab's diagnosis (experiments/diagnose-prereg.json: the rules, then the programs).

  diagnose_prereg.py check   [--programs FILE]                 the program list meets its own bounds (CPU)
  diagnose_prereg.py predict --atomlab BIN --out DIR [...]     each program under `atomlab profile` -> DIR/predictions.json
  diagnose_prereg.py measure --atomlab BIN --out DIR [...]     the op's own time and the advised call's -> DIR/measured.json
  diagnose_prereg.py score --out DIR                           measured.json against the rules -> DIR/summary.json (CPU)
  diagnose_prereg.py replay --exports D --measured F --out DIR a run's exports diagnosed again, judged against its
                                                               recorded times -> DIR/replayed.json (CPU; not a validation)

predict and measure need a GPU with PyTorch, CuPy and Nsight Compute (the CUB program: atomlab built with its plugin,
the Triton ones: torch.compile). The rules are read from the program file, never written here.

Each program is one entry, written to its JSON file as soon as it is done (through a temporary name, other keys of
the file kept); a program that fails or runs past its time is recorded as such and the next one runs. A later call
skips the recorded ones (--retry-failed runs the failed ones again), so --budget S splits the work over calls of
bounded length. predict keeps per program in DIR: ID.py (the driver), ID.csv (ncu's raw export, as `atomlab profile
--save-counters` writes it), ID.diagnosis.json (the rows) and ID.txt (what profile printed). measure writes the
summary against the rules' success into measured.json and DIR/summary.txt, the issue's goals beside it.
"""
import argparse
import gzip
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # its neighbours, also where it is loaded as a module by path
from gpus import ALLOWED, device_list  # noqa: E402

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
    "torch_embedding_bwd_only": "y.backward(retain_graph=True)",  # the forward (y) runs before, outside the range
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
elif P["dist"] == "zipf" and P.get("zipf_law") == "truncated":  # the app's law: rank r ~ 1/(r+1)^1.1 over T keys
    pz = 1.0 / np.arange(1, T + 1, dtype=np.float64) ** 1.1; keys = rng.choice(T, n, p=pz / pz.sum()).astype(np.int64)
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
    y = emb(k).sum() if P["code"] == "torch_embedding_bwd_only" else None
if P["library"] == "cupy":
    import cupy, cupyx
    ck = cupy.asarray(keys); cw = cupy.asarray(w.cpu().numpy()); cout1 = cupy.zeros(T, cupy.float32)
if P["library"] == "triton":
    compiled_scatter_add = torch.compile(lambda o, k, w: o.scatter_add_(0, k, w))
    compiled_index_add = torch.compile(lambda o, k, x: o.index_add_(0, k, x))
torch.cuda.synchronize()
def run():
    with atl_nvtx.op(P["op"], across_threads=P.get("nvtx") == "push+start"):
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


def driver(prog, seed, settings=None):
    """The program's Python driver: PRELUDE with its op's body, and its parameters (with the program file's "driver"
    settings: zipf_law "truncated" for the app's law, nvtx "push+start" for ranges across threads); None for the CUB
    program."""
    if prog["code"] == "atomlab_cub_histogram":
        return None
    body = OPS[prog["code"]]
    return PRELUDE.replace("HERE", repr(HERE)).replace("BODY", body), dict(prog["input"], seed=seed, code=prog["code"],
                                                                              library=prog["library"], op=prog["op"],
                                                                              **(settings or {}))


def cub_command(atomlab, prog, variant="cub"):
    """The CUB program: atomlab's histogram app with the plugin's cub::DeviceHistogram variant on the program's bytes
    (@p variant: another of the app's variants on the same bytes)."""
    dist = {"hot": "solid", "uniform": "uniform"}[prog["input"]["dist"]]
    return [atomlab, "app", "histogram", "--backend", "cuda", "--input", "u8", "--dist", dist,
            "--bytes", str(prog["input"]["n"]), "--variants", variant]


# The CUDA device of the calling worker thread (--devices): every process it starts sees that device alone.
DEVICE = threading.local()
# SIGTERM or SIGINT: no program starts, the process groups running are stopped, the program they ran is not recorded
# (a later call runs it); LIVE holds those groups.
STOP, LIVE, LIVE_LOCK = threading.Event(), set(), threading.Lock()


def on_signal(sig, _frame):
    STOP.sig = sig
    STOP.set()
    with LIVE_LOCK:
        groups = list(LIVE)
    for g in groups:
        try:
            os.killpg(g, signal.SIGKILL)
        except ProcessLookupError:
            pass


def run(cmd, timeout, out=None):
    """Runs @p cmd within @p timeout seconds, stdout and stderr to the file @p out (else stdout captured): (exit
    status, stdout text). A run past its time is stopped with everything it started (its own process group: ncu and
    the program under it) and gives 124; a program that cannot start gives 127: recorded, never raised."""
    f = open(out, "w") if out else None
    dev = getattr(DEVICE, "id", None)
    env = dict(os.environ, CUDA_VISIBLE_DEVICES=dev) if dev is not None else None
    try:
        p = subprocess.Popen(cmd, stdout=f or subprocess.PIPE, stderr=subprocess.STDOUT if f else subprocess.DEVNULL,
                             text=True, preexec_fn=os.setsid, env=env)  # its own process group
    except OSError as e:
        if f:
            f.close()
        return 127, str(e)
    with LIVE_LOCK:
        LIVE.add(p.pid)
    if STOP.is_set():  # a signal between the start and the line above
        os.killpg(p.pid, signal.SIGKILL)
    try:
        text, _ = p.communicate(timeout=timeout)
        return p.returncode, text or ""
    except subprocess.TimeoutExpired:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(p.pid, sig)
                p.wait(timeout=10)
                break
            except (ProcessLookupError, subprocess.TimeoutExpired):
                continue
        p.communicate()
        return 124, ""
    finally:
        with LIVE_LOCK:
            LIVE.discard(p.pid)
        if f:
            f.close()


def load(path, key=None):
    """The JSON file @p path (its @p key), {} or [] where there is none or it cannot be read."""
    try:
        with open(path) as f:
            doc = json.load(f)
        return doc.get(key, []) if key else doc
    except (OSError, ValueError, AttributeError):
        return [] if key else {}


def save(path, doc):
    """Writes @p doc through a temporary name: a run stopped mid-write leaves the previous file whole."""
    tmp = path + ".part"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, path)


def metric(row, name):
    return next((m["value"] for m in row.get("metrics", []) if m["name"] == name), None) if row else None


def pick(rows, prog):
    """The row the program's op launched (its NVTX source), else the longest with atomics (for CUB: its own
    kernels); where none has atomics, the op's longest ("no atomics")."""
    op = prog["op"]
    mine = [r for r in rows if r["config"].get("source", "").startswith(op.split(".")[-1] + "@")
            or r["config"].get("source", "").startswith(op + "@")]
    if not mine and prog["library"] == "cub":
        mine = [r for r in rows if "DeviceHistogram" in r["config"].get("kernel", "")]
    pool = [r for r in (mine or rows) if r["config"].get("verdict") not in ("no atomics", None)] or mine or rows
    return max(pool, key=lambda r: metric(r, "duration_us") or 0) if pool else None


def kernel_share(rows, row):
    """The launch @p row's share of its op's ncu duration (the launches of its NVTX range; a CUB launch, which has
    none: the DeviceHistogram launches'); None where unknown."""
    src = row["config"].get("source", "") if row else ""
    cub = not src and row and "DeviceHistogram" in row["config"].get("kernel", "")
    same = [metric(r, "duration_us") for r in rows if (src and r["config"].get("source") == src)
            or (cub and "DeviceHistogram" in r["config"].get("kernel", ""))]
    if not same or any(d is None for d in same) or not sum(same):
        return None
    return metric(row, "duration_us") / sum(same)


def prediction_of(rows, prog, failed=None):
    """The program's prediction from its diagnosis rows (the launch pick names): verdict (@p failed without a
    row), kernel, advice, predicted speedup and the kernel's share of its op."""
    r = pick(rows, prog)
    c = r["config"] if r else {}
    return {"verdict": c.get("verdict", failed), "kernel": c.get("kernel"),
            "advice": {"strategy": c.get("strategy"), "call": c.get("call"), "kind": c.get("speedup_kind"),
                       "op_call": c.get("op_call"), "source": c.get("source"), "access": c.get("access"),
                       "finding": c.get("finding")},
            "predicted_speedup": metric(r, "speedup"), "kernel_share": kernel_share(rows, r)}


def predict_one(args, doc, prog):
    """One program under `atomlab profile`: its files in the output folder and its prediction."""
    base = os.path.join(args.out, prog["id"])
    d = driver(prog, doc["seed"], doc.get("driver"))
    extra = []
    if d is None:  # the app's own launches and checks are not the program: CUB's kernels only, few samples
        cmd = cub_command(args.atomlab, prog) + ["--samples", "2"]
        extra = ["--kernel", "DeviceHistogram"]
    else:
        with open(base + ".py", "w") as f:
            f.write(d[0])
        cmd = [args.python, base + ".py", json.dumps(d[1]), "profile"]
        if prog["code"].startswith("compiled_"):
            # One run outside ncu first: torch.compile's kernels then come from inductor's on-disk cache, so the
            # profiled run launches the op's kernels, not the compiler's (which alone outlast the profile's timeout).
            run(cmd, args.timeout, out=os.devnull)
    diag = base + ".diagnosis.json"
    for stale in (diag, base + ".csv"):
        if os.path.exists(stale):
            os.remove(stale)
    given = args.profile_args.index("--timeout") if "--timeout" in args.profile_args[:-1] else -1
    limit = float(args.profile_args[given + 1]) if given >= 0 else args.timeout  # profile takes --timeout once
    prof = [args.atomlab, "profile", "--diagnosis", diag, "--save-counters", base + ".csv"] + extra + \
        (["--timeout", str(args.timeout)] if given < 0 else []) + args.profile_args + ["--"] + cmd
    rc, _ = run(prof, limit + min(limit, 120), out=base + ".txt")  # profile's own bound stops ncu first
    rows = load(diag, "rows")  # a profile that exits 1 for a table it could not print still wrote the diagnosis
    failed = "failed (%s)" % ("timed out" if rc == 124 else "exit %d" % rc if rc else "no diagnosis rows")
    return dict({"id": prog["id"], "library": prog["library"], "op": prog["op"], "program": prog["code"],
                 "input": prog["input"]}, **prediction_of(rows, prog, failed), profile_exit=rc,
                files={"export": prog["id"] + ".csv", "diagnosis": prog["id"] + ".diagnosis.json",
                       "output": prog["id"] + ".txt"})


def each_program(args, progs, work, record, what):
    """work(prog) for each of @p progs, one program at a time on each device of --devices (a worker thread per
    device; the processes it starts see that device alone), record(prog, result) called under one lock as each ends.
    No program starts once --budget seconds have passed (the first one always does): a later call goes on."""
    queue, lock, start, late = list(progs), threading.Lock(), time.monotonic(), []

    def worker(dev):
        DEVICE.id = dev
        while True:
            with lock:
                if not queue or late or STOP.is_set():
                    return
                if args.budget and time.monotonic() - start > args.budget and len(queue) < len(progs):
                    late.append(True)
                    print(f"{what}: the budget of {args.budget:g} s is spent: the rest on the next call (done ones "
                          "are kept)", flush=True)
                    return
                prog = queue.pop(0)
            result = work(prog)
            with lock:
                if not STOP.is_set():  # a program the signal stopped is not recorded: a later call runs it
                    record(prog, result)

    threads = [threading.Thread(target=worker, args=(d,)) for d in (args.devices or [None])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def todo(args, prog, done, failed):
    """Whether a call runs @p prog: not recorded (or recorded as failed, with --retry-failed), and asked for."""
    if args.only and prog["id"] not in args.only:
        return False
    return prog["id"] not in done or (args.retry_failed and failed(done[prog["id"]]))


def predict(args, doc):
    """Every program not yet predicted, predictions.json rewritten after each (its other keys kept)."""
    path = os.path.join(args.out, "predictions.json")
    keep = load(path) or {}
    done = {k["id"]: k for k in keep.get("kernels", [])}
    order = [p["id"] for p in doc["programs"]]

    def record(prog, result):
        done[prog["id"]] = result
        print(f"{prog['id']}: {result['verdict']}", flush=True)
        save(path, dict(keep, rules=doc["rules"], kernels=[done[i] for i in order if i in done]))

    failed = lambda k: str(k.get("verdict", "")).startswith("failed")  # noqa: E731
    each_program(args, [p for p in doc["programs"] if todo(args, p, done, failed)],
                 lambda prog: predict_one(args, doc, prog), record, "predict")


# The op family's atomlab calls (src/profile/diagnose.c's op_calls: the hot call and the spread call), by the
# program's op: the verdict is scored against the best of them where the advised call is one no app runs.
FAMILY_CALLS = {"histc": ["atl_scatter_add bins"], "bincount": ["atl_scatter_add bins"],
                "bincount_weighted": ["atl_scatter_add bins"],
                "scatter_reduce_amax": ["atl_scatter_reduce max"], "scatter_reduce_amin": ["atl_scatter_reduce min"],
                "histogram": ["atl_app_histogram block16", "atl_app_histogram auto"]}
SCATTER_FAMILY = ["atl_scatter_add block", "atl_scatter_add auto"]
APP_SECONDS = 120
FASTER = 1.5  # the rules' "faster": an atomlab call is faster where measured_speedup >= 1.5


def app_args(call, prog):
    """The atomlab app that runs an advised call on the program's sizes, distribution, key and value types; None
    where none does."""
    i = prog["input"]
    if call.startswith("atl_app_histogram"):  # the byte histogram's own app on the program's bytes
        return cub_command("", prog, call.split()[-1])[1:] if prog["library"] == "cub" else None
    dist = {"hot": "hot", "uniform": "uniform", "zipf": "zipf"}[i["dist"]]
    n, t = i.get("n", i.get("rows")), i.get("targets", i.get("bins"))
    sizes = ["--backend", "cuda", "--rows", str(n), "--targets", str(t), "--dim", str(i.get("dim", 1)), "--dist", dist]
    if call.startswith("atl_scatter_reduce"):
        return None if dist == "zipf" else ["app", "scatter-reduce"] + sizes + ["--type", "f32", "--reduce", call.split()[-1]]
    value = "u32" if prog["op"] == "bincount" else "f32"  # unweighted bincount counts integers
    table = {"atl_scatter_add bins": ["--variants", "bins"], "atl_scatter_add block": ["--variants", "block"],
             "atl_scatter_add auto": ["--variants", "auto"]}
    return ["app", "scatter"] + sizes + ["--type", value, "--index", "i64"] + table[call] if call in table else None


def app_ms(args, a):
    """The app's median device time per launch over its verified rows of the call (not the ceilings'), and the state:
    verified, unverified (rows that failed their check: not faster, by the rules) or failed (no row)."""
    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, "r.json")
        rc, _ = run([args.atomlab] + a + ["-o", res, "--quiet"], APP_SECONDS)
        rows = [r for r in load(res, "rows") if r.get("status") == "ok"
                and not r["config"].get("variant", "").endswith("-ceiling")]
        ok = [r["time_ms"]["median"] for r in rows if r.get("verified")]
        return (min(ok), "verified") if ok else (None, "unverified" if rows else "failed (exit %d)" % rc)


def own_time(args, prog, seed):
    """The op's CUDA-event time as its driver measures it (the CUB program, which has no driver: the histogram app's
    median device time of its cub variant, verified), or None."""
    d = driver(prog, seed, args.driver)
    if not d:
        ms, state = app_ms(args, cub_command(args.atomlab, prog)[1:])
        return {"median_ms": ms, "iqr_ms": None, "samples": None, "from": "app histogram --variants cub"} \
            if ms and state == "verified" else None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "prog.py")
        with open(path, "w") as f:
            f.write(d[0])
        rc, text = run([args.python, path, json.dumps(d[1]), "time"], APP_SECONDS)
        try:
            return json.loads(text.strip().splitlines()[-1]) if rc == 0 else None
        except (ValueError, IndexError):
            return None


def export_of(folder, pid):
    """A program's kept raw export in @p folder: ID.csv, ID.csv.gz (as the reference plan gzips it) or
    counters/ID.csv.gz; None where none is."""
    paths = [os.path.join(folder, pid + e) for e in (".csv", ".csv.gz")] + \
        [os.path.join(folder, "counters", pid + ".csv.gz")]
    return next((b for b in paths if os.path.exists(b)), None)


def unpack(path, to):
    """@p path (gzipped where it ends in .gz) as plain text at @p to."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f, open(to, "w") as g:
        g.write(f.read())


def write_summary(folder, s):
    """The summary's text into DIR/summary.txt and on stdout."""
    text = summary_text(s)
    with open(os.path.join(folder, "summary.txt"), "w") as f:
        f.write(text)
    print(text, end="")


def share_of(args, prog, p):
    """The named kernel's share of its op's ncu duration (the rules' kernel_time): the prediction's, else from the
    program's kept raw export (DIR/ID.csv, DIR/ID.csv.gz as the reference plan gzips it, or DIR/counters/ID.csv.gz)
    diagnosed again; None where unknown."""
    if p.get("kernel_share") is not None:
        return p["kernel_share"]
    path = export_of(args.out, prog["id"])
    if not path or not p.get("kernel"):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        csv, diag = os.path.join(tmp, "e.csv"), os.path.join(tmp, "d.json")
        unpack(path, csv)
        run([args.atomlab, "profile", "--counters", csv, "--diagnosis", diag], APP_SECONDS)
        rows = load(diag, "rows")
    named = [r for r in rows if r["config"].get("kernel") == p["kernel"]]
    return kernel_share(rows, max(named, key=lambda r: metric(r, "duration_us") or 0)) if named else None


def call_faster(p):
    """A "not a bottleneck" whose family's atomlab call is predicted faster (the diagnosis's finding "call faster":
    the op is slow for reasons other than the atomic units): judged like a bottleneck, by the advised call."""
    return (p.get("advice") or {}).get("finding") == "call faster"


def judge(rules, prog, p, own, frac, times):
    """One program's entry of measured.json from its times: the kernel's (the op's median x the named kernel's share),
    the apps' per call; the verdict scored by the advised call where an app ran it, else by the family's best."""
    call = (p.get("advice") or {}).get("call")
    kernel_ms = own["median_ms"] * (frac or 1) if own else None  # the whole op's time where the share is unknown
    calls = FAMILY_CALLS.get(prog["op"], SCATTER_FAMILY)

    def speed(c):  # an unverified row is not faster: 0
        t = times.get(c)
        if not kernel_ms or not t:
            return None
        return kernel_ms / t["ms"] if t["ms"] else 0.0 if t.get("state") == "unverified" else None

    advised = speed(call) if call else None
    family = [s for s in (speed(c) for c in calls) if s is not None]
    v = p.get("verdict")
    scored = advised if advised is not None else (max(family) if family else None)
    claims = v == "bottleneck" or call_faster(p)  # the advised call is faster: a bottleneck, or an op slow otherwise
    correct = None if scored is None or v not in ("bottleneck", "not a bottleneck") else ((scored >= FASTER) == claims)
    return {"id": prog["id"], "verdict": v, "verdict_correct": correct, "measured_speedup": advised,
            "predicted_speedup": p.get("predicted_speedup"), "speedup_kind": (p.get("advice") or {}).get("kind"),
            "finding": (p.get("advice") or {}).get("finding"),
            "evidence": {"kernel_time": own, "kernel_share": frac, "kernel_ms": kernel_ms, "advised_call": call,
                         "calls": times, "family_best_speedup": max(family) if family else None,
                         "rule": rules["faster"]}}


def measure_one(args, rules, prog, p):
    call = (p.get("advice") or {}).get("call")
    own = own_time(args, prog, args.seed)
    frac = share_of(args, prog, p) if own else None
    times = {}
    for c in ([call] if call else []) + FAMILY_CALLS.get(prog["op"], SCATTER_FAMILY):
        a = app_args(c, prog)
        if a and c not in times:
            ms, state = app_ms(args, a)
            times[c] = {"args": a, "ms": ms, "state": state}
    return judge(rules, prog, p, own, frac, times)


def measure(args, doc):
    """Each predicted program's own time and its atomlab calls', measured.json (with the summary) written after every
    program."""
    preds = {k["id"]: k for k in load(os.path.join(args.out, "predictions.json"), "kernels")}
    args.seed, args.driver = doc["seed"], doc.get("driver")
    path = os.path.join(args.out, "measured.json")
    done = {k["id"]: k for k in load(path, "kernels")}
    order = [p["id"] for p in doc["programs"]]

    def record(prog, result):
        done[prog["id"]] = result
        kernels = [done[i] for i in order if i in done]
        save(path, {"kernels": kernels, "summary": summary(kernels)})
        print(prog["id"], result["verdict_correct"], result["measured_speedup"], flush=True)

    unscored = lambda k: k.get("verdict_correct") is None  # noqa: E731
    each_program(args, [p for p in doc["programs"] if p["id"] in preds and todo(args, p, done, unscored)],
                 lambda prog: measure_one(args, doc["rules"], prog, preds[prog["id"]]), record, "measure")
    text = summary_text(summary([done[i] for i in order if i in done]))
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(text)
    print(text, end="")


def share(hits, total):
    return {"count": hits, "of": total, "share": hits / total if total else None}


def summary(kernels):
    """The measured kernels against the rules' success (their pre-registered criteria) and, apart, the issue's goals."""
    scored = [k for k in kernels if k["verdict_correct"] is not None]
    pairs = [k for k in kernels if k["measured_speedup"] and k.get("predicted_speedup")]
    pred = [k for k in pairs if k.get("speedup_kind") == "predicted"]
    floor = [k for k in pairs if k.get("speedup_kind") == "floor"]
    out = {"verdicts": share(sum(1 for k in scored if k["verdict_correct"]), len(scored)),
           "predicted_within_2x": share(sum(1 for k in pred if 0.5 <= k["predicted_speedup"] / k["measured_speedup"]
                                            <= 2), len(pred)),
           "floors_hold": share(sum(1 for k in floor if k["measured_speedup"] >= 0.9 * k["predicted_speedup"]),
                                len(floor))}
    goal = {"verdicts": 0.8, "predicted_within_2x": 0.7, "floors_hold": 0.9}  # the rules' "success"
    out["success"] = all(out[g]["share"] is not None and out[g]["share"] >= t for g, t in goal.items())
    bad = [k for k in kernels if k.get("verdict") == "bottleneck"]
    advised = [k for k in bad + [k for k in kernels if k.get("finding") == "call faster"]
               if k["measured_speedup"] is not None]
    errors = sorted(abs(k["predicted_speedup"] / k["measured_speedup"] - 1) for k in pairs)
    out["issue_goals"] = {  # reported beside the rules, which decide success
        "verdicts": share(sum(1 for k in scored if k["verdict_correct"]), len(scored)),
        "bottlenecks_with_speedup": share(sum(1 for k in bad if k.get("predicted_speedup")), len(bad)),
        "median_abs_error": errors[len(errors) // 2] if errors else None,
        "advised_faster": share(sum(1 for k in advised if k["measured_speedup"] >= FASTER), len(advised))}
    return out


def summary_text(s):
    f = lambda x: "n/a" if x["share"] is None else f"{x['count']}/{x['of']} ({100 * x['share']:.0f}%)"
    g = s["issue_goals"]
    return (f"rules: verdicts correct {f(s['verdicts'])} (>= 80%); predicted speedups within 2x "
            f"{f(s['predicted_within_2x'])} (>= 70%); floors holding {f(s['floors_hold'])} (>= 90%): "
            f"{'success' if s['success'] else 'not met'}\n"
            f"issue goals: verdicts {f(g['verdicts'])} (>= 90%); bottlenecks with a speedup "
            f"{f(g['bottlenecks_with_speedup'])} (all); median |predicted/measured - 1| {g['median_abs_error']} "
            f"(<= 0.25); advised fixes faster {f(g['advised_faster'])} (>= 90%)\n")


def score(args, doc):
    """measured.json judged again from its recorded times (CPU): the kernel's share taken from the kept exports where
    the measurement did not record it; then the summary against the rules and the issue's goals."""
    preds = {k["id"]: k for k in load(os.path.join(args.out, "predictions.json"), "kernels")}
    progs = {p["id"]: p for p in doc["programs"]}
    path = os.path.join(args.out, "measured.json")
    whole = load(path)
    kernels = []
    for k in whole["kernels"]:
        prog, p, ev = progs[k["id"]], preds[k["id"]], k["evidence"]
        frac = ev["kernel_share"] if "kernel_share" in ev else share_of(args, prog, p)
        kernels.append(judge(doc["rules"], prog, p, ev["kernel_time"], frac, ev["calls"]))
    save(path, dict(whole, kernels=kernels, summary=summary(kernels)))
    write_summary(args.out, summary(kernels))


def replay(args, doc):
    """The kept exports of a run (--exports: ID.csv.gz or ID.csv, and dram.csv.gz where the run passed --dram)
    diagnosed again by this atomlab on the CPU, judged against the run's recorded times (--measured): what a change
    of the diagnosis does on data already measured. Not a validation: the change was made knowing these times.
    Writes DIR/replayed.json and DIR/summary.txt."""
    rec = {k["id"]: k for k in load(args.measured, "kernels")}
    progs = {p["id"]: p for p in doc["programs"]}
    dram = os.path.join(args.exports, "dram.csv.gz")
    extra = []
    if os.path.exists(dram):
        unpack(dram, os.path.join(args.out, "dram.csv"))
        extra = ["--dram", os.path.join(args.out, "dram.csv")]
    kernels = []
    for pid in [p["id"] for p in doc["programs"] if p["id"] in rec]:
        path = export_of(args.exports, pid)
        if not path:
            continue
        csv, diag = os.path.join(args.out, pid + ".csv"), os.path.join(args.out, pid + ".diagnosis.json")
        unpack(path, csv)
        cub = ["--kernel", "DeviceHistogram"] if progs[pid]["library"] == "cub" else []
        run([args.atomlab, "profile", "--counters", csv, "--diagnosis", diag] + extra + cub, APP_SECONDS, os.devnull)
        p = prediction_of(load(diag, "rows"), progs[pid])
        ev = rec[pid]["evidence"]
        kernels.append(judge(doc["rules"], progs[pid], p, ev["kernel_time"], p["kernel_share"], ev["calls"]))
    save(os.path.join(args.out, "replayed.json"), {"kernels": kernels, "summary": summary(kernels)})
    write_summary(args.out, summary(kernels))


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


def devices_arg(text):
    devs = device_list(text)
    if devs is None:
        raise argparse.ArgumentTypeError(ALLOWED)
    return devs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["check", "predict", "measure", "score", "replay"])
    ap.add_argument("--exports", help="replay: the run's predict folder (its kept exports)")
    ap.add_argument("--measured", help="replay: the run's measured.json (its recorded times)")
    ap.add_argument("--programs", default=PROGRAMS)
    ap.add_argument("--only", nargs="*", default=[], help="only these program ids")
    ap.add_argument("--timeout", type=float, default=900,
                    help="predict: seconds one program's profile (ncu and the program) may take, where --profile-args "
                         "gives no --timeout of its own [900]")
    ap.add_argument("--budget", type=float, default=0,
                    help="start no new program after this many seconds (0: none); a later call goes on [0]")
    ap.add_argument("--devices", type=devices_arg, default=[],
                    help="predict, measure: CUDA device ordinals (0,1) or all (CUDA_VISIBLE_DEVICES's, else every "
                         "GPU): one program at a time on each, in parallel [the device the processes see by default]")
    ap.add_argument("--retry-failed", action="store_true",
                    help="run again the programs recorded as failed (predict) or unscored (measure)")
    ap.add_argument("--python", default=sys.executable, help="the Python that runs the programs [this one]")
    ap.add_argument("--atomlab", default=os.path.join(ROOT, "build", "atomlab"))
    ap.add_argument("--out", default="prereg-out")
    ap.add_argument("--profile-args", nargs=argparse.REMAINDER, default=[],
                    help="passed to atomlab profile (the L2 calibration: --l2-same, --l2-spread, --same-f32, ...)")
    args = ap.parse_args()
    doc = json.load(open(args.programs))
    if args.mode == "check":
        return check(doc)
    os.makedirs(args.out, exist_ok=True)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    {"predict": predict, "measure": measure, "score": score, "replay": replay}[args.mode](args, doc)
    if STOP.is_set():
        print(f"stopped by signal {STOP.sig}: the programs done are kept, the one running is not", flush=True)
        return 128 + STOP.sig
    return 0


if __name__ == "__main__":
    sys.exit(main())
