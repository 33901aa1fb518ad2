#!/usr/bin/env bash
# atomlab app histogram on PoCL: every portable variant x every input x every
# distribution at a small size verifies bin for bin; the packed variant's
# 16-bit counters are flushed before they overflow (a solid input puts
# millions of keys in one bin); per-lane's and byte-lanes' 32-bit columns are summed at the end
# (byte-lanes: u8 and rgba, u32 says why not); block16's pass 0x8000
# (262,144 keys in one bin); 65,536 bins run or say why not. The photo
# distribution (a JPEG from a Debian wallpaper package) is exact for every
# input where atomlab was built with libjpeg-turbo and the package is
# installed, is in --dist all then, and otherwise fails with one line that
# names the package to install.
. "$(dirname "$0")/lib.sh"
need_opencl
B="--backend opencl --samples 1"
run() { # run FILE ARGS...
  local file=$1
  shift
  timeout 120 "$ATOMLAB" app histogram $(without_given "$B" "$*") "$@" -o "$WORK/$file" >"$WORK/$file.out" 2>"$WORK/$file.err"
  local rc=$?
  [ $rc -eq 0 ] && pass || fail "app histogram $* exited $rc: $(tail -3 "$WORK/$file.err")"
}
run all.json --input all --dist solid,uniform,skewed --bytes 65536
run wg64.json --input u8,rgba --dist skewed --bytes 32768 --wg-size 64 --variants shared,warp-private,packed
run flush.json --input u8 --dist solid,uniform --bytes 16777216 --variants packed,per-lane,byte-lanes
run rgba-solid.json --input rgba --dist solid --bytes 16777216 --variants byte-lanes,auto
run bins65536.json --input u32 --bins 65536 --dist solid,uniform --bytes 1048576 --variants global,shared,packed,block16,auto
python3 - "$WORK" <<'PY' && pass || fail "histogram rows"
import json, atl_json, os, sys
work = sys.argv[1]
def rows(name):
    doc = atl_json.load(os.path.join(work, name))
    assert doc["kind"] == "app" and doc["device"] and doc["tool"]["commit"], name
    return {r["variant"]: r for r in doc["rows"]}
rs = rows("all.json")
assert len(rs) == 3 * 3 * 12, len(rs)
for i in ["u8", "rgba", "u32"]:
    for d in ["solid", "uniform", "skewed"]:
        for v in ["memcpy-ceiling", "read-ceiling"]:  # the yardsticks: verified, and what they moved
            r = rs[f"{i}/{d}/{v}"]
            assert r["status"] == "ok" and r["verified"], (i, d, v, r["status"], r["reason"])
            assert r["metrics"]["gbps"] > 0, r
            assert r["metrics"]["bytes_moved"] == 65536 * (2 if v == "memcpy-ceiling" else 1), r
        for v in ["global", "shared", "warp-private", "packed", "per-lane", "block16", "auto"]:
            r = rs[f"{i}/{d}/{v}"]
            if v == "per-lane" and r["status"] == "unsupported":  # 4096 columns need 512 KiB
                assert "local memory" in r["reason"], r
                continue
            assert r["status"] == "ok" and r["verified"], (i, d, v, r["status"], r["reason"])
            m = r["metrics"]
            assert m["gbps"] > 0 and m["ratio_to_read"] > 0 and m["ratio_to_memcpy"] > 0, (i, d, v, m)
            assert m["bytes"] == 65536 and m["bytes_moved"] == 65536, (i, d, v, m)
            assert m["bins"] == {"u8": 256, "rgba": 1024, "u32": 4096}[i]
        for v in ["match-any", "cub"]:
            r = rs[f"{i}/{d}/{v}"]
            assert r["status"] == "unsupported" and r["reason"], (i, d, v, r)
        r = rs[f"{i}/{d}/byte-lanes"]
        if i in ("u8", "rgba"):
            assert r["status"] == "ok" and r["verified"] and r["metrics"]["wg_size"] == 1024, (i, d, r)
        else:
            assert r["status"] == "unsupported" and "8-bit keys and RGBA pixels only" in r["reason"], (i, d, r)
for name in ["wg64.json", "flush.json", "rgba-solid.json"]:
    for v, r in rows(name).items():
        assert r["status"] == "ok" and r["verified"], (name, v, r["reason"])
