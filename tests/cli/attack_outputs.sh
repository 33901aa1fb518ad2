# Attack class "output targets" (docs/design/reliability.md): every -o of every
# command is checked before anything is measured (exit 2, one error line, no
# file), an existing device or FIFO is written in place and never replaced, a
# symbolic link is followed (the temporary file goes beside its target), and
# rows that cannot be written where asked go to a rescue file (or stderr),
# never lost, with "wrote" printed only for files that were written.
. "$(dirname "$0")/lib.sh"
need_opencl
R="rmw --iters 5 --min-samples 2 --max-samples 2 --contention 1,4 --padding 1 --quiet"

# rows_in FILE: the number of rows of a JSON result file (-1 if it does not parse)
rows_in() {
  python3 -c 'import json, atl_json,sys; print(len(atl_json.load(sys.argv[1])["rows"]))' "$1" 2>/dev/null || echo -1
}

# no_leftovers DIR: no temporary or rescue file was left in DIR
no_leftovers() {
  if ls -A "$1" | grep -Eq '^\.atl-|\.tmp\.'; then fail "temporary files left in $1: $(ls -A "$1")"; else pass; fi
}

mkdir -p "$WORK/folder" "$WORK/sub"

# --- checked before measuring -------------------------------------------------
expect_refused "empty name" $R -o ''
expect_refused "is a folder" $R -o "$WORK/folder"
expect_refused "names a folder" $R -o "$WORK/folder/"
expect_refused "does not exist" $R -o "$WORK/nowhere/x.json"
expect_refused "'.xml'" $R -o "$WORK/x.xml"
long=$(printf 'a%.0s' $(seq 1 256))
expect_refused "at most 255" $R -o "$WORK/$long.json"
expect_refused "is a folder" strategy --pattern same-address --strategy native --iters 5 --min-samples 2 --max-samples 2 -o "$WORK/folder"
expect_refused "empty name" app count --containers 4096 -o ''
expect_refused "is a folder" app count --containers 4096 -o "$WORK/folder"
expect_refused "'.xml'" app count --containers 4096 -o "$WORK/c.xml"
expect_refused "is a folder" compare "$(dirname "$0")/../data/compare-a.json" "$(dirname "$0")/../data/compare-b.json" -o "$WORK/folder"
expect_refused "is a folder" model util --table "$(dirname "$0")/../data/smem-table-synthetic.csv" \
  --counters "$(dirname "$0")/../data/ncu-synthetic-raw.csv" -o "$WORK/folder"

# A name of exactly NAME_MAX bytes is allowed: the temporary name beside it is short, whatever the target's length.
max=$(printf 'b%.0s' $(seq 1 250)).json
if "$ATOMLAB" $R -o "$WORK/$max" 2>"$WORK/err" && [ "$(rows_in "$WORK/$max")" = 2 ]; then pass; else
  fail "a 255-byte name was not written: $(cat "$WORK/err")"
fi
rm -f "$WORK/$max"

# --- symbolic links are followed, never replaced ---------------------------------
ln -s sub/target.json "$WORK/link.json"
"$ATOMLAB" $R -o "$WORK/link.json" 2>"$WORK/err"
if [ -L "$WORK/link.json" ] && [ "$(rows_in "$WORK/sub/target.json")" = 2 ]; then pass; else
  fail "-o through a symlink replaced the link or missed its target: $(ls -l "$WORK") $(cat "$WORK/err")"
fi
no_leftovers "$WORK"
no_leftovers "$WORK/sub"
ln -s "$WORK/sub/new.json" "$WORK/dangling.json"
"$ATOMLAB" $R -o "$WORK/dangling.json" --format csv -o "$WORK/also.csv" 2>"$WORK/err"
if [ -L "$WORK/dangling.json" ] && [ "$(rows_in "$WORK/sub/new.json")" = 2 ]; then pass; else
  fail "a dangling symlink's target was not created: $(cat "$WORK/err")"
fi

# The issue's own example: a symbolic link to /proc/self/fd/1 (as /dev/stdout is) is written in place,
# into whatever stdout is (a pipe here), and stays a link. Only links made here: run against the old
# code, a test naming /dev/stdout itself replaced the machine's /dev/stdout with a regular file.
ln -s /proc/self/fd/1 "$WORK/to-stdout"
ln -s to-stdout "$WORK/to-to-stdout"
for target in "$WORK/to-stdout" "$WORK/to-to-stdout"; do
  "$ATOMLAB" $R -o "$target" 2>"$WORK/err" | python3 -c 'import json, atl_json,sys; sys.exit(len(atl_json.load(sys.stdin)["rows"]) != 2)'
  status="${PIPESTATUS[0]} ${PIPESTATUS[1]}"
  if [ "$status" = "0 0" ] && grep -q "^wrote 2 rows to $target" "$WORK/err"; then pass; else
    fail "-o $target: $(cat "$WORK/err")"
  fi
done
if [ -L "$WORK/to-stdout" ] && [ -L "$WORK/to-to-stdout" ]; then pass; else fail "-o a link to /proc/self/fd/1 replaced the link"; fi

