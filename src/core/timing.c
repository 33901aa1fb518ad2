/* Calibration and sampling, shared by every benchmark driver. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context.h"
#include "timing.h"

double atl__now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int atl__calibrate(atl__launch_fn fn, void *arg, const struct atl_timing *tm, uint32_t cap, uint32_t *iters_out,
                   double *reusable_ms)
{
  uint32_t iters = tm->fixed_iters ? tm->fixed_iters : 1;
  if (iters > cap)
    iters = cap;
  double ms = 0;
  int err, launches = 1;
  *reusable_ms = 0;
  if ((err = fn(arg, iters, &ms))) /* also the warm-up */
    return err;
  /* Every step grows iters by at least one, so the loop ends within
   * log(cap) steps of x1.5 or cap steps of +1, whatever the timings do. */
  while (!tm->fixed_iters && ms < tm->target_ms && iters < cap) {
    /* At most x8 a step: a launch's time need not grow linearly with iters
     * (the random pattern's walks fall into the LCG's cycles and crowd onto
     * their words), and a x64 jump overshot the target up to 30-fold there. */
    double scale = ms > 0 ? tm->target_ms * 1.1 / ms : 8;
    if (scale > 8)
      scale = 8;
    if (scale < 1.5)
      scale = 1.5;
    double next = (double)iters * scale;
    if (next < (double)iters + 1)
      next = (double)iters + 1; /* 1 x 1.5 truncates back to 1 */
    iters = next > cap ? cap : (uint32_t)next;
    if ((err = fn(arg, iters, &ms)))
      return err;
    launches++;
  }
  *iters_out = iters;
  if (launches > 1)
    *reusable_ms = ms;
  return 0;
}

/* The watch of the row this thread is sampling, or NULL. */
static _Thread_local struct atl__clock_watch *watching;

/* One reading into the watch; 1 if the device was throttled. */
static int watch_read(struct atl__clock_watch *w)
{
  struct atl_clocks c;
  if (w->ctx == NULL || w->failed)
    return 0;
  /* The backend's op itself, not atl_device_clocks(): the context's last error may be a failed launch's. */
  const struct atl_backend_ops *ops = atl__ops(w->ctx);
  if (ops == NULL || ops->clocks == NULL) {
    snprintf(w->why, sizeof w->why, "the %s backend cannot read clocks (its API reports only the maximum)",
             atl_device_current(w->ctx) ? atl_device_current(w->ctx)->backend : "?");
    w->failed = 1;
    return 0;
  }
  if (ops->clocks(atl__dev(w->ctx), &c, w->why, sizeof w->why) != 0) {
    w->failed = 1;
    return 0;
  }
  if (!w->known || c.sm_mhz < w->sm_min)
    w->sm_min = c.sm_mhz;
  if (!w->known || c.sm_mhz > w->sm_max)
    w->sm_max = c.sm_mhz;
  w->known = 1;
  w->reads++;
  w->mem_mhz = c.mem_mhz;
  w->temperature_max = c.temperature_c > w->temperature_max ? c.temperature_c : w->temperature_max;
  w->power_max = c.power_w > w->power_max ? c.power_w : w->power_max;
  w->reasons |= c.reasons;
  return (c.reasons & ATL_THROTTLE_MASK) != 0;
}

void atl__clock_watch_begin(struct atl__clock_watch *w, atl_context_t ctx, int discard)
{
  memset(w, 0, sizeof *w);
  w->ctx = ctx;
  w->discard = discard;
  watch_read(w);
  watching = w;
}

void atl__clock_watch_end(struct atl__clock_watch *w, struct atl_row *row)
{
  watching = NULL;
  watch_read(w);
  if (!w->known || row == NULL)
    return;
  atl_row_metric_set(row, "sm_clock_min_mhz", w->sm_min);
  atl_row_metric_set(row, "sm_clock_max_mhz", w->sm_max);
  atl_row_metric_set(row, "mem_clock_mhz", w->mem_mhz);
  atl_row_metric_set(row, "temperature_max_c", w->temperature_max);
  atl_row_metric_set(row, "power_max_w", w->power_max);
  atl_row_metric_set(row, "throttle_reasons", (double)w->reasons);
  atl_row_metric_set(row, "throttled_samples", w->throttled);
  atl_row_metric_set(row, "retaken_samples", w->retaken);
}

int atl__sample_stats(atl__launch_fn fn, void *arg, const struct atl_timing *tm, uint32_t iters, double first_ms,
                      double **samples_ms, struct atl_stats *stats)
{
  unsigned max_samples = tm->max_samples > tm->min_samples ? tm->max_samples : tm->min_samples;
  double *ms = *samples_ms = malloc((max_samples ? max_samples : 1) * sizeof *ms);
  if (ms == NULL)
    return ATL_ENOMEM;
  double start = atl__now_s();
  unsigned n = 0;
  int err = 0;
  if (first_ms > 0)
    ms[n++] = first_ms;
  while (n < max_samples) {
    if ((err = fn(arg, iters, &ms[n])))
      break;
    if (watching && watch_read(watching)) {
      watching->throttled++;
      if (watching->discard && watching->retaken < max_samples) {
        watching->retaken++; /* taken again: this sample's slot is reused */
        continue;
      }
    }
    n++;
    if (n >= tm->min_samples) {
      atl_stats_compute(ms, n, stats);
      if (stats->noise <= tm->noise || atl__now_s() - start > tm->budget_s)
        break;
    }
  }
  atl_stats_compute(ms, n, stats);
  /* Not met, only flagged: a row stays a measurement, and every reader can tell it from one that met the target. */
  stats->noisy = n > 0 && stats->noise > tm->noise;
  return err;
}

int atl__sample(atl__launch_fn fn, void *arg, const struct atl_timing *tm, uint32_t iters, double first_ms,
                struct atl_row *row)
{
  return atl__sample_stats(fn, arg, tm, iters, first_ms, &row->samples_ms, &row->time_ms);
}

void atl__row_measured(struct atl_row *row, const char *first_error)
{
  row->status = ATL_STATUS_OK;
  if (!row->verified)
    snprintf(row->reason, sizeof row->reason, "verification failed: %s", first_error);
}

void atl__row_rate_metrics(struct atl_row *row, uint32_t iters, uint64_t nops, uint64_t array_words)
{
  atl_row_metric_set(row, "iters", iters);
  atl_row_metric_set(row, "ops", (double)nops);
  atl_row_metric_set(row, "array_words", (double)array_words);
  if (row->time_ms.median > 0) {
    const double ops_per_us = (double)nops / (row->time_ms.median * 1e3);
    atl_row_metric_set(row, "ops_per_us", ops_per_us);
    atl_row_metric_set(row, "gops", ops_per_us * 1e-3);
  }
}
