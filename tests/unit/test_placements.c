/*
 * --placements (docs/design/method.md, "Placements"): sample n is taken at placement n % P, sampling runs in whole
 * turns (two at least), the row's median is that of all samples (the placements share them equally), its noise
 * is the spread within placements, not between them, and the spread between placements is its own metric.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/timing.h"

/* A launch whose time is placement k's base time, times (1 + jitter) on every other visit of that placement. */
struct fake {
  unsigned launches;
  unsigned order[64];
  double base[8];
  double jitter;
};

static int fake_placed(void *arg, unsigned placement, uint32_t iters, double *ms)
{
  struct fake *f = arg;
  CHECK(iters == 7);
  const unsigned visit = f->launches < 64 ? f->launches : 63;
  f->order[visit] = placement;
  unsigned seen = 0;
  for (unsigned i = 0; i < visit; i++)
    seen += f->order[i] == placement;
  *ms = f->base[placement] * (seen % 2 ? 1 + f->jitter : 1);
  f->launches++;
  return 0;
}

static struct atl_timing timing(unsigned min, unsigned max, unsigned placements)
{
  struct atl_timing tm;
  atl_timing_defaults(&tm);
  tm.min_samples = min;
  tm.max_samples = max;
  tm.placements = placements;
  tm.budget_s = 1000;
  return tm;
}

int main(void)
{
  /* Four placements 10% apart, steady within each: two turns, in order, and the row is their median. */
  {
    struct fake f = {.base = {1.0, 1.3, 1.1, 1.2}, .jitter = 0.001};
    struct atl_timing tm = timing(3, 50, 4);
    struct atl_row row;
    memset(&row, 0, sizeof row);
    CHECK(atl__sample_placed(fake_placed, 4, &f, &tm, 7, &row) == 0);
    CHECK(row.time_ms.samples == 8 && f.launches == 8);
    for (unsigned i = 0; i < 8; i++)
      CHECK(f.order[i] == i % 4);
    /* pooled median of {1.0, 1.3, 1.1, 1.2, 1.001, 1.3013, 1.1011, 1.2012}: the middle pair 1.1011 and 1.2 */
    CHECK_NEAR(row.time_ms.median, (1.1011 + 1.2) / 2);
    /* Not noisy: the 30% between placements is not noise; the pooled IQR would be far above 2%. */
    CHECK(row.time_ms.noise < 0.002 && !row.time_ms.noisy);
    /* placement medians 1.0005, 1.30065, 1.10055, 1.2006: (slowest - fastest) / their median */
    CHECK_NEAR(atl__placement_spread(row.samples_ms, 8, 4), (1.30065 - 1.0005) / ((1.10055 + 1.2006) / 2));
    free(row.samples_ms);
  }
  /* Noisy within placements: on to max_samples, rounded up to whole turns (6 -> 8), and flagged. */
  {
    struct fake f = {.base = {1, 1, 1}, .jitter = 0.5};
    struct atl_timing tm = timing(5, 7, 3);
    struct atl_row row;
    memset(&row, 0, sizeof row);
    CHECK(atl__sample_placed(fake_placed, 3, &f, &tm, 7, &row) == 0);
    CHECK(row.time_ms.samples == 9); /* min 5 -> 6 (two turns), max 7 -> 9 */
    CHECK(row.time_ms.noisy && row.time_ms.noise > 0.02);
    free(row.samples_ms);
  }
  /* One placement: the samples are the plain sampler's (no turns, min_samples as asked). */
  {
    struct fake f = {.base = {2}, .jitter = 0};
    struct atl_timing tm = timing(3, 9, 1);
    struct atl_row row;
    memset(&row, 0, sizeof row);
    CHECK(atl__sample_placed(fake_placed, 1, &f, &tm, 7, &row) == 0);
    CHECK(row.time_ms.samples == 3 && row.time_ms.median == 2);
    free(row.samples_ms);
  }
  /* The within-placement noise and the spread on their own. */
  {
    const double ms[] = {1, 2, 1, 2, 1, 2, 1, 2};
    CHECK(atl__placement_noise(ms, 8, 2) == 0);
    CHECK_NEAR(atl__placement_spread(ms, 8, 2), 1 / 1.5);
    CHECK(atl__placement_noise(ms, 8, 1) < 0 && atl__placement_spread(ms, 8, 1) == 0);
  }
  /* With --rotate a pair of turns shares its pairings and the next pair has others: the noise is each sample
   * against its partner in the other turn of its pair (0 here), not against its placement (whose samples span
   * two pairings, 1 and 3: a spread within the placement). */
  {
    const double ms[] = {1, 2, 1, 2, 3, 2, 3, 2};
    CHECK(atl__pair_noise(ms, 8, 2) == 0);
    CHECK(atl__placement_noise(ms, 8, 2) > 0.1);
    CHECK(atl__sampling_noise(ms, 8, 2, 1) == 0 && atl__sampling_noise(ms, 8, 2, 0) > 0.1);
    const double odd[] = {1, 2, 1, 2, 5, 7}; /* an unpaired last turn counts against itself */
    CHECK(atl__pair_noise(odd, 6, 2) == 0);
  }
  /* The setting: 1 to ATL_MAX_PLACEMENTS, one whole number. */
  {
    struct atl_timing tm;
    char why[200];
    atl_timing_defaults(&tm);
    CHECK(tm.placements == 1);
    CHECK(atl_timing_set(&tm, "placements", "8", why, sizeof why) == 0 && tm.placements == 8);
    CHECK(atl_timing_set(&tm, "placements", "0", why, sizeof why) == ATL_EINVAL && strstr(why, "placements"));
    CHECK(atl_timing_set(&tm, "placements", "9", why, sizeof why) == ATL_EINVAL);
    CHECK(atl_timing_set(&tm, "placements", "2,4", why, sizeof why) == ATL_EINVAL);
  }
  return check_exit("test_placements");
}
