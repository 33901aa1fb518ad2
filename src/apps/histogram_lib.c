/*
 * The library's histogram (include/atomlab/histogram.h): the histogram app's kernel for 8-bit keys, the variant
 * its `auto` picks, launched as the app launches it (histogram_launch.h) on the caller's buffers, without the
 * measurement; the bytes past the last whole 16 and the widening into 64-bit bins by histogram_lib.k.c.
 */
#include <stdio.h>

#include "atomlab/histogram.h"
#include "core/context.h"
#include "histogram_launch.h"

#define BINS 256u
#define COUNTS_SLOT (ATL__DEVICE_BUFFER_SLOTS - 2) /* 64-bit bins' 32-bit counts: past the scatter's scratch */

/* @p buf (named @p what) is a buffer of this context's open device of at least @p need bytes: 0, else ATL_EINVAL
 * naming it. */
static int buffer_checked(atl_context_t ctx, atl_buffer_t buf, const char *what, uint64_t need)
{
  if (buf == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "histogram: %s is NULL: a buffer of atl_buffer_new is needed", what);
  if (buf->ctx != ctx || buf->opened != ctx->opened || buf->handle == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "histogram: %s is not allowed: a buffer of %s; only the open device's are",
                       what, buf->ctx != ctx ? "another context" : "a device since closed");
  if (buf->bytes < need)
    return atl__seterr(ctx, ATL_EINVAL, "histogram: %s %zu bytes is not allowed: the descriptor needs %llu", what,
                       buf->bytes, (unsigned long long)need);
  return 0;
}

static int desc_checked(atl_context_t ctx, const struct atl_histogram_desc *d, atl_buffer_t out, atl_buffer_t in)
{
  if (d == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "histogram: d is NULL: a descriptor is needed");
  if (d->bytes < 1 || d->bytes > UINT32_MAX)
    return atl__seterr(ctx, ATL_EINVAL, "histogram: bytes %llu is not allowed: 1 to 2^32 - 1",
                       (unsigned long long)d->bytes);
  if (d->bin_bytes != 4 && d->bin_bytes != 8)
    return atl__seterr(ctx, ATL_EINVAL, "histogram: bin_bytes %u is not allowed: 4 or 8", d->bin_bytes);
  int err = buffer_checked(ctx, in, "in", d->bytes);
  if (!err)
    err = buffer_checked(ctx, out, "out", (uint64_t)BINS * d->bin_bytes);
  if (!err && (out == in || out->handle == in->handle))
    err = atl__seterr(ctx, ATL_EINVAL, "histogram: out is not allowed: the same buffer as in (out must be its own)");
  return err;
}

/* One launch of histogram_lib.k.c's @p entry over @p items work-items, its device time added to @p ms. */
static int small_launch(atl_context_t ctx, const char *entry, struct atl_arg *args, size_t nargs, size_t items,
                        double *ms)
{
  void *kernel = NULL;
  const size_t wg = 256;
  int err = atl__app_build(ctx, "histogram_lib", entry, "", &kernel, NULL);
  const struct atl_launch launch = {(items + wg - 1) / wg * wg, wg, args, nargs};
  double t = 0;
  if (!err)
    err = atl__ops(ctx)->launch(atl__dev(ctx), kernel, &launch, &t);
  *ms += t;
  return err;
}

/* The launches: the app's kernel over the whole 16s, the tail, and (64-bit bins) the widening of the counts. */
static int histogram_now(atl_context_t ctx, const struct atl_histogram_desc *d, atl_buffer_t out, atl_buffer_t in,
                         double *ms)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  const uint32_t wg = atl__app_default_wg(dev, 1);
  void *bins = out->handle;
  int err = 0;
  if (d->bin_bytes == 8 && !(err = atl__device_buffer(ctx, COUNTS_SLOT, BINS * 4, &bins)))
    err = atl__app_fill32(ctx, bins, 0, BINS * 4);
  if (!err && d->bytes >= 16) {
    struct atl__hist_launch h;
    const enum atl_hist_variant v = atl_hist_auto_choice(dev, ATL_HIST_U8, BINS, wg);
    double t = 0;
    if (!(err = atl__hist_prepare(ctx, ATL_HIST_U8, BINS, v, wg, d->bytes, in->handle, bins, NULL, &h)))
      err = atl__ops(ctx)->launch(atl__dev(ctx), h.kernel, &h.launch, &t);
    *ms += t;
  }
  if (!err && d->bytes % 16) {
    struct atl_arg args[] = {{ATL_ARG_BUFFER, in->handle, 0}, {ATL_ARG_U64, NULL, d->bytes / 16 * 16},
                             {ATL_ARG_U64, NULL, d->bytes}, {ATL_ARG_BUFFER, bins, 0}};
    err = small_launch(ctx, "hist_tail", args, 4, d->bytes % 16, ms);
  }
  if (!err && d->bin_bytes == 8) {
    struct atl_arg args[] = {{ATL_ARG_BUFFER, bins, 0}, {ATL_ARG_BUFFER, out->handle, 0}};
    err = small_launch(ctx, "hist_widen", args, 2, BINS, ms);
  }
  return err;
}

int atl_histogram(atl_context_t ctx, const struct atl_histogram_desc *d, atl_buffer_t out, atl_buffer_t in,
                  double *device_ms)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  const struct atl_backend_ops *ops = atl__ops(ctx);
  if (ops == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "histogram: no device open");
  int err = desc_checked(ctx, d, out, in);
  if (err)
    return err;
  /* on a program's stream the launches do not wait, so they have no times of their own: two events do */
  struct atl__span span;
  double ms = 0;
  err = atl__span_start(ctx, &span, ctx->external && device_ms);
  if (!err)
    err = histogram_now(ctx, d, out, in, &ms);
  err = atl__span_stop(ctx, &span, err, &ms);
  if (!err && device_ms)
    *device_ms = ms;
  return err;
}
