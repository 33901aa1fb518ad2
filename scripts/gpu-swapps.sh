#!/usr/bin/env bash
# Seed 000's applications (`atomlab app swapps`) on an NVIDIA GPU, CUDA and
# NVIDIA OpenCL, system vs warp-aggregated vs software atomics, every row
# verified against the host:
#   dot        16 M-element scalar product, grids 2, 4, 8, ... up to the
#              co-resident count (occupancy discovery) and that count
#   strmatch   4 keywords in 4 MiB of GCIDE, grids 2, 8, 32, 128, 512, the count
#   mapreduce  two-pass (Mars) vs one atomic per thread / per warp; matmul
#              8..512, KMeans 512..1M points; grids 8, 64 and the count
#              (OpenCL: half of it, since NVIDIA's OpenCL compiler may give
#              mr_map more registers than fit that many blocks per SM)
# Each step runs under `timeout`; the whole run is about 1-2 minutes on an
# H100. Writes under OUT (default out/gpu-swapps) 4 files: swapps-cuda.json,
# swapps-opencl.json (every row), swapps.log and summary.txt.
# The text: $ATL_GCIDE, else /usr/share/dictd/gcide.dict.dz (dict-gcide), else
# build/gcide-4m.txt.gz, which scripts/build.sh writes where the package is
# installed (build/ travels to the GPU machine; the package may not).
# Run: OUT=/some/dir bash scripts/gpu-swapps.sh   (MATMUL=8,32 KMEANS=512 for a quick try)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_script gpu-swapps
LOG="$OUT/swapps.log"
TEXT=${ATL_GCIDE:-}
for t in /usr/share/dictd/gcide.dict.dz build/gcide-4m.txt.gz; do
  [ -z "$TEXT" ] && [ -r "$t" ] && TEXT=$t
done
{ echo "== start $(date -u)"; $SMI; $A version; $A devices; echo "text: ${TEXT:-none}"; } >"$LOG" 2>&1
C="--wg-size 256 --samples 5 --spin-bound 1048576"
STEP_LOG=$LOG STEP_STATUS=$LOG
swapps() { # swapps LIMIT NAME ARGS...: one app run, its JSON in $W/NAME.json
  local limit=$1 name=$2
  shift 2
  step "$name" "$limit" "$A" app swapps $C "$@" -o "$W/$name.json"
}
grids() { # grids FIRST... : the list below the co-resident count N ($N), then N
  local out="" g
  for g in "$@"; do [ "$g" -lt "$N" ] && out="$out$g,"; done
  echo "$out$N"
}
for be in cuda opencl; do
  swapps 40 "$be-dot" --backend "$be" --apps dot
  N=$(sed -n 's/^swapps: \([0-9]*\) co-resident.*/\1/p' "$LOG" | tail -1)
  if [ -z "$N" ] || [ "$N" -lt 2 ]; then
    step_note "$be: no co-resident count found; skipping its other apps"
    STEP_FAILED=1
    continue
  fi
  if [ -n "$TEXT" ]; then
    swapps 30 "$be-strmatch" --backend "$be" --apps strmatch --text "$TEXT" --workgroups "$(grids 2 8 32 128 512)"
  else
    step_note "$be-strmatch: skipped, no GCIDE text (see the header)"
  fi
  M=$N
  [ "$be" = opencl ] && M=$((N / 2))
  swapps 45 "$be-mapreduce" --backend "$be" --apps mapreduce --workgroups "$(N=$M grids 8 64)" \
    --matmul "${MATMUL:-8,32,128,256,512}" --kmeans "${KMEANS:-512,2048,8192,65536,1048576}"
done

# merge each backend's rows into one file, and summarize
python3 - "$W" "$OUT" <<'PY' | tee "$OUT/summary.txt"
import glob, json, os, sys
J, OUT = sys.argv[1], sys.argv[2]
for be in ("cuda", "opencl"):
    parts = [atl_json.load(f) for f in sorted(glob.glob(os.path.join(J, be + "-*.json")))]
    if not parts:
        print("%s: no results" % be)
        continue
    doc = parts[0]
    doc["rows"] = [r for p in parts for r in p["rows"]]
    doc["complete"] = all(p.get("complete", False) for p in parts)
    json.dump(doc, open(os.path.join(OUT, "swapps-%s.json" % be), "w"), indent=1)
    rows = doc["rows"]
    bad = [r for r in rows if not (r["status"] == "ok" and r["verified"])]
    print("== %s (%s): %d rows, %d not ok/verified" % (be, doc["device"].get("name", "?"), len(rows), len(bad)))
    for r in bad[:5]:
        print("  not ok: %s %s %s %s" % (r["app"], r["variant"], r["status"], r["reason"][:150]))
    def cell(r, key):
        if r is None:
            return "-"
        v = r["metrics"].get(key) if key else r["time_ms"]["median"]
        s = "%.4g" % v if v is not None else "?"
        return s + ("" if r["status"] == "ok" and r["verified"] else "*" + r["status"])
    for app, key, unit in (("dot", "gbps", "GB/s"), ("strmatch", None, "ms")):
        by = {}
        for r in rows:
            if r["app"] == app:
                by.setdefault(int(r["metrics"].get("workgroups", 0)), {})[r["variant"]] = r
        if not by:
            continue
        print("%s (%s; * = not ok/verified)\n%8s %12s %12s %12s" % (app, unit, "wgs", "system", "warp", "software"))
        for g in sorted(by):
            print("%8d %12s %12s %12s" % (g, *(cell(by[g].get(v), key) for v in ("system", "warp", "software"))))
    mr = [r for r in rows if r["app"] == "mapreduce"]
    if mr:
        kinds = ("twopass", "thread-system", "thread-warp", "thread-software", "wave-system", "wave-software")
        top = max(int(r["metrics"].get("workgroups", 0)) for r in mr)
        print("mapreduce at %d work-groups (M records/s; * = not ok/verified)" % top)
        print("%-16s " % "workload" + " ".join("%15s" % k for k in kinds))
        by = {}
        for r in mr:
            if int(r["metrics"].get("workgroups", 0)) == top:
                w, k = r["variant"].split("/")
                size = int(r["metrics"].get("n", r["metrics"].get("points", 0)))
                by.setdefault((w, size), {})[k] = r
        for (w, size) in sorted(by):
            cells = (cell(by[(w, size)].get(k), "mrecords_per_s") for k in kinds)
            print("%-16s " % ("%s %d" % (w, size)) + " ".join("%15s" % c for c in cells))
PY
echo "== end $(date -u)" >>"$LOG"
exit ${STEP_FAILED:-0}
