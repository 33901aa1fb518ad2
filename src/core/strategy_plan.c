/* The plan of a strategy run: its launch shape and the product of its axes
 * as checked specs, before anything is measured. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "atomlab.h"
#include "name_axes.h"

/* The axes of a strategy run: what "all" stands for and what messages list as allowed. */
static const int all_accesses[] = {ATL_ACCESS_SAME_ADDRESS, ATL_ACCESS_SAME_LINE, ATL_ACCESS_SCATTERED};
static const int all_results[] = {ATL_RESULT_USED, ATL_RESULT_UNUSED};
static const int all_ops[] = {ATL_OP_FETCH_ADD, ATL_OP_FETCH_SUB, ATL_OP_INC, ATL_OP_FETCH_MIN,
                              ATL_OP_FETCH_MAX, ATL_OP_AND,       ATL_OP_OR,  ATL_OP_XOR};
static const int all_strategies[] = {ATL_STRATEGY_NATIVE,    ATL_STRATEGY_WARP,      ATL_STRATEGY_BLOCK,
                                     ATL_STRATEGY_PRIVATIZED, ATL_STRATEGY_CAS,       ATL_STRATEGY_LOCK_WARP,
                                     ATL_STRATEGY_LOCK_THREAD, ATL_STRATEGY_SPIN_LOCK};
#define N(a) (sizeof a / sizeof a[0])
_Static_assert(N(all_strategies) == ATL_STRATEGY_COUNT, "\"all\" is every strategy");
#define OPS_ALLOWED "fetch_add, fetch_sub, inc, fetch_min, fetch_max, and, or, xor, all"

static const struct atl__name_axis_field name_axes[] = {
    {{"pattern", atl_access_parse, all_accesses, N(all_accesses), "same-address, same-line, scattered, all"},
     offsetof(struct atl_strategy_axes, access), offsetof(struct atl_strategy_axes, naccess)},
    {{"op", atl_op_parse, all_ops, N(all_ops), OPS_ALLOWED}, offsetof(struct atl_strategy_axes, op),
     offsetof(struct atl_strategy_axes, nop)},
    {{"strategy", atl_strategy_parse, all_strategies, N(all_strategies),
      "native, warp, block, privatized, cas, lock_warp, lock_thread, spin_lock, all, list"},
     offsetof(struct atl_strategy_axes, strategy), offsetof(struct atl_strategy_axes, nstrategy)},
    {{"result", atl_result_parse, all_results, N(all_results), "used, unused, all"},
     offsetof(struct atl_strategy_axes, result), offsetof(struct atl_strategy_axes, nresult)},
};

void atl_strategy_axes_init(struct atl_strategy_axes *a)
{
  memset(a, 0, sizeof *a); /* fetch_add (op 0) with the result used */
  a->result[0] = ATL_RESULT_USED;
  a->nresult = a->nop = 1;
  memcpy(a->access, all_accesses, sizeof all_accesses);
  a->naccess = N(all_accesses);
  memcpy(a->strategy, all_strategies, sizeof all_strategies);
  a->nstrategy = N(all_strategies);
}

int atl_strategy_axes_set(struct atl_strategy_axes *a, const char *name, const char *text, char *why, size_t why_len)
{
  int err = atl__name_axes_set(name_axes, N(name_axes), a, ATL_STRATEGY_AXIS_MAX, "strategy", name, text, why, why_len);
  for (size_t k = 0; err == 0 && strcmp(name, "op") == 0 && k < a->nop; k++)
    if (!atl_strategy_op_supported((enum atl_op)a->op[k])) { /* an op rmw has, the strategies do not */
      snprintf(why, why_len, "op %s is not allowed: " OPS_ALLOWED, atl_op_name((enum atl_op)a->op[k]));
      err = ATL_EINVAL;
    }
  return err;
}

size_t atl_strategy_axes_rows(const struct atl_strategy_axes *a)
{
  return a->nresult * a->nstrategy * a->naccess * a->nop; /* each axis at most ATL_STRATEGY_AXIS_MAX */
}

