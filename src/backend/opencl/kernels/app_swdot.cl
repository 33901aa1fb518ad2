/*
 * app_swdot.cl: seed 000's scalar product. The worker work-groups (all but
 * the last) stride over the vectors, reduce their products in local memory
 * and add the work-group's partial sum to *sum with one atomic: variant 0
 * the system atomic_add, 2 the software atomic atl_sw_add (the last
 * work-group coordinates). Variant 1 (warp-aggregated) skips the local
 * reduction: every work-item adds its own partial through atl_wave_fetch,
 * one atomic per wavefront. The last work-group idles in 0 and 1, so every
 * variant runs on the same grid. Sums wrap modulo 2^32 (the host's too).
 */
#include "atomlab/atomics.clh"

__kernel void swdot(__global const uint *a, __global const uint *b, ulong n, volatile __global uint *sum,
                    uint variant, volatile __global ulong *req, volatile __global uint *finished,
                    volatile __global uint *abort_flag, uint bound)
{
  __local struct atl_group_scratch ws;
  __local struct atl_sw_scratch ss;
  __local struct atl_sw_coord cs;
  __local uint red[ATL_SW_COORD];
  const struct atl_sw sw = {req, finished, abort_flag, bound};
  const uint workers = (uint)get_num_groups(0) - 1u, lsize = (uint)get_local_size(0), lid = (uint)get_local_id(0);
  if (get_group_id(0) == workers) {
    if (variant == 2u)
      atl_sw_coordinate(sum, &cs, &sw, (lsize + ATL_WAVEFRONT - 1u) / ATL_WAVEFRONT);
    return;
  }
  const ulong stride = (ulong)workers * lsize;
  uint acc = 0;
  for (ulong i = get_global_id(0); i < n; i += stride)
    acc += a[i] * b[i];
  if (variant == 1u) {
    atl_wave_fetch(ATL_ADD, sum, acc, 1, &ws);
    return;
  }
  red[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint s = 1;
  while (s < lsize)
    s <<= 1;
  for (s >>= 1; s > 0; s >>= 1) { /* any work-group size: the upper half folds onto the lower */
    if (lid < s && lid + s < lsize)
      red[lid] += red[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (variant == 2u) {
    atl_sw_add(sum, 0u, red[0], lid == 0u, &ss, &sw);
    atl_sw_finish(&sw);
  } else if (lid == 0u) {
    atomic_add(sum, red[0]);
  }
}
