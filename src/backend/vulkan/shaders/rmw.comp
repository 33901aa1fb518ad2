/*
 * rmw.comp: the contention x padding read-modify-write micro-benchmark on
 * Vulkan, the GLSL twin of src/backend/opencl/kernels/rmw.cl with the same
 * arguments, host-side index buffers and verification.
 *
 * Compiled once per variant by glslc at build time (CMakeLists.txt,
 * cmake/vulkan_shaders.cmake) with -D defines:
 *
 *   TYPE_u32 | TYPE_i32 | TYPE_u64 | TYPE_f32   element type
 *   OP_<name>            one of fetch_add ... plain_add (include/atomlab/experiment.h)
 *   SPACE_LOCAL=0|1      target array in a storage buffer or in shared memory
 *   RESULT_USED=0|1      fold the returned values into a per-thread sink
 *   SCOPE_device | SCOPE_block   the atomics' memory scope (GL_KHR_memory_scope_semantics)
 *
 * Why defines and not specialization constants for these: the type changes
 * the buffer and shared-array declarations and the extensions a shader
 * needs (int64, float atomics), which a specialization constant cannot; and
 * one op per module keeps the SPIR-V's atomic instructions exactly those the
 * row measures, so the decoder lists them without dead branches.
 * What varies per row without changing the instructions is a specialization
 * constant instead, so the driver still compiles it as a constant: the
 * work-group size (id 0), the start value and the operand (ids 1, 2: the
 * host passes their raw bits, the values of atl__op_values), the shared
 * array's words (id 3) and the pattern (ids 4, 5: random, branched).
 *
 * Where the loop count comes from (id 6, ITERS_FROM; the backend's
 * ATL_VULKAN_ITERS, docs/design/vulkan.md): 0 `buffer`, read from the storage buffer
 * as rmw.cl and rmw.cu read it (the default); 1 `push`, a push constant after
 * slots and padding; 2 `subgroup`, read from the buffer and made subgroup-
 * uniform by subgroupBroadcastFirst. The count stays a run-time value in all
 * three (the compiler cannot unroll by it). Why the choice: NVIDIA's Vulkan
 * driver 580.159.04 miscompiles u64 and/or/xor and f32 add on shared memory
 * inside this loop when the count is a storage-buffer value
 * (tests/vulkan/repro_shared_atomics, `ww-iters-buffer`), which is a
 * non-uniform value to its compiler; a push constant is uniform by
 * construction.
 */
#version 450
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_ballot : require

#if defined(TYPE_u64)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#define T uint64_t
#define BITS uint64_t
#define TO_BITS(x) (x)
#define EXCHANGE_VALUE(gid) (uint64_t((gid) + 1u) * 0x100000001UL)
#define MINUS_ONE (~0UL)
#elif defined(TYPE_i32)
#define T int
#define BITS uint
#define TO_BITS(x) uint(x)
#define EXCHANGE_VALUE(gid) int((gid) + 1u)
#define MINUS_ONE (-1)
#elif defined(TYPE_u32)
#define T uint
#define BITS uint
#define TO_BITS(x) (x)
#define EXCHANGE_VALUE(gid) ((gid) + 1u)
#define MINUS_ONE (~0u)
#elif defined(TYPE_f32)
#extension GL_EXT_shader_atomic_float : require
#define T float
#define BITS uint
#define TO_BITS(x) floatBitsToUint(x)
#else
#error "define one of TYPE_u32, TYPE_i32, TYPE_u64, TYPE_f32"
#endif

#if defined(SCOPE_device)
#define SCOPE gl_ScopeDevice
#elif defined(SCOPE_block)
#define SCOPE gl_ScopeWorkgroup
#else
#error "define SCOPE_device or SCOPE_block (Vulkan has no system scope for shader atomics)"
#endif
/* Relaxed: no storage class to order and no ordering semantics. */
#define RELAXED gl_StorageSemanticsNone, gl_SemanticsRelaxed

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const T INIT = T(0);
layout(constant_id = 2) const T OPERAND = T(0);
layout(constant_id = 3) const uint LOCAL_WORDS = 1;
layout(constant_id = 4) const bool RANDOM = false;
layout(constant_id = 5) const bool BRANCHED = false;
layout(constant_id = 6) const uint ITERS_FROM = 0; /* 0 storage buffer, 1 push constant, 2 buffer + broadcast */

/* Bindings in the order of the host's buffer arguments (src/core/rmw.c). */
layout(std430, binding = 0) coherent buffer Array { T array[]; };
layout(std430, binding = 1) readonly buffer Target { uint target[]; };
layout(std430, binding = 2) readonly buffer Iters { uint iters; };
layout(std430, binding = 3) readonly buffer Branch { uint branch[]; };
layout(std430, binding = 4) writeonly buffer Sink { BITS sink[]; };
layout(std430, binding = 5) writeonly buffer Attempts { uint attempts[]; };
/* The scalar arguments, in order, as push constants; iters_push after them is
 * the backend's (the loop count when ITERS_FROM is 1). */
layout(push_constant) uniform Args { uint slots; uint padding; uint iters_push; };

#if SPACE_LOCAL
shared T local_array[LOCAL_WORDS];
#define MEM local_array
#else
#define MEM array
#endif

