/*
 * rmw.cl: the contention x padding read-modify-write micro-benchmark
 * (seed 003), one kernel specialised by -D defines:
 *
 *   TYPE_u32 | TYPE_i32 | TYPE_u64 | TYPE_f32   element type
 *   OP_<name>           one of fetch_add ... plain_add (include/atomlab/experiment.h)
 *   SPACE_LOCAL=0|1     target array in global or work-group local memory
 *   LOCAL_WORDS=N       words of the local array (SPACE_LOCAL=1 only)
 *   RANDOM=0|1          index from an in-kernel LCG instead of a host buffer
 *   BRANCHED=0|1        only threads whose branch[] entry is set update
 *   RESULT_USED=0|1     fold the returned values into a per-thread sink
 *   INIT, OPERAND       start value of every word, and the op's operand
 *
 * Indices are computed on the host and passed in buffers, and the iteration
 * count is read from memory, so the compiler cannot fold the access pattern
 * (the seed's trick to observe the hardware, not the compiler).
 */
#if defined(TYPE_u64)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
typedef ulong T;
typedef ulong BITS;
#define TO_BITS(x) (x)
#define ATOM(name) atom_##name
#define EXCHANGE_VALUE(gid) ((ulong)((gid) + 1u) * 0x100000001UL)
#elif defined(TYPE_i32)
typedef int T;
typedef uint BITS;
#define TO_BITS(x) as_uint(x)
#define ATOM(name) atomic_##name
#define EXCHANGE_VALUE(gid) ((int)((gid) + 1u))
#elif defined(TYPE_u32)
typedef uint T;
typedef uint BITS;
#define TO_BITS(x) (x)
#define ATOM(name) atomic_##name
#define EXCHANGE_VALUE(gid) ((gid) + 1u)
#elif defined(TYPE_f32)
typedef float T;
typedef uint BITS;
#define TO_BITS(x) as_uint(x)
#else
#error "define one of TYPE_u32, TYPE_i32, TYPE_u64, TYPE_f32"
#endif

#if SPACE_LOCAL
#define SPACE __local
#else
#define SPACE __global
#endif

/* One update of *p; `old` receives the value the atomic returned. */
#if defined(OP_fetch_add) && defined(TYPE_f32)
/* Only devices with cl_ext_float_atomics get here (the host checks). */
#define UPDATE(p, old) old = atomic_fetch_add_explicit((volatile SPACE atomic_float *)(p), OPERAND, memory_order_relaxed)
#elif defined(OP_fetch_add)
#define UPDATE(p, old) old = ATOM(add)(p, OPERAND)
#elif defined(OP_fetch_sub)
#define UPDATE(p, old) old = ATOM(sub)(p, OPERAND)
#elif defined(OP_inc)
#define UPDATE(p, old) old = ATOM(inc)(p)
#elif defined(OP_dec)
#define UPDATE(p, old) old = ATOM(dec)(p)
#elif defined(OP_fetch_min)
#define UPDATE(p, old) old = ATOM(min)(p, OPERAND)
#elif defined(OP_fetch_max)
#define UPDATE(p, old) old = ATOM(max)(p, OPERAND)
#elif defined(OP_and)
#define UPDATE(p, old) old = ATOM(and)(p, OPERAND)
#elif defined(OP_or)
#define UPDATE(p, old) old = ATOM(or)(p, OPERAND)
#elif defined(OP_xor)
#define UPDATE(p, old) old = ATOM(xor)(p, OPERAND)
#elif defined(OP_exchange)
#define UPDATE(p, old) old = ATOM(xchg)(p, EXCHANGE_VALUE(gid))
#elif defined(OP_cas_fail)
/* The compare value is never present in memory, so every CAS fails. */
#define UPDATE(p, old) old = ATOM(cmpxchg)(p, (T)~(T)(INIT), OPERAND)
#elif defined(OP_cas)
/* Lock-free increment: retry with the value seen until the CAS succeeds.
 * `guess` carries the value this thread expects next, so uncontended words
 * succeed on the first attempt. Every failure means another thread's CAS
 * succeeded, so the loop always makes global progress. */
#define UPDATE(p, old)                                                      \
  do {                                                                      \
    for (;;) {                                                              \
      T seen = ATOM(cmpxchg)(p, guess, guess + (T)1);                       \
      attempts_done++;                                                      \
      if (seen == guess) break;                                             \
      guess = seen;                                                         \
    }                                                                       \
    old = guess;                                                            \
    guess = guess + (T)1;                                                   \
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
#define BARRIER barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#else
#error "define one OP_<name>"
#endif

/* Folding the returned values: sums for integers (closed form), xor of the
 * bits for floats (order-independent, so exact for any interleaving), xor
 * for exchange (a conservation law). */
#if defined(OP_exchange) || defined(TYPE_f32)
#define COMBINE(acc, old) acc ^= TO_BITS(old)
#else
#define COMBINE(acc, old) acc += TO_BITS(old)
#endif

__kernel void rmw(__global T *array, __global const uint *target, __global const uint *iters,
                  __global const uint *branch, __global BITS *sink, __global uint *attempts,
                  uint slots, uint padding)
{
  const uint gid = get_global_id(0);
  const uint n = *iters;
#if SPACE_LOCAL
  __local T local_array[LOCAL_WORDS];
  /* Loops around barriers keep a trip count uniform across the work-group
   * (PoCL's work-item loop builder rejects divergent ones). */
  for (uint first = 0; first < LOCAL_WORDS; first += get_local_size(0))
    if (first + get_local_id(0) < LOCAL_WORDS)
      local_array[first + get_local_id(0)] = (T)(INIT);
  barrier(CLK_LOCAL_MEM_FENCE);
  volatile __local T *base = local_array;
#else
  volatile __global T *base = array;
#endif
  BITS acc = 0;
  uint attempts_done = 0;
#if defined(OP_cas)
  T guess = (T)(INIT);
#endif
#if RANDOM
  uint prev = target[gid];
#else
  volatile SPACE T *p = base + target[gid];
#endif
  for (uint i = 0; i < n; i++) {
#if RANDOM
    const uint slot = (prev * 1664525u + 1013904223u) % slots;
    prev = slot;
    volatile SPACE T *p = base + slot * padding;
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
  sink[gid] = acc;
#else
  (void)acc;
#endif
#if defined(OP_cas)
  attempts[gid] = attempts_done;
#else
  (void)attempts_done;
#endif
#if SPACE_LOCAL
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint first = 0; first < LOCAL_WORDS; first += get_local_size(0))
    if (first + get_local_id(0) < LOCAL_WORDS)
      array[get_group_id(0) * LOCAL_WORDS + first + get_local_id(0)] = local_array[first + get_local_id(0)];
#endif
}
