/**
 * @file rmw.h
 * The contention x padding read-modify-write benchmark (seed 003): one
 * configuration in, one verified, timed row out.
 * Threads: a context is used by one thread at a time (one context per thread); the functions that take
 * no context are reentrant (include/atomlab/context.h). Stable API: exported by libatomlab.so.1.
 */
#ifndef ATOMLAB_RMW_H
#define ATOMLAB_RMW_H

#include <stddef.h>

#include "device.h"
#include "experiment.h"
#include "result.h"
#include "sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Checks a configuration against the open device before anything runs.
 * Returns 0 if it can run, ATL_EINVAL for a usage error (a NULL context or
 * spec, a field outside its enum or 0 where 1 or more is needed; the reason names the
 * parameter and what is allowed), or ATL_ENOTSUP for something this device
 * lacks (the reason says what); the reason goes to @p why.
 */
int atl_rmw_check(atl_context_t ctx, const struct atl_spec *spec, char *why, size_t why_len);

/**
 * Measures one configuration on the open device: calibrates iterations,
 * warms up, samples until the noise target or the budget is reached, then
 * verifies the final memory state exactly. Always fills @p row (status ok,
 * unsupported or error); returns a negative code only when the device itself
 * failed and further rows are pointless, or ATL_EINVAL (the row's status
 * error, atl_errmsg() naming the field) for a caller's mistake: a NULL
 * argument, a spec field outside its enum or 0 where 1 or more is needed, or
 * timing settings atl_timing_check() refuses.
 */
int atl_rmw_run(atl_context_t ctx, const struct atl_spec *spec, const struct atl_timing *timing, struct atl_row *row);

/** Starts an rmw row for @p spec: atl_row_init() and the spec as its configuration (the kind's order). */
void atl_rmw_row_init(struct atl_row *row, const struct atl_spec *spec);

/**
 * The spec an rmw row measured, from its configuration (rows read from any
 * file version). Returns 0, or ATL_EINVAL naming the first field that is
 * missing or holds a value no spec has, and what is allowed.
 */
int atl_spec_from_row(const struct atl_row *row, struct atl_spec *spec, char *why, size_t why_len);

/** Most values one named axis of an rmw sweep takes (a list of names). */
#define ATL_RMW_AXIS_MAX 16

/** The axes of an rmw sweep: enum values of each named axis, and the two numeric axes. */
struct atl_rmw_axes {
  int pattern[ATL_RMW_AXIS_MAX], op[ATL_RMW_AXIS_MAX], type[ATL_RMW_AXIS_MAX], space[ATL_RMW_AXIS_MAX],
      result[ATL_RMW_AXIS_MAX], scope[ATL_RMW_AXIS_MAX], order[ATL_RMW_AXIS_MAX];
  size_t npattern, nop, ntype, nspace, nresult, nscope, norder;
  struct atl_axis contention, padding;
};

/** The default axes: one configuration, contiguous fetch_add on u32 in global memory, result unused, device
 *  scope, relaxed (the numeric axes empty: the caller parses them). */
void atl_rmw_axes_init(struct atl_rmw_axes *axes);

/**
 * Sets the named axis @p name (pattern, op, type, space, result, scope,
 * order) from the comma list @p text of its names ("all": every one; for
 * op, every atomic op: plain_add, the non-atomic control, must be named).
 * Returns 0, or ATL_EINVAL with the reason (atl_name_axis_parse()).
 */
int atl_rmw_axes_set(struct atl_rmw_axes *axes, const char *name, const char *text, char *why, size_t why_len);

/** The rows of a sweep over @p axes (the product of their lengths), SIZE_MAX where that overflows. */
size_t atl_rmw_axes_rows(const struct atl_rmw_axes *axes);

