/*
 * discovery.comp: the occupancy discovery protocol (Sorensen et al., OOPSLA
 * 2016) on Vulkan, the GLSL twin of src/kernels/discovery.k.c with the same
 * arguments and state words (that file explains the protocol). GLSL has no
 * pointers, so the state is one buffer indexed by the constants below.
 *
 * MODE (specialization constant 7, DISCOVERY_MODE=N in the build request's
 * defines; 0 is the twin of discovery.k.c; a request that names no mode gets
 * 1, HOLD: src/backend/vulkan/pipeline.c) tries what could make NVIDIA's
 * Vulkan driver count more work-groups than the H100 holds (issue 19: 2112
 * where CUDA and OpenCL find 1056), one cause a bit:
 *   bit 0 HOLD: no early exit; every invocation of the group waits at a
 *         barrier until invocation 0 has finished the protocol, so the group
 *         keeps all its warps until then. NVIDIA's Vulkan driver reuses the
 *         slots of returned warps for new groups (H100: 4224 groups of 256 ran
 *         at once without it, 1056 with it), so this is the default of a
 *         request that names no mode;
 *   bit 1 ACQREL: the state read and written with explicit device-scope
 *         atomics with acquire / release semantics on buffer memory
 *         (GL_KHR_memory_scope_semantics) instead of relaxed atomics plus
 *         memoryBarrierBuffer(); reads are atomic loads, not atomicOr(x, 0).
 *         The spin itself reads relaxed and acquires once, after it (a
 *         device-scope acquire fence): lavapipe (Mesa 22.3) ends a group
 *         whose spin loop runs a memory barrier in its body (an acquiring
 *         load is one) and has to go round more than once: the group's
 *         invocation 0 stops there, its id is never written and the tickets
 *         after it are never served (the race once read as "15 joined
 *         against 1 id"; a memoryBarrierBuffer() in the loop of mode 1 does
 *         the same);
 *   bit 2 NO_CLOSE: the control, deliberately broken: the poll is never
 *         closed, so every launched group joins (the failure the probe's
 *         check must catch, tests/unit/CMakeLists.txt);
 *   bit 3 COUNT: every invocation that starts adds 1 to state[5] and raises
 *         state[6] to gl_WorkGroupSize.x and state[7] to its
 *         gl_LocalInvocationID.x + 1 (the host's buffer has 8 words): the
 *         invocations the device ran and the work-group size they saw;
 *   bit 4 LIVE: invocation 0 adds 1 to state[8] when it starts and takes 1
 *         off when its group is done (after the barrier under HOLD), raising
 *         state[9] to the most it saw at once (the host's buffer has 10
 *         words): how many groups' invocations 0 really ran together,
 *         measured beside the protocol's count. A count above state[9] is a
 *         poll that let in groups that were not co-resident; a count equal to
 *         it, residency (each group held its slot for the whole protocol);
 *   bit 5 OPAQUE: the reads are atomicAdd(x, z) with z a zero the compiler
 *         cannot see (spin_bound >> 31; the host's bound is below 2^31), so
 *         each is a real read-modify-write at the device's memory: against
 *         atomicOr(x, 0), which a compiler may turn into a load (and a load
 *         that is not coherent would keep reading the poll open).
 */
#version 450
#extension GL_KHR_memory_scope_semantics : require

layout(local_size_x_id = 0) in;
layout(constant_id = 7) const uint MODE = 0;
layout(std430, binding = 0) coherent volatile buffer State { uint state[]; };
layout(std430, binding = 1) writeonly buffer Joined { uint joined_id[]; };
layout(push_constant) uniform Args { uint spin_bound; };

const uint NEXT_TICKET = 0u, NOW_SERVING = 1u, POLL_OPEN = 2u, JOINED = 3u, ABORTED = 4u;
const bool HOLD = (MODE & 1u) != 0u;
const bool ACQREL = (MODE & 2u) != 0u;
const bool NO_CLOSE = (MODE & 4u) != 0u;
const bool COUNT = (MODE & 8u) != 0u;
const bool LIVE = (MODE & 16u) != 0u;
const bool OPAQUE = (MODE & 32u) != 0u;
const uint LIVE_NOW = 8u, LIVE_MOST = 9u;

/* A read of a state word: atomicOr(x, 0) as discovery.k.c, or an acquiring atomic load. */
uint read_state(uint i)
{
  if (ACQREL)
    return atomicLoad(state[i], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
  if (OPAQUE)
    return atomicAdd(state[i], spin_bound >> 31);
  return atomicOr(state[i], 0u);
}

/* A read in the spin: no ordering of its own (see ACQREL above); lock_acquire acquires once the wait is over. */
uint poll_state(uint i)
{
  if (ACQREL)
    return atomicLoad(state[i], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
  if (OPAQUE)
    return atomicAdd(state[i], spin_bound >> 31);
  return atomicOr(state[i], 0u);
}

uint add_state(uint i, uint v)
{
  if (ACQREL)
    return atomicAdd(state[i], v, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
  return atomicAdd(state[i], v);
}

void set_state(uint i, uint v)
{
  if (ACQREL)
    atomicExchange(state[i], v, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
  else
    atomicExchange(state[i], v);
}

bool lock_acquire()
{
  const uint ticket = add_state(NEXT_TICKET, 1u);
  uint spins = 0u;
  while (poll_state(NOW_SERVING) != ticket) {
    if (poll_state(ABORTED) != 0u)
      return false;
    if (++spins > spin_bound) {
      atomicExchange(state[ABORTED], 1u); /* relaxed: no barrier in the loop's body */
      return false;
    }
  }
  if (ACQREL)
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
  else
    memoryBarrierBuffer();
  return true;
}

void lock_release()
{
  memoryBarrierBuffer();
  add_state(NOW_SERVING, 1u);
}

void protocol()
{
  uint id = 0xffffffffu;
  if (lock_acquire()) {
    if (read_state(POLL_OPEN) != 0u)
      id = add_state(JOINED, 1u);
    lock_release();
  }
  if (lock_acquire()) {
    if (!NO_CLOSE)
      set_state(POLL_OPEN, 0u);
    lock_release();
  }
  joined_id[gl_WorkGroupID.x] = id;
}

void main()
{
  if (COUNT) {
    atomicAdd(state[5], 1u);
    atomicMax(state[6], gl_WorkGroupSize.x);
    atomicMax(state[7], gl_LocalInvocationID.x + 1u);
  }
  const bool first = gl_LocalInvocationID.x == 0u;
  if (LIVE && first) {
    atomicMax(state[LIVE_MOST], atomicAdd(state[LIVE_NOW], 1u) + 1u);
    memoryBarrierBuffer(); /* counted before its first ticket, so every joiner is in the count when the poll closes */
  }
  if (!HOLD) {
    if (!first)
      return;
    protocol();
  } else {
    if (first)
      protocol();
    barrier();
  }
  if (LIVE && first)
    atomicAdd(state[LIVE_NOW], 0xffffffffu);
}
