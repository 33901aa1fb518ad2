/*
 * atomlab/scatter_device.h: scatter-add of rows in users' kernels, written once over atomlab/port.h (CUDA C and
 * OpenCL C 1.2), and the 16-bit float words the scatter app stores (issue [scatter]).
 *
 * 16-bit floats are carried as their bits (ushort): bf16 (8-bit significand, the upper half of an f32)
 * and IEEE f16. Conversions round to nearest, ties to even, with no flush of subnormals; arithmetic is
 * f32. atl_atomic_add_bf16x2 / _f16x2 add two f32s to the two 16-bit halves of an aligned 32-bit word in
 * global memory: on CUDA red.global.add.noftz.bf16x2 (sm_90) / .f16x2 (sm_70 and later), one native
 * reduction (the scalar .bf16 / .f16 forms compile to a CAS loop on sm_90); elsewhere a 32-bit
 * compare-and-swap loop on the word (the f32 sum of the old value and the operand, rounded to 16 bits: two
 * roundings, docs/design/scatter.md's bound counts both). atl_atomic_add_bf16_pair / _f16_pair add to two
 * neighbouring 16-bit words at any alignment, atl_atomic_add_bf16 / _f16 to one (both through the packed
 * form, -0.0f in a half that has nothing to add).
 *
 * Row scatter-add (out[key][0..D) += vals[0..D)) for a warp or a work-group that owns one source row:
 *   atl_scatter_add_row_warp(out, key, vals, D, lane)    the 32 lanes of a warp add columns lane, lane+32,
 *                                                          ... (neighbouring words: coalesced atomics)
 *   atl_scatter_add_row_warp_bf16 / _f16(out, key, vals, D, lane)  the same for 16-bit floats: column pairs,
 *                                                          one packed reduction each
 *   atl_scatter_add_row_group(out, key, vals, D, lid, n) the n work-items of a work-group share the columns
 * and, aggregated by key, for a warp whose 32 lanes hold one source row each (rows i0 .. i0+31):
 *   atl_scatter_add_rows_warp_run(out, keys, src, D, lane, i0, n)  runs of equal consecutive keys summed in
 *                                                          registers first: one atomic per run and column
 * (float f32 only; any int type through atl_atomic_add). They call no barrier.
 *
 * Which for which keys (H100, f32, D = 64, E = 8 M rows into V = 1 M; docs/design/scatter.md, "The library"): sorted or clustered keys,
 * atl_scatter_add_rows_warp_run (the run variant: 0.939 and 0.797 ms against one atomic per element's 1.267 and
 * 1.233); uniform keys, atl_scatter_add_row_warp is the atomic variant (2.474 ms), which the part variant's
 * L2-sized key ranges beat (1.532 ms), and a zipf head or a hot row needs a work-group's or a warp's
 * aggregation by key (part in one range: 1.190 and 0.829 ms against 7.368 and 39.471): neither is a device
 * function yet; the host's atl_scatter_add (include/atomlab/scatter.h) runs them. Weighted bincounts (D = 1):
 * atomlab/bincount_device.h.
 */
#ifndef ATOMLAB_SCATTER_DEVICE_H
#define ATOMLAB_SCATTER_DEVICE_H

#include "atomlab/port.h"

ATL_INLINE float atl_bf16_to_float(uint h) { return atl_as_float((h & 0xffffu) << 16); }

ATL_INLINE uint atl_float_to_bf16(float f)
{
  const uint x = atl_as_uint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) /* NaN stays a (quiet) NaN */
    return (x >> 16) | 0x40u;
  return (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
}

ATL_INLINE float atl_f16_to_float(uint h)
{
  const uint s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0) /* zero or subnormal: m x 2^-24, exact in f32 */
    return atl_as_float(s | atl_as_uint((float)m * 5.9604644775390625e-8f));
  if (e == 31)
    return atl_as_float(s | 0x7f800000u | (m << 13));
  return atl_as_float(s | ((e + 112u) << 23) | (m << 13));
}

/* Round to nearest even (F. Giesen's float_to_half_fast3_rtne): subnormals by an add of a magic number. */
ATL_INLINE uint atl_float_to_f16(float f)
{
  uint x = atl_as_uint(f);
  const uint sign = x & 0x80000000u;
  uint o;
  x ^= sign;
  if (x >= (127u + 16u) << 23) /* 65520 and above round to infinity; NaN stays NaN */
    o = x > 0x7f800000u ? 0x7e00u : 0x7c00u;
  else if (x < 113u << 23) {
    const uint magic = ((127u - 15u) + (23u - 10u) + 1u) << 23;
    o = atl_as_uint(atl_as_float(x) + atl_as_float(magic)) - magic;
  } else {
    const uint odd = (x >> 13) & 1u;
    x += ((15u - 127u) << 23) + 0xfffu;
    x += odd;
    o = x >> 13;
  }
  return o | (sign >> 16);
}

