/*
 * Seed 000's scalar product on the software atomic: each worker work-group
 * reduces its share of a . b and adds the partial sum to one word with one
 * atomic (system or software; warp: one per wavefront, no reduction). The
 * word must end at the host's sum modulo 2^32.
 */
#include <stdlib.h>

#include "app_internal.h"

static int run_row(atl_context_t ctx, const struct atl_swapps_params *p, const struct atl_app_timing *tm,
                   struct atl__sw_run *r, void *kernel, void *a, void *b, unsigned variant, uint32_t groups,
                   uint32_t expect, struct atl_result_set *out)
{
  struct atl_row row;
  atl__app_row_init(&row, "dot", atl__sw_variant_names[variant]);
  if (!atl__sw_grid_refused(p, r->cap, groups, &row)) {
    const uint32_t workers = groups - 1, waves = (p->wg_size + 31) / 32;
    atl_row_metric_set(&row, "elements", (double)p->dot_elements);
    atl_row_metric_set(&row, "atomics", variant == 1 ? (double)workers * waves : (double)workers);
    struct atl_arg args[9] = {{ATL_ARG_BUFFER, a, 0},      {ATL_ARG_BUFFER, b, 0},
                              {ATL_ARG_U64, NULL, p->dot_elements}, {ATL_ARG_BUFFER, r->result, 0},
                              {ATL_ARG_U32, NULL, variant}};
    const int st = atl__sw_run_time(ctx, kernel, args, 9, groups, p, r, tm, &row);
    if (st == ATL_ENOMEM)
      return st;
    uint32_t got = 0;
    if (st == 0) {
      if (atl__app_read(ctx, r->result, &got, 4))
        atl__app_row_failed(ctx, &row);
      else {
        atl__app_row_verdict(&row, got == expect, "verification failed: sum %u, the host's %u", got, expect);
        if (row.time_ms.median > 0)
          atl_row_metric_set(&row, "gbps", 8.0 * (double)p->dot_elements / (row.time_ms.median * 1e6));
      }
    }
  }
  return atl__app_row_add(out, &row, 0);
}

int atl_app_swdot(atl_context_t ctx, const struct atl_swapps_params *p, const struct atl_app_timing *tm,
                  struct atl_result_set *out)
{
  struct atl__app_buffers bufs = {{0}, 0};
  struct atl__sw_run r = {.result_bytes = 4};
  void *kernel = NULL, *da = NULL, *db = NULL;
  int err = atl__swapps_check(ctx, p, "dot");
  if (err)
    return err;
  const size_t n = (size_t)p->dot_elements;
  uint32_t *a = malloc(n * 4), *b = malloc(n * 4), expect = 0;
  if (a == NULL || b == NULL) {
    err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
    goto out;
  }
  for (size_t i = 0; i < n; i++) { /* 16-bit inputs: the products are exact, the sum wraps as on the device */
    a[i] = (uint32_t)atl__splitmix64(i) & 0xffffu;
    b[i] = (uint32_t)atl__splitmix64(i ^ 0x5eedull << 40) & 0xffffu;
    expect += a[i] * b[i];
  }
  if (p->skew_reference)
    expect++;
  if ((err = atl__app_alloc(ctx, &bufs, n * 4, &da)) || (err = atl__app_alloc(ctx, &bufs, n * 4, &db)) ||
      (err = atl__app_alloc(ctx, &bufs, r.result_bytes, &r.result)) ||
      (err = atl__sw_sync_alloc(ctx, &bufs, p, &r.sync)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), da, a, n * 4)) ||
      (err = atl__ops(ctx)->write(atl__dev(ctx), db, b, n * 4)) ||
      (err = atl__sw_build(ctx, p, "dot", "app_swdot", "swdot", &kernel, &r, out)) || kernel == NULL)
    goto out;
  for (unsigned i = 0; i < p->ngroups && ATL_APP_GO_ON(err); i++)
    for (unsigned v = 0; v < 3 && ATL_APP_GO_ON(err); v++)
      if (p->variants & (1u << v))
        err = run_row(ctx, p, tm, &r, kernel, da, db, v, p->groups[i], expect, out);
out:
  free(a);
  free(b);
  atl__app_free_all(ctx, &bufs);
  return err;
}
