/* Result files read back exactly as written, and bad files are refused with a reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomlab.h"
#include "check.h"

static char dir[] = "/tmp/atomlab-input-XXXXXX";

static void write_text(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void expect_refused(const char *name, const char *text)
{
  char path[256], why[256] = "";
  struct atl_result_set set;
  snprintf(path, sizeof path, "%s/%s.json", dir, name);
  write_text(path, text);
  CHECK(atl_read_json(path, &set, why, sizeof why) != 0);
  if (!CHECK(why[0] != '\0'))
    CHECK_CONTEXT("no reason for %s", name);
  CHECK(set.count == 0 && set.rows == NULL);
  unlink(path);
}

/* Reads @p text as a file; 0 and the set, or the error with the reason in @p why. */
static int read_text(const char *name, const char *text, struct atl_result_set *set, char *why, size_t why_len)
{
  char path[256];
  snprintf(path, sizeof path, "%s/%s.json", dir, name);
  write_text(path, text);
  int err = atl_read_json(path, set, why, why_len);
  unlink(path);
  return err;
}

/* Version 1 files of each kind are migrated into the row model: configuration in the kind's order, metrics. */
static void test_migration(void)
{
  struct atl_result_set set;
  char why[256] = "", key[512];
  /* rmw, written before scope and order were recorded: device-scope relaxed */
  if (CHECK(read_text("v1-rmw",
                      "{\"format_version\": 1, \"device\": {\"name\": \"x\"}, \"rows\": [{\"pattern\": \"random\", "
                      "\"op\": \"cas\", \"type\": \"u32\", \"space\": \"global\", \"result\": \"used\", "
                      "\"contention\": 4, \"padding\": 2, \"wg_size\": 64, \"workgroups\": 2, \"status\": \"ok\", "
                      "\"verified\": true, \"wrong_words\": 0, \"iters\": 10, \"ops\": 1280, \"gops\": 1.5, "
                      "\"cas_attempts_per_op\": 1.25, \"time_ms\": {\"median\": 2}, \"samples_ms\": [2, 2, 2]}]}",
                      &set, why, sizeof why) == 0)) {
    CHECK(strcmp(set.kind, "rmw") == 0 && set.format_version == 1 && set.count == 1);
    atl_row_key(&set.rows[0], key, sizeof key);
    CHECK(strcmp(key, "pattern=random;op=cas;type=u32;space=global;result=used;scope=device;order=relaxed;"
                      "contention=4;padding=2;wg_size=64;workgroups=2") == 0);
    CHECK(atl_row_metric(&set.rows[0], "iters", 0) == 10 && atl_row_metric(&set.rows[0], "gops", 0) == 1.5);
    CHECK(atl_row_metric(&set.rows[0], "cas_attempts_per_op", 0) == 1.25 && set.rows[0].time_ms.samples == 3);
    struct atl_spec spec;
    CHECK(atl_spec_from_row(&set.rows[0], &spec, why, sizeof why) == 0 && spec.scope == ATL_SCOPE_DEVICE &&
          spec.contention == 4 && spec.op == ATL_OP_CAS);
    atl_result_set_release(&set);
  }
  /* strategy: benchmark "strategy", booleans as yes/no, winner and margin as metrics */
  if (CHECK(read_text("v1-strategy",
                      "{\"format_version\": 1, \"benchmark\": \"strategy\", \"device\": {\"name\": \"x\"}, \"rows\": "
                      "[{\"pattern\": \"same-line\", \"op\": \"fetch_add\", \"type\": \"u32\", \"contention\": 8, "
                      "\"strategy\": \"warp\", \"result\": \"used\", \"divergent\": false, \"stuck_lock\": false, "
                      "\"threads_per_word\": 8, \"word_spacing\": 1, \"wg_size\": 64, \"workgroups\": 2, "
                      "\"spin_bound\": 1000, \"winner\": true, \"margin\": 1.5, \"status\": \"ok\"}]}",
                      &set, why, sizeof why) == 0)) {
    CHECK(strcmp(set.kind, "strategy") == 0 && set.count == 1);
    atl_row_key(&set.rows[0], key, sizeof key);
    CHECK(strcmp(key, "strategy=warp;pattern=same-line;op=fetch_add;result=used;divergent=no;stuck_lock=no;"
                      "threads_per_word=8;word_spacing=1;wg_size=64;workgroups=2;spin_bound=1000") == 0);
    CHECK(atl_row_metric(&set.rows[0], "winner", 0) == 1 && atl_row_metric(&set.rows[0], "margin", 0) == 1.5);
    atl_result_set_release(&set);
  }
  /* app: kind "app", its metrics object */
  if (CHECK(read_text("v1-app",
                      "{\"format_version\": 1, \"kind\": \"app\", \"device\": {\"name\": \"x\"}, \"rows\": [{\"app\": "
                      "\"count\", \"variant\": \"warp\", \"status\": \"ok\", \"verified\": true, \"time_ms\": "
                      "{\"median\": 1.5, \"samples\": 5}, \"metrics\": {\"gbps\": 900, \"items\": 16}}]}",
                      &set, why, sizeof why) == 0)) {
    CHECK(strcmp(set.kind, "app") == 0 && set.count == 1);
    CHECK(strcmp(atl_row_config(&set.rows[0], "variant"), "warp") == 0 && set.rows[0].time_ms.samples == 5);
    CHECK(atl_row_metric(&set.rows[0], "gbps", 0) == 900 && strcmp(set.rows[0].metrics[0].unit, "GB/s") == 0);
    atl_result_set_release(&set);
  }
}

