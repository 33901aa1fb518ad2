/*
 * app_histogram.k.c: histograms of 8-bit, RGBA and 32-bit keys (issue
 * [histogram]), written once for CUDA and OpenCL; docs/design/histogram.md has the
 * design of each variant.
 *
 *   INPUT_u8 | INPUT_rgba | INPUT_u32  what a 32-bit word holds: 4 bytes (bin =
 *                    byte), 4 channels of one pixel (bin = channel * 256 +
 *                    byte) or one key (bin = key % BINS, BINS a power of two)
 *   BINS=N           bins of the histogram
 *   WG=N             work-group size (a multiple of 32 for the per-32 variants)
 *   VARIANT_global        one global atomic per key
 *   VARIANT_shared        one work-group histogram, merged with one global
 *                         atomic per nonzero bin
 *   VARIANT_warp_private  one work-group histogram per 32 work-items (a warp;
 *                         OpenCL has no warps: work-items 32k..32k+31 share one)
 *   VARIANT_match_any     CUDA only: __match_any_sync groups the lanes holding
 *                         the same bin; the lowest of them adds the group's size
 *                         to the block's histogram (one atomic per distinct bin)
 *   VARIANT_packed        as warp_private with two 16-bit counters per 32-bit
 *                         word, flushed into 32-bit work-group totals every
 *                         FLUSH_EVERY iterations, before a counter can overflow
 *   VARIANT_per_lane      32 columns of 32-bit counters shared by the warps of
 *                         the work-group (atl_hist_lane_add: bin b of lane l is
 *                         word b * 32 + l): 32 consecutive work-items always hit
 *                         32 different banks, whatever the keys, and on CUDA the
 *                         constant 1 compiles to ATOMS.POPC.INC; summed into the
 *                         global bins (atl_hist_lane_merge) every FLUSH_EVERY
 *                         iterations and at the end
 *   VARIANT_byte_lanes    u8: 64 columns of 32-bit counters in 64 KiB of
 *                         work-group memory sized at launch, bins 256 bytes
 *                         apart, so a key's address is the key as the second
 *                         byte (atl_hist_bytes_add4; CUDA: a PRMT and an
 *                         ATOMS.POPC.INC per key); rgba: 32 columns per channel
 *                         in 128 KiB, two channels per 256-byte row
 *                         (atl_hist_rgba_add); merged at the end
 *   VARIANT_block16       one work-group histogram of 16-bit counters in
 *                         work-group memory sized at launch (atl_hist16_add;
 *                         65,536 bins in 128 KiB): a counter that reaches 0x8000
 *                         hands 0x8000 to its global bin, so none can overflow,
 *                         with no periodic flush
 *
 * per_lane, byte_lanes and block16 load UNROLL uint4 per work-item before
 * counting them, so more loads are in flight at their lower occupancy;
 * MIN_GROUPS (default 1) is the blocks per SM the CUDA host plans for, which
 * caps the registers (OpenCL has no such hint).
 *
 * Each work-item loads 16 bytes (uint4; CUDA through the read-only cache) per
 * iteration. The loop over chunks of WG uint4 is uniform across the
 * work-group, so barriers inside it and the full-warp __match_any_sync are
 * reached by every work-item.
 */
#include "atomlab/atomics.h" /* atl_hist_lane_*, atl_hist_bytes_* and atl_hist16_* */

#ifndef MIN_GROUPS
#define MIN_GROUPS 1
#endif

#if defined(INPUT_u32)
#define BIN_OF(w, k) ((w) & (BINS - 1u))
#define KEYS_PER_WORD 1
#elif defined(INPUT_rgba)
#define BIN_OF(w, k) (((uint)(k) << 8) | (((w) >> (8u * (k))) & 255u))
#define KEYS_PER_WORD 4
#elif defined(INPUT_u8)
#define BIN_OF(w, k) (((w) >> (8u * (k))) & 255u)
#define KEYS_PER_WORD 4
#else
#error "define INPUT_u8, INPUT_rgba or INPUT_u32"
#endif