/**
 * Writes the configurations of @p axes, in the sweep's order (space, type,
 * pattern, op, result, scope, order, contention, padding), to @p out
 * (atl_rmw_axes_rows() of them), each with the launch shape @p wg_size x
 * @p workgroups and checked by atl_rmw_check(): ATL_EINVAL with its reason
 * at the first that is not allowed, else 0 (what the device lacks becomes an
 * unsupported row when measured).
 */
int atl_rmw_specs(atl_context_t ctx, const struct atl_rmw_axes *axes, uint32_t wg_size, uint32_t workgroups,
                  struct atl_spec *out, char *why, size_t why_len);

/**
 * The sweep of the @p count specs @p specs (atl_rmw_specs): each row started
 * by atl_rmw_row_init(), measured by atl_rmw_run(), an old row reused where
 * atl_row_validate() passes it. @p specs must outlive the sweep.
 */
struct atl_sweep_spec atl_rmw_sweep_spec(const struct atl_spec *specs, size_t count);

/** The progress text of spec @p i of the array @p specs: "contiguous fetch_add u32 c=4 p=1" (atl_sweep_job). */
void atl_rmw_describe(const void *specs, size_t i, char *buf, size_t len);

/** What planning an rmw sweep on its devices takes beyond the axes (atl_rmw_plan_devices). */
struct atl_rmw_plan {
  const struct atl_rmw_axes *axes;
  int types_explicit;           /**< the types were named: each must exist on every device (else unsupported rows) */
  int grid_mode;                /**< enum atl_grid_mode */
  uint32_t wg_size, workgroups; /**< 0: the device's choice, or the resume file's shape */
  const struct atl_timing *timing;
  const struct atl_result_set *resume; /**< the --resume file's rows, or NULL */
  int multi;                    /**< several devices named: the resume shape is each device's own */
};

/**
 * The rmw sweep's configurations on each of the @p ndev devices: device d's
 * atl_rmw_axes_rows() specs from @p specs + d x rows, each with the grid
 * atl_grid_choose() gives it (a resumed sweep keeps the shape its file's rows
 * had: another shape would reuse nothing); @p meta records the first
 * device's grid. Nothing is measured. Returns 0; ATL_ENOTSUP with a reason
 * that starts with the parameter's name (wg-size, type, resume) where a
 * device lacks what the plan names or (one device) the resume file was
 * measured on another; ATL_EINVAL with atl_rmw_check()'s reason where a
 * configuration is not allowed; another error (the grid's discovery failed)
 * with its reason.
 */
int atl_rmw_plan_devices(atl_context_t *ctxs, size_t ndev, const struct atl_rmw_plan *plan, struct atl_spec *specs,
                         struct atl_run_meta *meta, char *why, size_t why_len);

/**
 * Reads @p path as the resume file of an rmw sweep: a JSON file of rmw
 * rows, each naming a configuration a spec has, that records its timing
 * settings. Returns 0, or ATL_EINVAL with the reason, a phrase that follows
 * the parameter's name (": ...", " 'FILE' holds ..."), in @p why.
 */
int atl_rmw_resume_read(const char *path, struct atl_result_set *set, char *why, size_t why_len);

/**
 * The launch shape @p set's rows were measured with (on device @p device_id
 * where not NULL: a run on several devices), so that a resumed sweep keeps
 * it. 1 and @p wg_size, @p workgroups set where a row says, 0 if none does.
 */
int atl_resume_shape(const struct atl_result_set *set, const char *device_id, uint32_t *wg_size, uint32_t *workgroups);

/**
 * atl_rmw_resume_read() of @p path, then checks that its rows were timed by
 * @p timing's settings (rows timed otherwise do not compare). Returns 0, or
 * ATL_EINVAL with the reason (phrased as atl_rmw_resume_read()'s) and nothing
 * held in @p set. atl_rmw_plan_devices() checks the device.
 */
int atl_rmw_resume_open(const char *path, const struct atl_timing *timing, struct atl_result_set *set, char *why,
                        size_t why_len);

#ifdef __cplusplus
}
#endif
#endif
