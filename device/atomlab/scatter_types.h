/*
 * atomlab/scatter_types.h: the element types of a scatter kernel (src/kernels/app_scatter.k.c and
 * app_scatter_det.k.c, and a user's kernel built the same way), chosen by one define:
 *   TYPE_f32 | TYPE_u32 | TYPE_i32 | TYPE_bf16 | TYPE_f16   (16-bit floats stored as their bits, summed in f32)
 *   IDX_T=uint|ulong                                          the keys' type (default uint)
 * T: the stored value; A: what a lane sums in (f32 for the 16-bit floats); LOAD(x): a stored value as A;
 * STORE(a): a sum as a stored value (16-bit floats rounded to nearest, once). These are short, generic names:
 * include this header only in a kernel source that means them.
 */
#ifndef ATOMLAB_SCATTER_TYPES_H
#define ATOMLAB_SCATTER_TYPES_H

#include "atomlab/scatter_device.h"

#if defined(TYPE_f32)
typedef float T;
typedef float A;
#define LOAD(x) (x)
#define STORE(a) (a)
#elif defined(TYPE_bf16)
typedef ushort T;
typedef float A;
#define LOAD(x) atl_bf16_to_float(x)
#define STORE(a) ((ushort)atl_float_to_bf16(a))
#elif defined(TYPE_f16)
typedef ushort T;
typedef float A;
#define LOAD(x) atl_f16_to_float(x)
#define STORE(a) ((ushort)atl_float_to_f16(a))
#else
#if defined(TYPE_i32)
typedef int T;
#else
typedef uint T;
#endif
typedef T A;
#define LOAD(x) (x)
#define STORE(a) (a)
#endif
#if !defined(IDX_T)
#define IDX_T uint
#endif

#endif