#if defined(VARIANT_global)
#define LOCAL_WORDS 0
#define ADD(b) atl_atomic_inc(&hist[b])
#elif defined(VARIANT_shared)
#define LOCAL_WORDS BINS
#define ADD(b) atl_atomic_inc(&lh[b])
#elif defined(VARIANT_warp_private)
#define LOCAL_WORDS ((WG / 32) * BINS)
#define ADD(b) atl_atomic_inc(&lh[(lid >> 5) * BINS + (b)])
#elif defined(VARIANT_match_any)
#if !defined(__CUDACC__)
#error "VARIANT_match_any needs CUDA's __match_any_sync (the host reports it unsupported elsewhere)"
#endif
#define LOCAL_WORDS BINS
#define ADD(b) add_matched(lh, (b), valid)
#elif defined(VARIANT_packed)
#define HALF (BINS / 2)
#define PK_WORDS ((WG / 32) * HALF)
#define LOCAL_WORDS (PK_WORDS + BINS)
/* bin b: word b % HALF of the group's block, low half if b < HALF else high half */
#define ADD(b) atl_atomic_add(&lh[(lid >> 5) * HALF + ((b) & (HALF - 1u))], 1u << (((b) / HALF) * 16u))
#elif defined(VARIANT_per_lane)
#define LOCAL_WORDS (BINS * 32)
#define ADD(b) atl_hist_lane_add(lh, (b))
#define UNROLLED 1
#elif defined(VARIANT_byte_lanes)
#if !defined(INPUT_u8) && !defined(INPUT_rgba)
#error "VARIANT_byte_lanes counts 8-bit keys (INPUT_u8) and RGBA pixels (INPUT_rgba) only"
#endif
#define LOCAL_WORDS 0 /* sized at launch: ATL_HIST_BYTES_SIZE (u8) or ATL_HIST_RGBA_SIZE (rgba) bytes */
#define UNROLLED 1
#elif defined(VARIANT_block16)
#define LOCAL_WORDS 0 /* sized at launch: BINS / 2 words */
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
    const uint w_ = (w);                                                                                               \
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
ATL_FUNC void flush_packed(ATL_LOCAL uint *lh, uint lid)
{
  atl_barrier_local();
  for (uint w = lid; w < PK_WORDS; w += WG) {
    const uint v = lh[w];
    if (v) {
      const uint b = w & (HALF - 1u);
      lh[w] = 0;
      if (v & 0xffffu)
        atl_atomic_add(&lh[PK_WORDS + b], v & 0xffffu);
      if (v >> 16)
        atl_atomic_add(&lh[PK_WORDS + HALF + b], v >> 16);
    }
  }
  atl_barrier_local();
}
#endif

#if defined(UNROLLED)
/* per_lane, byte_lanes and block16: chunks of UNROLL x WG uint4, uniform across
 * the work-group (the flush's barrier), UNROLL loads in flight per work-item. */