/* The noisy flag: read as written, and judged against the run's recorded target where a file predates it. */
static void test_noisy(void)
{
  struct atl_result_set set;
  char why[256] = "";
  if (CHECK(read_text("noisy",
                      "{\"format_version\": 2, \"kind\": \"app\", \"device\": {\"name\": \"x\"}, "
                      "\"settings\": {\"noise_threshold\": 0.02}, \"rows\": ["
                      "{\"config\": {\"app\": \"count\"}, \"status\": \"ok\", \"samples_ms\": [1, 2, 3], "
                      "\"time_ms\": {\"median\": 2, \"noise\": 0.5, \"noisy\": false}},"
                      "{\"config\": {\"app\": \"count\"}, \"status\": \"ok\", \"samples_ms\": [1, 2, 3], "
                      "\"time_ms\": {\"median\": 2, \"noise\": 0.5}},"
                      "{\"config\": {\"app\": \"count\"}, \"status\": \"ok\", \"samples_ms\": [2, 2, 2], "
                      "\"time_ms\": {\"median\": 2, \"noise\": 0.01}}]}",
                      &set, why, sizeof why) == 0)) {
    CHECK(set.count == 3 && !set.rows[0].time_ms.noisy && set.rows[1].time_ms.noisy && !set.rows[2].time_ms.noisy);
    char path[256];
    snprintf(path, sizeof path, "%s/noisy-out.json", dir);
    FILE *f = fopen(path, "w");
    if (CHECK(f != NULL)) {
      CHECK(atl_write_json(f, &set) == 0);
      fclose(f);
    }
    struct atl_result_set back;
    if (CHECK(atl_read_json(path, &back, why, sizeof why) == 0)) {
      CHECK(back.count == 3 && !back.rows[0].time_ms.noisy && back.rows[1].time_ms.noisy);
      atl_result_set_release(&back);
    }
    unlink(path);
    atl_result_set_release(&set);
  }
}

