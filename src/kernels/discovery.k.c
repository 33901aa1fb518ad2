/*
 * discovery.k.c: the occupancy discovery protocol of Sorensen, Donaldson,
 * Batty, Gopalakrishnan and Rakamaric (OOPSLA 2016), one source for CUDA and
 * OpenCL (atomlab/port.h). One representative per work-group takes a ticket
 * lock twice: in the polling phase it joins the poll if it is still open; in
 * the closing phase it closes the poll. A ticket lock is FIFO, so every
 * work-group that was already resident (and drew its first ticket) is served
 * before the first work-group's closing ticket; work-groups that start only
 * after a resident one finished find the poll closed. The count of joiners is
 * the number of co-resident work-groups.
 *
 * Every spin is bounded: when a bound expires the abort flag is raised, every
 * other waiter gives up too, and the host reports a deadlock.
 *
 * state[0] next ticket, state[1] now serving, state[2] poll open,
 * state[3] joiners, state[4] abort flag. Every access to state is an atomic,
 * so the protocol needs no fence; the fences are the usual lock idiom. The
 * fence after acquiring was the CUDA twin's alone; one source keeps the
 * stronger of the two, so OpenCL now has it too.
 */
#include "atomlab/port.h"

#define NEXT_TICKET 0
#define NOW_SERVING 1
#define POLL_OPEN 2
#define JOINED 3
#define ABORTED 4

ATL_FUNC int lock_acquire(volatile ATL_GLOBAL uint *state, uint spin_bound)
{
  const uint ticket = atl_atomic_inc(&state[NEXT_TICKET]);
  uint spins = 0;
  while (atl_atomic_or(&state[NOW_SERVING], 0u) != ticket) {
    if (atl_atomic_or(&state[ABORTED], 0u) != 0u)
      return 0;
    if (++spins > spin_bound) {
      atl_atomic_xchg(&state[ABORTED], 1u);
      return 0;
    }
  }
  atl_fence_device();
  return 1;
}

ATL_FUNC void lock_release(volatile ATL_GLOBAL uint *state)
{
  atl_fence_device();
  atl_atomic_inc(&state[NOW_SERVING]);
}

ATL_KERNEL void discovery(volatile ATL_GLOBAL uint *state, ATL_GLOBAL uint *joined_id, uint spin_bound)
{
  if (atl_local_id() != 0)
    return;
  uint id = 0xffffffffu;
  if (lock_acquire(state, spin_bound)) {
    if (atl_atomic_or(&state[POLL_OPEN], 0u) != 0u)
      id = atl_atomic_inc(&state[JOINED]);
    lock_release(state);
  }
  if (lock_acquire(state, spin_bound)) {
    atl_atomic_xchg(&state[POLL_OPEN], 0u);
    lock_release(state);
  }
  joined_id[atl_group_id()] = id;
}
