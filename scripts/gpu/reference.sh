#!/usr/bin/env bash
# The reference measurements (experiments/reference.json) on a GPU machine.
#
#   bash scripts/gpu/reference.sh [NAME... | all]      (default: all: every entry not marked "alone")
#
# Runs each named entry's command from the repository root under `timeout BUDGET_S`, with A=./build/atomlab and
# D=results/reference/<device slug>/<name>/ (emptied first). Each entry's folder gets log.txt (the command's
# output) and run.json (command, status, seconds, commit, device, date: `atomlab results index` takes the commit
# from it for files that do not record their own). One summary line per entry, "NAME: ok|failed (exit N)|timeout
# in S s", goes to stdout and results/reference/<slug>/summary.txt. With OUT set, OUT gets
# reference-<slug>.tar.gz (results/reference/<slug>/) and summary.txt; unpack it at the repository root.
#
# Refuses a tree with uncommitted changes to tracked files (every file must name a commit of main's history);
# ATL_ALLOW_DIRTY=1 runs anyway and marks the files dirty; ATL_COMMIT_FROM_BINARY=1 takes the commit from the
# binary where the tree's .git is not its own. ATL_BINARY runs another atomlab binary (the one a run's earlier
# step used: a measurement against predictions made by that commit). Builds (scripts/build.sh) only when build/atomlab
# is missing. ATL_SLUG overrides the device slug (default: the first CUDA GPU's in `atomlab devices --format json`).
# Exit status: 0 when every entry ended ok, 1 when one failed or timed out, 2 for bad usage.
set -uo pipefail
cd "$(dirname "$0")/../.."
PLAN=${ATL_PLAN:-experiments/reference.json}
A=${ATL_BINARY:-./build/atomlab}
# another binary looks for the CUB plugin beside itself: the build's is the one this tree built
[ -n "${ATL_BINARY:-}" ] && [ -z "${ATL_CUB_PLUGIN:-}" ] && [ -f build/libatomlab_cub.so ] &&
  export ATL_CUB_PLUGIN=$PWD/build/libatomlab_cub.so
export PYTHONPATH=$PWD/scripts${PYTHONPATH:+:$PYTHONPATH}
[ -d build/device-libs ] && export LD_LIBRARY_PATH=$PWD/build/device-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

plan() { # plan names | plan field NAME KEY
  python3 - "$PLAN" "$@" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))["entries"]
if sys.argv[2] in ("names", "all"):  # all: the entries that do not run alone
    print("\n".join(e["name"] for e in entries if sys.argv[2] == "names" or not e.get("alone")))
else:
    e = next(e for e in entries if e["name"] == sys.argv[3])
    v = e[sys.argv[4]]
    print(" ".join(v) if isinstance(v, list) else v)
PY
}

names=$(plan names) || { echo "error: plan: $PLAN does not read as a reference plan" >&2; exit 2; }
want=("$@")
[ ${#want[@]} -eq 0 ] || [ "${want[0]}" = all ] && mapfile -t want <<<"$(plan all)"
for n in "${want[@]}"; do
  grep -qx -- "$n" <<<"$names" || { echo "error: NAME: one of $(echo $names | tr ' ' ','), or all" >&2; exit 2; }
done

dirty=0
built=$($A version 2>/dev/null | sed -n 's/.*(commit \(.*\))$/\1/p')
# ATL_COMMIT_FROM_BINARY=1: a copy of the tree whose .git is not its own (a GPU machine's copy of a stale clone)
# cannot judge the tree: the binary's own commit and its -dirty mark are then what the files record.
if [ "${ATL_COMMIT_FROM_BINARY:-0}" = 1 ] && [ -n "$built" ]; then
  commit=${built%-dirty}
elif git rev-parse --git-dir >/dev/null 2>&1; then
  commit=$(git rev-parse --short=12 HEAD)
  if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    dirty=1
    if [ "${ATL_ALLOW_DIRTY:-0}" != 1 ]; then
      echo "error: tree: uncommitted changes to tracked files; commit them, or set ATL_ALLOW_DIRTY=1" >&2
      git status --short --untracked-files=no >&2
      exit 2
    fi
  fi
else
  commit=unknown
fi

if [ ! -x "$A" ]; then
  bash scripts/build.sh || { echo "error: build: scripts/build.sh failed" >&2; exit 1; }
fi
built=$($A version | sed -n 's/.*(commit \(.*\))$/\1/p')
case $built in *-dirty) dirty=1 ;; esac
if [ "$dirty" = 1 ] && [ "${ATL_ALLOW_DIRTY:-0}" != 1 ]; then
  echo "error: build: $A was built from a dirty tree ($built); rebuild, or set ATL_ALLOW_DIRTY=1" >&2
  exit 2
fi
[ "$commit" = unknown ] && commit=${built%-dirty}
[ "$dirty" = 1 ] && case $commit in *-dirty) ;; *) commit=$commit-dirty ;; esac

slug=${ATL_SLUG:-$($A devices --format json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
devs = d["devices"] if isinstance(d, dict) else d
gpus = [x for x in devs if x.get("type") == "gpu"]
best = [x for x in gpus if x.get("backend") == "cuda"] or gpus
print(best[0]["slug"] if best else "")' 2>/dev/null)}
[ -n "$slug" ] || { echo "error: device: no GPU in 'atomlab devices' (set ATL_SLUG to run anyway)" >&2; exit 2; }

root=results/reference/$slug
mkdir -p "$root"
summary=$root/summary.txt
echo "== $(date -u +%FT%TZ) commit $commit ($built) on $slug: ${want[*]}" >>"$summary"
status=0
for n in "${want[@]}"; do
  D=$root/$n
  rm -rf "$D"
  mkdir -p "$D"
  budget=$(plan field "$n" budget_s)
  cmd=$(plan field "$n" command)
  start=$(date +%s.%N)
  date=$(date -u +%FT%TZ)
  A=$A D=$D timeout --kill-after=10 "$budget" bash -c "$cmd" >"$D/log.txt" 2>&1
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  case $rc in
  0) st=ok line="ok" ;;
  124 | 137) st=timeout line="timeout (budget $budget s)" ;;
  *) st=failed line="failed (exit $rc)" ;;
  esac
  [ "$rc" -ne 0 ] && status=1
  python3 - "$D/run.json" "$n" "$cmd" "$budget" "$st" "$rc" "$secs" "$commit" "$built" "$slug" "$date" <<'PY'
import json, sys
k = ("name", "command", "budget_s", "status", "exit", "seconds", "commit", "binary_commit", "slug", "date")
v = sys.argv[2:]
d = dict(zip(k, v))
for f in ("budget_s", "exit"):
    d[f] = int(d[f])
d["seconds"] = float(d["seconds"])
json.dump({"format": "atomlab-reference-run", **d}, open(sys.argv[1], "w"), indent=1)
PY
  echo "$n: $line in $secs s" | tee -a "$summary"
done

if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT"
  tar -czf "$OUT/reference-$slug.tar.gz" "$root"
  cp "$summary" "$OUT/summary.txt"
  echo "wrote $OUT/reference-$slug.tar.gz ($(du -h "$OUT/reference-$slug.tar.gz" | cut -f1)): tar -xzf it at the repository root"
fi
exit $status
