/**
 * @file strategy.h
 * Atomic strategies compared in one run on one device: native atomics,
 * warp- and block-aggregated, privatized, CAS loops and three kinds of
 * lock, each a primitive of the device library (device/atomlab/), each
 * row timed like rmw and verified: final memory exact and, when results
 * are used, the old values each word handed out form exactly the sequence
 * some serial order of its updates would have produced.
 */
#ifndef ATOMLAB_STRATEGY_H
#define ATOMLAB_STRATEGY_H

#include "experimental.h" /* not the stable API */

#include <stdio.h>

#include "device.h"
#include "experiment.h"
#include "result.h"
#include "sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The strategies, in the order of the kernels' STRATEGY define. */
enum atl_strategy {
  ATL_STRATEGY_NATIVE,      /**< one hardware atomic per thread */
  ATL_STRATEGY_WARP,        /**< one atomic per address per warp (OpenCL: per wavefront-sized group) */
  ATL_STRATEGY_BLOCK,       /**< one atomic per address per block (seed 001) */
  ATL_STRATEGY_PRIVATIZED,  /**< per-block shared copies merged at the end */
  ATL_STRATEGY_CAS,         /**< compare-and-swap loop */
  ATL_STRATEGY_LOCK_WARP,   /**< a lock per address, taken once per warp, lanes in turn (CUDA) */
  ATL_STRATEGY_LOCK_THREAD, /**< a lock per address per thread, with a done flag (GTC 2013) */
  ATL_STRATEGY_SPIN_LOCK,   /**< the naive spin lock (deadlocks without independent thread scheduling) */
  ATL_STRATEGY_COUNT
};

/** Access patterns (GTC 2013): every thread one word, one 128-byte line, or its own line. */
enum atl_access { ATL_ACCESS_SAME_ADDRESS, ATL_ACCESS_SAME_LINE, ATL_ACCESS_SCATTERED, ATL_ACCESS_COUNT };

/** One strategy measurement. */
struct atl_strategy_spec {
  enum atl_strategy strategy;
  enum atl_access access;
  enum atl_op op;             /**< fetch_add, fetch_sub, inc, fetch_min, fetch_max, and, or, xor (u32) */
  enum atl_result_use result; /**< used: old values consumed and checked */
  uint32_t wg_size, workgroups;
  int divergent;              /**< every third thread does not call (divergent warps) */
  int stuck_lock;             /**< every lock starts held by a thread that never runs: forces `deadlock` */
  uint32_t spin_bound;        /**< tries without progress before a wait gives up; 0: the device default */
  int runtime_select;         /**< strategy and op as kernel arguments: one build serves all (tests) */
};

const char *atl_strategy_name(enum atl_strategy s);
const char *atl_strategy_help(enum atl_strategy s);
int atl_strategy_parse(const char *s);
const char *atl_access_name(enum atl_access a);
int atl_access_parse(const char *s);

/** Whether @p op is one the strategies implement (the u32 fetch-and-ops). */
int atl_strategy_op_supported(enum atl_op op);

/** The bound on waits the device gets by default (docs/design/strategies.md says why). */
uint32_t atl_strategy_default_spin_bound(const struct atl_device_info *dev);

/**
 * Checks a configuration against the open device: 0, ATL_EINVAL (a usage
 * error: a NULL context or spec, a field outside its enum, a flag not 0 or 1,
 * a count of 0, ...; the reason names the parameter and what is allowed) or ATL_ENOTSUP
 * (the device or backend lacks it; the reason says what).
 */
int atl_strategy_check(atl_context_t ctx, const struct atl_strategy_spec *spec, char *why, size_t why_len);

/**
 * Measures one configuration: builds, calibrates, samples, verifies. Always
 * fills @p out (status ok, unsupported, deadlock or error); returns a
 * negative code only when further rows are pointless (out of host memory),
 * or ATL_EINVAL (the row's status error, atl_errmsg() naming the field) for a
 * caller's mistake: a NULL argument, a spec field atl_strategy_check() refuses
 * as a field (an enum or flag out of range, a count of 0) or timing settings
 * atl_timing_check() refuses.
 */
int atl_strategy_run(atl_context_t ctx, const struct atl_strategy_spec *spec, const struct atl_timing *timing,
                     struct atl_row *out);

