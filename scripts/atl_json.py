"""Result files as the CLI tests assert on them, and forge them.

format_version 2 rows keep the configuration in "config" and the metrics as
a list of {name, unit, value, hint}; a test reads a row as one flat dict
(configuration values and metrics by name beside the row's own fields,
"wrong" also as "wrong_words", "metrics" as a name -> value dict), so an
assertion names a field the way the table does. dump() writes such rows
back in the file's layout, so a test can forge a field (a missing op,
iters -1) and see what the reader makes of it.
"""
import json
import os

_OWN = ("status", "reason", "verified", "wrong", "time_ms", "samples_ms", "row_seconds", "instructions")


def flat(row):
    out = dict(row.get("config", {}))
    metrics = {m["name"]: m["value"] for m in row.get("metrics", [])}
    for name, value in metrics.items():
        out.setdefault(name, value)
    for key, value in row.items():
        if key not in ("config", "metrics"):
            out[key] = value
    out["metrics"] = metrics
    if "wrong" in row:
        out.setdefault("wrong_words", row["wrong"])
    out["__config__"] = list(row.get("config", {}))
    out["__metrics__"] = [m for m in row.get("metrics", [])]
    return out


def unflat(row):
    config = {k: row[k] for k in row["__config__"] if k in row}
    metrics = []
    for m in row["__metrics__"]:
        if m["name"] in row:
            metrics.append(dict(m, value=row[m["name"]]))
    out = {"config": config, "metrics": metrics}
    for key in _OWN:
        if key in row:
            out[key] = row[key]
    return out


def load(source):
    doc = json.load(source) if hasattr(source, "read") else json.load(open(source))
    if isinstance(doc, dict) and doc.get("format_version") == 2 and isinstance(doc.get("rows"), list):
        doc["rows"] = [flat(r) if isinstance(r, dict) else r for r in doc["rows"]]
    return doc


def step_rows(folder, name):
    """The rows of FOLDER/NAME.json, as a GPU script's step wrote them, or None where the step wrote no file or one
    that does not read (said on stdout: a summary goes on with the other steps)."""
    p = os.path.join(folder, name + ".json")
    if not os.path.exists(p):
        return None
    try:
        return load(p)["rows"]
    except (ValueError, KeyError) as e:
        print(f"  ({name}.json unreadable: {e})")
        return None


def gops(r):
    """The rate of an rmw row that ran and verified, else None."""
    return r.get("gops") if r and r.get("status") == "ok" and r.get("verified") else None


def dumps(doc):
    out = dict(doc)
    if isinstance(doc.get("rows"), list):
        out["rows"] = [unflat(r) if isinstance(r, dict) and "__config__" in r else r for r in doc["rows"]]
    return json.dumps(out)


def dump(doc, f):
    f.write(dumps(doc))
