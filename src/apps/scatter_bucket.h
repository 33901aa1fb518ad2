/* Internal: the bucket scatter-add's passes (src/kernels/app_scatter_bucket.k.c), shared by app scatter
 * --variants bucket and the library's ATL_SCATTER_BUCKET. */
#ifndef ATOMLAB_APPS_SCATTER_BUCKET_H
#define ATOMLAB_APPS_SCATTER_BUCKET_H

#include <stdint.h>

#include "app_internal.h"

#define ATL__SCATTER_BUCKET_KERNELS 6 /* hist, det's sums, scan and spread, place, sum */
/* The counts' words a bucket: each bucket's count (its frontier in bucket_place) in a 128-byte line of its own, so that
 * the atomics on the frontiers spread over the L2's slices (packed 4 bytes apart, D 64 into 100K targets, 782 buckets,
 * took 1.583 ms on an H200 at 6de8d13, against 0.878 with 528 bytes between them in db1f52d's tree) */
#define ATL__SCATTER_BUCKET_LINE 32u

/* What the passes read and write: src (rows x dim values), idx (rows keys of idx_bytes, each < targets) and out
 * (targets x dim values) are the caller's; the rest is scratch this module allocates. */
struct atl__scatter_bucket {
  uint64_t rows, targets;
  uint32_t dim, wg;
  void *src, *idx, *out;
  void *guard;          /* the keys' guard word (scatter_guard.h), every pass's last argument; NULL: none */
  uint32_t span, nb;    /* targets a bucket, buckets (atl__scatter_bucket_shape) */
  void *kernels[ATL__SCATTER_BUCKET_KERNELS];
  void *pairs, *counts, *sums; /* pairs: each row's (key, id), bucket by bucket */
  struct atl_arg args[ATL__SCATTER_BUCKET_KERNELS][8]; /* bucket_sum: 7 and the guard */
  struct atl_launch launch[ATL__SCATTER_BUCKET_KERNELS];
};

/* The buckets for @p targets on @p dev: @p least targets a bucket (the tuning's bucket_span); NULL, or why the
 * device's local memory cannot hold a bucket's sort. */
const char *atl__scatter_bucket_shape(const struct atl_device_info *dev, uint64_t targets, uint32_t wg,
                                      unsigned least, uint32_t *span, uint32_t *nb);

/* Builds the kernels for @p type_define ("TYPE_f32": f32, u32, i32, bf16, f16) and @p idx_bytes (4 or 8), allocates
 * the scratch in @p bufs and lays out the launches; the atomic instructions go to @p row's when given. */
int atl__scatter_bucket_prepare(atl_context_t ctx, struct atl__app_buffers *bufs, struct atl__scatter_bucket *b,
                                const char *type_define, unsigned idx_bytes, struct atl_row *row);

/* Every pass in order (out += the scatter); the device times summed into @p ms (may be NULL). */
int atl__scatter_bucket_launch(atl_context_t ctx, const struct atl__scatter_bucket *b, double *ms);

#endif
