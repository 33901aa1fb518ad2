/* What the apps share: rows, the timing loop, device buffers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

void atl__app_row_init(struct atl_row *row, const char *app, const char *variant)
{
  atl_row_init(row, "app"); /* status error until it is measured and checked */
  atl_row_config_set(row, "app", app);
  atl_row_config_set(row, "variant", variant);
}

void atl__app_row_status(struct atl_row *row, enum atl_status status, const char *fmt, ...)
{
  va_list ap;
  row->status = status;
  va_start(ap, fmt);
  vsnprintf(row->reason, sizeof row->reason, fmt, ap);
  va_end(ap);
}

int atl__app_time(atl_context_t ctx, void *kernel, const struct atl_launch *launch, atl__app_reset_fn reset,
                  void *reset_arg, const struct atl_app_timing *tm, struct atl_row *row)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  unsigned n = tm->samples ? tm->samples : 1;
  double *ms = malloc(n * sizeof *ms);
  double warm = 0;
  int err = 0;
  if (ms == NULL)
    return ATL_ENOMEM;
  for (unsigned i = 0; i <= n && !err; i++) { /* i == 0: the warm-up, not kept */
    if (reset && (err = reset(ctx, reset_arg)))
      break;
    err = ops->launch(atl__dev(ctx), kernel, launch, i ? &ms[i - 1] : &warm);
  }
  if (!err)
    atl_stats_compute(ms, n, &row->time_ms);
  free(ms);
  return err;
}

void atl__app_stats_f(const float *times, unsigned n, struct atl_row *row)
{
  double ms[256];
  if (n > 256)
    n = 256;
  for (unsigned i = 0; i < n; i++)
    ms[i] = times[i];
  atl_stats_compute(ms, n, &row->time_ms);
}

int atl__app_build(atl_context_t ctx, const char *source, const char *entry, const char *defines, void **kernel,
                   struct atl_row *row)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  struct atl_build req = {source, entry, defines};
  int err = ops->build(atl__dev(ctx), &req, kernel);
  if (!err && ops->describe_kernel && row)
    ops->describe_kernel(atl__dev(ctx), *kernel, row->instructions, sizeof row->instructions);
  return err;
}

size_t atl__app_resident_threads(const struct atl_device_info *d, uint32_t wg)
{
  size_t per_cu = d->max_threads_per_cu ? d->max_threads_per_cu : (d->type == ATL_DEVICE_GPU ? 2048 : wg);
  size_t t = (size_t)d->compute_units * per_cu;
  if (t < wg)
    t = wg;
  return (t + wg - 1) / wg * wg;
}

int atl__app_alloc(atl_context_t ctx, struct atl__app_buffers *b, size_t bytes, void **out)
{
  if (b->n == ATL__APP_MAX_BUFFERS)
    return atl__seterr(ctx, ATL_EINVAL, "apps: too many buffers");
  int err = atl__ops(ctx)->alloc(atl__dev(ctx), bytes ? bytes : 4, out);
  if (!err)
    b->buf[b->n++] = *out;
  return err;
}

void atl__app_free_all(atl_context_t ctx, struct atl__app_buffers *b)
{
  for (unsigned i = 0; i < b->n; i++)
    atl__ops(ctx)->free(atl__dev(ctx), b->buf[i]);
  b->n = 0;
}

int atl__app_fill32(atl_context_t ctx, void *buf, uint32_t word, size_t bytes)
{
  return atl__ops(ctx)->fill(atl__dev(ctx), buf, &word, sizeof word, bytes);
}

int atl__app_cuda_ordinal(atl_context_t ctx)
{
  const struct atl_device_info *d = atl_device_current(ctx);
  return d && d->has_cub ? (int)d->ordinal : -1;
}

int atl__app_why(char *why, size_t len, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (why && len)
    vsnprintf(why, len, fmt, ap);
  va_end(ap);
  return ATL_EINVAL;
}

uint32_t atl__app_default_wg(const struct atl_device_info *d, int pow2)
{
  uint32_t wg = d->max_wg_size < 256 ? (uint32_t)d->max_wg_size : 256;
  while (pow2 && (wg & (wg - 1))) /* a device maximum that is not a power of two */
    wg &= wg - 1;
  return wg ? wg : 1;
}

int atl__app_checked(atl_context_t ctx, const struct atl_app_info *info, const void *params)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  char why[384];
  if (dev == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "no device open");
  if (info->check(dev, params, why, sizeof why) != 0)
    return atl__seterr(ctx, ATL_EINVAL, "%s: %s", info->name, why);
  return 0;
}
