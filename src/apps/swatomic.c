/*
 * Seed 000: the software atomic add (device/atomlab/atomics.{clh,cuh})
 * against the system atomic and warp aggregation, micro-benchmark 1 (atomic
 * only), on a co-resident grid. Each row is timed, then one launch records
 * every old value: per word they must be exactly 0 .. n-1 in some order,
 * and the words must end at n.
 */
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "core/strategy_internal.h"

static const char *const variant_names[] = {"system", "warp", "software"};

struct sw_run {
  void *mem, *olds, *req, *finished, *abort_flag;
  size_t mem_bytes, req_bytes, fin_bytes;
  uint32_t aborted;
};

static int reset(atl_context_t ctx, void *arg)
{
  struct sw_run *r = arg;
  uint32_t flag = 0;
  int err = atl__ops(ctx)->read(atl__dev(ctx), r->abort_flag, &flag, sizeof flag);
  r->aborted |= flag;
  if (!err)
    err = atl__app_fill32(ctx, r->mem, 0, r->mem_bytes);
  if (!err)
    err = atl__app_fill32(ctx, r->req, 0, r->req_bytes);
  if (!err)
    err = atl__app_fill32(ctx, r->finished, 0, r->fin_bytes);
  if (!err)
    err = atl__app_fill32(ctx, r->abort_flag, 0, 4);
  return err;
}

/* Checks the recorded old values and the final words; 0 if exact, else a reason in @p why. */
static int verify(const struct atl_swatomic_params *p, uint32_t groups, const uint32_t *olds, const uint32_t *mem,
                  char *why, size_t why_len)
{
  const uint64_t items = (uint64_t)(groups - 1) * p->wg_size, n = items * p->iters;
  struct atl__old_record *rec = malloc((n ? n : 1) * sizeof *rec);
  uint64_t *counts = calloc(p->targets, sizeof *counts);
  int bad = 0;
  size_t k = 0;
  if (rec == NULL || counts == NULL) {
    snprintf(why, why_len, "out of host memory");
    bad = 1;
    goto out;
  }
  for (uint64_t i = 0; i < n; i++) {
    const uint64_t gid = i % items;
    const int part = !p->divergent || gid % 3 != 1;
    if (!part) {
      if (olds[i] != 0xffffffffu && !bad++)
        snprintf(why, why_len, "work-item %llu sat out but recorded %u", (unsigned long long)gid, olds[i]);
      continue;
    }
    rec[k].word = (uint32_t)(gid % p->targets);
    rec[k++].value = olds[i];
    counts[gid % p->targets]++;
  }
  if (bad)
    goto out;
  struct atl__strategy_op o = {0, 0, 1}; /* add 1 from 0 */
  if (atl__strategy_check_olds(&o, rec, k, counts, p->targets, why, why_len)) {
    bad = 1;
    goto out;
  }
  for (uint32_t w = 0; w < p->targets; w++)
    if (mem[w] != (uint32_t)counts[w]) {
      snprintf(why, why_len, "word %u ended at %u, expected %llu", w, mem[w], (unsigned long long)counts[w]);
      bad = 1;
      break;
    }
out:
  free(rec);
  free(counts);
  return bad;
}

