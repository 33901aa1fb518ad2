#!/usr/bin/env bash
# Attack class "every reader survives every file" (docs/design/reliability.md): real
# result files of another kind fed to every reader, forged times, duplicated
# rows, escape sequences in names, files over the size cap, and a cut .gz.
# Each must end in a file error (exit 1 or 2, one "error:" line naming the
# file), never a crash, a hang, a misleading comparison or raw control bytes.
. "$(dirname "$0")/lib.sh"
DATA="$(cd "$(dirname "$0")/../data" && pwd)"
RMW=$DATA/compare-a.json
STRATEGY=$DATA/strategy-small.json
TABLE=$DATA/smem-table-synthetic.csv
COUNTERS=$DATA/ncu-synthetic-raw.csv

# expect_file_error NEEDLE ARGS...: exit 1 or 2 within 60 s, one stderr line "error: ..." holding NEEDLE (the file).
expect_file_error() {
  local needle=$1
  shift
  timeout 60 "$ATOMLAB" "$@" >"$WORK/stdout" 2>"$WORK/stderr" </dev/null
  local rc=$?
  if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
    fail "'$*' exited $rc, expected 1 or 2 (stderr: $(head -c 300 "$WORK/stderr"))"
  elif [ "$(wc -l <"$WORK/stderr")" -ne 1 ] || ! grep -q '^error: ' "$WORK/stderr" ||
    ! grep -qF -- "$needle" "$WORK/stderr"; then
    fail "'$*': not one 'error:' line naming '$needle': $(head -c 600 "$WORK/stderr")"
  else
    pass
  fi
}

# no_control FILE LABEL: FILE holds no control character but newline (an escape sequence, a carriage return).
no_control() {
  if LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$1"; then
    fail "$2 printed control characters: $(LC_ALL=C od -c "$1" | head -5)"
  else
    pass
  fi
}

# 1. Files of another kind: rmw and strategy results given to every reader of another kind.
for f in "$RMW" "$STRATEGY"; do
  expect_file_error "$f" model swatomic "$f" # used to be a segfault (a lookup of the missing 'app' field)
  expect_file_error "$f" model util --table "$f" --counters "$COUNTERS"
  expect_file_error "$f" model util --table "$TABLE" --counters "$f"
  expect_file_error "$f" model query --table "$f" --n 1 --e 1 --c 1
  expect_file_error "$f" model predict --table "$TABLE" --counters "$COUNTERS" --runs "$f"
  expect_file_error "$f" model l2 --counters "$f" --same "$f" --spread "$f"
done

python3 - "$RMW" "$WORK" "$DATA/app-histogram-h100.json" "$COUNTERS" <<'PY'
import copy, json, sys
rmw, work, app, counters = sys.argv[1:]
d = json.load(open(rmw))
def write(name, doc):
    json.dump(doc, open(f"{work}/{name}", "w"))
tiny = copy.deepcopy(d)  # a forged row: 1e-300 ms per launch
tiny["rows"][0]["samples_ms"] = [1e-300] * 5
tiny["rows"][0]["time_ms"] = {"median": 1e-300, "samples": 5}
write("tiny.json", tiny)
fast = copy.deepcopy(d)  # a forged rate: 10^9 Gop/s at a plausible time
fast["rows"][1]["gops"] = 1e9
write("fast.json", fast)
dup = copy.deepcopy(d)  # one configuration written twice
dup["rows"].append(copy.deepcopy(dup["rows"][0]))
write("dup.json", dup)
esc = copy.deepcopy(d)  # escape sequences and a carriage return in the device name
esc["device"]["name"] = "evil\x1b[2J\x1b]0;title\x07\rname"
write("esc.json", esc)
a = json.load(open(app))  # and in an app's variant, which compare prints as the row's label
a["rows"][0]["variant"] = "u8/solid/\x1b[31mred\r"
write("esc-app.json", a)
lines = open(counters).read().split("\n")  # and in a kernel name of an ncu export
for i, line in enumerate(lines):
    if line.startswith('"0",') or line.startswith('"1",'):
        cells = line.split('","')
        cells[4] = "k\x1b[2J\rernel"
        lines[i] = '","'.join(cells)
        break
open(f"{work}/esc-ncu.csv", "w").write("\n".join(lines))
PY

# 2. Forged tiny times and rates: flagged implausible, left out of the ratios (it was "7.5e150x the speed").
"$ATOMLAB" compare "$RMW" "$WORK/tiny.json" >"$WORK/c.txt" 2>"$WORK/err"
if grep -q "B:implausible" "$WORK/c.txt" && grep -q "^implausible: 1 rows" "$WORK/c.txt" &&
  grep -q "over 5 rows: 1.0000 (B is 1.000x" "$WORK/c.txt"; then pass; else fail "tiny time: $(cat "$WORK/c.txt")"; fi
"$ATOMLAB" compare "$RMW" "$WORK/tiny.json" --format json >"$WORK/c.json" 2>"$WORK/err"
python3 - "$WORK/c.json" <<'PY' && pass || fail "tiny time, JSON: $(head -c 400 "$WORK/c.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"]["implausible"] == 1 and abs(d["summary"]["geomean_time_ratio"] - 1) < 1e-9, d["summary"]
assert d["rows"][0]["verdict"] == "n/a" and "time_ratio" not in d["rows"][0], d["rows"][0]
PY
"$ATOMLAB" compare "$RMW" "$WORK/fast.json" >"$WORK/c.txt" 2>"$WORK/err"
grep -q "B:implausible" "$WORK/c.txt" && pass || fail "rate of 10^9 Gop/s not flagged: $(cat "$WORK/c.txt")"

