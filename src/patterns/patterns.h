/* The access patterns on the host (seed 003): per-thread targets and the
 * random pattern's LCG walk, shared by the rmw driver, its verifier and the tests. */
#ifndef ATOMLAB_PATTERNS_PATTERNS_H
#define ATOMLAB_PATTERNS_PATTERNS_H

#include <stdint.h>

#include "atomlab.h"

/** The seed's LCG step, in 32-bit unsigned arithmetic as the kernel does it. */
static inline uint32_t atl__lcg_next(uint32_t prev, uint32_t slots) { return (prev * 1664525u + 1013904223u) % slots; }

/**
 * Host-computed per-thread targets for the @p threads of one domain: the word
 * index (contiguous, cross-warp, branched) or the LCG seed (random). Random
 * seeds depend on @p seed_base so that every domain walks differently.
 */
void atl__pattern_targets(const struct atl_spec *s, uint64_t seed_base, uint32_t *target);

/** Branch bit of a thread: 1 if it updates (branched pattern: odd ids only). */
static inline uint32_t atl__pattern_active(const struct atl_spec *s, uint64_t tid)
{
  return s->pattern == ATL_PATTERN_BRANCHED ? (uint32_t)(tid & 1u) : 1u;
}

/**
 * For the random pattern: the number of visits to each of @p slots slots by
 * @p nthreads walkers whose seeds are @p seeds, each taking @p iters LCG
 * steps. Uses the cycle structure of the LCG map, so the cost does not grow
 * with @p iters.
 */
int atl__walk_counts(uint32_t slots, const uint32_t *seeds, uint64_t nthreads, uint32_t iters, uint64_t *slot_counts);

/** Whether a walker with @p seed visits @p slot within @p iters steps. */
int atl__walk_visits(uint32_t slots, uint32_t seed, uint32_t iters, uint32_t slot);

#endif
