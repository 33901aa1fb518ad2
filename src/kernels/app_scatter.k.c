/*
 * app_scatter.k.c: scatter-add of rows, out[idx[i]][:] += src[i][:] (issue [scatter]), written once for
 * CUDA and OpenCL. One warp (sub-group of 32 work-items, or 32 neighbouring work-items on OpenCL) owns
 * ROWS consecutive source rows; lane l covers columns l, l + 32, ... of each row, so a row's D updates
 * are neighbouring words (coalesced atomics).
 *
 *   D=N              columns per row
 *   TYPE_f32 | TYPE_u32 | TYPE_i32 | TYPE_bf16 | TYPE_f16 (16-bit floats stored as their bits, summed in f32,
 *                    added by atomlab/scatter_device.h's atl_atomic_add_bf16 / _f16)
 *   IDX_T=uint|ulong the keys' type (--index i32 | i64)
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
 * Floats on OpenCL 1.2 have no atomic add: a CAS loop on the word's bits (what users write there); 16-bit
 * floats a CAS loop on the 32-bit word that holds them (atomlab/scatter_device.h).
 */
#include "atomlab/port.h"
#include "atomlab/scatter_device.h"

/* T: the stored value; A: what a lane sums in (f32 for the 16-bit floats); LOAD: a stored value as A. */
#if defined(TYPE_f32)
typedef float T;
typedef float A;
#define LOAD(x) (x)
#define ADD(p, v) atl_atomic_add_f32((p), (v))
#elif defined(TYPE_bf16) || defined(TYPE_f16)
typedef ushort T;
typedef float A;
#if defined(TYPE_bf16)
#define LOAD(x) atl_bf16_to_float(x)
#define ADD(p, v) atl_atomic_add_bf16((p), (v))
#else
#define LOAD(x) atl_f16_to_float(x)
#define ADD(p, v) atl_atomic_add_f16((p), (v))
#endif
#else
#if defined(TYPE_i32)
typedef int T;
#else
typedef uint T;
#endif
typedef T A;
#define LOAD(x) (x)
#define ADD(p, v) atl_atomic_add((p), (v))
#endif
#if !defined(IDX_T)
#define IDX_T uint
#endif
/* Local sums (the block variant) are A: f32 by the hardware on CUDA, a CAS loop on OpenCL 1.2. */
#if defined(__CUDACC__)
#define ADD_LOCAL(p, v) atomicAdd((p), (v))
#elif defined(TYPE_u32) || defined(TYPE_i32)
#define ADD_LOCAL(p, v) atl_atomic_add((p), (v))
#else
ATL_INLINE void ADD_LOCAL(__local float *p, float v)
{
  volatile __local uint *w = (volatile __local uint *)p;
  uint old = *w, seen;
  while ((seen = atomic_cmpxchg(w, old, as_uint(as_float(old) + v))) != old)
    old = seen;
}
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

ATL_KERNEL void scatter_add(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const IDX_T *ATL_RESTRICT idx,
                            ATL_GLOBAL T *out, ulong rows, uint rows_per_warp)
{
  ATL_SHARED uint keys[SLOTS];
  ATL_SHARED A sums[SLOTS * D];
  const uint lid = atl_local_id(), wg = atl_local_size();
  (void)rows_per_warp;
  for (uint s = lid; s < SLOTS; s += wg)
    keys[s] = EMPTY;
  for (uint e = lid; e < SLOTS * D; e += wg)
    sums[e] = (A)0;
  atl_barrier_local();
  const ulong first = (ulong)atl_group_id() * BLOCK_ROWS;
  ulong last = first + BLOCK_ROWS;
  if (last > rows)
    last = rows;
  const uint lane = lid % LANES, warps = wg / LANES;
  for (ulong i = first + lid / LANES; i < last; i += warps) {
    const uint k = (uint)idx[i];
    const uint s = slot_of(keys, k);
    for (uint c = lane; c < D; c += LANES)
      if (s < SLOTS)
        ADD_LOCAL(&sums[s * D + c], LOAD(src[i * D + c]));
      else
        ADD(&out[(ulong)k * D + c], LOAD(src[i * D + c]));
  }
  atl_barrier_local();
  for (uint e = lid; e < SLOTS * D; e += wg) {
    const uint k = keys[e / D];
    if (k != EMPTY)
      ADD(&out[(ulong)k * D + e % D], sums[e]);
  }
}
#else
ATL_KERNEL void scatter_add(ATL_GLOBAL const T *ATL_RESTRICT src, ATL_GLOBAL const IDX_T *ATL_RESTRICT idx,
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
      ADD(&out[k * D + c], LOAD(src[i * D + c]));
  }
#else /* VARIANT_run */
  A sum[COLS];
  ulong key = first < last ? idx[first] : 0;
  for (uint j = 0; j < COLS; j++)
    sum[j] = (A)0;
  for (ulong i = first; i < last; i++) {
    const ulong k = idx[i];
    if (k != key) { /* the run ends: its sums go out, one atomic per column */
      for (uint j = 0, c = lane; c < D; j++, c += LANES) {
        ADD(&out[key * D + c], sum[j]);
        sum[j] = (A)0;
      }
      key = k;
    }
    for (uint j = 0, c = lane; c < D; j++, c += LANES)
      sum[j] += LOAD(src[i * D + c]);
  }
  if (first < last)
    for (uint j = 0, c = lane; c < D; j++, c += LANES)
      ADD(&out[key * D + c], sum[j]);
#endif
}
#endif