r = rows("bins65536.json")
assert r["u32/uniform/global"]["verified"], r["u32/uniform/global"]
for d in ["solid", "uniform"]:  # block16's counters pass 0x8000 many times on the solid input
    for v in ["block16", "auto"]:
        x = r[f"u32/{d}/{v}"]
        assert x["status"] == "ok" and x["verified"], x
for v in ["shared", "packed"]:
    x = r[f"u32/uniform/{v}"]
    assert (x["status"] == "ok" and x["verified"]) or (x["status"] == "unsupported" and "local memory" in x["reason"]), x
print("histogram rows ok:", len(rs), "variants")
PY
# photo: decoded once, repeated; the rows name the file and its size
PHOTO=1
"$ATOMLAB" app histogram $B --dist photo --variants global --bytes 16 -o "$WORK/probe.json" >/dev/null 2>"$WORK/probe.err" || PHOTO=0
if [ $PHOTO = 1 ]; then
  run photo.json --input all --dist photo --bytes 65536
  run photo-all.json --input u8 --dist all --bytes 4096 --variants global
  # a photo far smaller than the input: repeated, with a period that is not a multiple of 16 bytes
  run photo-small.json --input all --dist photo --bytes 65536 --variants global,shared \
    --photo "$(dirname "$0")/../data/photo-kleiber-94x53.jpg"
  python3 - "$WORK" <<'PY' && pass || fail "photo rows"
import json, atl_json, os, sys
work = sys.argv[1]
rs = {r["variant"]: r for r in atl_json.load(os.path.join(work, "photo.json"))["rows"]}
assert len(rs) == 3 * 12, len(rs)
for i in ["u8", "rgba"]:
    r = rs[f"{i}/photo/byte-lanes"]
    assert r["status"] == "ok" and r["verified"], r
for i in ["u8", "rgba", "u32"]:
    for v in ["global", "shared", "warp-private", "packed", "block16", "auto"]:
        r = rs[f"{i}/photo/{v}"]
        assert r["status"] == "ok" and r["verified"], (i, v, r["status"], r["reason"])
        m = r["metrics"]
        assert m["photo_width"] > 0 and m["photo_height"] > 0 and ".jpg" in r["reason"], (i, v, m, r["reason"])
for r in atl_json.load(os.path.join(work, "photo-small.json"))["rows"]:
    assert r["status"] == "ok" and r["verified"], (r["variant"], r["reason"])
    if r["variant"].endswith("-ceiling"):  # the yardsticks name no photograph
        continue
    m = r["metrics"]
    assert (m["photo_width"], m["photo_height"]) == (94, 53) and "photo-kleiber-94x53.jpg" in r["reason"], r
dists = {r["variant"].split("/")[1] for r in atl_json.load(os.path.join(work, "photo-all.json"))["rows"]}
assert dists == {"solid", "uniform", "skewed", "photo"}, dists
print("photo rows ok")
PY
else
  echo "photo distribution unavailable here, its runs skipped: $(cat "$WORK/probe.err")"
  # --dist all leaves photo out (with a note) rather than failing
  "$ATOMLAB" app histogram $B --dist all --variants global --bytes 4096 -o "$WORK/nophoto.json" >/dev/null 2>&1 &&
    pass || fail "--dist all without the photo package"
fi
# a missing photo: one line naming the Debian package (or libjpeg-dev where the build has no decoder), exit 2
if grep -q libjpeg-dev "$WORK/probe.err" 2>/dev/null; then
  expect_usage_error libjpeg-dev app histogram $B --dist photo --photo "$WORK/none.jpg"
else
  expect_usage_error lomiri-wallpapers-20.04 app histogram $B --dist photo --photo "$WORK/none.jpg"
  expect_usage_error lomiri-wallpapers-20.04 app histogram $B --dist all --photo "$WORK/none.jpg"
  printf 'not a jpeg' >"$WORK/bad.jpg"
  expect_usage_error "not one" app histogram $B --dist photo --photo "$WORK/bad.jpg"
fi
expect_usage_error --photo app histogram $B --dist solid,uniform --photo "$WORK/none.jpg"
# the table and CSV views carry the same rows
"$ATOMLAB" app histogram $B --bytes 4096 --dist solid --variants global --format csv >"$WORK/h.csv" 2>/dev/null &&
  grep -q '^histogram,u8/solid/global,ok,1,' "$WORK/h.csv" && pass || fail "histogram CSV row"
finish
