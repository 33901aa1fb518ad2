/*
 * The sweep every command runs (sweep.h): resume matching, the loop,
 * checkpoints and the stop after the current row. Rows of the resume file
 * are matched by their configuration key, so any kind resumes the same way.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomlab.h"
#include "atomlab/sweep.h"
#include "timing.h"

/* What becomes of each row of the resume file. */
enum old_state {
  OLD_KEPT,    /* outside this sweep: written after the sweep's rows */
  OLD_DROPPED, /* outside this sweep, and drop_others */
  OLD_PENDING, /* reusable by a configuration of the sweep not measured yet */
  OLD_DONE,    /* reused (its samples moved into the new set), or superseded by a new measurement */
};

struct matching {
  unsigned char *state; /* per old row */
  size_t *reuse;        /* per configuration: the old row it reuses, or SIZE_MAX */
};

/* Pairs each configuration with the first old row of its key that validates. */
static int match_resume(const struct atl_sweep_spec *spec, const struct atl_sweep_run *run, struct matching *m,
                        struct atl_sweep_report *report)
{
  const struct atl_result_set *old = run->resume;
  const size_t nold = old ? old->count : 0;
  m->state = calloc(nold ? nold : 1, 1);
  m->reuse = malloc((spec->count ? spec->count : 1) * sizeof *m->reuse);
  char(*keys)[640] = malloc((nold ? nold : 1) * sizeof *keys);
  if (m->state == NULL || m->reuse == NULL || keys == NULL) {
    free(keys);
    return ATL_ENOMEM;
  }
  for (size_t j = 0; j < nold; j++) {
    m->state[j] = run->drop_others ? OLD_DROPPED : OLD_KEPT;
    atl_row_key(&old->rows[j], keys[j], sizeof keys[j]);
  }
  for (size_t i = 0; i < spec->count; i++) {
    m->reuse[i] = SIZE_MAX;
    if (nold == 0)
      continue;
    struct atl_row row;
    char key[640], bad[500] = ""; /* the first reason an old row of this configuration cannot be reused */
    spec->configure(spec->arg, i, &row);
    atl_row_key(&row, key, sizeof key);
    for (size_t j = 0; j < nold; j++) {
      if (m->state[j] == OLD_DONE || m->state[j] == OLD_PENDING || strcmp(keys[j], key) != 0)
        continue;
      char why[400] = "no validation for this kind";
      if (m->reuse[i] == SIZE_MAX && spec->validate && spec->validate(&old->rows[j], why, sizeof why) == 0) {
        m->reuse[i] = j;
        m->state[j] = OLD_PENDING;
        continue;
      }
      if (m->reuse[i] == SIZE_MAX && bad[0] == '\0')
        snprintf(bad, sizeof bad, "row %zu: %s", j, why);
      m->state[j] = OLD_DONE; /* a bad row, or a second row of one configuration: the new set has one */
    }
    /* Measured again: a configuration whose rows all failed (not one with a good row beside a bad one). */
    if (m->reuse[i] == SIZE_MAX && bad[0] && report->invalid++ == 0)
      snprintf(report->first_invalid, sizeof report->first_invalid, "%s", bad);
  }
  for (size_t j = 0; j < nold; j++) {
    report->kept += m->state[j] == OLD_KEPT;
    report->dropped += m->state[j] == OLD_DROPPED;
  }
  free(keys);
  return 0;
}

/* The rows a checkpoint holds: the sweep's so far, then the old rows still
 * pending or kept, so that a checkpoint written over the resume file loses
 * none of them. Shallow copies: only view->rows is freed. */
static int checkpoint(const struct atl_sweep_run *run, const struct atl_result_set *set, const struct matching *m)
{
  struct atl_result_set view = *set;
  const struct atl_result_set *old = run->resume;
  size_t extra = 0;
  for (size_t j = 0; old && j < old->count; j++)
    extra += m->state[j] == OLD_KEPT || m->state[j] == OLD_PENDING;
  if (extra) {
    view.rows = malloc((set->count + extra) * sizeof *view.rows);
    if (view.rows == NULL)
      return ATL_ENOMEM;
    memcpy(view.rows, set->rows, set->count * sizeof *view.rows);
    for (size_t j = 0; j < old->count; j++)
      if (m->state[j] == OLD_KEPT || m->state[j] == OLD_PENDING)
        view.rows[view.count++] = old->rows[j];
    view.cap = view.count;
  }
  run->checkpoint(run->arg, &view);
  if (view.rows != set->rows)
    free(view.rows);
  return 0;
}

