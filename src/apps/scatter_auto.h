/*
 * What the scatter app's `auto` variant runs, from the shape, two shares of the keys (src/apps/scatter.c measures them on
 * the host, the library on a sample) and the device's tuning (thresholds: data/tuning/scatter.json; tests/unit/test_scatter_auto.c checks the rule on synthetic ones).
 */
#ifndef ATOMLAB_APPS_SCATTER_AUTO_H
#define ATOMLAB_APPS_SCATTER_AUTO_H

#include <stddef.h>
#include <stdint.h>

#include "scatter_variants.h"
#include "tuning/scatter_tuning.h"

struct atl__scatter_stats {
  uint32_t dim;
  double run_share;    /* rows whose key equals the previous row's */
  double head_share;   /* rows whose key is expected at least twice in a block of --block-rows rows */
  uint64_t out_bytes;  /* the output's bytes */
  uint64_t l2_bytes;   /* the device's L2 (0: unknown) */
  int part_fast;       /* the part variant has its warp path (match-any, local table: CUDA C, 32-bit types or an even dim) */
  int dsm_fast;        /* the dsm variant's table spans a thread-block cluster (CUDA sm_90) and the weights are integers */
  const struct atl__scatter_tuning *tuning; /* the thresholds (src/tuning/scatter_tuning.h) */
  uint64_t targets;     /* the output's rows */
  unsigned index_bytes; /* a key's bytes */
  uint64_t rows;        /* the rows (0: unknown) */
  uint32_t units;       /* the device's compute units (0: unknown) */
};

struct atl__scatter_pick {
  enum atl__scatter_variant_id variant; /* atomic, run, block, bins, part, sweep or dsm */
  uint32_t partitions; /* part, sweep: 1, or 0 for as many ranges as fit the output into half the L2 */
};

struct atl__scatter_pick atl__scatter_auto_rule(const struct atl__scatter_stats *s);

#endif
