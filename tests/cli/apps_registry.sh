#!/usr/bin/env bash
# Every app of the library's registry (src/apps/registry.c), as `atomlab app --help` lists it, has a
# command line: --help exits 0 with the common options, a bad option exits 2, and a parameter the
# library's check refuses (a work-group size beyond any device) exits 2 naming its option; the
# top-level help and the unknown-app message name every app.
. "$(dirname "$0")/lib.sh"
need_opencl

apps=$("$ATOMLAB" app --help | awk '/^apps:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
[ "$(echo "$apps" | wc -w)" -ge 8 ] && pass || fail "app --help lists $(echo "$apps" | wc -w) apps: $apps"
help=$("$ATOMLAB" help)
"$ATOMLAB" app sort 2>"$WORK/unknown"
for a in $apps; do
  "$ATOMLAB" app "$a" --help | grep -q -- '--spin-bound' && pass || fail "app $a --help"
  grep -q -- "[:,] $a\(,\|\$\)" <<<"$(grep '^  app ' <<<"$help")" && pass || fail "atomlab help does not name app $a"
  grep -q -- "$a" "$WORK/unknown" && pass || fail "the unknown-app message does not name $a"
  expect_usage_error "unknown option" app "$a" --bogus
  expect_usage_error "--wg-size" app "$a" --wg-size 65536
done
finish
