/*
 * The shared-memory atomic model against hand-computed values: equations
 * (1)-(3) (T-hat, interpolation, S) and Table 2 (N, n-hat, e, c, B, U) on the
 * SYNTHETIC table and ncu exports in tests/data (made by
 * tests/data/make-synthetic-smem.py from T = 30 + 4 n e + 10 c^2 for "used";
 * they are test data, not measurements), and every reader's bad inputs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"
#include "memtext.h"
#include "core/csv.h"
#include "core/text.h"

#ifndef ATL_TEST_DATA_DIR
#error "ATL_TEST_DATA_DIR must name tests/data"
#endif

static struct atl_smem_table table;

static double T(double n, double e, double c)
{
  double t = NAN;
  char why[256];
  if (!CHECK(atl_smem_T(&table, ATL_SMEM_USED, n, e, c, &t, NULL, why, sizeof why) == 0))
    CHECK_CONTEXT("T(%g, %g, %g): %s", n, e, c, why);
  return t;
}

static void test_interpolation(void)
{
  char why[256];
  CHECK(atl_smem_table_read_csv(ATL_TEST_DATA_DIR "/smem-table-synthetic.csv", &table, why, sizeof why) == 0);
  CHECK_EQ(table.nmax, 8);
  CHECK_EQ(atl_smem_table_count(&table, ATL_SMEM_USED), 6 * (2 + 3 + 4 + 5 + 6 + 7 + 8 + 9));
  /* (1): measured points as they are, n = 0 is 0, a point not measured is NaN */
  CHECK_NEAR(atl_smem_table_get(&table, ATL_SMEM_USED, 3, 4, 2), 30 + 4 * 3 * 4 + 10 * 4);
  CHECK_NEAR(atl_smem_table_get(&table, ATL_SMEM_UNUSED, 3, 4, 2), 10 + 2 * 3 * 4 + 10 * 4);
  CHECK_NEAR(atl_smem_table_get(&table, ATL_SMEM_USED, 0, 7, 0), 0);
  CHECK(isnan(atl_smem_table_get(&table, ATL_SMEM_USED, 3, 3, 0))); /* e = 3 is not on the grid */
  /* (2) at grid points */
  CHECK_NEAR(T(3, 4, 2), 118);
  CHECK_NEAR(T(0, 5, 0), 0);
  /* e between measured 4 and 8 at n = 2, c = 0: (62 + 94) / 2 */
  CHECK_NEAR(T(2, 6, 0), 78);
  /* e = 3 between 2 (38) and 4 (46) */
  CHECK_NEAR(T(1, 3, 0), 42);
  /* c between 0 (38) and 1 (48): the table's line, not the formula's 40.5 */
  CHECK_NEAR(T(2, 1, 0.5), 43);
  /* n = 2.5, c = 1.25 keeps the CAS share 1/2: n = 2 at c = 1 (48), n = 3 at c = 1.5 (between 52 and 82: 67) */
  CHECK_NEAR(T(2.5, 1, 1.25), 57.5);
  /* 0 < n < 1: between T-hat(0) = 0 and T(1, 1, 0) = 34 */
  CHECK_NEAR(T(0.5, 1, 0), 17);
  /* (3) S = T / n */
  double s = 0;
  int clamped = 0;
  CHECK(atl_smem_S(&table, ATL_SMEM_USED, 3, 4, 2, &s, &clamped, why, sizeof why) == 0);
  CHECK_NEAR(s, 118.0 / 3);
  CHECK(!clamped);
  CHECK(atl_smem_S(&table, ATL_SMEM_USED, 0.5, 1, 0, &s, &clamped, why, sizeof why) == 0);
  CHECK_NEAR(s, 34);
  /* beyond the table: n clamps to 8 and S stays the saturated S(8) */
  CHECK(atl_smem_S(&table, ATL_SMEM_USED, 20, 1, 0, &s, &clamped, why, sizeof why) == 0);
  CHECK_NEAR(s, 62.0 / 8);
  CHECK(clamped);
  /* the other variant reads its own points */
  double t = 0;
  CHECK(atl_smem_T(&table, ATL_SMEM_UNUSED, 2, 6, 0, &t, NULL, why, sizeof why) == 0);
  CHECK_NEAR(t, (10 + 16 + 10 + 32) / 2.0);
  /* impossible inputs */
  CHECK(atl_smem_T(&table, ATL_SMEM_USED, 2, 1, 3, &t, NULL, why, sizeof why) == ATL_EINVAL); /* c > n */
  CHECK(strstr(why, "exceed") != NULL);
  CHECK(atl_smem_T(&table, ATL_SMEM_USED, -1, 1, 0, &t, NULL, why, sizeof why) == ATL_EINVAL);
  CHECK(atl_smem_T(&table, ATL_SMEM_USED, NAN, 1, 0, &t, NULL, why, sizeof why) == ATL_EINVAL);
  CHECK(atl_smem_S(&table, ATL_SMEM_USED, 0, 1, 0, &s, NULL, why, sizeof why) == ATL_EINVAL);
}

