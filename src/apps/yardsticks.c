/*
 * The two bandwidth yardsticks that every scatter, bincount and histogram run
 * measures beside its variants: the vendor's device-to-device copy
 * (clEnqueueCopyBuffer, cuMemcpyDtoDAsync), the figure users know, and the read
 * ceiling, the best of a few launch shapes of a vector-load kernel that xors
 * every word (read_all in app_count.k.c). atomlab's own copy kernel is not one
 * of them: on an H200 it moved 0.73x the vendor's copy
 * (docs/design/scatter.md), so a ratio against it flattered.
 */
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "yardsticks.h"

/* The read kernel's launch shapes: resident threads times these, best median
 * kept. Oversubscribing hides DRAM latency on GPUs; one wave is best where
 * launches are expensive (PoCL). */
static const unsigned read_waves[] = {1, 2, 4};

struct copy_call {
  atl_context_t ctx;
  void *dst, *src;
  size_t bytes;
};

static int copy_once(void *arg, uint32_t iters, double *ms)
{
  const struct copy_call *c = arg;
  (void)iters;
  return atl__ops(c->ctx)->copy(atl__dev(c->ctx), c->dst, c->src, c->bytes, ms);
}

static int add_row(struct atl_result_set *out, struct atl_row *row, int err, atl_context_t ctx)
{
  if (err && row->status != ATL_STATUS_UNSUPPORTED)
    atl__app_row_status(row, ATL_STATUS_ERROR, "%s", atl_errmsg(ctx));
  if (atl_result_set_add(out, row))
    return ATL_ENOMEM;
  return err == ATL_ENOMEM ? err : 0;
}

/* The vendor's copy of src into scratch: timed, read back and compared with the
 * host's bytes. */
static int run_memcpy(const struct atl__yardstick_call *c, struct atl__yardsticks *y, struct atl_result_set *out)
{
  atl_context_t ctx = c->ctx;
  struct atl_row row;
  char label[96];
  snprintf(label, sizeof label, "%s%smemcpy-ceiling", c->prefix, *c->prefix ? "/" : "");
  atl__app_row_init(&row, c->app, label);
  if (atl__ops(ctx)->copy == NULL) {
    atl__app_row_status(&row, ATL_STATUS_UNSUPPORTED, "the %s backend has no device-to-device copy",
                        atl__ops(ctx)->name);
    return add_row(out, &row, 0, ctx);
  }
  struct copy_call call = {ctx, c->scratch, c->src, c->bytes};
  double warm = 0;
  int err = copy_once(&call, 0, &warm);
  if (!err)
    err = atl__app_sample(copy_once, &call, c->tm, &row.time_ms);
  void *back = err ? NULL : malloc(c->bytes);
  if (!err && back == NULL)
    err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory for %zu bytes", c->bytes);
  if (!err)
    err = atl__ops(ctx)->read(atl__dev(ctx), c->scratch, back, c->bytes);
  if (!err) {
    row.status = ATL_STATUS_OK;
    row.verified = memcmp(back, c->host, c->bytes) == 0;
    if (!row.verified)
      atl__app_row_status(&row, ATL_STATUS_OK, "the copy differs from the source");
    const double t = row.time_ms.median, gbps = t > 0 ? 2.0 * (double)c->bytes / (t * 1e6) : 0;
    atl_row_metric_set(&row, "gbps", gbps);
    atl_row_metric_set(&row, "bytes_moved", 2.0 * (double)c->bytes);
    y->memcpy_gbps = row.verified ? gbps : 0;
    if (y->memcpy_gbps > 0)
      atl_row_metric_set(&row, "ratio_to_memcpy", 1.0);
  }
  free(back);
  return add_row(out, &row, err, ctx);
}

static uint32_t xor_words(const void *host, size_t bytes)
{
  uint32_t x = 0, w;
  for (size_t i = 0; i + 4 <= bytes; i += 4) {
    memcpy(&w, (const char *)host + i, 4);
    x ^= w;
  }
  return x;
}

struct xor_reset {
  void *word;
};

