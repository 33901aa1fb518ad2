/*
 * app_swatomic.cu: seed 000's experiments for CUDA, as app_swatomic.cl:
 * ATL_SW_VARIANT 0 system atomicAdd, 1 warp-aggregated (atl_warp_fetch),
 * 2 software (atl_sw_add), 3 none (memory only); ATL_SW_MEM 1 adds the copy
 * src[k] -> dst[k] per iteration. One kernel per variant, so that each one's
 * SASS can be counted on its own. The last block is the coordinator in every
 * variant (it idles unless software). Divergent: threads with gid % 3 == 1
 * sit out (only the others call).
 */
#include "atomlab/atomics.cuh"

#ifndef ATL_SW_VARIANT
#define ATL_SW_VARIANT 2
#endif
#ifndef ATL_SW_MEM
#define ATL_SW_MEM 0
#endif

extern "C" __global__ void swatomic(unsigned *mem, unsigned targets, unsigned iters, unsigned divergent,
                                    unsigned record, unsigned *olds, unsigned long long *req, unsigned *finished,
                                    unsigned *abort_flag, unsigned bound, const unsigned *src, unsigned *dst)
{
  __shared__ atl_sw_coord cs;
  const atl_sw sw = {req, finished, abort_flag, bound};
  const unsigned workers = gridDim.x - 1u, worker_items = workers * blockDim.x;
  if (blockIdx.x == workers) {
#if ATL_SW_VARIANT == 2
    atl_sw_coordinate(mem, &cs, sw, (blockDim.x + 31u) / 32u);
#endif
    return;
  }
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, t = gid % targets;
  const bool part = !divergent || gid % 3u != 1u;
  for (unsigned it = 0; it < iters; it++) {
    unsigned old = 0xffffffffu;
    if (part) {
#if ATL_SW_VARIANT == 2
      old = atl_sw_add(mem, t, 1u, sw);
#elif ATL_SW_VARIANT == 1
      old = atl_warp_fetch(ATL_ADD, mem + t, 1u);
#elif ATL_SW_VARIANT == 0
      old = atomicAdd(mem + t, 1u);
#endif
    }
#if ATL_SW_MEM
    dst[it * worker_items + gid] = src[it * worker_items + gid];
#endif
    if (record)
      olds[it * worker_items + gid] = old;
  }
#if ATL_SW_VARIANT == 2
  atl_sw_finish(sw);
#endif
  (void)cs;
}

/* The speedup model's constants; see swcal in app_swatomic.cl (same modes). */
extern "C" __global__ void swcal(unsigned mode, unsigned iters, const unsigned *ring, unsigned *word,
                                 unsigned *sink)
{
  __shared__ unsigned l;
  if (mode == 0u) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      unsigned i = 0;
      for (unsigned it = 0; it < iters; it++)
        i = ring[i];
      sink[0] = i;
    }
  } else if (mode == 1u) {
    if (threadIdx.x == 0)
      l = 0;
    __syncthreads();
    for (unsigned it = 0; it < iters; it++)
      atomicAdd(&l, 1u);
    __syncthreads();
    if (threadIdx.x == 0)
      sink[blockIdx.x] = l;
  } else {
    for (unsigned it = 0; it < iters; it++)
      atomicAdd(word, 1u);
  }
}