/**
 * Marks the winner of every (pattern, op, result) among verified ok rows:
 * the metrics "winner" (1 or 0) and "margin" (the winner's throughput over
 * the runner-up's; the others: the winner's over theirs).
 */
void atl_strategy_rank(struct atl_row *rows, size_t n);

/** atl_strategy_rank() of every row of @p set (a checkpoint's ranking: atl_sweep_job's before_checkpoint). */
void atl_strategy_rank_set(struct atl_result_set *set);

/** The sweep of the @p count specs @p specs, each measured by atl_strategy_run(); no old rows are reused. */
struct atl_sweep_spec atl_strategy_sweep_spec(const struct atl_strategy_spec *specs, size_t count);

/**
 * Writes the winners of @p set (rows ranked by atl_strategy_rank()), one
 * line per pattern, op and result (and device): the fastest verified
 * strategy, its Gop/s and its margin over the runner-up. Nothing where no
 * row won.
 */
void atl_strategy_winners_write(FILE *f, const struct atl_result_set *set);

/** Most values one axis of a strategy run takes. */
#define ATL_STRATEGY_AXIS_MAX 16

/** The axes of a strategy run: enum values of each. */
struct atl_strategy_axes {
  int result[ATL_STRATEGY_AXIS_MAX], strategy[ATL_STRATEGY_AXIS_MAX], access[ATL_STRATEGY_AXIS_MAX],
      op[ATL_STRATEGY_AXIS_MAX];
  size_t nresult, nstrategy, naccess, nop;
};

/** The default axes: every strategy on the three patterns, fetch_add with the result used. */
void atl_strategy_axes_init(struct atl_strategy_axes *axes);

/**
 * Sets axis @p name (pattern, op, strategy, result) from the comma list
 * @p text of its names ("all": every one). Returns 0, or ATL_EINVAL with the
 * reason (atl_name_axis_parse(); an op the strategies lack: "op dec is not
 * allowed: ...").
 */
int atl_strategy_axes_set(struct atl_strategy_axes *axes, const char *name, const char *text, char *why,
                          size_t why_len);

/** The rows of a run over @p axes (the product of their lengths). */
size_t atl_strategy_axes_rows(const struct atl_strategy_axes *axes);

/**
 * The launch shape of a strategy run on the open device: @p wg_size 0 takes
 * 256 (or the device's largest), @p workgroups 0 the co-resident count of
 * occupancy discovery (on CPU devices its estimate where larger: CPU
 * runtimes run one work-group per core at a time), given workgroups skip
 * discovery. Fills @p occ with what was found. Returns 0, ATL_EINVAL where
 * @p wg_size is over the device's largest, or the discovery's error code.
 */
int atl_strategy_grid(atl_context_t ctx, uint32_t *wg_size, uint32_t *workgroups, struct atl_occupancy *occ);

/**
 * Writes the configurations of @p axes to @p out, strategy-major within each
 * result use (the slow lock strategies come last, so a run cut short keeps
 * every faster strategy's rows), each @p base with the axes' values and
 * checked by atl_strategy_check(): ATL_EINVAL with its reason at the first
 * that is not allowed, else 0.
 */
int atl_strategy_specs(atl_context_t ctx, const struct atl_strategy_axes *axes, const struct atl_strategy_spec *base,
                       struct atl_strategy_spec *out, char *why, size_t why_len);

/**
 * The strategy sweep's configurations on each of the @p ndev devices: device
 * d's atl_strategy_axes_rows() specs from @p specs + d x rows, each @p base
 * with the device's grid (atl_strategy_grid()); @p occ gets the first
 * device's discovery. Nothing is measured. Returns 0; ATL_ENOTSUP with a
 * reason that starts with the parameter's name (wg-size) where a device
 * lacks the shape; ATL_EINVAL with atl_strategy_check()'s reason; another
 * error (the discovery failed) with its reason.
 */
int atl_strategy_plan_devices(atl_context_t *ctxs, size_t ndev, const struct atl_strategy_axes *axes,
                              const struct atl_strategy_spec *base, struct atl_strategy_spec *specs,
                              struct atl_occupancy *occ, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif
