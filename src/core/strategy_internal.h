/* Internal pieces of the strategy benchmark shared by the driver and the tests. */
#ifndef ATOMLAB_CORE_STRATEGY_INTERNAL_H
#define ATOMLAB_CORE_STRATEGY_INTERNAL_H

#include <stdint.h>

#include "atomlab.h"

/** The device library's op codes (enum atl_opc of device/atomlab/atomics.h), on the host. */
enum atl__opc { ATL__OPC_ADD, ATL__OPC_SUB, ATL__OPC_MIN, ATL__OPC_MAX, ATL__OPC_AND, ATL__OPC_OR, ATL__OPC_XOR };

/** x op v on 32-bit words, as the device library computes it. */
uint32_t atl__opc_apply(enum atl__opc opc, uint32_t x, uint32_t v);

/** The kernels' op code (enum atl_opc of the device library) and operand for @p op; init is the start value. */
struct atl__strategy_op {
  enum atl__opc opc;
  uint32_t init, operand;
};
void atl__strategy_op(enum atl_op op, struct atl__strategy_op *o);

/** x_n: the word after @p n updates with the op. */
uint32_t atl__strategy_after(const struct atl__strategy_op *o, uint64_t n);

/** Words of the target array and the word thread @p gid updates. */
uint64_t atl__strategy_words(enum atl_access a, uint64_t threads);
uint32_t atl__strategy_target(enum atl_access a, uint64_t gid);

/** Whether thread @p gid calls the primitive (divergent: every third one sits out). */
static inline int atl__strategy_active(const struct atl_strategy_spec *s, uint64_t gid)
{
  return !s->divergent || gid % 3 != 1;
}

/**
 * The -D defines of the strategy kernel (both backends). @p warp is the
 * wavefront width OpenCL's group aggregation imitates.
 */
void atl__strategy_defines(const struct atl_strategy_spec *s, unsigned warp, char *buf, size_t len);

/**
 * The permutation check: @p n records (word, old value) of one launch where
 * word w received counts[w] updates must hold, for every word, exactly the
 * values x_0 ... x_{counts[w]-1} (in any order). Sorts @p rec in place.
 * Returns the number of words that differ; the first is described in @p why.
 */
struct atl__old_record {
  uint32_t word, value;
};
uint64_t atl__strategy_check_olds(const struct atl__strategy_op *o, struct atl__old_record *rec, size_t n,
                                  const uint64_t *counts, uint64_t words, char *why, size_t why_len);

#endif
