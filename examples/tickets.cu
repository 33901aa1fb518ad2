/* A CUDA kernel over atomlab's device library: tickets from one counter with
 * one atomic per warp (atl_warp_fetch) or per block (atl_block_fetch), and a
 * double add through a CAS loop. Built with nvcc -I <prefix>/include. */
#include "atomlab/atomics.cuh"

__global__ void tickets(unsigned *counter, unsigned *warp_out, unsigned *block_out, const int *want, double *sum)
{
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (want[i]) /* any subset of a warp may call */
    warp_out[i] = atl_warp_fetch(ATL_ADD, counter, 1u);

  __shared__ atl_block_scratch s; /* block-wide: every thread calls and says whether it takes part */
  unsigned t = atl_block_fetch(ATL_ADD, counter + 1, 1u, want[i] != 0, &s);
  if (want[i])
    block_out[i] = t;

  atl_cas_add_f64(sum, 0.5); /* CAS loops: any op and type */
}
