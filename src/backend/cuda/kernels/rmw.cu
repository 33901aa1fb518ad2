/*
 * rmw.cu: the contention x padding read-modify-write micro-benchmark
 * (seed 003) for CUDA, compiled at run time by NVRTC with the same defines as
 * rmw.cl, plus what CUDA adds:
 *
 *   TYPE_u32 | TYPE_i32 | TYPE_u64 | TYPE_f32 | TYPE_f64 | TYPE_f16x2 | TYPE_bf16x2
 *   OP_<name>        fetch_add ... plain_add
 *   SCOPE_block | SCOPE_device | SCOPE_system
 *   ORDER_relaxed | ORDER_acquire | ORDER_release | ORDER_acq_rel | ORDER_seq_cst
 *   SPACE_LOCAL, LOCAL_WORDS, RANDOM, BRANCHED, RESULT_USED, INIT_BITS, OPERAND_BITS
 *
 * Relaxed order uses the classic intrinsics (atomicAdd_block, atomicAdd,
 * atomicAdd_system), the code users write; other orders use the
 * __nv_atomic_* builtins, which take an order and a scope. Values are given
 * as raw bits (INIT_BITS, OPERAND_BITS) so every type is specified exactly.
 */
#if defined(TYPE_f16x2)
#include <cuda_fp16.h>
#elif defined(TYPE_bf16x2)
#include <cuda_bf16.h>
#endif

typedef unsigned int u32;
typedef unsigned long long u64;

#if defined(TYPE_u32)
typedef unsigned int T;
typedef unsigned int BITS;
#elif defined(TYPE_i32)
typedef int T;
typedef unsigned int BITS;
#elif defined(TYPE_u64)
typedef unsigned long long T;
typedef unsigned long long BITS;
#elif defined(TYPE_f32)
typedef float T;
typedef unsigned int BITS;
#elif defined(TYPE_f64)
typedef double T;
typedef unsigned long long BITS;
#elif defined(TYPE_f16x2)
typedef __half2 T;
typedef unsigned int BITS;
#elif defined(TYPE_bf16x2)
typedef __nv_bfloat162 T;
typedef unsigned int BITS;
#else
#error "define one TYPE_<name>"
#endif

/* Raw bits <-> T without aliasing trouble. */
__device__ __forceinline__ T from_bits(BITS b)
{
  T v;
  memcpy(&v, &b, sizeof v);
  return v;
}
__device__ __forceinline__ BITS to_bits(T v)
{
  BITS b;
  memcpy(&b, &v, sizeof b);
  return b;
}

#if defined(TYPE_f32) || defined(TYPE_f64) || defined(TYPE_f16x2) || defined(TYPE_bf16x2)
#define IS_FLOAT 1
#else
#define IS_FLOAT 0
#endif

#if defined(SCOPE_block)
#define SUFFIX(name) name##_block
#define NV_SCOPE __NV_THREAD_SCOPE_BLOCK
#elif defined(SCOPE_system)
#define SUFFIX(name) name##_system
#define NV_SCOPE __NV_THREAD_SCOPE_SYSTEM
#else
#define SUFFIX(name) name
#define NV_SCOPE __NV_THREAD_SCOPE_DEVICE
#endif

#if defined(ORDER_acquire)
#define NV_ORDER __NV_ATOMIC_ACQUIRE
#elif defined(ORDER_release)
#define NV_ORDER __NV_ATOMIC_RELEASE
#elif defined(ORDER_acq_rel)
#define NV_ORDER __NV_ATOMIC_ACQ_REL
#elif defined(ORDER_seq_cst)
#define NV_ORDER __NV_ATOMIC_SEQ_CST
#endif

#define OPERAND from_bits((BITS)(OPERAND_BITS))
#define INIT from_bits((BITS)(INIT_BITS))
#if defined(TYPE_u64)
#define EXCHANGE_VALUE(gid) ((T)((gid) + 1u) * 0x100000001ull)
#else
#define EXCHANGE_VALUE(gid) ((T)((gid) + 1u))
#endif

