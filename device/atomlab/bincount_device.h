/*
 * atomlab/bincount_device.h: the weighted bincount with its bins privatized in work-group memory, for users'
 * kernels, written once over atomlab/port.h (CUDA C and OpenCL C 1.2). The app's dsm variant is this header's
 * one kernel (src/kernels/app_scatter_dsm.k.c); the library runs it (atl_scatter_add, method dsm).
 *
 * When: uniform keys into bins that fit a table (2^20 bins on an H100: a table over a 16-group cluster). There
 * it beat L2 atomics: 0.647 ms against atomic's 0.828 at 2^20 bins, E = 64 M u32 weights
 * (docs/design/scatter.md). Not for a zipf head (the table's hot words:
 * 3.155 ms there, where a work-group's hash table of frequent keys, the bins variant, took 0.522), nor for bins
 * far beyond the table (part's L2-sized key ranges: 2^24 bins, 1.147 ms against atomic's 3.165).
 *
 * The table: WORDS 32-bit words in each work-group's local memory. On CUDA sm_90 with ATL_DSM_CLUSTER > 1 (the
 * kernel declared __cluster_dims__(ATL_DSM_CLUSTER, 1, 1)), one table spans the cluster's groups: word w of
 * group r is reached from every group of the cluster through the distributed shared memory (mapa +
 * atom/red.shared::cluster). Elsewhere (ATL_DSM_CLUSTER 1, OpenCL, CUDA before sm_90) each group's own table.
 * Define ATL_DSM_CLUSTER before including this header (default 1).
 *
 * Counters: 32-bit (a bin a word: atl_dsm_red, sums mod 2^32 as the output's) or 16-bit, two bins a word
 * (twice the bins a table holds), exact for any weight: atl_bincount16_add sends a weight's upper 16 bits
 * straight to the output and adds the lower 16 to the word; atl_bincount16_fix, from the old word the atomic
 * returned, adds to the output what the 16-bit counters lost (a lower counter that carries into its neighbour:
 * 2^16 to its own bin, -1 to the neighbour's; a word that wraps past 2^32: 2^16 to its upper bin). A kernel
 * that keeps several adds in flight calls fix after all of them (app_scatter_dsm.k.c); atl_bincount16_add_fixed
 * does both for one row. At the end, atl_bincount_flush adds a group's slice of the table to the output.
 *
 *   atl_dsm_sync()                      every group of the cluster (or the work-group) reaches it first
 *   atl_dsm_rank()                      this group's rank in the cluster (0 without one)
 *   atl_dsm_add(table, rank, w, v)      word w of group rank's table += v, the old value
 *   atl_dsm_red(table, rank, w, v)      the same, nothing returned (a reduction: nothing waits for it)
 *   atl_bincount16_add / _fix / _add_fixed   a row of a 16-bit table (t = key - lo, in [0, span))
 *   atl_bincount_flush(out, table, ...) the group's slice of the table into the output, after atl_dsm_sync
 *   atl_warp_sum_equal(t, x, none)      CUDA: a warp's equal keys (t < none) summed into their first lane
 *
 * Usage (one row per work-item, a 32-bit table of 2^LOG2_WORDS words a group, bins [0, targets), all in the
 * table: targets <= WORDS x ATL_DSM_CLUSTER; examples/bincount_dsm.cu is a whole kernel):
 *   for (w = lid; w < WORDS; w += wg) table[w] = 0;
 *   atl_dsm_sync();
 *   for (i = ...) atl_dsm_red(table, key >> LOG2_WORDS, key & (WORDS - 1), weight);
 *   atl_dsm_sync();
 *   atl_bincount_flush(out, table, 1u << LOG2_WORDS, 0, atl_dsm_rank(), targets, 1, lid, wg);
 */
#ifndef ATOMLAB_BINCOUNT_DEVICE_H
#define ATOMLAB_BINCOUNT_DEVICE_H

#include "atomlab/port.h"

#if !defined(ATL_DSM_CLUSTER)
#define ATL_DSM_CLUSTER 1
#endif

#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && ATL_DSM_CLUSTER > 1
ATL_INLINE void atl_dsm_sync(void)
{
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
ATL_INLINE uint atl_dsm_rank(void)
{
  uint r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
ATL_INLINE uint atl_dsm_add(uint *table, uint rank, uint w, uint v)
{
  const uint local = (uint)__cvta_generic_to_shared(table + w);
  uint remote, old;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank));
  asm volatile("atom.shared::cluster.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(remote), "r"(v) : "memory");
  return old;
}
ATL_INLINE void atl_dsm_red(uint *table, uint rank, uint w, uint v)
{
  const uint local = (uint)__cvta_generic_to_shared(table + w);
  uint remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank));
  asm volatile("red.shared::cluster.add.u32 [%0], %1;" ::"r"(remote), "r"(v) : "memory");
}
#else
/* One group's table: rank is always 0 (macros, so OpenCL's __local pointer keeps its address space). */
#define atl_dsm_sync() atl_barrier_local()
#define atl_dsm_rank() 0u
#define atl_dsm_add(table, rank, w, v) atl_atomic_add(&(table)[w], (v))
#define atl_dsm_red(table, rank, w, v) (void)atl_atomic_add(&(table)[w], (v))
#endif