static int run_row(atl_context_t ctx, const struct atl_swatomic_params *p, const struct atl_app_timing *tm,
                   struct sw_run *r, void *kernel, unsigned variant, uint32_t groups, struct atl_app_set *out)
{
  struct atl_app_row row;
  uint32_t *olds = NULL, *mem = NULL, aborted = 0;
  const uint64_t items = (uint64_t)(groups - 1) * p->wg_size;
  const size_t olds_bytes = (size_t)(items * p->iters * 4);
  int err = 0;
  atl__app_row_init(&row, "swatomic", variant_names[variant]);
  atl_app_metric_set(&row, "workgroups", groups);
  atl_app_metric_set(&row, "targets", p->targets);
  atl_app_metric_set(&row, "divergent", p->divergent);
  if (groups < 2 || groups > p->coresident) {
    atl__app_row_status(&row, ATL_STATUS_ERROR,
                        "%u work-groups refused: the software atomic needs a co-resident grid of 2 to %u "
                        "(occupancy discovery at %u work-items; one is the coordinator)",
                        groups, p->coresident, p->wg_size);
    return atl_app_set_add(out, &row) ? ATL_ENOMEM : 0;
  }
  struct atl_arg args[] = {{ATL_ARG_BUFFER, r->mem, 0},        {ATL_ARG_U32, NULL, p->targets},
                           {ATL_ARG_U32, NULL, p->iters},       {ATL_ARG_U32, NULL, variant},
                           {ATL_ARG_U32, NULL, p->divergent},   {ATL_ARG_U32, NULL, 0},
                           {ATL_ARG_BUFFER, r->olds, 0},        {ATL_ARG_BUFFER, r->req, 0},
                           {ATL_ARG_BUFFER, r->finished, 0},    {ATL_ARG_BUFFER, r->abort_flag, 0},
                           {ATL_ARG_U32, NULL, tm->spin_bound}};
  struct atl_launch launch = {(size_t)groups * p->wg_size, p->wg_size, args, 11};
  r->aborted = 0;
  if ((olds = malloc(olds_bytes ? olds_bytes : 4)) == NULL || (mem = malloc(r->mem_bytes)) == NULL) {
    err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
    goto out;
  }
  if ((err = atl__app_fill32(ctx, r->abort_flag, 0, 4)))
    goto fail;
  if ((err = atl__app_time(ctx, kernel, &launch, reset, r, tm, &row)))
    goto fail;
  if ((err = atl__ops(ctx)->read(atl__dev(ctx), r->abort_flag, &aborted, 4)))
    goto fail;
  /* the verification launch records every old value */
  args[5].value = 1;
  double ms = 0;
  if ((err = reset(ctx, r)) || (err = atl__ops(ctx)->launch(atl__dev(ctx), kernel, &launch, &ms)))
    goto fail;
  if ((err = atl__ops(ctx)->read(atl__dev(ctx), r->abort_flag, &aborted, 4)) ||
      (err = atl__ops(ctx)->read(atl__dev(ctx), r->olds, olds, olds_bytes)) ||
      (err = atl__ops(ctx)->read(atl__dev(ctx), r->mem, mem, r->mem_bytes)))
    goto fail;
  if (aborted || r->aborted) {
    atl__app_row_status(&row, ATL_STATUS_DEADLOCK, "a wait passed --spin-bound %u polls and was abandoned",
                        tm->spin_bound);
    goto out;
  }
  char why[256] = "";
  row.status = ATL_STATUS_OK;
  row.verified = !verify(p, groups, olds, mem, why, sizeof why);
  if (!row.verified)
    atl__app_row_status(&row, ATL_STATUS_OK, "verification failed: %s", why);
  const double ops = (double)items * p->iters * (p->divergent ? 2.0 / 3.0 : 1.0);
  atl_app_metric_set(&row, "atomics", ops);
  if (row.time_ms.median > 0)
    atl_app_metric_set(&row, "matomics_per_s", ops / (row.time_ms.median * 1e3));
  goto out;
fail:
  atl__app_row_status(&row, ATL_STATUS_ERROR, "%s", atl_errmsg(ctx));
out:
  free(olds);
  free(mem);
  if (atl_app_set_add(out, &row))
    return ATL_ENOMEM;
  return err == ATL_ENOMEM ? err : 0;
}

int atl_app_swatomic(atl_context_t ctx, const struct atl_swatomic_params *p, const struct atl_app_timing *tm,
                     struct atl_app_set *out)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  struct atl__app_buffers bufs = {{0}, 0};
  struct sw_run r = {0};
  void *kernel = NULL;
  int err = 0;
  if (dev == NULL)
    return atl__seterr(ctx, ATL_ENODEV, "no device open");
  if (p->wg_size == 0 || p->wg_size > 256 || p->wg_size > dev->max_wg_size || p->ngroups == 0 || p->targets == 0 ||
      p->iters == 0)
    return atl__seterr(ctx, ATL_EINVAL, "swatomic: work-group size 1 to 256 (the coordinator's arrays), "
                                        "at least one grid, target and iteration");
  uint32_t most = 0;
  for (unsigned i = 0; i < p->ngroups; i++)
    if (p->groups[i] <= p->coresident && p->groups[i] > most)
      most = p->groups[i];
  if (most < 2)
    most = 2; /* buffers for the refused rows are never used */
  const uint64_t items = (uint64_t)(most - 1) * p->wg_size;
  r.mem_bytes = (size_t)p->targets * 4;
  r.req_bytes = (size_t)most * ((p->wg_size + 31) / 32) * 8;
  r.fin_bytes = (size_t)most * 4;
  struct atl_app_row brow;
  atl__app_row_init(&brow, "swatomic", "build");
  if ((err = atl__app_alloc(ctx, &bufs, r.mem_bytes, &r.mem)) ||
      (err = atl__app_alloc(ctx, &bufs, (size_t)(items * p->iters * 4), &r.olds)) ||
      (err = atl__app_alloc(ctx, &bufs, r.req_bytes, &r.req)) ||
      (err = atl__app_alloc(ctx, &bufs, r.fin_bytes, &r.finished)) ||
      (err = atl__app_alloc(ctx, &bufs, 4, &r.abort_flag)))
    goto out;
  if ((err = atl__app_build(ctx, "app_swatomic", "swatomic", "ATL_WAVEFRONT=32 ATL_MAX_GROUPS=8", &kernel, &brow))) {
    atl__app_row_status(&brow, ATL_STATUS_ERROR, "kernel build failed: %s", atl_errmsg(ctx));
    err = atl_app_set_add(out, &brow) ? ATL_ENOMEM : 0;
    goto out;
  }
  for (unsigned i = 0; i < p->ngroups && !err; i++)
    for (unsigned v = 0; v < 3 && !err; v++)
      if (p->variants & (1u << v))
        err = run_row(ctx, p, tm, &r, kernel, v, p->groups[i], out);
out:
  atl__app_free_all(ctx, &bufs);
  return err;
}
