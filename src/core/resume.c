/*
 * What --resume may take from an earlier file: a row is reused only if it is
 * a measurement this build would have written (a hand-edited or damaged row
 * with iters -1, no samples or a 1e308 median is measured again), and only
 * if the file was timed as the new run is (rows timed otherwise do not
 * compare).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"

/* Whether a and b agree within rounding: the writer prints doubles to 15 or 17
 * significant digits, so a row read back differs from the computed value by
 * far less than this, and a forged one by far more. */
static int near(double a, double b)
{
  return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-300;
}

static int fail(char *why, size_t why_len, const char *fmt, double value)
{
  snprintf(why, why_len, fmt, value);
  return ATL_EINVAL;
}

int atl_row_validate(const struct atl_row *r, char *why, size_t why_len)
{
  struct atl_spec spec;
  int err = atl_spec_from_row(r, &spec, why, why_len);
  if (err)
    return err;
  if (r->status == ATL_STATUS_UNSUPPORTED)
    return 0; /* nothing was measured: the reason is the whole row */
  if (r->status != ATL_STATUS_OK) {
    snprintf(why, why_len, "status is %s, not ok or unsupported", atl_status_name(r->status));
    return ATL_EINVAL;
  }
  /* plain_add is the non-atomic control: it is expected not to verify. */
  if (!r->verified && spec.op != ATL_OP_PLAIN_ADD) {
    snprintf(why, why_len, "an ok row that is not verified");
    return ATL_EINVAL;
  }
  /* Counts outside their type (iters -1, 1e300 ops) are refused before any conversion. */
  const double iters = atl_row_metric(r, "iters", 0), row_ops = atl_row_metric(r, "ops", -1);
  if (!(iters >= 1 && iters <= UINT32_MAX && iters == floor(iters))) {
    snprintf(why, why_len, "iters is not a whole number from 1 to %u", UINT32_MAX);
    return ATL_EINVAL;
  }
  const uint64_t ops = atl_spec_active_threads(&spec) * (uint64_t)iters;
  if (row_ops != (double)ops) {
    snprintf(why, why_len, "ops is %.17g, not active threads x iters = %llu", row_ops, (unsigned long long)ops);
    return ATL_EINVAL;
  }
  const size_t n = r->time_ms.samples;
  if (n == 0 || r->samples_ms == NULL) {
    snprintf(why, why_len, "no samples (samples_ms is missing or empty)");
    return ATL_EINVAL;
  }
  for (size_t i = 0; i < n; i++)
    if (!isfinite(r->samples_ms[i]) || r->samples_ms[i] <= 0)
      return fail(why, why_len, "samples_ms holds %g, not a finite positive time", r->samples_ms[i]);
  const double median = r->time_ms.median;
  if (!isfinite(median) || median <= 0)
    return fail(why, why_len, "time_ms.median is %g, not a finite positive time", median);
  struct atl_stats st;
  atl_stats_compute(r->samples_ms, n, &st);
  if (!near(median, st.median)) {
    snprintf(why, why_len, "time_ms.median is %g, but the median of its %zu samples is %g", median, n, st.median);
    return ATL_EINVAL;
  }
  const double ops_per_us = (double)ops / (median * 1e3);
  const double row_ops_per_us = atl_row_metric(r, "ops_per_us", 0), gops = atl_row_metric(r, "gops", 0);
  if (!near(row_ops_per_us, ops_per_us)) {
    snprintf(why, why_len, "ops_per_us is %g, not ops / median = %g", row_ops_per_us, ops_per_us);
    return ATL_EINVAL;
  }
  if (!near(gops, ops_per_us * 1e-3)) {
    snprintf(why, why_len, "gops is %g, not ops / median = %g", gops, ops_per_us * 1e-3);
    return ATL_EINVAL;
  }
  return 0;
}

int atl_timing_match(const struct atl_timing *rec, const struct atl_timing *now, char *why, size_t why_len)
{
  /* Each setting by its name in struct atl_timing (the CLI knows its own flags). */
  const struct {
    const char *name;
    double recorded, asked;
  } settings[] = {
      {"target_ms", rec->target_ms, now->target_ms},
      {"noise", rec->noise, now->noise},
      {"min_samples", rec->min_samples, now->min_samples},
      {"max_samples", rec->max_samples, now->max_samples},
      {"budget_s", rec->budget_s, now->budget_s},
      {"fixed_iters", rec->fixed_iters, now->fixed_iters},
      {"max_iters", rec->max_iters, now->max_iters},
      {"repeats", rec->repeats, now->repeats},
      {"rounds", rec->rounds, now->rounds},
      {"placements", rec->placements, now->placements},
      {"discard_throttled", rec->discard_throttled, now->discard_throttled},
      {"rotate", rec->rotate, now->rotate},
  };
  for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
    if (near(settings[i].recorded, settings[i].asked))
      continue;
    char a[48], b[48];
    /* fixed_iters 0 in a file means "calibrated": say so rather than print 0. */
    if (strcmp(settings[i].name, "fixed_iters") == 0 && settings[i].recorded == 0)
      snprintf(a, sizeof a, "none (calibrated)");
    else
      snprintf(a, sizeof a, "%.15g", settings[i].recorded);
    if (strcmp(settings[i].name, "fixed_iters") == 0 && settings[i].asked == 0)
      snprintf(b, sizeof b, "none (calibrated)");
    else
      snprintf(b, sizeof b, "%.15g", settings[i].asked);
    snprintf(why, why_len, "%s differs: the file was measured with %s, this run asks for %s", settings[i].name, a, b);
    return ATL_EINVAL;
  }
  return 0;
}
