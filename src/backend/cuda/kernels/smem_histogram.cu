/*
 * smem_histogram.cu: the case-study kernels of seed 002 (Listings 1 and 2):
 * per-block RGBA histograms in shared memory (CHANNELS x N_BINS counters),
 * merged into the global histogram at the end.
 *
 * REORDER=0 is `histogram` (Listing 1): each thread increments its pixel's
 * channels in order 0..3, so neighbouring threads of a solid image hit the
 * same word. REORDER=1 is `histogram2` (Listing 2): thread t starts at channel
 * t % 4, so neighbours hit four different words.
 * RESULT_USED=1 reads atomicAdd's result (the seed's "dummy read" that keeps
 * ATOMS.ADD where sm_80+ would emit ATOMS.POPC.INC).
 */
#ifndef REORDER
#define REORDER 0
#endif
#ifndef RESULT_USED
#define RESULT_USED 0
#endif
#define CHANNELS 4
#define N_BINS 256

extern "C" __global__ void smem_histogram(const unsigned char *in, unsigned *out, unsigned n, unsigned *sink)
{
  __shared__ unsigned smem[CHANNELS * N_BINS];
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
  for (unsigned i = threadIdx.x; i < CHANNELS * N_BINS; i += blockDim.x)
    smem[i] = 0u;
  __syncthreads(); /* start barrier */
  unsigned acc = 0u;
  for (unsigned i = t; i < n; i += nt) {
    const size_t in_base = (size_t)i * CHANNELS;
    unsigned offsets[CHANNELS];
    for (int c = 0; c < CHANNELS; ++c) /* collect the channel values */
      offsets[c] = in[in_base + c];
    for (int c = 0; c < CHANNELS; ++c) {
#if REORDER
      const int chan = (c + threadIdx.x % CHANNELS) % CHANNELS;
#else
      const int chan = c;
#endif
      unsigned *addr = &smem[N_BINS * chan + offsets[chan]];
#if RESULT_USED
      acc += atomicAdd(addr, 1u);
#else
      atomicAdd(addr, 1u);
#endif
    }
  }
  __syncthreads(); /* end barrier */
  for (unsigned i = threadIdx.x; i < CHANNELS * N_BINS; i += blockDim.x)
    if (smem[i])
      atomicAdd(&out[i], smem[i]);
  if (acc == 0xffffffffu) /* never true: keeps the returned values live */
    sink[0] = acc;
}