int atl_strategy_grid(atl_context_t ctx, uint32_t *wg_size, uint32_t *workgroups, struct atl_occupancy *occ)
{
  const struct atl_device_info *dev = atl_device_current(ctx);
  if (*wg_size == 0)
    *wg_size = dev->max_wg_size < 256 ? (uint32_t)dev->max_wg_size : 256;
  if (*wg_size > dev->max_wg_size)
    return ATL_EINVAL;
  /* With the work-groups given the grid is: no discovery (it spins, which
   * costs much under compute-sanitizer). */
  *occ = (struct atl_occupancy){0};
  if (*workgroups) {
    occ->wg_size = *wg_size;
    snprintf(occ->estimate_method, sizeof occ->estimate_method, "not measured: --workgroups given");
    return 0;
  }
  int err = atl_occupancy_discover(ctx, *wg_size, occ);
  if (err)
    return err;
  *workgroups = occ->discovered;
  if (dev->type == ATL_DEVICE_CPU && occ->estimated > *workgroups) /* as rmw: one work-group per core at a time */
    *workgroups = occ->estimated;
  return 0;
}

int atl_strategy_specs(atl_context_t ctx, const struct atl_strategy_axes *a, const struct atl_strategy_spec *base,
                       struct atl_strategy_spec *out, char *why, size_t why_len)
{
  size_t n = 0;
  for (size_t r = 0; r < a->nresult; r++)
    for (size_t k = 0; k < a->nstrategy; k++)
      for (size_t p = 0; p < a->naccess; p++)
        for (size_t o = 0; o < a->nop; o++) {
          struct atl_strategy_spec s = *base;
          s.strategy = (enum atl_strategy)a->strategy[k];
          s.access = (enum atl_access)a->access[p];
          s.op = (enum atl_op)a->op[o];
          s.result = (enum atl_result_use)a->result[r];
          if (atl_strategy_check(ctx, &s, why, why_len) == ATL_EINVAL)
            return ATL_EINVAL;
          out[n++] = s;
        }
  return 0;
}

static int strategy_measure(atl_context_t ctx, const void *arg, size_t i, const struct atl_timing *timing,
                            struct atl_row *row)
{
  return atl_strategy_run(ctx, &((const struct atl_strategy_spec *)arg)[i], timing, row);
}

struct atl_sweep_spec atl_strategy_sweep_spec(const struct atl_strategy_spec *specs, size_t count)
{
  return (struct atl_sweep_spec){"strategy", count, NULL, strategy_measure, NULL, specs};
}

/* In a run on several devices only the final write is ranked: a checkpoint's rows are copies. */
void atl_strategy_rank_set(struct atl_result_set *set) { atl_strategy_rank(set->rows, set->count); }

int atl_strategy_plan_devices(atl_context_t *ctxs, size_t ndev, const struct atl_strategy_axes *axes,
                              const struct atl_strategy_spec *base, struct atl_strategy_spec *specs,
                              struct atl_occupancy *occ, char *why, size_t why_len)
{
  const size_t rows = atl_strategy_axes_rows(axes);
  for (size_t d = 0; d < ndev; d++) {
    const struct atl_device_info *dev = atl_device_current(ctxs[d]);
    struct atl_strategy_spec b = *base;
    struct atl_occupancy found;
    const int err = atl_strategy_grid(ctxs[d], &b.wg_size, &b.workgroups, &found);
    if (err == ATL_EINVAL) {
      snprintf(why, why_len, "wg-size %u is not allowed: 1 to %zu on %s", b.wg_size, dev->max_wg_size, dev->name);
      return ATL_ENOTSUP;
    }
    if (err) {
      snprintf(why, why_len, "occupancy discovery failed on %s: %s", dev->id, atl_errmsg(ctxs[d]));
      return err == ATL_ENOTSUP ? ATL_EBACKEND : err;
    }
    if (d == 0) /* the file records the first device's */
      *occ = found;
    if (atl_strategy_specs(ctxs[d], axes, &b, specs + d * rows, why, why_len) != 0)
      return ATL_EINVAL;
  }
  return 0;
}
