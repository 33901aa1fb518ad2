/*
 * repro_shared_atomics.comp: the smallest shader that shows (or clears) the
 * shared-memory atomics atomlab's rows could not verify on NVIDIA's Vulkan
 * driver. It shares no code with atomlab. Every invocation applies one atomic
 * op ITERS times to a word of a shared array (SHARED=1) or of a storage
 * buffer (SHARED=0, the control), optionally records each returned value, and
 * the work-group's final shared words are copied out for the host to check.
 *
 * Defines (one SPIR-V module per combination, compiled by glslc at build
 * time): TYPE_U32 | TYPE_U64 | TYPE_F32, OP_ADD | OP_AND | OP_OR | OP_XOR,
 * SHARED=0|1. They change declarations or the atomic instruction itself.
 * Everything else is a specialization constant (compiled in as a constant,
 * as atomlab's shaders do) or a push constant (the loop count, read at run
 * time as atomlab's is).
 */
#version 450
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_ballot : require

#if defined(TYPE_U64)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#define T uint64_t
#elif defined(TYPE_F32)
#extension GL_EXT_shader_atomic_float : require
#define T float
#elif defined(TYPE_U32)
#define T uint
#else
#error "define TYPE_U32, TYPE_U64 or TYPE_F32"
#endif

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const T INIT = T(0);        /* every shared word starts here */
layout(constant_id = 2) const T OPERAND = T(0);     /* the operand when LANE_OPERAND is false */
layout(constant_id = 3) const uint WORDS = 1;       /* words per work-group */
layout(constant_id = 4) const bool LANE_OPERAND = false; /* operand from operands[gid] (differs per lane) */
layout(constant_id = 5) const bool LOADED_ADDR = false;  /* word index from index[gid], else word 0 */
layout(constant_id = 6) const bool EVEN_ONLY = false;    /* only even lanes take part */
layout(constant_id = 7) const bool RETURNS = true;       /* store every returned value */
/* atomlab's rmw.comp shape, one difference at a time (its 24 shared rows fail on NVIDIA, this shader's did not): */
layout(constant_id = 8) const bool ITERS_BUF = false;    /* the loop count read from a storage buffer */
layout(constant_id = 9) const bool SCOPED = false;       /* explicit-scope atomics (GL_KHR_memory_scope_semantics) */
layout(constant_id = 10) const bool FOLD = false;        /* returned values folded into one value per lane */
layout(constant_id = 11) const bool DEAD_BRANCH = false; /* rmw.comp's never-taken random-walk branch in the loop */
/* Where else the loop count can come from (ww-iters-buffer, the storage buffer, fails on NVIDIA 580.159.04; the
 * push constant passes): 0 as ITERS_BUF says, 1 the specialization constant ITERS_SPEC (known to the compiler),
 * 2 a uniform buffer, 3 a storage buffer indexed per lane (the same value, non-uniform to the compiler by
 * construction), 4 the storage buffer made subgroup-uniform by subgroupBroadcastFirst (atomlab's `subgroup`). */
layout(constant_id = 12) const uint ITERS_ALT = 0;
layout(constant_id = 13) const uint ITERS_SPEC = 1;

/* words: the targets for SHARED=0 (the host writes INIT), the final shared words for SHARED=1. */
layout(std430, binding = 0) buffer Words { T words[]; };
layout(std430, binding = 1) readonly buffer Operands { T operands[]; };
layout(std430, binding = 2) readonly buffer Index { uint index[]; };
layout(std430, binding = 3) writeonly buffer Returned { T returned[]; };
layout(std430, binding = 4) readonly buffer ItersBuf { uint iters_buf; };
layout(std140, binding = 5) uniform ItersUbo { uint iters_ubo; };
layout(std430, binding = 6) readonly buffer ItersLane { uint iters_lane[]; };
layout(push_constant) uniform Push { uint iters_push; uint slots; };

#if SHARED
shared T target[WORDS];
#define TARGET(w) target[w]
#else
#define TARGET(w) words[gl_WorkGroupID.x * WORDS + (w)]
#endif

#define RELAXED gl_ScopeWorkgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed
#if defined(OP_ADD)
#define ATOMIC(m, v) (SCOPED ? atomicAdd(m, v, RELAXED) : atomicAdd(m, v))
#elif defined(OP_AND)
#define ATOMIC(m, v) (SCOPED ? atomicAnd(m, v, RELAXED) : atomicAnd(m, v))
#elif defined(OP_OR)
#define ATOMIC(m, v) (SCOPED ? atomicOr(m, v, RELAXED) : atomicOr(m, v))
#elif defined(OP_XOR)
#define ATOMIC(m, v) (SCOPED ? atomicXor(m, v, RELAXED) : atomicXor(m, v))
#else
#error "define OP_ADD, OP_AND, OP_OR or OP_XOR"
#endif

void main()
{
  const uint lid = gl_LocalInvocationID.x, gid = gl_GlobalInvocationID.x;
#if SHARED
  if (lid < WORDS)
    target[lid] = INIT;
  barrier(); /* OpControlBarrier Workgroup, AcquireRelease | WorkgroupMemory: the stores above are visible */
#endif
  const T v = LANE_OPERAND ? operands[gid] : OPERAND;
  uint iters = ITERS_BUF ? iters_buf : iters_push;
  if (ITERS_ALT == 1u)
    iters = ITERS_SPEC;
  else if (ITERS_ALT == 2u)
    iters = iters_ubo;
  else if (ITERS_ALT == 3u)
    iters = iters_lane[gid];
  else if (ITERS_ALT == 4u)
    iters = subgroupBroadcastFirst(iters_buf);
  uint w = LOADED_ADDR ? index[gid] : 0u;
  uint prev = w;
  T acc = T(0);
  if (!EVEN_ONLY || (lid & 1u) == 0u)
    for (uint i = 0; i < iters; i++) {
      if (DEAD_BRANCH && slots == 0xffffffffu) { /* never true: the host pushes slots = 1 */
        prev = prev * 1664525u + 1013904223u;
        w = prev % WORDS;
      }
      const T old = ATOMIC(TARGET(w), v);
      if (RETURNS && !FOLD)
        returned[gid * iters + i] = old;
#if defined(TYPE_F32)
      acc = uintBitsToFloat(floatBitsToUint(acc) ^ floatBitsToUint(old));
#else
      acc += old;
#endif
    }
  if (RETURNS && FOLD)
    returned[gid] = acc;
#if SHARED
  barrier(); /* every atomic of the work-group is done and visible */
  if (lid < WORDS)
    words[gl_WorkGroupID.x * WORDS + lid] = target[lid];
#endif
}
