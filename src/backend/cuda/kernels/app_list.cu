/*
 * app_list.cu: seed 004's lock-free linked-list insertion for CUDA (NVRTC);
 * the layout and bounds of app_list.cl: next[0 .. nodes-1] are the nodes,
 * next[nodes .. nodes+lists-1] the heads, NIL is 0xffffffff.
 */
#define NIL 0xffffffffu

extern "C" __global__ void list_insert(unsigned *next, unsigned nodes, unsigned lists, unsigned threads,
                                       unsigned spin_bound, volatile unsigned *abort_flag, unsigned *retries)
{
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= threads)
    return;
  volatile unsigned *vnext = next;
  unsigned tries = 0;
  for (unsigned mine = gid; mine < nodes; mine += threads) {
    const unsigned prev = nodes + mine % lists;
    unsigned link = vnext[prev], old, spins = 0;
    do {
      old = link;
      vnext[mine] = old;
      __threadfence(); /* the node's link is visible before the node is */
      link = atomicCAS(&next[prev], old, mine);
      if (link != old)
        tries++;
    } while (link != old && ++spins < spin_bound);
    if (link != old) {
      atomicExch((unsigned *)abort_flag, 1u);
      break;
    }
  }
  retries[gid] = tries;
}
