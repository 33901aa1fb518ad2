/* The plan of an rmw sweep: the cartesian product of its axes as checked
 * specs, and what a resume file must be before a sweep may reuse it. Both
 * before anything is measured, so bad input fails fast and writes nothing. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "atomlab.h"
#include "name_axes.h"

/* The named axes of an rmw sweep, from the registries of experiment.h: what "all" stands for and what
 * messages list as allowed. The ops come from ATL_OP_MAP; plain_add, the non-atomic control (the last
 * entry), is left out of "all" and must be named. */
#define OP_VALUE(e, name, help) ATL_OP_##e,
#define OP_NAME(e, name, help) name ", "
static const int all_ops[] = {ATL_OP_MAP(OP_VALUE)};
static const int all_patterns[] = {ATL_PATTERN_CONTIGUOUS, ATL_PATTERN_CROSS_WARP, ATL_PATTERN_BRANCHED,
                                   ATL_PATTERN_RANDOM};
static const int all_types[] = {ATL_TYPE_U32, ATL_TYPE_I32,   ATL_TYPE_U64,  ATL_TYPE_F32,
                                ATL_TYPE_F64, ATL_TYPE_F16X2, ATL_TYPE_BF16X2};
static const int all_spaces[] = {ATL_SPACE_GLOBAL, ATL_SPACE_LOCAL};
static const int all_results[] = {ATL_RESULT_UNUSED, ATL_RESULT_USED};
static const int all_scopes[] = {ATL_SCOPE_DEVICE, ATL_SCOPE_BLOCK, ATL_SCOPE_SYSTEM};
static const int all_orders[] = {ATL_ORDER_RELAXED, ATL_ORDER_ACQUIRE, ATL_ORDER_RELEASE, ATL_ORDER_ACQ_REL,
                                 ATL_ORDER_SEQ_CST};
#define N(a) (sizeof a / sizeof a[0])

static const struct atl__name_axis_field name_axes[] = {
    {{"pattern", atl_pattern_parse, all_patterns, N(all_patterns), "contiguous, cross-warp, branched, random, all"},
     offsetof(struct atl_rmw_axes, pattern), offsetof(struct atl_rmw_axes, npattern)},
    {{"op", atl_op_parse, all_ops, N(all_ops) - 1, ATL_OP_MAP(OP_NAME) "all"}, offsetof(struct atl_rmw_axes, op),
     offsetof(struct atl_rmw_axes, nop)},
    {{"type", atl_type_parse, all_types, N(all_types), "u32, i32, u64, f32, f64, f16x2, bf16x2, all"},
     offsetof(struct atl_rmw_axes, type), offsetof(struct atl_rmw_axes, ntype)},
    {{"space", atl_space_parse, all_spaces, N(all_spaces), "global, local, all"}, offsetof(struct atl_rmw_axes, space),
     offsetof(struct atl_rmw_axes, nspace)},
    {{"result", atl_result_parse, all_results, N(all_results), "unused, used, all"},
     offsetof(struct atl_rmw_axes, result), offsetof(struct atl_rmw_axes, nresult)},
    {{"scope", atl_scope_parse, all_scopes, N(all_scopes), "device, block, system, all"},
     offsetof(struct atl_rmw_axes, scope), offsetof(struct atl_rmw_axes, nscope)},
    {{"order", atl_order_parse, all_orders, N(all_orders), "relaxed, acquire, release, acq_rel, seq_cst, all"},
     offsetof(struct atl_rmw_axes, order), offsetof(struct atl_rmw_axes, norder)},
};

void atl_rmw_axes_init(struct atl_rmw_axes *a)
{
  /* every enum's first value is the default: contiguous fetch_add on u32 in global memory, result unused,
   * device scope, relaxed */
  memset(a, 0, sizeof *a);
  a->npattern = a->nop = a->ntype = a->nspace = a->nresult = a->nscope = a->norder = 1;
}

int atl_rmw_axes_set(struct atl_rmw_axes *a, const char *name, const char *text, char *why, size_t why_len)
{
  return atl__name_axes_set(name_axes, N(name_axes), a, ATL_RMW_AXIS_MAX, "rmw", name, text, why, why_len);
}

