/*
 * The clocks watched while a row is sampled (timing.h), with a fake backend
 * whose clocks op reports a power-cap throttle after every other sample:
 * throttled samples are counted, with discard they are taken again (and the
 * retakes stay bounded), the row gets the clock metrics; a backend without
 * the op leaves the row without them and says why.
 */
#include <string.h>

#include "core/context.h"
#include "core/timing.h"
#include "check.h"

static unsigned reads;
static int always; /* throttled at every reading */

static int fake_clocks(void *dev, struct atl_clocks *out, char *why, size_t len)
{
  (void)dev, (void)why, (void)len;
  memset(out, 0, sizeof *out);
  out->sm_mhz = reads % 2 ? 1500 : 1980;
  out->mem_mhz = 2619;
  out->temperature_c = 40 + reads;
  out->power_w = 300;
  out->reasons = always || reads % 2 ? 0x4 /* software power cap */ : 0x1 /* idle: not a throttle */;
  reads++;
  return 0;
}

static int steady(void *arg, uint32_t iters, double *ms)
{
  (void)arg, (void)iters;
  *ms = 1.0;
  return 0;
}

static void sample(struct atl_context *ctx, int discard, struct atl_row *row, struct atl__clock_watch *w)
{
  struct atl_timing t;
  atl_timing_defaults(&t);
  t.min_samples = t.max_samples = 4;
  atl_row_init(row, "app");
  reads = 0;
  atl__clock_watch_begin(w, ctx, discard);
  CHECK(atl__sample(steady, NULL, &t, 1, 0, row) == 0 && row->time_ms.samples == 4);
  atl__clock_watch_end(w, row);
}

int main(void)
{
  static struct atl_context ctx;
  struct atl_backend_ops ops = {0};
  struct atl_row row;
  struct atl__clock_watch w;
  ops.clocks = fake_clocks;
  ctx.ops = &ops;
  snprintf(ctx.current.backend, sizeof ctx.current.backend, "fake");

  /* begin reads #0 (idle), samples read #1 (throttled), #2, #3 (throttled), #4; end reads #5 (throttled) */
  sample(&ctx, 0, &row, &w);
  CHECK(w.known && w.throttled == 2 && w.retaken == 0);
  CHECK(atl_row_metric(&row, "throttled_samples", -1) == 2 && atl_row_metric(&row, "sm_clock_min_mhz", 0) == 1500);
  CHECK(atl_row_metric(&row, "sm_clock_max_mhz", 0) == 1980 && atl_row_metric(&row, "throttle_reasons", 0) == 5);
  CHECK(atl_row_metric(&row, "temperature_max_c", 0) == 45 && atl_row_metric(&row, "power_max_w", 0) == 300);
  atl_row_release(&row);

  /* discard: every throttled sample is taken again, so 4 kept samples take more launches */
  sample(&ctx, 1, &row, &w);
  CHECK(w.retaken == w.throttled && w.retaken >= 2 && atl_row_metric(&row, "retaken_samples", -1) == w.retaken);
  atl_row_release(&row);

  /* a device throttled at every reading: the retakes end at max_samples, the row is still measured */
  always = 1;
  sample(&ctx, 1, &row, &w);
  CHECK(w.retaken == 4 && atl_row_metric(&row, "throttled_samples", -1) == 8);
  atl_row_release(&row);

  /* a backend without the op: no clock metrics, and why */
  ops.clocks = NULL;
  sample(&ctx, 1, &row, &w);
  CHECK(!w.known && strstr(w.why, "fake backend cannot read clocks") != NULL);
  CHECK(atl_row_metric(&row, "sm_clock_min_mhz", -1) == -1);
  atl_row_release(&row);
  return check_exit("test_clock_watch");
}
