/* atl_compare: rows paired by configuration, the verdict rule, the summary. */
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"

/* A row of variant @p v whose samples are @p s (3 of them). */
static void add(struct atl_result_set *set, const char *v, const double *s, enum atl_status status)
{
  struct atl_row row;
  atl_row_init(&row, "app");
  atl_row_config_set(&row, "app", "t");
  atl_row_config_set(&row, "variant", v);
  row.status = status;
  row.verified = status == ATL_STATUS_OK;
  if (s) {
    row.samples_ms = malloc(3 * sizeof *row.samples_ms);
    memcpy(row.samples_ms, s, 3 * sizeof *s);
    atl_stats_compute(s, 3, &row.time_ms);
  }
  CHECK(atl_result_set_add(set, &row) == 0);
}

int main(void)
{
  struct atl_result_set a = {.kind = "app"}, b = {.kind = "app"};
  const double base[] = {1.0, 1.1, 1.2}, near[] = {1.02, 1.12, 1.22}, fast[] = {0.5, 0.55, 0.6},
               wide[] = {0.7, 1.1, 1.5};
  add(&a, "same", base, ATL_STATUS_OK);
  add(&b, "same", near, ATL_STATUS_OK);
  add(&a, "faster", base, ATL_STATUS_OK);
  add(&b, "faster", fast, ATL_STATUS_OK);
  add(&a, "unclear", base, ATL_STATUS_OK);
  add(&b, "unclear", (const double[]){0.7, 0.8, 1.5}, ATL_STATUS_OK);
  add(&a, "na", NULL, ATL_STATUS_ERROR);
  add(&b, "na", wide, ATL_STATUS_OK);
  add(&a, "only-a", base, ATL_STATUS_OK);
  add(&b, "only-b", base, ATL_STATUS_OK);
  struct atl_comparison c;
  CHECK(atl_compare(&a, &b, 0.05, NULL, &c) == 0);
  CHECK(c.count == 6 && c.only_a == 1 && c.only_b == 1 && c.timed == 3 && c.flagged == 1);
  const enum atl_verdict want[] = {ATL_VERDICT_SAME, ATL_VERDICT_FASTER, ATL_VERDICT_UNCLEAR, ATL_VERDICT_NA};
  for (size_t i = 0; i < 4 && c.count == 6; i++) {
    CHECK(c.pairs[i].a && c.pairs[i].b && c.pairs[i].verdict == want[i]);
    CHECK(strcmp(atl_row_config(c.pairs[i].a, "variant"), atl_row_config(c.pairs[i].b, "variant")) == 0);
  }
  if (c.count == 6) {
    CHECK(strcmp(c.pairs[3].flags, "A:error") == 0);
    CHECK(c.pairs[4].b == NULL && c.pairs[5].a == NULL);
    CHECK(c.pairs[1].ratio > 0.49 && c.pairs[1].ratio < 0.51); /* 0.55 / 1.1 from the samples */
  }
  CHECK(strcmp(atl_verdict_name(ATL_VERDICT_NA), "n/a") == 0);
  /* Rows with no time: one status on both sides is the same outcome (compare X X says same), two are n/a;
   * neither has a ratio in the geometric mean. */
  struct atl_result_set u = {.kind = "app"}, v = {.kind = "app"};
  add(&u, "unsupported", NULL, ATL_STATUS_UNSUPPORTED);
  add(&v, "unsupported", NULL, ATL_STATUS_UNSUPPORTED);
  add(&u, "other", NULL, ATL_STATUS_UNSUPPORTED);
  add(&v, "other", NULL, ATL_STATUS_ERROR);
  add(&u, "derived", NULL, ATL_STATUS_OK); /* a model's row: ok, no time */
  add(&v, "derived", NULL, ATL_STATUS_OK);
  struct atl_comparison cu;
  CHECK(atl_compare(&u, &v, 0.05, NULL, &cu) == 0);
  CHECK(cu.count == 3 && cu.timed == 0 && cu.counts[ATL_VERDICT_SAME] == 2 && cu.counts[ATL_VERDICT_NA] == 1);
  CHECK(cu.count == 3 && cu.pairs[0].verdict == ATL_VERDICT_SAME && cu.pairs[1].verdict == ATL_VERDICT_NA);
  CHECK(cu.count == 3 && cu.pairs[2].verdict == ATL_VERDICT_SAME);
  atl_comparison_release(&cu);
  atl_result_set_release(&u);
  atl_result_set_release(&v);
  /* The faster pair again, A measured with --repeat and a spread between its repeats wider than the change:
   * drift, not a change, so unclear; and a noisy side is noted. */
  atl_row_metric_set(&a.rows[1], "repeat_spread", 0.6);
  b.rows[1].time_ms.noisy = 1;
  struct atl_comparison c2;
  CHECK(atl_compare(&a, &b, 0.05, NULL, &c2) == 0);
  CHECK(c2.count == 6 && c2.pairs[1].verdict == ATL_VERDICT_UNCLEAR && c2.noisy == 1);
  CHECK(c2.count == 6 && strcmp(c2.pairs[1].flags, "noisy") == 0);
  atl_comparison_release(&c2);
  atl_comparison_release(&c);
  atl_result_set_release(&a);
  atl_result_set_release(&b);
  return check_exit("test_compare");
}
