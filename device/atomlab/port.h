/*
 * atomlab/port.h: the few words a kernel needs so that one source compiles
 * as CUDA C (NVRTC or nvcc: __CUDACC__) and as OpenCL C 1.2
 * (__OPENCL_VERSION__ or __OPENCL_C_VERSION__). It names what the two
 * languages spell differently (kernel declaration, address spaces, ids,
 * barriers, fences, atomics, types, bit casts, work-group memory sized at
 * launch, CUDA's compiler hints, a sub-group count) and nothing else: an
 * instruction only one ISA has (warp votes, match-any, PRMT, shuffles) stays
 * behind `#if defined(__CUDACC__)` in the kernel, or in a source per language
 * (src/kernels/README.md lists which and why). The device library written
 * once over it is atomlab/atomics.h.
 *
 * Every macro expands to exactly what the CUDA and the OpenCL twins of a
 * kernel wrote before they became one source, so porting a kernel changes
 * no instruction (tests/cuda/test_nvrtc_kernels.c dumps the PTX to check).
 *
 * Embedded kernels include it as `#include "atomlab/port.h"` (the embed
 * step inlines it: OpenCL has no include path for sources built from
 * strings); users' kernels include it from the installed include/atomlab/.
 * It includes nothing itself, so that inlining needs no recursion.
 */
#ifndef ATOMLAB_PORT_H
#define ATOMLAB_PORT_H

#if defined(__CUDACC__)

/* OpenCL C's unsigned types. ulong is 64-bit on both (unsigned long long is
 * the type CUDA's 64-bit atomics take; unsigned long is 64-bit on Linux
 * only). Under nvcc the host's <sys/types.h> (glibc, which the CUDA runtime
 * header includes before any user code) has already declared ulong as
 * unsigned long, and a second typedef of it does not compile: there ulong is
 * glibc's, and a kernel takes atl_u64 for a word of the 64-bit atomics, as
 * this header and the device library do. (The others are the same types as
 * glibc's, which C++ allows twice.) */
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
#if defined(__CUDACC_RTC__)
typedef unsigned long long ulong;
#endif
typedef unsigned long long atl_u64;

/* A kernel: C linkage, so the host finds it by its plain name. */
#define ATL_KERNEL extern "C" __global__
/* An inline device function: file-local so it never reaches the PTX on its
 * own, forced inline as the CUDA kernels had it. */
#define ATL_INLINE static __device__ __forceinline__
/* A device function left to the compiler's inlining. */
#define ATL_FUNC static __device__

/* Address spaces. CUDA pointers are generic, so the pointer qualifiers are
 * empty; ATL_SHARED declares a work-group variable (at kernel scope, the only
 * place OpenCL 1.2 allows one). */
#define ATL_GLOBAL
#define ATL_LOCAL
#define ATL_SHARED __shared__
/* No aliasing: CUDA kernels say so for read-only inputs (with atl_ldg);
 * the OpenCL kernels never did, and adding it there would be a change of
 * its own to measure. */
#define ATL_RESTRICT __restrict__

/* Ids and sizes, first dimension. On CUDA they are unsigned (32-bit); on
 * OpenCL size_t: assign them to a uint, as the kernels do, or widen first. */
#define atl_global_id() (blockIdx.x * blockDim.x + threadIdx.x)
#define atl_local_id() (threadIdx.x)
#define atl_group_id() (blockIdx.x)
#define atl_num_groups() (gridDim.x)
#define atl_local_size() (blockDim.x)
#define atl_global_size() (gridDim.x * blockDim.x)
/* The same in 64 bits (size_t), widened before the multiply. */
#define atl_global_id64() ((size_t)blockIdx.x * blockDim.x + threadIdx.x)
#define atl_global_size64() ((size_t)gridDim.x * blockDim.x)

/* A load through the read-only data cache (LDG.E.CONSTANT): only for data no
 * thread writes during the kernel. */
#define atl_ldg(p) __ldg(p)

/* Barriers: every thread of the work-group waits; __syncthreads also orders
 * shared and global memory within the block, which both OpenCL forms ask. */
#define atl_barrier_local() __syncthreads()
#define atl_barrier() __syncthreads()

/*
 * Fences. atl_fence_device: this thread's earlier memory accesses are seen
 * by every thread of the device before its later ones. CUDA:
 * __threadfence() (PTX membar.gl, the same as fence.sc.gpu). OpenCL 1.2:
 * mem_fence(CLK_GLOBAL_MEM_FENCE), which the specification defines for the
 * work-item's own ordering only;
 * NVIDIA's OpenCL compiles it to a CTA-scope MEMBAR (MEMBAR.SC.CTA: the GPU
 * run's stop 12 found it, in the skiplist; results/nvidia-h100/README.md), so
 * there it does NOT publish a store to another work-group.
 * ATL_FENCE_DEVICE_SCOPE says which: a kernel that publishes a plain store to
 * other work-groups tests it and, without it, writes the value with an
 * atomic instead (performed at L2, the device's coherence point).
 * atl_fence_group: the same within the work-group (__threadfence_block() /
 * mem_fence of local and global memory), which both keep.
 */