/* One update of MEM[i]; `old` receives the value the atomic returned. */
#if defined(OP_fetch_add)
#define UPDATE(i, old) old = atomicAdd(MEM[i], OPERAND, SCOPE, RELAXED)
#elif defined(OP_fetch_sub)
/* GLSL has no atomic subtract: add the two's complement negation. */
#define UPDATE(i, old) old = atomicAdd(MEM[i], T(0) - OPERAND, SCOPE, RELAXED)
#elif defined(OP_inc)
/* glslang emits no OpAtomicIIncrement: add one. */
#define UPDATE(i, old) old = atomicAdd(MEM[i], T(1), SCOPE, RELAXED)
#elif defined(OP_dec)
#define UPDATE(i, old) old = atomicAdd(MEM[i], T(MINUS_ONE), SCOPE, RELAXED)
#elif defined(OP_fetch_min)
#define UPDATE(i, old) old = atomicMin(MEM[i], OPERAND, SCOPE, RELAXED)
#elif defined(OP_fetch_max)
#define UPDATE(i, old) old = atomicMax(MEM[i], OPERAND, SCOPE, RELAXED)
#elif defined(OP_and)
#define UPDATE(i, old) old = atomicAnd(MEM[i], OPERAND, SCOPE, RELAXED)
#elif defined(OP_or)
#define UPDATE(i, old) old = atomicOr(MEM[i], OPERAND, SCOPE, RELAXED)
#elif defined(OP_xor)
#define UPDATE(i, old) old = atomicXor(MEM[i], OPERAND, SCOPE, RELAXED)
#elif defined(OP_exchange)
#define UPDATE(i, old) old = atomicExchange(MEM[i], EXCHANGE_VALUE(gid), SCOPE, RELAXED)
#elif defined(OP_cas_fail)
/* The compare value is never present in memory, so every CAS fails. */
#define UPDATE(i, old) old = atomicCompSwap(MEM[i], ~INIT, OPERAND, SCOPE, RELAXED, RELAXED)
#elif defined(OP_cas)
/* Lock-free increment, as in rmw.cl: retry with the value seen until the
 * CAS succeeds; every failure means another thread's CAS succeeded. */
#define UPDATE(i, old)                                                                                                 \
  {                                                                                                                    \
    for (;;) {                                                                                                         \
      T seen = atomicCompSwap(MEM[i], guess, guess + T(1), SCOPE, RELAXED, RELAXED);                                   \
      attempts_done++;                                                                                                 \
      if (seen == guess)                                                                                               \
        break;                                                                                                         \
      guess = seen;                                                                                                    \
    }                                                                                                                  \
    old = guess;                                                                                                       \
    guess = guess + T(1);                                                                                              \
  }
#elif defined(OP_plain_add)
/* Deliberately not atomic, with the race window held open by barriers
 * (every thread loads, then every thread stores): the verifier must catch
 * the lost updates. The loop's trip count is uniform, so the barriers are. */
#define PLAIN_ADD 1
#else
#error "define one OP_<name>"
#endif

/* Folding the returned values, as rmw.cl: sums for integers, xor of the bits
 * for floats and for exchange (order-independent, so exact). */
#if defined(OP_exchange) || defined(TYPE_f32)
#define COMBINE(acc, old) acc ^= TO_BITS(old)
#else
#define COMBINE(acc, old) acc += TO_BITS(old)
#endif

void main()
{
  const uint gid = gl_GlobalInvocationID.x;
  const uint n = ITERS_FROM == 1u ? iters_push : ITERS_FROM == 2u ? subgroupBroadcastFirst(iters) : iters;
#if SPACE_LOCAL
  for (uint first = 0; first < LOCAL_WORDS; first += gl_WorkGroupSize.x)
    if (first + gl_LocalInvocationID.x < LOCAL_WORDS)
      local_array[first + gl_LocalInvocationID.x] = INIT;
  barrier();
#endif
  BITS acc = BITS(0);
  uint attempts_done = 0;
#if defined(OP_cas)
  T guess = INIT;
#endif
  uint prev = target[gid];
  uint idx = prev;
  for (uint i = 0; i < n; i++) {
    if (RANDOM) {
      const uint slot = (prev * 1664525u + 1013904223u) % slots;
      prev = slot;
      idx = slot * padding;
    }
#if defined(PLAIN_ADD)
    const bool on = !BRANCHED || branch[gid] != 0u;
    T old = T(0);
    if (on)
      old = MEM[idx];
    memoryBarrier();
    barrier();
    if (on) {
      MEM[idx] = old + OPERAND;
      COMBINE(acc, old);
    }
    memoryBarrier();
    barrier();
#else
    if (!BRANCHED || branch[gid] != 0u) {
      T old;
      UPDATE(idx, old);
      COMBINE(acc, old);
    }
#endif
  }
#if RESULT_USED
  sink[gid] = acc;
#endif
#if defined(OP_cas)
  attempts[gid] = attempts_done;
#endif
#if SPACE_LOCAL
  barrier();
  for (uint first = 0; first < LOCAL_WORDS; first += gl_WorkGroupSize.x)
    if (first + gl_LocalInvocationID.x < LOCAL_WORDS)
      array[gl_WorkGroupID.x * LOCAL_WORDS + first + gl_LocalInvocationID.x] = local_array[first + gl_LocalInvocationID.x];
#endif
}
