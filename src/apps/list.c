/*
 * Seed 004: lock-free linked-list insertion. p threads insert n nodes right
 * after one head (or spread over several heads) with the seed's CAS loop;
 * the host then walks every list (bounded) and checks that each node is
 * present exactly once and that no list has a cycle.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

/* Its registry entry, at the end of this file: the run checks its params with the entry's check. */
extern const struct atl_app_info atl__app_list;

int atl__link_reset(atl_context_t ctx, void *arg)
{
  struct atl__link_run *r = arg;
  uint32_t flag = 0;
  int err = atl__ops(ctx)->read(atl__dev(ctx), r->abort_flag, &flag, sizeof flag);
  r->aborted |= flag;
  if (!err)
    err = atl__app_fill32(ctx, r->next, ATL__NIL, r->next_bytes);
  if (!err)
    err = atl__app_fill32(ctx, r->abort_flag, 0, 4);
  return err;
}

int atl__link_time(atl_context_t ctx, void *kernel, const struct atl_launch *launch, struct atl__link_run *r,
                   const struct atl_app_timing *tm, uint32_t *next, uint32_t *retries, uint32_t threads,
                   uint64_t *total, struct atl_row *row)
{
  uint32_t aborted = 0;
  const struct atl__app_readback rb[] = {{r->abort_flag, &aborted, sizeof aborted},
                                         {r->next, next, r->next_bytes},
                                         {r->retries, retries, launch->global * 4}};
  int err = atl__app_time_read(ctx, kernel, launch, atl__link_reset, r, tm, row, rb, 3);
  if (err) {
    atl__app_row_failed(ctx, row);
    return err;
  }
  r->aborted |= aborted;
  *total = 0;
  for (uint32_t t = 0; t < threads; t++)
    *total += retries[t];
  return 0;
}

/* Defaults and checks the list and skiplist share. Every insertion after one
 * list head is a CAS on one word, and each success costs about as many
 * attempts as threads contend, so the list's GPU defaults are smaller than
 * the skiplist's, whose contention spreads out as it grows. */
void atl__list_defaults(const struct atl_device_info *d, struct atl_list_params *p, int skiplist)
{
  const int cpu = d->type == ATL_DEVICE_CPU;
  atl__app_wg_default(d, &p->wg_size, 0);
  if (p->nodes == 0)
    p->nodes = cpu ? 4096 : skiplist ? 1u << 20 : 1u << 16;
  if (p->threads == 0)
    p->threads = cpu ? 256 : skiplist ? 1u << 16 : 1024;
  if (p->lists == 0) /* the skiplist has one */
    p->lists = 1;
}

int atl__list_params_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct atl_list_params *p = params;
  if (atl__app_wg_check(d, p->wg_size, 0, NULL, why, len))
    return ATL_EINVAL;
  if (p->nodes == 0 || p->threads == 0)
    return atl__app_why(why, len, "nodes %u with threads %u is not allowed: at least one of each", p->nodes,
                        p->threads);
  if (p->lists == 0 || p->lists > p->nodes)
    return atl__app_why(why, len, "lists %u is not allowed: 1 to nodes (%u)", p->lists, p->nodes);
  return 0;
}

static void list_defaults(const struct atl_device_info *d, void *params)
{
  atl__list_defaults(d, params, 0);
}

ATL__APP_RUN(list, atl_app_list)

#define P(field) .offset = offsetof(struct atl_list_params, field)
static const struct atl_app_option list_options[] = {
    ATL__APP_OPT_WG(struct atl_list_params, 65536, "work-items per work-group"),
    {"nodes", ATL_APP_OPT_U32, P(nodes), .min = 1, .max = 0x1p26, .arg = "N", .def_help = "GPU: 65536; CPU: 4096",
     .help = "nodes inserted"},
    {"threads", ATL_APP_OPT_U32, P(threads), .min = 1, .max = 0x1p26, .arg = "N", .def_help = "GPU: 1024; CPU: 256",
     .help = "inserting threads"},
    {"lists", ATL_APP_OPT_U32, P(lists), .min = 1, .max = 0x1p26, .def = "1", .arg = "N",
     .help = "heads the nodes spread over (1: all contend on one)"},
    {0}};
#undef P

