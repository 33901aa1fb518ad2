/**
 * @file rmw.h
 * The contention x padding read-modify-write benchmark (seed 003): one
 * configuration in, one verified, timed row out.
 */
#ifndef ATOMLAB_RMW_H
#define ATOMLAB_RMW_H

#include <stddef.h>

#include "device.h"
#include "experiment.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Checks a configuration against the open device before anything runs.
 * Returns 0 if it can run, ATL_EINVAL for a usage error (the reason names the
 * parameter and what is allowed), or ATL_ENOTSUP for something this device
 * lacks (the reason says what); the reason goes to @p why.
 */
int atl_rmw_check(atl_context_t ctx, const struct atl_spec *spec, char *why, size_t why_len);

/**
 * Measures one configuration on the open device: calibrates iterations,
 * warms up, samples until the noise target or the budget is reached, then
 * verifies the final memory state exactly. Always fills @p row (status ok,
 * unsupported or error); returns a negative code only when the device itself
 * failed and further rows are pointless.
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

#ifdef __cplusplus
}
#endif
#endif