static int reset_xor(atl_context_t ctx, void *arg)
{
  return atl__app_fill32(ctx, ((struct xor_reset *)arg)->word, 0, sizeof(uint32_t));
}

/* The read kernel at each shape of read_waves; the row keeps the fastest
 * shape's statistics. */
static int run_read(const struct atl__yardstick_call *c, struct atl__yardsticks *y, struct atl_result_set *out)
{
  atl_context_t ctx = c->ctx;
  const struct atl_device_info *dev = atl_device_current(ctx);
  const uint32_t wg = c->wg_size;
  struct atl_row row, best;
  void *kernel = NULL, *word = NULL;
  char label[96], defines[64];
  snprintf(label, sizeof label, "%s%sread-ceiling", c->prefix, *c->prefix ? "/" : "");
  atl__app_row_init(&best, c->app, label);
  snprintf(defines, sizeof defines, "ITEMS=1 WG=%u STRATEGY_thread", wg);
  int err = atl__app_alloc(ctx, c->bufs, sizeof(uint32_t), &word);
  if (!err)
    err = atl__app_build(ctx, "app_count", "read_all", defines, &kernel, &best);
  if (err == ATL_ENOTSUP)
    atl__app_row_status(&best, ATL_STATUS_UNSUPPORTED, "%s", atl_errmsg(ctx));
  const uint32_t want = xor_words(c->host, c->bytes / 4 * 4);
  struct xor_reset rx = {word};
  struct atl_arg args[] = {{ATL_ARG_BUFFER, c->src, 0}, {ATL_ARG_U32, NULL, c->bytes / 4}, {ATL_ARG_BUFFER, word, 0}};
  for (size_t s = 0; !err && s < sizeof read_waves / sizeof read_waves[0]; s++) {
    struct atl_launch launch = {atl__app_resident_threads(dev, wg) * read_waves[s], wg, args, 3};
    uint32_t got = 0;
    row = best;
    err = atl__app_time(ctx, kernel, &launch, reset_xor, &rx, c->tm, &row);
    if (!err)
      err = atl__ops(ctx)->read(atl__dev(ctx), word, &got, sizeof got);
    if (err)
      break;
    row.status = ATL_STATUS_OK;
    row.verified = got == want;
    if (!row.verified)
      atl__app_row_status(&row, ATL_STATUS_OK, "xor of the words read is %08x, expected %08x", got, want);
    atl_row_metric_set(&row, "read_groups", (double)(launch.global / wg));
    if (s == 0 || !row.verified || (best.verified && row.time_ms.median < best.time_ms.median))
      best = row;
    if (!row.verified)
      break;
  }
  if (!err) {
    const double t = best.time_ms.median, gbps = t > 0 ? (double)c->bytes / (t * 1e6) : 0;
    atl_row_metric_set(&best, "gbps", gbps);
    atl_row_metric_set(&best, "bytes_moved", (double)c->bytes);
    y->read_gbps = best.verified ? gbps : 0;
    if (y->read_gbps > 0)
      atl_row_metric_set(&best, "ratio_to_read", 1.0);
  }
  return add_row(out, &best, err, ctx);
}

int atl__app_yardsticks(const struct atl__yardstick_call *c, struct atl__yardsticks *y, struct atl_result_set *out)
{
  *y = (struct atl__yardsticks){0, 0};
  int err = run_memcpy(c, y, out);
  if (ATL_APP_GO_ON(err))
    err = run_read(c, y, out);
  return err;
}

void atl__app_yardstick_ratios(struct atl_row *row, const struct atl__yardsticks *y, double bytes)
{
  const double t = row->time_ms.median;
  atl_row_metric_set(row, "bytes_moved", bytes);
  if (t <= 0)
    return;
  if (y->memcpy_gbps > 0)
    atl_row_metric_set(row, "ratio_to_memcpy", bytes / (t * 1e6) / y->memcpy_gbps);
  if (y->read_gbps > 0)
    atl_row_metric_set(row, "ratio_to_read", bytes / (t * 1e6) / y->read_gbps);
}