size_t atl_rmw_axes_rows(const struct atl_rmw_axes *a)
{
  const size_t counts[] = {a->npattern, a->nop,    a->ntype,          a->nspace,        a->nresult,
                           a->nscope,   a->norder, a->contention.count, a->padding.count};
  size_t rows = 1;
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    if (counts[i] && rows > SIZE_MAX / counts[i])
      return SIZE_MAX; /* saturates: a count this large is refused either way */
    rows *= counts[i];
  }
  return rows;
}

int atl_rmw_specs(atl_context_t ctx, const struct atl_rmw_axes *a, uint32_t wg_size, uint32_t workgroups,
                  struct atl_spec *out, char *why, size_t why_len)
{
  size_t n = 0;
  for (size_t sp = 0; sp < a->nspace; sp++)
    for (size_t t = 0; t < a->ntype; t++)
      for (size_t p = 0; p < a->npattern; p++)
        for (size_t o = 0; o < a->nop; o++)
          for (size_t r = 0; r < a->nresult; r++)
            for (size_t sc = 0; sc < a->nscope; sc++)
              for (size_t od = 0; od < a->norder; od++)
                for (size_t ci = 0; ci < a->contention.count; ci++)
                  for (size_t pi = 0; pi < a->padding.count; pi++) {
                    struct atl_spec s = {.op = (enum atl_op)a->op[o],
                                         .type = (enum atl_type)a->type[t],
                                         .space = (enum atl_space)a->space[sp],
                                         .pattern = (enum atl_pattern)a->pattern[p],
                                         .result = (enum atl_result_use)a->result[r],
                                         .scope = (enum atl_scope)a->scope[sc],
                                         .order = (enum atl_order)a->order[od],
                                         .contention = a->contention.values[ci],
                                         .padding = a->padding.values[pi],
                                         .wg_size = wg_size,
                                         .workgroups = workgroups};
                    if (atl_rmw_check(ctx, &s, why, why_len) == ATL_EINVAL)
                      return ATL_EINVAL;
                    out[n++] = s;
                  }
  return 0;
}

int atl_rmw_resume_read(const char *path, struct atl_result_set *set, char *why, size_t why_len)
{
  char rwhy[1400];
  if (atl_read_json(path, set, rwhy, sizeof rwhy) != 0) {
    snprintf(why, why_len, ": %s", rwhy);
    return ATL_EINVAL;
  }
  int err = ATL_EINVAL;
  if (strcmp(set->kind, "rmw") != 0) {
    snprintf(why, why_len, " '%s' holds %s rows: allowed: a file of rmw rows", path, set->kind);
    goto out;
  }
  for (size_t j = 0; j < set->count; j++) { /* a configuration no spec has is a damaged file, not a row to redo */
    struct atl_spec spec;
    if (atl_spec_from_row(&set->rows[j], &spec, rwhy, sizeof rwhy) != 0) {
      snprintf(why, why_len, " '%s': row %zu: %s", path, j, rwhy);
      goto out;
    }
  }
  if (!set->meta.timing_recorded) {
    snprintf(why, why_len,
             " '%s' records no timing settings (\"settings\"): its rows cannot be compared with this run's", path);
    goto out;
  }
  return 0;
out:
  atl_result_set_release(set);
  return err;
}

int atl_resume_shape(const struct atl_result_set *set, const char *device_id, uint32_t *wg_size, uint32_t *workgroups)
{
  for (size_t j = 0; j < set->count; j++) {
    const char *on = atl_row_config(&set->rows[j], "device");
    if (device_id == NULL || (on && strcmp(on, device_id) == 0)) {
      *wg_size = (uint32_t)atl_row_number(&set->rows[j], "wg_size", 0);
      *workgroups = (uint32_t)atl_row_number(&set->rows[j], "workgroups", 0);
      return 1;
    }
  }
  return 0;
}

