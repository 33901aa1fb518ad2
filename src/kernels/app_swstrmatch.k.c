/*
 * app_swstrmatch.k.c: seed 000's string match, written once for CUDA and
 * OpenCL. The worker work-groups (all but the last) stride over the text,
 * one position per work-item per step; where a keyword starts (at most one
 * can: none is a prefix of another), the work-item adds 1 to that keyword's
 * counter, so one kernel targets several addresses: variant 0 the native
 * atomic add, 1 atl_wave_fetch (one atomic per address per wave; CUDA:
 * atl_warp_fetch by the matching threads), 2 the software atomic atl_sw_add
 * (the last work-group coordinates; it idles in 0 and 1). On OpenCL the
 * step count is uniform over the grid because the aggregating variants need
 * every work-item of a work-group at each call (the library's portable
 * rule; a work-item past the text takes part in none); on CUDA each thread
 * strides to its own end and only the matching ones call, as the CUDA twin
 * did (the loop header is a line per language).
 */
#include "atomlab/atomics.h"

#define KW_MAX 32

ATL_FUNC int match_at(ATL_GLOBAL const uchar *text, atl_u64 n, atl_u64 p, ATL_GLOBAL const uchar *kw,
                        ATL_GLOBAL const uint *kwlen, uint nkw)
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

ATL_KERNEL void swstrmatch(ATL_GLOBAL const uchar *text, atl_u64 n, ATL_GLOBAL const uchar *kw,
                           ATL_GLOBAL const uint *kwlen, uint nkw, volatile ATL_GLOBAL uint *counts, uint variant,
                           volatile ATL_GLOBAL atl_u64 *req, volatile ATL_GLOBAL uint *finished,
                           volatile ATL_GLOBAL uint *abort_flag, uint bound)
{
  ATL_SHARED atl_block_scratch ws; /* CUDA leaves ws and ss unused: the compiler drops them */
  ATL_SHARED atl_sw_scratch ss;
  ATL_SHARED struct atl_sw_coord cs;
  const struct atl_sw sw = {req, finished, abort_flag, bound};
  const uint workers = (uint)atl_num_groups() - 1u;
  if (atl_group_id() == workers) {
    if (variant == 2u)
      atl_sw_coordinate(counts, &cs, &sw, atl_sw_waves((uint)atl_local_size()));
    return;
  }
  const atl_u64 stride = (atl_u64)workers * (uint)atl_local_size();
#if defined(__CUDACC__) /* each thread to its end of the text: its calls wait for no other thread */
  for (atl_u64 p = atl_global_id64(); p < n; p += stride) {
    const int k = match_at(text, n, p, kw, kwlen, nkw), t = k;
#else /* a step count uniform over the grid: every work-item reaches every call */
  const atl_u64 steps = (n + stride - 1) / stride, gid = atl_global_id64();
  for (atl_u64 it = 0; it < steps; it++) {
    const atl_u64 p = it * stride + gid;
    const int k = p < n ? match_at(text, n, p, kw, kwlen, nkw) : -1;
    const uint t = k < 0 ? 0u : (uint)k;
#endif
    ATL_WHERE(k >= 0) /* CUDA: the matching threads; OpenCL: every work-item, for the barriers inside */
    {
      if (variant == 2u)
        atl_sw_add(counts, t, 1u, k >= 0, &ss, &sw);
      else if (variant == 1u)
        atl_wave_fetch(ATL_ADD, counts + t, 1u, k >= 0, &ws);
      else if (k >= 0)
        atl_atomic_add(counts + t, 1u);
    }
  }
  if (variant == 2u)
    atl_sw_finish(&sw);
}
