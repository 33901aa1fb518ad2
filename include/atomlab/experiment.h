/**
 * @file experiment.h
 * Experiments are data: one plain struct describes one measurement, and a
 * sweep is the cartesian product of axes.
 * Threads: a context is used by one thread at a time (one context per thread); the functions that take
 * no context are reentrant (include/atomlab/context.h). Stable API: exported by libatomlab.so.1.
 */
#ifndef ATOMLAB_EXPERIMENT_H
#define ATOMLAB_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Atomic operations (plain_add is the deliberately non-atomic control). */
#define ATL_OP_MAP(X)                                                       \
  X(FETCH_ADD, "fetch_add", "atomic add, operand 3 (u64: 0x100000001)")     \
  X(FETCH_SUB, "fetch_sub", "atomic subtract, operand 3")                   \
  X(INC, "inc", "atomic increment by one")                                  \
  X(DEC, "dec", "atomic decrement by one")                                  \
  X(FETCH_MIN, "fetch_min", "atomic minimum with a constant below the start value") \
  X(FETCH_MAX, "fetch_max", "atomic maximum with a constant above the start value") \
  X(AND, "and", "atomic bitwise and with a constant")                       \
  X(OR, "or", "atomic bitwise or with a constant")                          \
  X(XOR, "xor", "atomic bitwise xor with a constant")                       \
  X(EXCHANGE, "exchange", "atomic exchange with a value unique to the thread") \
  X(CAS, "cas", "compare-and-swap loop that succeeds once per iteration (increments)") \
  X(CAS_FAIL, "cas_fail", "compare-and-swap whose compare value never matches") \
  X(PLAIN_ADD, "plain_add", "NON-atomic load, add, store (loses updates; a verifier check)")

/** Operation codes. */
enum atl_op {
#define ATL__OP_ENUM(e, name, help) ATL_OP_##e,
  ATL_OP_MAP(ATL__OP_ENUM)
#undef ATL__OP_ENUM
  ATL_OP_COUNT
};

/** Element types (f16x2 and bf16x2 are pairs of halves / bfloat16s in one 32-bit word). */
enum atl_type {
  ATL_TYPE_U32,
  ATL_TYPE_I32,
  ATL_TYPE_U64,
  ATL_TYPE_F32,
  ATL_TYPE_F64,
  ATL_TYPE_F16X2,
  ATL_TYPE_BF16X2,
  ATL_TYPE_COUNT
};

/** Whether @p t is a floating-point type (measured with fetch_add only). */
int atl_type_is_float(enum atl_type t);

/** Scope of an atomic: which threads it is atomic with respect to. The default is device. */
enum atl_scope { ATL_SCOPE_DEVICE, ATL_SCOPE_BLOCK, ATL_SCOPE_SYSTEM, ATL_SCOPE_COUNT };

/** Memory order of an atomic. The default is relaxed. */
enum atl_order { ATL_ORDER_RELAXED, ATL_ORDER_ACQUIRE, ATL_ORDER_RELEASE, ATL_ORDER_ACQ_REL, ATL_ORDER_SEQ_CST, ATL_ORDER_COUNT };

/** Memory spaces. */
enum atl_space { ATL_SPACE_GLOBAL, ATL_SPACE_LOCAL, ATL_SPACE_COUNT };

/** Access patterns of the contention x padding sweep (seed 003). */
enum atl_pattern {
  ATL_PATTERN_CONTIGUOUS, /**< index = (tid / contention) * padding */
  ATL_PATTERN_CROSS_WARP, /**< index = (tid * padding) % size */
  ATL_PATTERN_BRANCHED,   /**< cross-warp index, only odd threads update */
  ATL_PATTERN_RANDOM,     /**< in-kernel LCG over ceil(threads / contention) slots, slot * padding */
  ATL_PATTERN_COUNT
};

/** Whether the kernel consumes the value the atomic returns. */
enum atl_result_use { ATL_RESULT_UNUSED, ATL_RESULT_USED, ATL_RESULT_COUNT };

/** One measurement: what runs where. */
struct atl_spec {
  enum atl_op op;
  enum atl_type type;
  enum atl_space space;
  enum atl_pattern pattern;
  enum atl_result_use result;
  enum atl_scope scope;  /**< device (default), block or system */
  enum atl_order order;  /**< relaxed (default) ... seq_cst */
  uint32_t contention;  /**< threads per word (random: on average) */
  uint32_t padding;     /**< words between neighbouring targets */
  uint32_t wg_size;     /**< work-items per work-group */
  uint32_t workgroups;  /**< work-groups in the grid */
};

/** Most rounds per repeat (--rounds). */
#define ATL_MAX_ROUNDS 16

/** Most placements of an rmw row's array (--placements), and the span they spread over: on an H100 a contended
 *  cell's rate follows its lines' address bits 21 to 24, a pattern that repeats every 16 MiB (docs/design/method.md,
 *  "Placements"). */
#define ATL_MAX_PLACEMENTS 8
#define ATL_PLACEMENT_SPAN ((size_t)16 << 20)

