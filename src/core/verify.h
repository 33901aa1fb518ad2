/* The rmw verifier: the exact final memory state a launch must leave. */
#ifndef ATOMLAB_CORE_VERIFY_H
#define ATOMLAB_CORE_VERIFY_H

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

/** qsort's ascending order of uint32_t words: the verifiers sort words to compare them as multisets. */
int atl__cmp_u32(const void *a, const void *b);

#endif