static void check_kernels(const struct atl_ncu_report *r, const char *layout)
{
  char why[256];
  if (!CHECK(r->count == 3)) {
    CHECK_CONTEXT("%s: %zu kernels", layout, r->count);
    return;
  }
  const struct atl_smem_counters *k = &r->kernels[0];
  CHECK(strcmp(k->id, "0") == 0);
  CHECK(strcmp(k->kernel, "hist_half(unsigned int const*, unsigned int*)") == 0);
  CHECK_NEAR(k->fao_jobs, 300);
  CHECK_NEAR(k->cas_jobs, 100);
  CHECK_NEAR(k->ops, 2400);
  CHECK_NEAR(k->fao_jobs, 300); /* 400 ATOMS minus 100 CAS: each CAS counted once */
  CHECK_NEAR(k->active_cycles, 8300); /* "8,300" */
  CHECK_NEAR(k->occupancy, 0.25);
  CHECK_NEAR(k->duration_ns, 12500); /* 12.5 usecond */
  CHECK_NEAR(k->sm_count, 4);
  CHECK_NEAR(k->warps_per_sm, 8);
  /* Table 2 by hand: N = 400 / 4 SMs = 100, n-hat = 0.25 x 8 = 2, e = 2400 / 400 = 6,
   * c = 2 x 100 / 400 = 0.5; T(2, 6, 0.5) = (67 + 99) / 2 = 83, S = 41.5, B = 4150, U = 4150 / 8300 */
  struct atl_smem_util u;
  CHECK(atl_smem_utilization(&table, ATL_SMEM_USED, k, &u, why, sizeof why) == 0);
  CHECK_NEAR(u.jobs, 100);
  CHECK_NEAR(u.n_hat, 2);
  CHECK_NEAR(u.e, 6);
  CHECK_NEAR(u.c, 0.5);
  CHECK_NEAR(u.service, 41.5);
  CHECK_NEAR(u.busy, 4150);
  CHECK_NEAR(u.time, 8300);
  CHECK_NEAR(u.utilization, 0.5);
  CHECK(atl_smem_utilization(&table, ATL_SMEM_USED, &r->kernels[1], &u, why, sizeof why) == 0);
  CHECK_NEAR(u.utilization, 1.0);
  /* no shared atomics: idle */
  CHECK(atl_smem_utilization(&table, ATL_SMEM_USED, &r->kernels[2], &u, why, sizeof why) == 0);
  CHECK_NEAR(u.utilization, 0);
  CHECK_NEAR(u.jobs, 0);
}

static int parse_ncu(const char *text, struct atl_ncu_report *r, char *why, size_t len)
{
  return atl_ncu_parse_csv(text, "t", 0, 0, r, why, len);
}

