/* The timing settings by name, as a sweep command's options set them: each
 * one's syntax and range once, so every command checks them the same way. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"

enum kind { REAL, COUNT, FLAG };

static const struct {
  const char *name;
  enum kind kind;
  double min, max; /* COUNT: max only (iters: the timing's own max_iters) */
  size_t offset;
} settings[] = {
    {"target-ms", REAL, 0.001, 60000, offsetof(struct atl_timing, target_ms)},
    {"noise", REAL, 0, 10, offsetof(struct atl_timing, noise)},
    {"min-samples", COUNT, 1, 100000, offsetof(struct atl_timing, min_samples)},
    {"max-samples", COUNT, 1, 100000, offsetof(struct atl_timing, max_samples)},
    {"budget", REAL, 0, 86400, offsetof(struct atl_timing, budget_s)},
    /* The library runs at most max_iters (2^24) per thread: a larger value was
     * clamped without a word while the settings recorded the request. */
    {"iters", COUNT, 1, 0, offsetof(struct atl_timing, fixed_iters)},
    {"repeat", COUNT, 1, 100, offsetof(struct atl_timing, repeats)},
    {"rounds", COUNT, 1, ATL_MAX_ROUNDS, offsetof(struct atl_timing, rounds)},
    {"placements", COUNT, 1, ATL_MAX_PLACEMENTS, offsetof(struct atl_timing, placements)},
    {"discard-on-throttle", FLAG, 0, 0, offsetof(struct atl_timing, discard_throttled)},
    {"rotate", FLAG, 0, 0, offsetof(struct atl_timing, rotate)},
};

int atl_timing_set(struct atl_timing *t, const char *name, const char *text, char *why, size_t why_len)
{
  for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
    if (strcmp(settings[i].name, name) != 0)
      continue;
    void *field = (char *)t + settings[i].offset;
    if (settings[i].kind == FLAG) {
      *(int *)field = 1;
      return 0;
    }
    if (settings[i].kind == REAL) {
      char *end;
      const double v = strtod(text, &end);
      if (*text == '\0' || *end != '\0' || !(v >= settings[i].min && v <= settings[i].max)) {
        snprintf(why, why_len, "%s '%s' is not allowed: a number from %g to %g", name, text, settings[i].min,
                 settings[i].max);
        return ATL_EINVAL;
      }
      *(double *)field = v;
      return 0;
    }
    const uint32_t max = settings[i].max > 0 ? (uint32_t)settings[i].max : t->max_iters;
    struct atl_axis axis;
    char awhy[160];
    if (atl_axis_parse(text, max, &axis, awhy, sizeof awhy) != 0) {
      snprintf(why, why_len, "%s: %s", name, awhy);
      return ATL_EINVAL;
    }
    const int one = axis.count == 1;
    const uint32_t v = one ? axis.values[0] : 0;
    atl_axis_release(&axis);
    if (!one) {
      snprintf(why, why_len, "%s takes one whole number from 1 to %u", name, max);
      return ATL_EINVAL;
    }
    memcpy(field, &v, sizeof v); /* unsigned and uint32_t fields alike */
    return 0;
  }
  snprintf(why, why_len, "%s is not a timing setting", name);
  return ATL_EINVAL;
}

/* Every setting within the range its option allows (the library's callers fill the struct themselves): iters 0
 * (calibrate) or 1 to max_iters, max_iters 1 to 2^31 (iters x the hits of a word fit 32 bits), flags 0 or 1. */
static int timing_ranges(const struct atl_timing *t, char *why, size_t why_len)
{
  if (t->max_iters < 1 || t->max_iters > (1u << 31)) {
    snprintf(why, why_len, "max_iters %u is not allowed: 1 to 2^31", t->max_iters);
    return ATL_EINVAL;
  }
  for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
    const void *field = (const char *)t + settings[i].offset;
    double v;
    if (settings[i].kind == REAL) {
      v = *(const double *)field;
    } else {
      uint32_t w;
      memcpy(&w, field, sizeof w); /* unsigned, uint32_t and int fields alike */
      v = settings[i].kind == FLAG ? (double)(int32_t)w : (double)w;
    }
    const double max = settings[i].kind == FLAG ? 1 : settings[i].max > 0 ? settings[i].max : t->max_iters;
    const double min = settings[i].kind == FLAG || settings[i].offset == offsetof(struct atl_timing, fixed_iters)
                           ? 0
                           : settings[i].min;
    if (!(v >= min && v <= max)) { /* NaN too */
      snprintf(why, why_len, "%s %g is not allowed: %g to %g", settings[i].name, v, min, max);
      return ATL_EINVAL;
    }
  }
  return 0;
}

int atl_timing_check(const struct atl_timing *t, char *why, size_t why_len)
{
  if (t == NULL) {
    snprintf(why, why_len, "timing is NULL: settings are needed (atl_timing_defaults)");
    return ATL_EINVAL;
  }
  if (timing_ranges(t, why, why_len))
    return ATL_EINVAL;
  /* Every visit's row is held until the sweep ends (and its time recorded in visits_ms): 64 at most. */
  if ((uint64_t)t->repeats * t->rounds > 64) {
    snprintf(why, why_len, "repeat %u x rounds %u is %llu visits of each configuration: at most 64 allowed",
             t->repeats, t->rounds, (unsigned long long)t->repeats * t->rounds);
    return ATL_EINVAL;
  }
  if (t->rotate && t->placements < 2) { /* a rotation belongs to a placement: one placement has none */
    snprintf(why, why_len, "rotate needs placements of at least 2 (it has %u)", t->placements);
    return ATL_EINVAL;
  }
  if (t->max_samples >= t->min_samples)
    return 0;
  snprintf(why, why_len, "max-samples %u is below min-samples %u", t->max_samples, t->min_samples);
  return ATL_EINVAL;
}
