#!/usr/bin/env python3
"""Writes ncu-synthetic-bincount-f32.csv and sass-synthetic-bincount.txt (tests/data/README.md).

The export mirrors PyTorch's float weighted bincount on one hot bin on an H100 (16.8 M float REDs on one word,
29.5 ms, 3.0 L2 cycles a request: docs/design/model.md, "Float adds on hot words"), built on the REAL launch 10 of
ncu-h100-scatter-hot-r6.csv (its columns and device), with an NVTX column naming the user code. Launch 1 is the
float kernel, launch 2 the same counters under the integer (long) kernel: only the SASS tells them apart."""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FLOAT_K = ("void at::native::(anonymous namespace)::kernelHistogram1D<float, long, long, 1, 2, -1, "
           "(at::native::(anonymous namespace)::CUDAHistogramMemoryType)1>(at::cuda::detail::TensorInfo<float, long>)")
LONG_K = FLOAT_K.replace("kernelHistogram1D<float", "kernelHistogram1D<long")
SCALE = 29.5e6 / 4939648  # the float bincount's duration over the template launch's
REQ = 16777216


def num(x):
    return f"{x:,.2f}" if x != int(x) else f"{int(x):,}"


def main():
    with open(os.path.join(HERE, "ncu-h100-scatter-hot-r6.csv"), newline="") as f:
        rows = list(csv.reader(f))
    header, units, launch = rows[0], rows[1], next(r for r in rows[2:] if r[0] == "10")
    col = {n: i for i, n in enumerate(header)}
    out = list(launch)
    set_ = lambda name, v: out.__setitem__(col[name], num(v))
    for n in ("gpu__time_duration.avg", "gpu__time_duration.max", "gpu__time_duration.min", "gpu__time_duration.sum"):
        set_(n, 29500000)
    for stem in ("lts__cycles_elapsed", "sm__cycles_elapsed", "sm__cycles_active", "smsp__inst_executed"):
        for s in (".avg", ".max", ".min", ".sum"):
            if stem + s in col:
                set_(stem + s, round(float(launch[col[stem + s]].replace(",", "")) * SCALE))
    for s, v in ((".avg", REQ / 80), (".max", REQ), (".min", 0), (".sum", REQ)):
        set_("lts__t_requests_op_red" + s, v)
        set_("lts__d_atomic_input_cycles_active" + s, v)
    for s, v in ((".avg", REQ / 32 / 132), (".max", REQ / 32 / 132), (".min", REQ / 32 / 132), (".sum", REQ / 32)):
        set_("l1tex__t_requests_pipe_lsu_mem_global_op_red" + s, v)
        set_("l1tex__t_set_accesses_pipe_lsu_mem_global_op_red" + s, v * 32)
    header = header + ["NVTX"]
    units = units + [""]
    a, b = list(out), list(out)
    a[col["ID"]], a[col["Kernel Name"]] = "1", FLOAT_K
    b[col["ID"]], b[col["Kernel Name"]] = "2", LONG_K
    a.append("<default domain>:train_step/torch.bincount@train.py:42")
    b.append("<default domain>:train_step/torch.bincount@train.py:57")
    with open(os.path.join(HERE, "ncu-synthetic-bincount-f32.csv"), "w", newline="") as f:
        w = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\n")
        w.writerows([header, units, a, b])
    sass = """
\tcode for sm_90
\t\tFunction : _ZN2at6native12_GLOBAL__N_117kernelHistogram1DIfllLi1ELi2ELin1ELNS1_23CUDAHistogramMemoryTypeE1EEEvNS_4cuda6detail10TensorInfoIT_T0_EE
\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   LDG.E.64 R2, desc[UR4][R2.64] ;
        /*0020*/                   LDG.E R5, desc[UR4][R6.64] ;
        /*0030*/                   RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R8.64], R5 ;
        /*0040*/                   EXIT ;
\t\t..........
\t\tFunction : _ZN2at6native12_GLOBAL__N_117kernelHistogram1DIlllLi1ELi2ELin1ELNS1_23CUDAHistogramMemoryTypeE1EEEvNS_4cuda6detail10TensorInfoIT_T0_EE
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   LDG.E.64 R2, desc[UR4][R2.64] ;
        /*0020*/                   RED.E.ADD.64.STRONG.GPU desc[UR4][R8.64], R4 ;
        /*0030*/                   EXIT ;
"""
    with open(os.path.join(HERE, "sass-synthetic-bincount.txt"), "w") as f:
        f.write(sass.lstrip("\n"))


if __name__ == "__main__":
    main()
