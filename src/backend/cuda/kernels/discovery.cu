/*
 * discovery.cu: the occupancy discovery protocol of Sorensen et al. (OOPSLA
 * 2016), as discovery.cl: a ticket lock taken twice by one thread per block,
 * joining the poll while it is open, then closing it. Every spin is bounded
 * and an abort flag stops the other waiters; the host reports a deadlock.
 *
 * state[0] next ticket, state[1] now serving, state[2] poll open,
 * state[3] joiners, state[4] abort flag.
 */
#define NEXT_TICKET 0
#define NOW_SERVING 1
#define POLL_OPEN 2
#define JOINED 3
#define ABORTED 4

__device__ static int lock_acquire(unsigned *state, unsigned spin_bound)
{
  const unsigned ticket = atomicAdd(&state[NEXT_TICKET], 1u);
  unsigned spins = 0;
  while (atomicOr(&state[NOW_SERVING], 0u) != ticket) {
    if (atomicOr(&state[ABORTED], 0u) != 0u)
      return 0;
    if (++spins > spin_bound) {
      atomicExch(&state[ABORTED], 1u);
      return 0;
    }
  }
  __threadfence();
  return 1;
}

__device__ static void lock_release(unsigned *state)
{
  __threadfence();
  atomicAdd(&state[NOW_SERVING], 1u);
}

extern "C" __global__ void discovery(unsigned *state, unsigned *joined_id, unsigned spin_bound)
{
  if (threadIdx.x != 0)
    return;
  unsigned id = 0xffffffffu;
  if (lock_acquire(state, spin_bound)) {
    if (atomicOr(&state[POLL_OPEN], 0u) != 0u)
      id = atomicAdd(&state[JOINED], 1u);
    lock_release(state);
  }
  if (lock_acquire(state, spin_bound)) {
    atomicExch(&state[POLL_OPEN], 0u);
    lock_release(state);
  }
  joined_id[blockIdx.x] = id;
}
