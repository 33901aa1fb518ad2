/*
 * app_histogram.cl: histograms of 8-bit, RGBA and 32-bit keys (issue
 * [histogram]); docs/histogram.md has the design of each variant.
 *
 *   INPUT_u8 | INPUT_rgba | INPUT_u32  what a 32-bit word holds: 4 bytes (bin =
 *                    byte), 4 channels of one pixel (bin = channel * 256 +
 *                    byte) or one key (bin = key % BINS, BINS a power of two)
 *   BINS=N           bins of the histogram
 *   WG=N             work-group size (a multiple of 32 for the per-32 variants)
 *   VARIANT_global        one global atomic per key
 *   VARIANT_shared        one local histogram per work-group, merged with one
 *                         global atomic per nonzero bin
 *   VARIANT_warp_private  one local histogram per 32 work-items (OpenCL has no
 *                         warps: work-items 32k..32k+31 share one)
 *   VARIANT_packed        as warp_private with two 16-bit counters per 32-bit
 *                         word, flushed into 32-bit work-group totals every
 *                         FLUSH_EVERY iterations, before a counter can overflow
 *   VARIANT_per_lane      32 columns of 32-bit counters shared by the groups
 *                         of 32 work-items (atl_hist_lane_add: word b * 32 +
 *                         local id % 32): 32 consecutive work-items always hit
 *                         32 different banks, whatever the keys; summed every
 *                         FLUSH_EVERY iterations and at the end
 *   VARIANT_byte_lanes    u8: 64 columns of 32-bit counters in a 64 KiB `__local`
 *                         buffer sized at launch, bins 256 bytes apart, so a key's
 *                         address is the key as the second byte (atl_hist_bytes_add4);
 *                         rgba: 32 columns per channel in 128 KiB
 *                         (atl_hist_rgba_add); merged at the end
 *   VARIANT_block16       one per-group histogram of 16-bit counters in a
 *                         `__local` buffer sized at launch; a counter reaching
 *                         0x8000 hands 0x8000 to its global bin
 *   (app_histogram.cu explains both; they load UNROLL uint4 per work-item first)
 *
 * Every work-item reads 16 bytes (uint4) per iteration. The loop over chunks
 * of WG uint4 is uniform across the work-group, so barriers inside it (the
 * packed flush) are reached by every work-item.
 */
#include "atomlab/atomics.clh" /* atl_hist_lane_*, atl_hist_bytes_* and atl_hist16_* */

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
#define ADD(b) atomic_inc(&hist[b])
#elif defined(VARIANT_shared)
#define LOCAL_WORDS BINS
#define ADD(b) atomic_inc(&lh[b])
#elif defined(VARIANT_warp_private)
#define LOCAL_WORDS ((WG / 32) * BINS)
#define ADD(b) atomic_inc(&lh[(lid >> 5) * BINS + (b)])
#elif defined(VARIANT_packed)
#define HALF (BINS / 2)
#define PK_WORDS ((WG / 32) * HALF)
#define LOCAL_WORDS (PK_WORDS + BINS)
/* bin b: word b % HALF of the group's block, low half if b < HALF else high half */
#define ADD(b) atomic_add(&lh[(lid >> 5) * HALF + ((b) & (HALF - 1u))], 1u << (((b) / HALF) * 16u))
#elif defined(VARIANT_per_lane)
#define LOCAL_WORDS (BINS * 32)
#define ADD(b) atl_hist_lane_add(lh, (b))
#define UNROLLED 1
#elif defined(VARIANT_byte_lanes)
#if !defined(INPUT_u8) && !defined(INPUT_rgba)
#error "VARIANT_byte_lanes counts 8-bit keys (INPUT_u8) and RGBA pixels (INPUT_rgba) only"
#endif
#define LOCAL_WORDS 0 /* the __local parameter: ATL_HIST_BYTES_SIZE (u8) or ATL_HIST_RGBA_SIZE (rgba) bytes */
#define UNROLLED 1
#elif defined(VARIANT_block16)
#define LOCAL_WORDS 0 /* the __local parameter: BINS / 2 words */
#define ADD(b) atl_hist16_add(lh, hist, (b))
#define UNROLLED 1
#else
#error "define VARIANT_global, VARIANT_shared, VARIANT_warp_private, VARIANT_packed, VARIANT_per_lane, VARIANT_byte_lanes or VARIANT_block16"
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

