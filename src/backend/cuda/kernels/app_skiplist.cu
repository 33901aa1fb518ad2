/*
 * app_skiplist.cu: seed 004's skiplist sort for CUDA (NVRTC); the algorithm,
 * layout and bounds of app_skiplist.cl (LEVELS links per node, node `nodes`
 * is the head, order by (key, index), bottom-level CAS linearizes).
 * Links are read through volatile: L1 is not coherent across SMs.
 */
#define NIL 0xffffffffu

__device__ __forceinline__ bool before(const unsigned *keys, unsigned a, unsigned b)
{
  const unsigned ka = __ldg(&keys[a]), kb = __ldg(&keys[b]);
  return ka < kb || (ka == kb && a < b);
}

extern "C" __global__ void skiplist_insert(unsigned *next, const unsigned *__restrict__ keys,
                                           const unsigned char *__restrict__ height, unsigned nodes, unsigned threads,
                                           unsigned spin_bound, volatile unsigned *abort_flag, unsigned *retries)
{
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= threads)
    return;
  volatile unsigned *vnext = next;
  const unsigned head = nodes;
  const unsigned long long walk_bound = (unsigned long long)(nodes + 2) * LEVELS + spin_bound;
  unsigned tries = 0;
  unsigned preds[LEVELS], succs[LEVELS];
  for (unsigned x = gid; x < nodes; x += threads) {
    if (*abort_flag)
      break;
    unsigned long long steps = 0;
    unsigned pred = head;
    for (int L = LEVELS - 1; L >= 0; L--) {
      unsigned cur = vnext[pred * LEVELS + L];
      while (cur != NIL && before(keys, cur, x)) {
        pred = cur;
        cur = vnext[pred * LEVELS + L];
        if (++steps > walk_bound)
          goto give_up;
      }
      preds[L] = pred;
      succs[L] = cur;
    }
    {
      const unsigned h = height[x];
      for (unsigned L = 0; L < h; L++) {
        unsigned spins = 0;
        for (;;) {
          vnext[x * LEVELS + L] = succs[L];
          __threadfence(); /* x's link is visible before x is */
          const unsigned seen = atomicCAS(&next[preds[L] * LEVELS + L], succs[L], x);
          if (seen == succs[L])
            break;
          tries++;
          if (++spins >= spin_bound)
            goto give_up;
          unsigned p = preds[L], cur = seen;
          while (cur != NIL && before(keys, cur, x)) {
            p = cur;
            cur = vnext[p * LEVELS + L];
            if (++steps > walk_bound)
              goto give_up;
          }
          preds[L] = p;
          succs[L] = cur;
        }
      }
    }
  }
  retries[gid] = tries;
  return;
give_up:
  atomicExch((unsigned *)abort_flag, 1u);
  retries[gid] = tries;
}