#if defined(NV_ORDER)
/* Ordered atomics: one builtin per op, order and scope as arguments. */
#define UPDATE_add(p, v) __nv_atomic_fetch_add(p, v, NV_ORDER, NV_SCOPE)
#define UPDATE_sub(p, v) __nv_atomic_fetch_sub(p, v, NV_ORDER, NV_SCOPE)
#define UPDATE_min(p, v) __nv_atomic_fetch_min(p, v, NV_ORDER, NV_SCOPE)
#define UPDATE_max(p, v) __nv_atomic_fetch_max(p, v, NV_ORDER, NV_SCOPE)
#define UPDATE_and(p, v) __nv_atomic_fetch_and(p, v, NV_ORDER, NV_SCOPE)
#define UPDATE_or(p, v) __nv_atomic_fetch_or(p, v, NV_ORDER, NV_SCOPE)
#define UPDATE_xor(p, v) __nv_atomic_fetch_xor(p, v, NV_ORDER, NV_SCOPE)
#define UPDATE_exch(p, v) __nv_atomic_exchange_n(p, v, NV_ORDER, NV_SCOPE)
#if !IS_FLOAT
__device__ __forceinline__ T cas(T *p, T expect, T desired)
{
  __nv_atomic_compare_exchange_n(p, &expect, desired, false, NV_ORDER, __NV_ATOMIC_RELAXED, NV_SCOPE);
  return expect; /* the value seen, as atomicCAS returns it */
}
#endif
#define UPDATE_inc(p) UPDATE_add(p, (T)1)
#define UPDATE_dec(p) UPDATE_sub(p, (T)1)
#elif defined(TYPE_f16x2) || defined(TYPE_bf16x2)
/* half2 / bfloat162 add exists at device scope only (the host refuses other scopes). */
#define UPDATE_add(p, v) atomicAdd(p, v)
#else
#define UPDATE_add(p, v) SUFFIX(atomicAdd)(p, v)
#if defined(TYPE_u64)
/* CUDA has no 64-bit atomicSub/Inc/Dec: an add of the two's complement is the same instruction. */
#define UPDATE_sub(p, v) SUFFIX(atomicAdd)(p, (T)0 - (v))
#define UPDATE_inc(p) SUFFIX(atomicAdd)(p, (T)1)
#define UPDATE_dec(p) SUFFIX(atomicAdd)(p, ~(T)0)
#else
#define UPDATE_sub(p, v) SUFFIX(atomicSub)(p, v)
/* atomicInc/Dec wrap at their bound: with the bound at the type's maximum they are +1 / -1. */
#define UPDATE_inc(p) SUFFIX(atomicInc)((u32 *)(p), 0xffffffffu)
#define UPDATE_dec(p) SUFFIX(atomicDec)((u32 *)(p), 0xffffffffu)
#endif
#define UPDATE_min(p, v) SUFFIX(atomicMin)(p, v)
#define UPDATE_max(p, v) SUFFIX(atomicMax)(p, v)
#define UPDATE_and(p, v) SUFFIX(atomicAnd)(p, v)
#define UPDATE_or(p, v) SUFFIX(atomicOr)(p, v)
#define UPDATE_xor(p, v) SUFFIX(atomicXor)(p, v)
#define UPDATE_exch(p, v) SUFFIX(atomicExch)(p, v)
#define cas(p, e, d) SUFFIX(atomicCAS)(p, e, d)
#endif

