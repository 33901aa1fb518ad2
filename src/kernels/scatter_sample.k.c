/*
 * scatter_sample.k.c: the keys' check and a sample of the keys for atl_scatter_add's pick
 * (src/apps/scatter_lib.c), written once for CUDA and OpenCL.
 *
 * The check (scatter_key_check) finds the lowest row whose key lies outside [0, targets) before any output word
 * is written: one read of the keys, a grid-stride loop whose work-items stop at their first bad key, and an
 * atomic min of that row into bad[0] (0xffffffff before it: no bad row) only where one was found, so valid keys
 * cost no atomic. The operation's kernels read bad[0] at their start and return where it is set
 * (atomlab/key_guard.h): nothing is written. scatter_key_bad then records the error for the host's message, the
 * first one only (bad[3] 0: none recorded yet): the row in bad[4], its key in bad[1] (low half) and bad[2] (high
 * half), the operation's targets in bad[5] and bad[6], then bad[3] = 1 (src/apps/scatter_guard.c).
 *
 * The sample: The rows are cut into PAIRS strata of equal size; pair j is two neighbouring keys at a
 * position in stratum j drawn from j's hash: the pairs' equality is the share of runs (sorted, clustered keys),
 * their first keys, spread over the whole array, the shares of the most frequent keys. A copy of the first keys
 * would miss both where the keys are not alike throughout, and would count a cluster of equal keys as a
 * recurring head; a fixed place in each stratum would alias with runs of a length that divides the stratum's
 * (the H100's first call: clusters of 32 keys at E = 2^20, strata of 32 rows, every pair across a boundary).
 * The keys are written as 32 bits (they are below the targets, < 2^32): half the bytes to read back.
 *
 *   IDX_T=uint|ulong  the keys' type
 */
#include "atomlab/port.h"

/* A key is bad where, read as unsigned 64 bits, it is at or past targets: an int64 key below 0 is then past it. */
ATL_KERNEL void scatter_key_check(ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ulong rows, ulong targets,
                                  ATL_GLOBAL volatile uint *bad)
{
  const ulong stride = atl_global_size64();
  for (ulong i = atl_global_id64(); i < rows; i += stride)
    if ((ulong)idx[i] >= targets) { /* this work-item's lowest: rows < 2^32, so the row fits */
      atl_atomic_min(&bad[0], (uint)i);
      return;
    }
}

ATL_KERNEL void scatter_key_bad(ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ATL_GLOBAL uint *bad, ulong targets)
{
  if (atl_global_id() != 0 || bad[0] == 0xffffffffu || bad[3] != 0u)
    return;
  const ulong k = (ulong)idx[bad[0]];
  bad[1] = (uint)k;
  bad[2] = (uint)(k >> 32);
  bad[4] = bad[0];
  bad[5] = (uint)targets;
  bad[6] = (uint)(targets >> 32);
  bad[3] = 1u;
}

/* It also zeroes the shares' table (scatter_shares.k.c), which the count fills next in the same queue: a host fill
 * of the table cost the call more host time than this launch (src/apps/scatter_lib.c). */
ATL_KERNEL void scatter_sample(ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ulong rows, uint pairs,
                               ATL_GLOBAL uint *out, ATL_GLOBAL uint *table, uint table_words)
{
  const uint j = atl_global_id();
  for (uint w = j; w < table_words; w += atl_global_size())
    table[w] = 0u;
  if (j >= pairs)
    return;
  const ulong lo = (ulong)j * (rows - 1) / pairs, hi = (ulong)(j + 1) * (rows - 1) / pairs; /* rows - 1 >= pairs */
  uint h = (j + 1u) * 0x9e3779b9u; /* a 32-bit mix of j: the position within the stratum */
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  const ulong p = lo + (hi > lo ? h % (hi - lo) : 0u); /* < hi <= rows - 1: its neighbour exists */
  out[2 * (ulong)j] = (uint)idx[p];
  out[2 * (ulong)j + 1] = (uint)idx[p + 1];
}
