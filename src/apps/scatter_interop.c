/*
 * The library's buffers over a program's own memory, and its scatter-add's entry, which times the operation
 * with two events on a program's stream or queue (include/atomlab/context.h) instead of waiting for each
 * launch, and keeps the scratch in the context's buffer slots.
 */
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "scatter_launch.h"
#include "scatter_lib.h"

/* A handle over the program's memory @p native, of @p bytes (0: the size the API reports). */
static int wrap(atl_context_t ctx, void *native, size_t bytes, atl_buffer_t *out)
{
  if (ctx == NULL || out == NULL)
    return ATL_EINVAL;
  *out = NULL;
  const struct atl_backend_ops *ops = atl__ops(ctx);
  if (ops == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "buffer: no device open");
  if (ops->wrap == NULL)
    return atl__seterr(ctx, ATL_ENOTSUP, "buffer: the %s backend cannot take a program's memory", ops->name);
  struct atl_buffer *b = calloc(1, sizeof *b);
  if (b == NULL)
    return atl__seterr(ctx, ATL_ENOMEM, "buffer: out of host memory");
  int err = ops->wrap(atl__dev(ctx), native, &bytes, &b->handle);
  if (err) {
    free(b);
    return err;
  }
  b->bytes = bytes, b->wrapped = 1, b->ctx = ctx, b->opened = ctx->opened;
  b->next = ctx->buffers; /* on the device's list, as atl_buffer_new's: the checks know it, a close releases it */
  if (b->next)
    b->next->prev = b;
  ctx->buffers = b;
  *out = b;
  return 0;
}

int atl_buffer_wrap_cuda(atl_context_t ctx, uint64_t cu_ptr, size_t bytes, atl_buffer_t *out)
{
  const struct atl_device_info *dev = ctx ? atl_device_current(ctx) : NULL;
  if (dev && !dev->kernels_cuda_c)
    return atl__seterr(ctx, ATL_EINVAL, "buffer: a CUDA pointer on a %s device", dev->backend);
  if (ctx && cu_ptr == 0)
    return atl__seterr(ctx, ATL_EINVAL, "buffer: the CUDA pointer is 0");
  return wrap(ctx, (void *)(uintptr_t)cu_ptr, bytes, out);
}

int atl_buffer_wrap_opencl(atl_context_t ctx, void *cl_mem, atl_buffer_t *out)
{
  const struct atl_backend_ops *ops = ctx ? atl__ops(ctx) : NULL;
  if (ops && strcmp(ops->name, "opencl") != 0)
    return atl__seterr(ctx, ATL_EINVAL, "buffer: a cl_mem on a %s device", ops->name);
  return wrap(ctx, cl_mem, 0, out);
}

size_t atl_buffer_bytes(atl_buffer_t buf) { return buf ? buf->bytes : 0; }

void atl__buffer_unwrap(atl_context_t ctx, atl_buffer_t buf)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  if (ops && ops->unwrap)
    ops->unwrap(atl__dev(ctx), buf->handle);
}

int atl_scatter_add(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t out, atl_buffer_t src,
                    atl_buffer_t idx, double *device_ms)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  /* on a program's stream the launches do not wait, so they have no times of their own: two events do */
  struct atl__span span;
  int err = atl__span_start(ctx, &span, ctx->external && device_ms);
  ctx->app_slot = ATL__SCATTER_SLOTS; /* the slots after the ones the call names */
  if (!err)
    err = atl__scatter_add_now(ctx, d, out, src, idx, device_ms);
  ctx->app_slot = 0;
  return atl__span_stop(ctx, &span, err, device_ms);
}

#define ONES_SLOT (ATL__DEVICE_BUFFER_SLOTS - 1) /* the counts' ones: past the slots of the scatter's scratch */

int atl_bincount(atl_context_t ctx, const struct atl_scatter_desc *d, atl_buffer_t out, atl_buffer_t weights,
                 atl_buffer_t idx, double *device_ms)
{
  if (ctx == NULL)
    return ATL_EINVAL;
  if (d == NULL)
    return atl__seterr(ctx, ATL_EINVAL, "bincount: a descriptor is needed");
  if (atl__ops(ctx) == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "bincount: no device open");
  struct atl_scatter_desc one = *d;
  one.dim = 1;
  if (weights)
    return atl_scatter_add(ctx, &one, out, weights, idx, device_ms);
  if (d->type != ATL_SCATTER_U32 && d->type != ATL_SCATTER_I32)
    return atl__seterr(ctx, ATL_EINVAL, "bincount: type %d is not allowed for counts: u32 or i32", (int)d->type);
  if (d->rows < 1 || d->rows > UINT32_MAX)
    return atl__seterr(ctx, ATL_EINVAL, "bincount: rows %llu is not allowed: 1 to 2^32 - 1",
                       (unsigned long long)d->rows);
  struct atl_buffer ones = {.bytes = (size_t)d->rows * 4, .ctx = ctx, .opened = ctx->opened};
  int err = atl__device_buffer(ctx, ONES_SLOT, ones.bytes, &ones.handle);
  if (!err)
    err = atl__app_fill32(ctx, ones.handle, 1, ones.bytes);
  return err ? err : atl_scatter_add(ctx, &one, out, &ones, idx, device_ms);
}