/* lo and hi added to the two 16-bit halves of the aligned 32-bit word @p w (lo at the lower address) by a
 * CAS loop on the word: each half the f32 sum of its old value and its operand, rounded to 16 bits. -0.0f
 * leaves a half's bits as they are (x + -0 is x for every x, and x rounds back to itself). */
#define ATL__ADD16X2_CAS(name, to_float, from_float)                                                                  \
  ATL_INLINE void name(ATL_GLOBAL uint *w, float lo, float hi)                                                        \
  {                                                                                                                    \
    volatile ATL_GLOBAL uint *vw = (volatile ATL_GLOBAL uint *)w;                                                     \
    uint old = *vw, seen;                                                                                              \
    for (;;) {                                                                                                         \
      const uint want = from_float(to_float(old) + lo) | (from_float(to_float(old >> 16) + hi) << 16);               \
      if ((seen = atl_atomic_cas(vw, old, want)) == old)                                                              \
        break;                                                                                                         \
      old = seen;                                                                                                      \
    }                                                                                                                  \
  }
ATL__ADD16X2_CAS(atl_atomic_add_bf16x2_cas, atl_bf16_to_float, atl_float_to_bf16)
ATL__ADD16X2_CAS(atl_atomic_add_f16x2_cas, atl_f16_to_float, atl_float_to_f16)

/*
 * The packed 16-bit reductions: lo and hi (f32, each rounded to 16 bits once) added to the halves of the
 * aligned word @p w by one instruction where the ISA has it: red.global.add.noftz.bf16x2 on sm_90 (SASS
 * REDG.E.ADD.BF16x2), .f16x2 from sm_70 (REDG.E.ADD.F16x2). The scalar red.global.add.noftz.bf16 / .f16
 * compile to a CAS loop (ATOMG.E.CAS) on sm_90, so every 16-bit add here goes through the packed form, with
 * -0.0f (bits 0x8000, which leave the other half as it is) where a half has nothing to add. Elsewhere
 * (sm_80 bf16, OpenCL) the CAS loop above.
 */
ATL_INLINE void atl_atomic_add_bf16x2(ATL_GLOBAL uint *w, float lo, float hi)
{
#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uint v = atl_float_to_bf16(lo) | (atl_float_to_bf16(hi) << 16);
  asm volatile("red.global.add.noftz.bf16x2 [%0], %1;" ::"l"(w), "r"(v) : "memory");
#else
  atl_atomic_add_bf16x2_cas(w, lo, hi);
#endif
}

ATL_INLINE void atl_atomic_add_f16x2(ATL_GLOBAL uint *w, float lo, float hi)
{
#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  const uint v = atl_float_to_f16(lo) | (atl_float_to_f16(hi) << 16);
  asm volatile("red.global.add.noftz.f16x2 [%0], %1;" ::"l"(w), "r"(v) : "memory");
#else
  atl_atomic_add_f16x2_cas(w, lo, hi);
#endif
}

/* lo added to p[0] and hi to p[1] (16-bit words, -0.0f for nothing): one packed reduction where p is 4-byte
 * aligned, else one on each of the two words it straddles. */
#define ATL__ADD16_PAIR(name, add2)                                                                                   \
  ATL_INLINE void name(ATL_GLOBAL ushort *p, float lo, float hi)                                                      \
  {                                                                                                                    \
    ATL_GLOBAL uint *w = (ATL_GLOBAL uint *)((size_t)p & ~(size_t)3);                                                 \
    if (((size_t)p & 2) == 0) {                                                                                        \
      add2(w, lo, hi);                                                                                                 \
    } else {                                                                                                           \
      add2(w, -0.0f, lo);                                                                                              \
      if (atl_as_uint(hi) != 0x80000000u)                                                                              \
        add2(w + 1, hi, -0.0f);                                                                                        \
    }                                                                                                                  \
  }
ATL__ADD16_PAIR(atl_atomic_add_bf16_pair, atl_atomic_add_bf16x2)
ATL__ADD16_PAIR(atl_atomic_add_f16_pair, atl_atomic_add_f16x2)

/* v added to the 16-bit word at @p p: the packed reduction on the aligned word that holds it, -0 beside it. */
#define ATL__ADD16_ONE(name, add2)                                                                                     \
  ATL_INLINE void name(ATL_GLOBAL ushort *p, float v)                                                                  \
  {                                                                                                                    \
    ATL_GLOBAL uint *w = (ATL_GLOBAL uint *)((size_t)p & ~(size_t)3);                                                  \
    if ((size_t)p & 2)                                                                                                 \
      add2(w, -0.0f, v);                                                                                               \
    else                                                                                                               \
      add2(w, v, -0.0f);                                                                                               \
  }
