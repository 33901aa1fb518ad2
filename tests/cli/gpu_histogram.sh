#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: app histogram on CUDA at a small size, every
# variant of every input and distribution verifies (CUB where the plugin was
# built: HistogramEven for u8 and u32, MultiHistogramEven<4,4> for rgba). Skipped (77) where CUDA is unavailable.
. "$(dirname "$0")/lib.sh"
need_cuda
PLUGIN=0
n=0
[ -f "$(dirname "$ATOMLAB")/libatomlab_cub.so" ] && PLUGIN=1
for spec in "--input all --bytes 1048576" "--input u32 --bins 65536 --bytes 1048576" "--input u8 --bytes 67108864 --dist solid"; do
  f="$WORK/h$((++n)).json"
  timeout 120 "$ATOMLAB" app histogram --backend cuda --samples 2 $spec -o "$f" >"$f.out" 2>"$f.err" &&
    pass || fail "CUDA app histogram $spec: $(tail -3 "$f.err")"
done
python3 - "$WORK" "$PLUGIN" <<'PY' && pass || fail "CUDA histogram rows verified"
import glob, json, sys, atl_json
plugin = sys.argv[2] == "1"
for f in sorted(glob.glob(sys.argv[1] + "/h*.json")):
    for r in atl_json.load(f)["rows"]:
        inp, dist, v = r["variant"].split("/")
        ok = (r["status"] == "ok" and r["verified"]) or (r["status"] == "unsupported" and r["reason"])
        assert ok, (f, r["variant"], r["status"], r["reason"])
        if v in ("memcpy-ceiling", "read-ceiling", "global") or (v in ("shared", "match-any") and r["metrics"]["bins"] <= 12288):
            assert r["status"] == "ok", (f, r["variant"], r["reason"])
        if v == "byte-lanes" and inp in ("u8", "rgba"):  # sm_70 on opts into 64 KiB (u8); sm_80 on into 128 (rgba)
            assert r["status"] == "ok", (f, r["variant"], r["reason"])
        if v == "cub":
            assert (r["status"] == "ok") == plugin, r
    print(f, "ok")
PY
finish
