/*
 * The bucket scatter-add's host side: the buckets' shape from the device's local memory and the tuning, the
 * scratch, a fill of the counts and six launches (bucket_hist, det's three scan passes over the counts, bucket_place,
 * bucket_sum; src/kernels/app_scatter_bucket.k.c says what each does).
 */
#include <stdio.h>
#include <string.h>

#include "scatter_bucket.h"
#include "scatter_det.h" /* the counts' scan: det's passes and their block of counts */
#include "scatter_guard.h"

#define MIN_CAP 1024u   /* pairs bucket_sum sorts in local memory at a time, at least */
#define PLACE_WG 1024u  /* bucket_hist's and bucket_place's work-items a group */
#define PLACE_GROUPS 2u /* bucket_place's work-groups a compute unit (2048 work-items on sm_90); bucket_hist's: 1 */

/* The local memory bucket_sum's words take: half what a work-group has without an opt-in (at the opt-in's limit, 56 Ki
 * pairs at 512 targets a bucket did not launch on an H200 at 8f0f740, and at the plain limit 11903 pairs did not
 * verify at f3f266c: ptxas pads the static words, 1552 bytes where they count 1540; half leaves room for that and for
 * more work-groups a compute unit). The shape's check and the pairs at a time both keep within it. */
static uint64_t sum_room(const struct atl_device_info *dev) { return dev->local_mem / 2; }

static const char *const entries[ATL__SCATTER_BUCKET_KERNELS] = {"bucket_hist", "det_sums",     "det_scan",
                                                                 "det_spread",  "bucket_place", "bucket_sum"};
static const char *const sources[ATL__SCATTER_BUCKET_KERNELS] = {"app_scatter_bucket", "app_scatter_det",
                                                                 "app_scatter_det",    "app_scatter_det",
                                                                 "app_scatter_bucket", "app_scatter_bucket"};
enum { K_HIST, K_SUMS, K_SCAN, K_SPREAD, K_PLACE, K_SUM };

/* The counts' bytes: a line a bucket */
static size_t counts_bytes(const struct atl__scatter_bucket *b)
{
  return (size_t)b->nb * ATL__SCATTER_BUCKET_LINE * 4;
}

const char *atl__scatter_bucket_shape(const struct atl_device_info *dev, uint64_t targets, uint32_t wg,
                                      unsigned least, uint32_t *span, uint32_t *nb)
{
  const uint64_t s = least ? least : 1;
  *span = (uint32_t)(s < targets ? s : targets ? targets : 1);
  *nb = (uint32_t)((targets + *span - 1) / *span);
  const uint64_t sum_bytes = (*span + 1ull + MIN_CAP + wg) * 4;
  if (dev->local_mem && sum_bytes > sum_room(dev))
    return "bucket needs local memory for a bucket's sort (the tuning's bucket_span + 1025 words and the work-group's, "
           "within half a work-group's): the device has less";
  return NULL;
}

static void buf_arg(struct atl_arg *a, void *buf) { *a = (struct atl_arg){ATL_ARG_BUFFER, buf, 0}; }
static void u64_arg(struct atl_arg *a, uint64_t v) { *a = (struct atl_arg){ATL_ARG_U64, NULL, v}; }

/* Launch @p k over @p groups work-groups of @p wg with @p nargs arguments of its own (the guard after them). */
static struct atl_arg *lay_out(struct atl__scatter_bucket *b, unsigned k, uint64_t groups, uint32_t wg, unsigned nargs)
{
  const unsigned n = nargs + (b->guard != NULL);
  b->launch[k] = (struct atl_launch){(size_t)(groups ? groups : 1) * wg, wg, b->args[k], n};
  if (b->guard)
    b->args[k][nargs] = (struct atl_arg){ATL_ARG_BUFFER, b->guard, 0};
  return b->args[k];
}

