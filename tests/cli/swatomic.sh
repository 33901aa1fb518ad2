#!/usr/bin/env bash
# Seed 000's software atomic add on PoCL: fetch_add semantics (old values a
# permutation of 0..n-1 per word, words end at n) for full and divergent
# groups and several addresses, and the refusal beyond co-residency (exit 2).
# PoCL's discovery often finds 1 work-group on a busy 2-core machine; the
# hook ATL_SW_ASSUME_CORESIDENT=2 lets the grid of one worker + the
# coordinator run (a wrong assumption would end as status deadlock).
. "$(dirname "$0")/lib.sh"
export ATL_SW_ASSUME_CORESIDENT=2
B="--backend opencl --samples 1 --workgroups 2 --variants system,software"
check() { # FILE: every row ok and verified, the software rows present
  python3 - "$1" <<'PY' || return 1
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert any(r["variant"] == "software" for r in rows), "no software row"
for r in rows:
    assert r["status"] == "ok" and r["verified"], (r["variant"], r["status"], r.get("reason"))
PY
}
run() { # NAME ARGS...
  local name=$1
  shift
  if timeout 240 "$ATOMLAB" app swatomic $B "$@" -o "$WORK/$name.json" >"$WORK/$name.out" 2>&1 &&
    check "$WORK/$name.json" >"$WORK/$name.chk" 2>&1; then
    pass
  else
    fail "swatomic $name $*: $(tail -3 "$WORK/$name.out") $(tail -2 "$WORK/$name.chk" 2>/dev/null)"
  fi
}
run full --wg-size 64 --targets 1 --iters 2
run divergent-addresses --wg-size 96 --targets 5 --iters 3 --divergent

# beyond co-residency: a usage error naming the parameter, no file written
ATL_SW_ASSUME_CORESIDENT=2 "$ATOMLAB" app swatomic --backend opencl --workgroups 3 -o "$WORK/no.json" \
  >"$WORK/refuse.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q -- "--workgroups 3 is not allowed: .*co-resident" "$WORK/refuse.out" &&
  [ ! -e "$WORK/no.json" ]; then
  pass
else
  fail "3 work-groups beyond co-residency 2: exit $rc, $(cat "$WORK/refuse.out")"
fi
"$ATOMLAB" app swatomic --variants bogus >/dev/null 2>&1
[ $? -eq 2 ] && pass || fail "--variants bogus is not a usage error"
finish
