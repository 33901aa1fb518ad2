#!/usr/bin/env bash
# --help everywhere, unknown commands and options: no device needed.
. "$(dirname "$0")/lib.sh"

for cmd in "" devices rmw strategy app plot compare report version help calibrate "calibrate smem" model profile hist-case; do
  if "$ATOMLAB" $cmd --help >"$WORK/h" 2>&1 && grep -q "usage: atomlab" "$WORK/h"; then pass; else fail "'atomlab $cmd --help'"; fi
done
"$ATOMLAB" >"$WORK/h" 2>&1 && grep -q "commands:" "$WORK/h" && pass || fail "atomlab with no command prints the command list"
"$ATOMLAB" version | grep -Eq '^atomlab [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]+' && pass || fail "version prints version and commit"

"$ATOMLAB" frobnicate >/dev/null 2>"$WORK/e"; [ $? -eq 2 ] && grep -q "^error: unknown command 'frobnicate'" "$WORK/e" && pass || fail "unknown command"
"$ATOMLAB" rmw --frob >/dev/null 2>"$WORK/e"; [ $? -eq 2 ] && grep -q "^error: unknown option '--frob'" "$WORK/e" && pass || fail "unknown option"
"$ATOMLAB" rmw --op >/dev/null 2>"$WORK/e"; [ $? -eq 2 ] && grep -q "needs a value" "$WORK/e" && pass || fail "option without value"
finish
