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

int main(void)
{
  CHECK(mkdtemp(dir) != NULL);
  struct atl_result_set out = {0}, in;
  snprintf(out.meta.device.name, sizeof out.meta.device.name, "Test GPU");
  snprintf(out.meta.device.backend, sizeof out.meta.device.backend, "cuda");
  snprintf(out.meta.git_commit, sizeof out.meta.git_commit, "abc123");
  out.meta.complete = 0;
  out.meta.rows_planned = 7;
  struct atl_row row;
  memset(&row, 0, sizeof row);
  row.spec = (struct atl_spec){.op = ATL_OP_EXCHANGE, .type = ATL_TYPE_BF16X2, .space = ATL_SPACE_LOCAL,
                               .pattern = ATL_PATTERN_RANDOM, .result = ATL_RESULT_USED, .scope = ATL_SCOPE_SYSTEM,
                               .order = ATL_ORDER_SEQ_CST, .contention = 3, .padding = 5, .wg_size = 96,
                               .workgroups = 7};
  row.status = ATL_STATUS_OK;
  row.verified = 1;
  row.iters = 1234;
  row.gops = 12.5;
  snprintf(row.reason, sizeof row.reason, "a \"quoted\" reason");
  snprintf(row.instructions, sizeof row.instructions, "ATOMG.E.EXCH.STRONG.SYS x5");
  const double samples[] = {2.0, 1.0, 3.0};
  row.samples_ms = malloc(sizeof samples);
  memcpy(row.samples_ms, samples, sizeof samples);
  atl_stats_compute(samples, 3, &row.time_ms);
  CHECK(atl_result_set_add(&out, &row) == 0);
  memset(&row, 0, sizeof row);
  row.spec = (struct atl_spec){.op = ATL_OP_CAS, .contention = 1, .padding = 1, .wg_size = 64, .workgroups = 2};
  row.status = ATL_STATUS_UNSUPPORTED;
  CHECK(atl_result_set_add(&out, &row) == 0);

  char path[256], why[256] = "";
  snprintf(path, sizeof path, "%s/round.json", dir);
  CHECK(atl_write_file(path, ATL_FORMAT_JSON, &out) == 0);
  CHECK(atl_read_json(path, &in, why, sizeof why) == 0);
  CHECK(in.count == 2);
  CHECK(in.meta.complete == 0 && in.meta.rows_planned == 7);
  CHECK(strcmp(in.meta.device.name, "Test GPU") == 0 && strcmp(in.meta.device.backend, "cuda") == 0);
  CHECK(strcmp(in.meta.git_commit, "abc123") == 0);
  if (in.count == 2) {
    const struct atl_row *a = &in.rows[0], *b = &in.rows[1];
    CHECK(atl_spec_equal(&a->spec, &out.rows[0].spec));
    CHECK(atl_spec_equal(&b->spec, &out.rows[1].spec));
    CHECK(!atl_spec_equal(&a->spec, &b->spec));
    CHECK(a->status == ATL_STATUS_OK && a->verified && a->iters == 1234 && a->gops == 12.5);
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

  /* atl_row_validate: a row as rmw writes it passes; each forged field fails. */
  struct atl_row v;
  memset(&v, 0, sizeof v);
  v.spec = (struct atl_spec){.op = ATL_OP_FETCH_ADD, .contention = 1, .padding = 1, .wg_size = 64, .workgroups = 2};
  v.status = ATL_STATUS_OK;
  v.verified = 1;
  v.iters = 10;
  v.ops = atl_spec_active_threads(&v.spec) * v.iters;
  double vs[] = {1.5, 1.0, 3.0};
  v.samples_ms = vs;
  atl_stats_compute(vs, 3, &v.time_ms);
  v.ops_per_us = (double)v.ops / (v.time_ms.median * 1e3);
  v.gops = v.ops_per_us * 1e-3;
  CHECK(atl_row_validate(&v, why, sizeof why) == 0);
  struct atl_row b = v;
  b.iters = 0;
  CHECK(atl_row_validate(&b, why, sizeof why) == ATL_EINVAL && strstr(why, "iters"));
  b = v;
  b.time_ms.median = 1e308;
  CHECK(atl_row_validate(&b, why, sizeof why) == ATL_EINVAL && strstr(why, "median"));
  b = v;
  b.samples_ms = NULL;
  CHECK(atl_row_validate(&b, why, sizeof why) == ATL_EINVAL && strstr(why, "samples"));
  b = v;
  b.gops *= 2;
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
  expect_refused("bad-op", "{\"format_version\": 1, \"device\": {\"name\": \"x\"}, \"rows\": [{\"op\": \"frob\", "
                           "\"type\": \"u32\", \"space\": \"global\", \"pattern\": \"random\", \"result\": \"used\", "
                           "\"contention\": 1, \"padding\": 1, \"wg_size\": 1, \"workgroups\": 1}]}");
  expect_refused("zero-padding", "{\"format_version\": 1, \"device\": {\"name\": \"x\"}, \"rows\": [{\"op\": \"cas\", "
                                 "\"type\": \"u32\", \"space\": \"global\", \"pattern\": \"random\", \"result\": "
                                 "\"used\", \"contention\": 1, \"padding\": 0, \"wg_size\": 1, \"workgroups\": 1}]}");
  expect_refused("bad-sample", "{\"format_version\": 1, \"device\": {\"name\": \"x\"}, \"rows\": [{\"op\": \"cas\", "
                               "\"type\": \"u32\", \"space\": \"global\", \"pattern\": \"random\", \"result\": "
                               "\"used\", \"contention\": 1, \"padding\": 1, \"wg_size\": 1, \"workgroups\": 1, "
                               "\"samples_ms\": [1, \"x\"]}]}");
  rmdir(dir);
  return check_exit("test_input");
}
