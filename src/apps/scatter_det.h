/* Internal: the deterministic scatter-add's passes (src/kernels/app_scatter_det.k.c), shared by app scatter
 * --variants det and the library's atl_scatter_add. */
#ifndef ATOMLAB_APPS_SCATTER_DET_H
#define ATOMLAB_APPS_SCATTER_DET_H

#include <stddef.h>
#include <stdint.h>

#include "app_internal.h"
#include "scatter_host.h" /* ATL__SCATTER_HOST_DET_GROUP: the emulation's second cut */

/* Fixed, not options: the result's bits depend on TILE (where partial sums are cut), so it is one number. */
#define ATL__SCATTER_DET_CHUNK 4096u /* rows a work-group counts and places per radix pass */
#define ATL__SCATTER_DET_TILE 1024u  /* sorted places a warp sums */
#define ATL__SCATTER_DET_GROUP ATL__SCATTER_HOST_DET_GROUP /* tiles whose partials of a key are summed first */
#define ATL__SCATTER_DET_MAX_LAUNCHES (5 * 4 + 3) /* 4 radix passes of 5 launches, tile, group, combine */
#define ATL__SCATTER_DET_KERNELS 8
/* Counts a work-item sums in det_sums and scans in det_spread (any: integers); few, so that many work-groups share
 * the loads: at 16, the two took 9.7 and 11.3 us a pass at E = 8 M on an H200, at 4, 4.7 and 5.0 (ncu, de87474 and
 * e65551a). */
#define ATL__SCATTER_DET_SCAN_ITEMS 4u

/* What the passes read and write. src (rows x dim values), idx (rows keys of idx_bytes, each
 * < targets) and out (targets x dim values) are the caller's; the rest is scratch this module allocates. */
struct atl__scatter_det {
  uint64_t rows, targets;
  uint32_t dim, wg, groups; /* groups: work-groups of every pass but the scan (0: as many as the data has) */
  void *src, *idx, *out;
  void *guard;              /* the keys' guard word (scatter_guard.h), every pass's last argument; NULL: none */
  void *kernels[ATL__SCATTER_DET_KERNELS]; /* hist, scan, place, tile, combine, sums, spread, group */
  void *keys[2], *ids[2], *counts, *part, *gpart, *sums;
  void *unsorted; /* one word: 1 where the keys are not in order (the first det_hist); the host and det_place read it */
  int unsorted_kept;        /* the library's: the word is a slot of the context's, zeroed by the call before */
  struct atl_arg args[ATL__SCATTER_DET_MAX_LAUNCHES][12]; /* det_place: 11 and the guard */
  struct atl_launch launch[ATL__SCATTER_DET_MAX_LAUNCHES];
  void *kernel_of[ATL__SCATTER_DET_MAX_LAUNCHES];
  unsigned n;               /* launches in order */
  unsigned last_place;      /* the last radix pass's det_place: the one launch of the sort that keys in order run */
};

/* Builds the kernels for @p type_define ("TYPE_f32": f32, u32, i32, bf16, f16) and @p idx_bytes (4 or 8), allocates the scratch in
 * @p bufs and lays out every launch; the atomic instructions go to @p row's when given. */
int atl__scatter_det_prepare(atl_context_t ctx, struct atl__app_buffers *bufs, struct atl__scatter_det *d,
                             const char *type_define, unsigned idx_bytes, struct atl_row *row);

/* Every pass in order (out += the scatter, each element by one writer in a fixed order); the device times
 * summed into @p ms (may be NULL), and into @p sort_ms and @p sum_ms (may be NULL) the radix passes' and the
 * tile and combine passes' shares of it (where the time goes). */
int atl__scatter_det_launch(atl_context_t ctx, const struct atl__scatter_det *d, double *ms, double *sort_ms,
                            double *sum_ms);

#endif