static void test_counters(void)
{
  char why[512];
  const char *files[] = {ATL_TEST_DATA_DIR "/ncu-synthetic-raw.csv", ATL_TEST_DATA_DIR "/ncu-synthetic-details.csv"};
  for (int i = 0; i < 2; i++) {
    char *text = atl__read_text_file(files[i], 1 << 20);
    if (!CHECK(text != NULL))
      continue;
    struct atl_ncu_report r;
    if (CHECK(atl_ncu_parse_csv(text, files[i], 0, 0, &r, why, sizeof why) == 0))
      check_kernels(&r, files[i]);
    else
      CHECK_CONTEXT("%s", why);
    atl_ncu_report_release(&r);
    free(text);
  }
  /* impossible counters are refused with a reason */
  const struct atl_smem_counters k = {.fao_jobs = 10, .ops = 100, .active_cycles = 100, .occupancy = 0.5,
                                      .sm_count = 1, .warps_per_sm = 8, .have_ops = 1};
  struct atl_smem_counters bad_k[5] = {k, k, k, k, k}; /* each one field off */
  bad_k[0].ops = 400;                                  /* e = 40 > 32 */
  bad_k[1].occupancy = 1.5;
  bad_k[2].have_ops = 0;
  bad_k[3].sm_count = 0;
  bad_k[4].active_cycles = 0;
  const char *bad_why[5] = {"lanes per job", "", "neither O", "", ""};
  struct atl_smem_util u;
  for (int i = 0; i < 5; i++)
    if (!CHECK(atl_smem_utilization(&table, ATL_SMEM_USED, &bad_k[i], &u, why, sizeof why) == ATL_EINVAL &&
               strstr(why, bad_why[i]) != NULL))
      CHECK_CONTEXT("bad counters %d: %s", i, why);
  CHECK(atl_smem_utilization(&table, ATL_SMEM_USED, &k, &u, why, sizeof why) == 0);
  CHECK_NEAR(u.e, 10);
  CHECK_NEAR(u.n_hat, 4);
  /* bad ncu files */
  struct atl_ncu_report r;
  const char *bad[] = {
      "",                                                      /* empty */
      "hello\nworld\n",                                        /* no header */
      "\"ID\",\"Kernel Name\",\"sm__cycles_active.avg\"\n",  /* no kernel row */
      "\"ID\",\"Kernel Name\",\"sm__cycles_active.avg\"\n\"0\",\"k\",\"12\"\n", /* lacks N_f and occupancy */
      "\"ID\",\"Kernel Name\",\"sm__cycles_active.avg\",\"sm__warps_active.avg.pct_of_peak_sustained_active\","
      "\"smsp__inst_executed_op_shared_atom.sum\"\n\"0\",\"k\",\"12\",\"50\",\"abc\"\n", /* not a number */
      "\"ID\",\"Kernel Name\",\"x\"\n\"0\",\"k\"\n",          /* short row */
      "\"ID\",\"Kernel Name\",\"x\"\n\"0\",\"k,\"1\"\n",      /* open quote */
      "\"ID\",\"Process\"\n\"0\",\"1\"\n",                   /* no Kernel Name column */
      "\"ID\",\"Kernel Name\",\"sm__cycles_active.avg\"\n\"0\",\"k\",\"1,2\"\n", /* a bad thousands separator */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    why[0] = '\0';
    if (!CHECK(parse_ncu(bad[i], &r, why, sizeof why) == ATL_EINVAL && why[0] && r.count == 0 && r.kernels == NULL))
      CHECK_CONTEXT("bad ncu input %zu accepted (%s)", i, why);
  }
}

static void test_bad_tables(void)
{
  struct atl_smem_table t;
  char why[256];
  const char *bad[] = {
      "",                                                      /* empty */
      "# only a comment\n",                                    /* no header */
      "result,n,e,c\nused,1,1,0\n",                            /* no t_cycles column */
      "result,n,e,c,t_cycles\n",                               /* no points */
      "result,n,e,c,t_cycles\nsome,1,1,0,5\n",                 /* unknown variant */
      "result,n,e,c,t_cycles\nused,0,1,0,5\n",                 /* n = 0 */
      "result,n,e,c,t_cycles\nused,1,33,0,5\n",                /* e > 32 */
      "result,n,e,c,t_cycles\nused,2,1,3,5\n",                 /* c > n */
      "result,n,e,c,t_cycles\nused,1,1,0,-5\n",                /* negative time */
      "result,n,e,c,t_cycles\nused,1,1,0,nan\n",               /* not finite */
      "result,n,e,c,t_cycles\nused,1,1,0,5\nused,1,1,0,6\n",   /* duplicate */
      "result,n,e,c,t_cycles\nused,1,1\n",                     /* short row */
      "result,n,e,c,t_cycles\nused,1x,1,0,5\n",                /* junk in a number */
      "result,n,e,c,t_cycles\nused,999999999999,1,0,5\n",      /* n out of range */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    why[0] = '\0';
    int err = atl_smem_table_parse_csv(bad[i], "t", &t, why, sizeof why);
    if (!CHECK(err == ATL_EINVAL && why[0] && t.t[0] == NULL && t.t[1] == NULL))
      CHECK_CONTEXT("bad table %zu accepted (%s)", i, why);
  }
  /* columns in any order, extra columns, CRLF, quotes */
  CHECK(atl_smem_table_parse_csv("x,t_cycles,\"c\",e,n,result\r\n1,\"7.5\",0,2,1,used\r\n", "t", &t, why, sizeof why) ==
        0);
  CHECK_NEAR(atl_smem_table_get(&t, ATL_SMEM_USED, 1, 2, 0), 7.5);
  CHECK(t.t[ATL_SMEM_UNUSED] == NULL);
  double v = 0;
  CHECK(atl_smem_T(&t, ATL_SMEM_UNUSED, 1, 1, 0, &v, NULL, why, sizeof why) == ATL_EINVAL); /* no unused points */
  atl_smem_table_release(&t);
  CHECK(atl_smem_table_read_csv("/nonexistent/table.csv", &t, why, sizeof why) == ATL_EIO);
}

