/*
 * app_list.cl: seed 004's lock-free linked-list insertion. Nodes are indices:
 * next[0 .. nodes-1] are the nodes, next[nodes .. nodes+lists-1] the list
 * heads (sentinels), NIL is 0xffffffff. Thread gid inserts nodes gid,
 * gid + threads, ... right after head nodes + node % lists, as in the seed:
 *
 *   do { old = link; mine->next = old; link = CAS(&prev->next, link, mine); } while (link != old);
 *
 * Each thread counts its failed CAS (retries). The loop is bounded by
 * spin_bound; a thread that gives up sets *abort_flag (status deadlock).
 */
#define NIL 0xffffffffu

__kernel void list_insert(volatile __global uint *next, uint nodes, uint lists, uint threads, uint spin_bound,
                          volatile __global uint *abort_flag, __global uint *retries)
{
  const uint gid = get_global_id(0);
  if (gid >= threads)
    return;
  uint tries = 0;
  for (uint mine = gid; mine < nodes; mine += threads) {
    const uint prev = nodes + mine % lists;
    uint link = next[prev], old, spins = 0;
    do {
      old = link;
      next[mine] = old;
      mem_fence(CLK_GLOBAL_MEM_FENCE); /* the node's link is visible before the node is */
      link = atomic_cmpxchg(&next[prev], old, mine);
      if (link != old)
        tries++;
    } while (link != old && ++spins < spin_bound);
    if (link != old) {
      atomic_xchg(abort_flag, 1u);
      break;
    }
  }
  retries[gid] = tries;
}