int atl_rmw_resume_open(const char *path, const struct atl_timing *timing, struct atl_result_set *set, char *why,
                        size_t why_len)
{
  char twhy[400];
  if (atl_rmw_resume_read(path, set, why, why_len) != 0)
    return ATL_EINVAL;
  if (atl_timing_match(&set->meta.timing, timing, twhy, sizeof twhy) == 0)
    return 0;
  snprintf(why, why_len, " '%s': %s (rows timed otherwise do not compare; use the same options or no --resume)", path,
           twhy);
  atl_result_set_release(set);
  return ATL_EINVAL;
}

int atl_rmw_plan_devices(atl_context_t *ctxs, size_t ndev, const struct atl_rmw_plan *plan, struct atl_spec *specs,
                         struct atl_run_meta *meta, char *why, size_t why_len)
{
  const struct atl_rmw_axes *ax = plan->axes;
  const size_t rows = atl_rmw_axes_rows(ax);
  for (size_t d = 0; d < ndev; d++) {
    const struct atl_device_info *dev = atl_device_current(ctxs[d]);
    if (plan->wg_size > dev->max_wg_size) {
      snprintf(why, why_len, "wg-size %u is not allowed: 1 to %zu on %s", plan->wg_size, dev->max_wg_size, dev->name);
      return ATL_ENOTSUP;
    }
    const struct atl_device_info *was = plan->resume ? &plan->resume->meta.device : NULL;
    if (was && !plan->multi && (strcmp(was->name, dev->name) != 0 || strcmp(was->backend, dev->backend) != 0)) {
      snprintf(why, why_len, "resume: its rows were measured on %s (%s), not on %s (%s)", was->name, was->backend,
               dev->name, dev->backend);
      return ATL_ENOTSUP;
    }
    uint32_t wg_size = plan->wg_size, workgroups = plan->workgroups;
    if (plan->resume && wg_size == 0 && workgroups == 0)
      atl_resume_shape(plan->resume, plan->multi ? dev->id : NULL, &wg_size, &workgroups);
    struct atl_grid grid;
    const int err = atl_grid_choose(ctxs[d], (enum atl_grid_mode)plan->grid_mode, wg_size, workgroups, plan->timing,
                                    &grid);
    if (err) {
      snprintf(why, why_len, "choosing the grid on %s failed: %s", dev->id, atl_errmsg(ctxs[d]));
      return err == ATL_EINVAL || err == ATL_ENOTSUP ? ATL_EBACKEND : err; /* the device's failure, not the plan's */
    }
    if (d == 0) { /* the file records the first device's grid; every row records its own shape */
      meta->grid = grid;
      meta->occupancy = grid.occupancy;
    }
    for (size_t b = 0; plan->types_explicit && b < ax->ntype; b++)
      if (!atl_device_has_type(dev, ax->type[b])) {
        char list[200];
        snprintf(why, why_len, "type %s is not available on %s: allowed: %s", atl_type_name((enum atl_type)ax->type[b]),
                 dev->name, atl_device_type_list(dev, list, sizeof list));
        return ATL_ENOTSUP;
      }
    if (atl_rmw_specs(ctxs[d], ax, grid.wg_size, grid.workgroups, specs + d * rows, why, why_len) != 0)
      return ATL_EINVAL;
  }
  return 0;
}

static void rmw_configure(const void *arg, size_t i, struct atl_row *row)
{
  atl_rmw_row_init(row, &((const struct atl_spec *)arg)[i]);
}

static int rmw_measure(atl_context_t ctx, const void *arg, size_t i, const struct atl_timing *timing,
                       struct atl_row *row)
{
  return atl_rmw_run(ctx, &((const struct atl_spec *)arg)[i], timing, row) ? ATL_ENOMEM : 0;
}

struct atl_sweep_spec atl_rmw_sweep_spec(const struct atl_spec *specs, size_t count)
{
  return (struct atl_sweep_spec){"rmw", count, rmw_configure, rmw_measure, atl_row_validate, specs};
}

void atl_rmw_describe(const void *specs, size_t i, char *buf, size_t len)
{
  const struct atl_spec *s = &((const struct atl_spec *)specs)[i];
  snprintf(buf, len, "%s %s %s c=%u p=%u", atl_pattern_name(s->pattern), atl_op_name(s->op), atl_type_name(s->type),
           s->contention, s->padding);
}
