/*
 * app_swdot.cu: seed 000's scalar product for CUDA, as app_swdot.cl:
 * variant 0 one atomicAdd per block of its reduced partial sum, 1 every
 * thread's partial through atl_warp_fetch (one atomic per warp), 2 one
 * atl_sw_add per block (the last block coordinates; it idles in 0 and 1).
 */
#include "atomlab/atomics.cuh"

extern "C" __global__ void swdot(const unsigned *a, const unsigned *b, unsigned long long n, unsigned *sum,
                                 unsigned variant, unsigned long long *req, unsigned *finished, unsigned *abort_flag,
                                 unsigned bound)
{
  __shared__ atl_sw_coord cs;
  __shared__ unsigned red[ATL_SW_COORD];
  const atl_sw sw = {req, finished, abort_flag, bound};
  const unsigned workers = gridDim.x - 1u, lsize = blockDim.x, lid = threadIdx.x;
  if (blockIdx.x == workers) {
    if (variant == 2u)
      atl_sw_coordinate(sum, &cs, sw, (lsize + 31u) / 32u);
    return;
  }
  const unsigned long long stride = (unsigned long long)workers * lsize;
  unsigned acc = 0;
  for (unsigned long long i = (unsigned long long)blockIdx.x * lsize + lid; i < n; i += stride)
    acc += a[i] * b[i];
  if (variant == 1u) {
    atl_warp_fetch(ATL_ADD, sum, acc);
    return;
  }
  red[lid] = acc;
  __syncthreads();
  unsigned s = 1;
  while (s < lsize)
    s <<= 1;
  for (s >>= 1; s > 0; s >>= 1) {
    if (lid < s && lid + s < lsize)
      red[lid] += red[lid + s];
    __syncthreads();
  }
  if (lid == 0u) {
    if (variant == 2u)
      atl_sw_add(sum, 0u, red[0], sw);
    else
      atomicAdd(sum, red[0]);
  }
  if (variant == 2u)
    atl_sw_finish(sw);
}
