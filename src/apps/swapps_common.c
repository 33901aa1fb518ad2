/* What seed 000's applications share: the software atomic's buffers, the grid check and the timed sequence. */
#include <stdlib.h>

#include "app_internal.h"

const char *const atl__sw_variant_names[3] = {"system", "warp", "software"};

int atl__swapps_check(atl_context_t ctx, const struct atl_swapps_params *p, const char *app)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  if (dev == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "no device open");
  if (p->wg_size == 0 || p->wg_size > 256 || p->wg_size > dev->max_wg_size || p->ngroups == 0 ||
      (p->variants & 7u) == 0)
    return atl__seterr(ctx, ATL_EINVAL, "%s: work-group size 1 to 256 (the coordinator's arrays), at least one grid "
                                        "and one variant", app);
  return 0;
}

int atl__sw_sync_alloc(atl_context_t ctx, struct atl__app_buffers *b, const struct atl_swapps_params *p,
                       struct atl__sw_sync *s)
{
  uint32_t most = 2; /* buffers for the refused grids are never used */
  for (unsigned i = 0; i < p->ngroups; i++)
    if (p->groups[i] <= p->coresident && p->groups[i] > most)
      most = p->groups[i];
  s->req_bytes = (size_t)most * ((p->wg_size + 31) / 32) * 8;
  s->fin_bytes = (size_t)most * 4;
  s->aborted = 0;
  int err = atl__app_alloc(ctx, b, s->req_bytes, &s->req);
  if (!err)
    err = atl__app_alloc(ctx, b, s->fin_bytes, &s->finished);
  if (!err)
    err = atl__app_alloc(ctx, b, 4, &s->abort_flag);
  if (!err)
    err = atl__app_fill32(ctx, s->abort_flag, 0, 4);
  return err;
}

int atl__sw_sync_reset(atl_context_t ctx, struct atl__sw_sync *s)
{
  uint32_t flag = 0;
  int err = atl__ops(ctx)->read(atl__dev(ctx), s->abort_flag, &flag, sizeof flag);
  s->aborted |= flag;
  if (!err)
    err = atl__app_fill32(ctx, s->req, 0, s->req_bytes);
  if (!err)
    err = atl__app_fill32(ctx, s->finished, 0, s->fin_bytes);
  if (!err)
    err = atl__app_fill32(ctx, s->abort_flag, 0, 4);
  return err;
}

uint32_t atl__sw_cap(atl_context_t ctx, void *kernel, const struct atl_swapps_params *p)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  const struct atl_device_info *dev = atl_device_current(ctx);
  unsigned est = 0;
  char method[160];
  if (dev->type == ATL_DEVICE_CPU)
    return p->coresident; /* a CPU's estimate is one group per core, a guess the test hook overrides */
  if (ops->occupancy_estimate && ops->occupancy_estimate(atl__dev(ctx), kernel, p->wg_size, &est, method,
                                                         sizeof method) == 0 && est > 0 && est < p->coresident)
    return est;
  return p->coresident;
}

int atl__sw_grid_refused(const struct atl_swapps_params *p, uint32_t cap, uint32_t groups, struct atl_app_row *row)
{
  atl_app_metric_set(row, "workgroups", groups);
  if (groups >= 2 && groups <= cap)
    return 0;
  atl__app_row_status(row, ATL_STATUS_ERROR,
                      "%u work-groups refused: the software atomic needs a co-resident grid of 2 to %u "
                      "(occupancy discovery found %u at %u work-items%s; one is the coordinator)",
                      groups, cap, p->coresident, p->wg_size,
                      cap < p->coresident ? ", this kernel's occupancy estimate fewer" : "");
  return 1;
}

void atl__sw_args(struct atl_arg *args, const struct atl__sw_sync *s, const struct atl_app_timing *tm)
{
  args[0] = (struct atl_arg){ATL_ARG_BUFFER, s->req, 0};
  args[1] = (struct atl_arg){ATL_ARG_BUFFER, s->finished, 0};
  args[2] = (struct atl_arg){ATL_ARG_BUFFER, s->abort_flag, 0};
  args[3] = (struct atl_arg){ATL_ARG_U32, NULL, tm->spin_bound};
}

int atl__sw_time(atl_context_t ctx, void *const *kernels, const struct atl_launch *launches, unsigned n,
                 atl__app_reset_fn reset, void *reset_arg, struct atl__sw_sync *s, const struct atl_app_timing *tm,
                 struct atl_app_row *row)
{
  const struct atl_backend_ops *ops = atl__ops(ctx);
  const unsigned samples = tm->samples ? tm->samples : 1;
  double *ms = malloc(samples * sizeof *ms);
  uint32_t flag = 0;
  int err = 0;
  if (ms == NULL)
    return ATL_ENOMEM;
  s->aborted = 0;
  for (unsigned i = 0; i <= samples && !err; i++) { /* i == 0: the warm-up, not kept */
    double sum = 0;
    if ((err = reset(ctx, reset_arg)))
      break;
    for (unsigned k = 0; k < n && !err; k++) {
      double one = 0;
      err = ops->launch(atl__dev(ctx), kernels[k], &launches[k], &one);
      sum += one;
    }
    if (i)
      ms[i - 1] = sum;
  }
  if (!err)
    err = ops->read(atl__dev(ctx), s->abort_flag, &flag, sizeof flag);
  if (!err)
    atl_stats_compute(ms, samples, &row->time_ms);
  free(ms);
  if (err) {
    atl__app_row_status(row, ATL_STATUS_ERROR, "%s", atl_errmsg(ctx));
    return err;
  }
  if (flag || s->aborted) {
    atl__app_row_status(row, ATL_STATUS_DEADLOCK, "a wait passed spin_bound %u polls and was abandoned",
                        tm->spin_bound);
    return 1;
  }
  return 0;
}
