/*
 * The diagnosis pipeline (include/atomlab/diagnose.h) on tests/data/ncu-synthetic-bincount-f32.csv (a float
 * weighted bincount on one hot bin, launch 1, and the same counters under the integer kernel, launch 2) with its
 * SASS and the REAL H100 L2 calibration exports: the float share comes from the SASS, no hand-written file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab/diagnose.h"
#include "atomlab/file.h"
#include "atomlab/row_layout.h"
#include "check.h"
#include "model/l2/float_rule.h"
#include "profile/call_price.h"
#include "profile/profile_internal.h"

#define DATA ATL_TEST_DATA_DIR "/"

static const struct atl_row *row_of(const struct atl_result_set *s, const char *id)
{
  for (size_t i = 0; i < s->count; i++)
    if (strcmp(atl_row_config(&s->rows[i], "id"), id) == 0)
      return &s->rows[i];
  return NULL;
}

static int is(const struct atl_row *r, const char *name, const char *want)
{
  const char *v = r ? atl_row_config(r, name) : NULL;
  return v && strcmp(v, want) == 0;
}

static void test_sass(const char *sass)
{
  struct atl_sass_atomics a;
  const char *f = "void at::native::(anonymous namespace)::kernelHistogram1D<float, long, long, 1>(int)";
  CHECK(atl_sass_atomics_of(sass, f, &a) == 1);
  CHECK_EQ(a.global, 1);
  CHECK_EQ(a.f32_add, 1);
  CHECK(atl_sass_atomics_of(sass, "void at::native::kernelHistogram1D<long, long, long, 1>(int)", &a) == 1);
  CHECK_EQ(a.global, 1);
  CHECK_EQ(a.f32_add, 0);
  CHECK(atl_sass_atomics_of(sass, "other_kernel", &a) == 0);
  char out[64];
  atl__nvtx_innermost("<default domain>:train_step/torch.bincount@train.py:42", out, sizeof out);
  CHECK(strcmp(out, "torch.bincount@train.py:42") == 0);
  atl__nvtx_innermost("<default domain>:train_step", out, sizeof out);
  CHECK(out[0] == '\0');
  /* the stack of ncu 2025.x and later: unquoted, unbalanced and empty fields name no range or the one there is */
  atl__nvtx_stack_innermost("<default domain>:op@f.py:3:none:none:none:none:none:none", out, sizeof out);
  CHECK(strcmp(out, "op@f.py:3") == 0);
  atl__nvtx_stack_innermost("12 \"<default domain>:op@f.py:3:none", out, sizeof out);
  CHECK(out[0] == '\0');
  /* a start/end range leads with its id, then the domain (ncu 2025.3.1, the H200 embedding backward's export) */
  atl__nvtx_stack_innermost(" \"0:<default domain>:embedding_backward@p.py:29:none:none:none:none:none:none\" ", out,
                            sizeof out);
  CHECK(strcmp(out, "embedding_backward@p.py:29") == 0);
  atl__nvtx_stack_innermost("12 \"<default domain>:op@f.py:3:none:none:none:none:none:none\"", out, sizeof out);
  CHECK(strcmp(out, "op@f.py:3") == 0);
  atl__nvtx_stack_innermost("", out, sizeof out);
  CHECK(out[0] == '\0');
  atl__nvtx_stack_innermost("7 \"\" \"<d>:a@b.py:1:x:x:x:x:x:x\" \"<d>:inner:x:x:x:x:x:x\"", out, sizeof out);
  CHECK(strcmp(out, "a@b.py:1") == 0);
}

static int run(const char *csv, const char *sass, const struct atl_l2_calibration *cal, double threshold,
               struct atl_result_set *out)
{
  struct atl_smem_settings st;
  atl_smem_settings_init(&st);
  st.threshold = threshold;
  const struct atl_diagnose_input in = {.counters = csv, .name = "fixture", .sass = sass, .settings = &st, .l2 = cal};
  char why[512];
  memset(out, 0, sizeof *out);
  const int err = atl_diagnose(&in, out, why, sizeof why);
  if (err)
    fprintf(stderr, "atl_diagnose: %s\n", why);
  return err;
}

