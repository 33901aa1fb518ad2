/*
 * scatter_sample.k.c: a sample of the keys for atl_scatter_add's pick (src/apps/scatter_lib.c), written once
 * for CUDA and OpenCL. Pair j of PAIRS is the two neighbouring keys at row floor(j (rows - 1) / pairs): the
 * pairs' equality is the share of runs (sorted, clustered keys), their first keys, spread evenly over the
 * whole array, the shares of the most frequent keys. A copy of the first keys would miss both where the keys
 * are not alike throughout, and would count a cluster of equal keys as a recurring head.
 *
 *   IDX_T=uint|ulong  the keys' type
 */
#include "atomlab/port.h"

ATL_KERNEL void scatter_sample(ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ulong rows, uint pairs,
                               ATL_GLOBAL ulong *out)
{
  const uint j = atl_global_id();
  if (j >= pairs)
    return;
  const ulong p = (ulong)j * (rows - 1) / pairs; /* < rows - 1: its neighbour exists */
  out[2 * (ulong)j] = (ulong)idx[p];
  out[2 * (ulong)j + 1] = (ulong)idx[p + 1];
}
