#!/usr/bin/env bash
# Issue [diagnose], round 5, second H100 call (about 7 minutes, every step under `timeout`):
#   1. the L2 cycles per request of ONE word the whole grid adds to, u32 and f32 (the first call's f32
#      calibration, one word per 4 work-groups, gave float adds the integer S: several words on the busiest
#      slice hide the float unit's longer dependent chain; a float histogram on one key measured 2.2x the
#      integer one's time);
#   2. the SASS of PyTorch's histc (float and long) and CuPy's scatter_add kernels (their global atomics' types);
#   3. scripts/gpu-diagnose-validate.sh again with a longer deadline (the first call's stopped before the
#      uniform histogram's byte-lanes and block16 variants: the advice's measured alternatives).
# Writes under OUT (default out/gpu-diagnose-round5b): summary.txt, run.log, same1-u32.csv, same1-f32.csv,
# sass-*.csv and validate/ (every file of gpu-diagnose-validate.sh).
# Run: OUT=/some/dir bash scripts/gpu-diagnose-round5b.sh   (a build in build/, ncu, python3; torch, cupy where installed)
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
gpu_ncu_script gpu-diagnose-round5b

gpu_l2_one_word same1-u32 u32
gpu_l2_one_word same1-f32 f32

python3 -c "import torch; assert torch.cuda.is_available()" 2>>"$L" &&
  gpu_ncu_sass torch-histc "kernelHistogram1D" 12 python3 scripts/torch-scatter-ops.py --float-histc
cat >"$W/cupy_ops.py" <<'PY'
import cupy as cp, cupyx
for name in ("uniform", "hot"):
    keys = (cp.random.randint(0, 1 << 16, 1 << 24) if name == "uniform" else cp.zeros(1 << 24, dtype=cp.int64))
    out = cp.zeros(1 << 16, dtype=cp.float32)
    cupyx.scatter_add(out, keys, cp.ones(1 << 24, dtype=cp.float32))
cp.cuda.Device().synchronize()
PY
python3 -c "import cupy" 2>>"$L" && gpu_ncu_sass cupy "scatter_add" 2 python3 "$W/cupy_ops.py"
gpu_sass_summary

gpu_diagnose_validate "${GPU_DIAGNOSE_SECONDS:-320}"
tail -8 "$OUT/validate/summary.txt" >>"$S" 2>/dev/null
cat "$S"
