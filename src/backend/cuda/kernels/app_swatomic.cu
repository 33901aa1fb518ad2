/*
 * app_swatomic.cu: seed 000's experiments for CUDA, as app_swatomic.cl:
 * ATL_SW_VARIANT 0 system atomicAdd, 1 warp-aggregated (atl_warp_fetch),
 * 2 software (atl_sw_add), 3 none (memory only); ATL_SW_MEM 1 adds the copy
 * src[k] -> dst[k] per iteration. One kernel per variant, so that each one's
 * SASS can be counted on its own. The last block is the coordinator in every
 * variant (it idles unless software). Divergent: threads with gid % 3 == 1
 * sit out (only the others call). ATL_SW_OP (the app's --op) and the
 * operands as in app_swatomic.cl: 0 add 1, 1 sub 1, 2 inc, 3 min, 4 max,
 * 5 and, 6 or, 7 xor.
 */
#include "atomlab/atomics.cuh"

#ifndef ATL_SW_OP
#define ATL_SW_OP 0
#endif
#if ATL_SW_OP == 1
#define SW_DEV_OP ATL_SUB
#elif ATL_SW_OP == 3
#define SW_DEV_OP ATL_MIN
#elif ATL_SW_OP == 4
#define SW_DEV_OP ATL_MAX
#elif ATL_SW_OP == 5
#define SW_DEV_OP ATL_AND
#elif ATL_SW_OP == 6
#define SW_DEV_OP ATL_OR
#elif ATL_SW_OP == 7
#define SW_DEV_OP ATL_XOR
#else
#define SW_DEV_OP ATL_ADD /* add, inc */
#endif

__device__ __forceinline__ unsigned sw_operand(unsigned k)
{
  unsigned h = k * 2654435761u + 0x9e3779b9u;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
#if ATL_SW_OP <= 2
  return 1u;
#elif ATL_SW_OP == 5
  return ~(1u << (h & 31u));
#elif ATL_SW_OP == 6
  return 1u << (h & 31u);
#elif ATL_SW_OP == 7
  return h | 1u;
#else
  return h;
#endif
}

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
    atl_sw_coordinate_op(SW_DEV_OP, mem, &cs, sw, (blockDim.x + 31u) / 32u);
#endif
    return;
  }
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, t = gid % targets;
  const bool part = !divergent || gid % 3u != 1u;
  for (unsigned it = 0; it < iters; it++) {
    unsigned old = 0xffffffffu;
    if (part) {
      const unsigned v = sw_operand(it * worker_items + gid);
      (void)v;
#if ATL_SW_VARIANT == 2 && ATL_SW_OP == 0
      old = atl_sw_add(mem, t, v, sw);
#elif ATL_SW_VARIANT == 2 && ATL_SW_OP == 2
      old = atl_sw_inc(mem, t, sw);
#elif ATL_SW_VARIANT == 2
      old = atl_sw_fetch(SW_DEV_OP, mem, t, v, sw);
#elif ATL_SW_VARIANT == 1
      old = atl_warp_fetch(SW_DEV_OP, mem + t, v);
#elif ATL_SW_VARIANT == 0 && ATL_SW_OP == 2
      old = atomicInc(mem + t, 0xffffffffu); /* wraps at 2^32 as add 1 does */
#elif ATL_SW_VARIANT == 0
      old = atl_native_fetch(SW_DEV_OP, mem + t, v);
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