/* One configuration measured with the device's clocks watched (timing.h); the first reason clocks are
 * unknown goes to the run's facts. */
static int measure_watched(atl_context_t ctx, const struct atl_sweep_spec *spec, const struct atl_sweep_run *run,
                           size_t i, const struct atl_timing *timing, struct atl_row *row, struct atl_run_meta *meta)
{
  struct atl__clock_watch w;
  atl__clock_watch_begin(&w, ctx, run->timing->discard_throttled);
  int err = spec->measure(ctx, spec->arg, i, timing, row);
  atl__clock_watch_end(&w, err < 0 ? NULL : row);
  if (meta->clocks[0] == '\0')
    snprintf(meta->clocks, sizeof meta->clocks, "%s", w.known ? "read per row and sample (NVML)" : w.why);
  return err;
}

/* --repeat: the passes after the first. Each configuration measured in the first pass (rows[slot[i]] of the
 * set) is measured again, pass after pass, so that drift shows as spread; then the set keeps, per
 * configuration, the repeat of median time (the lower middle for an even count), whole, so that its
 * samples, statistics and metrics agree. A repeat that is not ok or not verified is kept instead: a
 * failure is never voted away. */
static int is_bad(const struct atl_row *r)
{
  return r->status != ATL_STATUS_OK || !r->verified;
}

static int by_median(const void *a, const void *b)
{
  const struct atl_row *x = a, *y = b;
  return (x->time_ms.median > y->time_ms.median) - (x->time_ms.median < y->time_ms.median);
}

static void keep_median_repeat(struct atl_row *kept, struct atl_row *extra, unsigned n)
{
  struct atl_row all[64]; /* the first pass's row, then the n later ones (repeats <= 64) */
  all[0] = *kept;
  memcpy(all + 1, extra, n * sizeof *extra);
  unsigned pick = 0, count = n + 1;
  for (unsigned k = 0; k < count && !is_bad(&all[pick]); k++)
    if (is_bad(&all[k]))
      pick = k;
  double lo = all[0].time_ms.median, hi = lo;
  for (unsigned k = 1; k < count; k++) {
    lo = all[k].time_ms.median < lo ? all[k].time_ms.median : lo;
    hi = all[k].time_ms.median > hi ? all[k].time_ms.median : hi;
  }
  if (!is_bad(&all[pick])) {
    qsort(all, count, sizeof *all, by_median);
    pick = (count - 1) / 2;
  }
  *kept = all[pick];
  for (unsigned k = 0; k < count; k++)
    if (k != pick)
      atl_row_release(&all[k]);
  atl_row_metric_set(kept, "repeats", count);
  if (kept->time_ms.median > 0) {
    const double med = kept->time_ms.median;
    atl_row_metric_set(kept, "repeat_spread", (hi - lo) / med);
    atl_row_metric_set(kept, "repeat_deviation", (hi - med > med - lo ? hi - med : med - lo) / med);
  }
}

static int repeat_passes(atl_context_t ctx, const struct atl_sweep_spec *spec, const struct atl_sweep_run *run,
                         struct atl_result_set *set, const size_t *slot, size_t first_passes)
{
  const unsigned repeats = run->timing->repeats > 64 ? 64 : run->timing->repeats;
  const size_t per = repeats - 1;
  const size_t nextra = spec->count * per;
  struct atl_row *extra = calloc(nextra ? nextra : 1, sizeof *extra);
  unsigned *done = calloc(spec->count ? spec->count : 1, sizeof *done);
  int err = extra && done ? 0 : ATL_ENOMEM;
  for (unsigned r = 1; !err && r < repeats && !atl_stop_requested(); r++)
    for (size_t i = 0; !err && i < first_passes && !atl_stop_requested(); i++) {
      if (slot[i] == SIZE_MAX)
        continue; /* reused from the resume file: measured by its own run */
      if (run->before_row)
        run->before_row(run->arg, r * spec->count + i, repeats * spec->count);
      /* The same work as the first pass: its iteration count, not a new calibration (a CAS loop's cost
       * per operation changes with the count, and a repeat must measure the same thing again). */
      struct atl_timing same = *run->timing;
      const double iters = atl_row_metric(&set->rows[slot[i]], "iters", 0);
      if (same.fixed_iters == 0 && iters >= 1 && iters <= same.max_iters)
        same.fixed_iters = (uint32_t)iters;
      if ((err = measure_watched(ctx, spec, run, i, &same, &extra[i * per + done[i]], &set->meta)) < 0)
        break;
      err = 0;
      done[i]++;
    }
  for (size_t i = 0; extra && done && i < first_passes; i++)
    if (slot[i] != SIZE_MAX && done[i])
      keep_median_repeat(&set->rows[slot[i]], &extra[i * per], done[i]);
  free(extra);
  free(done);
  return err;
}