/* What a run allocates (atl_app_info.bytes_needed): the links and every thread's retries, on both sides. */
static void list_bytes(const struct atl_device_info *d, const void *params, struct atl_app_bytes *need)
{
  const struct atl_list_params *p = params;
  const uint64_t links = ((uint64_t)p->nodes + p->lists) * 4, retries = ((uint64_t)p->threads + p->wg_size) * 4;
  (void)d;
  *need = (struct atl_app_bytes){links + retries, links + retries + 4, "nodes"};
}

const struct atl_app_info atl__app_list = {
    .name = "list",
    .summary = "seed 004: lock-free linked-list insertion with CAS, checked for loss and cycles",
    .description = "p threads insert n nodes into lock-free linked lists with the seed's CAS\n"
                   "loop, right after the head. The host then walks every list (bounded) and\n"
                   "checks that each node is present exactly once and no list has a cycle;\n"
                   "reports CAS retries per insert.",
    ATL__APP_ENTRY_CHECK(struct atl_list_params, list, atl__list_params_check),
    .bytes_needed = list_bytes,
};

int atl_app_list(atl_context_t ctx, const struct atl_list_params *p, const struct atl_app_timing *tm,
                 struct atl_result_set *out)
{
  struct atl__app_buffers bufs = {{0}, 0};
  struct atl__link_run r = {0};
  struct atl_row row;
  uint32_t *next = NULL, *retries = NULL;
  void *kernel = NULL;
  char variant[48], why[256];
  int err = atl__app_checked(ctx, &atl__app_list, p);
  if (err)
    return err;
  snprintf(variant, sizeof variant, p->lists == 1 ? "cas-one-head" : "cas-%u-heads", p->lists);
  atl__app_row_init(&row, "list", variant);
  r.next_bytes = ((size_t)p->nodes + p->lists) * sizeof(uint32_t);
  size_t global = ((size_t)p->threads + p->wg_size - 1) / p->wg_size * p->wg_size;
  next = malloc(r.next_bytes);
  retries = malloc(global * sizeof *retries);
  if (next == NULL || retries == NULL) {
    err = atl__seterr(ctx, ATL_ENOMEM, "out of host memory");
    goto out;
  }
  if ((err = atl__app_alloc(ctx, &bufs, r.next_bytes, &r.next)) ||
      (err = atl__app_alloc(ctx, &bufs, 4, &r.abort_flag)) ||
      (err = atl__app_alloc(ctx, &bufs, global * sizeof *retries, &r.retries)) ||
      (err = atl__app_fill32(ctx, r.abort_flag, 0, 4)) ||
      (err = atl__app_fill32(ctx, r.retries, 0, global * sizeof *retries)) ||
      (err = atl__app_build(ctx, "app_list", "list_insert", "", &kernel, &row))) {
    atl__app_row_failed(ctx, &row);
    goto out;
  }
  struct atl_arg args[] = {{ATL_ARG_BUFFER, r.next, 0},         {ATL_ARG_U32, NULL, p->nodes},
                           {ATL_ARG_U32, NULL, p->lists},        {ATL_ARG_U32, NULL, p->threads},
                           {ATL_ARG_U32, NULL, tm->spin_bound},  {ATL_ARG_BUFFER, r.abort_flag, 0},
                           {ATL_ARG_BUFFER, r.retries, 0}};
  struct atl_launch launch = {global, p->wg_size, args, 7};
  uint64_t total = 0;
  if ((err = atl__link_time(ctx, kernel, &launch, &r, tm, next, retries, p->threads, &total, &row)))
    goto out;
  atl_row_metric_set(&row, "nodes", p->nodes);
  atl_row_metric_set(&row, "threads", p->threads);
  atl_row_metric_set(&row, "heads", p->lists);
  atl_row_metric_set(&row, "retries_per_insert", (double)total / p->nodes);
  if (r.aborted) {
    atl__app_row_status(&row, ATL_STATUS_DEADLOCK, "a CAS loop passed spin_bound %u tries", tm->spin_bound);
    goto out;
  }
  atl__app_row_verdict(&row, atl__list_check(next, p->nodes, p->lists, why, sizeof why) == 0, "%s", why);
  atl__app_row_per_s(&row, "minserts_per_s", p->nodes);
out:
  free(next);
  free(retries);
  atl__app_free_all(ctx, &bufs);
  return atl__app_row_add(out, &row, err);
}
