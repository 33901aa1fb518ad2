/*
 * The L2 model's rule for float adds on hot words where a device has no f32 same-word calibration
 * (float_rule.c): the architecture's row of a parsed tuning table.
 */
#ifndef ATOMLAB_MODEL_L2_FLOAT_RULE_H
#define ATOMLAB_MODEL_L2_FLOAT_RULE_H

#include "atomlab/l2model.h"
#include "tuning/scatter_tuning.h"

/* atl_l2_calibration_f32_rule() with the table's @p rows (none: NULL or n 0) and @p note, why there are none. */
void atl__l2_f32_rule(struct atl_l2_calibration *cal, const struct atl__tuning_rows *rows, const char *note,
                      double cc_major, double cc_minor);

#endif
