/*
 * scatter_sample.k.c: a sample of the keys for atl_scatter_add's pick (src/apps/scatter_lib.c), written once
 * for CUDA and OpenCL. The rows are cut into PAIRS strata of equal size; pair j is two neighbouring keys at a
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

ATL_KERNEL void scatter_sample(ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ulong rows, uint pairs,
                               ATL_GLOBAL uint *out)
{
  const uint j = atl_global_id();
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
