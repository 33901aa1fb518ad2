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
 *   VARIANT_block    a work-group owns BLOCK_ROWS consecutive rows and sums them in local memory by key (a
 *                    hash table of SLOTS keys x D columns, filled by compare-and-swap, linear probing up to
 *                    8 slots), then adds each slot's sums to the output with one atomic per column: a key
 *                    that recurs within the block (a zipf head, a hot row) costs one global atomic per block
 *                    instead of one per row; rows whose key finds no slot go straight to the output
 *   VARIANT_vector   CUDA on sm_90, f32, D a multiple of 4: as atomic, but lane l adds columns 4l .. 4l+3 with
 *                    one vector reduction (red.global.add.v4.f32): a quarter of the atomic operations, each
 *                    a 16-byte update of one sector
 *   VARIANT_copy     the ceiling: copies src to dst as one flat array (no index, no atomic, every
 *                    work-item on neighbouring words whatever D is): the bandwidth of moving the same bytes
 *
 * Floats on OpenCL 1.2 have no atomic add: a CAS loop on the word's bits (what users write there).
 */
#include "atomlab/port.h"

#if defined(TYPE_f32)
typedef float T;
#if defined(__CUDACC__)
#define ADD(p, v) atomicAdd((p), (v))
#define ADD_LOCAL(p, v) atomicAdd((p), (v))
#else
#define FLOAT_CAS_ADD(space, name)                                                                                    \
  ATL_INLINE void name(space float *p, float v)                                                                      \
  {                                                                                                                    \
    volatile space uint *w = (volatile space uint *)p;                                                                \
    uint old = *w, seen;                                                                                               \
    while ((seen = atomic_cmpxchg(w, old, as_uint(as_float(old) + v))) != old)                                        \
      old = seen;                                                                                                      \
  }
FLOAT_CAS_ADD(__global, ADD)
FLOAT_CAS_ADD(__local, ADD_LOCAL)
#endif
#else
typedef uint T;
#define ADD(p, v) atl_atomic_add((p), (v))
#define ADD_LOCAL(p, v) atl_atomic_add((p), (v))
#endif

#define LANES 32u
#define COLS ((D + LANES - 1) / LANES) /* columns each lane covers */

#if defined(VARIANT_block)
#define EMPTY 0xffffffffu
/* The slot of key @p k in the block's table (inserting it), or SLOTS where 8 probes find none. Every lane
 * of a row probes the same sequence, so all find the one slot whichever of them inserts the key. */
ATL_INLINE uint slot_of(volatile ATL_LOCAL uint *keys, uint k)
{
  uint s = (k * 2654435761u) % SLOTS;
  for (uint probe = 0; probe < 8; probe++, s = (s + 1) % SLOTS) {
    uint cur = keys[s];
    if (cur == EMPTY)
      cur = atl_atomic_cas(&keys[s], EMPTY, k);
    if (cur == EMPTY || cur == k)
      return s;
  }
  return SLOTS;
}

ATL_KERNEL void scatter_add(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const uint *ATL_RESTRICT idx,
                            ATL_GLOBAL T *out, ulong rows, uint rows_per_warp)
{
  ATL_SHARED uint keys[SLOTS];
  ATL_SHARED T sums[SLOTS * D];
  const uint lid = atl_local_id(), wg = atl_local_size();
  (void)rows_per_warp;
  for (uint s = lid; s < SLOTS; s += wg)
    keys[s] = EMPTY;
  for (uint e = lid; e < SLOTS * D; e += wg)
    sums[e] = (T)0;
  atl_barrier_local();
  const ulong first = (ulong)atl_group_id() * BLOCK_ROWS;
  ulong last = first + BLOCK_ROWS;
  if (last > rows)
    last = rows;
  const uint lane = lid % LANES, warps = wg / LANES;
  for (ulong i = first + lid / LANES; i < last; i += warps) {
    const uint k = idx[i];
    const uint s = slot_of(keys, k);
    for (uint c = lane; c < D; c += LANES)
      if (s < SLOTS)
        ADD_LOCAL(&sums[s * D + c], src[i * D + c]);
      else
        ADD(&out[(ulong)k * D + c], src[i * D + c]);
  }
  atl_barrier_local();
  for (uint e = lid; e < SLOTS * D; e += wg) {
    const uint k = keys[e / D];
    if (k != EMPTY)
      ADD(&out[(ulong)k * D + e % D], sums[e]);
  }
}
#else
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
  (void)first, (void)last;
  for (ulong e = atl_global_id64(); e < rows * D; e += atl_global_size64())
    out[e] = src[e];
#elif defined(VARIANT_vector)
#if defined(__CUDACC__) && defined(TYPE_f32) && __CUDA_ARCH__ >= 900 && D % 4 == 0
  for (ulong i = first; i < last; i++) {
    const ulong k = idx[i];
    for (uint c = lane * 4; c < D; c += LANES * 4) {
      const float4 v = *(const float4 *)&src[i * D + c];
      asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(&out[k * D + c]), "f"(v.x), "f"(v.y),
                   "f"(v.z), "f"(v.w)
                   : "memory");
    }
  }
#else
#error "VARIANT_vector needs CUDA on sm_90, TYPE_f32 and D a multiple of 4 (the driver says unsupported elsewhere)"
#endif
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
#endif
