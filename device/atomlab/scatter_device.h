/*
 * atomlab/scatter_device.h: scatter-add of rows in users' kernels, written once over atomlab/port.h (CUDA C and
 * OpenCL C 1.2), and the 16-bit float words the scatter app stores (issue [scatter]).
 *
 * 16-bit floats are carried as their bits (ushort): bf16 (8-bit significand, the upper half of an f32)
 * and IEEE f16. Conversions round to nearest, ties to even, with no flush of subnormals; arithmetic is
 * f32. atl_atomic_add_bf16 / _f16 add an f32 to a 16-bit word in global memory: on CUDA sm_90
 * red.global.add.noftz.bf16 (f16: sm_70 and later), elsewhere a 32-bit compare-and-swap loop on the
 * aligned word that holds the 16 bits (the f32 sum of the old value and the operand, rounded to 16 bits:
 * two roundings, docs/scatter.md's bound counts both).
 *
 * Row scatter-add (out[key][0..D) += vals[0..D)) for a warp or a work-group that owns one source row:
 *   atl_scatter_add_row_warp(out, key, vals, D, lane)    the 32 lanes of a warp add columns lane, lane+32,
 *                                                          ... (neighbouring words: coalesced atomics)
 *   atl_scatter_add_row_group(out, key, vals, D, lid, n) the n work-items of a work-group share the columns
 * and, aggregated by key, for a warp whose 32 lanes hold one source row each (rows i0 .. i0+31):
 *   atl_scatter_add_rows_warp_run(out, keys, src, D, lane, i0, n)  runs of equal consecutive keys summed in
 *                                                          registers first: one atomic per run and column
 * (float f32 only; any int type through atl_atomic_add). They call no barrier.
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

/* v added to the 16-bit word at @p p by a CAS loop on the 32-bit word that holds it (little-endian). */
#define ATL__ADD16_CAS(name, to_float, from_float)                                                                    \
  ATL_INLINE void name(ATL_GLOBAL ushort *p, float v)                                                                 \
  {                                                                                                                    \
    volatile ATL_GLOBAL uint *w = (volatile ATL_GLOBAL uint *)((size_t)p & ~(size_t)3);                               \
    const uint shift = ((size_t)p & 2) ? 16u : 0u;                                                                     \
    uint old = *w, seen;                                                                                               \
    for (;;) {                                                                                                         \
      const uint h = from_float(to_float(old >> shift) + v);                                                          \
      const uint want = (old & ~(0xffffu << shift)) | (h << shift);                                                   \
      if ((seen = atl_atomic_cas(w, old, want)) == old)                                                               \
        break;                                                                                                         \
      old = seen;                                                                                                      \
    }                                                                                                                  \
  }
ATL__ADD16_CAS(atl_atomic_add_bf16_cas, atl_bf16_to_float, atl_float_to_bf16)
ATL__ADD16_CAS(atl_atomic_add_f16_cas, atl_f16_to_float, atl_float_to_f16)

/* The native 16-bit reduction where the ISA has one (its operand is the value rounded to 16 bits once). */
ATL_INLINE void atl_atomic_add_bf16(ATL_GLOBAL ushort *p, float v)
{
#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const ushort h = (ushort)atl_float_to_bf16(v);
  asm volatile("red.global.add.noftz.bf16 [%0], %1;" ::"l"(p), "h"(h) : "memory");
#else
  atl_atomic_add_bf16_cas(p, v);
#endif
}

ATL_INLINE void atl_atomic_add_f16(ATL_GLOBAL ushort *p, float v)
{
#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  const ushort h = (ushort)atl_float_to_f16(v);
  asm volatile("red.global.add.noftz.f16 [%0], %1;" ::"l"(p), "h"(h) : "memory");
#else
  atl_atomic_add_f16_cas(p, v);
#endif
}

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