/* The L2 calibration of tests/data's files for @p dev ("h100", "h200"): same and spread, and where asked the --dram
 * export @p dram and the float same-address file; 0, or -1 (a CHECK said so). */
static int calibration(struct atl_l2_calibration *cal, const char *dev, const char *dram, int with_f32)
{
  char same[256], spread[256], f32[256], why[512];
  snprintf(same, sizeof same, "%sncu-%s-l2-same.csv", DATA, dev);
  snprintf(spread, sizeof spread, "%sncu-%s-l2-spread.csv", DATA, dev);
  snprintf(f32, sizeof f32, "%sncu-%s-l2-same-f32.csv", DATA, dev);
  const char *paths[ATL_L2_FILES] = {[ATL_L2_FILE_SAME] = same, [ATL_L2_FILE_SPREAD] = spread,
                                     [ATL_L2_FILE_DRAM] = dram, [ATL_L2_FILE_SAME_F32] = with_f32 ? f32 : NULL};
  int which;
  memset(cal, 0, sizeof *cal);
  return CHECK(atl_l2_calibration_read(cal, paths, &which, why, sizeof why) == 0) ? 0 : -1;
}

static void test_pipeline(const char *csv, const char *sass)
{
  struct atl_l2_calibration cal;
  char text[512];
  if (calibration(&cal, "h100", NULL, 1) != 0)
    return;
  struct atl_result_set s;
  if (!CHECK(run(csv, sass, &cal, 0.8, &s) == 0))
    return;
  CHECK_EQ(s.count, 2);
  const struct atl_row *f = row_of(&s, "1"), *l = row_of(&s, "2");
  CHECK(is(f, "verdict", "bottleneck")); /* the float chain on one word: 3 L2 cycles a request */
  CHECK(is(f, "model", "l2") && is(f, "access", "hot words") && is(f, "op", "bincount"));
  CHECK(is(f, "source", "torch.bincount@train.py:42") && is(f, "device", "NVIDIA H100 80GB HBM3"));
  CHECK(is(f, "call", "atl_scatter_add bins") && is(f, "speedup_kind", "predicted"));
  CHECK(f && atl_row_metric(f, "speedup", 0) > 2 && atl_row_metric(f, "f32_share", 0) == 1);
  CHECK(f && strstr(f->reason, "no shared-memory table") != NULL);
  CHECK(f && strncmp(atl_diagnosis_advice_text(f, text, sizeof text), "torch.bincount at train.py:42 -> atomlab "
                                                                       "atl_scatter_add bins (", 60) == 0);
  CHECK(is(l, "verdict", "not a bottleneck")); /* integer adds: the same counters, the shorter chain */
  CHECK(is(l, "op_call", "atl_scatter_add bins") && is(f, "op_call", "atl_scatter_add bins")); /* checked against */
  /* 29.5 ms for 276 MB: atomlab's call, priced at the launch's own DRAM peak, is faster though the unit is not busy */
  CHECK(is(l, "finding", "call faster") && is(l, "call", "atl_scatter_add bins"));
  CHECK(l && (!atl_row_config(l, "strategy") || !atl_row_config(l, "strategy")[0]));
  CHECK(l && strstr(atl_diagnosis_advice_text(l, text, sizeof text), "-> atomlab atl_scatter_add bins (not the atomic "
                                                                      "units: the op is slow for other reasons"));
  atl_result_set_release(&s);
  /* without the SASS the type is not known: the float price, which the launch's time holds, decides (the integer
   * launch 2 has the same counters, so it reads the same: only the SASS or --types tell them apart) */
  if (CHECK(run(csv, NULL, &cal, 0.8, &s) == 0)) {
    f = row_of(&s, "1");
    CHECK(is(f, "verdict", "bottleneck") && f && strstr(f->reason, "type not known (no --sass, no --types)"));
  }
  atl_result_set_release(&s);
  /* without a calibration only a floor is known: every bottleneck still carries one */
  if (CHECK(run(csv, sass, NULL, 0.3, &s) == 0)) {
    f = row_of(&s, "1");
    CHECK(is(f, "verdict", "bottleneck") && is(f, "strategy_speedup_kind", "floor"));
    CHECK(is(f, "speedup_kind", "predicted") && f && strstr(f->reason, "(peak)")); /* the call priced at the peak */
    /* the strategy and call of the advice table that `model l2 --advice` prints from */
    const struct atl_advice_strategy *first = atl_l2_advice_of(ATL_L2_HOT)->strategies[0];
    CHECK(is(f, "strategy", first->name) && is(f, "call", "atl_scatter_add bins"));
    CHECK(strcmp(atl_advice_call(first->name), first->call) == 0 && atl_advice_call("no such strategy")[0] == '\0');
    CHECK(f && atl_row_metric(f, "strategy_speedup", 0) > 1 && atl_row_metric(f, "strategy_speedup", 0) < 2);
    CHECK(f && strstr(atl_diagnosis_advice_text(f, text, sizeof text), "(warp-aggregated; predicted") != NULL);
  }
  atl_result_set_release(&s);
}

