/*
 * app_swatomic.cu: seed 000's micro-benchmark 1 (atomic only) for CUDA, as
 * app_swatomic.cl: variant 0 system atomicAdd, 1 warp-aggregated
 * (atl_warp_fetch), 2 software (atl_sw_add). The last block is the
 * coordinator in every variant (it idles for 0 and 1). Divergent: threads
 * with gid % 3 == 1 sit out (only the others call).
 */
#include "atomlab/atomics.cuh"

extern "C" __global__ void swatomic(unsigned *mem, unsigned targets, unsigned iters, unsigned variant,
                                    unsigned divergent, unsigned record, unsigned *olds, unsigned long long *req,
                                    unsigned *finished, unsigned *abort_flag, unsigned bound)
{
  __shared__ atl_sw_coord cs;
  const atl_sw sw = {req, finished, abort_flag, bound};
  const unsigned workers = gridDim.x - 1u, worker_items = workers * blockDim.x;
  if (blockIdx.x == workers) {
    if (variant == 2u)
      atl_sw_coordinate(mem, &cs, sw, (blockDim.x + 31u) / 32u);
    return;
  }
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, t = gid % targets;
  const bool part = !divergent || gid % 3u != 1u;
  for (unsigned it = 0; it < iters; it++) {
    unsigned old = 0xffffffffu;
    if (part) {
      if (variant == 2u)
        old = atl_sw_add(mem, t, 1u, sw);
      else if (variant == 1u)
        old = atl_warp_fetch(ATL_ADD, mem + t, 1u);
      else
        old = atomicAdd(mem + t, 1u);
    }
    if (record)
      olds[it * worker_items + gid] = old;
  }
  if (variant == 2u)
    atl_sw_finish(sw);
}
