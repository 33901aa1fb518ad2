#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: atomlab's rmw rows against an independent
# program (tests/crosscheck/standalone_rmw.cu: the seed's kernel in the CUDA
# runtime API with its own timing and check) at a few grid points, at the
# grid and iteration count atomlab chose, in alternating rounds. Each pair must agree within 5%
# (CROSSCHECK_TOLERANCE); the table goes to stdout and, where CROSSCHECK_OUT
# names a file, to that file. Skipped (77) where CUDA or the program is absent.
# $2: the standalone program (default: standalone_rmw beside atomlab).
. "$(dirname "$0")/lib.sh"
STANDALONE=${2:-$(dirname "$ATOMLAB")/standalone_rmw}
need_cuda
if [ ! -x "$STANDALONE" ]; then
  echo "no standalone program ($STANDALONE; built where nvcc is): skipped"
  exit 77
fi
TOL=${CROSSCHECK_TOLERANCE:-0.05}
TABLE=$WORK/table.txt
printf "%-11s %5s %5s %6s %5s %11s %12s %12s %7s\n" pattern c p wg groups iters_last atomlab_opus standalone ratio >"$TABLE"
# Each point in ROUNDS rounds, atomlab then the program, alternating: a GPU's rate at some points moves by
# several percent from one run to the next (docs/method.md, --repeat), so the medians over the rounds are compared.
ROUNDS=${CROSSCHECK_ROUNDS:-3}
median() { python3 -c 'import statistics, sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
for point in "contiguous 1 1" "contiguous 32 1" "contiguous 1 32" "contiguous 1024 1" "cross-warp 32 1" \
  "cross-warp 8 16"; do
  set -- $point
  A_RATES=() S_RATES=()
  for round in $(seq "$ROUNDS"); do
    timeout 120 "$ATOMLAB" rmw --backend cuda --pattern "$1" --op fetch_add --contention "$2" --padding "$3" \
      --budget 1 -o "$WORK/row.json" --quiet 2>"$WORK/err" || {
      fail "atomlab rmw $point: $(tail -2 "$WORK/err")"
      continue 2
    }
    read -r wg groups iters opus ok < <(python3 -c '
import atl_json, sys
r = atl_json.load(sys.argv[1])["rows"][0]
print(r["wg_size"], r["workgroups"], r["iters"], r["ops_per_us"], int(r["verified"] and r["status"] == "ok"))' \
      "$WORK/row.json")
    [ "$ok" = 1 ] || fail "atomlab row $point not ok and verified"
    out=$(timeout 120 "$STANDALONE" "$1" "$2" "$3" "$wg" "$groups" "$iters" 15) || {
      fail "standalone $point: exit $? ($out)"
      continue 2
    }
    A_RATES+=("$opus")
    S_RATES+=("$(echo "$out" | awk '{print $2}')")
  done
  opus=$(median "${A_RATES[@]}")
  sa=$(median "${S_RATES[@]}")
  ratio=$(python3 -c "print(f'{$opus / $sa:.4f}')")
  printf "%-11s %5s %5s %6s %5s %11s %12.6g %12.6g %7s\n" "$1" "$2" "$3" "$wg" "$groups" "$iters" "$opus" "$sa" "$ratio" \
    >>"$TABLE"
  python3 -c "import sys; sys.exit(0 if abs($ratio - 1) <= $TOL else 1)" && pass ||
    fail "$point: atomlab $opus ops/us against the standalone program's $sa (medians of $ROUNDS rounds; ratio $ratio, tolerance $TOL)"
done
cat "$TABLE"
[ -n "${CROSSCHECK_OUT:-}" ] && cp "$TABLE" "$CROSSCHECK_OUT"
finish