/* What the 16-bit counters lost when bin @p b's pair (t = b - lo in the launch's range; lo even, so b and t
 * have one parity) went from @p old by @p delta (the lower 16 bits @p x of the weight at its half), to the
 * output of @p targets bins. */
ATL_INLINE void atl_bincount16_fix(ATL_GLOBAL uint *out, ulong b, uint t, uint x, uint old, uint delta, ulong targets)
{
  const uint upper = t & 1u;
  const ulong b1 = b - upper + 1u; /* the word's upper bin */
  if (!upper && (old & 0xffffu) + x > 0xffffu) { /* the lower counter carried into the upper one */
    atl_atomic_add(&out[b], 0x10000u);
    if (b1 < targets)
      atl_atomic_add(&out[b1], 0xffffffffu); /* -1: the carry the upper counter holds */
  }
  if (old > 0xffffffffu - delta && b1 < targets) /* the word wrapped: the upper counter lost 2^16 */
    atl_atomic_add(&out[b1], 0x10000u);
}

/* Bin @p b (t = b - lo) += weight @p w in a 16-bit table of 2^log2_words words a group: the upper 16 bits to the
 * output now, the lower into the table. The delta added to the word (0: nothing added, no fix due), the old
 * word into *@p old and the lower bits into *@p x for atl_bincount16_fix. */
ATL_INLINE uint atl_bincount16_add(ATL_GLOBAL uint *out, ATL_LOCAL uint *table, uint log2_words, ulong b, uint t,
                                   uint w, uint *x, uint *old)
{
  if (w >> 16) /* what a 16-bit counter never holds */
    atl_atomic_add(&out[b], w & 0xffff0000u);
  *x = w & 0xffffu;
  if (*x == 0)
    return 0;
  const uint pair = t >> 1, delta = t & 1u ? *x << 16 : *x;
  *old = atl_dsm_add(table, pair >> log2_words, pair & ((1u << log2_words) - 1u), delta);
  return delta;
}

/* One row, added and fixed. */
ATL_INLINE void atl_bincount16_add_fixed(ATL_GLOBAL uint *out, ATL_LOCAL uint *table, uint log2_words, ulong b, uint t,
                                         uint w, ulong targets)
{
  uint x = 0, old = 0;
  const uint delta = atl_bincount16_add(out, table, log2_words, b, t, w, &x, &old);
  if (delta)
    atl_bincount16_fix(out, b, t, x, old, delta, targets);
}

/* Group @p rank's slice of the table (@p words words; @p wide: 32-bit counters, a bin a word, else two 16-bit
 * bins a word) added to the output's bins from @p lo, by the work-group's @p wg work-items (after atl_dsm_sync:
 * every add into the slice done). */
ATL_INLINE void atl_bincount_flush(ATL_GLOBAL uint *out, ATL_LOCAL uint *table, uint words, ulong lo, uint rank,
                                   ulong targets, int wide, uint lid, uint wg)
{
  for (uint w = lid; w < words; w += wg) {
    const uint c = table[w];
    if (wide) {
      const ulong b = lo + (ulong)rank * words + w;
      if (c && b < targets)
        atl_atomic_add(&out[b], c);
      continue;
    }
    const ulong b = lo + 2u * ((ulong)rank * words + w);
    if ((c & 0xffffu) && b < targets)
      atl_atomic_add(&out[b], c & 0xffffu);
    if ((c >> 16) && b + 1u < targets)
      atl_atomic_add(&out[b + 1u], c >> 16);
  }
}

#if defined(__CUDACC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
/* A warp's equal keys summed into their first lane (match-any, 32 shuffles), only where the warp has any: a zipf
 * head's bin then costs one atomic per warp, and uniform keys pay the match and one vote. Lanes with @p t below
 * @p none take part (the first of each key gets the sum of their weights @p x, the others t = none); lanes at
 * or above it keep theirs (nothing to add, or a mark of their own). All 32 lanes must call it. */
ATL_INLINE void atl_warp_sum_equal(uint *t, uint *x, uint none)
{
  const uint lane = threadIdx.x & 31u, same = __match_any_sync(0xffffffffu, *t);
  if (__any_sync(0xffffffffu, *t < none && same != (1u << lane))) {
    uint sum = 0;
    for (uint j = 0; j < 32u; j++) {
      const uint y = __shfl_sync(0xffffffffu, *x, j);
      sum += (same >> j) & 1u ? y : 0u;
    }
    if (*t < none) {
      *x = sum; /* mod 2^32, as the output's sums */
      *t = lane == (uint)__ffs(same) - 1u ? *t : none;
    }
  }
}
#endif

#endif
