/*
 * Findings in words (findings.h): each sentence carries its numbers and
 * their spread, and a difference is stated only where its spread keeps it
 * more than 5% away from none.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "atomlab/findings.h"
#include "output_internal.h"

/* A ratio within this of 1, at either end of its spread, is not a difference. */
#define SAME_WITHIN 0.05

struct rate {
  double v, lo, hi; /* Gop/s at the median time, at the third and at the first quartile */
  double rep;       /* the row's repeat_deviation (--repeat): how far another pass's median lay */
};

/* Set by ratio_of when the difference it found does not hold once every --repeat pass is allowed for;
 * the next add() says so in its sentence. Per thread: findings may be made by several at once. */
static _Thread_local int unstable_pending;

static int usable(const struct atl_row *r)
{
  return r->status == ATL_STATUS_OK && r->verified && r->time_ms.median > 0;
}

static struct rate rate_of(const struct atl_row *r)
{
  const struct atl_stats *t = &r->time_ms;
  double g = atl_row_metric(r, "gops", 0);
  if (!(g > 0))
    g = 1.0 / t->median; /* launches per ms: ratios are what is stated */
  return (struct rate){g, t->q3 > 0 ? g * t->median / t->q3 : g, t->q1 > 0 ? g * t->median / t->q1 : g,
                       atl_row_metric(r, "repeat_deviation", 0)};
}

/* a / b with its spread; 1 when the spread keeps it a difference of more than 5%. */
static int ratio_of(struct rate a, struct rate b, double *r, double *lo, double *hi)
{
  *r = a.v / b.v;
  *lo = a.lo / b.hi;
  *hi = a.hi / b.lo;
  const int differs = *lo > 1 + SAME_WITHIN || *hi < 1 - SAME_WITHIN;
  /* every pass: each side's median may lie as far as its repeat deviation from the one kept */
  const double w = (1 + a.rep) * (1 + b.rep);
  unstable_pending = differs && !(*lo / w > 1 + SAME_WITHIN || *hi * w < 1 - SAME_WITHIN);
  return differs;
}

static struct atl_finding *add(struct atl_findings *f, const char *topic, double r, double lo, double hi,
                               const char *fmt, ...)
{
  struct atl_finding *x = atl__grow_slot(&f->items, &f->count, &f->cap, sizeof *x, 16);
  if (x == NULL)
    return NULL;
  snprintf(x->topic, sizeof x->topic, "%s", topic);
  x->ratio = r, x->lo = lo, x->hi = hi;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(x->text, sizeof x->text, fmt, ap);
  va_end(ap);
  if (unstable_pending) {
    const size_t used = strlen(x->text);
    snprintf(x->text + used, sizeof x->text - used, " This difference did not hold in every --repeat pass.");
    snprintf(x->topic, sizeof x->topic, "unstable");
    unstable_pending = 0;
  }
  return x;
}

/* "4.2x (4.1-4.3x)" or, below 1, its inverse said the other way by the caller. */
static void times(char *out, size_t len, double r, double lo, double hi)
{
  if (r >= 1)
    snprintf(out, len, "%.3gx (%.3g-%.3gx)", r, lo, hi);
  else
    snprintf(out, len, "%.3gx (%.3g-%.3gx)", 1 / r, 1 / hi, 1 / lo);
}

/* The configuration an rmw finding compares within: everything but the grid and the two axes. */
static const char *const group_fields[] = {"pattern", "op", "type", "space", "result", "scope", "order", NULL};

static int same_group(const struct atl_row *a, const struct atl_row *b, const char *except)
{
  for (const char *const *f = group_fields; *f; f++) {
    if (except && strcmp(*f, except) == 0)
      continue;
    const char *x = atl_row_config(a, *f), *y = atl_row_config(b, *f);
    if ((x == NULL) != (y == NULL) || (x && strcmp(x, y) != 0))
      return 0;
  }
  return 1;
}

static void group_name(const struct atl_row *r, char *out, size_t len)
{
  snprintf(out, len, "%s %s %s (%s memory, result %s)", atl_row_config_or(r, "pattern", "?"),
           atl_row_config_or(r, "op", "?"), atl_row_config_or(r, "type", "?"), atl_row_config_or(r, "space", "?"),
           atl_row_config_or(r, "result", "?"));
}

static double num(const struct atl_row *r, const char *name) { return atl_row_number(r, name, -1); }

