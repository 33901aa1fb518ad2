/* The sweep without a device: resumed rows matched by configuration, the
 * order of the set, checkpoints holding every row, and the stop after the
 * current row keeping the old rows not reused yet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"

static int measured[8], checkpoints, pass_of[8], order_seen[8][16];
/* --repeat: configuration 0's median per pass (the middle one is kept), configuration 1 fails its second pass */
static const double pass_ms[3] = {3.0, 1.0, 2.0};

static void configure(const void *arg, size_t i, struct atl_row *row)
{
  (void)arg;
  atl_row_init(row, "app");
  atl_row_config_set(row, "app", "fake");
  atl_row_config_number(row, "variant", (double)i);
}

static int measure(atl_context_t ctx, const void *arg, size_t i, const struct atl_timing *t, struct atl_row *row)
{
  (void)ctx, (void)t;
  configure(arg, i, row);
  row->status = ATL_STATUS_OK;
  row->verified = 1;
  measured[i]++;
  if (arg != NULL && strcmp(arg, "stop") == 0 && i == 1) /* the "signal" arrives while row 1 is measured */
    atl_stop_request(15);
  if (arg != NULL && strcmp(arg, "rounds") == 0) {
    /* 2 repeats x 3 rounds: repeat 0's rounds 5, 9, 7 (median 7), repeat 1's 6, 20, 8 (median 8); configuration
     * 2 fails one round of repeat 1 */
    static const double round_ms[6] = {5, 9, 7, 6, 20, 8};
    const int pass = pass_of[i]++;
    row->time_ms.median = round_ms[pass % 6];
    atl_row_metric_set(row, "pass", pass);
    row->verified = !(i == 2 && pass == 4);
    for (int k = 0; k < 8; k++) /* the order of the visits: how many were measured before this one in its pass */
      order_seen[i][pass] += pass_of[k] > pass;
  }
  if (arg != NULL && strcmp(arg, "repeat") == 0) {
    const int pass = pass_of[i]++;
    row->time_ms.median = pass_ms[pass % 3];
    atl_row_metric_set(row, "pass", pass);
    row->verified = !(i == 1 && pass == 1);
  }
  return 0;
}

static int validate(const struct atl_row *row, char *why, size_t len)
{
  if (row->verified)
    return 0;
  snprintf(why, len, "not verified");
  return ATL_EINVAL;
}

static void checkpoint(void *arg, const struct atl_result_set *rows)
{
  (void)arg;
  checkpoints++;
  CHECK(rows->count >= 1);
}

/* An old row of configuration @p i (or of one outside the sweep). */
static void add_old(struct atl_result_set *old, size_t i, int verified)
{
  struct atl_row row;
  configure(NULL, i, &row);
  row.status = ATL_STATUS_OK;
  row.verified = verified;
  atl_row_metric_set(&row, "old", 1);
  CHECK(atl_result_set_add(old, &row) == 0);
}

