/* Internal: the scatter app's CUB baseline row (libatomlab_cub.so): SortPairs and ReduceByKey of f32 rows of dim 64,
 * or HistogramEven's counts for a u32 / i32 bincount. */
#ifndef ATOMLAB_APPS_SCATTER_CUB_H
#define ATOMLAB_APPS_SCATTER_CUB_H

#include <stddef.h>
#include <stdint.h>

#include "app_internal.h"

/* The run's shape and device buffers, as the baseline reads them. */
struct atl__scatter_cub_job {
  int f32, integer, keys32; /* f32 values; u32 or i32 values; i32 keys */
  uint32_t dim;
  uint64_t rows, targets;
  void *src, *idx, *out;
  size_t out_bytes;
};

/* The CUB baseline's row up to its read-back: 0 with the output in @p host_out, 1 where the row is complete
 * (unsupported, or CUB failed: the reason on the row), else an error. */
int atl__scatter_cub_row(atl_context_t ctx, const struct atl__scatter_cub_job *j, struct atl_row *row,
                         const struct atl_app_timing *tm, void *host_out);

#endif