static void test_numbers(void)
{
  double v = 0;
  CHECK(atl__csv_number("1,234,567", &v) == 0 && v == 1234567);
  CHECK(atl__csv_number("1,234.5", &v) == 0 && v == 1234.5);
  CHECK(atl__csv_number("12.5", &v) == 0 && v == 12.5);
  CHECK(atl__csv_number("-3e2", &v) == 0 && v == -300);
  CHECK(atl__csv_number("1,23", &v) != 0);
  CHECK(atl__csv_number(",123", &v) != 0);
  CHECK(atl__csv_number("1234,567", &v) != 0);
  CHECK(atl__csv_number("1.5,000", &v) != 0);
  CHECK(atl__csv_number("", &v) != 0);
  CHECK(atl__csv_number("n/a", &v) != 0);
  CHECK(atl__csv_number("inf", &v) != 0);
  char line[] = "\"a,b\",c,\"say \"\"hi\"\"\",";
  char *f[8];
  CHECK_EQ(atl__csv_fields(line, f, 8), 4);
  CHECK(strcmp(f[0], "a,b") == 0 && strcmp(f[1], "c") == 0 && strcmp(f[2], "say \"hi\"") == 0 && f[3][0] == '\0');
  char open[] = "\"abc";
  CHECK(atl__csv_fields(open, f, 8) == -1);
}

/* The writer and the reader of a table are one format: what calibrate writes, model reads back point for point. */
static void test_table_round_trip(void)
{
  char why[256] = "";
  struct memtext m;
  if (!CHECK(memtext_open(&m)))
    return;
  CHECK(atl_smem_table_write_csv(m.f, &table, NULL) == 0);
  fclose(m.f);
  struct atl_smem_table back;
  if (CHECK(atl_smem_table_parse_csv(m.buf, "written", &back, why, sizeof why) == 0)) {
    for (int v = 0; v < ATL_SMEM_VARIANTS; v++) {
      const enum atl_smem_variant var = (enum atl_smem_variant)v;
      CHECK(atl_smem_table_count(&back, var) == atl_smem_table_count(&table, var));
      for (unsigned n = 1; n <= table.nmax; n++)
        for (unsigned e = 1; e <= table.emax; e++)
          for (unsigned c = 0; c <= n; c++) {
            const double t = atl_smem_table_get(&table, var, n, e, c);
            if (!isnan(t) && !CHECK(fabs(atl_smem_table_get(&back, var, n, e, c) - t) <= 0.05))
              CHECK_CONTEXT("%s n=%u e=%u c=%u", atl_smem_variant_name(var), n, e, c);
          }
    }
    atl_smem_table_release(&back);
  } else {
    CHECK_CONTEXT("%s", why);
  }
  free(m.buf);
}

/* Which metrics profile asks ncu for: the first listed candidate per quantity, required ones or an error. */
static void test_metric_selection(void)
{
  char out[2048];
  enum atl_ncu_quantity missing = ATL_NCU_QUANTITIES;
  CHECK(atl_ncu_listed("a sm__cycles_active b", "sm__cycles_active"));
  CHECK(!atl_ncu_listed("sm__cycles_active_x xsm__cycles_active", "sm__cycles_active"));
  /* no listing: every first candidate, no optional extra */
  CHECK(atl_ncu_select_metrics(NULL, out, sizeof out, &missing) == 0);
  CHECK(strstr(out, atl_ncu_candidates(ATL_NCU_FAO)[0].name) != NULL);
  CHECK(strstr(out, atl_ncu_candidates(ATL_NCU_WAVEFRONTS)[0].name) == NULL);
  /* a listing without any N_f metric: the profile cannot work, and the quantity is named */
  CHECK(atl_ncu_select_metrics("sm__cycles_active sm__warps_active", out, sizeof out, &missing) == ATL_ENOTSUP);
  CHECK(missing == ATL_NCU_FAO);
  CHECK(atl_ncu_select_metrics(NULL, out, 8, &missing) == ATL_ERANGE);
}

int main(void)
{
  test_numbers();
  test_interpolation();
  test_counters();
  test_bad_tables();
  test_table_round_trip();
  test_metric_selection();
  atl_smem_table_release(&table);
  return check_exit("test_smem_model");
}
