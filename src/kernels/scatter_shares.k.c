/*
 * scatter_shares.k.c: the two shares of the keys atl_scatter_add's pick takes (src/apps/scatter_lib.c), counted on
 * the device over a sample of the keys in one launch, so that only two words come back. Written once for CUDA and
 * OpenCL.
 *
 * The sample: the rows are cut into PAIRS strata of equal size; pair j is two neighbouring keys at a position in
 * stratum j drawn from j's hash: the pairs' equality is the share of runs (sorted, clustered keys), their first keys,
 * spread over the whole array, the shares of the most frequent keys. A copy of the first keys would miss both where
 * the keys are not alike throughout, and would count a cluster of equal keys as a recurring head; a fixed place in
 * each stratum would alias with runs of a length that divides the stratum's (the H100's first call: clusters of 32
 * keys at E = 2^20, strata of 32 rows, every pair across a boundary). Keys are counted as their low 32 bits (they are
 * below the targets, < 2^32, once the check has passed them).
 *
 * tables: [0] [1] the shares where the host words do not take them, [2] [3] unused, then two tables of
 * TABLE_WORDS(slots) words. The call counts into table `turn` and zeroes the other, which the next call counts into
 * (scatter_lib.c alternates them), so that no fill and no second launch comes before the count. A table: [0] the pairs
 * whose keys are equal, [1] the pairs whose first key is counted LEAST times or more among the pairs' first keys, [2]
 * the work-groups done (atl_last_group), [3] unused, then SLOTS keys (each stored plus one: 0 marks a free slot), then
 * SLOTS counts. SLOTS is a power of two at least twice PAIRS, so a table is at most half full and a probe always ends.
 * A key's count reaching LEAST adds LEAST to [1] and each count past it 1, so [1] ends as the sum of the counts of the
 * keys counted LEAST times or more, in whatever order the adds come: exact, the host's count of the same sample bit
 * for bit. The last work-group to finish copies [0] and [1] to shares[0] and [1]: pinned host memory where the
 * backend maps it, else tables' first words.
 *
 *   IDX_T=uint|ulong  the keys' type
 */
#include "atomlab/port.h"

/* A key's first slot: a multiplicative hash. */
#define SHARE_SLOT(k, slots) (((k) * 0x9e3779b9u >> 7) & ((slots) - 1u))
#define TABLE_WORDS(slots) (4u + 2u * (slots))

/* Pair j counted into @p table: its equality, and its first key's count. */
ATL_INLINE void count_pair(ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ulong rows, uint pairs, uint slots, uint least,
                           ATL_GLOBAL volatile uint *table, uint j)
{
  const ulong lo = (ulong)j * (rows - 1) / pairs, hi = (ulong)(j + 1) * (rows - 1) / pairs; /* rows - 1 >= pairs */
  uint h = (j + 1u) * 0x9e3779b9u; /* a 32-bit mix of j: the position within the stratum */
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  const ulong p = lo + (hi > lo ? h % (hi - lo) : 0u); /* < hi <= rows - 1: its neighbour exists */
  const uint k = (uint)idx[p], mark = k + 1u;
  if ((uint)idx[p + 1] == k)
    atl_atomic_add(&table[0], 1u);
  ATL_GLOBAL volatile uint *keys = table + 4, *counts = table + 4 + slots;
  uint s = SHARE_SLOT(k, slots);
  for (uint n = 0; n < slots; n++, s = (s + 1u) & (slots - 1u)) { /* linear probing, at most half full */
    const uint old = atl_atomic_cas(&keys[s], 0u, mark);
    if (old == 0u || old == mark) {
      const uint c = atl_atomic_add(&counts[s], 1u) + 1u;
      if (c >= least)
        atl_atomic_add(&table[1], c == least ? least : 1u);
      return;
    }
  }
}

ATL_KERNEL void scatter_shares(ATL_GLOBAL const IDX_T *ATL_RESTRICT idx, ulong rows, uint pairs, uint slots,
                               uint least, ATL_GLOBAL volatile uint *tables, uint turn, ATL_GLOBAL uint *shares)
{
  const uint j = atl_global_id(), words = TABLE_WORDS(slots);
  ATL_GLOBAL volatile uint *table = tables + 4 + turn * words, *next = tables + 4 + (1u - turn) * words;
  for (uint w = j; w < words; w += atl_global_size())
    next[w] = 0u;
  if (j < pairs)
    count_pair(idx, rows, pairs, slots, least, table, j);
  if (atl_last_group(&table[2])) { /* every work-item's adds are in */
    shares[0] = atl_atomic_add(&table[0], 0u);
    shares[1] = atl_atomic_add(&table[1], 0u);
  }
}
