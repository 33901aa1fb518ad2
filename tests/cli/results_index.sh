#!/usr/bin/env bash
# atomlab results index over a fixture (tests/data/results-index: format 1 and 2 row sets, a PyTorch peer file, a
# diagnose validation summary, a dirty build's file, a runner's run.json) with the real plan,
# experiments/reference.json: its committed README.md is what the files say (--check passes), a changed number or a
# missing page fails --check, writing gives the same page, files of a dirty or unknown commit are marked, every link
# names a file, bad use exits 2. After a change to the plan's headlines, write the fixture's page again:
#   atomlab results index --results tests/data/results-index
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
FIX=tests/data/results-index
"$ATOMLAB" results index --results "$FIX" --check >"$WORK/out" 2>&1 && pass || fail "--check on the fixture: $(cat "$WORK/out")"
cp -r "$FIX" "$WORK/r"
"$ATOMLAB" results index --results "$WORK/r" --check >/dev/null 2>&1 && pass || fail "--check on a copy"
# a number changed in one file: the page no longer says what the files say
sed -i 's/"gbps": 3020\.[0-9]*/"gbps": 2000/' "$WORK/r/reference/nvidia-h100/histogram-u8/histogram-u8.json"
"$ATOMLAB" results index --results "$WORK/r" --check >"$WORK/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "differs from what the files say" "$WORK/out" && pass || fail "--check after a change: rc $rc, $(cat "$WORK/out")"
# writing brings the page back in line, and only the changed figure differs from the fixture's page
"$ATOMLAB" results index --results "$WORK/r" >/dev/null 2>&1 && pass || fail "write"
"$ATOMLAB" results index --results "$WORK/r" --check >/dev/null 2>&1 && pass || fail "--check after writing"
[ "$(diff "$FIX/README.md" "$WORK/r/README.md" | grep -c '^[<>]')" -eq 2 ] && grep -q '| 2000 GB/s | 0.66x read ceiling |' "$WORK/r/README.md" &&
  pass || fail "the rewritten page: $(diff "$FIX/README.md" "$WORK/r/README.md")"
rm "$WORK/r/README.md"
"$ATOMLAB" results index --results "$WORK/r" --check >/dev/null 2>&1
[ $? -eq 1 ] && pass || fail "--check without a page"
# the marks and the links
grep -q '| d522e00b77f1-dirty (not a clean commit) |' "$FIX/README.md" && pass || fail "a dirty build's file is not marked"
grep -q '| unknown (not a clean commit) |' "$FIX/README.md" && pass || fail "a file of no commit is not marked"
grep -q '| 379ac981a005 | 2026-11-27 |' "$FIX/README.md" && pass || fail "the runner's run.json commit"
grep -q '| 2.79x PyTorch index_add_ |' "$FIX/README.md" && pass || fail "the yardstick in the peer's file"
grep -q '| not found | no row matches the selection |' "$FIX/README.md" && pass || fail "a missing row"
for l in $(grep -o '](reference/[^)]*)' "$FIX/README.md" | sed 's/^](//; s/)$//' | sort -u); do
  [ -f "$FIX/$l" ] && pass || fail "a link to no file: $l"
done
# bad use: one error line, exit 2, nothing written
bad() {
  "$ATOMLAB" "$@" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  [ $rc -eq 2 ] && [ "$(grep -c '^error: ' "$WORK/err")" -eq 1 ] && pass || fail "$*: rc $rc, $(cat "$WORK/err")"
}
bad results
bad results nope
bad results index --results "$WORK/none"
bad results index --plan "$WORK/none.json" --results "$FIX"
bad results index --results "$FIX" extra
bad results index --results "$FIX" --frobnicate
[ ! -e "$WORK/none" ] && pass || fail "a bad call wrote something"
echo "$PASSES passed, $FAILS failed"
[ "$FAILS" -eq 0 ]