/* Only the integer calibration (the H200's shipped one has no l2-same-f32.csv): the hot float kernel is priced from
 * the sm_90 row of the shipped data/tuning/l2.json (the same-word export names its compute capability 9.0) and
 * reads "bottleneck", U's range reaching down to the integer price, the reason saying so; without a ratio (no row
 * for the architecture, a malformed table) it keeps the integer price, "not a bottleneck", and says that instead. */
static void test_float_rule(const char *csv, const char *sass)
{
  struct atl_l2_calibration cal;
  char why[512];
  if (calibration(&cal, "h100", NULL, 0) != 0)
    return;
  CHECK(cal.s_same_f32[ATL_L2_RED] == 0 && cal.f32_ratio[ATL_L2_ATOM] == 2.146 && cal.f32_ratio[ATL_L2_RED] == 2.186);
  CHECK(strstr(cal.f32_rule, "sm_90 ratio") && strstr(cal.f32_rule, "nvidia-sm_90"));
  struct atl_result_set s;
  const struct atl_row *f;
  if (CHECK(run(csv, sass, &cal, 0.8, &s) == 0)) {
    f = row_of(&s, "1");
    CHECK(is(f, "verdict", "bottleneck") && is(row_of(&s, "2"), "verdict", "not a bottleneck"));
    CHECK(f && atl_row_metric(f, "u_l2", 0) >= 0.8 && atl_row_metric(f, "u_l2_low", 1) < 0.8); /* low: integer */
    CHECK(f && atl_row_metric(f, "u_l2_high", 0) == atl_row_metric(f, "u_l2", -1));
    CHECK(f && strstr(f->reason, "float adds priced from the sm_90 ratio") &&
          strstr(f->reason, "no f32 calibration of this device"));
    CHECK(strstr(row_of(&s, "2")->reason, "float adds") == NULL); /* integer adds: nothing to say */
  }
  atl_result_set_release(&s);
  /* a table without the architecture's row, and a malformed one: no estimate, the integer price said */
  struct atl__tuning_rows rows;
  CHECK(atl__scatter_tuning_parse("{\"format_version\": 1, \"rows\": [{\"name\": \"sm80\", \"source\": \"s\", "
                                  "\"arch\": \"sm_80\", \"f32_same_ratio_atom\": 3, \"f32_same_ratio_red\": 3}]}",
                                  &rows, why, sizeof why) == 0);
  atl__l2_f32_rule(&cal, &rows, "", 9, 0);
  CHECK(cal.f32_ratio[ATL_L2_RED] == 0 && strstr(cal.f32_rule, "no ratio for sm_90"));
  atl__l2_f32_rule(&cal, &rows, "", 8, 0); /* the row's own architecture */
  CHECK(cal.f32_ratio[ATL_L2_RED] == 3);
  CHECK(atl__scatter_tuning_parse("{\"format_version\": 1, \"rows\": [{\"name\": \"x\", \"source\": \"s\", "
                                  "\"f32_same_ratio_red\": 0.5}]}", &rows, why, sizeof why) != 0);
  CHECK(strstr(why, "f32_same_ratio_red") != NULL && rows.n == 0);
  CHECK(atl__scatter_tuning_parse("{\"format_version\": 1, \"rows\": [", &rows, why, sizeof why) != 0);
  atl__l2_f32_rule(&cal, &rows, "l2.json: not JSON", 9, 0);
  CHECK(cal.f32_ratio[ATL_L2_ATOM] == 0 && cal.f32_ratio[ATL_L2_RED] == 0 && strstr(cal.f32_rule, "not JSON"));
  if (CHECK(run(csv, sass, &cal, 0.8, &s) == 0)) {
    f = row_of(&s, "1");
    CHECK(is(f, "verdict", "not a bottleneck"));
    CHECK(f && strstr(f->reason, "float adds priced as integer adds, no f32 calibration of this device: no ratio "
                                 "for sm_90: l2.json: not JSON"));
  }
  atl_result_set_release(&s);
  atl__l2_f32_rule(&cal, NULL, "", -1, -1); /* an export without the compute capability */
  CHECK(cal.f32_ratio[ATL_L2_RED] == 0 && strstr(cal.f32_rule, "architecture"));
}

