#!/usr/bin/env bash
# Attack class "inputs that are not regular files" (docs/reliability-inputs.md):
# a FIFO, a folder and a device named where a file is read. Each must be
# refused at once (exit 2, one "error:" line naming the option or file, no
# output written): a FIFO used to block forever in the read, a folder used to
# crash the ASan build (a "size" of LONG_MAX given to malloc), /dev/zero never
# ends. `timeout 20` around every run turns a hang into a failure.
. "$(dirname "$0")/lib.sh"
REFUSE_WITHIN=20 # a refusal takes milliseconds: 20 s is a hang
DATA="$(dirname "$0")/../data"

mkfifo "$WORK/fifo" "$WORK/fifo-idle"
mkdir "$WORK/folder"
# Two FIFOs, for the two ways the old readers hung: with no writer, fopen()
# blocks in open(2) (fifo-idle); with a writer that never writes, open()
# returns and the read blocks (fifo, held open below by a background sleep).
sleep 600 >"$WORK/fifo" &
HOLDER=$!
trap 'kill $HOLDER 2>/dev/null; rm -rf "$WORK"' EXIT

good="$DATA/compare-a.json"
for bad in "$WORK/fifo" "$WORK/fifo-idle" "$WORK/folder" /dev/zero /dev/null; do
  case $bad in
  */folder) what="is a folder" ;;
  *) what="not a regular file" ;;
  esac
  expect_refused "$what" compare "$bad" "$good"
  expect_refused "$what" compare "$good" "$bad" -o "$WORK/out.txt"
  expect_refused "$what" plot "$bad" -o "$WORK/out"
  expect_refused "--table" model util --table "$bad" --counters "$DATA/ncu-synthetic-raw.csv"
  expect_refused "--counters" model util --table "$DATA/smem-table-synthetic.csv" --counters "$bad"
  expect_refused "--runs" model predict --table "$DATA/smem-table-synthetic.csv" --counters "$DATA/ncu-synthetic-raw.csv" \
    --runs "$bad"
done

# The commands that measure: refused before the device is used, so no OpenCL needed for most.
need_opencl
for bad in "$WORK/fifo" "$WORK/fifo-idle" "$WORK/folder" /dev/zero; do
  case $bad in
  */folder) what="is a folder" ;;
  *) what="not a regular file" ;;
  esac
  expect_refused "--resume" rmw --iters 5 --min-samples 2 --max-samples 2 --contention 1 --padding 1 --resume "$bad" \
    -o "$WORK/out.json"
  expect_refused "--text" app swapps --apps strmatch --variants system --text "$bad" -o "$WORK/out.json"
  expect_refused "$what" app histogram --dist photo --variants global --bytes 4096 --photo "$bad" -o "$WORK/out.json"
done

# A real file named through a link is fine: the check is on what the name leads to.
ln -s "$(cd "$DATA" && pwd)/compare-a.json" "$WORK/link.json"
if timeout 20 "$ATOMLAB" compare "$WORK/link.json" "$good" >/dev/null 2>&1; then pass; else fail "compare through a symbolic link"; fi

finish