ATL__ADD16_ONE(atl_atomic_add_bf16, atl_atomic_add_bf16x2)
ATL__ADD16_ONE(atl_atomic_add_f16, atl_atomic_add_f16x2)

/* f32 atomic add in global memory: the hardware's on CUDA, a CAS loop on OpenCL 1.2 (no float atomics). */
ATL_INLINE void atl_atomic_add_f32(ATL_GLOBAL float *p, float v)
{
#if defined(__CUDACC__)
  atomicAdd(p, v);
#else
  volatile ATL_GLOBAL uint *w = (volatile ATL_GLOBAL uint *)p;
  uint old = *w, seen;
  while ((seen = atl_atomic_cas(w, old, atl_as_uint(atl_as_float(old) + v))) != old)
    old = seen;
#endif
}

/* One source row into out[key]: lane l of 32 adds columns l, l + 32, ... */
ATL_INLINE void atl_scatter_add_row_warp(ATL_GLOBAL float *out, ulong key, ATL_GLOBAL const float *vals, uint d,
                                         uint lane)
{
  for (uint c = lane; c < d; c += 32u)
    atl_atomic_add_f32(&out[key * d + c], vals[c]);
}

/* One source row of 16-bit floats (their bits) into out[key]: lane l of 32 adds column pairs l, l + 32, ...
 * (columns 2p and 2p + 1), one packed reduction per pair (two where a pair straddles words: odd d, odd key);
 * an odd d's last column goes with -0.0f beside it. */
#define ATL__ROW_WARP16(name, to_float, add_pair)                                                                      \
  ATL_INLINE void name(ATL_GLOBAL ushort *out, ulong key, ATL_GLOBAL const ushort *vals, uint d, uint lane)          \
  {                                                                                                                    \
    for (uint c = 2u * lane; c < d; c += 64u)                                                                          \
      add_pair(&out[key * d + c], to_float(vals[c]), c + 1u < d ? to_float(vals[c + 1u]) : -0.0f);                   \
  }
ATL__ROW_WARP16(atl_scatter_add_row_warp_bf16, atl_bf16_to_float, atl_atomic_add_bf16_pair)
ATL__ROW_WARP16(atl_scatter_add_row_warp_f16, atl_f16_to_float, atl_atomic_add_f16_pair)

/* One source row into out[key] by @p n work-items of a work-group (lid in 0 .. n-1). */
ATL_INLINE void atl_scatter_add_row_group(ATL_GLOBAL float *out, ulong key, ATL_GLOBAL const float *vals, uint d,
                                          uint lid, uint n)
{
  for (uint c = lid; c < d; c += n)
    atl_atomic_add_f32(&out[key * d + c], vals[c]);
}

/* Rows i0 .. i0+n-1 (keys[i], src row i of d columns) by one warp, runs of equal consecutive keys summed
 * in registers first (the order within a run is the rows' order): one atomic per run and column. Lane l
 * handles columns l, l + 32, ... up to ATL_SCATTER_MAX_COLS x 32 columns. */
#if !defined(ATL_SCATTER_MAX_COLS)
#define ATL_SCATTER_MAX_COLS 16
#endif
ATL_INLINE void atl_scatter_add_rows_warp_run(ATL_GLOBAL float *out, ATL_GLOBAL const uint *keys,
                                              ATL_GLOBAL const float *src, uint d, uint lane, ulong i0, uint n)
{
  float sum[ATL_SCATTER_MAX_COLS];
  uint key = n ? keys[i0] : 0;
  for (uint j = 0; j < ATL_SCATTER_MAX_COLS; j++)
    sum[j] = 0.0f;
  for (ulong i = i0; i < i0 + n; i++) {
    const uint k = keys[i];
    if (k != key) {
      for (uint j = 0, c = lane; c < d && j < ATL_SCATTER_MAX_COLS; j++, c += 32u) {
        atl_atomic_add_f32(&out[(ulong)key * d + c], sum[j]);
        sum[j] = 0.0f;
      }
      key = k;
    }
    for (uint j = 0, c = lane; c < d && j < ATL_SCATTER_MAX_COLS; j++, c += 32u)
      sum[j] += src[i * d + c];
  }
  if (n)
    for (uint j = 0, c = lane; c < d && j < ATL_SCATTER_MAX_COLS; j++, c += 32u)
      atl_atomic_add_f32(&out[(ulong)key * d + c], sum[j]);
}

#endif