/* The H200's integer calibration and one launch of experiments/diagnose-prereg-2.json's run (tests/data:
 * ncu-h200-prereg-*.csv), no SASS, no --types: @p want_verdict and @p want_call ("" for none) and the reason's
 * @p want_reason (NULL: nothing said of the type). */
static void h200_case(const char *file, const char *want_verdict, const char *want_call, const char *want_reason)
{
  struct atl_l2_calibration cal;
  char *csv = atl_file_read_text(file, 1 << 24);
  struct atl_result_set s;
  if (CHECK(csv) && calibration(&cal, "h200", NULL, 0) == 0 &&
      CHECK(run(csv, NULL, &cal, 0.8, &s) == 0)) {
    const struct atl_row *r = row_of(&s, "4");
    if (!CHECK(r && is(r, "verdict", want_verdict)))
      fprintf(stderr, "  %s: %s (%s)\n", file, r ? atl_row_config(r, "verdict") : "no row", r ? r->reason : "");
    CHECK(r && (want_call[0] ? is(r, "call", want_call) : atl_row_config(r, "call") == NULL));
    CHECK(r && (want_reason ? strstr(r->reason, want_reason) != NULL : strstr(r->reason, "type not known") == NULL));
    /* every bottleneck carries a speedup above 1; a row without a fix carries none */
    CHECK(r && (strcmp(want_verdict, "bottleneck") == 0) == (atl_row_metric(r, "speedup", 0) > 1));
    atl_result_set_release(&s);
  }
  free(csv);
}

/* The misses of experiments/diagnose-prereg-2.json's run: float adds on one key priced as integer adds for want of
 * the type (U 0.46, "not a bottleneck", 29.45 ms where atomlab's call took 0.064 ms), now the float price the
 * launch's time holds; a CAS max on one key keeps the integer price (the float one would need 2.3 times its launch);
 * spread requests saturating the units with no strategy that sends fewer read "not a bottleneck" where they read
 * "bottleneck" with a floor of 1. */
static void test_h200_prereg(void)
{
  h200_case(DATA "ncu-h200-prereg-pytorch-scatter_add_-hot.csv", "bottleneck", "atl_scatter_add auto",
            "float adds assumed, the launch's time holds their price (U 1.00; integer adds 0.46)");
  h200_case(DATA "ncu-h200-prereg-pytorch-scatter_reduce_amax-hot.csv", "bottleneck", "atl_scatter_reduce max", NULL);
  h200_case(DATA "ncu-h200-prereg-pytorch-scatter_add_-uniform.csv", "not a bottleneck", "",
            "the atomic units are busy (U 0.95), but atomlab's call is predicted only");
}

/* Launch @p id of the H200 export @p file diagnosed with the run's calibration (its --dram export too) into @p s: its
 * row, or NULL. */
