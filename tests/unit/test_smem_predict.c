/*
 * Predicted busy time against measured kernel time (atl_smem_predict) and the
 * case-study rows that label a profiled run (atl_smem_cases_parse_csv):
 * - on REAL data, kernel 7 of the H100 export (tests/data/ncu-h100-rmw.csv:
 *   a loop of shared fetch_adds, 32 lanes on one word) against the recorded
 *   table, every step worked out by hand below;
 * - on made-up counters, the clock taken from elapsed cycles / duration, the
 *   passes per job, and every way the inputs can be missing.
 */
#include <stdlib.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/model.h"
#include "atomlab/stop.h"
#include "check.h"
#include "memtext.h"
#include "core/text.h"

#define CHECK_REL(a, b)                                                                                           \
  do {                                                                                                            \
    double check_x_ = (a), check_y_ = (b);                                                                        \
    if (!CHECK(fabs(check_x_ - check_y_) <= 1e-9 * fabs(check_y_)) && check_failures <= CHECK_PRINT_LIMIT)       \
      fprintf(stderr, "    %s = %.17g, %s = %.17g\n", #a, check_x_, #b, check_y_);                                \
  } while (0)

static void real_kernel7(void)
{
  char why[512] = "";
  struct atl_smem_table table;
  if (!CHECK(atl_smem_table_read_csv(ATL_TEST_DATA_DIR "/smem-table-h100-trim.csv", &table, why, sizeof why) == 0)) {
    CHECK_CONTEXT("%s", why);
    return;
  }
  char *text = atl__read_text_file(ATL_TEST_DATA_DIR "/ncu-h100-rmw.csv", 1 << 22);
  struct atl_ncu_report r = {0};
  if (!CHECK(text != NULL) || !CHECK(atl_ncu_parse_csv(text, "ncu-h100-rmw.csv", 0, 0, &r, why, sizeof why) == 0) ||
      !CHECK(r.count == 33)) {
    CHECK_CONTEXT("%s", why);
    free(text);
    atl_smem_table_release(&table);
    return;
  }
  const struct atl_smem_counters *k = &r.kernels[7];
  CHECK(strcmp(k->id, "7") == 0);
  /* the export has the device's rated clock (1,980,000 kHz) but no elapsed cycles (not asked for then) */
  CHECK(k->have_clock && !k->have_elapsed && !k->have_wavefronts);
  CHECK_REL(k->clock_mhz, 1980);
  CHECK(k->have_duration);
  CHECK_REL(k->duration_ns, 534144);
  struct atl_smem_util u;
  struct atl_smem_prediction p;
  if (CHECK(atl_smem_utilization(&table, ATL_SMEM_USED, k, &u, why, sizeof why) == 0) &&
      CHECK(atl_smem_predict(k, &u, &p, why, sizeof why) == 0)) {
    /*
     * By hand: n-hat = 24.99 % x 64 = 15.9936; e = 32; c = 0. The table has T(15, 32, 0) = 677 and
     * T(16, 32, 0) = 678, so T = 677 + 0.9936 = 677.9936 and S = T / 15.9936. N = 4,325,376 / 132 =
     * 32,768, B = N x S = 1,389,090 cycles; at 1980 MHz that is 701,560 ns against the measured
     * 534,144 ns: B / measured = 1.3134, the model overestimates this bottleneck by 31 %.
     */
    const double S = 677.9936 / 15.9936, B = 32768 * S, busy_ns = B / 1.98;
    CHECK_REL(u.busy, B);
    CHECK(p.clock_source == ATL_SMEM_CLOCK_DEVICE);
    CHECK_REL(p.clock_mhz, 1980);
    CHECK_REL(p.busy_ns, busy_ns);
    CHECK_REL(p.measured_ns, 534144);
    CHECK_REL(p.ratio, busy_ns / 534144);
    CHECK_REL(p.error, busy_ns / 534144 - 1);
    CHECK(p.ratio > 1.31 && p.ratio < 1.32);
    CHECK(!p.have_passes);
    /*
     * The pipelined alternative: S' = (T(15.9936, 32, 0) - T(1, 32, 0)) / 14.9936 with T(1, 32, 0) = 220:
     * (677.9936 - 220) / 14.9936 = 30.546 cycles, B' = 32,768 x S' cycles = 505.5 us at 1980 MHz, / 534.1 us = 0.946.
     */
    const double Sp = (677.9936 - 220) / 14.9936;
    CHECK_REL(u.service_pipelined, Sp);
    CHECK_REL(u.busy_pipelined, 32768 * Sp);
    CHECK_REL(p.busy_pipelined_ns, 32768 * Sp / 1.98);
    CHECK_REL(p.ratio_pipelined, 32768 * Sp / 1.98 / 534144);
    CHECK(p.ratio_pipelined > 0.94 && p.ratio_pipelined < 0.95);
  } else {
    CHECK_CONTEXT("%s", why);
  }
  /* a global-memory kernel: no shared atomic, B = 0, the unit idle the whole kernel */
  const struct atl_smem_counters *g = &r.kernels[19];
  if (CHECK(atl_smem_utilization(&table, ATL_SMEM_USED, g, &u, why, sizeof why) == 0) &&
      CHECK(atl_smem_predict(g, &u, &p, why, sizeof why) == 0)) {
    CHECK(p.busy_ns == 0 && p.ratio == 0);
    CHECK_REL(p.error, -1);
  }
  atl_ncu_report_release(&r);
  free(text);
  atl_smem_table_release(&table);
}

static void made_up(void)
{
  char why[256];
  struct atl_smem_counters k;
  memset(&k, 0, sizeof k);
  k.fao_jobs = 300;
  k.cas_jobs = 100;
  k.duration_ns = 1e6;
  k.have_duration = 1;
  k.elapsed_cycles = 2e6; /* 2e6 cycles in 1e6 ns: the kernel ran at 2000 MHz */
  k.have_elapsed = 1;
  k.clock_mhz = 1500; /* ignored: the kernel's own clock comes first */
  k.have_clock = 1;
  k.wavefronts = 6400;
  k.have_wavefronts = 1;
  struct atl_smem_util u;
  memset(&u, 0, sizeof u);
  u.busy = 1e6;
  struct atl_smem_prediction p;
  if (CHECK(atl_smem_predict(&k, &u, &p, why, sizeof why) == 0)) {
    CHECK(p.clock_source == ATL_SMEM_CLOCK_ELAPSED);
    CHECK_REL(p.clock_mhz, 2000);
    CHECK_REL(p.busy_ns, 5e5); /* 1e6 cycles at 2 GHz */
    CHECK_REL(p.ratio, 0.5);
    CHECK_REL(p.error, -0.5);
    CHECK(p.have_passes);
    CHECK_REL(p.passes, 16); /* 6400 passes over 300 + 100 jobs */
  }
  k.have_elapsed = 0; /* the rated clock where there are no elapsed cycles */
  if (CHECK(atl_smem_predict(&k, &u, &p, why, sizeof why) == 0)) {
    CHECK(p.clock_source == ATL_SMEM_CLOCK_DEVICE);
    CHECK_REL(p.busy_ns, 1e6 / 1.5);
  }
  k.have_clock = 0;
  CHECK(atl_smem_predict(&k, &u, &p, why, sizeof why) == ATL_EINVAL && strstr(why, "clock") != NULL);
  k.have_clock = 1;
  k.have_duration = 0;
  CHECK(atl_smem_predict(&k, &u, &p, why, sizeof why) == ATL_EINVAL && strstr(why, "duration") != NULL);
  k.have_duration = 1;
  k.duration_ns = 0;
  CHECK(atl_smem_predict(&k, &u, &p, why, sizeof why) == ATL_EINVAL);
}

/* S' on the synthetic table (used: T = 30 + 4 n e + 10 c^2), by hand */
static void pipelined(void)
{
  char why[256];
  struct atl_smem_table t;
  if (!CHECK(atl_smem_table_read_csv(ATL_TEST_DATA_DIR "/smem-table-synthetic.csv", &t, why, sizeof why) == 0))
    return;
  double S = 0;
  int clamped = 0;
  /* (T(3, 2, 0) - T(1, 2, 0)) / 2 = (54 - 38) / 2 */
  CHECK(atl_smem_S_pipelined(&t, ATL_SMEM_USED, 3, 2, 0, &S, &clamped, why, sizeof why) == 0);
  CHECK_NEAR(S, 8);
  CHECK(!clamped);
  /* c = 1.5 of 3 is a CAS share of 1/2, kept at n = 1: T(3, 2, 1.5) = (64 + 94) / 2 = 79, T(1, 2, 0.5) = (38 + 48) / 2 = 43 */
  CHECK(atl_smem_S_pipelined(&t, ATL_SMEM_USED, 3, 2, 1.5, &S, &clamped, why, sizeof why) == 0);
  CHECK_NEAR(S, 18);
  /* n below 2 is taken as 2: T(2, 2, 0) - T(1, 2, 0) = 46 - 38 */
  CHECK(atl_smem_S_pipelined(&t, ATL_SMEM_USED, 1.5, 2, 0, &S, &clamped, why, sizeof why) == 0);
  CHECK_NEAR(S, 8);
  /* beyond the table (n 1..8): its top, (T(8, 2, 0) - T(1, 2, 0)) / 7 = (94 - 38) / 7 = 8, clamped */
  CHECK(atl_smem_S_pipelined(&t, ATL_SMEM_USED, 20, 2, 0, &S, &clamped, why, sizeof why) == 0);
  CHECK_NEAR(S, 8);
  CHECK(clamped);
  CHECK(atl_smem_S_pipelined(&t, ATL_SMEM_USED, 0, 2, 0, &S, &clamped, why, sizeof why) == ATL_EINVAL);
  CHECK(atl_smem_S_pipelined(&t, ATL_SMEM_USED, 2, 2, 3, &S, &clamped, why, sizeof why) == ATL_EINVAL);
  atl_smem_table_release(&t);
  /* a table without n = 1 cannot give S' */
  const char *no1 = "result,n,e,c,t_cycles\nused,2,1,0,40\nused,3,1,0,50\n";
  if (CHECK(atl_smem_table_parse_csv(no1, "no1", &t, why, sizeof why) == 0)) {
    CHECK(atl_smem_S_pipelined(&t, ATL_SMEM_USED, 3, 1, 0, &S, &clamped, why, sizeof why) == ATL_EINVAL &&
          strstr(why, "n = 1") != NULL);
    atl_smem_table_release(&t);
  }
}

static void cases(void)
{
  char why[256];
  struct atl_smem_case *c = NULL;
  size_t n = 0;
  const char *good = "kernel,image,result,pixels,wg_size,workgroups,warmup,reps,median_ms\n"
                     "histogram,solid,used,32,128,1056,0,1,0.01\n"
                     "histogram2,uniform,unused,4194304,1024,264,2,5,0.2\n";
  if (CHECK(atl_smem_cases_parse_csv(good, "good", &c, &n, why, sizeof why) == 0) && CHECK(n == 2)) {
    CHECK(strcmp(c[0].kernel, "histogram") == 0 && strcmp(c[0].image, "solid") == 0);
    CHECK(c[0].variant == ATL_SMEM_USED && c[0].pixels == 32 && c[0].wg_size == 128 && c[0].launches == 1);
    CHECK(strcmp(c[1].kernel, "histogram2") == 0 && c[1].variant == ATL_SMEM_UNUSED && c[1].launches == 7);
  }
  free(c);
  /* files written before the warmup column: one warm-up launch per row */
  const char *old = "kernel,image,result,pixels,wg_size,workgroups,reps,median_ms\nhistogram,solid,unused,64,256,8,5,1\n";
  if (CHECK(atl_smem_cases_parse_csv(old, "old", &c, &n, why, sizeof why) == 0) && CHECK(n == 1))
    CHECK(c[0].launches == 6);
  free(c);
  static const struct {
    const char *text, *needle;
  } bad[] = {
      {"kernel,image,result,pixels,wg_size\nhistogram,solid,used,32,128\n", "'reps'"},
      {"kernel,image,result,pixels,wg_size,reps\nhistogram,solid,maybe,32,128,1\n", "maybe"},
      {"kernel,image,result,pixels,wg_size,reps\nhistogram,solid,used,32,2048,1\n", "wg_size"},
      {"kernel,image,result,pixels,wg_size,reps\nhistogram,solid,used,32,128\n", "fields"},
      {"kernel,image,result,pixels,wg_size,reps\n", "no rows"},
      {"", "no header"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    c = NULL;
    int err = atl_smem_cases_parse_csv(bad[i].text, "bad", &c, &n, why, sizeof why);
    if (!CHECK(err == ATL_EINVAL && strstr(why, bad[i].needle) != NULL && c == NULL))
      CHECK_CONTEXT("bad case %zu: err %d, why '%s'", i, err, why);
    free(c);
  }
}

/* The library's sets: Table 2 of every kernel, --expect's check, predict with its summary, and wrong inputs named. */
static void sets(void)
{
  char why[512] = "";
  struct atl_smem_table table;
  struct atl_ncu_report r;
  if (!CHECK(atl_smem_table_read_csv(ATL_TEST_DATA_DIR "/smem-table-h100-trim.csv", &table, why, sizeof why) == 0))
    return;
  if (!CHECK(atl_ncu_read_csv(ATL_TEST_DATA_DIR "/ncu-h100-rmw.csv", 0, 0, &r, why, sizeof why) == 0)) {
    CHECK_CONTEXT("%s", why);
    atl_smem_table_release(&table);
    return;
  }
  CHECK(atl_ncu_read_csv(ATL_TEST_DATA_DIR "/no-such-file.csv", 0, 0, &(struct atl_ncu_report){0}, why,
                         sizeof why) == ATL_EIO);
  struct atl_smem_settings st;
  atl_smem_settings_init(&st);
  CHECK(st.variant == ATL_SMEM_USED && st.threshold == 0.8);
  struct atl_smem_util_set us;
  if (CHECK(atl_smem_util_derive(&table, &st, &r, &us) == 0)) {
    CHECK(us.count == 33 && us.failures == 0);
    CHECK(us.assumed & ATL_SMEM_ASSUME_FULL_WARPS); /* no lane count on the H100 */
    CHECK(strcmp(atl_smem_verdict(us.kernels[7].util.utilization, st.threshold), "bottleneck") == 0);
    struct atl_smem_expect ex;
    atl_smem_expect_check(&us, "rmw", 3, 1, &ex);
    CHECK(ex.seen > 0 && ex.wrong > 0 && ex.wrong < ex.seen && ex.lo <= ex.hi); /* some rmw loops are not */
    atl_smem_expect_check(&us, "nosuch", 6, 0, &ex);
    CHECK(ex.seen == 0);
    char *buf = NULL;
    size_t len = 0, lines = 0;
    FILE *f = open_memstream(&buf, &len);
    if (CHECK(f != NULL)) {
      const struct atl_smem_util_labels labels = {NULL, "t.csv", "c.csv"};
      CHECK(atl_smem_util_write(f, ATL_FORMAT_CSV, &us, &labels) == 0);
      CHECK(atl_smem_util_write(f, ATL_FORMAT_JSON, &us, &labels) == ATL_EINVAL); /* JSON needs provenance */
      fclose(f);
      for (size_t i = 0; i < len; i++)
        lines += buf[i] == '\n';
      CHECK(lines == 34);
      free(buf);
    }
    atl_smem_util_set_release(&us);
  }
  struct atl_smem_predict_set ps;
  if (CHECK(atl_smem_predict_all(&table, &st, &r, NULL, 0, "rmw", &ps, why, sizeof why) == 0)) {
    CHECK(ps.count == 32); /* the 33rd launch is occupancy discovery */
    CHECK(ps.error.samples > 0 && ps.error.samples + ps.others.samples == ps.count);
    CHECK(ps.error.max >= ps.error.median && ps.others.max >= ps.others.median);
    for (size_t i = 0; i < ps.count; i++)
      if (strcmp(ps.kernels[i].counters.id, "7") == 0)
        CHECK(ps.kernels[i].bottleneck && fabs(ps.kernels[i].prediction.ratio - 1.3134) < 0.001);
    atl_smem_predict_set_release(&ps);
  } else {
    CHECK_CONTEXT("%s", why);
  }
  CHECK(atl_smem_predict_all(&table, &st, &r, NULL, 0, "nosuch", &ps, why, sizeof why) == ATL_EINVAL &&
        ps.bad_input == ATL_SMEM_INPUT_KERNEL);
  const struct atl_smem_case one = {.kernel = "histogram", .image = "solid", .variant = ATL_SMEM_USED, .launches = 2};
  CHECK(atl_smem_predict_all(&table, &st, &r, &one, 1, "rmw", &ps, why, sizeof why) == ATL_EINVAL &&
        ps.bad_input == ATL_SMEM_INPUT_RUNS && ps.kernels == NULL);
  atl_ncu_report_release(&r);
  atl_smem_table_release(&table);
}

/* What hist-case writes, predict --runs reads: the case study's CSV writer against its reader. */
static void case_rows_round_trip(void)
{
  char why[512] = "";
  struct memtext m;
  if (!CHECK(memtext_open(&m)))
    return;
  const struct atl_smem_histogram_spec spec = {.reorder = 1, .result_used = 0, .solid = 0, .pixels = 4096,
                                               .wg_size = 256, .workgroups = 264, .reps = 3, .warmup = 2};
  const struct atl_smem_run_result res = {.median_ms = 0.5, .min_ms = 0.4, .max_ms = 0.6, .verified = 1,
                                                .instructions = "ATOMS.POPC.INC"};
  atl_smem_histogram_write_csv_header(m.f);
  atl_smem_histogram_write_csv_row(m.f, &spec, &res);
  fclose(m.f);
  struct atl_smem_case *rows = NULL;
  size_t n = 0;
  if (CHECK(atl_smem_cases_parse_csv(m.buf, "written", &rows, &n, why, sizeof why) == 0) && CHECK(n == 1)) {
    CHECK(strcmp(rows[0].kernel, "histogram2") == 0 && strcmp(rows[0].image, "uniform") == 0);
    CHECK(rows[0].variant == ATL_SMEM_UNUSED && rows[0].pixels == 4096 && rows[0].wg_size == 256);
    CHECK(rows[0].launches == 5); /* warmup + reps */
  } else {
    CHECK_CONTEXT("%s: %s", why, m.buf);
  }
  free(rows);
  free(m.buf);
}

/* The small grammar of the case study's names, --expect and a plan's size; a prediction's summary sentences. */
static void names_and_summary(void)
{
  struct atl_smem_expectation x;
  CHECK(atl_smem_expectation_parse("smem_validate_atomics=bottleneck", &x) == 0 && x.bottleneck == 1 &&
        x.len == strlen("smem_validate_atomics"));
  CHECK(atl_smem_expectation_parse("k=v=not a bottleneck", &x) == 0 && x.bottleneck == 0 && x.len == 3);
  CHECK(atl_smem_expectation_parse("k=maybe", &x) == ATL_EINVAL);
  CHECK(atl_smem_expectation_parse("=not", &x) == ATL_EINVAL);
  CHECK(atl_smem_case_kernel_parse("histogram2") == 1 && atl_smem_case_kernel_parse("histo") == -1);
  CHECK(atl_smem_case_image_parse("solid") == 0 && atl_smem_case_image_parse("uniform") == 1);
  const uint32_t px[] = {32, 64, 128}, wg[] = {256, 512};
  const struct atl_smem_case_plan plan = {.kernels = 3, .images = 1, .results = 2, .pixels = px, .npixels = 3,
                                          .wg_sizes = wg, .nwg = 2};
  CHECK(atl_smem_case_plan_rows(&plan) == 2 * 1 * 1 * 3 * 2);
  struct atl_smem_predict_set set;
  memset(&set, 0, sizeof set);
  set.settings.threshold = 0.8;
  struct memtext m;
  if (!CHECK(memtext_open(&m)))
    return;
  CHECK(atl_smem_predict_write_summary(m.f, &set) == 0);
  set.error = (struct atl_stats){.samples = 2, .median = 0.05, .max = 0.1};
  CHECK(atl_smem_predict_write_summary(m.f, &set) == 0);
  fclose(m.f);
  CHECK(strcmp(m.buf, "No kernel reached U >= 0.8.\nBottleneck kernels (2): median |error| 5.0 %, largest 10.0 %.\n") ==
        0);
  free(m.buf);
}

/* The case study's sweep without a device: every row in order is an error line, the CSV only its header; a
 * stop request ends it before the next row. */
static void sweep_order(void)
{
  atl_context_t ctx = NULL;
  if (!CHECK(atl_context_new(&ctx) == 0))
    return;
  const uint32_t px[] = {32}, wg[] = {64};
  const struct atl_smem_case_plan plan = {.kernels = 2, .images = 3, .results = 1, .pixels = px, .npixels = 1,
                                          .wg_sizes = wg, .nwg = 1, .workgroups = 4, .reps = 1};
  char *table = NULL, *csv = NULL;
  size_t tlen = 0, clen = 0, done = 0;
  FILE *t = open_memstream(&table, &tlen), *c = open_memstream(&csv, &clen);
  CHECK(atl_smem_case_sweep(ctx, &plan, t, c, &done) == ATL_EVERIFY);
  fclose(t);
  fclose(c);
  CHECK(done == 2);
  CHECK(strncmp(table, "kernel ", 7) == 0);
  const char *first = strstr(table, "histogram2 solid   unused        32    64      4 error: ");
  const char *second = strstr(table, "histogram2 uniform unused        32    64      4 error: ");
  CHECK(first != NULL && second != NULL && first < second);
  CHECK(strchr(csv, '\n') == csv + clen - 1); /* the header alone */
  free(table);
  free(csv);
  atl_stop_request(15);
  CHECK(atl_smem_case_sweep(ctx, &plan, NULL, NULL, &done) == ATL_EINTR && done == 0);
  CHECK(atl_smem_validation_sweep(ctx, 64, 4, 0, 1, NULL, NULL, &done) == ATL_EINTR && done == 0);
  atl_stop_reset();
  CHECK(atl_smem_validation_sweep(ctx, 64, 4, 0, 1, NULL, NULL, &done) == ATL_EVERIFY && done == 2);
  atl_context_free(ctx);
}

int main(void)
{
  names_and_summary();
  sweep_order();
  real_kernel7();
  made_up();
  pipelined();
  cases();
  sets();
  case_rows_round_trip();
  return check_exit("test_smem_predict");
}