/* The row of @p base's group at (contention, padding) chosen by @p pick: the largest contention at padding 1
 * (pick 'c') or the largest padding at contention 1 (pick 'p'). */
static const struct atl_row *extreme(const struct atl_result_set *set, const struct atl_row *base, int pick)
{
  const struct atl_row *best = NULL;
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *r = &set->rows[i];
    if (!usable(r) || !same_group(r, base, NULL))
      continue;
    const double c = num(r, "contention"), p = num(r, "padding");
    if (pick == 'c' && p == 1 && c > 1 && (best == NULL || c > num(best, "contention")))
      best = r;
    if (pick == 'p' && c == 1 && p > 1 && (best == NULL || p > num(best, "padding")))
      best = r;
  }
  return best;
}

static int noise_finding(const struct atl_result_set *set, struct atl_findings *out)
{
  size_t ok = 0, noisy = 0;
  for (size_t i = 0; i < set->count; i++)
    if (set->rows[i].status == ATL_STATUS_OK) {
      ok++;
      noisy += set->rows[i].time_ms.noisy != 0;
    }
  if (ok == 0)
    return 0;
  const double target = set->meta.timing.noise;
  if (noisy == 0)
    return add(out, "noise", 0, 0, 0, "Every one of the %zu measured rows met the noise target (IQR within %.3g%% of "
               "the median).", ok, target * 100) ? 0 : ATL_ENOMEM;
  return add(out, "noise", 0, 0, 0,
             "%zu of %zu measured rows stayed above the noise target (IQR within %.3g%% of the median) and are "
             "flagged noisy: a shared or throttled machine is the usual cause; rerunning with --repeat N shows which findings "
             "hold in every pass.", noisy, ok, target * 100)
             ? 0
             : ATL_ENOMEM;
}