static const struct atl_row *h200_row(const char *file, const char *id, struct atl_result_set *s)
{
  struct atl_l2_calibration cal;
  memset(s, 0, sizeof *s);
  char *csv = atl_file_read_text(file, 1 << 24);
  const struct atl_row *r = NULL;
  if (CHECK(csv) && calibration(&cal, "h200", DATA "ncu-h200-prereg-dram.csv", 0) == 0 &&
      CHECK(run(csv, NULL, &cal, 0.8, s) == 0))
    r = row_of(s, id);
  free(csv);
  return r;
}

/* The second run's speedups that priced a strategy on the user's launch (one key: 607x against a measured 466x;
 * amax on one key 318x against 152x; index_add_ on zipf keys 4.77x against 6.55x) now price atomlab's call (the
 * table's H200 entries are fitted on that run's calls: this checks the pipeline, not the fit), and the ops slow for
 * reasons other than the atomic units (index_add_ and amax on uniform keys: 3.8x and 2.3x measured) say so. */
static void test_h200_call_price(void)
{
  static const struct {
    const char *file, *id, *verdict, *finding, *call;
    double lo, hi; /* the speedup's bounds: the measured one within 25% */
  } cases[] = {
      {"ncu-h200-prereg-pytorch-scatter_add_-hot.csv", "4", "bottleneck", NULL, "atl_scatter_add auto", 350, 583},
      {"ncu-h200-prereg-pytorch-scatter_reduce_amax-hot.csv", "4", "bottleneck", NULL, "atl_scatter_reduce max", 114,
       190},
      {"ncu-h200-prereg-pytorch-index_add_-zipf.csv", "6", "bottleneck", NULL, "atl_scatter_add auto", 4.9, 8.2},
      {"ncu-h200-prereg-pytorch-index_add_-uniform.csv", "6", "not a bottleneck", "call faster",
       "atl_scatter_add auto", 2.8, 4.7},
      {"ncu-h200-prereg-pytorch-scatter_reduce_amax-uniform.csv", "4", "not a bottleneck", "call faster",
       "atl_scatter_reduce max", 1.7, 2.9},
      {"ncu-h200-prereg-pytorch-scatter_add_-uniform.csv", "4", "not a bottleneck", NULL, NULL, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char file[512];
    snprintf(file, sizeof file, DATA "%s", cases[i].file);
    struct atl_result_set s;
    const struct atl_row *r = h200_row(file, cases[i].id, &s);
    const char *finding = r ? atl_row_config(r, "finding") : NULL, *call = r ? atl_row_config(r, "call") : NULL;
    CHECK(r && is(r, "verdict", cases[i].verdict));
    CHECK(cases[i].finding ? finding && strcmp(finding, cases[i].finding) == 0 : finding == NULL);
    CHECK(cases[i].call ? call && strcmp(call, cases[i].call) == 0 : call == NULL || !call[0]);
    const double x = r ? atl_row_metric(r, "speedup", 0) : -1;
    CHECK(cases[i].call ? x >= cases[i].lo && x <= cases[i].hi : x == 0);
    CHECK(!cases[i].call || (r && strstr(r->reason, "atomlab's call priced") && atl_row_metric(r, "call_us", 0) > 3));
    if (!(x >= cases[i].lo && x <= cases[i].hi) && cases[i].call)
      fprintf(stderr, "  %s: %.3g (%s)\n", cases[i].file, x, r ? r->reason : "no row");
    atl_result_set_release(&s);
  }
}

/* The table's rules: every entry names its measurements; a device no row matches, and a law with no entry, get no
 * price (said); hot words that are not one take the spread entry where the table has no head entry. */
static void test_call_table(void)
{
  struct atl__call_table t;
  char why[256];
  const char *head = "{\"format_version\": 1, \"rows\": [{\"name\": \"r\", \"arch\": \"sm_90\", \"source\": \"s\", "
                     "\"launch_us\": 3, \"faster\": 1.5, \"calls\": [{\"call\": \"atl_scatter_add auto\", ";
  char text[1024];
  snprintf(text, sizeof text, "%s\"access\": \"spread\", \"shape\": \"rows\", \"efficiency\": 0.5}]}]}", head);
  CHECK(atl__call_table_parse(text, &t, why, sizeof why) != 0 && strstr(why, "calls[0].measured"));
  snprintf(text, sizeof text, "%s\"access\": \"warm\", \"shape\": \"rows\", \"efficiency\": 0.5, \"measured\": [\"m\"]}]}]}",
           head);
  CHECK(atl__call_table_parse(text, &t, why, sizeof why) != 0 && strstr(why, "calls[0].access"));
  snprintf(text, sizeof text, "%s\"access\": \"spread\", \"shape\": \"rows\", \"efficiency\": 0.5, \"measured\": "
           "[\"m\"]}]}]}", head);
  if (!CHECK(atl__call_table_parse(text, &t, why, sizeof why) == 0 && t.n == 1 && t.row[0].n == 1))
    return;
  char *csv = atl_file_read_text(DATA "ncu-h200-prereg-pytorch-index_add_-zipf.csv", 1 << 24);
  struct atl_l2_report rep = {0};
  if (CHECK(csv) && CHECK(atl_l2_read_csv(csv, "zipf", &rep, why, sizeof why) == 0) && CHECK(rep.count == 1)) {
    struct atl_l2_calibration cal = {.dram_bytes_per_ns = 4000};
    struct atl_l2_util u;
    atl_l2_utilization(&cal, &rep.kernels[0], &u);
    struct atl__call_price p;
    atl__call_price(&t, "", "atl_scatter_add auto", &rep.kernels[0], &u, 0, &cal, &p);
    CHECK(p.priced && strcmp(p.access, "head") == 0 && strstr(p.note, "x 0.5 (spread, rows)")); /* head: spread's */
    CHECK(fabs(p.call_ns - (3e3 + rep.kernels[0].dram_bytes / (4000 * 0.5))) < 1);
    atl__call_price(&t, "", "atl_scatter_reduce max", &rep.kernels[0], &u, 0, &cal, &p);
    CHECK(!p.priced && strstr(p.note, "no entry"));
    rep.kernels[0].cc_major = 8;
    atl__call_price(&t, "", "atl_scatter_add auto", &rep.kernels[0], &u, 0, &cal, &p);
    CHECK(!p.priced && strstr(p.note, "no row of data/tuning/diagnose-calls.json"));
  }
  atl_l2_report_release(&rep);
  free(csv);
  const char *note;
  const struct atl__call_table *shipped = atl__call_table_get(&note); /* the shipped table parses, sm_90 first */
  CHECK(shipped->n >= 1 && strcmp(shipped->row[0].arch, "sm_90") == 0 && shipped->row[0].faster == 1.5 && !*note);
}

/* The launches' NVTX ranges of @p file (a tests/data export) into @p out, one per launch; the count. */
static size_t nvtx_of(const char *file, char out[][192], size_t max)
{
  char *csv = atl_file_read_text(file, 1 << 20), why[256];
  struct atl_ncu_export *e = NULL;
  struct atl__launch *l = NULL;
  size_t n = 0;
  if (CHECK(csv != NULL) && CHECK(atl_ncu_export_parse(csv, file, &e, why, sizeof why) == 0) &&
      CHECK(atl__launches_from_export(e, &l, &n, why, sizeof why) == 0))
    for (size_t i = 0; i < n && i < max; i++)
      snprintf(out[i], sizeof out[i], "%s", l[i].nvtx);
  free(l);
  atl_ncu_export_free(e);
  free(csv);
  return n;
}

/* Each form of ncu's NVTX column that a public export shows (docs/design/model.md, "NVTX ranges"). */
static void test_nvtx_columns(void)
{
  char got[4][192];
  /* ncu 2025.x and later, push/pop: the thread, then one quoted entry per range, innermost last; a library's own
   * range inside the op (CCCL's) names no call site, the op's range does */
  if (CHECK(nvtx_of(DATA "ncu-nvtx-push-pop.csv", got, 4) == 3)) {
    CHECK(strcmp(got[0], "torch.bincount@train.py:42") == 0);
    CHECK(strcmp(got[1], "torch.Tensor.scatter_reduce_(amax)@train.py:57") == 0);
    CHECK(got[2][0] == '\0');
  }
  /* REAL: ncu 2025.3.1's raw exports of two programs on the H200, the op under torch.cuda.nvtx.range_push */
  char real[10][192];
  if (CHECK(nvtx_of(DATA "ncu-h200-nvtx-histc.csv", real, 10) == 6))
    CHECK(real[3][0] == '\0' && strcmp(real[4], "histc@prog.py:27") == 0 && strcmp(real[5], "histc@prog.py:27") == 0);
  /* CuPy's bincount: two launches inside CUB's own range (domain CCCL, whose message holds "::") name the op's */
  if (CHECK(nvtx_of(DATA "ncu-h200-nvtx-cupy-bincount.csv", real, 10) == 10))
    for (int i = 0; i < 10; i++)
      CHECK(strcmp(real[i], i < 4 ? "" : "bincount_weighted@prog.py:27") == 0);
  if (CHECK(nvtx_of(DATA "ncu-nvtx-start-end.csv", got, 4) == 3)) { /* the same exports' start/end ranges */
    CHECK(strcmp(got[0], "torch.histc@eval.py:7") == 0);
    CHECK(strcmp(got[1], "torch.Tensor.scatter_reduce_(amin)@eval.py:9") == 0);
  }
  if (CHECK(nvtx_of(DATA "ncu-synthetic-bincount-f32.csv", got, 4) == 2)) /* a column named "NVTX" */
    CHECK(strcmp(got[0], "torch.bincount@train.py:42") == 0 && strcmp(got[1], "torch.bincount@train.py:57") == 0);
  /* the diagnosis names the op from it, with no counters for either model */
  char *csv = atl_file_read_text(DATA "ncu-nvtx-push-pop.csv", 1 << 20), why[256];
  struct atl_result_set s = {0};
  const struct atl_diagnose_input in = {.counters = csv, .name = "push-pop"};
  if (CHECK(csv && atl_diagnose(&in, &s, why, sizeof why) == 0) && CHECK(s.count == 3)) {
    CHECK(is(row_of(&s, "2"), "op", "scatter_reduce") && is(row_of(&s, "1"), "op", "bincount"));
    CHECK(is(row_of(&s, "1"), "device", "NVIDIA H200") && is(row_of(&s, "2"), "verdict", "no atomics"));
  }
  atl_result_set_release(&s);
  free(csv);
}

/* One parse serves every reader: the same rows as atl_diagnose's own parse, and the device. */
static void test_parsed_once(const char *csv, const char *sass)
{
  struct atl_ncu_export *e;
  char why[256], device[96];
  if (!CHECK(atl_ncu_export_parse(csv, "fixture", &e, why, sizeof why) == 0))
    return;
  struct atl_smem_settings st;
  atl_smem_settings_init(&st);
  st.threshold = 0.3;
  const struct atl_diagnose_input in = {.counters = csv, .name = "fixture", .sass = sass, .settings = &st};
  struct atl_result_set a = {0}, b = {0};
  struct atl_l2_report l2;
  if (CHECK(atl_diagnose(&in, &a, why, sizeof why) == 0) && CHECK(atl_diagnose_export(&in, e, &b, why, sizeof why) == 0)
      && CHECK(a.count == b.count))
    for (size_t i = 0; i < a.count; i++)
      CHECK(is(&b.rows[i], "verdict", atl_row_config(&a.rows[i], "verdict")) &&
            atl_row_metric(&b.rows[i], "speedup", -1) == atl_row_metric(&a.rows[i], "speedup", -1));
  CHECK(atl_diagnose_device_of(e, device, sizeof device) == 0 && strcmp(device, "NVIDIA H100 80GB HBM3") == 0);
  if (CHECK(atl_l2_report_from_export(e, &l2, why, sizeof why) == 0)) {
    CHECK(l2.count == 2);
    atl_l2_report_release(&l2);
  }
  atl_result_set_release(&a);
  atl_result_set_release(&b);
  atl_ncu_export_free(e);
}

/* The one float-share rule (atl_diagnose_float_share) of the diagnosis and the L2 table: the time rule on the H200's
 * float scatter on one key where nothing gives the type (U 1.00 from 0.46 as integer adds), the integer price without
 * a calibration or with a types file; the SASS's share of the synthetic bincount unless a types file gives one. */
static void test_float_share(const char *csv, const char *sass)
{
  struct atl_l2_calibration cal;
  char why[512];
  char *hot = atl_file_read_text(DATA "ncu-h200-prereg-pytorch-scatter_add_-hot.csv", 1 << 24);
  struct atl_l2_report rep = {0}, syn = {0};
  struct atl_float_share f;
  if (CHECK(hot) && calibration(&cal, "h200", NULL, 0) == 0 &&
      CHECK(atl_l2_read_csv(hot, "hot", &rep, why, sizeof why) == 0) && CHECK(rep.count == 1)) {
    struct atl_l2_counters *k = &rep.kernels[0];
    const struct atl_l2_counters before = *k;
    atl_diagnose_float_share(k, NULL, 0, &cal, 0.8, &f);
    CHECK(f.source == ATL_FLOAT_TIME && k->f32_share == 1 && f.u.u > 0.99 && fabs(f.u_integer - 0.46) < 0.01);
    *k = before;
    atl_diagnose_float_share(k, NULL, 0, NULL, 0.8, &f); /* no calibration: the counters' share */
    CHECK(f.source == ATL_FLOAT_COUNTERS && k->f32_share == 0);
    atl_diagnose_float_share(k, NULL, 1, &cal, 0.8, &f); /* a types file that names no float adds: integer */
    CHECK(f.source == ATL_FLOAT_TYPES && k->f32_share == 0 && fabs(f.u.u - 0.46) < 0.01);
    atl_diagnose_float_shares(&rep, NULL, 0, &cal, 0.8); /* the table's: the same rule on every launch */
    CHECK(k->f32_share == 1);
  }
  if (calibration(&cal, "h100", NULL, 0) == 0 &&
      CHECK(atl_l2_read_csv(csv, "synthetic", &syn, why, sizeof why) == 0) && CHECK(syn.count == 2)) {
    struct atl_l2_counters *k = &syn.kernels[0];
    atl_diagnose_float_share(k, sass, 0, &cal, 0.8, &f);
    CHECK(f.source == ATL_FLOAT_SASS && f.have_sass && k->f32_share == 1);
    k->f32_share = 0.5; /* the types file overrides the SASS */
    atl_diagnose_float_share(k, sass, 1, &cal, 0.8, &f);
    CHECK(f.source == ATL_FLOAT_TYPES && k->f32_share == 0.5);
    atl_diagnose_float_share(&syn.kernels[1], sass, 0, &cal, 0.8, &f); /* the integer kernel */
    CHECK(f.source == ATL_FLOAT_SASS && syn.kernels[1].f32_share == 0);
  }
  atl_l2_report_release(&rep);
  atl_l2_report_release(&syn);
  free(hot);
}

int main(void)
{
  /* the shipped tuning table, not a user's: the lookup's first places empty */
  setenv("XDG_CACHE_HOME", "/nonexistent-atomlab-test-cache", 1);
  unsetenv("ATL_DATA_DIR");
  char *csv = atl_file_read_text(DATA "ncu-synthetic-bincount-f32.csv", 1 << 24);
  char *sass = atl_file_read_text(DATA "sass-synthetic-bincount.txt", 1 << 20);
  char device[96];
  if (CHECK(csv && atl_diagnose_device(csv, device, sizeof device) == 0))
    CHECK(strcmp(device, "NVIDIA H100 80GB HBM3") == 0);
  if (CHECK(csv && sass)) {
    test_sass(sass);
    test_pipeline(csv, sass);
    test_float_rule(csv, sass);
    test_parsed_once(csv, sass);
    test_float_share(csv, sass);
  }
  test_nvtx_columns();
  test_h200_prereg();
  test_h200_call_price();
  test_call_table();
  free(csv);
  free(sass);
  return check_exit("test_diagnose");
}