# 3. A duplicated row: a duplicate of B, not "only in B".
"$ATOMLAB" compare "$RMW" "$WORK/dup.json" >"$WORK/c.txt" 2>"$WORK/err"
if grep -q "^duplicate in B: " "$WORK/c.txt" && ! grep -q "^only in" "$WORK/c.txt" &&
  grep -q "0 only in A, 0 only in B" "$WORK/c.txt"; then pass; else fail "duplicate row: $(cat "$WORK/c.txt")"; fi
"$ATOMLAB" compare "$WORK/dup.json" "$WORK/dup.json" >"$WORK/c.txt" 2>"$WORK/err"
grep -q "^duplicates: 1 rows of A and 1 of B" "$WORK/c.txt" && pass || fail "duplicates against themselves: $(cat "$WORK/c.txt")"

# 4. Escape sequences in what is printed: compare's warning and labels, the model's kernel names, error lines.
"$ATOMLAB" compare "$RMW" "$WORK/esc.json" >"$WORK/c.txt" 2>"$WORK/err"
no_control "$WORK/err" "compare's device warning"
grep -q "evil?\[2J?\]0;title??name" "$WORK/err" && pass || fail "compare's warning lost the name: $(cat "$WORK/err")"
"$ATOMLAB" compare "$DATA/app-histogram-h100.json" "$WORK/esc-app.json" >"$WORK/c.txt" 2>"$WORK/err"
no_control "$WORK/c.txt" "compare's labels"
"$ATOMLAB" model util --table "$TABLE" --counters "$WORK/esc-ncu.csv" >"$WORK/u.txt" 2>"$WORK/err"
cat "$WORK/err" >>"$WORK/u.txt"
no_control "$WORK/u.txt" "model util's kernel names"
"$ATOMLAB" compare "$RMW" "$WORK/$(printf 'gone\033[2J\r.json')" >/dev/null 2>"$WORK/err" # a name that is no file
no_control "$WORK/err" "an error line quoting a file name"

# 5. Over the size cap: refused from the size alone, before a byte is read (a sparse file of 2 GiB).
truncate -s 2G "$WORK/big.json"
start=$(date +%s)
expect_file_error "is over the input cap of 1073741824 bytes" compare "$WORK/big.json" "$RMW"
[ $(($(date +%s) - start)) -le 5 ] && pass || fail "the oversize file took $(($(date +%s) - start)) s to refuse"
expect_file_error "is over the input cap" plot "$WORK/big.json" -o "$WORK/plot"
truncate -s 2G "$WORK/big.csv"
expect_file_error "is over the input cap" model util --table "$WORK/big.csv" --counters "$COUNTERS"
ATL_MAX_INPUT=100 expect_file_error "3548 bytes is over the input cap of 100 bytes (raise it with ATL_MAX_INPUT" \
  compare "$RMW" "$RMW"
ATL_MAX_INPUT=100 expect_file_error "over the input cap of 100 bytes" model util --table "$TABLE" --counters "$COUNTERS"
ATL_MAX_INPUT=100000000 "$ATOMLAB" compare "$RMW" "$RMW" >/dev/null 2>&1 && pass || fail "ATL_MAX_INPUT raised: refused"
ATL_MAX_INPUT=lots REFUSE_WITHIN=20 expect_refused "ATL_MAX_INPUT 'lots'" compare "$RMW" "$RMW"

# 6. A cut, a damaged and a header-less .gz text: exit 1 naming the file, nothing searched or written.
need_opencl
python3 - "$WORK" <<'PY'
import gzip, random, sys
random.seed(1)
words = ["gravity", "water", "which", "the", "of", "and", "atomic", "lock"]
data = gzip.compress(" ".join(random.choice(words) for _ in range(300000)).encode())
open(f"{sys.argv[1]}/text.gz", "wb").write(data)
open(f"{sys.argv[1]}/cut.gz", "wb").write(data[: len(data) // 10])
flip = bytearray(data)
flip[len(flip) // 2] ^= 0xFF
open(f"{sys.argv[1]}/flip.gz", "wb").write(bytes(flip))
open(f"{sys.argv[1]}/plain.gz", "wb").write(b"not gzip at all, " * 2000)
PY
# --resume's refusal quotes the file's device name: shown without its escape sequences.
SWEEP="--iters 5 --min-samples 2 --max-samples 2 --contention 1 --padding 1"
# shellcheck disable=SC2086
"$ATOMLAB" rmw $SWEEP --quiet -o "$WORK/real.json" >/dev/null 2>&1 || fail "a small rmw sweep failed"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["device"]["name"] = "evil\x1b[2J\rdev"
json.dump(d, open(sys.argv[2], "w"))' "$WORK/real.json" "$WORK/real-esc.json"
# shellcheck disable=SC2086
expect_file_error "evil?[2J?dev" rmw $SWEEP --resume "$WORK/real-esc.json" -o "$WORK/out.json"
no_control "$WORK/stderr" "the --resume refusal"

export ATL_SW_ASSUME_CORESIDENT=2 # PoCL's one work-group: the text is read before anything runs
for t in cut flip plain; do
  rm -f "$WORK/out.json"
  expect_file_error "'$WORK/$t.gz': truncated or corrupt gzip data" app swapps --backend opencl --apps strmatch \
    --variants system --samples 1 --wg-size 64 --quiet --text "$WORK/$t.gz" -o "$WORK/out.json"
  [ -e "$WORK/out.json" ] && fail "$t.gz: a result was written" || pass
done
timeout 120 "$ATOMLAB" app swapps --backend opencl --apps strmatch --variants system --samples 1 --wg-size 64 --quiet \
  --text "$WORK/text.gz" -o "$WORK/out.json" >/dev/null 2>"$WORK/err" && pass ||
  fail "a whole .gz text refused: $(cat "$WORK/err")"

finish
