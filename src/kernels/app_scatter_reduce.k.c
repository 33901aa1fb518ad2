/*
 * app_scatter_reduce.k.c: scatter-reduce of rows by max or min, out[idx[i]][c] = max(out[idx[i]][c], src[i][c])
 * (PyTorch's scatter_reduce_ amax / amin with include_self), written once for CUDA and OpenCL. A work-item per
 * element (row, column), neighbouring work-items on neighbouring columns of a row.
 *
 *   TYPE_f32 | TYPE_u32 | TYPE_i32, OP_max | OP_min, IDX_T=uint|ulong, D=N columns per row
 *
 * Floats take the integer atomics on their bit pattern, no CAS loop: IEEE floats of one sign order as their bits
 * do, as signed integers for the non-negative ones and in reverse as unsigned integers for the negative ones. So a
 * non-negative value takes a signed atomic max (min) and a negative one an unsigned atomic min (max): each is
 * exact against any stored value of either sign (a stored negative is a negative signed integer, below every
 * non-negative value's bits; a stored non-negative is below every negative value's bits as unsigned). NaNs are
 * not ordered: a NaN source is the caller's to keep out (PyTorch propagates it).
 */
#include "atomlab/port.h"
#include "atomlab/key_guard.h" /* KEY_GUARD: the library's builds return where its check found a bad key */

#if defined(TYPE_f32)
#define T float
#elif defined(TYPE_u32)
#define T uint
#else
#define T int
#endif

ATL_INLINE void reduce(ATL_GLOBAL T *p, T v)
{
#if defined(TYPE_f32)
  const uint bits = atl_as_uint(v);
#if defined(OP_max)
  if (!(v < 0.0f))
    atl_atomic_max((volatile ATL_GLOBAL int *)p, (int)bits);
  else
    atl_atomic_min((volatile ATL_GLOBAL uint *)p, bits);
#else
  if (!(v < 0.0f))
    atl_atomic_min((volatile ATL_GLOBAL int *)p, (int)bits);
  else
    atl_atomic_max((volatile ATL_GLOBAL uint *)p, bits);
#endif
#elif defined(OP_max)
  atl_atomic_max((volatile ATL_GLOBAL T *)p, v);
#else
  atl_atomic_min((volatile ATL_GLOBAL T *)p, v);
#endif
}

ATL_KERNEL void scatter_reduce(ATL_GLOBAL const T *src, ATL_GLOBAL const IDX_T *idx, ATL_GLOBAL T *out,
                               ulong rows KEY_GUARD_PARAM)
{
  KEY_GUARD_RETURN();
  const ulong e = atl_global_id64();
  if (e >= rows * D)
    return;
  const ulong row = e / D, col = e % D;
  reduce(out + (ulong)idx[row] * D + col, src[e]);
}