int atl_findings_rmw(const struct atl_result_set *set, struct atl_findings *out)
{
  const struct atl_device_info *dev = &set->meta.device;
  char name[160], x[64];
  double r, lo, hi;
  if (dev->type == ATL_DEVICE_CPU &&
      !add(out, "cpu", 0, 0, 0,
           "These rates are a CPU's (%s): they show how its %s driver serialises atomics on cores and caches, "
           "not how any GPU behaves; run the report on a GPU for those.", dev->name,
           strcmp(dev->backend, "vulkan") == 0 ? "Vulkan" : "OpenCL"))
    return ATL_ENOMEM;
  if (noise_finding(set, out))
    return ATL_ENOMEM;
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *base = &set->rows[i];
    if (!usable(base) || num(base, "contention") != 1 || num(base, "padding") != 1)
      continue;
    const struct rate b = rate_of(base);
    group_name(base, name, sizeof name);
    const struct atl_row *hot = extreme(set, base, 'c'), *spread = extreme(set, base, 'p');
    if (hot && ratio_of(b, rate_of(hot), &r, &lo, &hi)) {
      times(x, sizeof x, r, lo, hi);
      if (!add(out, "pattern", r, lo, hi, "%s: %g threads per word run at %.4g Gop/s, %s %s than one thread per "
               "word (%.4g Gop/s).", name, num(hot, "contention"), rate_of(hot).v, x, r >= 1 ? "slower" : "faster",
               b.v))
        return ATL_ENOMEM;
    }
    /* The knee: the fewest threads per word (padding 1) at which the rate is below half of one thread's,
     * beyond the noise of both. */
    const struct atl_row *knee = NULL;
    for (size_t j = 0; j < set->count; j++) {
      const struct atl_row *o = &set->rows[j];
      if (!usable(o) || !same_group(o, base, NULL) || num(o, "padding") != 1 || num(o, "contention") <= 1 ||
          !(rate_of(o).hi < 0.5 * b.lo) || (knee && num(o, "contention") >= num(knee, "contention")))
        continue;
      knee = o;
    }
    if (knee && !add(out, "knee", 0, 0, 0, "%s: from %g threads per word on, the rate is below half the rate of one "
                     "thread per word (%.4g against %.4g Gop/s, padding 1).", name, num(knee, "contention"),
                     rate_of(knee).v, b.v))
      return ATL_ENOMEM;
    if (spread && num(spread, "padding") >= 32 && ratio_of(b, rate_of(spread), &r, &lo, &hi)) {
      times(x, sizeof x, r, lo, hi);
      if (!add(out, "same-line", r, lo, hi, "%s: neighbouring words (padding 1) run at %.4g Gop/s, %s %s than "
               "words %g apart (%.4g Gop/s), where each thread has a 128-byte line of its own.", name, b.v, x,
               r >= 1 ? "faster" : "slower", num(spread, "padding"), rate_of(spread).v))
        return ATL_ENOMEM;
    }
    /* RED against ATOM: the same configuration with the result used */
    const char *use = atl_row_config(base, "result");
    for (size_t j = 0; use && strcmp(use, "unused") == 0 && j < set->count; j++) {
      const struct atl_row *u = &set->rows[j];
      const char *uu = atl_row_config(u, "result");
      if (!usable(u) || !uu || strcmp(uu, "used") != 0 || !same_group(u, base, "result") ||
          num(u, "contention") != 1 || num(u, "padding") != 1)
        continue;
      if (ratio_of(b, rate_of(u), &r, &lo, &hi)) {
        times(x, sizeof x, r, lo, hi);
        if (!add(out, "red-atom", r, lo, hi,
                 "%s %s: with the result unused (a reduction, RED on NVIDIA) it runs "
                 "%s %s than with the result used (ATOM), %.4g against %.4g Gop/s.",
                 atl_row_config_or(base, "pattern", "?"), atl_row_config_or(base, "op", "?"), x,
                 r >= 1 ? "faster" : "slower", b.v, rate_of(u).v))
          return ATL_ENOMEM;
      }
      break;
    }
    /* Per clock and per compute unit, beside the GTC 2013 (Kepler) figures, for the first group only */
    if (dev->clock_mhz > 0 && dev->compute_units > 0 && atl_row_config_is(base, "pattern", "contiguous") &&
        atl_row_config_is(base, "op", "fetch_add")) {
      const double per_clock = b.v * 1e9 / (dev->clock_mhz * 1e6);
      if (!add(out, "per-clock", 0, 0, 0, "%s, one thread per word: %.3g atomics per clock, %.3g per compute unit "
               "per clock at the %u MHz maximum clock (GTC 2013 gave Kepler 1 per SM per clock for scattered "
               "addresses).", name, per_clock, per_clock / dev->compute_units, dev->clock_mhz))
        return ATL_ENOMEM;
      if (hot) {
        const double hot_clock = rate_of(hot).v * 1e9 / (dev->clock_mhz * 1e6);
        if (!add(out, "per-clock", 0, 0, 0, "%s, %g threads per word: %.3g atomics per clock on the device "
                 "(GTC 2013 gave Kepler 1 per clock on one address).", name, num(hot, "contention"), hot_clock))
          return ATL_ENOMEM;
      }
    }
  }
  return 0;
}

int atl_findings_strategy(const struct atl_result_set *set, struct atl_findings *out)
{
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *w = &set->rows[i];
    if (!usable(w) || atl_row_metric(w, "winner", 0) != 1)
      continue;
    /* the runner-up: the fastest other usable strategy of the same configuration */
    const struct atl_row *second = NULL;
    for (size_t j = 0; j < set->count; j++) {
      const struct atl_row *o = &set->rows[j];
      if (o == w || !usable(o) || !same_group(o, w, NULL) || num(o, "contention") != num(w, "contention") ||
          num(o, "padding") != num(w, "padding"))
        continue;
      if (second == NULL || rate_of(o).v > rate_of(second).v)
        second = o;
    }
    double r, lo, hi;
    char x[64];
    if (second == NULL)
      continue;
    if (ratio_of(rate_of(w), rate_of(second), &r, &lo, &hi)) {
      times(x, sizeof x, r, lo, hi);
      if (!add(out, "strategy", r, lo, hi, "%s %s, result %s: use %s: %.4g Gop/s, %s faster than the next, %s.",
               atl_row_config_or(w, "pattern", "?"), atl_row_config_or(w, "op", "?"),
               atl_row_config_or(w, "result", "?"), atl_row_config_or(w, "strategy", "?"), rate_of(w).v, x,
               atl_row_config_or(second, "strategy", "?")))
        return ATL_ENOMEM;
    } else if (!add(out, "strategy", 0, 0, 0,
                    "%s %s, result %s: %s (%.4g Gop/s) and %s (%.4g Gop/s) are within "
                    "their noise of each other: either serves.",
                    atl_row_config_or(w, "pattern", "?"), atl_row_config_or(w, "op", "?"),
                    atl_row_config_or(w, "result", "?"), atl_row_config_or(w, "strategy", "?"), rate_of(w).v,
                    atl_row_config_or(second, "strategy", "?"), rate_of(second).v))
      return ATL_ENOMEM;
  }
  return 0;
}

