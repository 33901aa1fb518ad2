/* Internal: the weighted bincount with its bins in work-group memory (app scatter --variants dsm; the kernel and
 * why: src/kernels/app_scatter_dsm.k.c). */
#ifndef ATOMLAB_APPS_SCATTER_DSM_H
#define ATOMLAB_APPS_SCATTER_DSM_H

#include <stddef.h>
#include <stdint.h>

#include "app_internal.h"

/* The launches of one run: src (rows u32 / i32 weights), idx (rows keys of idx_bytes, each < targets) and out
 * (targets words) are the caller's; cursor (a word per launch) is this module's. */
struct atl__scatter_dsm {
  uint64_t rows, targets;
  uint32_t wg, cache, beyond, wide, cluster, words; /* wg: the caller's work-group (OpenCL's); cache: slots of a group's own
                                       * key cache (0: none); beyond: bins past the table to the
                                       * output in the one launch; wide: 32-bit counters; cluster,
                                       * words: asked (0: from the device), then what runs: groups a table spans, words a group holds */
  unsigned idx_bytes;
  void *src, *idx, *out, *cursor;
  void *guard; /* the keys' guard word (scatter_guard.h), before the table's local argument; NULL: built without it */
  uint32_t passes, cursor_words; /* launches (each a range of 2 x words x cluster bins), and the cursor's size */
  void *kernel;
  struct atl_arg args[10];
  struct atl_launch launch;
};

/* The table's shape for the device (cluster and words where 0), the kernel built and the launches laid out;
 * the kernel's atomics go to @p row's instructions when given. ATL_EINVAL where --dsm-words does not fit. */
int atl__scatter_dsm_prepare(atl_context_t ctx, struct atl__app_buffers *bufs, struct atl__scatter_dsm *m,
                             struct atl_row *row);

/* Every launch in order (out += the bincount), the device times summed into @p ms (may be NULL). */
int atl__scatter_dsm_launch(atl_context_t ctx, struct atl__scatter_dsm *m, double *ms);

#endif
