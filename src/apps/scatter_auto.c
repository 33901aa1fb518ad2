/*
 * The scatter app's `auto` rule (never det, whose point is its order). The thresholds are the device's tuning
 * (data/tuning/scatter.json, else the derived rule: src/tuning/scatter_tuning.c). The figures below are the H200
 * shape grid's (results/reference/nvidia-h200/scatter-shapes/shapes.json at 0bffbe8, tool f021c3e; E 8M rows, f32
 * unless named; its variants_ms hold every variant's time) and the H100 runs' (docs/design/scatter.md, "`auto`"):
 *   - dim 1 (a weighted bincount): bins where a head recurs (its local table takes it: hot 0.037 ms against
 *     atomic's 14.7; zipf 0.8 into 16M bins, 4% of the rows in the head, 0.323 against the sweep's 0.479) or runs
 *     are long (sorted into 100K bins, runs of 84, 0.079 against atomic's 0.245); atomic for keys in order with short
 *     runs (sorted into 1M bins, runs of 8: 0.064 against bins' 0.081; into 16M: 0.076 against the sweep's 0.146);
 *     else the sweep over L2-sized ranges where the counters exceed half the L2, part has its warp path and the
 *     ranges pay (below; 16M bins, uniform keys: 0.159 against part's 0.177 and atomic's 0.299); else dsm (integer
 *     weights on sm_90) from the tuning's auto_dsm_load rows a bin (an H200, 8M rows into 2^20 bins: 0.085 against
 *     atomic's 0.093, results/reference/nvidia-h200/bincount at 18eb1a6), or atomic;
 *   - a head of keys that recur within a block's rows (a zipf head, a hot row): part in one range where part has its
 *     warp path (zipf 1.1 at D 64, 1M targets: 0.916 against the sweep's 1.138), else block; but a thin head (zipf
 *     0.8, 9-19% of the rows) into an output beyond half the L2 is swept with the rest where the sweep pays (D 256,
 *     1M targets: 4.55 against part's 6.15 at 5928e9c);
 *   - runs of equal neighbouring keys from a tenth of the rows (sorted, clustered): run (sorted into 16M targets, 21%
 *     of the rows repeat their neighbour's key: 1.530 against atomic's 1.660 at D 64, 6.199 against 6.710 at D 256);
 *   - keys without runs or a head: bucket, which adds no value by an atomic, where it pays (bucket_pays; the grid at
 *     be544a9: D 64 into 1M targets 0.899 against the sweep's 1.176, into 100K 0.875 against part's 1.023; D 256
 *     into 100K 2.511 against the sweep's 3.989); else, into an output beyond half the L2, the sweep where its
 *     L2-sized ranges pay (D 64, 1M targets: 1.18 against atomic's 1.78) and atomic where they do not (16M targets:
 *     1.85 against the sweep's 5.73 and bucket's 2.36 at f775923); within half the L2, part in one range where it has
 *     its warp path, else atomic.
 * Ranges pay where their extra passes over the keys (a key's bytes a row and range) cost no more than what they save
 * a row: the scattered read-modify-write of its output row, at least an L2 sector.
 */
#include "scatter_auto.h"

#include "scatter_bucket.h"
#include "scatter_launch.h"

/* The bytes an L2 moves for a scattered write of fewer: NVIDIA's sector (a device with longer lines saves more a
 * row, so this errs towards no ranges). */
#define L2_SECTOR_BYTES 32u

static int ranges_pay(const struct atl__scatter_stats *s, int sweep)
{
  const uint64_t ranges = atl__scatter_part_count(0, s->targets, s->out_bytes, s->l2_bytes, sweep, s->tuning);
  const uint64_t row = s->targets ? s->out_bytes / s->targets : 0;
  return ranges * s->index_bytes <= (row > L2_SECTOR_BYTES ? row : L2_SECTOR_BYTES);
}

/* bucket where a target's rows are enough to sum before its one write, its rows wide enough that the atomics' passes
 * over them cost more than bucket's placing of the keys, and its buckets enough to fill the device (the tuning's
 * auto_bucket_*) */
static int bucket_pays(const struct atl__scatter_stats *s)
{
  const struct atl__scatter_tuning *t = s->tuning;
  const uint64_t row = s->targets ? s->out_bytes / s->targets : 0, span = t->bucket_span ? t->bucket_span : 1;
  const uint64_t buckets = (s->targets + span - 1) / span;
  return s->rows && (double)s->rows >= t->auto_bucket_load * (double)s->targets && row >= t->auto_bucket_row &&
         buckets >= (uint64_t)t->auto_bucket_groups * s->units;
}

static struct atl__scatter_pick bincount_rule(const struct atl__scatter_stats *s, int beyond_l2)
{
  const struct atl__scatter_tuning *t = s->tuning;
  if (s->head_share >= t->auto_bins_head_share || s->run_share >= t->auto_bins_run_share)
    return (struct atl__scatter_pick){ATL__SV_BINS, 0};
  if (s->run_share >= t->auto_order_share)
    return (struct atl__scatter_pick){ATL__SV_ATOMIC, 0};
  if (s->part_fast && beyond_l2 && ranges_pay(s, 1))
    return (struct atl__scatter_pick){ATL__SV_SWEEP, 0};
  const int dsm_pays = s->dsm_fast && (double)s->rows >= t->auto_dsm_load * (double)s->targets;
  return (struct atl__scatter_pick){dsm_pays ? ATL__SV_DSM : ATL__SV_ATOMIC, 0};
}

struct atl__scatter_pick atl__scatter_auto_rule(const struct atl__scatter_stats *s)
{
  const struct atl__scatter_tuning *t = s->tuning;
  const int beyond_l2 = s->l2_bytes >= 2 && (double)s->out_bytes > (double)s->l2_bytes * t->auto_l2_share;
  const int runs = s->run_share >= t->auto_run_share, head = s->head_share >= t->auto_head_share;
  if (s->dim == 1)
    return bincount_rule(s, beyond_l2);
  const int sweep = s->part_fast && beyond_l2 && ranges_pay(s, 1);
  if (head && sweep && s->head_share < t->auto_sweep_head_share)
    return (struct atl__scatter_pick){ATL__SV_SWEEP, 0};
  if (head)
    return s->part_fast ? (struct atl__scatter_pick){ATL__SV_PART, 1} : (struct atl__scatter_pick){ATL__SV_BLOCK, 0};
  if (runs)
    return (struct atl__scatter_pick){ATL__SV_RUN, 0};
  if (bucket_pays(s))
    return (struct atl__scatter_pick){ATL__SV_BUCKET, 0};
  if (sweep)
    return (struct atl__scatter_pick){ATL__SV_SWEEP, 0};
  return (struct atl__scatter_pick){s->part_fast && !beyond_l2 ? ATL__SV_PART : ATL__SV_ATOMIC, 0};
}
