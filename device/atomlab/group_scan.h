/*
 * atomlab/group_scan.h: the exclusive prefix sum of a global array by one work-group, written once over
 * atomlab/port.h (CUDA C and OpenCL C 1.2). Counting-sort passes place with it: the scatter app's
 * deterministic radix passes (det_scan) and the software map-reduce's offsets (mr_scan).
 *
 *   uint atl_group_exclusive_scan(ATL_GLOBAL uint *v, ulong n, ATL_LOCAL uint *part)
 *   uint atl_group_exclusive_scan_from(ATL_GLOBAL uint *v, ulong n, ATL_LOCAL uint *part, uint start)
 *     the same with v[i] = start + v[0] + ... + v[i - 1] (one block of a longer array: its start is the scanned
 *     sum of the blocks before it); returns start + the block's total
 *
 * Every work-item of the (single) work-group calls it; v[i] becomes v[0] + ... + v[i - 1] in place and every
 * work-item gets the total. @p part is work-group memory of local size + 1 words. Each work-item sums a
 * contiguous stretch, so the global reads coalesce poorly but touch each word twice at most; the stretches' sums
 * are scanned in local memory (atl_group_scan_parts).
 */
#ifndef ATOMLAB_GROUP_SCAN_H
#define ATOMLAB_GROUP_SCAN_H

#include "atomlab/port.h"

/* part[0 .. wg) += the sum of the entries before each (an inclusive scan in place, log2(wg) steps of two barriers;
 * any wg), where work-item 0 scanned them one after another: det_spread took 12.7 us a pass at E = 8 M on an
 * H200 with that and 11.3 with this, det_scan 4.3 and 3.2 (ncu, 3c3ee15 and de87474) */
ATL_INLINE void atl_group_scan_parts(ATL_LOCAL uint *part, uint lid, uint wg)
{
  for (uint off = 1; off < wg; off <<= 1) {
    const uint add = lid >= off ? part[lid - off] : 0u;
    atl_barrier_local();
    part[lid] += add;
    atl_barrier_local();
  }
}

ATL_INLINE uint atl_group_exclusive_scan_from(ATL_GLOBAL uint *v, ulong n, ATL_LOCAL uint *part, uint start)
{
  const uint lid = (uint)atl_local_id(), wg = (uint)atl_local_size();
  const ulong per = (n + wg - 1) / wg, lo = (ulong)lid * per < n ? (ulong)lid * per : n;
  const ulong hi = lo + per < n ? lo + per : n;
  uint s = 0;
  for (ulong i = lo; i < hi; i++)
    s += v[i];
  part[lid] = s;
  atl_barrier_local();
  atl_group_scan_parts(part, lid, wg);
  if (lid == wg - 1)
    part[wg] = start + part[lid];
  uint run = start + part[lid] - s;
  atl_barrier_local();
  for (ulong i = lo; i < hi; i++) {
    const uint x = v[i];
    v[i] = run;
    run += x;
  }
  return part[wg];
}

ATL_INLINE uint atl_group_exclusive_scan(ATL_GLOBAL uint *v, ulong n, ATL_LOCAL uint *part)
{
  return atl_group_exclusive_scan_from(v, n, part, 0u);
}

#endif /* ATOMLAB_GROUP_SCAN_H */
