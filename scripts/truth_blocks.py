#!/usr/bin/env python3
"""What sets a contended contiguous cell's level (issue [truth], round 6): reads `placement blocks` output, one file
per process (tests/crosscheck/placement.cu: each block's SM, start and cycles, per launch at offsets x rotations x
rounds), and prints

  - per process: the launches' Gop/s (median, range), by offset and by rotation;
  - whether the blocks' SMs (block b -> %smid) are the same in every launch, and in every process;
  - what a block's cycles follow: the share of their variance (each launch's cycles over its median) that the SM
    explains, that the line explains (the block's work: offset and (b + rotation) mod blocks), and both;
  - how the launch time follows its slowest blocks;
each for every fill (how the cell was re-initialised before a launch: memset, own, none), then each process's
median rate under each fill.

    truth_blocks.py FILE...
"""
import statistics
import sys


def read(path):
    """The launches of one file: dicts with round, offset, rot, gops, verified, smid, start, cycles; and the header."""
    launches, head = [], {}
    cur = None
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "blocks":
            head = {f[i]: f[i + 1] for i in range(2, len(f) - 1, 2)}
            head["op"] = f[1]
        elif f[0] == "launch":
            cur = {"round": int(f[1]), "offset": int(f[2]), "rot": int(f[3]), "gops": float(f[5]),
                   "verified": f[7] == "1", "fill": f[9] if len(f) > 9 else "memset"}
            launches.append(cur)
        elif f[0] in ("smid", "start_ns", "cycles") and cur is not None:
            cur[f[0]] = [int(x) for x in f[1:]]
    return head, [x for x in launches if "cycles" in x]


def share(groups_of, values):
    """Share of the variance of @p values that the means of their groups (keys in @p groups_of) explain."""
    mean = statistics.fmean(values)
    total = sum((v - mean) ** 2 for v in values)
    by = {}
    for k, v in zip(groups_of, values):
        by.setdefault(k, []).append(v)
    between = sum(len(g) * (statistics.fmean(g) - mean) ** 2 for g in by.values())
    return between / total if total > 0 else float("nan")


def spread(v):
    m = statistics.median(v)
    return (max(v) - min(v)) / m if m else float("nan")


def main(paths):
    maps, levels = {}, {}
    for path in paths:
        head, all_ls = read(path)
        if not all_ls:
            print(f"== {path}: no launches")
            continue
        maps[path] = [tuple(x["smid"]) for x in all_ls]
        fills = []
        for x in all_ls:
            if x["fill"] not in fills:
                fills.append(x["fill"])
        for fill in fills:
            ls = [x for x in all_ls if x["fill"] == fill]
            levels.setdefault(fill, []).append(statistics.median([x["gops"] for x in ls]))
            one(f"{path}, fill {fill}", head, ls)
    if len(maps) > 1:
        firsts = {p: m[0] for p, m in maps.items()}
        print(f"== processes: {len(set(firsts.values()))} distinct block -> SM maps among their first launches "
              f"({len(firsts)} processes)")
    for fill, v in levels.items():
        print(f"== fill {fill}: each process's median Gop/s {' '.join(f'{x:.3g}' for x in v)}"
              + (f" (spread {100 * spread(v):.1f}%)" if len(v) > 1 else ""))


def one(path, head, ls):
    if True:
        G = len(ls[0]["smid"])
        step = int(head.get("rotation_step", 0))
        g = [x["gops"] for x in ls]
        print(f"== {path}: {head.get('op')} c{head.get('c')} p{head.get('p')}, {len(ls)} launches, "
              f"{sum(x['verified'] for x in ls)} verified; Gop/s median {statistics.median(g):.3g}, "
              f"{min(g):.3g} to {max(g):.3g} (spread {100 * spread(g):.1f}%)")
        for key, name in (("round", "round"), ("offset", "offset MiB"), ("rot", "rotation")):
            vals = sorted({x[key] for x in ls})
            print(f"  by {name}: " + "  ".join(
                f"{v}: {statistics.median([x['gops'] for x in ls if x[key] == v]):.3g}" for v in vals))
        # the median over rotations at each (round, offset): what atomlab --rotate's row would keep, against one rotation
        pts = sorted({(x["round"], x["offset"]) for x in ls})
        med_rot = [statistics.median([x["gops"] for x in ls if (x["round"], x["offset"]) == q]) for q in pts]
        rot0 = [x["gops"] for x in ls if x["rot"] == 0]
        print(f"  over (round, offset): rotation 0 alone spread {100 * spread(rot0):.1f}%; median over rotations "
              f"spread {100 * spread(med_rot):.1f}%")
        mapsets = {tuple(x["smid"]) for x in ls}
        print(f"  block -> SM maps: {len(mapsets)} distinct over {len(ls)} launches; SMs used {len(set(ls[0]['smid']))}")
        sm, line, pair, val = [], [], [], []
        slow_ratio = []
        for x in ls:
            m = statistics.median(x["cycles"])
            slow_ratio.append(max(x["cycles"]) / m)
            for b in range(G):
                work = (b + x["rot"] * step) % G if step else (b + x["rot"]) % G
                sm.append(x["smid"][b])
                line.append((x["offset"], work))
                pair.append((x["smid"][b], x["offset"], work))
                val.append(x["cycles"][b] / m)
        print(f"  block cycles over their launch's median: variance explained by SM {share(sm, val):.2f}, by line "
              f"{share(line, val):.2f}, by the pair (SM, line; a pair repeats only across rounds) {share(pair, val):.2f}; slowest block / median "
              f"{statistics.median(slow_ratio):.2f} (median over launches), largest {max(slow_ratio):.2f}")
        # launch time against its slowest block: rate x slowest cycles should be flat if the slowest block sets it
        prod = [x["gops"] * max(x["cycles"]) for x in ls]
        print(f"  Gop/s x slowest block's cycles: spread {100 * spread(prod):.1f}% (flat: the slowest block sets the time)")
        # per SM: mean relative cycles, sorted, to show groups of SMs (e.g. the two L2 partitions' GPCs)
        per_sm = {}
        for s, v in zip(sm, val):
            per_sm.setdefault(s, []).append(v)
        means = sorted((statistics.fmean(v), s) for s, v in per_sm.items())
        print("  per-SM mean relative cycles, fastest 6: " + " ".join(f"sm{s}:{m:.2f}" for m, s in means[:6])
              + "; slowest 6: " + " ".join(f"sm{s}:{m:.2f}" for m, s in means[-6:]))


if __name__ == "__main__":
    main(sys.argv[1:])
