/*
 * app_count.cu: seed 001 for CUDA (NVRTC), with the defines of app_count.cl:
 *
 *   ITEMS=N          floats per container (compiled in so the walk unrolls)
 *   WG=N             block size (a power of two)
 *   STRATEGY_thread  atomicAdd per thread over the limit (the compiler may
 *                    aggregate it per warp itself: the row records the SASS)
 *   STRATEGY_warp    __ballot_sync + __popc, one atomicAdd per warp
 *   STRATEGY_block   __syncthreads_count, one atomicAdd per block
 *
 * Layout is item-major: value i of container c is vals[i * containers + c].
 */
extern "C" __global__ void count_containers(const float *__restrict__ vals, unsigned containers, unsigned limit_bits,
                                            unsigned *count)
{
  const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  const float limit = __uint_as_float(limit_bits);
  int over = 0;
  if (c < containers) {
    float sum = 0.0f;
#pragma unroll
    for (unsigned i = 0; i < ITEMS; i++)
      sum += __ldg(&vals[(size_t)i * containers + c]);
    over = sum > limit;
  }
#if defined(STRATEGY_thread)
  if (over)
    atomicAdd(count, 1u);
#elif defined(STRATEGY_warp)
  const unsigned ballot = __ballot_sync(__activemask(), over); /* every lane is here: no thread returned */
  if ((threadIdx.x & 31u) == 0 && ballot)
    atomicAdd(count, (unsigned)__popc(ballot));
#elif defined(STRATEGY_block)
  const int n = __syncthreads_count(over);
  if (threadIdx.x == 0 && n)
    atomicAdd(count, (unsigned)n);
#else
#error "define STRATEGY_thread, STRATEGY_warp or STRATEGY_block"
#endif
}

/* The read ceiling: xor of every 16-byte word, one atomicXor per thread. */
extern "C" __global__ void read_all(const unsigned *__restrict__ words, unsigned nwords, unsigned *out)
{
  const uint4 *v = reinterpret_cast<const uint4 *>(words);
  const size_t stride = (size_t)gridDim.x * blockDim.x, gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned n4 = nwords / 4;
  uint4 acc = make_uint4(0, 0, 0, 0);
#pragma unroll 4
  for (size_t i = gid; i < n4; i += stride) {
    const uint4 w = __ldg(&v[i]);
    acc.x ^= w.x;
    acc.y ^= w.y;
    acc.z ^= w.z;
    acc.w ^= w.w;
  }
  for (size_t i = (size_t)n4 * 4 + gid; i < nwords; i += stride)
    acc.x ^= words[i];
  const unsigned x = acc.x ^ acc.y ^ acc.z ^ acc.w;
  if (x)
    atomicXor(out, x);
}
