/*
 * app_swstrmatch.cl: seed 000's string match. The worker work-groups (all
 * but the last) stride over the text, one position per work-item per step;
 * where a keyword starts (at most one can: none is a prefix of another),
 * the work-item adds 1 to that keyword's counter, so one kernel targets
 * several addresses: variant 0 the system atomic_add, 1 atl_wave_fetch
 * (one atomic per address per wavefront), 2 the software atomic atl_sw_add
 * (the last work-group coordinates; it idles in 0 and 1). The step count is
 * uniform over the grid because the aggregating variants need every
 * work-item of a work-group at each call.
 */
#include "atomlab/atomics.clh"

#define KW_MAX 32

int match_at(__global const uchar *text, ulong n, ulong p, __global const uchar *kw, __global const uint *kwlen,
             uint nkw)
{
  for (uint k = 0; k < nkw; k++) {
    const uint len = kwlen[k];
    if (p + len > n)
      continue;
    uint j = 0;
    while (j < len && text[p + j] == kw[k * KW_MAX + j])
      j++;
    if (j == len)
      return (int)k;
  }
  return -1;
}

__kernel void swstrmatch(__global const uchar *text, ulong n, __global const uchar *kw, __global const uint *kwlen,
                         uint nkw, volatile __global uint *counts, uint variant, volatile __global ulong *req,
                         volatile __global uint *finished, volatile __global uint *abort_flag, uint bound)
{
  __local struct atl_group_scratch ws;
  __local struct atl_sw_scratch ss;
  __local struct atl_sw_coord cs;
  const struct atl_sw sw = {req, finished, abort_flag, bound};
  const uint workers = (uint)get_num_groups(0) - 1u, lsize = (uint)get_local_size(0);
  if (get_group_id(0) == workers) {
    if (variant == 2u)
      atl_sw_coordinate(counts, &cs, &sw, (lsize + ATL_WAVEFRONT - 1u) / ATL_WAVEFRONT);
    return;
  }
  const ulong stride = (ulong)workers * lsize, steps = (n + stride - 1) / stride, gid = get_global_id(0);
  for (ulong it = 0; it < steps; it++) {
    const ulong p = it * stride + gid;
    const int k = p < n ? match_at(text, n, p, kw, kwlen, nkw) : -1;
    const uint t = k < 0 ? 0u : (uint)k;
    if (variant == 2u)
      atl_sw_add(counts, t, 1u, k >= 0, &ss, &sw);
    else if (variant == 1u)
      atl_wave_fetch(ATL_ADD, counts + t, 1u, k >= 0, &ws);
    else if (k >= 0)
      atomic_add(counts + t, 1u);
  }
  if (variant == 2u)
    atl_sw_finish(&sw);
}
