/* A program built against the installed stable headers alone (no ATL_EXPERIMENTAL) and linked to
 * libatomlab.so.1: it reads rows only through result.h's functions, as any program linked against the library
 * must, so a change to the row's layout cannot break it. It reads a committed result file (exact values), then
 * fills a row of its own on the first device (PoCL in CI).
 * Usage: row_abi RMW_V2_JSON TMPDIR (RMW_V2_JSON: tests/data/result-files/rmw-v2.json; a file is written in
 * TMPDIR). Prints one "ok: " line per check group. */
#include <atomlab.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int fails;
#define CHECK(c)                                                                                                       \
  do {                                                                                                                 \
    if (!(c)) {                                                                                                        \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);                                                     \
      fails++;                                                                                                         \
    }                                                                                                                  \
  } while (0)

/* Every metric by index is the metric by name, and the index past the last reads as none. */
static void metrics_agree(const struct atl_row *r)
{
  size_t n = atl_row_metric_count(r);
  CHECK(n > 0);
  for (size_t i = 0; i < n; i++) {
    const char *name = atl_row_metric_name(r, i);
    CHECK(name != NULL && name[0] != '\0');
    CHECK(name && atl_row_metric(r, name, NAN) == atl_row_metric_value(r, i));
  }
  CHECK(atl_row_metric_name(r, n) == NULL && atl_row_metric_value(r, n) == 0);
}

/* The first row of tests/data/result-files/rmw-v2.json, field by field. */
static void read_file(const char *path)
{
  struct atl_result_set set = {0};
  char why[256];
  if (atl_read_json(path, &set, why, sizeof why) != 0) {
    fprintf(stderr, "FAIL: %s: %s\n", path, why);
    fails++;
    return;
  }
  CHECK(set.count == 6);
  const struct atl_row *r = atl_result_set_row(&set, 0);
  CHECK(r != NULL && atl_result_set_row(&set, set.count) == NULL);
  CHECK(strcmp(atl_row_kind_name(r), "rmw") == 0);
  CHECK(atl_row_status(r) == ATL_STATUS_OK && strcmp(atl_row_reason(r), "") == 0);
  CHECK(atl_row_verified(r) == 1 && atl_row_wrong(r) == 0 && !atl_row_failed(r));
  CHECK(atl_row_time_ms(r) && atl_row_time_ms(r)->median == 12.377348 && atl_row_time_ms(r)->samples == 5);
  size_t ns = 0;
  const double *s = atl_row_samples(r, &ns);
  CHECK(s != NULL && ns == 5 && s[2] == 12.924094);
  CHECK(atl_row_config(r, "op") && strcmp(atl_row_config(r, "op"), "fetch_add") == 0);
  CHECK(atl_row_number(r, "padding", 0) == 1 && atl_row_config(r, "no_such_field") == NULL);
  CHECK(strcmp(atl_row_metric_name(r, 0), "iters") == 0 && atl_row_metric_value(r, 0) == 20745);
  metrics_agree(r);
  for (size_t i = 0; i < set.count; i++)
    CHECK(atl_row_number(atl_result_set_row(&set, i), "contention", 0) >= 1);
  atl_result_set_release(&set);
  printf("ok: %s read through the row functions\n", path);
}

/* NULL reads as nothing, never a crash. */
static void null_rows(void)
{
  size_t n = 7;
  CHECK(strcmp(atl_row_kind_name(NULL), "") == 0 && strcmp(atl_row_reason(NULL), "") == 0);
  CHECK(atl_row_status(NULL) == ATL_STATUS_ERROR && atl_row_verified(NULL) == 0 && atl_row_wrong(NULL) == 0);
  CHECK(atl_row_time_ms(NULL) == NULL && atl_row_samples(NULL, &n) == NULL && n == 0);
  CHECK(strcmp(atl_row_instructions(NULL), "") == 0 && atl_row_seconds(NULL) == 0);
  CHECK(atl_row_metric_count(NULL) == 0 && atl_row_metric_name(NULL, 0) == NULL);
  CHECK(atl_result_set_row(NULL, 0) == NULL);
  atl_row_free(NULL);
  printf("ok: NULL rows and sets\n");
}

