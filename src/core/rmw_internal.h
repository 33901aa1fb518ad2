/* Internal pieces of the RMW benchmark shared by the driver and the tests. */
#ifndef ATOMLAB_CORE_RMW_INTERNAL_H
#define ATOMLAB_CORE_RMW_INTERNAL_H

#include <stdint.h>

#include "atomlab.h"

/** Start value of every word and the operand of the op, as raw bits of the type. */
struct atl__op_values {
  uint64_t init;
  uint64_t operand;
};
void atl__op_values(enum atl_op op, enum atl_type type, struct atl__op_values *v);

/** The value `exchange` writes from global thread @p gid, as raw bits of the type. */
uint64_t atl__exchange_value(enum atl_type type, uint64_t gid);

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
 * Exact number of updates each word of one domain receives in a launch of
 * @p iters iterations. @p first_tid is the global id of the domain's first
 * thread (the branch bit follows global ids). @p counts has
 * atl_spec_domain_words() entries.
 */
int atl__hit_counts(const struct atl_spec *s, uint64_t first_tid, const uint32_t *target, uint32_t iters,
                    uint64_t *counts);

/** One word that receives updates, and how many it receives. */
struct atl__hit {
  uint64_t word, count;
};

/**
 * The same counts as atl__hit_counts, as a list of the words that receive
 * updates, ascending: at most atl_spec_domain_threads() entries, so a padded
 * array costs its thread count, not its size. Sets *@p n.
 */
int atl__hit_list(const struct atl_spec *s, uint64_t first_tid, const uint32_t *target, uint32_t iters,
                  struct atl__hit *hits, uint64_t *n);

/**
 * For the random pattern: the number of visits to each of @p slots slots by
 * @p nthreads walkers whose seeds are @p seeds, each taking @p iters LCG
 * steps. Uses the cycle structure of the LCG map, so the cost does not grow
 * with @p iters.
 */
int atl__walk_counts(uint32_t slots, const uint32_t *seeds, uint64_t nthreads, uint32_t iters, uint64_t *slot_counts);

/** Whether a walker with @p seed visits @p slot within @p iters steps. */
int atl__walk_visits(uint32_t slots, uint32_t seed, uint32_t iters, uint32_t slot);

/** The -D defines that specialise the rmw kernel (both backends) for @p s. */
void atl__rmw_defines(const struct atl_spec *s, char *buf, size_t len);

/** What the verifier compares. */
struct atl__verify_input {
  const struct atl_spec *spec;
  uint32_t iters;
  const uint32_t *targets;  /**< per grid thread (local space: within its work-group) */
  const void *words;        /**< final memory: domains x domain_words elements */
  const void *sink;         /**< per grid thread folded results, NULL if unused */
  struct atl__hit *hits;    /**< room for atl_spec_domain_threads() hits, or NULL to allocate */
};

/** What the verifier found. */
struct atl__verify_output {
  uint64_t wrong_words; /**< words whose final value is not the exact expected one */
  int sink_ok;          /**< 1 if the folded return values matched (or were not checked) */
  int sink_checked;     /**< 0 when the kernel did not return its values (result unused) */
  char first_error[160];/**< description of the first mismatch */
};

/** Checks the exact expected final state of a launch. */
int atl__verify(const struct atl__verify_input *in, struct atl__verify_output *out);

#endif
