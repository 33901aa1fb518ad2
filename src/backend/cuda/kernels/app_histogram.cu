/*
 * app_histogram.cu: the histogram variants for CUDA (NVRTC), with the defines
 * of app_histogram.cl (docs/histogram.md has the design):
 *
 *   INPUT_u8 | INPUT_rgba | INPUT_u32, BINS=N, WG=N as in the OpenCL kernel
 *   VARIANT_global        atomicAdd per key on global memory
 *   VARIANT_shared        per-block shared histogram, one global atomicAdd per nonzero bin
 *   VARIANT_warp_private  one shared sub-histogram per warp
 *   VARIANT_match_any     __match_any_sync groups the lanes holding the same
 *                         bin; the lowest of them adds the group's size to the
 *                         block's shared histogram (one atomic per distinct bin)
 *   VARIANT_packed        per-warp sub-histograms of 16-bit counters (two per
 *                         32-bit word), flushed into 32-bit block totals every
 *                         FLUSH_EVERY iterations, before any counter can overflow
 *   VARIANT_per_lane      every lane its own column of 32-bit counters, shared
 *                         by the warps of the block (atl_hist_lane_add: bin b of
 *                         lane l is word b * 32 + l): a warp's lanes always hit
 *                         32 different banks, whatever the keys, and the constant
 *                         1 compiles to ATOMS.POPC.INC; summed into the global
 *                         bins (atl_hist_lane_merge) every FLUSH_EVERY iterations
 *                         and at the end
 *   VARIANT_byte_lanes    u8: 64 columns of 32-bit counters in 64 KiB of dynamic
 *                         shared memory, bins 256 bytes apart, so one byte permute
 *                         builds a key's address (atl_hist_bytes_add4: a PRMT and an
 *                         ATOMS.POPC.INC per key); rgba: 32 columns per channel in
 *                         128 KiB, two channels per 256-byte row (atl_hist_rgba_add);
 *                         merged at the end
 *   VARIANT_block16       one per-block histogram of 16-bit counters in dynamic
 *                         shared memory (atl_hist16_add; 65,536 bins in 128 KiB):
 *                         a counter that reaches 0x8000 hands 0x8000 to its
 *                         global bin, so none can overflow, with no periodic flush
 *
 * per_lane, byte_lanes and block16 load UNROLL uint4 per thread before counting
 * them, so more loads are in flight at their lower occupancy; MIN_GROUPS (default
 * 1) is the blocks per SM the host plans for, which caps the registers.
 *
 * Each thread loads 16 bytes (uint4, __ldg) per iteration. The loop over
 * chunks of WG uint4 is uniform across the block, so __syncthreads inside it
 * and the full-warp __match_any_sync are reached by every thread.
 */
#include "atomlab/atomics.cuh" /* atl_hist_lane_*, atl_hist_bytes_* and atl_hist16_* */

#ifndef MIN_GROUPS
#define MIN_GROUPS 1
#endif

#if defined(INPUT_u32)
#define BIN_OF(w, k) ((w) & (BINS - 1u))
#define KEYS_PER_WORD 1
#elif defined(INPUT_rgba)
#define BIN_OF(w, k) (((unsigned)(k) << 8) | (((w) >> (8u * (k))) & 255u))
#define KEYS_PER_WORD 4
#elif defined(INPUT_u8)
#define BIN_OF(w, k) (((w) >> (8u * (k))) & 255u)
#define KEYS_PER_WORD 4
#else
#error "define INPUT_u8, INPUT_rgba or INPUT_u32"
#endif

