/*
 * discovery.comp: the occupancy discovery protocol (Sorensen et al., OOPSLA
 * 2016) on Vulkan, the GLSL twin of src/kernels/discovery.k.c with the same
 * arguments and state words (that file explains the protocol). GLSL has no
 * pointers, so the state is one buffer indexed by the constants below.
 */
#version 450

layout(local_size_x_id = 0) in;
layout(std430, binding = 0) coherent volatile buffer State { uint state[]; };
layout(std430, binding = 1) writeonly buffer Joined { uint joined_id[]; };
layout(push_constant) uniform Args { uint spin_bound; };

const uint NEXT_TICKET = 0u, NOW_SERVING = 1u, POLL_OPEN = 2u, JOINED = 3u, ABORTED = 4u;

bool lock_acquire()
{
  const uint ticket = atomicAdd(state[NEXT_TICKET], 1u);
  uint spins = 0u;
  while (atomicOr(state[NOW_SERVING], 0u) != ticket) {
    if (atomicOr(state[ABORTED], 0u) != 0u)
      return false;
    if (++spins > spin_bound) {
      atomicExchange(state[ABORTED], 1u);
      return false;
    }
  }
  memoryBarrierBuffer();
  return true;
}

void lock_release()
{
  memoryBarrierBuffer();
  atomicAdd(state[NOW_SERVING], 1u);
}

void main()
{
  if (gl_LocalInvocationID.x != 0u)
    return;
  uint id = 0xffffffffu;
  if (lock_acquire()) {
    if (atomicOr(state[POLL_OPEN], 0u) != 0u)
      id = atomicAdd(state[JOINED], 1u);
    lock_release();
  }
  if (lock_acquire()) {
    atomicExchange(state[POLL_OPEN], 0u);
    lock_release();
  }
  joined_id[gl_WorkGroupID.x] = id;
}
