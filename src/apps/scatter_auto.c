/*
 * The scatter app's `auto` rule (never det, whose point is its order). The thresholds are the device's tuning
 * (data/tuning/scatter.json, else the derived rule: src/tuning/scatter_tuning.c); their values came from the H100 runs
 * (docs/design/scatter.md; below, "half" is auto_l2_share, 0.5 auto_run_share, 0.05 auto_head_share):
 *   - dim 1 (a weighted bincount): bins where a head or runs recur (its local table takes them: zipf 0.52 ms
 *     against atomic's 14.7 at 2^20 bins); else part over L2-sized ranges where the counters exceed half the
 *     L2 and part has its warp path (2^24 bins, uniform keys: 1.174 ms against atomic's 3.168);
 *     else atomic (uniform keys into 2^20 bins: 0.830 ms against bins' 0.840 and part's 0.856);
 *   - a head of keys that recur within a block's rows (a zipf head, a hot row): part in one range, where part
 *     has its warp path (CUDA C: 32-bit types, and 16-bit floats with an even dim; match-any sums a warp's equal keys, the local table a work-group's: zipf 1.696 ms
 *     against block's 2.135, hot 0.832 against run's 1.517), else block;
 *   - runs of equal neighbouring keys (sorted, clustered): run (0.939 and 0.793 ms; part at one range 0.976
 *     and 0.889);
 *   - keys without runs or a head into an output larger than half the L2: part's L2-sized ranges (uniform
 *     1.658 ms against atomic's 2.480), with its warp path only (the OpenCL path was not measured), all in one
 *     launch: the sweep (1.441 ms against part's 11 launches' 1.508 in the same run);
 *   - otherwise atomic.
 */
#include "scatter_auto.h"

struct atl__scatter_pick atl__scatter_auto_rule(const struct atl__scatter_stats *s)
{
  const struct atl__scatter_tuning *t = s->tuning;
  const int beyond_l2 = s->l2_bytes >= 2 && (double)s->out_bytes > (double)s->l2_bytes * t->auto_l2_share;
  const int runs = s->run_share >= t->auto_run_share, head = s->head_share >= t->auto_head_share;
  if (s->dim == 1 && (runs || head))
    return (struct atl__scatter_pick){ATL__SV_BINS, 0};
  if (s->dim == 1)
    return (struct atl__scatter_pick){s->part_fast && beyond_l2 ? ATL__SV_PART
                                      : s->dsm_fast             ? ATL__SV_DSM
                                                                : ATL__SV_ATOMIC, 0};
  if (head)
    return s->part_fast ? (struct atl__scatter_pick){ATL__SV_PART, 1} : (struct atl__scatter_pick){ATL__SV_BLOCK, 0};
  if (runs)
    return (struct atl__scatter_pick){ATL__SV_RUN, 0};
  if (s->part_fast && beyond_l2)
    return (struct atl__scatter_pick){ATL__SV_SWEEP, 0};
  return (struct atl__scatter_pick){ATL__SV_ATOMIC, 0};
}
