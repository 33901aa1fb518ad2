/*
 * discovery.cl: the occupancy discovery protocol of Sorensen, Donaldson,
 * Batty, Gopalakrishnan and Rakamaric (OOPSLA 2016). One representative per
 * work-group takes a ticket lock twice: in the polling phase it joins the
 * poll if it is still open; in the closing phase it closes the poll. A ticket
 * lock is FIFO, so every work-group that was already resident (and drew its
 * first ticket) is served before the first work-group's closing ticket;
 * work-groups that start only after a resident one finished find the poll
 * closed. The count of joiners is the number of co-resident work-groups.
 *
 * Every spin is bounded: when a bound expires the abort flag is raised, every
 * other waiter gives up too, and the host reports a deadlock.
 *
 * state[0] next ticket, state[1] now serving, state[2] poll open,
 * state[3] joiners, state[4] abort flag.
 */
#define NEXT_TICKET 0
#define NOW_SERVING 1
#define POLL_OPEN 2
#define JOINED 3
#define ABORTED 4

static int lock_acquire(volatile __global uint *state, uint spin_bound)
{
  const uint ticket = atomic_inc(&state[NEXT_TICKET]);
  uint spins = 0;
  while (atomic_or(&state[NOW_SERVING], 0u) != ticket) {
    if (atomic_or(&state[ABORTED], 0u) != 0u)
      return 0;
    if (++spins > spin_bound) {
      atomic_xchg(&state[ABORTED], 1u);
      return 0;
    }
  }
  return 1;
}

static void lock_release(volatile __global uint *state)
{
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  atomic_inc(&state[NOW_SERVING]);
}

__kernel void discovery(volatile __global uint *state, __global uint *joined_id, uint spin_bound)
{
  if (get_local_id(0) != 0)
    return;
  uint id = 0xffffffffu;
  if (lock_acquire(state, spin_bound)) {
    if (atomic_or(&state[POLL_OPEN], 0u) != 0u)
      id = atomic_inc(&state[JOINED]);
    lock_release(state);
  }
  if (lock_acquire(state, spin_bound)) {
    atomic_xchg(&state[POLL_OPEN], 0u);
    lock_release(state);
  }
  joined_id[get_group_id(0)] = id;
}