int main(void)
{
  CHECK(mkdtemp(dir) != NULL);
  struct atl_result_set out = {.kind = "rmw"}, in;
  snprintf(out.meta.device.name, sizeof out.meta.device.name, "Test GPU");
  snprintf(out.meta.device.backend, sizeof out.meta.device.backend, "cuda");
  snprintf(out.meta.git_commit, sizeof out.meta.git_commit, "abc123");
  out.meta.complete = 0;
  out.meta.rows_planned = 7;
  struct atl_row row;
  const struct atl_spec spec0 = {.op = ATL_OP_EXCHANGE, .type = ATL_TYPE_BF16X2, .space = ATL_SPACE_LOCAL,
                                 .pattern = ATL_PATTERN_RANDOM, .result = ATL_RESULT_USED, .scope = ATL_SCOPE_SYSTEM,
                                 .order = ATL_ORDER_SEQ_CST, .contention = 3, .padding = 5, .wg_size = 96,
                                 .workgroups = 7};
  const struct atl_spec spec1 = {.op = ATL_OP_CAS, .contention = 1, .padding = 1, .wg_size = 64, .workgroups = 2};
  atl_rmw_row_init(&row, &spec0);
  row.status = ATL_STATUS_OK;
  row.verified = 1;
  atl_row_metric_set(&row, "iters", 1234);
  atl_row_metric_set(&row, "gops", 12.5);
  snprintf(row.reason, sizeof row.reason, "a \"quoted\" reason");
  snprintf(row.instructions, sizeof row.instructions, "ATOMG.E.EXCH.STRONG.SYS x5");
  const double samples[] = {2.0, 1.0, 3.0};
  row.samples_ms = malloc(sizeof samples);
  memcpy(row.samples_ms, samples, sizeof samples);
  atl_stats_compute(samples, 3, &row.time_ms);
  CHECK(atl_result_set_add(&out, &row) == 0);
  atl_rmw_row_init(&row, &spec1);
  row.status = ATL_STATUS_UNSUPPORTED;
  CHECK(atl_result_set_add(&out, &row) == 0);

  char path[256], why[256] = "";
  snprintf(path, sizeof path, "%s/round.json", dir);
  CHECK(atl_write_file(path, ATL_FORMAT_JSON, &out) == 0);
  CHECK(atl_read_json(path, &in, why, sizeof why) == 0);
  CHECK(in.count == 2 && in.format_version == ATL_FORMAT_VERSION && strcmp(in.kind, "rmw") == 0);
  CHECK(in.meta.complete == 0 && in.meta.rows_planned == 7);
  CHECK(strcmp(in.meta.device.name, "Test GPU") == 0 && strcmp(in.meta.device.backend, "cuda") == 0);
  CHECK(strcmp(in.meta.git_commit, "abc123") == 0);
  if (in.count == 2) {
    const struct atl_row *a = &in.rows[0], *b = &in.rows[1];
    struct atl_spec sa, sb;
    CHECK(atl_spec_from_row(a, &sa, why, sizeof why) == 0 && atl_spec_equal(&sa, &spec0));
    CHECK(atl_spec_from_row(b, &sb, why, sizeof why) == 0 && atl_spec_equal(&sb, &spec1));
    CHECK(!atl_spec_equal(&sa, &sb));
    CHECK(a->status == ATL_STATUS_OK && a->verified && atl_row_metric(a, "iters", 0) == 1234 &&
          atl_row_metric(a, "gops", 0) == 12.5);
    CHECK(strcmp(a->reason, "a \"quoted\" reason") == 0);
    CHECK(strcmp(a->instructions, "ATOMG.E.EXCH.STRONG.SYS x5") == 0);
    CHECK(a->time_ms.samples == 3 && a->time_ms.median == 2.0 && a->samples_ms && a->samples_ms[2] == 3.0);
    CHECK(b->status == ATL_STATUS_UNSUPPORTED && b->samples_ms == NULL);
  }
  /* The timing settings come back, for --resume to compare. */
  CHECK(in.meta.timing_recorded == 1 && atl_timing_match(&in.meta.timing, &out.meta.timing, why, sizeof why) == 0);
  atl_result_set_release(&in);
  atl_result_set_release(&out);
  unlink(path);
  test_noisy();
  test_migration();

  /* atl_row_validate: a row as rmw writes it passes; each forged field fails. */
  struct atl_row v;
  const struct atl_spec vspec = {.op = ATL_OP_FETCH_ADD, .contention = 1, .padding = 1, .wg_size = 64,
                                 .workgroups = 2};
  atl_rmw_row_init(&v, &vspec);
  v.status = ATL_STATUS_OK;
  v.verified = 1;
  const uint64_t ops = atl_spec_active_threads(&vspec) * 10;
  atl_row_metric_set(&v, "iters", 10);
  atl_row_metric_set(&v, "ops", (double)ops);
  double vs[] = {1.5, 1.0, 3.0};
  v.samples_ms = vs;
  atl_stats_compute(vs, 3, &v.time_ms);
  atl_row_metric_set(&v, "ops_per_us", (double)ops / (v.time_ms.median * 1e3));
  atl_row_metric_set(&v, "gops", (double)ops / (v.time_ms.median * 1e3) * 1e-3);
  CHECK(atl_row_validate(&v, why, sizeof why) == 0);
  struct atl_row b = v;
  atl_row_metric_set(&b, "iters", 0);
  CHECK(atl_row_validate(&b, why, sizeof why) == ATL_EINVAL && strstr(why, "iters"));
  b = v;
  b.time_ms.median = 1e308;
  CHECK(atl_row_validate(&b, why, sizeof why) == ATL_EINVAL && strstr(why, "median"));
  b = v;
  b.samples_ms = NULL;
  CHECK(atl_row_validate(&b, why, sizeof why) == ATL_EINVAL && strstr(why, "samples"));
  b = v;
  atl_row_metric_set(&b, "gops", atl_row_metric(&v, "gops", 0) * 2);
  CHECK(atl_row_validate(&b, why, sizeof why) == ATL_EINVAL && strstr(why, "gops"));
  b = v;
  b.verified = 0;
  CHECK(atl_row_validate(&b, why, sizeof why) == ATL_EINVAL);
  b = v;
  b.status = ATL_STATUS_DEADLOCK;
  CHECK(atl_row_validate(&b, why, sizeof why) == ATL_EINVAL && strstr(why, "deadlock"));
  b = v;
  b.status = ATL_STATUS_UNSUPPORTED;
  CHECK(atl_row_validate(&b, why, sizeof why) == 0);
  /* a configuration no spec has: the field is named */
  b = v;
  atl_row_config_set(&b, "op", "frob");
  CHECK(atl_row_validate(&b, why, sizeof why) == ATL_EINVAL && strstr(why, "'op'") && strstr(why, "frob"));
  b = v;
  atl_row_config_number(&b, "padding", 0);
  CHECK(atl_row_validate(&b, why, sizeof why) == ATL_EINVAL && strstr(why, "'padding'"));
  struct atl_timing t1, t2;
  atl_timing_defaults(&t1);
  t2 = t1;
  CHECK(atl_timing_match(&t1, &t2, why, sizeof why) == 0);
  t2.noise = 0.5;
  CHECK(atl_timing_match(&t1, &t2, why, sizeof why) == ATL_EINVAL && strstr(why, "noise differs") && strstr(why, "0.5"));

  snprintf(path, sizeof path, "%s/missing.json", dir);
  CHECK(atl_read_json(path, &in, why, sizeof why) == ATL_EIO);
  expect_refused("not-json", "{\"format_version\": 1, \"rows\": [");
  expect_refused("array", "[1, 2]");
  expect_refused("version", "{\"format_version\": 99, \"device\": {\"name\": \"x\"}, \"rows\": []}");
  expect_refused("no-device", "{\"format_version\": 1, \"rows\": []}");
  expect_refused("no-rows", "{\"format_version\": 1, \"device\": {\"name\": \"x\"}}");
  expect_refused("no-config", "{\"format_version\": 1, \"device\": {\"name\": \"x\"}, \"rows\": [{\"status\": \"ok\"}]}");
  expect_refused("v2-no-config", "{\"format_version\": 2, \"kind\": \"rmw\", \"device\": {\"name\": \"x\"}, \"rows\": "
                                 "[{\"status\": \"ok\"}]}");
  expect_refused("unknown-kind", "{\"format_version\": 2, \"kind\": \"frob\", \"device\": {\"name\": \"x\"}, "
                                 "\"rows\": []}");
  expect_refused("bad-sample", "{\"format_version\": 1, \"device\": {\"name\": \"x\"}, \"rows\": [{\"op\": \"cas\", "
                               "\"type\": \"u32\", \"space\": \"global\", \"pattern\": \"random\", \"result\": "
                               "\"used\", \"contention\": 1, \"padding\": 1, \"wg_size\": 1, \"workgroups\": 1, "
                               "\"samples_ms\": [1, \"x\"]}]}");
  rmdir(dir);
  return check_exit("test_input");
}