#define ATL_FENCE_DEVICE_SCOPE 1
#define atl_fence_device() __threadfence()
#define atl_fence_group() __threadfence_block()

/*
 * Atomics with OpenCL 1.2's semantics (each returns the old value):
 * atl_atomic_inc / _dec wrap like atomic_inc / atomic_dec (CUDA's atomicInc
 * and atomicDec take a limit and are not these: they are atomicAdd and
 * atomicSub of 1). The 32-bit ones take int or uint, the 64-bit ones
 * (suffix 64) ulong; the value converts to the pointer's type, as OpenCL's
 * overloads do. The pointer may be volatile, as OpenCL's builtins allow;
 * CUDA's take a plain pointer, and an atomic is performed at the coherence
 * point either way, so the qualifier is dropped. They are templates, not
 * overloads for each type: a template is instantiated only where a kernel
 * calls it, so the PTX holds no helper of CUDA's atomics for a type the
 * kernel never uses (overloads add one byte-sized global per type).
 */
template <typename T> struct atl__same {
  typedef T type;
};
#define ATL__ATOMIC2(name, cuda)                                                                                       \
  template <typename T> ATL_INLINE T name(volatile T *p, typename atl__same<T>::type v) { return cuda((T *)p, v); }
ATL__ATOMIC2(atl_atomic_add, atomicAdd)
ATL__ATOMIC2(atl_atomic_sub, atomicSub)
ATL__ATOMIC2(atl_atomic_xchg, atomicExch)
ATL__ATOMIC2(atl_atomic_min, atomicMin)
ATL__ATOMIC2(atl_atomic_max, atomicMax)
ATL__ATOMIC2(atl_atomic_and, atomicAnd)
ATL__ATOMIC2(atl_atomic_or, atomicOr)
ATL__ATOMIC2(atl_atomic_xor, atomicXor)
#undef ATL__ATOMIC2
template <typename T> ATL_INLINE T atl_atomic_inc(volatile T *p) { return atomicAdd((T *)p, (T)1); }
template <typename T> ATL_INLINE T atl_atomic_dec(volatile T *p) { return atomicSub((T *)p, (T)1); }
template <typename T>
ATL_INLINE T atl_atomic_cas(volatile T *p, typename atl__same<T>::type cmp, typename atl__same<T>::type v)
{
  return atomicCAS((T *)p, cmp, v);
}
#define atl_atomic_add64 atl_atomic_add
#define atl_atomic_xchg64 atl_atomic_xchg
#define atl_atomic_cas64 atl_atomic_cas
#define atl_atomic_min64 atl_atomic_min
#define atl_atomic_max64 atl_atomic_max
#define atl_atomic_and64 atl_atomic_and
#define atl_atomic_or64 atl_atomic_or
#define atl_atomic_xor64 atl_atomic_xor
/* CUDA has no 64-bit atomicSub: add the two's complement. */
ATL_INLINE atl_u64 atl_atomic_sub64(volatile atl_u64 *p, atl_u64 v) { return atomicAdd((atl_u64 *)p, 0ull - v); }

/* The bits of a value as another type of the same size (OpenCL's as_type). */
#define atl_as_float(u) __uint_as_float(u)
#define atl_as_uint(f) __float_as_uint(f)
#define atl_as_double(u) __longlong_as_double((long long)(u))
#define atl_as_ulong(d) ((atl_u64)__double_as_longlong(d))

/* A uint4 of zeros (OpenCL: the vector literal (uint4)(0)). */
#define atl_uint4_zero() make_uint4(0, 0, 0, 0)

/*
 * Compiler hints the CUDA kernels give and the OpenCL ones never did (adding
 * them there would change what the OpenCL compilers emit):
 * ATL_LAUNCH_BOUNDS(threads[, blocks per SM]) before a kernel's name caps its
 * registers; ATL_PRAGMA_CUDA(unroll) before a loop is #pragma unroll.
 */
#define ATL_LAUNCH_BOUNDS(...) __launch_bounds__(__VA_ARGS__)
#define ATL_PRAGMA_CUDA(x) _Pragma(#x)

/*
 * Work-group memory sized at launch (the host gives the bytes): CUDA
 * declares it in the kernel's body (extern __shared__), OpenCL takes it as a
 * __local parameter. A kernel writes both, the parameter last:
 *   ATL_KERNEL void k(ATL_GLOBAL uint *out ATL_DYNAMIC_SHARED_PARAM(uint, lh))
 *   { ATL_DYNAMIC_SHARED(uint, lh); ... }
 */
#define ATL_DYNAMIC_SHARED_PARAM(T, name)
#define ATL_DYNAMIC_SHARED(T, name) extern __shared__ T name[]

