/*
 * app_scatter_dsm.k.c: the weighted bincount (app scatter --variants dsm: D = 1, u32 / i32 weights, issue
 * [scatter]) with its bins in work-group memory, written once for CUDA and OpenCL.
 *
 * Why: uniform keys into 2^20 bins send every row to a random word of the L2 (about 0.27x the read ceiling on
 * an H100; reference run: scatter), and a work-group's own table (the bins variant's) sees each key about once. The bins must
 * be privatized where a work-group reaches all of them quickly: on CUDA sm_90 a thread-block cluster of
 * CLUSTER work-groups, each holding WORDS words of one table, that every group of the cluster adds into
 * through the distributed shared memory (mapa + atom.shared::cluster); elsewhere (CLUSTER 1, OpenCL) one
 * group's local memory. The counters are 16 bits, two to a 32-bit word, so 2^20 bins fit 16 groups of
 * 128 KiB: one launch reads every row once. A launch covers the keys [lo, lo + SPAN); more bins take more
 * launches (the host's passes), each reading every key.
 *
 * Exact for any weight: a weight's upper 16 bits go straight to the output; its lower 16 bits are added to
 * the word, and the old value the atomic returns says what the 16-bit counter lost: a lower counter that
 * carries into its neighbour adds 2^16 to its own bin and takes 1 from the neighbour's (the carry sits in
 * the neighbour's counter), a word that wraps past 2^32 adds 2^16 to its upper bin. At the end each
 * group adds its slice's counters to the output: bin = (counter + 2^16 x its carries and wraps), mod 2^32 as
 * the output's sums (docs/design/scatter.md has the proof). On CUDA a warp's equal keys are summed first (match-any,
 * only where a warp has any: a zipf head), so a hot bin costs one atomic per warp.
 *
 *   IDX_T=uint|ulong  the keys' type
 *   CLUSTER=N         work-groups sharing one table (a power of two; > 1 only on CUDA sm_90: __cluster_dims__)
 *   LOG2_WORDS=N      words of the table a work-group holds (its local memory: 4 << LOG2_WORDS bytes at launch)
 *   CHUNK=N           rows a work-group claims at a time from the launch's cursor
 *   WG=N              work-items of a work-group (CUDA's __launch_bounds__)
 *   WIDE=0|1          1 (--dsm-counters 32): a bin a word, 32-bit counters (half the bins a table holds), added
 *                     by reductions that return nothing (red.shared::cluster): no carry to track
 *   BEYOND=0|1        1 (--dsm-beyond global): one launch; the bins beyond the table's range [0, SPAN) are
 *                     added to the output directly (L2 atomics), so the table's and the L2's atomic units work
 *                     side by side on one pass over the keys, in the share the table's size sets
 *   CACHE_LOG2=N      0, or log2 of the slots of a work-group's own cache of keys (--dsm-cache): the first keys
 *                     that hash to a free slot are summed there, in 32 bits, and go out once at the end: a zipf
 *                     head's keys then leave the cluster's one word of each alone
 * Work distribution: each work-group claims chunks of CHUNK rows from cursor[q] (zeroed before the launch),
 * so a cluster that could not be resident with the others finds no rows left and costs a zero flush.
 */
#include "atomlab/port.h"
#define ATL_DSM_CLUSTER CLUSTER
#include "atomlab/bincount_device.h" /* the table's adds, the 16-bit counters' fix, the flush, the warp's sums */
#include "atomlab/key_guard.h"       /* KEY_GUARD: the library's builds return where its check found a bad key */

#if !defined(WIDE)
#define WIDE 0
#endif
#define WORDS (1u << LOG2_WORDS)
#define PER_WORD (WIDE ? 1u : 2u)          /* bins a word holds */
#define SPAN (PER_WORD * WORDS * CLUSTER) /* bins a launch covers */
#define UNROLL 4u                   /* rows a work-item loads before it adds any */
#if !defined(BEYOND)
#define BEYOND 0
#endif
#define BEYOND_MARK (SPAN + 1u) /* t of a key beyond the table's range where BEYOND adds it to the output */

#if defined(__CUDACC__) && __CUDA_ARCH__ >= 900 && CLUSTER > 1
#define CLUSTER_DIMS __cluster_dims__(CLUSTER, 1, 1)
#else
#define CLUSTER_DIMS
#endif

