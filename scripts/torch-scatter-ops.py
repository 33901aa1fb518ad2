#!/usr/bin/env python3
"""The PyTorch scatter, bincount and histogram operations the diagnose validations profile under ncu
(scripts/gpu-l2-validate.sh, scripts/gpu-diagnose-validate.sh): index_add_, scatter_add_, bincount (plain and
weighted) and histc on uniform and on all-zero ("hot") keys. --float-histc adds a float histc (256 bins over
[0, 1)), whose shared float atomics are CAS loops.

usage: torch-scatter-ops.py [--float-histc]
"""
import sys

import torch

float_histc = "--float-histc" in sys.argv[1:]
torch.manual_seed(1)
E, D, V = 1 << 20, 64, 1 << 17
src = torch.rand(E, D, device="cuda")
for name, idx in (("uniform", torch.randint(0, V, (E,), device="cuda")), ("hot", torch.zeros(E, dtype=torch.long, device="cuda"))):
    dst = torch.zeros(V, D, device="cuda")
    dst.index_add_(0, idx, src)
    dst.scatter_add_(0, idx[:, None].expand(E, D), src)
    w = torch.rand(E * 16, device="cuda")
    keys = (torch.randint(0, 1 << 20, (E * 16,), device="cuda") if name == "uniform"
            else torch.zeros(E * 16, dtype=torch.long, device="cuda"))
    torch.bincount(keys, minlength=1 << 20)
    torch.bincount(keys, weights=w, minlength=1 << 20)
    torch.histc(keys.float(), bins=4096, min=0, max=1 << 20)
    if float_histc:
        torch.histc(w if name == "uniform" else torch.zeros_like(w), bins=256, min=0, max=1)
torch.cuda.synchronize()
print("torch ops done")
