/* What seed 000's applications share: the software atomic's buffers, the grid check and the timed sequence. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

/* Its registry entry, at the end of this file: the run checks its params with the entry's check. */
extern const struct atl_app_info atl__app_swapps;

const char *const atl__sw_variant_names[3] = {"system", "warp", "software"};

int atl__sw_grid_check(const struct atl_device_info *d, uint32_t wg, const uint32_t *groups, unsigned ngroups,
                       unsigned variants, char *why, size_t len)
{
  if (wg == 0 || wg > 256 || wg > d->max_wg_size)
    return atl__app_why(why, len, "wg_size %u is not allowed: 1 to %u (the coordinator's local arrays)", wg,
                        d->max_wg_size < 256 ? (unsigned)d->max_wg_size : 256);
  if (ngroups > ATL__SW_MAX_GRIDS || (ngroups && groups == NULL))
    return atl__app_why(why, len, "groups: %u grids are not allowed: 0 (the defaults) to %d", ngroups,
                        ATL__SW_MAX_GRIDS);
  for (unsigned i = 0; i < ngroups; i++)
    if (groups[i] < 2 || groups[i] > 65535)
      return atl__app_why(why, len, "groups %u is not allowed: 2 to 65535 work-groups (one is the coordinator)",
                          groups[i]);
  if ((variants & 7u) == 0 || (variants & ~7u))
    return atl__app_why(why, len, "variants 0x%x is not allowed: a set of system, warp, software", variants);
  return 0;
}

int atl__sw_grids(atl_context_t ctx, uint32_t wg, uint32_t first, uint32_t *coresident, const uint32_t **groups,
                  unsigned *ngroups, uint32_t *buf)
{
  const struct atl_device_info *d = atl_device_current(ctx);
  if (*coresident == 0) {
    struct atl_occupancy occ;
    int err = atl_occupancy_discover(ctx, wg, &occ);
    if (err)
      return err;
    *coresident = occ.discovered;
  }
  if (*ngroups)
    return 0;
  unsigned n = 0;
  /* GPUs: a doubling ladder shows how the software atomic scales; CPUs run few work-groups at a time. */
  if (d->type != ATL_DEVICE_CPU)
    for (uint32_t g = first; g < *coresident && n < ATL__SW_MAX_GRIDS - 1; g *= 2)
      buf[n++] = g;
  buf[n++] = *coresident;
  *groups = buf;
  *ngroups = n;
  return 0;
}

