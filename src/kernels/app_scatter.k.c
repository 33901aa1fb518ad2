/*
 * app_scatter.k.c: scatter-add of rows, out[idx[i]][:] += src[i][:] (issue [scatter]), written once for
 * CUDA and OpenCL. One warp (sub-group of 32 work-items, or 32 neighbouring work-items on OpenCL) owns
 * ROWS consecutive source rows; lane l covers columns l, l + 32, ... of each row, so a row's D updates
 * are neighbouring words (coalesced atomics).
 *
 *   D=N              columns per row
 *   TYPE_f32 | TYPE_u32
 *   VARIANT_atomic   one atomic per element
 *   VARIANT_run      the warp sums runs of equal consecutive keys in registers and flushes a run's sums
 *                    with one atomic per column when its key changes: a hot row or clustered keys cost one
 *                    atomic per run instead of one per row (uniform keys: the same as atomic)
 *   VARIANT_copy     the ceiling: copies src to dst row for row (no index, no atomic): the bandwidth of
 *                    moving the same bytes
 *
 * Floats on OpenCL 1.2 have no atomic add: a CAS loop on the word's bits (what users write there).
 */
#include "atomlab/port.h"

#if defined(TYPE_f32)
typedef float T;
#if defined(__CUDACC__)
#define ADD(p, v) atomicAdd((p), (v))
#else
ATL_INLINE void ADD(ATL_GLOBAL float *p, float v)
{
  ATL_GLOBAL volatile uint *w = (ATL_GLOBAL volatile uint *)p;
  uint old = *w, seen;
  while ((seen = atomic_cmpxchg(w, old, as_uint(as_float(old) + v))) != old)
    old = seen;
}
#endif
#else
typedef uint T;
#define ADD(p, v) atl_atomic_add((p), (v))
#endif

#define LANES 32u
#define COLS ((D + LANES - 1) / LANES) /* columns each lane covers */

ATL_KERNEL void scatter_add(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const uint *ATL_RESTRICT idx,
                            ATL_GLOBAL T *out, ulong rows, uint rows_per_warp)
{
  const ulong warp = atl_global_id64() / LANES;
  const uint lane = (uint)(atl_global_id64() % LANES);
  const ulong first = warp * rows_per_warp;
  ulong last = first + rows_per_warp;
  if (last > rows)
    last = rows;
#if defined(VARIANT_copy)
  for (ulong i = first; i < last; i++)
    for (uint c = lane; c < D; c += LANES)
      out[i * D + c] = src[i * D + c];
#elif defined(VARIANT_atomic)
  for (ulong i = first; i < last; i++) {
    const ulong k = idx[i];
    for (uint c = lane; c < D; c += LANES)
      ADD(&out[k * D + c], src[i * D + c]);
  }
#else /* VARIANT_run */
  T sum[COLS];
  ulong key = first < last ? idx[first] : 0;
  for (uint j = 0; j < COLS; j++)
    sum[j] = (T)0;
  for (ulong i = first; i < last; i++) {
    const ulong k = idx[i];
    if (k != key) { /* the run ends: its sums go out, one atomic per column */
      for (uint j = 0, c = lane; c < D; j++, c += LANES) {
        ADD(&out[key * D + c], sum[j]);
        sum[j] = (T)0;
      }
      key = k;
    }
    for (uint j = 0, c = lane; c < D; j++, c += LANES)
      sum[j] += src[i * D + c];
  }
  if (first < last)
    for (uint j = 0, c = lane; c < D; j++, c += LANES)
      ADD(&out[key * D + c], sum[j]);
#endif
}
