/*
 * Float adds on hot words where the device has no f32 same-word calibration (l2model.h,
 * atl_l2_calibration_f32_rule; docs/design/model.md, "Float adds on hot words"): the integer S_same times the
 * ratio of float to integer adds on one word that another device of the same architecture measured, a row of
 * data/tuning/l2.json. A device no row matches gets no estimate, and the rule says so: the model never prices a
 * float add as an integer one without a note.
 */
#include <stdio.h>
#include <string.h>

#include "atomlab/device.h"
#include "float_rule.h"

void atl__l2_f32_rule(struct atl_l2_calibration *cal, const struct atl__tuning_rows *rows, const char *note,
                      double cc_major, double cc_minor)
{
  cal->f32_ratio[ATL_L2_ATOM] = cal->f32_ratio[ATL_L2_RED] = 0;
  if (!(cc_major >= 0 && cc_major < 100 && cc_minor >= 0 && cc_minor < 10)) {
    snprintf(cal->f32_rule, sizeof cal->f32_rule, "no ratio: the calibration does not name the device's "
                                                  "architecture (device__attribute_compute_capability_major)");
    return;
  }
  struct atl_device_info dev;
  memset(&dev, 0, sizeof dev);
  snprintf(dev.backend, sizeof dev.backend, "cuda");
  snprintf(dev.vendor, sizeof dev.vendor, "NVIDIA");
  snprintf(dev.lang_version, sizeof dev.lang_version, "sm_%d%d", (int)cc_major, (int)cc_minor);
  const struct atl__tuning_row *r = rows && rows->n ? atl__tuning_row_for(rows, &dev) : NULL;
  if (r == NULL || !(r->f32_same_ratio_atom > 0 && r->f32_same_ratio_red > 0)) {
    snprintf(cal->f32_rule, sizeof cal->f32_rule, "no ratio for %.12s: %.200s", dev.lang_version,
             note && *note ? note : r ? "its row of data/tuning/l2.json has no f32_same_ratio_atom and _red"
                                      : "no row of data/tuning/l2.json names it");
    return;
  }
  cal->f32_ratio[ATL_L2_ATOM] = r->f32_same_ratio_atom;
  cal->f32_ratio[ATL_L2_RED] = r->f32_same_ratio_red;
  snprintf(cal->f32_rule, sizeof cal->f32_rule, "the %.12s ratio %.4g ATOM, %.4g RED (row %.40s of data/tuning/l2.json)",
           dev.lang_version, r->f32_same_ratio_atom, r->f32_same_ratio_red, r->name);
}

void atl_l2_calibration_f32_rule(struct atl_l2_calibration *cal, double cc_major, double cc_minor)
{
  const char *note;
  const struct atl__tuning_rows *rows = atl__tuning_file_rows(ATL__TUNING_L2, &note);
  atl__l2_f32_rule(cal, rows, note, cc_major, cc_minor);
}
