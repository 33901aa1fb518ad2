/*
 * smem_validate.cu: the two validation kernels of the shared-memory atomic
 * model (seed 002; issue item 5), whose answer is known without the model.
 *
 * smem_validate_atomics does nothing but shared-memory atomics: every warp
 * adds 1 to its own word `iters` times with all 32 lanes on that word, and
 * reads the result (ATOMS.ADD). That is exactly the calibration's access
 * (e = 32 lanes on one word, one word per warp), so the unit is busy the whole
 * kernel: the model must say U near 1, a bottleneck.
 *
 * smem_validate_stream streams a large buffer from global memory and sums it;
 * only every `period`-th element a thread reads is followed by one shared
 * atomic (all lanes of the warp on one word, as above). Its time is the
 * memory's, the atomics a few percent of it: U must be low, not a bottleneck.
 *
 * Both verify: the atomics kernel writes every warp's final word and the sum
 * of the values its lanes got back; the stream kernel adds its per-block atomic
 * count and data sum into global counters the host checks.
 *
 * VALIDATE=0 builds the first, VALIDATE=1 the second: one kernel per module,
 * so the SASS the driver records is that kernel's alone. __launch_bounds__
 * keeps two blocks of 1024 resident per SM (64 warps on an H100), so the
 * default grid (SMs x 2 blocks) runs in one wave at full occupancy.
 */
#ifndef VALIDATE
#define VALIDATE 0
#endif
#define WARPS_MAX 32

#if VALIDATE == 0

extern "C" __global__ void __launch_bounds__(1024, 2)
    smem_validate_atomics(unsigned iters, unsigned *final_words, unsigned long long *returned_sum)
{
  __shared__ unsigned words[WARPS_MAX];
  const unsigned warp = threadIdx.x / 32u;
  if (threadIdx.x % 32u == 0u)
    words[warp] = 0u;
  __syncthreads();
  unsigned long long acc = 0ull;
  for (unsigned i = 0; i < iters; i++)
    acc += atomicAdd(&words[warp], 1u); /* the result is used: ATOMS.ADD, not POPC.INC */
  __syncthreads();
  if (threadIdx.x % 32u == 0u)
    final_words[blockIdx.x * (blockDim.x / 32u) + warp] = words[warp];
  atomicAdd(returned_sum, acc); /* once per thread, after the loop: not timed as part of the pattern */
}
#else

extern "C" __global__ void __launch_bounds__(1024, 2)
    smem_validate_stream(const uint4 *in, unsigned long long count, unsigned period, unsigned long long *sum_out,
                         unsigned long long *atomics_out)
{
  __shared__ unsigned counter[WARPS_MAX];
  const unsigned warp = threadIdx.x / 32u;
  if (threadIdx.x % 32u == 0u)
    counter[warp] = 0u;
  __syncthreads();
  const unsigned long long nt = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long sum = 0ull;
  unsigned used = 0u;
  unsigned k = 0u;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += nt, k++) {
    const uint4 v = in[i];
    sum += (unsigned long long)v.x + v.y + v.z + v.w;
    if (k % period == 0u) /* rare: one shared atomic per `period` loads of this thread */
      used += atomicAdd(&counter[warp], 1u) == 0xffffffffu; /* never true: keeps ATOMS.ADD */
  }
  __syncthreads();
  if (threadIdx.x % 32u == 0u && counter[warp])
    atomicAdd(atomics_out, (unsigned long long)counter[warp]);
  atomicAdd(sum_out, sum + used);
}
#endif
