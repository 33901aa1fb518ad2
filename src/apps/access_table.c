/*
 * Seed 004's "atomic access patterns" slide as a table. The rmw benchmark
 * already measures these configurations (contiguous pattern, contention,
 * padding), so each row is one atl_rmw_run() rather than a new kernel:
 *
 *   same-address  every thread of a smaller grid on one word (same_address_threads;
 *                 a CAS loop there costs attempts in proportion to the contending
 *                 threads, so a full grid on one word would take seconds per launch)
 *   same-line     each thread its own word, neighbours adjacent (contention 1, padding 1)
 *   scattered     each thread its own 128-byte line       (contention 1, padding 128 / word size)
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "app_internal.h"

/* Its registry entry, at the end of this file: the run checks its params with the entry's check. */
extern const struct atl_app_info atl__app_access_table;
#include "atomlab/rmw.h"

static const char *const configs[] = {"same-address", "same-line", "scattered"};

/* One op in one configuration as an app row (the rmw row's timing, status and instructions). */
static int measure(atl_context_t ctx, const struct atl_spec *s, const struct atl_timing *timing, int k,
                   struct atl_result_set *out)
{
  struct atl_row row;
  struct atl_row ar;
  int err = atl_rmw_run(ctx, s, timing, &row);
  if (err)
    return atl__seterr(ctx, err, "access-table: out of host memory while measuring");
  char variant[64];
  snprintf(variant, sizeof variant, "%s/%s", atl_op_name(s->op), configs[k]);
  atl__app_row_init(&ar, "access-table", variant);
  ar.status = row.status;
  ar.verified = row.verified;
  ar.time_ms = row.time_ms;
  snprintf(ar.reason, sizeof ar.reason, "%s", row.reason);
  snprintf(ar.instructions, sizeof ar.instructions, "%s", row.instructions);
  atl_row_metric_set(&ar, "gops", atl_row_metric(&row, "gops", 0));
  atl_row_metric_set(&ar, "contention", s->contention);
  atl_row_metric_set(&ar, "padding", s->padding);
  atl_row_metric_set(&ar, "threads", (double)s->wg_size * s->workgroups);
  atl_row_metric_set(&ar, "iters", atl_row_metric(&row, "iters", 0));
  atl_row_release(&row);
  if (atl_result_set_add(out, &ar) != 0)
    return atl__seterr(ctx, ATL_ENOMEM, "access-table: out of host memory");
  return 0;
}

int atl_app_access_table(atl_context_t ctx, const struct atl_access_params *p, const struct atl_app_timing *tm,
                         struct atl_result_set *out)
{
  int err = atl__app_checked(ctx, &atl__app_access_table, p);
  if (err)
    return err;
  const struct atl_device_info *dev = atl_device_current(ctx);
  uint32_t workgroups = p->workgroups;
  if (workgroups == 0) {
    struct atl_occupancy occ;
    if ((err = atl_occupancy_discover(ctx, p->wg_size, &occ)) != 0)
      return err;
    workgroups = occ.discovered;
    if (dev->type == ATL_DEVICE_CPU && occ.estimated > workgroups)
      workgroups = occ.estimated; /* CPU runtimes run work-groups one after another (see cmd-rmw.c) */
  }
  /* The app's sample count bounds the rmw's noise-driven sampling; 1 s per row keeps a full table short. */
  struct atl_timing timing;
  atl_timing_defaults(&timing);
  timing.target_ms = p->target_ms;
  timing.min_samples = tm->samples < 3 ? tm->samples : 3;
  timing.max_samples = tm->samples;
  timing.budget_s = 1;
  const uint32_t esize = (uint32_t)atl_type_size((enum atl_type)p->type);
  uint32_t same_groups = (p->same_address_threads + p->wg_size - 1) / p->wg_size;
  if (same_groups > workgroups)
    same_groups = workgroups;
  for (unsigned i = 0; i < p->nops && ATL_APP_GO_ON(err); i++)
    for (int k = 0; k < 3 && ATL_APP_GO_ON(err); k++) {
      struct atl_spec s = {.op = (enum atl_op)p->ops[i],
                           .type = (enum atl_type)p->type,
                           .space = ATL_SPACE_GLOBAL,
                           .pattern = ATL_PATTERN_CONTIGUOUS,
                           .result = ATL_RESULT_UNUSED,
                           .contention = k == 0 ? same_groups * p->wg_size : 1,
                           .padding = k == 2 ? 128 / esize : 1,
                           .wg_size = p->wg_size,
                           .workgroups = k == 0 ? same_groups : workgroups};
      err = measure(ctx, &s, &timing, k, out);
    }
  return err;
}

static void access_defaults(const struct atl_device_info *d, void *params)
{
  struct atl_access_params *p = params;
  if (d == NULL) {
    p->nops = 0;
    for (int op = 0; op < ATL_OP_PLAIN_ADD; op++) /* every op but the non-atomic control */
      p->ops[p->nops++] = op;
    p->type = ATL_TYPE_U32;
    p->same_address_threads = 1024;
    p->target_ms = 5;
    return;
  }
  if (p->wg_size == 0)
    p->wg_size = atl__app_default_wg(d, 0);
}

static int access_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct atl_access_params *p = params;
  if (p->wg_size == 0 || p->wg_size > d->max_wg_size)
    return atl__app_why(why, len, "wg_size %u is not allowed: 1 to %zu on %s", p->wg_size, d->max_wg_size, d->name);
  if (p->nops == 0 || p->nops > ATL_ACCESS_MAX_OPS)
    return atl__app_why(why, len, "op: %u ops are not allowed: 1 to %d", p->nops, ATL_ACCESS_MAX_OPS);
  for (unsigned i = 0; i < p->nops; i++)
    if (p->ops[i] < 0 || p->ops[i] >= ATL_OP_PLAIN_ADD)
      return atl__app_why(why, len, "op %d is not allowed: an atomic op (plain_add is the non-atomic control)",
                          p->ops[i]);
  if (p->type != ATL_TYPE_U32 && p->type != ATL_TYPE_I32 && p->type != ATL_TYPE_U64)
    return atl__app_why(why, len, "type %d is not allowed: u32, i32 or u64 (every op is defined for them)", p->type);
  if (!atl_device_has_type(d, p->type))
    return atl__app_why(why, len, "type %s is not available on %s", atl_type_name((enum atl_type)p->type), d->name);
  if (p->same_address_threads == 0 || p->same_address_threads > 1u << 24)
    return atl__app_why(why, len, "same_address_threads %u is not allowed: 1 to 2^24", p->same_address_threads);
  if (p->workgroups > 1u << 24)
    return atl__app_why(why, len, "workgroups %u is not allowed: 0 (occupancy discovery) to 2^24", p->workgroups);
  if (!(p->target_ms >= 0.001 && p->target_ms <= 60000))
    return atl__app_why(why, len, "target_ms %g is not allowed: 0.001 to 60000", p->target_ms);
  return 0;
}

static int access_run(atl_context_t ctx, const void *params, const struct atl_app_timing *tm, struct atl_result_set *out)
{
  return atl_app_access_table(ctx, params, tm, out);
}

static const char *const access_names[] = {"wg_size", "op", "type", "workgroups", "same_address_threads",
                                           "target_ms", NULL};
const struct atl_app_info atl__app_access_table = {
    .name = "access-table",
    .summary = "seed 004: same address / same line / scattered throughput of every op (via rmw)",
    .params_size = sizeof(struct atl_access_params),
    .wg_offset = offsetof(struct atl_access_params, wg_size),
    .params = access_names,
    .defaults = access_defaults,
    .check = access_check,
    .run = access_run,
};