int atl_findings_histogram(const struct atl_result_set *set, struct atl_findings *out)
{
  /* variants are "TYPE/DISTRIBUTION/VARIANT"; per input, the fastest one that is neither ceiling nor CUB */
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *r = &set->rows[i];
    const char *v = atl_row_config(r, "variant");
    const char *slash = v ? strrchr(v, '/') : NULL;
    if (!usable(r) || slash == NULL || strcmp(slash, "/read-ceiling") == 0 || strcmp(slash, "/cub") == 0)
      continue;
    int best = 1;
    for (size_t j = 0; j < set->count && best; j++) {
      const struct atl_row *o = &set->rows[j];
      const char *w = atl_row_config(o, "variant");
      const char *s2 = w ? strrchr(w, '/') : NULL;
      if (o != r && usable(o) && s2 && s2 - w == slash - v && strncmp(w, v, (size_t)(slash - v)) == 0 &&
          strcmp(s2, "/read-ceiling") != 0 && strcmp(s2, "/cub") != 0 &&
          (o->time_ms.median < r->time_ms.median || (o->time_ms.median == r->time_ms.median && j < i)))
        best = 0;
    }
    if (!best)
      continue;
    const double to_read = atl_row_metric(r, "ratio_to_read", 0), to_cub = atl_row_metric(r, "ratio_to_cub", 0);
    char cub[96] = "";
    if (to_cub > 0)
      snprintf(cub, sizeof cub, ", %.3gx the CUB HistogramEven", to_cub);
    if (!add(out, "histogram", 0, 0, 0, "histogram of %.*s: %s is the fastest variant at %.4g GB/s, %.3g of "
             "the read ceiling%s.", (int)(slash - v), v, slash + 1, atl_row_metric(r, "gbps", 0), to_read, cub))
      return ATL_ENOMEM;
  }
  return 0;
}

int atl_findings_datasheet(const struct atl_result_set *set, struct atl_findings *out)
{
  /* RED against ATOM where it matters most: the add and the CAS, per type and space */
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *red = &set->rows[i];
    const char *op = atl_row_config(red, "op"), *use = atl_row_config(red, "result");
    if (!usable(red) || !op || !use || strcmp(use, "unused") != 0 || (strcmp(op, "fetch_add") && strcmp(op, "cas")))
      continue;
    for (size_t j = 0; j < set->count; j++) {
      const struct atl_row *atom = &set->rows[j];
      const char *u2 = atl_row_config(atom, "result");
      if (!usable(atom) || !u2 || strcmp(u2, "used") != 0 || !atl_row_config_is(atom, "op", op) ||
          !atl_row_config_is(atom, "type", atl_row_config_or(red, "type", "")) ||
          !atl_row_config_is(atom, "space", atl_row_config_or(red, "space", "")))
        continue;
      const double a = atl_row_metric(red, "peak_gops", 0), b = atl_row_metric(atom, "peak_gops", 0);
      struct rate ra = rate_of(red), rb = rate_of(atom);
      ra = (struct rate){a, a * ra.lo / ra.v, a * ra.hi / ra.v, ra.rep}; /* the peak rows' spread, at their rates */
      rb = (struct rate){b, b * rb.lo / rb.v, b * rb.hi / rb.v, rb.rep};
      double r, lo, hi;
      char x[64];
      if (a > 0 && b > 0 && ratio_of(ra, rb, &r, &lo, &hi)) {
        times(x, sizeof x, r, lo, hi);
        if (!add(out, "red-atom", r, lo, hi,
                 "%s %s in %s memory at one thread per word: with the result unused "
                 "(a reduction, RED on NVIDIA) %.4g Gop/s, %s %s than with the result used (ATOM, %.4g Gop/s).",
                 op, atl_row_config_or(red, "type", "?"), atl_row_config_or(red, "space", "?"), a, x,
                 r >= 1 ? "faster" : "slower", b))
          return ATL_ENOMEM;
      }
      break;
    }
  }
  return 0;
}

void atl_findings_release(struct atl_findings *f)
{
  free(f->items);
  memset(f, 0, sizeof *f);
}