# --- FIFOs and devices are written in place -----------------------------------------
mkfifo "$WORK/fifo"
(timeout 60 cat "$WORK/fifo" >"$WORK/fifo.out") &
reader=$!
"$ATOMLAB" $R -o "$WORK/fifo" 2>"$WORK/err"
rc=$?
wait $reader
if [ $rc -eq 0 ] && [ -p "$WORK/fifo" ] && [ "$(rows_in "$WORK/fifo.out")" = 2 ]; then pass; else
  fail "-o FIFO: exit $rc, still a FIFO: $([ -p "$WORK/fifo" ] && echo yes || echo no), $(cat "$WORK/err")"
fi
# A FIFO nobody reads: no hang, and the rows go to a rescue file beside it.
mkfifo "$WORK/sub/lonely"
timeout 60 "$ATOMLAB" $R -o "$WORK/sub/lonely" 2>"$WORK/err"
rc=$?
rescue=$(ls "$WORK/sub" | grep '^lonely\.rescued-' | head -1)
if [ $rc -eq 1 ] && [ -p "$WORK/sub/lonely" ] && [ -n "$rescue" ] && [ "$(rows_in "$WORK/sub/$rescue")" = 2 ] &&
  grep -q "are in '.*$rescue'" "$WORK/err" && ! grep -q '^wrote' "$WORK/err"; then pass; else
  fail "-o FIFO without reader: exit $rc, rescue '$rescue', stderr: $(cat "$WORK/err")"
fi

if [ "$(id -u)" = 0 ] && mknod "$WORK/null" c 1 3 2>/dev/null && mknod "$WORK/full" c 1 7 2>/dev/null; then
  # copies of /dev/null and /dev/full made here, so a regression replaces only them
  "$ATOMLAB" $R -o "$WORK/null" 2>"$WORK/err"
  if [ -c "$WORK/null" ] && grep -q "^wrote 2 rows to $WORK/null" "$WORK/err"; then pass; else
    fail "-o a device: replaced or not written: $(ls -l "$WORK/null") $(cat "$WORK/err")"
  fi
  # A full disk (ENOSPC from /dev/full): the rows are rescued beside it, the next -o still written.
  "$ATOMLAB" $R -o "$WORK/full" -o "$WORK/second.json" 2>"$WORK/err"
  rc=$?
  rescue=$(ls "$WORK" | grep '^full\.rescued-' | head -1)
  if [ $rc -eq 1 ] && [ -c "$WORK/full" ] && [ -n "$rescue" ] && [ "$(rows_in "$WORK/$rescue")" = 2 ] &&
    [ "$(rows_in "$WORK/second.json")" = 2 ] && ! grep -q "^wrote.*$WORK/full" "$WORK/err" &&
    grep -q "^wrote 2 rows to $WORK/second.json" "$WORK/err"; then pass; else
    fail "-o a full device: exit $rc, rescue '$rescue', stderr: $(cat "$WORK/err")"
  fi
else
  echo "note: not root (or no mknod): the device cases are skipped"
fi

# --- a write that fails after measuring (ATL_FAULT=file:N: as on a full disk) ----------
rm -f "$WORK"/*.rescued-*
ATL_FAULT=file:1 "$ATOMLAB" $R -o "$WORK/first.json" -o "$WORK/next.csv" 2>"$WORK/err"
rc=$?
rescue=$(ls "$WORK" | grep '^first\.rescued-.*\.json$' | head -1)
if [ $rc -eq 1 ] && [ ! -e "$WORK/first.json" ] && [ -n "$rescue" ] && [ "$(rows_in "$WORK/$rescue")" = 2 ] &&
  [ "$(wc -l <"$WORK/next.csv")" = 3 ] && ! grep -q "^wrote.*first.json" "$WORK/err"; then pass; else
  fail "ATL_FAULT=file:1: exit $rc, rescue '$rescue', stderr: $(cat "$WORK/err")"
fi
# Nowhere to write at all: the rows follow on stderr rather than being lost.
ATL_FAULT=file:1+ "$ATOMLAB" $R -o "$WORK/never.json" 2>"$WORK/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "follow on stderr" "$WORK/err" && grep -q '"rows"' "$WORK/err"; then pass; else
  fail "ATL_FAULT=file:1+: exit $rc, stderr: $(head -c 400 "$WORK/err")"
fi
# The same for an app and for strategy.
ATL_FAULT=file:1 "$ATOMLAB" app count --containers 4096 --samples 1 -o "$WORK/count.json" --quiet 2>"$WORK/err"
rc=$?
rescue=$(ls "$WORK" | grep '^count\.rescued-' | head -1)
if [ $rc -eq 1 ] && [ -n "$rescue" ] && [ "$(rows_in "$WORK/$rescue")" -gt 0 ]; then pass; else
  fail "app count with a failed write: exit $rc, rescue '$rescue', stderr: $(cat "$WORK/err")"
fi
ATL_FAULT=file:1+ "$ATOMLAB" strategy --pattern same-address --strategy native --iters 5 --min-samples 2 \
  --max-samples 2 --workgroups 2 -o "$WORK/s.json" --quiet 2>"$WORK/err"
rc=$?
rescue=$(ls "$WORK" | grep '^s\.rescued-' | head -1)
if [ $rc -eq 1 ] && [ -z "$rescue" ] && grep -q '"rows"' "$WORK/err"; then pass; else
  fail "strategy with no writable place: exit $rc, stderr: $(head -c 300 "$WORK/err")"
fi
no_leftovers "$WORK"
finish