ATL_KERNEL void CLUSTER_DIMS ATL_LAUNCH_BOUNDS(WG)
bincount_dsm(ATL_GLOBAL const uint *ATL_RESTRICT src, ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ATL_GLOBAL uint *out,
             ulong rows, uint lo, ulong targets, ATL_GLOBAL uint *cursor,
             uint q KEY_GUARD_PARAM ATL_DYNAMIC_SHARED_PARAM(uint, table))
{
  ATL_DYNAMIC_SHARED(uint, table);
  ATL_SHARED uint claimed;
  KEY_GUARD_RETURN();
  const uint lid = atl_local_id(), wg = atl_local_size();
  for (uint w = lid; w < WORDS; w += wg)
    table[w] = 0;
#if CACHE_LOG2 > 0
  ATL_SHARED uint ckeys[1u << CACHE_LOG2], csums[1u << CACHE_LOG2];
  volatile ATL_LOCAL uint *vckeys = ckeys;
  for (uint s = lid; s < (1u << CACHE_LOG2); s += wg)
    ckeys[s] = 0xffffffffu, csums[s] = 0;
#endif
  atl_dsm_sync(); /* every table of the cluster zero before any group adds into it */
  for (;;) {
    if (lid == 0)
      claimed = atl_atomic_add(&cursor[q], 1u);
    atl_barrier_local();
    const ulong first = (ulong)claimed * CHUNK;
    atl_barrier_local(); /* every work-item has read it before the next claim */
    if (first >= rows)
      break;
    const ulong last = first + CHUNK < rows ? first + CHUNK : rows;
    for (ulong base = first; base < last; base += (ulong)UNROLL * wg) { /* the same trips for every work-item */
      uint t[UNROLL], x[UNROLL], old[UNROLL], delta[UNROLL];
      ulong k[UNROLL];
      for (uint u = 0; u < UNROLL; u++) {
        const ulong i = base + (ulong)u * wg + lid;
        k[u] = i < last ? (ulong)idx[i] : targets;
        t[u] = k[u] >= lo && k[u] < targets && k[u] - lo < SPAN ? (uint)(k[u] - lo)
               : BEYOND && k[u] < targets                      ? BEYOND_MARK
                                                               : SPAN;
        x[u] = i < last && t[u] != SPAN ? src[i] : 0u;
      }
      for (uint u = 0; u < UNROLL; u++) {
#if defined(__CUDACC__) && __CUDA_ARCH__ >= 700
        atl_warp_sum_equal(&t[u], &x[u], SPAN); /* a zipf head: one atomic a warp (BEYOND_MARK's keep theirs) */
#endif
        delta[u] = 0;
        if (BEYOND && t[u] == BEYOND_MARK) /* a bin the table does not hold: straight to the output */
          atl_atomic_add(&out[k[u]], x[u]);
#if CACHE_LOG2 > 0
        /* The group's own cache of the first keys that hash to a free slot (a zipf head's come first): their
         * whole weights summed in local memory (32 bits, no carry to track), the rest go to the table. */
        if (t[u] < SPAN) {
          const uint key = (uint)k[u], c = (key * 2654435761u) >> (32u - CACHE_LOG2);
          uint cur = vckeys[c];
          if (cur == 0xffffffffu)
            cur = atl_atomic_cas(&vckeys[c], 0xffffffffu, key);
          if (cur == 0xffffffffu || cur == key) {
            atl_atomic_add(&csums[c], x[u]);
            t[u] = SPAN;
          }
        }
#endif
#if WIDE
        if (t[u] < SPAN) /* a 32-bit counter: sums mod 2^32, as the output's */
          atl_dsm_red(table, t[u] >> LOG2_WORDS, t[u] & (WORDS - 1u), x[u]);
        continue;
#endif
        if (t[u] < SPAN) /* the fixes after all UNROLL adds, so that the adds are in flight together */
          delta[u] = atl_bincount16_add(out, table, LOG2_WORDS, k[u], t[u], x[u], &x[u], &old[u]);
      }
      for (uint u = 0; u < UNROLL; u++)
        if (delta[u])
          atl_bincount16_fix(out, k[u], t[u], x[u], old[u], delta[u], targets);
    }
  }
  atl_dsm_sync(); /* every add into this group's slice done */
#if CACHE_LOG2 > 0
  for (uint s = lid; s < (1u << CACHE_LOG2); s += wg)
    if (ckeys[s] != 0xffffffffu && csums[s])
      atl_atomic_add(&out[ckeys[s]], csums[s]);
#endif
  atl_bincount_flush(out, table, WORDS, lo, atl_dsm_rank(), targets, WIDE, lid, wg);
}