#if defined(VARIANT_global)
#define LOCAL_WORDS 0
#define ADD(b) atomicAdd(&hist[b], 1u)
#elif defined(VARIANT_shared)
#define LOCAL_WORDS BINS
#define ADD(b) atomicAdd(&lh[b], 1u)
#elif defined(VARIANT_warp_private)
#define LOCAL_WORDS ((WG / 32) * BINS)
#define ADD(b) atomicAdd(&lh[(threadIdx.x >> 5) * BINS + (b)], 1u)
#elif defined(VARIANT_match_any)
#define LOCAL_WORDS BINS
#define ADD(b) add_matched(lh, (b), valid)
#elif defined(VARIANT_packed)
#define HALF (BINS / 2)
#define PK_WORDS ((WG / 32) * HALF)
#define LOCAL_WORDS (PK_WORDS + BINS)
#define ADD(b) atomicAdd(&lh[(threadIdx.x >> 5) * HALF + ((b) & (HALF - 1u))], 1u << (((b) / HALF) * 16u))
#elif defined(VARIANT_per_lane)
#define LOCAL_WORDS (BINS * 32)
#define ADD(b) atl_hist_lane_add(lh, (b))
#define UNROLLED 1
#elif defined(VARIANT_byte_lanes)
#if !defined(INPUT_u8) && !defined(INPUT_rgba)
#error "VARIANT_byte_lanes counts 8-bit keys (INPUT_u8) and RGBA pixels (INPUT_rgba) only"
#endif
#define LOCAL_WORDS 0 /* dynamic: ATL_HIST_BYTES_SIZE (u8) or ATL_HIST_RGBA_SIZE (rgba) bytes */
#define UNROLLED 1
#elif defined(VARIANT_block16)
#define LOCAL_WORDS 0 /* dynamic: BINS / 2 words */
#define ADD(b) atl_hist16_add(lh, hist, (b))
#define UNROLLED 1
#else
#error "define VARIANT_global, VARIANT_shared, VARIANT_warp_private, VARIANT_match_any, VARIANT_packed, VARIANT_per_lane, VARIANT_byte_lanes or VARIANT_block16"
#endif

#if defined(VARIANT_byte_lanes) && defined(INPUT_rgba)
#define COUNT_WORD(w) atl_hist_rgba_add(lh, col, (w))
#elif defined(VARIANT_byte_lanes)
#define COUNT_WORD(w) atl_hist_bytes_add4(lh, col, (w))
#elif KEYS_PER_WORD == 4
#define COUNT_WORD(w)                                                                                                  \
  do {                                                                                                                 \
    const unsigned w_ = (w);                                                                                           \
    ADD(BIN_OF(w_, 0));                                                                                                \
    ADD(BIN_OF(w_, 1));                                                                                                \
    ADD(BIN_OF(w_, 2));                                                                                                \
    ADD(BIN_OF(w_, 3));                                                                                                \
  } while (0)
#else
#define COUNT_WORD(w) ADD(BIN_OF((w), 0))
#endif

#define COUNT_UINT4(v)                                                                                                 \
  do {                                                                                                                 \
    COUNT_WORD((v).x);                                                                                                 \
    COUNT_WORD((v).y);                                                                                                 \
    COUNT_WORD((v).z);                                                                                                 \
    COUNT_WORD((v).w);                                                                                                 \
  } while (0)

#if defined(VARIANT_match_any)
/* Every lane of the warp calls this together; lanes past the input pass valid = false. */
__device__ __forceinline__ void add_matched(unsigned *lh, unsigned b, bool valid)
{
  const unsigned key = valid ? b : 0xffffffffu; /* no bin is 0xffffffff */
  const unsigned peers = __match_any_sync(0xffffffffu, key);
  if (valid && (threadIdx.x & 31u) == (unsigned)(__ffs(peers) - 1))
    atomicAdd(&lh[b], (unsigned)__popc(peers));
}
#endif

#if defined(VARIANT_packed)
/* Moves the 16-bit counters into the 32-bit totals and clears them. */
__device__ __forceinline__ void flush_packed(unsigned *lh)
{
  __syncthreads();
  for (unsigned w = threadIdx.x; w < PK_WORDS; w += WG) {
    const unsigned v = lh[w];
    if (v) {
      const unsigned b = w & (HALF - 1u);
      lh[w] = 0;
      if (v & 0xffffu)
        atomicAdd(&lh[PK_WORDS + b], v & 0xffffu);
      if (v >> 16)
        atomicAdd(&lh[PK_WORDS + HALF + b], v >> 16);
    }
  }
  __syncthreads();
}
#endif

#if defined(UNROLLED)
/* per_lane, byte_lanes and block16: chunks of UNROLL x WG uint4, uniform across
 * the block (the flush's __syncthreads), UNROLL loads in flight per thread. */
