/*
 * app_swdot.k.c: seed 000's scalar product, written once for CUDA and
 * OpenCL. The worker work-groups (all but the last) stride over the vectors,
 * reduce their products in work-group memory and add the work-group's
 * partial sum to *sum with one atomic: variant 0 the native atomic add, 2 the
 * software atomic atl_sw_add (the last work-group coordinates). Variant 1
 * (warp-aggregated) skips the reduction: every work-item adds its own partial
 * through atl_wave_fetch (CUDA: atl_warp_fetch), one atomic per wave. The
 * last work-group idles in 0 and 1, so every variant runs on the same grid.
 * Sums wrap modulo 2^32 (the host's too).
 */
#include "atomlab/atomics.h"

ATL_KERNEL void swdot(ATL_GLOBAL const uint *a, ATL_GLOBAL const uint *b, atl_u64 n, volatile ATL_GLOBAL uint *sum,
                      uint variant, volatile ATL_GLOBAL atl_u64 *req, volatile ATL_GLOBAL uint *finished,
                      volatile ATL_GLOBAL uint *abort_flag, uint bound)
{
  ATL_SHARED atl_block_scratch ws; /* CUDA leaves ws and ss unused: the compiler drops them */
  ATL_SHARED atl_sw_scratch ss;
  ATL_SHARED struct atl_sw_coord cs;
  ATL_SHARED uint red[ATL_SW_COORD];
  const struct atl_sw sw = {req, finished, abort_flag, bound};
  const uint workers = (uint)atl_num_groups() - 1u, lsize = (uint)atl_local_size(), lid = (uint)atl_local_id();
  if (atl_group_id() == workers) {
    if (variant == 2u)
      atl_sw_coordinate(sum, &cs, &sw, atl_sw_waves(lsize));
    return;
  }
  const atl_u64 stride = (atl_u64)workers * lsize;
  uint acc = 0;
  for (atl_u64 i = atl_global_id64(); i < n; i += stride)
    acc += a[i] * b[i];
  if (variant == 1u) {
    atl_wave_fetch(ATL_ADD, sum, acc, 1, &ws);
    return;
  }
  red[lid] = acc;
  atl_barrier_local();
  uint s = 1;
  while (s < lsize)
    s <<= 1;
  for (s >>= 1; s > 0; s >>= 1) { /* any work-group size: the upper half folds onto the lower */
    if (lid < s && lid + s < lsize)
      red[lid] += red[lid + s];
    atl_barrier_local();
  }
  ATL_WHERE(lid == 0u) /* CUDA: the first thread; OpenCL: every work-item, for the barriers inside */
  {
    if (variant == 2u)
      atl_sw_add(sum, 0u, red[0], lid == 0u, &ss, &sw);
    else if (lid == 0u)
      atl_atomic_add(sum, red[0]);
  }
  if (variant == 2u)
    atl_sw_finish(&sw);
}