/** How each measurement is timed. */
struct atl_timing {
  double target_ms;     /**< calibrate iterations until one launch takes this long */
  double noise;         /**< stop sampling once relative IQR is at or below this */
  unsigned min_samples; /**< at least this many timed launches */
  unsigned max_samples; /**< at most this many timed launches */
  double budget_s;      /**< per-row time budget for sampling */
  uint32_t max_iters;   /**< upper bound on iterations per thread */
  uint32_t fixed_iters; /**< if non-zero, skip calibration and use this */
  int discard_throttled; /**< retake a sample the device's clock-event reasons call throttled (where readable) */
  unsigned repeats;     /**< a sweep measures every configuration this many times, one whole pass after another
                             (drift shows as spread); its row is the repeat of median time, with the spread */
  unsigned rounds;      /**< visits of every configuration per repeat, in whole passes spread through the run; a
                             repeat's value is its round of median time (docs/design/method.md, "Rounds") */
  unsigned placements;  /**< rmw: each row's samples taken in turn at this many offsets of its array, spread over
                             ATL_PLACEMENT_SPAN; the row is the median over them (docs/design/method.md, "Placements") */
  int rotate;           /**< rmw with placements: placement k also rotates which work-group does which group's work
                             by k x ceil(groups / placements) groups (other SMs against the same lines) */
};

/** Defaults: 20 ms launches, 2% noise, 5..50 samples, 2 s per row, one repeat of one round. */
void atl_timing_defaults(struct atl_timing *t);

/**
 * Sets the timing setting @p name from @p text: target-ms, noise, budget
 * (numbers), min-samples, max-samples, iters (up to max_iters), repeat
 * (whole numbers), discard-on-throttle (a flag: @p text is ignored).
 * Returns 0, or ATL_EINVAL with a reason that starts with @p name.
 */
int atl_timing_set(struct atl_timing *t, const char *name, const char *text, char *why, size_t why_len);

/** 0 if every setting is within its option's range (atl_timing_set's; iters 0 or up to max_iters, max_iters 1 to
 *  2^31, flags 0 or 1) and the settings agree with each other, else ATL_EINVAL with the reason naming the setting
 *  (NULL, out of range or NaN, max-samples below min-samples, repeat x rounds above 64 visits, rotate without
 *  placements). */
int atl_timing_check(const struct atl_timing *t, char *why, size_t why_len);

/** Names ("fetch_add", "u32", "global", "cross-warp", "used"). */
const char *atl_op_name(enum atl_op op);
const char *atl_op_help(enum atl_op op);
const char *atl_type_name(enum atl_type t);
const char *atl_space_name(enum atl_space s);
const char *atl_pattern_name(enum atl_pattern p);
const char *atl_result_name(enum atl_result_use r);
const char *atl_scope_name(enum atl_scope s);
const char *atl_order_name(enum atl_order o);

/** Size in bytes of one element of @p t. */
size_t atl_type_size(enum atl_type t);

/** Parses one name; returns the enum value or -1 if unknown. */
int atl_op_parse(const char *s);
int atl_type_parse(const char *s);
int atl_space_parse(const char *s);
int atl_pattern_parse(const char *s);
int atl_result_parse(const char *s);
int atl_scope_parse(const char *s);
int atl_order_parse(const char *s);

/** Whether @p op is defined for @p type at all (float types are measured with fetch_add only). */
int atl_op_type_defined(enum atl_op op, enum atl_type type);

/** Threads that issue updates (branched: half of them). */
uint64_t atl_spec_active_threads(const struct atl_spec *s);

/**
 * Distinct words the threads of one domain update: ceil(threads / contention)
 * for every pattern (the random pattern's LCG runs over this many slots).
 */
uint64_t atl_spec_slots(const struct atl_spec *s);

/**
 * Words in the target array of one domain: the whole grid for global memory,
 * one work-group for local memory: atl_spec_slots() * padding, the seed's
 * workgroup_size * workgroups * padding / contention.
 * Returns 0 if the size does not fit in 32-bit indices.
 */
uint64_t atl_spec_domain_words(const struct atl_spec *s);

/** Threads in one domain (grid for global memory, work-group for local). */
uint64_t atl_spec_domain_threads(const struct atl_spec *s);

/** Number of domains (1 for global memory, work-groups for local). */
uint64_t atl_spec_domains(const struct atl_spec *s);

/**
 * A parsed numeric axis: "1:1024:x2" (geometric), "1:64:+8" (arithmetic),
 * "1,2,4" (list) or a single value. Values are >= 1 and fit in 32 bits.
 */
struct atl_axis {
  uint32_t *values;
  size_t count;
};

/**
 * Parses @p text into @p axis. On error returns ATL_EINVAL or ATL_ERANGE and
 * writes a one-line reason to @p why (what is allowed).
 */
int atl_axis_parse(const char *text, uint32_t max_value, struct atl_axis *axis, char *why, size_t why_len);

/** Frees the values of an axis. */
void atl_axis_release(struct atl_axis *axis);

/** A named axis: its values are names of one registry (ops, types, patterns, ...), given as a comma list. */
struct atl_name_axis {
  const char *name;               /**< the parameter, as messages name it: "pattern" */
  int (*parse)(const char *text); /**< a name's value, or -1 */
  const int *all;                 /**< the values "all" stands for */
  size_t nall;
  const char *allowed;            /**< what messages list as allowed: "contiguous, cross-warp, ..., all" */
};

/**
 * Parses the comma list @p text of @p axis's names into @p out (at most
 * @p max values; a name given twice, or also through "all", is one value,
 * not a repeated row; "all" may sit in a list). Writes the count to @p n.
 * Returns 0, or ATL_EINVAL with "NAME 'x' is not known: allowed: ..." or
 * "NAME is empty: allowed: ..." in @p why, or ATL_ENOMEM.
 */
int atl_name_axis_parse(const struct atl_name_axis *axis, const char *text, int *out, size_t max, size_t *n, char *why,
                        size_t why_len);

#ifdef __cplusplus
}
#endif
#endif