extern "C" __global__ void __launch_bounds__(WG, MIN_GROUPS)
    histogram(const uint4 *__restrict__ in, unsigned n4, unsigned *hist)
{
  const unsigned lid = threadIdx.x;
#if defined(VARIANT_per_lane)
  __shared__ unsigned lh[LOCAL_WORDS];
  const unsigned words = LOCAL_WORDS;
#elif defined(VARIANT_byte_lanes) && defined(INPUT_rgba)
  extern __shared__ unsigned lh[];
  const unsigned words = ATL_HIST_RGBA_SIZE / 4, col = (threadIdx.x & 31u) * 4u;
#elif defined(VARIANT_byte_lanes)
  extern __shared__ unsigned lh[];
  const unsigned words = ATL_HIST_BYTES_SIZE / 4, col = atl_hist_bytes_column();
#else
  extern __shared__ unsigned lh[];
  const unsigned words = BINS / 2;
#endif
  for (unsigned i = lid; i < words; i += WG)
    lh[i] = 0;
  __syncthreads();
  /* 32-bit indices: the host keeps inputs below 4 GiB, so n4 < 2^28 */
  const unsigned step = gridDim.x * WG * UNROLL;
  unsigned base = blockIdx.x * WG * UNROLL;
  /* per_lane: FLUSH_EVERY chunks, then a flush, until the input ends; the others never flush. */
  do {
    for (unsigned k = 0; k < FLUSH_EVERY && base < n4; k++, base += step) {
      uint4 v[UNROLL];
      if (base + UNROLL * WG <= n4) { /* a whole chunk (the same for the block): no bounds checks */
#pragma unroll
        for (unsigned u = 0; u < UNROLL; u++)
          v[u] = __ldg(&in[base + u * WG + lid]);
#pragma unroll
        for (unsigned u = 0; u < UNROLL; u++)
          COUNT_UINT4(v[u]);
        continue;
      }
#pragma unroll
      for (unsigned u = 0; u < UNROLL; u++) {
        const unsigned i = base + u * WG + lid;
        v[u] = i < n4 ? __ldg(&in[i]) : make_uint4(0, 0, 0, 0);
      }
#pragma unroll
      for (unsigned u = 0; u < UNROLL; u++)
        if (base + u * WG + lid < n4)
          COUNT_UINT4(v[u]);
    }
#if defined(VARIANT_per_lane)
    atl_hist_lane_merge(lh, hist, BINS);
#endif
  } while (base < n4);
#if defined(VARIANT_byte_lanes) && defined(INPUT_rgba)
  atl_hist_rgba_merge(lh, hist);
#elif defined(VARIANT_byte_lanes)
  atl_hist_bytes_merge(lh, hist);
#elif defined(VARIANT_block16)
  atl_hist16_merge(lh, hist, BINS);
#endif
}
#else
extern "C" __global__ void __launch_bounds__(WG) histogram(const uint4 *__restrict__ in, unsigned n4, unsigned *hist)
{
  const unsigned lid = threadIdx.x;
#if LOCAL_WORDS > 0
  __shared__ unsigned lh[LOCAL_WORDS];
  for (unsigned i = lid; i < LOCAL_WORDS; i += WG)
    lh[i] = 0;
  __syncthreads();
#endif
#if defined(VARIANT_packed)
  unsigned since_flush = 0;
#endif
  const size_t step = (size_t)gridDim.x * WG;
  for (size_t base = (size_t)blockIdx.x * WG; base < n4; base += step) {
    const size_t i = base + lid;
    const bool valid = i < n4;
#if defined(VARIANT_match_any)
    const uint4 v = valid ? __ldg(&in[i]) : make_uint4(0, 0, 0, 0);
    {
#else
    if (valid) {
      const uint4 v = __ldg(&in[i]);
#endif
      COUNT_WORD(v.x);
      COUNT_WORD(v.y);
      COUNT_WORD(v.z);
      COUNT_WORD(v.w);
    }
#if defined(VARIANT_packed)
    if (++since_flush == FLUSH_EVERY) {
      flush_packed(lh);
      since_flush = 0;
    }
#endif
  }
#if defined(VARIANT_shared) || defined(VARIANT_match_any)
  __syncthreads();
  for (unsigned b = lid; b < BINS; b += WG)
    if (lh[b])
      atomicAdd(&hist[b], lh[b]);
#elif defined(VARIANT_warp_private)
  __syncthreads();
  for (unsigned b = lid; b < BINS; b += WG) {
    unsigned s = 0;
    for (unsigned g = 0; g < WG / 32; g++)
      s += lh[g * BINS + b];
    if (s)
      atomicAdd(&hist[b], s);
  }
#elif defined(VARIANT_packed)
  flush_packed(lh);
  for (unsigned b = lid; b < BINS; b += WG)
    if (lh[PK_WORDS + b])
      atomicAdd(&hist[b], lh[PK_WORDS + b]);
#endif
  (void)lid;
}
#endif
