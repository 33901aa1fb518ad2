/*
 * app_skiplist.k.c: seed 004's skiplist sort, one source for CUDA and OpenCL
 * (atomlab/port.h). p threads insert n keys into one lock-free skiplist; the
 * bottom-level walk is then the sorted order.
 *
 * Node x (0 .. nodes-1) has key keys[x], height height[x] (1 .. LEVELS) and
 * links next[x * LEVELS + L]; node `nodes` is the head (a sentinel before
 * every key). Order is (key, index), so equal keys are ordered too.
 * Insertion: find the predecessor and successor at every level from the top;
 * then, from the bottom level up, point the new node at the successor and
 * swing the predecessor's link to it with CAS. The bottom level's CAS is the
 * linearization point. A failed CAS means the list changed there: walk on
 * from the same predecessor (nodes are never removed, so it is still before
 * x) and try again. Walks and retries are bounded; a thread that gives up
 * sets *abort_flag. Links are read through volatile: L1 is not coherent
 * across SMs.
 */
#include "atomlab/port.h"

#define NIL 0xffffffffu

/* keys are read-only during the kernel: the read-only cache may serve them */
ATL_INLINE int before(const ATL_GLOBAL uint *ATL_RESTRICT keys, uint a, uint b)
{
  const uint ka = atl_ldg(&keys[a]), kb = atl_ldg(&keys[b]);
  return ka < kb || (ka == kb && a < b);
}

/* Walks level @p L on from @p pred (whose successor is @p cur) while the successor is before x; the last node
 * before x goes to preds[L] and its successor to succs[L]. 0 when the walk passed its bound: the caller gives up. */
ATL_INLINE int walk_level(volatile ATL_GLOBAL uint *next, const ATL_GLOBAL uint *ATL_RESTRICT keys, uint x, int L,
                          uint pred, uint cur, ulong *steps, ulong walk_bound, uint *preds, uint *succs)
{
  while (cur != NIL && before(keys, cur, x)) {
    pred = cur;
    cur = next[pred * LEVELS + L];
    if (++*steps > walk_bound)
      return 0;
  }
  preds[L] = pred;
  succs[L] = cur;
  return 1;
}

ATL_KERNEL void skiplist_insert(volatile ATL_GLOBAL uint *next, const ATL_GLOBAL uint *ATL_RESTRICT keys,
                                const ATL_GLOBAL uchar *ATL_RESTRICT height, uint nodes, uint threads, uint spin_bound,
                                volatile ATL_GLOBAL uint *abort_flag, ATL_GLOBAL uint *retries)
{
  const uint gid = atl_global_id();
  if (gid >= threads)
    return;
  const uint head = nodes;
  const ulong walk_bound = (ulong)(nodes + 2) * LEVELS + spin_bound;
  uint tries = 0;
  uint preds[LEVELS], succs[LEVELS];
  for (uint x = gid; x < nodes; x += threads) {
    if (*abort_flag)
      break;
    ulong steps = 0;
    uint pred = head;
    for (int L = LEVELS - 1; L >= 0; L--) {
      if (!walk_level(next, keys, x, L, pred, next[pred * LEVELS + L], &steps, walk_bound, preds, succs))
        goto give_up;
      pred = preds[L]; /* the next level down starts where this one stopped */
    }
    { /* a block: C++ (CUDA) forbids a goto past the initialization of h */
      const uint h = height[x];
      for (uint L = 0; L < h; L++) {
        uint spins = 0;
        for (;;) {
          /* x's link must reach device scope before x is published. */
#if ATL_FENCE_DEVICE_SCOPE
          next[x * LEVELS + L] = succs[L];
          atl_fence_device();
#else
          /* The fence is CTA-scope on NVIDIA's OpenCL (MEMBAR.SC.CTA), so the
           * link is written with an atomic (performed at L2, the device's
           * coherence point) and the publishing CAS waits for its answer: a
           * branch on the returned value cannot issue before it arrives. */
          const uint was = atl_atomic_xchg(&next[x * LEVELS + L], succs[L]);
          if (was == x) /* never true (no self-links); only the dependency matters */
            goto give_up;
#endif
          const uint seen = atl_atomic_cas(&next[preds[L] * LEVELS + L], succs[L], x);
          if (seen == succs[L])
            break;
          tries++;
          if (++spins >= spin_bound)
            goto give_up;
          if (!walk_level(next, keys, x, L, preds[L], seen, &steps, walk_bound, preds, succs))
            goto give_up;
        }
      }
    }
  }
  retries[gid] = tries;
  return;
give_up:
  atl_atomic_xchg(abort_flag, 1u);
  retries[gid] = tries;
}
