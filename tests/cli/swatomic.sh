#!/usr/bin/env bash
# Seed 000's software atomic on PoCL: fetch_add semantics (old values a
# permutation of 0..n-1 per word, words end at n) for full and divergent
# groups and several addresses; every other --op (sub, inc: the permutation
# of their sequence; min, max, and, or, xor: old values that fit a serial
# order, words at the op-reduction) in both shapes; a skewed host reference
# caught for every op (exit 1); the refusal beyond co-residency and a bad
# --op (exit 2).
# PoCL's discovery often finds 1 work-group on a busy 2-core machine; the
# hook ATL_SW_ASSUME_CORESIDENT=2 lets the grid of one worker + the
# coordinator run (a wrong assumption would end as status deadlock).
. "$(dirname "$0")/lib.sh"
export ATL_SW_ASSUME_CORESIDENT=2
B="--backend opencl --samples 1 --workgroups 2 --variants system,software"
check() { # FILE [OPCODE]: every row ok and verified, the software rows present, the op recorded (absent: add)
  python3 - "$1" "${2:-0}" <<'PY' || return 1
import json, atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
op = int(sys.argv[2])
assert any(r["variant"] == "software" for r in rows), "no software row"
for r in rows:
    assert r["status"] == "ok" and r["verified"], (r["variant"], r["status"], r.get("reason"))
    assert r["metrics"].get("op", 0) == op, ("op", r["metrics"].get("op"), op)
PY
}
run() { # NAME ARGS... (OPCODE: the expected op metric, 0 for add)
  local name=$1
  shift
  if timeout 240 "$ATOMLAB" app swatomic $(without_given "$B" "$*") "$@" -o "$WORK/$name.json" >"$WORK/$name.out" 2>&1 &&
    check "$WORK/$name.json" "${OPCODE:-0}" >"$WORK/$name.chk" 2>&1; then
    pass
  else
    fail "swatomic $name $*: $(tail -3 "$WORK/$name.out") $(tail -2 "$WORK/$name.chk" 2>/dev/null)"
  fi
}
run full --wg-size 64 --targets 1 --iters 2
run divergent-addresses --wg-size 96 --targets 5 --iters 3 --divergent

# every op, all three variants (system and warp use the same op), both shapes
code=1
for op in sub inc min max and or xor; do
  OPCODE=$code run "$op-full" --wg-size 64 --targets 1 --iters 2 --variants system,warp,software --op $op
  OPCODE=$code run "$op-divergent" --wg-size 96 --targets 5 --iters 3 --divergent --op $op
  code=$((code + 1))
done

# a reference that starts one off must fail every row of every op: ok, not verified, exit 1
for op in add sub inc min max and or xor; do
  ATL_SWATOMIC_SKEW_REFERENCE=1 timeout 240 "$ATOMLAB" app swatomic $B --wg-size 64 --iters 2 --op $op \
    -o "$WORK/skew-$op.json" >"$WORK/skew-$op.out" 2>&1
  rc=$?
  if [ $rc -eq 1 ] && python3 - "$WORK/skew-$op.json" <<'PY'; then
import json, atl_json, sys
rows = atl_json.load(sys.argv[1])["rows"]
assert len(rows) == 2, len(rows)
for r in rows:
    assert r["status"] == "ok" and not r["verified"] and "verification failed" in r["reason"], r
PY
    pass
  else
    fail "--op $op: a skewed reference was not caught: exit $rc, $(tail -3 "$WORK/skew-$op.out")"
  fi
done

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
for bad in cas xchg ADD ""; do
  expect_usage_error "--op '$bad' is not allowed: one of add, sub, inc, min, max, and, or, xor" \
    app swatomic --backend opencl --op "$bad"
done
finish
