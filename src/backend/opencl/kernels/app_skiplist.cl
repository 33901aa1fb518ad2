/*
 * app_skiplist.cl: seed 004's skiplist sort. p threads insert n keys into one
 * lock-free skiplist; the bottom-level walk is then the sorted order.
 *
 * Node x (0 .. nodes-1) has key keys[x], height height[x] (1 .. LEVELS) and
 * links next[x * LEVELS + L]; node `nodes` is the head (a sentinel before
 * every key). Order is (key, index), so equal keys are ordered too.
 * Insertion: find the predecessor and successor at every level from the top;
 * then, from the bottom level up, point the new node at the successor with a
 * plain store and swing the predecessor's link to it with CAS. The bottom
 * level's CAS is the linearization point. A failed CAS means the list changed
 * there: walk on from the same predecessor (nodes are never removed, so it is
 * still before x) and try again. Walks and retries are bounded; a thread that
 * gives up sets *abort_flag.
 */
#define NIL 0xffffffffu

inline int before(__global const uint *keys, uint a, uint b)
{
  const uint ka = keys[a], kb = keys[b];
  return ka < kb || (ka == kb && a < b);
}

__kernel void skiplist_insert(volatile __global uint *next, __global const uint *keys, __global const uchar *height,
                              uint nodes, uint threads, uint spin_bound, volatile __global uint *abort_flag,
                              __global uint *retries)
{
  const uint gid = get_global_id(0);
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
      uint cur = next[pred * LEVELS + L];
      while (cur != NIL && before(keys, cur, x)) {
        pred = cur;
        cur = next[pred * LEVELS + L];
        if (++steps > walk_bound)
          goto give_up;
      }
      preds[L] = pred;
      succs[L] = cur;
    }
    const uint h = height[x];
    for (uint L = 0; L < h; L++) {
      uint spins = 0;
      for (;;) {
        /* x's link must reach device scope before x is published. OpenCL
         * 1.2's mem_fence is only CTA-scope on NVIDIA (MEMBAR.SC.CTA), so
         * the link is written with an atomic (performed at L2, the device's
         * coherence point) and the publishing CAS waits for its answer: a
         * branch on the returned value cannot issue before it arrives. */
        const uint was = atomic_xchg(&next[x * LEVELS + L], succs[L]);
        if (was == x) /* never true (no self-links); only the dependency matters */
          goto give_up;
        const uint seen = atomic_cmpxchg(&next[preds[L] * LEVELS + L], succs[L], x);
        if (seen == succs[L])
          break;
        tries++;
        if (++spins >= spin_bound)
          goto give_up;
        uint p = preds[L], cur = seen;
        while (cur != NIL && before(keys, cur, x)) {
          p = cur;
          cur = next[p * LEVELS + L];
          if (++steps > walk_bound)
            goto give_up;
        }
        preds[L] = p;
        succs[L] = cur;
      }
    }
  }
  retries[gid] = tries;
  return;
give_up:
  atomic_xchg(abort_flag, 1u);
  retries[gid] = tries;
}
