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

/* words: the targets for SHARED=0 (the host writes INIT), the final shared words for SHARED=1. */
layout(std430, binding = 0) buffer Words { T words[]; };
layout(std430, binding = 1) readonly buffer Operands { T operands[]; };
layout(std430, binding = 2) readonly buffer Index { uint index[]; };
layout(std430, binding = 3) writeonly buffer Returned { T returned[]; };
layout(push_constant) uniform Push { uint iters; };

#if SHARED
shared T target[WORDS];
#define TARGET(w) target[w]
#else
#define TARGET(w) words[gl_WorkGroupID.x * WORDS + (w)]
#endif

#if defined(OP_ADD)
#define ATOMIC(m, v) atomicAdd(m, v)
#elif defined(OP_AND)
#define ATOMIC(m, v) atomicAnd(m, v)
#elif defined(OP_OR)
#define ATOMIC(m, v) atomicOr(m, v)
#elif defined(OP_XOR)
#define ATOMIC(m, v) atomicXor(m, v)
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
  const uint w = LOADED_ADDR ? index[gid] : 0u;
  if (!EVEN_ONLY || (lid & 1u) == 0u)
    for (uint i = 0; i < iters; i++) {
      const T old = ATOMIC(TARGET(w), v);
      if (RETURNS)
        returned[gid * iters + i] = old;
    }
#if SHARED
  barrier(); /* every atomic of the work-group is done and visible */
  if (lid < WORDS)
    words[gl_WorkGroupID.x * WORDS + lid] = target[lid];
#endif
}
