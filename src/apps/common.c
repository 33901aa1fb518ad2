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
  /* A row whose kernel the backend cannot build on this device (atl__app_build) stays unsupported with that
   * reason: the error path the app takes next is not a failure of the device. */
  if (row->status == ATL_STATUS_UNSUPPORTED && status == ATL_STATUS_ERROR)
    return;
  row->status = status;
  va_start(ap, fmt);
  vsnprintf(row->reason, sizeof row->reason, fmt, ap);
  va_end(ap);
}

void atl__app_row_failed(atl_context_t ctx, struct atl_row *row)
{
  atl__app_row_status(row, ATL_STATUS_ERROR, "%s", atl_errmsg(ctx));
}

void atl__app_row_verdict(struct atl_row *row, int ok, const char *fmt, ...)
{
  row->status = ATL_STATUS_OK;
  row->verified = ok != 0;
  if (ok)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(row->reason, sizeof row->reason, fmt, ap);
  va_end(ap);
}

void atl__app_row_per_s(struct atl_row *row, const char *name, double count)
{
  if (row->time_ms.median > 0)
    atl_row_metric_set(row, name, count / (row->time_ms.median * 1e3));
}

int atl__app_row_add(struct atl_result_set *out, struct atl_row *row, int err)
{
  if (atl_result_set_add(out, row))
    return ATL_ENOMEM;
  return err == ATL_ENOMEM ? err : 0;
}

void atl__app_sampling(const struct atl_app_timing *tm, struct atl_timing *t)
{
  atl_timing_defaults(t);
  t->min_samples = tm->samples ? tm->samples : tm->min_samples ? tm->min_samples : 1;
  t->max_samples = tm->samples ? tm->samples : tm->max_samples;
  t->noise = tm->noise;
  t->budget_s = tm->budget_s;
}

int atl__app_sample(atl__launch_fn fn, void *arg, const struct atl_app_timing *tm, struct atl_stats *stats)
{
  struct atl_timing t;
  double *ms = NULL;
  atl__app_sampling(tm, &t);
  int err = atl__sample_stats(fn, arg, &t, 0, 0, &ms, stats);
  free(ms);
  return err;
}

/* One launch of a kernel after its reset: the launch function atl__app_time samples. */
struct app_launch {
  atl_context_t ctx;
  void *kernel;
  const struct atl_launch *launch;
  atl__app_reset_fn reset;
  void *reset_arg;
};

static int launch_once(void *arg, uint32_t iters, double *ms)
{
  const struct app_launch *l = arg;
  int err = l->reset ? l->reset(l->ctx, l->reset_arg) : 0;
  (void)iters;
  return err ? err : atl__ops(l->ctx)->launch(atl__dev(l->ctx), l->kernel, l->launch, ms);
}

int atl__app_time(atl_context_t ctx, void *kernel, const struct atl_launch *launch, atl__app_reset_fn reset,
                  void *reset_arg, const struct atl_app_timing *tm, struct atl_row *row)
{
  struct app_launch l = {ctx, kernel, launch, reset, reset_arg};
  double warm = 0;
  int err = launch_once(&l, 0, &warm); /* the warm-up, not kept */
  return err ? err : atl__app_sample(launch_once, &l, tm, &row->time_ms);
}

int atl__app_read(atl_context_t ctx, void *buf, void *host, size_t bytes)
{
  return atl__ops(ctx)->read(atl__dev(ctx), buf, host, bytes);
}

int atl__app_time_read(atl_context_t ctx, void *kernel, const struct atl_launch *launch, atl__app_reset_fn reset,
                       void *reset_arg, const struct atl_app_timing *tm, struct atl_row *row,
                       const struct atl__app_readback *rb, unsigned n)
{
  int err = atl__app_time(ctx, kernel, launch, reset, reset_arg, tm, row);
  for (unsigned i = 0; i < n && !err; i++)
    err = atl__app_read(ctx, rb[i].buf, rb[i].host, rb[i].bytes);
  return err;
}

/* The CUB plugin times a batch of runs per call: samples are handed out one by one, a new batch when they run out. */
struct cub_batch {
  atl__cub_call_fn call;
  void *arg;
  unsigned size, n, next;
  float times[256];
  char *why;
  size_t len;
};