/*
 * Sub-groups (CUDA: the warp of 32 lanes of a 1-D block): where
 * ATL_HAVE_SUBGROUPS holds, atl_subgroup_count(pred) is how many active
 * lanes of the caller's sub-group have @p pred (0 or 1) set, for every one
 * of them (a vote and a population count: __ballot_sync + __popc), and
 * atl_subgroup_local_id() the caller's lane.
 */
#define ATL_HAVE_SUBGROUPS 1
#define atl_subgroup_count(pred) ((uint)__popc(__ballot_sync(__activemask(), (pred))))
#define atl_subgroup_local_id() (threadIdx.x & 31u)

#elif defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
/* __OPENCL_VERSION__ is the device's version, defined by the runtime (PoCL,
 * NVIDIA); __OPENCL_C_VERSION__ the language's, defined by the compiler from
 * OpenCL C 1.2 on (a bare clang -x cl defines only this one). */

#define ATL_KERNEL __kernel
#define ATL_INLINE static inline
#define ATL_FUNC static

#define ATL_GLOBAL __global
#define ATL_LOCAL __local
#define ATL_SHARED __local
#define ATL_RESTRICT

#define atl_global_id() get_global_id(0)
#define atl_local_id() get_local_id(0)
#define atl_group_id() get_group_id(0)
#define atl_num_groups() get_num_groups(0)
#define atl_local_size() get_local_size(0)
#define atl_global_size() get_global_size(0)
#define atl_global_id64() get_global_id(0)
#define atl_global_size64() get_global_size(0)

/* A plain load: OpenCL 1.2 has no read-only cache hint (the compiler may use
 * one for a const pointer it proves unaliased). */
#define atl_ldg(p) (*(p))

#define atl_barrier_local() barrier(CLK_LOCAL_MEM_FENCE)
#define atl_barrier() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

/* See the CUDA branch: on NVIDIA this is CTA-scope, hence 0. */
#define ATL_FENCE_DEVICE_SCOPE 0
#define atl_fence_device() mem_fence(CLK_GLOBAL_MEM_FENCE)
#define atl_fence_group() mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

/* OpenCL 1.2's builtins are already overloaded for int and uint; the 64-bit
 * ones are the atom_* of cl_khr_int64_base_atomics and
 * cl_khr_int64_extended_atomics, enabled here where the device has them. */
#define atl_atomic_add atomic_add
#define atl_atomic_sub atomic_sub
#define atl_atomic_inc atomic_inc
#define atl_atomic_dec atomic_dec
#define atl_atomic_xchg atomic_xchg
#define atl_atomic_cas atomic_cmpxchg
#define atl_atomic_min atomic_min
#define atl_atomic_max atomic_max
#define atl_atomic_and atomic_and
#define atl_atomic_or atomic_or
#define atl_atomic_xor atomic_xor
#if defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define atl_atomic_add64 atom_add
#define atl_atomic_sub64 atom_sub
#define atl_atomic_xchg64 atom_xchg
#define atl_atomic_cas64 atom_cmpxchg
#endif
#if defined(cl_khr_int64_extended_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define atl_atomic_min64 atom_min
#define atl_atomic_max64 atom_max
#define atl_atomic_and64 atom_and
#define atl_atomic_or64 atom_or
#define atl_atomic_xor64 atom_xor
#endif
typedef ulong atl_u64;

#define atl_as_float(u) as_float(u)
#define atl_as_uint(f) as_uint(f)
#define atl_as_double(u) as_double(u)
#define atl_as_ulong(d) as_ulong(d)

#define atl_uint4_zero() ((uint4)(0))

#define ATL_LAUNCH_BOUNDS(...)
#define ATL_PRAGMA_CUDA(x)

#define ATL_DYNAMIC_SHARED_PARAM(T, name) , __local T *name
#define ATL_DYNAMIC_SHARED(T, name)

/* cl_khr_subgroups: sub_group_reduce_add of a 0/1 predicate counts it. */
#if defined(cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#define ATL_HAVE_SUBGROUPS 1
#define atl_subgroup_count(pred) sub_group_reduce_add((uint)(pred))
#define atl_subgroup_local_id() get_sub_group_local_id()
#endif

#else
#error "atomlab/port.h: compile as CUDA C (__CUDACC__) or OpenCL C (__OPENCL_VERSION__)"
#endif

/*
 * atl_last_group(done), called by every work-item of every work-group (it holds a barrier): 1 in work-item 0 of the
 * work-group that gets there last, 0 elsewhere; @p done (0 before) is 0 again after it. Every work-item's earlier
 * atomics are performed by then, so the last group reads their results with atomics (a plain store is not published
 * to another group by NVIDIA OpenCL's fence: above): a result of the whole launch without a second launch over it.
 */
ATL_INLINE int atl_last_group(ATL_GLOBAL volatile uint *done)
{
  atl_fence_device();
  atl_barrier();
  if (atl_local_id() != 0u || atl_atomic_add(done, 1u) != (uint)atl_num_groups() - 1u)
    return 0;
  atl_atomic_xchg(done, 0u);
  return 1;
}

#endif /* ATOMLAB_PORT_H */
