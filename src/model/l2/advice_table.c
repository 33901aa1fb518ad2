/*
 * The advice as data (include/atomlab/l2model.h): every strategy a model advises with the atomlab call that
 * realizes it, and the L2 model's advice per access kind. `atomlab model l2 --advice`, `atomlab profile` and
 * atl_diagnose() all read these tables; the words are made from them (atl_l2_advice_text).
 */
#include <stdio.h>
#include <string.h>

#include "atomlab/l2model.h"

/* Every strategy either model names (atl_l2_predict, atl_smem_advise), with its call. */
static const struct atl_advice_strategy strategies[] = {
    {"warp-aggregated", "atl_warp_fetch", "one atomic per warp and word"},
    {"block-aggregated", "atl_block_fetch", "one atomic per work-group and word"},
    {"privatized", "atl_scatter_add block", "a work-group's updates summed in shared memory, flushed once"},
    {"run-summed", "atl_scatter_add run", "runs of equal keys summed first"},
    {"native", "atl_fetch_add", "the plain atomic: the unit is not what binds"},
    {"byte-lanes", "atl_app_histogram block16", "packed counters, 4 to a word"},
};
#define STRATEGIES (sizeof strategies / sizeof *strategies)

static const struct atl_advice_strategy *const hot[] = {&strategies[0], &strategies[1], &strategies[2], NULL};
static const struct atl_advice_strategy *const spread[] = {&strategies[2], &strategies[3], NULL};

static const struct atl_l2_advice advice[] = {
    {ATL_L2_HOT, "few hot words serialize in one L2 slice", "combine before the L2", hot},
    {ATL_L2_SPREAD, "requests spread over the slices saturate the L2's atomic units", "send fewer", spread},
};

const struct atl_advice_strategy *atl_advice_strategy(const char *name)
{
  for (size_t i = 0; name && i < STRATEGIES; i++)
    if (strcmp(strategies[i].name, name) == 0)
      return &strategies[i];
  return NULL;
}

const char *atl_advice_call(const char *strategy)
{
  const struct atl_advice_strategy *s = atl_advice_strategy(strategy);
  return s ? s->call : "";
}

const struct atl_l2_advice *atl_l2_advice_of(enum atl_l2_access access)
{
  for (size_t i = 0; i < sizeof advice / sizeof *advice; i++)
    if (advice[i].access == access)
      return &advice[i];
  return NULL;
}

char *atl_l2_advice_text(const struct atl_l2_advice *a, char *buf, size_t len)
{
  size_t used = 0;
  if (len)
    buf[0] = '\0';
  if (a == NULL || len == 0)
    return buf;
  int n = snprintf(buf, len, "%s: %s -", a->cause, a->remedy);
  for (size_t i = 0; a->strategies[i] && n > 0 && (used = (size_t)n) < len; i++) {
    const struct atl_advice_strategy *s = a->strategies[i];
    n = snprintf(buf + used, len - used, "%s %s (%s: %s)", i ? "," : "", s->name, s->call, s->does);
    n = n < 0 ? n : n + (int)used;
  }
  return buf;
}