#if defined(VARIANT_packed)
/* Moves the 16-bit counters into the 32-bit totals and clears them. */
static void flush_packed(__local uint *lh, uint lid)
{
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = lid; w < PK_WORDS; w += WG) {
    const uint v = lh[w];
    if (v) {
      const uint b = w & (HALF - 1u);
      lh[w] = 0;
      if (v & 0xffffu)
        atomic_add(&lh[PK_WORDS + b], v & 0xffffu);
      if (v >> 16)
        atomic_add(&lh[PK_WORDS + HALF + b], v >> 16);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}
#endif

#if defined(UNROLLED)
#if defined(VARIANT_block16)
__kernel void histogram(__global const uint4 *in, uint n4, __global uint *hist, __local uint *lh)
{
  const uint words = BINS / 2;
#elif defined(VARIANT_byte_lanes) && defined(INPUT_rgba)
__kernel void histogram(__global const uint4 *in, uint n4, __global uint *hist, __local uint *lh)
{
  const uint words = ATL_HIST_RGBA_SIZE / 4, col = (get_local_id(0) & 31u) * 4u;
#elif defined(VARIANT_byte_lanes)
__kernel void histogram(__global const uint4 *in, uint n4, __global uint *hist, __local uint *lh)
{
  const uint words = ATL_HIST_BYTES_SIZE / 4, col = atl_hist_bytes_column();
#else
__kernel void histogram(__global const uint4 *in, uint n4, __global uint *hist)
{
  __local uint lh[LOCAL_WORDS];
  const uint words = LOCAL_WORDS;
#endif
  const uint lid = get_local_id(0);
  for (uint i = lid; i < words; i += WG)
    lh[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  /* 32-bit indices: the host keeps inputs below 4 GiB, so n4 < 2^28 */
  const uint step = get_num_groups(0) * WG * UNROLL;
  uint base = get_group_id(0) * WG * UNROLL;
  /* per_lane: FLUSH_EVERY chunks, then a flush, until the input ends (no
   * barrier under a condition: PoCL miscompiled that shape); the others never flush. */
  do {
    for (uint k = 0; k < FLUSH_EVERY && base < n4; k++, base += step) {
      uint4 v[UNROLL];
      if (base + UNROLL * WG <= n4) { /* a whole chunk (the same for the group): no bounds checks */
        for (uint u = 0; u < UNROLL; u++)
          v[u] = in[base + u * WG + lid];
        for (uint u = 0; u < UNROLL; u++)
          COUNT_UINT4(v[u]);
        continue;
      }
      for (uint u = 0; u < UNROLL; u++) {
        const uint i = base + u * WG + lid;
        v[u] = i < n4 ? in[i] : (uint4)(0);
      }
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
__kernel void histogram(__global const uint4 *in, uint n4, __global uint *hist)
{
  const uint lid = get_local_id(0);
#if LOCAL_WORDS > 0
  __local uint lh[LOCAL_WORDS];
  for (uint i = lid; i < LOCAL_WORDS; i += WG)
    lh[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
#if defined(VARIANT_packed)
  uint since_flush = 0;
#endif
  const size_t step = (size_t)get_num_groups(0) * WG;
  for (size_t base = (size_t)get_group_id(0) * WG; base < n4; base += step) {
    const size_t i = base + lid;
    if (i < n4) {
      const uint4 v = in[i];
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
#if defined(VARIANT_shared)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < BINS; b += WG)
    if (lh[b])
      atomic_add(&hist[b], lh[b]);
#elif defined(VARIANT_warp_private)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < BINS; b += WG) {
    uint s = 0;
    for (uint g = 0; g < WG / 32; g++)
      s += lh[g * BINS + b];
    if (s)
      atomic_add(&hist[b], s);
  }
#elif defined(VARIANT_packed)
  flush_packed(lh, lid);
  for (uint b = lid; b < BINS; b += WG)
    if (lh[PK_WORDS + b])
      atomic_add(&hist[b], lh[PK_WORDS + b]);
#endif
}
#endif
