/* Sample statistics: median and quartiles by linear interpolation. */
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Quantile q of sorted values, interpolating between neighbours (type 7, as R and numpy). */
static double quantile(const double *sorted, size_t n, double q)
{
  double pos = q * (double)(n - 1);
  size_t i = (size_t)pos;
  double frac = pos - (double)i;
  return i + 1 < n ? sorted[i] + frac * (sorted[i + 1] - sorted[i]) : sorted[n - 1];
}

void atl_stats_compute(const double *values, size_t n, struct atl_stats *out)
{
  memset(out, 0, sizeof *out);
  if (n == 0)
    return;
  double *sorted = malloc(n * sizeof *sorted);
  if (sorted == NULL)
    return;
  memcpy(sorted, values, n * sizeof *sorted);
  qsort(sorted, n, sizeof *sorted, cmp_double);
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += sorted[i];
  out->samples = (unsigned)n;
  out->min = sorted[0];
  out->max = sorted[n - 1];
  out->mean = sum / (double)n;
  out->median = quantile(sorted, n, 0.5);
  out->q1 = quantile(sorted, n, 0.25);
  out->q3 = quantile(sorted, n, 0.75);
  out->iqr = out->q3 - out->q1;
  out->noise = out->median > 0 ? out->iqr / out->median : 0;
  free(sorted);
}

void atl_timing_defaults(struct atl_timing *t)
{
  t->target_ms = 20.0;
  t->noise = 0.02;
  t->min_samples = 5;
  t->max_samples = 50;
  t->budget_s = 2.0;
  t->max_iters = 1u << 24;
  t->fixed_iters = 0;
  t->repeats = 1;
  t->rounds = 1;
  t->placements = 1;
  t->discard_throttled = 0;
  t->rotate = 0;
}