#if defined(OP_fetch_add)
#define UPDATE(p, old) old = UPDATE_add(p, OPERAND)
#elif defined(OP_fetch_sub)
#define UPDATE(p, old) old = UPDATE_sub(p, OPERAND)
#elif defined(OP_inc)
#define UPDATE(p, old) old = (T)UPDATE_inc(p)
#elif defined(OP_dec)
#define UPDATE(p, old) old = (T)UPDATE_dec(p)
#elif defined(OP_fetch_min)
#define UPDATE(p, old) old = UPDATE_min(p, OPERAND)
#elif defined(OP_fetch_max)
#define UPDATE(p, old) old = UPDATE_max(p, OPERAND)
#elif defined(OP_and)
#define UPDATE(p, old) old = UPDATE_and(p, OPERAND)
#elif defined(OP_or)
#define UPDATE(p, old) old = UPDATE_or(p, OPERAND)
#elif defined(OP_xor)
#define UPDATE(p, old) old = UPDATE_xor(p, OPERAND)
#elif defined(OP_exchange)
#define UPDATE(p, old) old = UPDATE_exch(p, EXCHANGE_VALUE(gid))
#elif defined(OP_cas_fail)
/* The compare value is never present in memory, so every CAS fails. */
#define UPDATE(p, old) old = cas(p, (T) ~(T)(INIT), OPERAND)
#elif defined(OP_cas)
/* Lock-free increment: retry with the value seen until the CAS succeeds. */
#define UPDATE(p, old)                                                                                                 \
  do {                                                                                                                 \
    for (;;) {                                                                                                         \
      T seen = cas(p, guess, guess + (T)1);                                                                            \
      attempts_done++;                                                                                                 \
      if (seen == guess)                                                                                               \
        break;                                                                                                         \
      guess = seen;                                                                                                    \
    }                                                                                                                  \
    old = guess;                                                                                                       \
    guess = guess + (T)1;                                                                                              \
  } while (0)
#elif defined(OP_plain_add)
/* Deliberately not atomic, and with its race window held open: every
 * thread of the group loads, a barrier, then every thread stores, so
 * threads sharing a word lose updates on any device, even on a CPU runtime
 * that runs work-items one after another. The verifier must catch it. */
#define PLAIN_ADD_STEP(p)                                                                                              \
  do {                                                                                                                 \
    const int on = !BRANCHED || branch[gid];                                                                           \
    T old = (T)0;                                                                                                      \
    if (on)                                                                                                            \
      old = *(p);                                                                                                      \
    BARRIER;                                                                                                           \
    if (on) {                                                                                                          \
      *(p) = old + OPERAND;                                                                                            \
      COMBINE(acc, old);                                                                                               \
    }                                                                                                                  \
    BARRIER;                                                                                                           \
  } while (0)
#define BARRIER __syncthreads()
#else
#error "define one OP_<name>"
#endif

/* Folding the returned values: sums for integers (closed form), xor of the
 * bits for floats (order-independent, so exact for any interleaving), xor
 * for exchange (a conservation law). */
#if IS_FLOAT || defined(OP_exchange)
#define COMBINE(acc, old) acc ^= (u64)to_bits(old)
#else
#define COMBINE(acc, old) acc += (u64)to_bits(old)
#endif

extern "C" __global__ void rmw(T *array, const u32 *target, const u32 *iters, const u32 *branch, BITS *sink,
                               u32 *attempts, u32 slots, u32 padding)
{
  const u32 gid = blockIdx.x * blockDim.x + threadIdx.x;
  const u32 n = *iters;
#if SPACE_LOCAL
  __shared__ T local_array[LOCAL_WORDS];
  for (u32 w = threadIdx.x; w < LOCAL_WORDS; w += blockDim.x)
    local_array[w] = INIT;
  __syncthreads();
  T *base = local_array;
#else
  T *base = array;
#endif
  u64 acc = 0;
  u32 attempts_done = 0;
#if defined(OP_cas)
  T guess = INIT;
#endif
#if RANDOM
  u32 prev = target[gid];
#else
  T *p = base + target[gid];
#endif
  for (u32 i = 0; i < n; i++) {
#if RANDOM
    const u32 slot = (prev * 1664525u + 1013904223u) % slots;
    prev = slot;
    T *p = base + slot * padding;
#endif
#if defined(OP_plain_add)
    PLAIN_ADD_STEP(p);
#else
#if BRANCHED
    if (branch[gid])
#endif
    {
      T old;
      UPDATE(p, old);
      COMBINE(acc, old);
    }
#endif
  }
#if RESULT_USED
  sink[gid] = (BITS)acc;
#endif
#if defined(OP_cas)
  attempts[gid] = attempts_done;
#endif
  (void)attempts_done;
#if SPACE_LOCAL
  __syncthreads();
  for (u32 w = threadIdx.x; w < LOCAL_WORDS; w += blockDim.x)
    array[blockIdx.x * LOCAL_WORDS + w] = local_array[w];
#endif
}
