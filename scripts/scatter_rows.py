"""Reading and printing `atomlab app scatter` rows, as the scatter GPU summaries share them
(gpu-scatter-summary.py, gpu-scatter-bf16-summary.py)."""
import json
import os

import atl_json


def rows(folder, name):
    """The rows of FOLDER/NAME, or none where that step wrote no file."""
    p = os.path.join(folder, name)
    return atl_json.load(p)["rows"] if os.path.exists(p) else []


def ms(r):
    return r["time_ms"]["median"]


def table(title, rs, details=False):
    """Every row with its ratio to the copy ceiling; DETAILS adds what auto ran and each row's SASS."""
    print(title)
    for r in rs:
        if r["status"] != "ok":
            print(f"  {r['variant']:30s} {r['status']}: {r.get('reason', '')}")
            continue
        note = "ok" if r["verified"] else "NOT VERIFIED: " + r.get("reason", "")
        if details and r["verified"] and r["variant"].endswith("/auto"):
            note += "  (" + r.get("reason", "") + ")"
        print(f"  {r['variant']:30s} {ms(r):9.3f} ms {r.get('gbps', 0):8.1f} GB/s "
              f"{r.get('ratio_to_ceiling', 0):6.3f}x ceiling  {note}")
        if details and r.get("instructions"):
            print(f"  {'':30s} SASS: {r['instructions']}")


def by(rs, with_ceiling=True):
    """(dist, variant) -> row, verified and measured only; the copy ceiling left out unless WITH_CEILING."""
    return {tuple(r["variant"].split("/")[1:3]): r for r in rs
            if r["status"] == "ok" and r["verified"] and (with_ceiling or not r["variant"].endswith("copy-ceiling"))}


def torch_table(folder, best):
    """PyTorch's rows (scripts/peer-torch-scatter.py's FOLDER/torch.json) printed beside BEST (distribution ->
    atomlab's best ms) as PyTorch's time / atomlab's; the document, or None where the step wrote none."""
    tp = os.path.join(folder, "torch.json")
    if not os.path.exists(tp):
        print("PyTorch: no torch.json (the step did not run or failed; info.txt says why)")
        return None
    doc = json.load(open(tp))
    print(f"PyTorch {doc['torch']} on the same inputs ({doc['device']}); PyTorch's time / atomlab's best")
    for x in doc["results"]:
        d = x["dist"]
        sp = f"{x['median_ms'] / best[d]:8.2f}x" if d in best else "       -"
        print(f"  {d:10s} {x['op']:26s} {x['median_ms']:10.3f} ms  atomlab best {sp}  agrees: {x['agrees']}")
    return doc



def verdict(x, want):
    """A ratio against its target: '0.432x (target 0.4x: met)'."""
    return f"{x:.3f}x (target {want}x: {'met' if x >= want else 'NOT met'})"


def det_targets(det):
    """The det variant's rows against 0.4x the copy ceiling, with its radix passes' and sums' times."""
    print("TARGET deterministic (det) at 0.4x the ceiling on every distribution (its radix passes / its sums)")
    for (d, v), r in by(det, with_ceiling=False).items():
        print(f"  {d:10s} {ms(r):8.3f} ms (sort {r.get('det_sort_ms', 0):.3f}, sum {r.get('det_sum_ms', 0):.3f})  "
              f"{verdict(r.get('ratio_to_ceiling', 0), 0.4)}")