/* A row the program fills itself (what an atl_sweep() measure callback does), written to a file and read back. */
static void own_row(const char *dir)
{
  struct atl_row *row = atl_row_new();
  if (row == NULL) {
    fails++;
    return;
  }
  atl_row_init(row, "app");
  const double ms[] = {2.0, 1.0, 4.0, 3.0};
  CHECK(atl_row_config_set(row, "app", "mine") == 0 && atl_row_config_number(row, "bytes", 4096) == 0);
  atl_row_metric_set(row, "gops", 1.5);
  atl_row_set_status(row, ATL_STATUS_OK, "a note");
  atl_row_set_verified(row, 1, 0);
  CHECK(atl_row_set_samples(row, ms, 4) == 0 && atl_row_time_ms(row)->median == 2.5);
  CHECK(atl_row_set_samples(row, NULL, 1) != 0 && atl_row_time_ms(row)->samples == 4);
  struct atl_result_set set = {0};
  CHECK(atl_result_set_add(&set, row) == 0);
  atl_row_free(row);
  char path[4096];
  snprintf(path, sizeof path, "%s/own.json", dir);
  CHECK(atl_write_file(path, ATL_FORMAT_JSON, &set) == 0);
  atl_result_set_release(&set);
  char why[256];
  CHECK(atl_read_json(path, &set, why, sizeof why) == 0 && set.count == 1);
  const struct atl_row *r = atl_result_set_row(&set, 0);
  CHECK(strcmp(atl_row_kind_name(r), "app") == 0 && strcmp(atl_row_config(r, "app"), "mine") == 0);
  CHECK(atl_row_number(r, "bytes", 0) == 4096 && atl_row_metric(r, "gops", 0) == 1.5);
  CHECK(atl_row_status(r) == ATL_STATUS_OK && strcmp(atl_row_reason(r), "a note") == 0 && atl_row_verified(r));
  size_t ns = 0;
  const double *s = atl_row_samples(r, &ns);
  CHECK(ns == 4 && s[2] == 4.0 && atl_row_time_ms(r)->median == 2.5 && atl_row_time_ms(r)->max == 4.0);
  atl_result_set_release(&set);
  printf("ok: a row set through the setters, written and read back\n");
}

/* A row the program makes, filled twice by atl_rmw_run on the first device. */
static void measure(void)
{
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx) != 0 || atl_device_open(ctx, NULL, NULL) != 0) {
    fprintf(stderr, "FAIL: no device: %s\n", ctx ? atl_errmsg(ctx) : "out of memory");
    fails++;
    atl_context_free(ctx);
    return;
  }
  struct atl_row *row = atl_row_new();
  CHECK(row != NULL && atl_row_status(row) == ATL_STATUS_ERROR && atl_row_metric_count(row) == 0);
  struct atl_timing timing;
  atl_timing_defaults(&timing);
  timing.fixed_iters = 10, timing.min_samples = timing.max_samples = 2;
  for (uint32_t contention = 1; row != NULL && contention <= 4; contention *= 4) {
    struct atl_spec s = {.op = ATL_OP_FETCH_ADD,
                         .type = ATL_TYPE_U32,
                         .pattern = ATL_PATTERN_CONTIGUOUS,
                         .contention = contention,
                         .padding = 1,
                         .wg_size = 64,
                         .workgroups = 2};
    CHECK(atl_rmw_run(ctx, &s, &timing, row) == 0);
    CHECK(atl_row_status(row) == ATL_STATUS_OK && atl_row_verified(row) && atl_row_wrong(row) == 0);
    CHECK(strcmp(atl_row_kind_name(row), "rmw") == 0 && atl_row_number(row, "contention", 0) == contention);
    size_t ns = 0;
    CHECK(atl_row_samples(row, &ns) != NULL && ns == 2 && atl_row_time_ms(row)->samples == 2);
    CHECK(atl_row_time_ms(row)->median > 0 && atl_row_seconds(row) > 0 && atl_row_metric(row, "gops", 0) > 0);
    metrics_agree(row);
    atl_row_release(row);
  }
  atl_row_free(row);
  atl_context_free(ctx);
  printf("ok: rows made with atl_row_new and filled by atl_rmw_run\n");
}

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: row_abi RMW_V2_JSON TMPDIR\n");
    return 2;
  }
  CHECK(atl_version() / 10000 == ATL_VERSION_MAJOR);
  read_file(argv[1]);
  null_rows();
  own_row(argv[2]);
  measure();
  return fails != 0;
}