int main(void)
{
  struct atl_timing t;
  atl_timing_defaults(&t);
  /* 4 configurations; the file has a good row of 2, a bad row of 3 and one of configuration 7 (outside) */
  struct atl_result_set old = {.kind = "app"}, set = {.kind = "app"};
  add_old(&old, 2, 1);
  add_old(&old, 3, 0);
  add_old(&old, 7, 1);
  struct atl_sweep_spec spec = {"app", 4, configure, measure, validate, NULL};
  struct atl_sweep_run run = {&t, &old, 0, 1e-9, checkpoint, NULL, NULL, NULL};
  struct atl_sweep_report rep;
  CHECK(atl_sweep(NULL, &spec, &run, &set, &rep) == 0);
  CHECK(rep.measured == 3 && rep.reused == 1 && rep.invalid == 1 && rep.kept == 1 && rep.dropped == 0);
  CHECK(strstr(rep.first_invalid, "row 1: not verified") != NULL);
  CHECK(measured[0] == 1 && measured[1] == 1 && measured[2] == 0 && measured[3] == 1);
  CHECK(set.count == 5 && set.meta.rows_planned == 5 && checkpoints >= 3);
  for (size_t i = 0; i < set.count && set.count == 5; i++) {
    static const double variants[] = {0, 1, 2, 3, 7};
    CHECK(atl_row_number(&set.rows[i], "variant", -1) == variants[i]);
    CHECK((atl_row_metric(&set.rows[i], "old", 0) == 1) == (i == 2 || i == 4));
  }
  atl_result_set_release(&set);
  atl_result_set_release(&old);

  /* Stopped while row 1 is measured: rows 0 and 1, then the old rows of 2 (not reused yet) and 7. */
  memset(measured, 0, sizeof measured);
  struct atl_result_set old2 = {.kind = "app"}, set2 = {.kind = "app"};
  add_old(&old2, 2, 1);
  add_old(&old2, 7, 1);
  spec.arg = "stop";
  run.resume = &old2;
  run.drop_others = 1; /* 7 is dropped, but 2 is pending: a stopped run keeps it */
  CHECK(atl_sweep(NULL, &spec, &run, &set2, &rep) == 0);
  CHECK(rep.measured == 2 && rep.reused == 0 && rep.dropped == 1 && measured[2] == 0 && measured[3] == 0);
  CHECK(set2.count == 3 && atl_row_number(&set2.rows[2], "variant", -1) == 2);
  atl_stop_reset();
  atl_result_set_release(&set2);
  atl_result_set_release(&old2);

  /* --repeat 3: every configuration measured in three passes, pass after pass; the row kept is the repeat
   * of median time with the spread, and a repeat that was not verified is kept rather than voted away */
  memset(measured, 0, sizeof measured);
  struct atl_result_set set3 = {.kind = "app"};
  t.repeats = 3;
  spec.arg = "repeat";
  spec.count = 2;
  run.resume = NULL;
  CHECK(atl_sweep(NULL, &spec, &run, &set3, &rep) == 0);
  CHECK(measured[0] == 3 && measured[1] == 3 && set3.count == 2);
  if (set3.count == 2) {
    CHECK(atl_row_metric(&set3.rows[0], "pass", -1) == 2 && set3.rows[0].time_ms.median == 2.0);
    CHECK(atl_row_metric(&set3.rows[0], "repeats", 0) == 3);
    CHECK(atl_row_metric(&set3.rows[0], "repeat_spread", 0) == 1.0); /* (3 - 1) / 2 */
    CHECK(atl_row_metric(&set3.rows[0], "repeat_deviation", 0) == 0.5); /* |1 - 2| / 2 and |3 - 2| / 2 */
    CHECK(atl_row_metric(&set3.rows[1], "pass", -1) == 1 && !set3.rows[1].verified);
  }
  atl_result_set_release(&set3);

  /* --repeat 2 --rounds 3: six whole passes; a repeat's row is its median round, the row the median repeat
   * (lower middle of two), with both spreads; a failed round is kept; later passes are shuffled */
  memset(measured, 0, sizeof measured);
  memset(pass_of, 0, sizeof pass_of);
  struct atl_result_set set4 = {.kind = "app"};
  t.repeats = 2;
  t.rounds = 3;
  spec.arg = "rounds";
  spec.count = 8;
  CHECK(atl_sweep(NULL, &spec, &run, &set4, &rep) == 0);
  CHECK(measured[0] == 6 && measured[7] == 6 && set4.count == 8 && set4.meta.nrepeat_s == 2);
  if (set4.count == 8) {
    CHECK(atl_row_metric(&set4.rows[0], "pass", -1) == 2 && set4.rows[0].time_ms.median == 7.0);
    CHECK(atl_row_metric(&set4.rows[0], "rounds", 0) == 3);
    CHECK(atl_row_metric(&set4.rows[0], "round_spread", 0) == (9.0 - 5.0) / 7.0);
    CHECK(atl_row_metric(&set4.rows[0], "repeats", 0) == 2);
    CHECK(atl_row_metric(&set4.rows[0], "repeat_spread", 0) == 1.0 / 7.0); /* (8 - 7) / 7 */
    CHECK(atl_row_metric(&set4.rows[2], "pass", -1) == 4 && !set4.rows[2].verified);
    CHECK(set4.rows[0].nvisits == 6 && set4.rows[0].visits_ms[1] == 9 && set4.rows[0].visits_ms[4] == 20);
  }
  int shuffled = 0, in_order = 1;
  for (int k = 0; k < 8; k++) {
    in_order &= order_seen[k][0] == k + 1; /* the first pass in order (a visit counts itself) */
    shuffled |= order_seen[k][1] != k + 1;
  }
  CHECK(in_order && shuffled);
  atl_result_set_release(&set4);
  return check_exit("test_sweep");
}
