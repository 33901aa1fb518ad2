/* Calibration and sampling, shared by every benchmark driver. */
#include <stdlib.h>
#include <time.h>

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
