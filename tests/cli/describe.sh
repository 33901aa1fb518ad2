#!/usr/bin/env bash
# `atomlab COMMAND --describe` for every command that measures or reports,
# against docs/design/metrics.md: the text between "<!-- describe COMMAND -->" and
# "<!-- /describe -->" (blank lines at its ends dropped) must be exactly what
# the command prints. Commands without metrics (version, help) refuse cleanly.
. "$(dirname "$0")/lib.sh"
DOC="$(cd "$(dirname "$0")/../.." && pwd)/docs/design/metrics.md"

# Every command of `atomlab --help` but version and help has a section.
commands=$("$ATOMLAB" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
[ -n "$commands" ] && pass || fail "no command list in atomlab --help"
for cmd in $commands; do
  case $cmd in version | help) continue ;; esac
  awk -v open="<!-- describe $cmd -->" '$0 == open {on = 1; next} /^<!-- \/describe -->$/ {on = 0} on' "$DOC" |
    sed -e '/./,$!d' | sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}' >"$WORK/doc-$cmd"
  if [ ! -s "$WORK/doc-$cmd" ]; then
    fail "docs/design/metrics.md has no '<!-- describe $cmd -->' section"
    continue
  fi
  "$ATOMLAB" "$cmd" --describe >"$WORK/out-$cmd" 2>"$WORK/err" || fail "atomlab $cmd --describe exited $?"
  diff -u "$WORK/doc-$cmd" "$WORK/out-$cmd" >"$WORK/diff" && pass || fail "$cmd --describe differs from docs/design/metrics.md: $(head -20 "$WORK/diff")"
done
for cmd in devices rmw plot compare; do
  echo " $commands " | tr '\n' ' ' | grep -q " $cmd " && pass || fail "'$cmd' is missing from atomlab --help"
done
# The rmw text names every JSON field of a row.
for field in pattern contention padding verified wrong_words time_ms.median gops samples_ms row_seconds; do
  grep -q "$field" "$WORK/out-rmw" && pass || fail "rmw --describe does not explain $field"
done
grep -q "IQR intervals" "$WORK/out-compare" && pass || fail "compare --describe states the verdict rule"
# --describe anywhere on the line wins over other options, and needs no device or file.
"$ATOMLAB" rmw --op nonsense --describe | diff -q - "$WORK/out-rmw" >/dev/null && pass || fail "rmw --op x --describe"
"$ATOMLAB" version --describe >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "^error: 'version' has no metrics" "$WORK/err" && pass ||
  fail "version --describe: $(cat "$WORK/err")"
finish
