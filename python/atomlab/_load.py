"""atomlab.load: any result file of atomlab (a JSON row set, JSON lines, a CSV) as rows."""
import csv
import json


def _flat(row, prefix=""):
    """One level of names: {"time_ms": {"median": 1}} -> {"time_ms.median": 1}."""
    out = {}
    for k, v in row.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def _rows(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".csv"):
        return [dict(r) for r in csv.DictReader(text.splitlines())]
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        doc = [json.loads(line) for line in text.splitlines() if line.strip()]  # JSON lines
    if isinstance(doc, list):
        return [_flat(r) if isinstance(r, dict) else {"value": r} for r in doc]
    rows = doc.get("rows")
    if isinstance(rows, list):
        device = doc.get("device", {})
        name = device.get("name") if isinstance(device, dict) else None
        return [dict(_flat(r), **({"device": name} if name and "device" not in r else {})) for r in rows]
    return [_flat(doc)]


def load(path, *, frame=None):
    """The rows of result file @path: a pandas DataFrame where pandas is installed (frame=False: never), else a
    list of dicts; nested values named with dots ("time_ms.median")."""
    rows = _rows(str(path))
    if frame is False:
        return rows
    try:
        import pandas
    except ImportError:
        if frame:
            raise
        return rows
    return pandas.DataFrame(rows)
