/*
 * The scatter app's CUB baseline row: the plugin's calls, timed in batches (atl__app_cub_time), its output read back
 * for the app's check like every row's.
 */
#include <stdio.h>

#include "scatter_cub.h"

/* One call of the CUB baseline (libatomlab_cub.so): @p reps timed runs, each from a zeroed output. */
static int cub_scatter(void *arg, unsigned reps, float *times, char *why, size_t len)
{
  const struct atl__cub_call *c = arg;
  const struct atl__scatter_cub_job *j = c->run;
  if (j->dim == 1) /* the bincount: CUB's HistogramEven counts the keys (it has no weights) */
    return c->cub->histogram_u32(c->ordinal, (uint64_t)(uintptr_t)j->idx, j->rows, (uint32_t)j->targets,
                                 (uint64_t)(uintptr_t)j->out, reps, times, why, len);
  return c->cub->scatter_add_f32x64(c->ordinal, (uint64_t)(uintptr_t)j->src, (uint64_t)(uintptr_t)j->idx,
                                    (uint64_t)(uintptr_t)j->out, j->rows, j->targets, reps, times, why, len);
}

int atl__scatter_cub_row(atl_context_t ctx, const struct atl__scatter_cub_job *j, struct atl_row *row,
                         const struct atl_app_timing *tm, void *host_out)
{
  char why[256] = "";
  int ordinal = -1;
  const int bincount = j->dim == 1 && j->integer;
  if ((!j->f32 || j->dim != 64 || !j->keys32) && !(bincount && j->keys32)) {
    atl__app_row_status(row, ATL_STATUS_UNSUPPORTED, "the CUB baseline is built for f32 rows of dim 64, or a u32 / "
                        "i32 bincount (dim 1: HistogramEven's counts), with i32 keys");
    return 1;
  }
  const struct atl__cub *cub = atl__app_cub_for(ctx, row, &ordinal);
  if (cub == NULL)
    return 1;
  /* CUB's HistogramEven keeps a copy of the bins per thread block in global memory (CCCL issue #912): at 2^24 bins
   * on an H100 (132 SMs) it stopped with an illegal address, which ends the CUDA context for every row
   * after it. Refused where bins x 2 blocks a compute unit pass 2^31 (an int's offsets); 2^20 bins ran. */
  const double blocks = 2.0 * atl_device_current(ctx)->compute_units;
  if (bincount && (double)j->targets * blocks >= 0x1p31) {
    atl__app_row_status(row, ATL_STATUS_UNSUPPORTED, "CUB's HistogramEven at %llu bins: its per-block copies of the "
                        "bins pass 2^31 counters (2^24 bins on an H100 stopped with an illegal address)",
                        (unsigned long long)j->targets);
    return 1;
  }
  snprintf(row->instructions, sizeof row->instructions, "%s, %s",
           bincount ? "cub::DeviceHistogram::HistogramEven of the keys (counts: weights of 1)"
                    : "cub::DeviceRadixSort::SortPairs + cub::DeviceReduce::ReduceByKey of rows + an add kernel",
           cub->info);
  if (atl__app_cub_time(cub_scatter, &(struct atl__cub_call){cub, j, ordinal}, tm, row, why, sizeof why) != 0) {
    atl__app_row_status(row, ATL_STATUS_ERROR, "%s", why);
    return 1;
  }
  return atl__ops(ctx)->read(atl__dev(ctx), j->out, host_out, j->out_bytes);
}
