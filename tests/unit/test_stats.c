/* atl_stats_compute: exact summary statistics, quartiles by type-7 linear
 * interpolation (the R / numpy default, which the noise threshold assumes). */
#include <string.h>

#include "atomlab.h"
#include "check.h"

/* Every field of @p st against @p want. */
static void check_stats(const struct atl_stats *st, const struct atl_stats *want)
{
  CHECK(st->samples == want->samples);
  CHECK_NEAR(st->median, want->median);
  CHECK_NEAR(st->q1, want->q1);
  CHECK_NEAR(st->q3, want->q3);
  CHECK_NEAR(st->iqr, want->iqr);
  CHECK_NEAR(st->noise, want->noise);
  CHECK_NEAR(st->min, want->min);
  CHECK_NEAR(st->max, want->max);
  CHECK_NEAR(st->mean, want->mean);
}

int main(void)
{
  struct atl_stats st;

  const double odd[] = {1, 2, 3, 4, 5};
  atl_stats_compute(odd, 5, &st);
  check_stats(&st, &(struct atl_stats){.samples = 5, .median = 3, .q1 = 2, .q3 = 4, .iqr = 2, .noise = 2.0 / 3.0,
                                       .min = 1, .max = 5, .mean = 3});

  /* Unsorted and even: the input must be sorted internally (and not in place:
   * the caller's samples are written out raw later). */
  double even[] = {4, 1, 3, 2};
  atl_stats_compute(even, 4, &st);
  check_stats(&st, &(struct atl_stats){.samples = 4, .median = 2.5, .q1 = 1.75, .q3 = 3.25, .iqr = 1.5,
                                       .noise = 1.5 / 2.5, .min = 1, .max = 4, .mean = 2.5});
  CHECK(even[0] == 4 && even[1] == 1 && even[2] == 3 && even[3] == 2);

  /* n = 0: every field zero, whatever the struct held before. */
  memset(&st, 0x7f, sizeof st);
  atl_stats_compute(NULL, 0, &st);
  CHECK(st.samples == 0);
  CHECK(st.median == 0 && st.min == 0 && st.max == 0 && st.mean == 0);
  CHECK(st.q1 == 0 && st.q3 == 0 && st.iqr == 0 && st.noise == 0);

  /* n = 1: every location statistic is the value, spread is zero. */
  const double one[] = {7.25};
  atl_stats_compute(one, 1, &st);
  check_stats(&st, &(struct atl_stats){.samples = 1, .median = 7.25, .q1 = 7.25, .q3 = 7.25, .min = 7.25,
                                       .max = 7.25, .mean = 7.25});
  CHECK(st.iqr == 0 && st.noise == 0);

  /* n = 2: quartiles at 1/4 and 3/4 of the way between the two values. */
  const double two[] = {10, 2};
  atl_stats_compute(two, 2, &st);
  CHECK_NEAR(st.median, 6);
  CHECK_NEAR(st.q1, 4);
  CHECK_NEAR(st.q3, 8);
  CHECK_NEAR(st.noise, 4.0 / 6.0);

  /* Ties and a larger odd n: {1,1,1,1,100,2,2,2,2} sorted is 1x4, 2x4, 100;
   * positions 2, 4, 6 give q1 1, median 2, q3 2. */
  const double ties[] = {1, 1, 1, 1, 100, 2, 2, 2, 2};
  atl_stats_compute(ties, 9, &st);
  CHECK_NEAR(st.q1, 1);
  CHECK_NEAR(st.median, 2);
  CHECK_NEAR(st.q3, 2);
  CHECK_NEAR(st.max, 100);
  CHECK_NEAR(st.mean, 112.0 / 9.0);

  /* A zero median must not divide by zero: noise is defined as 0 there. */
  const double zeros[] = {0, 0, 0};
  atl_stats_compute(zeros, 3, &st);
  CHECK(st.noise == 0 && st.median == 0);
  return check_exit("test_stats");
}