static int cub_next(void *arg, uint32_t iters, double *ms)
{
  struct cub_batch *b = arg;
  (void)iters;
  if (b->next == b->n) {
    if (b->call(b->arg, b->size, b->times, b->why, b->len) != 0)
      return ATL_EIO;
    b->n = b->size;
    b->next = 0;
  }
  *ms = b->times[b->next++];
  return 0;
}

int atl__app_cub_time(atl__cub_call_fn call, void *arg, const struct atl_app_timing *tm, struct atl_row *row,
                      char *why, size_t len)
{
  struct atl_timing t;
  atl__app_sampling(tm, &t);
  /* A batch is the minimum count: one call where the count is fixed, more only while the noise is high. */
  struct cub_batch b = {call, arg, t.min_samples < 256 ? t.min_samples : 256, 0, 0, {0}, why, len};
  return atl__app_sample(cub_next, &b, tm, &row->time_ms);
}

int atl__app_build(atl_context_t ctx, const char *source, const char *entry, const char *defines, void **kernel,
                   struct atl_row *row)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  struct atl_build req = {source, entry, defines};
  int err = ops->build(atl__dev(ctx), &req, kernel);
  if (err == ATL_ENOTSUP && row) /* no such kernel on this backend (Vulkan has rmw shaders only) */
    atl__app_row_status(row, ATL_STATUS_UNSUPPORTED, "%s", atl_errmsg(ctx));
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
  if (ctx->app_slot) { /* the library's scratch: the context's, sized once and grown on demand */
    if (ctx->app_slot >= ATL__DEVICE_BUFFER_SLOTS)
      return atl__seterr(ctx, ATL_EINVAL, "apps: too many scratch buffers");
    return atl__device_buffer(ctx, ctx->app_slot++, bytes ? bytes : 4, out);
  }
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

const struct atl__cub *atl__app_cub_for(atl_context_t ctx, struct atl_row *row, int *ordinal)
{
  char why[256];
  *ordinal = atl__app_cuda_ordinal(ctx);
  if (*ordinal < 0) {
    atl__app_row_status(row, ATL_STATUS_UNSUPPORTED, "CUB runs on CUDA devices only");
    return NULL;
  }
  const struct atl__cub *cub = atl__cub_load(why, sizeof why);
  if (cub == NULL)
    atl__app_row_status(row, ATL_STATUS_UNSUPPORTED, "%s", why);
  return cub;
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

void atl__app_wg_default(const struct atl_device_info *d, uint32_t *wg, int pow2)
{
  if (*wg == 0)
    *wg = atl__app_default_wg(d, pow2);
}

int atl__app_wg_check(const struct atl_device_info *d, uint32_t wg, int pow2, const char *note, char *why, size_t len)
{
  if (wg != 0 && !(pow2 && (wg & (wg - 1))) && wg <= d->max_wg_size)
    return 0;
  return atl__app_why(why, len, "wg-size %u is not allowed: %s %zu on %s%s%s%s", wg,
                      pow2 ? "a power of two up to" : "1 to", d->max_wg_size, d->name, note ? " (" : "",
                      note ? note : "", note ? ")" : "");
}

int atl__app_checked(atl_context_t ctx, const struct atl_app_info *info, const void *params)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  char why[384];
  if (dev == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "no device open");
  if (atl_app_check(info, dev, params, why, sizeof why) != 0)
    return atl__seterr(ctx, ATL_EINVAL, "%s: %s", info->name, why);
  return 0;
}

int atl__app_hook(const char *name)
{
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

int atl__span_start(atl_context_t ctx, struct atl__span *s, int on)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  *s = (struct atl__span){{NULL, NULL}, on && ops && ops->record && ops->elapsed && ops->event_free};
  return s->on ? ops->record(atl__dev(ctx), &s->event[0]) : 0;
}

int atl__span_stop(atl_context_t ctx, struct atl__span *s, int err, double *ms)
{
  if (!s->on)
    return err;
  const struct atl_backend_ops *ops = atl__ops(ctx);
  if (!err && !(err = ops->record(atl__dev(ctx), &s->event[1])))
    err = ops->elapsed(atl__dev(ctx), s->event[0], s->event[1], ms);
  for (int i = 0; i < 2; i++)
    ops->event_free(atl__dev(ctx), s->event[i]);
  return err;
}