int atl__swapps_check(atl_context_t ctx, const struct atl_swapps_params *p, const char *app)
{
  struct atl_swapps_params q = *p;
  q.apps = strcmp(app, "dot") == 0 ? 1u : strcmp(app, "strmatch") == 0 ? 2u : 4u; /* check this app's inputs only */
  int err = atl__app_checked(ctx, &atl__app_swapps, &q);
  if (err == 0 && (p->ngroups == 0 || p->coresident == 0)) /* the registry's run fills them for all three */
    err = atl__seterr(ctx, ATL_EINVAL, "%s: groups and coresident must be given (the registry's swapps finds them)",
                      app);
  return err;
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

int atl__sw_grid_refused(const struct atl_swapps_params *p, uint32_t cap, uint32_t groups, struct atl_row *row)
{
  atl_row_metric_set(row, "workgroups", groups);
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
                 struct atl_row *row)
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

static const uint32_t gpu_matmul[] = {8, 32, 128, 256, 512}, cpu_matmul[] = {8, 32, 64};
static const uint32_t gpu_kmeans[] = {512, 2048, 8192, 131072, 1048576}, cpu_kmeans[] = {512, 2048, 8192};

static void swapps_defaults(const struct atl_device_info *d, void *params)
{
  struct atl_swapps_params *p = params;
  if (d == NULL) {
    p->apps = 7;
    p->variants = 7;
    return;
  }
  const int cpu = d->type == ATL_DEVICE_CPU;
  if (p->wg_size == 0)
    p->wg_size = atl__app_default_wg(d, 0);
  if (p->dot_elements == 0)
    p->dot_elements = cpu ? 1u << 20 : 1u << 24;
  /* CPUs: the MapReduce sizes PoCL finishes in seconds; GPUs: up to where the single pass pays off. */
  if (p->nmatmul == 0) {
    p->matmul_n = cpu ? cpu_matmul : gpu_matmul;
    p->nmatmul = cpu ? 3 : 5;
  }
  if (p->nkmeans == 0) {
    p->kmeans_points = cpu ? cpu_kmeans : gpu_kmeans;
    p->nkmeans = cpu ? 3 : 5;
  }
}

static int swapps_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct atl_swapps_params *p = params;
  int err = atl__sw_grid_check(d, p->wg_size, p->groups, p->ngroups, p->variants, why, len);
  if (err)
    return err;
  if (p->apps == 0 || (p->apps & ~7u))
    return atl__app_why(why, len, "apps 0x%x is not allowed: a set of dot, strmatch, mapreduce", p->apps);
  if ((p->apps & 1u) && p->dot_elements == 0)
    return atl__app_why(why, len, "dot_elements 0 is not allowed: at least one element");
  if ((p->apps & 2u) && (p->text == NULL || p->text_bytes == 0))
    return atl__app_why(why, len, "text is not allowed empty: string match needs a text");
  if ((p->apps & 2u) && (p->nkeywords == 0 || p->nkeywords > 4 || p->keywords == NULL))
    return atl__app_why(why, len, "keywords: %u are not allowed: 1 to 4", p->nkeywords);
  for (unsigned i = 0; (p->apps & 4u) && i < p->nmatmul; i++)
    if (p->matmul_n[i] == 0 || p->matmul_n[i] > 4096)
      return atl__app_why(why, len, "matmul %u is not allowed: 1 to 4096", p->matmul_n[i]);
  for (unsigned i = 0; (p->apps & 4u) && i < p->nkmeans; i++)
    if (p->kmeans_points[i] == 0 || p->kmeans_points[i] > 1u << 26)
      return atl__app_why(why, len, "kmeans %u is not allowed: 1 to 2^26 points", p->kmeans_points[i]);
  return 0;
}

/* The three applications in order, on the grids resolved once (occupancy discovery is not repeated). */
static int swapps_run(atl_context_t ctx, const void *params, const struct atl_app_timing *tm,
                      struct atl_result_set *out)
{
  int (*const fns[])(atl_context_t, const struct atl_swapps_params *, const struct atl_app_timing *,
                     struct atl_result_set *) = {atl_app_swdot, atl_app_swstrmatch, atl_app_swmapreduce};
  struct atl_swapps_params q = *(const struct atl_swapps_params *)params;
  uint32_t grids[ATL__SW_MAX_GRIDS];
  int err = atl__app_checked(ctx, &atl__app_swapps, &q);
  if (err == 0)
    err = atl__sw_grids(ctx, q.wg_size, 2, &q.coresident, &q.groups, &q.ngroups, grids);
  for (unsigned a = 0; a < 3 && ATL_APP_GO_ON(err); a++)
    if (q.apps & (1u << a))
      err = fns[a](ctx, &q, tm, out);
  return err;
}

static const char *const swapps_names[] = {"wg_size", "groups", "variants", "apps", "dot_elements", "text",
                                           "keywords", "matmul", "kmeans", NULL};
const struct atl_app_info atl__app_swapps = {
    .name = "swapps",
    .summary = "seed 000: scalar product, string match and MapReduce on system / warp / software atomics",
    .params_size = sizeof(struct atl_swapps_params),
    .wg_offset = offsetof(struct atl_swapps_params, wg_size),
    .params = swapps_names,
    .defaults = swapps_defaults,
    .check = swapps_check,
    .run = swapps_run,
};
