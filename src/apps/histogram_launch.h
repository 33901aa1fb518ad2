/* Internal: one launch of the histogram app's kernel (src/kernels/app_histogram.k.c), shared by the app
 * (src/apps/histogram.c, which times it) and the library's atl_histogram (src/apps/histogram_lib.c). */
#ifndef ATOMLAB_APPS_HISTOGRAM_LAUNCH_H
#define ATOMLAB_APPS_HISTOGRAM_LAUNCH_H

#include <stdint.h>

#include "app_internal.h"

struct atl__hist_launch {
  void *kernel;
  struct atl_arg args[4];
  struct atl_launch launch; /* its args: the ones above */
};

/* Builds variant @p v (not AUTO; one that runs here: the app's checks) of the kernel for @p input keys into
 * @p bins bins at the app's work-group size @p wg_size (or the variant's own), and lays out its launch over the
 * first bytes / 16 x 16 of the @p bytes of @p in, counted into the 32-bit bins @p hist (added to them); the build's
 * atomics go to @p row's instructions where given. */
int atl__hist_prepare(atl_context_t ctx, enum atl_hist_input input, uint32_t bins, enum atl_hist_variant v,
                      uint32_t wg_size, uint64_t bytes, void *in, void *hist, struct atl_row *row,
                      struct atl__hist_launch *h);

#endif
