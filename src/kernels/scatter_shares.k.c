/*
 * scatter_shares.k.c: the two shares of the keys atl_scatter_add's pick takes (src/apps/scatter_lib.c), counted on
 * the device over the sample scatter_sample.k.c wrote (PAIRS pairs of neighbouring keys, as 32 bits), so that only
 * two words come back instead of the sample. Written once for CUDA and OpenCL.
 *
 * table: result[2] (the pairs whose keys are equal; the pairs whose first key is counted LEAST times or more among
 * the pairs' first keys), then SLOTS keys (each stored plus one: 0 marks a free slot; the keys are below the targets,
 * < 2^32 - 1), then SLOTS counts; zeroed by scatter_sample first. SLOTS is a power of two at least twice PAIRS, so the
 * table is at most half full and a probe always ends. The counts are exact: the shares are the host's count of the
 * same sample, bit for bit.
 */
#include "atomlab/port.h"

/* A key's first slot: a multiplicative hash. */
#define SHARE_SLOT(k, slots) (((k) * 0x9e3779b9u >> 7) & ((slots) - 1u))

ATL_KERNEL void scatter_share_count(ATL_GLOBAL const uint *ATL_RESTRICT sample, uint pairs, uint slots,
                                    ATL_GLOBAL volatile uint *table)
{
  const uint j = atl_global_id();
  if (j >= pairs)
    return;
  const uint k = sample[2u * j], mark = k + 1u;
  if (sample[2u * j + 1u] == k)
    atl_atomic_add(&table[0], 1u);
  ATL_GLOBAL volatile uint *keys = table + 2, *counts = table + 2 + slots;
  uint s = SHARE_SLOT(k, slots);
  for (uint n = 0; n < slots; n++, s = (s + 1u) & (slots - 1u)) { /* linear probing, at most half full */
    const uint old = atl_atomic_cas(&keys[s], 0u, mark);
    if (old == 0u || old == mark) {
      atl_atomic_add(&counts[s], 1u);
      return;
    }
  }
}

ATL_KERNEL void scatter_share_head(ATL_GLOBAL const uint *ATL_RESTRICT sample, uint pairs, uint slots, uint least,
                                   ATL_GLOBAL volatile uint *table)
{
  const uint j = atl_global_id();
  if (j >= pairs)
    return;
  const uint mark = sample[2u * j] + 1u;
  ATL_GLOBAL volatile uint *keys = table + 2, *counts = table + 2 + slots;
  uint s = SHARE_SLOT(mark - 1u, slots);
  for (uint n = 0; n < slots; n++, s = (s + 1u) & (slots - 1u))
    if (keys[s] == mark) { /* the count kernel placed it here */
      if (counts[s] >= least)
        atl_atomic_add(&table[1], 1u);
      return;
    }
}
