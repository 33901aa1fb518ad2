/*
 * Findings are stated only where the difference beats the noise: a hot cell
 * whose quartiles stay far from the uncontended one gives a "pattern"
 * finding with its ratio and spread; the same two cells with overlapping
 * quartiles give none; a strategy winner within noise of the runner-up is
 * said to be a tie; a CPU device gets its caveat.
 */
#include <string.h>

#include "atomlab.h"
#include "check.h"

/* An rmw row at (contention, padding) of @p gops, its quartile times @p spread around the median. */
static void add_row(struct atl_result_set *set, const char *strategy, double c, double p, double gops, double spread)
{
  struct atl_row r;
  atl_row_init(&r, strategy ? "strategy" : "rmw");
  if (strategy)
    atl_row_config_set(&r, "strategy", strategy);
  atl_row_config_set(&r, "pattern", "contiguous");
  atl_row_config_set(&r, "op", "fetch_add");
  atl_row_config_set(&r, "type", "u32");
  atl_row_config_set(&r, "space", "global");
  atl_row_config_set(&r, "result", "unused");
  atl_row_config_number(&r, "contention", c);
  atl_row_config_number(&r, "padding", p);
  r.status = ATL_STATUS_OK;
  r.verified = 1;
  r.time_ms.median = 1.0 / gops;
  r.time_ms.q1 = r.time_ms.median * (1 - spread);
  r.time_ms.q3 = r.time_ms.median * (1 + spread);
  atl_row_metric_set(&r, "gops", gops);
  CHECK(atl_result_set_add(set, &r) == 0);
}

static size_t count_topic(const struct atl_findings *f, const char *topic)
{
  size_t n = 0;
  for (size_t i = 0; i < f->count; i++)
    n += strcmp(f->items[i].topic, topic) == 0;
  return n;
}

int main(void)
{
  struct atl_result_set set = {.kind = "rmw"};
  struct atl_findings f = {0};
  add_row(&set, NULL, 1, 1, 500, 0.01);
  add_row(&set, NULL, 1024, 1, 2.5, 0.01);
  CHECK(atl_findings_rmw(&set, &f) == 0 && count_topic(&f, "pattern") == 1);
  for (size_t i = 0; i < f.count; i++)
    if (strcmp(f.items[i].topic, "pattern") == 0) {
      CHECK(f.items[i].ratio > 199 && f.items[i].ratio < 201 && f.items[i].lo < 200 && f.items[i].hi > 200);
      CHECK(strstr(f.items[i].text, "1024 threads per word") && strstr(f.items[i].text, "slower"));
    }
  CHECK(count_topic(&f, "cpu") == 0 && count_topic(&f, "noise") == 1);
  atl_findings_release(&f);
  atl_result_set_release(&set);

  /* 1.04x apart, or 1.35x apart with quartiles 30% wide: within the noise, no finding */
  struct atl_result_set close = {.kind = "rmw"};
  close.meta.device.type = ATL_DEVICE_CPU;
  add_row(&close, NULL, 1, 1, 1.04, 0.001);
  add_row(&close, NULL, 64, 1, 1.0, 0.001);
  add_row(&close, NULL, 1, 64, 0.77, 0.3);
  CHECK(atl_findings_rmw(&close, &f) == 0 && count_topic(&f, "pattern") == 0 && count_topic(&f, "same-line") == 0);
  CHECK(count_topic(&f, "cpu") == 1);
  atl_findings_release(&f);
  atl_result_set_release(&close);

  /* strategies: a clear winner, then a winner within noise of the next */
  struct atl_result_set st = {.kind = "strategy"};
  add_row(&st, "privatized", 67584, 1, 260, 0.01);
  add_row(&st, "block", 67584, 1, 82, 0.01);
  atl_row_metric_set(&st.rows[0], "winner", 1);
  CHECK(atl_findings_strategy(&st, &f) == 0 && f.count == 1 && strstr(f.items[0].text, "use privatized") != NULL);
  atl_findings_release(&f);
  st.rows[1].time_ms.median = 1.0 / 255;
  st.rows[1].time_ms.q1 = st.rows[1].time_ms.median * 0.99;
  st.rows[1].time_ms.q3 = st.rows[1].time_ms.median * 1.01;
  atl_row_metric_set(&st.rows[1], "gops", 255);
  CHECK(atl_findings_strategy(&st, &f) == 0 && f.count == 1 && strstr(f.items[0].text, "within their noise"));
  atl_findings_release(&f);
  atl_result_set_release(&st);
  return check_exit("test_findings");
}
