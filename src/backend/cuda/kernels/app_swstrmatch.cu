/*
 * app_swstrmatch.cu: seed 000's string match for CUDA, as
 * app_swstrmatch.cl: each match adds 1 to its keyword's counter with
 * atomicAdd (0), atl_warp_fetch (1) or atl_sw_add (2; the last block
 * coordinates and idles in 0 and 1). Only the matching threads call.
 */
#include "atomlab/atomics.cuh"

#define KW_MAX 32

__device__ int match_at(const unsigned char *text, unsigned long long n, unsigned long long p,
                        const unsigned char *kw, const unsigned *kwlen, unsigned nkw)
{
  for (unsigned k = 0; k < nkw; k++) {
    const unsigned len = kwlen[k];
    if (p + len > n)
      continue;
    unsigned j = 0;
    while (j < len && text[p + j] == kw[k * KW_MAX + j])
      j++;
    if (j == len)
      return (int)k;
  }
  return -1;
}

extern "C" __global__ void swstrmatch(const unsigned char *text, unsigned long long n, const unsigned char *kw,
                                      const unsigned *kwlen, unsigned nkw, unsigned *counts, unsigned variant,
                                      unsigned long long *req, unsigned *finished, unsigned *abort_flag,
                                      unsigned bound)
{
  __shared__ atl_sw_coord cs;
  const atl_sw sw = {req, finished, abort_flag, bound};
  const unsigned workers = gridDim.x - 1u;
  if (blockIdx.x == workers) {
    if (variant == 2u)
      atl_sw_coordinate(counts, &cs, sw, (blockDim.x + 31u) / 32u);
    return;
  }
  const unsigned long long stride = (unsigned long long)workers * blockDim.x;
  for (unsigned long long p = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; p < n; p += stride) {
    const int k = match_at(text, n, p, kw, kwlen, nkw);
    if (k < 0)
      continue;
    if (variant == 2u)
      atl_sw_add(counts, (unsigned)k, 1u, sw);
    else if (variant == 1u)
      atl_warp_fetch(ATL_ADD, counts + k, 1u);
    else
      atomicAdd(counts + k, 1u);
  }
  if (variant == 2u)
    atl_sw_finish(sw);
}