#if defined(VARIANT_per_lane)
#define LH_PARAM
#else
#define LH_PARAM ATL_DYNAMIC_SHARED_PARAM(uint, lh)
#endif
ATL_KERNEL void ATL_LAUNCH_BOUNDS(WG, MIN_GROUPS)
    histogram(ATL_GLOBAL const uint4 *ATL_RESTRICT in, uint n4, ATL_GLOBAL uint *hist LH_PARAM)
{
#if defined(VARIANT_per_lane)
  ATL_SHARED uint lh[LOCAL_WORDS];
  const uint words = LOCAL_WORDS;
#elif defined(VARIANT_byte_lanes) && defined(INPUT_rgba)
  ATL_DYNAMIC_SHARED(uint, lh);
  const uint words = ATL_HIST_RGBA_SIZE / 4, col = (atl_local_id() & 31u) * 4u;
#elif defined(VARIANT_byte_lanes)
  ATL_DYNAMIC_SHARED(uint, lh);
  const uint words = ATL_HIST_BYTES_SIZE / 4, col = atl_hist_bytes_column();
#else
  ATL_DYNAMIC_SHARED(uint, lh);
  const uint words = BINS / 2;
#endif
  const uint lid = atl_local_id();
  for (uint i = lid; i < words; i += WG)
    lh[i] = 0;
  atl_barrier_local();
  /* 32-bit indices: the host keeps inputs below 4 GiB, so n4 < 2^28 */
  const uint step = atl_num_groups() * WG * UNROLL;
  uint base = atl_group_id() * WG * UNROLL;
  /* per_lane: FLUSH_EVERY chunks, then a flush, until the input ends (no
   * barrier under a condition: PoCL miscompiled that shape); the others never flush. */
  do {
    for (uint k = 0; k < FLUSH_EVERY && base < n4; k++, base += step) {
      uint4 v[UNROLL];
      if (base + UNROLL * WG <= n4) { /* a whole chunk (the same for the work-group): no bounds checks */
        ATL_PRAGMA_CUDA(unroll)
        for (uint u = 0; u < UNROLL; u++)
          v[u] = atl_ldg(&in[base + u * WG + lid]);
        ATL_PRAGMA_CUDA(unroll)
        for (uint u = 0; u < UNROLL; u++)
          COUNT_UINT4(v[u]);
        continue;
      }
      ATL_PRAGMA_CUDA(unroll)
      for (uint u = 0; u < UNROLL; u++) {
        const uint i = base + u * WG + lid;
        v[u] = i < n4 ? atl_ldg(&in[i]) : atl_uint4_zero();
      }
      ATL_PRAGMA_CUDA(unroll)
      for (uint u = 0; u < UNROLL; u++)
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
ATL_KERNEL void ATL_LAUNCH_BOUNDS(WG) histogram(ATL_GLOBAL const uint4 *ATL_RESTRICT in, uint n4, ATL_GLOBAL uint *hist)
{
  const uint lid = atl_local_id();
#if LOCAL_WORDS > 0
  ATL_SHARED uint lh[LOCAL_WORDS];
  for (uint i = lid; i < LOCAL_WORDS; i += WG)
    lh[i] = 0;
  atl_barrier_local();
#endif
#if defined(VARIANT_packed)
  uint since_flush = 0;
#endif
  const size_t step = (size_t)atl_num_groups() * WG;
  for (size_t base = (size_t)atl_group_id() * WG; base < n4; base += step) {
    const size_t i = base + lid;
#if defined(VARIANT_match_any)
    const bool valid = i < n4; /* every lane reaches __match_any_sync */
    const uint4 v = valid ? atl_ldg(&in[i]) : atl_uint4_zero();
    {
#else
    if (i < n4) {
      const uint4 v = atl_ldg(&in[i]);
#endif
      COUNT_WORD(v.x);
      COUNT_WORD(v.y);
      COUNT_WORD(v.z);
      COUNT_WORD(v.w);
    }
#if defined(VARIANT_packed)
    if (++since_flush == FLUSH_EVERY) {
      flush_packed(lh, lid);
      since_flush = 0;
    }
#endif
  }
#if defined(VARIANT_shared) || defined(VARIANT_match_any)
  atl_barrier_local();
  for (uint b = lid; b < BINS; b += WG)
    if (lh[b])
      atl_atomic_add(&hist[b], lh[b]);
#elif defined(VARIANT_warp_private)
  atl_barrier_local();
  for (uint b = lid; b < BINS; b += WG) {
    uint s = 0;
    for (uint g = 0; g < WG / 32; g++)
      s += lh[g * BINS + b];
    if (s)
      atl_atomic_add(&hist[b], s);
  }
#elif defined(VARIANT_packed)
  flush_packed(lh, lid);
  for (uint b = lid; b < BINS; b += WG)
    if (lh[PK_WORDS + b])
      atl_atomic_add(&hist[b], lh[PK_WORDS + b]);
#endif
  (void)lid;
}
#endif