int atl__scatter_bucket_prepare(atl_context_t ctx, struct atl__app_buffers *bufs, struct atl__scatter_bucket *b,
                                const char *type_define, unsigned idx_bytes, struct atl_row *row)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  const uint32_t pwg = dev->max_wg_size < PLACE_WG ? (uint32_t)dev->max_wg_size : PLACE_WG;
  const uint64_t E = b->rows, n = counts_bytes(b) / 4; /* the counts' words */
  /* bucket_hist's counts in local memory where they fit it with a KiB to spare (the compiler pads static words) */
  const int hist_local = dev->local_mem && b->nb * 4ull + 1024 <= dev->local_mem;
  /* a pair in 4 bytes where a row's id and its key's place in its bucket fit them: half the pairs' traffic */
  const int packed = E * b->span <= (1ull << 32);
  char defines[2][224];
  snprintf(defines[0], sizeof defines[0], "D=%u %s IDX_T=%s NB=%uu SPAN=%uu WG=%u PWG=%u HIST_LOCAL=%d LINE=%uu "
           "PACKED=%d%s", b->dim, type_define, idx_bytes == 8 ? "ulong" : "uint", b->nb, b->span, b->wg, pwg,
           hist_local, ATL__SCATTER_BUCKET_LINE, packed, ATL__KEY_GUARD_DEFINE(b->guard));
  snprintf(defines[1], sizeof defines[1], "D=%u %s IDX_T=%s CHUNK=%uu TILE=%uu GROUP=%uu WG=%u%s", b->dim,
           type_define, idx_bytes == 8 ? "ulong" : "uint", ATL__SCATTER_DET_CHUNK, ATL__SCATTER_DET_TILE,
           ATL__SCATTER_DET_GROUP, b->wg, ATL__KEY_GUARD_DEFINE(b->guard)); /* det's, so its builds are shared */
  int err = 0;
  for (unsigned k = 0; k < ATL__SCATTER_BUCKET_KERNELS && !err; k++)
    err = atl__app_build(ctx, sources[k], entries[k], defines[strcmp(sources[k], "app_scatter_det") == 0],
                         &b->kernels[k],
                         k == K_SUM ? row : NULL); /* the sum's instructions: the others' are integer counts */
  const uint64_t block = (uint64_t)b->wg * ATL__SCATTER_DET_SCAN_ITEMS, blocks = (n + block - 1) / block;
  if (!err)
    err = atl__app_alloc(ctx, bufs, E * (packed ? 4 : 8), &b->pairs);
  /* bucket_sum's pairs at a time: twice a bucket's on average (a bucket of uniform keys in one go), at most what
   * sum_room leaves beside its static words */
  const uint64_t statics = (b->span + 1ull + b->wg) * 4, local = sum_room(dev);
  const uint64_t most = local > statics + MIN_CAP * 4 ? (local - statics) / 4 : MIN_CAP, two = 2 * E / b->nb;
  const uint32_t cap = (uint32_t)(two < MIN_CAP ? MIN_CAP : two > most ? most : two);
  if (!err)
    err = atl__app_alloc(ctx, bufs, counts_bytes(b), &b->counts);
  if (!err)
    err = atl__app_alloc(ctx, bufs, blocks * 4, &b->sums);
  if (err)
    return err;
  const uint64_t units = dev->compute_units ? dev->compute_units : 1, most_groups = (E + pwg - 1) / pwg;
  /* bucket_hist and bucket_place: few groups of many work-items */
  struct atl_arg *a = lay_out(b, K_HIST, units < most_groups ? units : most_groups, pwg, 3);
  buf_arg(&a[0], b->idx), buf_arg(&a[1], b->counts), u64_arg(&a[2], E);
  /* the counts' exclusive scan: blocks' sums, their scan, each block from its sum */
  a = lay_out(b, K_SUMS, blocks, b->wg, 4);
  buf_arg(&a[0], b->counts), buf_arg(&a[1], b->sums), u64_arg(&a[2], n), u64_arg(&a[3], block);
  a = lay_out(b, K_SCAN, 1, b->wg, 2);
  buf_arg(&a[0], b->sums), u64_arg(&a[1], blocks);
  a = lay_out(b, K_SPREAD, blocks, b->wg, 4);
  buf_arg(&a[0], b->counts), buf_arg(&a[1], b->sums), u64_arg(&a[2], n), u64_arg(&a[3], block);
  a = lay_out(b, K_PLACE, units * PLACE_GROUPS < most_groups ? units * PLACE_GROUPS : most_groups, pwg, 4);
  buf_arg(&a[0], b->idx), buf_arg(&a[1], b->counts), buf_arg(&a[2], b->pairs), u64_arg(&a[3], E);
  a = lay_out(b, K_SUM, b->nb, b->wg, 7);
  buf_arg(&a[0], b->src), buf_arg(&a[1], b->pairs), buf_arg(&a[2], b->counts), buf_arg(&a[3], b->out);
  u64_arg(&a[4], b->targets);
  a[5] = (struct atl_arg){ATL_ARG_U32, NULL, cap}, a[6] = (struct atl_arg){ATL_ARG_LOCAL, NULL, cap * 4ull};
  return 0;
}

int atl__scatter_bucket_launch(atl_context_t ctx, const struct atl__scatter_bucket *b, double *ms)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  /* on atomlab's own device one pair of events times the fill and the six launches, enqueued, so the call waits once,
   * not six times (a program's stream is timed by atl_scatter_add's own events) */
  struct atl__span span;
  double t = 0;
  int err = atl__span_start(ctx, &span, ms && !ctx->external);
  if (!err) /* bucket_hist adds to the counts */
    err = atl__app_fill32(ctx, b->counts, 0, counts_bytes(b));
  for (unsigned k = 0; k < ATL__SCATTER_BUCKET_KERNELS && !err; k++) { /* else each launch timed, the times summed */
    double one = 0;
    err = ops->launch(atl__dev(ctx), b->kernels[k], &b->launch[k], span.on || !ms ? NULL : &one);
    t += one;
  }
  err = atl__span_stop(ctx, &span, err, &t);
  if (!err && ms)
    *ms = t;
  return err;
}
