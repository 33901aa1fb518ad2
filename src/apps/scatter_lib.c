/*
 * The library's scatter-add (include/atomlab/scatter.h): the app's kernels without the measurement. The
 * atomic mode is the run variant (runs of equal consecutive keys summed in registers first: the best or
 * near it on every distribution the app measures on the H100, docs/scatter.md); the deterministic mode is
 * the det variant's passes (scatter_det.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "atomlab/scatter.h"
#include "scatter_det.h"

struct atl_buffer {
  void *handle; /* the backend's */
  size_t bytes;
};

int atl_buffer_new(atl_context_t ctx, size_t bytes, atl_buffer_t *out)
{
  if (ctx == NULL || out == NULL)
    return ATL_EINVAL;
  *out = NULL;
  if (atl_device_current(ctx) == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "buffer: no device open");
  struct atl_buffer *b = calloc(1, sizeof *b);
  if (b == NULL)
    return atl__seterr(ctx, ATL_ENOMEM, "buffer: out of host memory");
  int err = atl__ops(ctx)->alloc(atl__dev(ctx), bytes ? bytes : 4, &b->handle);
  if (err) {
    free(b);
    return err;
  }
  b->bytes = bytes;
  *out = b;
  return 0;
}

static int transfer_check(atl_context_t ctx, atl_buffer_t buf, const void *host, size_t bytes)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  if (buf == NULL || host == NULL || bytes > buf->bytes)
    return atl__seterr(ctx, ATL_EINVAL, "buffer: %zu bytes do not fit a buffer of %zu (or no buffer or host memory)",
                       bytes, buf ? buf->bytes : 0);
  return 0;
}

int atl_buffer_write(atl_context_t ctx, atl_buffer_t buf, const void *host, size_t bytes)
{
  const int err = transfer_check(ctx, buf, host, bytes);
  return err ? err : atl__ops(ctx)->write(atl__dev(ctx), buf->handle, host, bytes);
}

int atl_buffer_read(atl_context_t ctx, atl_buffer_t buf, void *host, size_t bytes)
{
  const int err = transfer_check(ctx, buf, host, bytes);
  return err ? err : atl__ops(ctx)->read(atl__dev(ctx), buf->handle, host, bytes);
}

void atl_buffer_free(atl_context_t ctx, atl_buffer_t buf)
{
  if (ctx && buf)
    atl__ops(ctx)->free(atl__dev(ctx), buf->handle);
  free(buf);
}

static const char *const type_defines[] = {"TYPE_f32", "TYPE_u32", "TYPE_i32", "TYPE_bf16", "TYPE_f16"};

/* The descriptor against the buffers: a one-line reason naming the field, else 0. */
static int scatter_checked(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t out, atl_buffer_t src,
                           atl_buffer_t idx)
{
  if (d == NULL || out == NULL || src == NULL || idx == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "scatter_add: a descriptor and three buffers are needed");
  if ((unsigned)d->type > ATL_SCATTER_F16)
    return atl__seterr(ctx, ATL_EINVAL, "scatter_add: type %d is not allowed: f32, u32, i32, bf16 or f16",
                       (int)d->type);
  if (d->index_bytes != 4 && d->index_bytes != 8)
    return atl__seterr(ctx, ATL_EINVAL, "scatter_add: index_bytes %u is not allowed: 4 or 8", d->index_bytes);
  if (d->dim < 1 || d->dim > 512)
    return atl__seterr(ctx, ATL_EINVAL, "scatter_add: dim %u is not allowed: 1 to 512", d->dim);
  if (d->rows < 1 || d->rows > UINT32_MAX || d->targets < 1 || d->targets > UINT32_MAX)
    return atl__seterr(ctx, ATL_EINVAL, "scatter_add: rows %llu and targets %llu are not allowed: 1 to 2^32 - 1",
                       (unsigned long long)d->rows, (unsigned long long)d->targets);
  const uint64_t es = d->type >= ATL_SCATTER_BF16 ? 2 : 4;
  if (src->bytes < d->rows * d->dim * es || out->bytes < d->targets * d->dim * es ||
      idx->bytes < d->rows * d->index_bytes)
    return atl__seterr(ctx, ATL_EINVAL, "scatter_add: a buffer is smaller than rows, targets and dim say (src %zu, "
                       "out %zu, idx %zu bytes)", src->bytes, out->bytes, idx->bytes);
  return 0;
}

int atl_scatter_add(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t out, atl_buffer_t src,
                    atl_buffer_t idx, double *device_ms)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  const struct atl_device_info *dev = atl_device_current(ctx);
  if (dev == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "scatter_add: no device open");
  int err = scatter_checked(ctx, d, out, src, idx);
  if (err)
    return err;
  uint32_t wg = atl__app_default_wg(dev, 1);
  if (wg < 32)
    return atl__seterr(ctx, ATL_ENOTSUP, "scatter_add: %s allows work-groups of %zu, fewer than a warp (32)",
                       dev->name, dev->max_wg_size);
  if (d->deterministic) {
    struct atl__app_buffers scratch = {{0}, 0};
    struct atl__scatter_det det = {.rows = d->rows, .targets = d->targets, .dim = d->dim, .wg = wg,
                                   .src = src->handle, .idx = idx->handle, .out = out->handle};
    err = atl__scatter_det_prepare(ctx, &scratch, &det, type_defines[d->type], d->index_bytes, NULL);
    if (!err)
      err = atl__scatter_det_launch(ctx, &det, device_ms, NULL, NULL);
    atl__app_free_all(ctx, &scratch);
    return err;
  }
  const uint32_t rows_per_warp = 32;
  char defines[160];
  void *kernel = NULL;
  snprintf(defines, sizeof defines, "D=%u %s IDX_T=%s VARIANT_run SLOTS=1u BLOCK_ROWS=1u", d->dim,
           type_defines[d->type], d->index_bytes == 8 ? "ulong" : "uint");
  if ((err = atl__app_build(ctx, "app_scatter", "scatter_add", defines, &kernel, NULL)))
    return err;
  const uint64_t threads = (d->rows + rows_per_warp - 1) / rows_per_warp * 32;
  struct atl_arg args[] = {{ATL_ARG_BUFFER, src->handle, 0},
                           {ATL_ARG_BUFFER, idx->handle, 0},
                           {ATL_ARG_BUFFER, out->handle, 0},
                           {ATL_ARG_U64, NULL, d->rows},
                           {ATL_ARG_U32, NULL, rows_per_warp}};
  struct atl_launch launch = {(size_t)((threads + wg - 1) / wg * wg), wg, args, 5};
  double ms = 0;
  err = atl__ops(ctx)->launch(atl__dev(ctx), kernel, &launch, &ms);
  if (!err && device_ms)
    *device_ms = ms;
  return err;
}