/* Appends old row @p j (its samples move into the set). */
static int take_old(struct atl_result_set *set, struct atl_result_set *old, size_t j)
{
  struct atl_row row = old->rows[j];
  old->rows[j].samples_ms = NULL;
  int err = atl_result_set_add(set, &row);
  if (err)
    old->rows[j].samples_ms = row.samples_ms;
  return err;
}

int atl_sweep(atl_context_t ctx, const struct atl_sweep_spec *spec, const struct atl_sweep_run *run,
              struct atl_result_set *set, struct atl_sweep_report *report)
{
  struct matching m = {0};
  memset(report, 0, sizeof *report);
  if (set->kind[0] == '\0')
    snprintf(set->kind, sizeof set->kind, "%s", spec->kind);
  int err = match_resume(spec, run, &m, report);
  set->meta.rows_planned = spec->count + report->kept; /* a complete file holds the sweep and the kept rows */
  size_t *slot = malloc((spec->count ? spec->count : 1) * sizeof *slot); /* a measured configuration's row */
  if (!err && slot == NULL)
    err = ATL_ENOMEM;
  size_t i = 0;
  double last_checkpoint = atl__now_s();
  for (; !err && i < spec->count && !atl_stop_requested(); i++) {
    struct atl_row row;
    const int reused = m.reuse[i] != SIZE_MAX;
    if (reused) {
      struct atl_row *old = &run->resume->rows[m.reuse[i]];
      row = *old;
      old->samples_ms = NULL; /* moved into the new set */
      m.state[m.reuse[i]] = OLD_DONE;
      /* Validated: the median is its samples'; the rest of the statistics are recomputed from them too. */
      if (row.samples_ms) {
        const int noisy = row.time_ms.noisy; /* judged against the target it was sampled to */
        atl_stats_compute(row.samples_ms, row.time_ms.samples, &row.time_ms);
        row.time_ms.noisy = noisy;
      }
      report->reused++;
    } else {
      if (run->before_row)
        run->before_row(run->arg, i, run->timing->repeats > 1 ? run->timing->repeats * spec->count : spec->count);
      if ((err = measure_watched(ctx, spec, run, i, run->timing, &row, &set->meta)) < 0)
        break;
      report->measured++;
    }
    if ((err = atl_result_set_add(set, &row)) != 0) {
      atl_row_release(&row);
      break;
    }
    slot[i] = reused ? SIZE_MAX : set->count - 1;
    if (run->after_row)
      run->after_row(run->arg, i, &set->rows[set->count - 1], reused);
    /* A checkpoint now and then: a run killed outright keeps what it measured. */
    if (run->checkpoint && run->checkpoint_s > 0 && atl__now_s() - last_checkpoint >= run->checkpoint_s &&
        i + 1 < spec->count) {
      err = checkpoint(run, set, &m);
      last_checkpoint = atl__now_s();
    }
  }
  if (!err && slot && run->timing->repeats > 1)
    err = repeat_passes(ctx, spec, run, set, slot, i);
  free(slot);
  /* The old rows that stay: those outside the sweep, and (stopped early) those not reused yet. */
  for (size_t j = 0; !err && run->resume && j < run->resume->count; j++)
    if (m.state[j] == OLD_KEPT || m.state[j] == OLD_PENDING)
      err = take_old(set, run->resume, j);
  free(m.state);
  free(m.reuse);
  return err;
}
