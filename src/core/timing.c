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

/* The median time of each of the @p p placements (sample i at placement i % p) among the first @p n samples,
 * into med[0..p); 0, or ATL_ENOMEM. */
static int placement_medians(const double *ms, unsigned n, unsigned p, double *med)
{
  double *v = malloc((n / p + 1) * sizeof *v);
  if (v == NULL)
    return ATL_ENOMEM;
  for (unsigned k = 0; k < p; k++) {
    unsigned m = 0;
    for (unsigned i = k; i < n; i += p)
      v[m++] = ms[i];
    struct atl_stats st; /* its median (0 where the placement has no sample) */
    atl_stats_compute(v, m, &st);
    med[k] = st.median;
  }
  free(v);
  return 0;
}

double atl__placement_noise(const double *ms, unsigned n, unsigned p)
{
  double med[ATL_MAX_PLACEMENTS];
  if (p <= 1 || p > ATL_MAX_PLACEMENTS || n == 0)
    return -1;
  double *ratio = malloc(n * sizeof *ratio);
  if (ratio == NULL || placement_medians(ms, n, p, med)) {
    free(ratio);
    return -1;
  }
  for (unsigned i = 0; i < n; i++)
    ratio[i] = med[i % p] > 0 ? ms[i] / med[i % p] : 1;
  struct atl_stats st;
  atl_stats_compute(ratio, n, &st);
  free(ratio);
  return st.noise;
}

double atl__pair_noise(const double *ms, unsigned n, unsigned p)
{
  if (p <= 1 || n == 0)
    return -1;
  double *ratio = malloc(n * sizeof *ratio);
  if (ratio == NULL)
    return -1;
  /* sample i's partner: the same slot of the other turn of its pair of turns (none for an unpaired last turn) */
  for (unsigned i = 0; i < n; i++) {
    const unsigned j = (i / p) % 2 ? i - p : i + p;
    const double mid = j < n ? (ms[i] + ms[j]) / 2 : ms[i];
    ratio[i] = mid > 0 ? ms[i] / mid : 1;
  }
  struct atl_stats st;
  atl_stats_compute(ratio, n, &st);
  free(ratio);
  return st.noise;
}

double atl__sampling_noise(const double *ms, unsigned n, unsigned p, int rotate)
{
  return rotate ? atl__pair_noise(ms, n, p) : atl__placement_noise(ms, n, p);
}

double atl__placement_spread(const double *ms, unsigned n, unsigned p)
{
  double med[ATL_MAX_PLACEMENTS];
  if (p <= 1 || p > ATL_MAX_PLACEMENTS || n < p || placement_medians(ms, n, p, med))
    return 0;
  struct atl_stats st;
  atl_stats_compute(med, p, &st);
  return st.median > 0 ? (st.max - st.min) / st.median : 0;
}

/* The statistics of the first @p n samples; over p > 1 placements their noise is the spread within placements
 * (or within pairs of turns, with --rotate), not the spread between them. */
static void sample_stats(const double *ms, unsigned n, unsigned p, int rotate, struct atl_stats *stats)
{
  atl_stats_compute(ms, n, stats);
  const double within = p > 1 ? atl__sampling_noise(ms, n, p, rotate) : -1;
  if (within >= 0)
    stats->noise = within;
}

/* The sampling loop. With @p placed (and p > 1 placements) sample n is taken at placement n % p, so that the
 * kept samples share the placements equally (a retaken sample keeps its slot's placement); sampling stops
 * only at a whole turn, after two at least, and its noise is the samples' spread within their placements. */
static int sample_loop(atl__launch_fn fn, atl__placed_fn placed, unsigned p, void *arg, const struct atl_timing *tm,
                       uint32_t iters, double first_ms, double **samples_ms, struct atl_stats *stats)
{
  unsigned min_samples = tm->min_samples;
  unsigned max_samples = tm->max_samples > tm->min_samples ? tm->max_samples : tm->min_samples;
  /* with --rotate, whole pairs of turns: a pair shares its pairings of lines and SMs (docs/design/method.md, "Rotation") */
  const unsigned unit = p > 1 && tm->rotate ? 2 * p : p;
  if (p > 1) {
    min_samples = min_samples < 2 * p ? 2 * p : (min_samples + unit - 1) / unit * unit;
    max_samples = max_samples < min_samples ? min_samples : (max_samples + unit - 1) / unit * unit;
    first_ms = 0; /* the calibration's launch is no placement's turn */
  }
  double *ms = *samples_ms = malloc((max_samples ? max_samples : 1) * sizeof *ms);
  if (ms == NULL)
    return ATL_ENOMEM;
  double start = atl__now_s();
  unsigned n = 0;
  int err = 0;
  if (first_ms > 0)
    ms[n++] = first_ms;
  while (n < max_samples) {
    if ((err = placed ? placed(arg, n % p, iters, &ms[n]) : fn(arg, iters, &ms[n])))
      break;
    if (watching && watch_read(watching)) {
      watching->throttled++;
      if (watching->discard && watching->retaken < max_samples) {
        watching->retaken++; /* taken again: this sample's slot is reused */
        continue;
      }
    }
    n++;
    if (n >= min_samples && n % unit == 0) {
      sample_stats(ms, n, p, tm->rotate, stats);
      if (stats->noise <= tm->noise || atl__now_s() - start > tm->budget_s)
        break;
    }
  }
  sample_stats(ms, n, p, tm->rotate, stats);
  /* Not met, only flagged: a row stays a measurement, and every reader can tell it from one that met the target. */
  stats->noisy = n > 0 && stats->noise > tm->noise;
  return err;
}

int atl__sample_stats(atl__launch_fn fn, void *arg, const struct atl_timing *tm, uint32_t iters, double first_ms,
                      double **samples_ms, struct atl_stats *stats)
{
  return sample_loop(fn, NULL, 1, arg, tm, iters, first_ms, samples_ms, stats);
}

int atl__sample_placed(atl__placed_fn fn, unsigned placements, void *arg, const struct atl_timing *tm,
                       uint32_t iters, struct atl_row *row)
{
  return sample_loop(NULL, fn, placements ? placements : 1, arg, tm, iters, 0, &row->samples_ms, &row->time_ms);
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
