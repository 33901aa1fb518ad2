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

/** Frees what a row owns (its samples). */
void atl_row_release(struct atl_row *row);

#ifdef __cplusplus
}
#endif
#endif
