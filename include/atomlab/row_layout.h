/**
 * @file row_layout.h
 * The layout of struct atl_row, which the stable result.h declares without it: the library, its command line
 * and its tests fill and read rows field by field; a program outside them uses result.h's functions, so these
 * limits (ATL_ROW_MAX_CONFIG, ATL_ROW_MAX_METRICS, the texts' lengths) may change in any release without
 * breaking it.
 */
#ifndef ATOMLAB_ROW_LAYOUT_H
#define ATOMLAB_ROW_LAYOUT_H

#include <stdint.h>

#include "experimental.h" /* not the stable API */
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One configuration value of a row: the axis's name and its value as text. */
struct atl_value {
  char name[24];
  char text[72];
  int is_number; /**< the text is a number (JSON writes it as one) */
};

/** One named number a row measured or derived, with its unit. */
struct atl_metric {
  char name[32];
  char unit[16];
  double value;
  enum atl_hint hint;
};

/** Most configuration values and metrics one row carries. */
#define ATL_ROW_MAX_CONFIG 16
#define ATL_ROW_MAX_METRICS 24

/** One row (result.h says what it holds; these are its fields). */
struct atl_row {
  char kind[16];                               /**< the row kind (atl_row_kinds()): "rmw", "strategy", "app" */
  struct atl_value config[ATL_ROW_MAX_CONFIG]; /**< in the kind's order */
  unsigned nconfig;
  enum atl_status status;
  char reason[384];         /**< why a row is not ok (or a note) */
  int verified;             /**< 1 if the result matched the exact expected state */
  uint64_t wrong;           /**< words (and checks) that differed */
  struct atl_stats time_ms; /**< device time per launch */
  double *samples_ms;       /**< the raw samples (owned by the row; time_ms.samples of them) */
  struct atl_metric metrics[ATL_ROW_MAX_METRICS];
  unsigned nmetrics;
  char instructions[256]; /**< atomic machine instructions of the kernel ("" where the backend cannot tell) */
  double row_seconds;     /**< wall time the whole row took: build, calibration, samples, verification */
  double visits_ms[64];   /**< --repeat/--rounds: the median time of every visit of this configuration, in the
                               order measured (repeat after repeat, each repeat's rounds in turn) */
  unsigned nvisits;       /**< 0 where the configuration was measured once */
};

#ifdef __cplusplus
}
#endif
#endif
