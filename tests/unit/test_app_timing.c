/*
 * Apps are timed by docs/design/method.md's sampling, the core's (atl__sample_stats):
 * steady times stop at min_samples, noisy ones go on to max_samples or the
 * budget, a fixed count takes exactly that many, and the CUB baseline's
 * batches (the plugin times several runs per call) are asked for only as
 * long as the sampling wants more.
 */
#include <string.h>

#include "apps/app_internal.h"
#include "check.h"

/* A launch whose device time alternates between 1 ms and @p spread ms (1: steady). */
struct fake {
  unsigned launches;
  double spread;
};

static int fake_launch(void *arg, uint32_t iters, double *ms)
{
  struct fake *f = arg;
  CHECK(iters == 0);
  *ms = f->launches++ % 2 ? f->spread : 1.0;
  return 0;
}

static int fake_failure(void *arg, uint32_t iters, double *ms)
{
  struct fake *f = arg;
  (void)iters;
  *ms = 1;
  return ++f->launches == 3 ? ATL_EIO : 0;
}

/* A CUB call: @p reps times of 2 ms; counts its calls and runs. */
static unsigned cub_calls, cub_runs;
static int fake_cub(void *arg, unsigned reps, float *times, char *why, size_t len)
{
  (void)arg;
  cub_calls++;
  cub_runs += reps;
  for (unsigned i = 0; i < reps; i++)
    times[i] = 2.0f;
  if (reps == 0)
    snprintf(why, len, "no runs asked for");
  return reps == 0;
}

int main(void)
{
  struct atl_app_timing tm;
  struct atl_stats st;
  struct fake f = {0, 1.0};
  atl_app_timing_defaults(&tm);

  CHECK(atl__app_sample(fake_launch, &f, &tm, &st) == 0); /* steady: no noise after the minimum */
  CHECK(st.samples == 5 && f.launches == 5 && st.median == 1.0 && st.noise == 0 && !st.noisy);

  f = (struct fake){0, 3.0}; /* half the launches 3x slower: never quiet */
  tm.budget_s = 60;
  CHECK(atl__app_sample(fake_launch, &f, &tm, &st) == 0 && st.samples == 50 && st.noise > tm.noise);
  CHECK(st.noisy); /* the target was missed: flagged, not passed as a quiet row */
  tm.budget_s = 0; /* the budget ends it right after the minimum */
  f = (struct fake){0, 3.0};
  CHECK(atl__app_sample(fake_launch, &f, &tm, &st) == 0 && st.samples == 5 && st.noisy);
  tm.noise = 10; /* a threshold that noise meets */
  f = (struct fake){0, 3.0};
  tm.budget_s = 60;
  CHECK(atl__app_sample(fake_launch, &f, &tm, &st) == 0 && st.samples == 5 && !st.noisy);

  tm.samples = 7; /* a fixed count: exactly that many, whatever the noise */
  tm.noise = 0;
  f = (struct fake){0, 3.0};
  CHECK(atl__app_sample(fake_launch, &f, &tm, &st) == 0 && st.samples == 7 && f.launches == 7);

  f = (struct fake){0, 1.0};
  CHECK(atl__app_sample(fake_failure, &f, &tm, &st) == ATL_EIO && f.launches == 3);

  struct atl_row row;
  char why[128] = "";
  atl_app_timing_defaults(&tm);
  memset(&row, 0, sizeof row);
  CHECK(atl__app_cub_time(fake_cub, NULL, &tm, &row, why, sizeof why) == 0);
  CHECK(cub_calls == 1 && cub_runs == 5 && row.time_ms.samples == 5 && row.time_ms.median == 2.0);
  tm.samples = 3;
  cub_calls = cub_runs = 0;
  CHECK(atl__app_cub_time(fake_cub, NULL, &tm, &row, why, sizeof why) == 0 && cub_calls == 1 && cub_runs == 3);
  return check_exit("test_app_timing");
}
