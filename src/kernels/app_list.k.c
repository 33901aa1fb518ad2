/*
 * app_list.k.c: seed 004's lock-free linked-list insertion, one source for
 * CUDA and OpenCL (atomlab/port.h). Nodes are indices: next[0 .. nodes-1] are
 * the nodes, next[nodes .. nodes+lists-1] the list heads (sentinels), NIL is
 * 0xffffffff. Thread gid inserts nodes gid, gid + threads, ... right after
 * head nodes + node % lists, as in the seed:
 *
 *   do { old = link; mine->next = old; link = CAS(&prev->next, link, mine); } while (link != old);
 *
 * Each thread counts its failed CAS (retries). The loop is bounded by
 * spin_bound; a thread that gives up sets *abort_flag (status deadlock).
 * Links are read through volatile: L1 is not coherent across SMs.
 */
#include "atomlab/port.h"

#define NIL 0xffffffffu

ATL_KERNEL void list_insert(volatile ATL_GLOBAL uint *next, uint nodes, uint lists, uint threads, uint spin_bound,
                            volatile ATL_GLOBAL uint *abort_flag, ATL_GLOBAL uint *retries)
{
  const uint gid = atl_global_id();
  if (gid >= threads)
    return;
  uint tries = 0;
  for (uint mine = gid; mine < nodes; mine += threads) {
    const uint prev = nodes + mine % lists;
    uint link = next[prev], old, spins = 0;
    do {
      old = link;
      next[mine] = old;
      /* the node's link is visible before the node is; CTA-scope on NVIDIA's
       * OpenCL (atomlab/port.h), which is enough here: threads read only the
       * heads during the kernel, the host walks the links after it */
      atl_fence_device();
      link = atl_atomic_cas(&next[prev], old, mine);
      if (link != old)
        tries++;
    } while (link != old && ++spins < spin_bound);
    if (link != old) {
      atl_atomic_xchg(abort_flag, 1u);
      break;
    }
  }
  retries[gid] = tries;
}
