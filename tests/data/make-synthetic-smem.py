#!/usr/bin/env python3
"""Writes the SYNTHETIC test inputs of the shared-memory atomic model (not measurements).

smem-table-synthetic.csv: T(n, e, c) from a made-up formula on a partial grid
(n 1..8, e in 1,2,4,8,16,32, every c), so that interpolation results can be
computed by hand. ncu-synthetic-raw.csv / ncu-synthetic-details.csv: an ncu
CSV export in both layouts (raw page and details page) for three made-up
kernels whose utilization is worked out in tests/unit/test_smem_model.c.
"""
E_VALUES = [1, 2, 4, 8, 16, 32]


def t_used(n, e, c):
    return 30 + 4 * n * e + 10 * c * c


def t_unused(n, e, c):
    return 10 + 2 * n * e + 10 * c * c


with open("smem-table-synthetic.csv", "w") as f:
    f.write("# SYNTHETIC TEST DATA, not a measurement: made by make-synthetic-smem.py\n")
    f.write("# used: T = 30 + 4 n e + 10 c^2, unused: T = 10 + 2 n e + 10 c^2 (cycles)\n")
    f.write("result,n,e,c,t_cycles,t_min_cycles,t_max_cycles,s_cycles\n")
    for name, fn in (("unused", t_unused), ("used", t_used)):
        for n in range(1, 9):
            for e in E_VALUES:
                for c in range(0, n + 1):
                    t = fn(n, e, c)
                    f.write(f"{name},{n},{e},{c},{t:.1f},{t},{t},{t / n:.3f}\n")

# kernels: (id, name, Nf total, Nc total, O, active cycles per SM, occupancy %, duration us)
KERNELS = [
    ("0", "hist_half(unsigned int const*, unsigned int*)", 300, 100, 2400, 8300, 25.0, 12.5),
    ("1", "hist_full(unsigned int const*, unsigned int*)", 300, 100, 2400, 4150, 25.0, 6.25),
    ("2", "copy(float const*, float*)", 0, 0, 0, 1000, 50.0, 2.0),
]
HEAD = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
        "Grid Size", "Device", "CC"]
METRICS = [("device__attribute_max_warps_per_multiprocessor", ""), ("device__attribute_multiprocessor_count", ""),
           ("gpu__time_duration.sum", "usecond"), ("sm__cycles_active.avg", "cycle"),
           ("smsp__sass_thread_inst_executed_op_shared_atom.sum", "inst"),
           ("sm__warps_active.avg.pct_of_peak_sustained_active", "%"),
           ("smsp__inst_executed_op_shared_atom.sum", "inst"),
           ("smsp__inst_executed_op_shared_atom_dot_cas.sum", "inst")]


def values(k):
    _, _, nf, nc, ops, cyc, occ, us = k
    # op_shared_atom counts every ATOMS, CAS included (as ncu does on the H100)
    return [8, 4, us, cyc, ops, occ, nf + nc, nc]


def fmt(v):
    if isinstance(v, float) and not v.is_integer():
        return f"{v}"
    return f"{int(v):,}"  # thousands separators, as ncu prints them


def q(s):
    return '"' + str(s).replace('"', '""') + '"'


with open("ncu-synthetic-raw.csv", "w") as f:
    f.write("==PROF== SYNTHETIC TEST DATA, not a measurement: made by make-synthetic-smem.py\n")
    f.write("==PROF== Connected to process 4242 (/usr/bin/example)\n")
    f.write(",".join(q(h) for h in HEAD + [m for m, _ in METRICS]) + "\n")
    f.write(",".join(q("") for _ in HEAD) + "," + ",".join(q(u) for _, u in METRICS) + "\n")
    for k in KERNELS:
        row = [k[0], "4242", "example", "127.0.0.1", k[1], "1", "7", "(256, 1, 1)", "(8, 1, 1)", "0", "9.0"]
        f.write(",".join(q(x) for x in row + [fmt(v) for v in values(k)]) + "\n")

with open("ncu-synthetic-details.csv", "w") as f:
    f.write("==PROF== SYNTHETIC TEST DATA, not a measurement: made by make-synthetic-smem.py\n")
    f.write(",".join(q(h) for h in HEAD + ["Section Name", "Metric Name", "Metric Unit", "Metric Value"]) + "\n")
    for k in KERNELS:
        row = [k[0], "4242", "example", "127.0.0.1", k[1], "1", "7", "(256, 1, 1)", "(8, 1, 1)", "0", "9.0"]
        for (m, u), v in zip(METRICS, values(k)):
            f.write(",".join(q(x) for x in row + ["Command line profiler metrics", m, u, fmt(v)]) + "\n")
