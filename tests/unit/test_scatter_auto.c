/*
 * The scatter app's auto rule (src/apps/scatter_auto.c) on synthetic statistics: the shapes of the H100
 * runs (uniform, zipf, sorted, clustered, hot at f32 D = 64, V = 1 M: a 256 MiB output against a 50 MiB L2),
 * a small output, no warp path (OpenCL, 16-bit types), an unknown L2 and the bincount (dim 1); and on the H200
 * shape grid's 60 cells as measured (tests/data/scatter-shapes/h200-grid-picks.json) with the sm_90 tuning row.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "apps/scatter_auto.h"
#include "check.h"
#include "core/text.h"
#include "tuning/scatter_tuning.h"

static struct atl__scatter_tuning tuning; /* the rule's thresholds: the derived rule's unless a test sets a row */

static int picks_dsm(uint32_t dim, double run, double head, uint64_t out, uint64_t l2, int fast, int dsm,
                     const char *variant, uint32_t parts)
{
  const struct atl__scatter_stats s = {dim, run, head, out, l2, fast, dsm, &tuning, out / 4 / dim, 4, 8u << 20, 132};
  const struct atl__scatter_pick p = atl__scatter_auto_rule(&s);
  const char *name = atl__scatter_variant_names[p.variant];
  if (strcmp(name, variant) == 0 && p.partitions == parts)
    return 1;
  printf("  dim %u run %.3f head %.3f out %llu l2 %llu fast %d dsm %d: %s/%u, expected %s/%u\n", dim, run, head,
         (unsigned long long)out, (unsigned long long)l2, fast, dsm, name, p.partitions, variant, parts);
  return 0;
}

static int picks(uint32_t dim, double run, double head, uint64_t out, uint64_t l2, int fast, const char *variant,
                 uint32_t parts)
{
  return picks_dsm(dim, run, head, out, l2, fast, 0, variant, parts);
}

/* A tuning file's text parsed: 0 and no message, or the error whose message holds @p want. */
static int parses(const char *text, const char *want, struct atl__tuning_rows *rows)
{
  char why[240] = "";
  const int err = atl__scatter_tuning_parse(text, rows, why, sizeof why);
  if (want == NULL ? err == 0 : err != 0 && strstr(why, want) != NULL)
    return 1;
  printf("  %s: %d '%s', expected %s\n", text, err, why, want ? want : "no error");
  return 0;
}

/* The tuning file: rows matched on the device's facts change the constants and the pick; a malformed file is refused
 * naming the field; a device no row matches takes the derived rule (its table within the local memory). */
static void tuning_rows(void)
{
  struct atl__tuning_rows rows;
  struct atl_device_info h100 = {.backend = "cuda", .vendor = "NVIDIA Corporation",
                                 .lang_version = "CUDA C++ (NVRTC), sm_90", .max_threads_per_cu = 2048,
                                 .local_mem = 48 << 10};
  struct atl_device_info other = {.backend = "opencl", .vendor = "AMD", .max_threads_per_cu = 1024,
                                  .local_mem = 32 << 10};
  CHECK(parses("{\"format_version\": 1, \"rows\": [{\"name\": \"hopper\", \"source\": \"a test\", \"backend\": "
               "\"cuda\", \"arch\": \"sm_90\", \"auto_run_share\": 0.9, \"min_threads\": 1024}]}", NULL, &rows));
  atl__scatter_tuning_resolve(&rows, &h100, &tuning);
  CHECK(strcmp(tuning.row, "hopper") == 0 && !tuning.derived && tuning.min_threads == 1024 && tuning.auto_run_share == 0.9);
  CHECK(tuning.part_batch == 2 && tuning.table_bytes == 32768); /* left out: the derived rule's */
  CHECK(picks(64, 0.6, 0.0, 1u << 20, 50u << 20, 1, "part", 0)); /* runs of 0.6: below the row's 0.9 */
  CHECK(parses("{\"format_version\": 1, \"rows\": [{\"name\": \"thin\", \"source\": \"a test\", \"auto_sweep_head_share\": "
               "0.05, \"auto_bins_run_share\": 0.5, \"auto_order_share\": 2}]}", NULL, &rows));
  atl__scatter_tuning_resolve(&rows, &h100, &tuning);
  CHECK(picks(64, 0.01, 0.092, 256ull << 20, 50u << 20, 1, "part", 1)); /* no head is thin enough to sweep */
  CHECK(picks(1, 0.875, 0.0, 4ull << 20, 50u << 20, 1, "bins", 0));     /* runs from half the rows */
  CHECK(picks(1, 0.213, 0.0, 64ull << 20, 50u << 20, 1, "sweep", 0));   /* no order share */
  CHECK(parses("{\"format_version\": 1, \"rows\": [{\"name\": \"n\", \"source\": \"s\", \"auto_order_share\": -1}]}",
               "rows[0].auto_order_share: the value is not allowed", &rows));
  CHECK(parses("{\"format_version\": 1, \"rows\": [{\"name\": \"hopper\", \"source\": \"a test\", \"backend\": "
               "\"cuda\", \"arch\": \"sm_90\", \"auto_run_share\": 0.9, \"min_threads\": 1024}]}", NULL, &rows));
  atl__scatter_tuning_resolve(&rows, &other, &tuning); /* no row: derived from its facts */
  CHECK(strcmp(tuning.row, "derived") == 0 && tuning.derived && tuning.min_threads == 640 && tuning.table_bytes == 21845);
  CHECK(picks(64, 0.6, 0.0, 1u << 20, 50u << 20, 1, "run", 0));
  CHECK(parses("{\"format_version\": 1, \"rows\": [", "not JSON", &rows) && rows.n == 0);
  CHECK(parses("{\"rows\": []}", "format_version", &rows));
  CHECK(parses("{\"format_version\": 1.5, \"rows\": []}", "format_version", &rows));
  CHECK(parses("{\"format_version\": 1, \"rows\": [{\"source\": \"s\"}]}", "rows[0].name", &rows));
  CHECK(parses("{\"format_version\": 1, \"rows\": [{\"name\": \"n\", \"source\": \"s\", "
               "\"part_l2_share\": 1.5}]}",
               "rows[0].part_l2_share: the value is not allowed: a share of the L2 above 0, at most 1", &rows));
  CHECK(parses("{\"format_version\": 1, \"rows\": [{\"name\": \"n\", \"source\": \"s\", "
               "\"part_batch\": \"2\"}]}",
               "rows[0].part_batch: a non-number is not allowed: 1 to 8 units", &rows));
  CHECK(parses("{\"format_version\": 1, \"rows\": [{\"name\": \"n\", \"source\": \"s\", \"dsm_bin_share\": 0}]}",
               "rows[0].dsm_bin_share: the value is not allowed: a share of the bins above 0, at most 1", &rows));
  CHECK(parses("{\"format_version\": 1, \"rows\": [{\"name\": \"n\", \"source\": \"s\", \"auto_dsm_load\": 4}]}", NULL,
               &rows));
  atl__scatter_tuning_resolve(&rows, &h100, &tuning);
  CHECK(tuning.auto_dsm_load == 4 && tuning.dsm_bin_share == 0.25); /* the row's, and the derived rule's */
  atl__scatter_tuning_resolve(NULL, &h100, &tuning); /* the derived rule on the H100's facts: the fitted values */
  CHECK(tuning.min_threads == 1280 && tuning.table_bytes == 32768 && tuning.part_l2_share == 0.5);
  CHECK(tuning.dsm_bin_share == 0.25 && tuning.auto_dsm_load == 8);
}

/* tests/data/scatter-shapes/h200-grid-picks.json: the H200 grid's cells, their keys' shares and what auto ran.
 * data/tuning/scatter.json's sm_90 row on the H200's facts must pick the same for every cell: the grid's figures
 * stand for this rule (a cell kept from an older commit among them), and a change of a threshold names the cells
 * whose pick it changes. */
static void h200_grid(void)
{
  char *text = atl__read_text_file(ATL_TEST_DATA_DIR "/scatter-shapes/h200-grid-picks.json", 1 << 20);
  cJSON *root = text ? cJSON_Parse(text) : NULL, *dev = cJSON_GetObjectItem(root, "device");
  free(text);
  const cJSON *cells = cJSON_GetObjectItem(root, "cells"), *c;
  const char *note = "";
  setenv("XDG_CACHE_HOME", "/nonexistent/atomlab-test", 1); /* the tree's table, not a user's cached one */
  unsetenv("ATL_DATA_DIR");
  const struct atl__tuning_rows *rows = atl__tuning_file_rows(ATL__TUNING_SCATTER, &note);
  struct atl_device_info h200 = {.backend = "cuda", .vendor = "NVIDIA Corporation",
                                 .lang_version = "CUDA C++ (NVRTC), sm_90", .max_threads_per_cu = 2048,
                                 .local_mem = 48 << 10};
  struct atl__scatter_tuning t;
  atl__scatter_tuning_resolve(rows, &h200, &t);
  if (!CHECK(root && cJSON_GetArraySize(cells) == 60 && strcmp(t.row, "nvidia-sm_90") == 0))
    printf("  the grid's file or the tuning row (%s: %s) is missing\n", t.row, note);
  const uint64_t l2 = (uint64_t)cJSON_GetNumberValue(cJSON_GetObjectItem(dev, "l2_bytes"));
  const uint64_t grid_rows = (uint64_t)cJSON_GetNumberValue(cJSON_GetObjectItem(root, "rows"));
  cJSON_ArrayForEach(c, cells)
  {
    const double dim = cJSON_GetNumberValue(cJSON_GetObjectItem(c, "dim"));
    const double targets = cJSON_GetNumberValue(cJSON_GetObjectItem(c, "targets"));
    const double es = cJSON_GetNumberValue(cJSON_GetObjectItem(c, "elem_bytes"));
    const cJSON *ranges = cJSON_GetObjectItem(c, "ranges");
    const struct atl__scatter_stats s = {(uint32_t)dim, cJSON_GetNumberValue(cJSON_GetObjectItem(c, "run_share")),
                                         cJSON_GetNumberValue(cJSON_GetObjectItem(c, "head_share")),
                                         (uint64_t)(targets * dim * es), l2, 1, 0, &t, (uint64_t)targets, 4, grid_rows,
                                         132};
    const struct atl__scatter_pick p = atl__scatter_auto_rule(&s);
    const char *want = cJSON_GetStringValue(cJSON_GetObjectItem(c, "pick"));
    const int ranged = cJSON_IsNumber(ranges);
    if (!CHECK(want && strcmp(atl__scatter_variant_names[p.variant], want) == 0 &&
               (!ranged || p.partitions == (uint32_t)cJSON_GetNumberValue(ranges))))
      printf("  %s: picks %s/%u, the grid ran %s\n", cJSON_GetStringValue(cJSON_GetObjectItem(c, "name")),
             atl__scatter_variant_names[p.variant], p.partitions, want ? want : "?");
  }
  cJSON_Delete(root);
}

int main(void)
{
  h200_grid();
  const uint64_t out = 256ull << 20, l2 = 50ull << 20;
  tuning_rows(); /* ends with the derived rule's thresholds, which the picks below take */
  /* the shares of an H100 run's auto rows (f32, D 64, 1M targets) */
  CHECK(picks(64, 0.000, 0.000, out, l2, 1, "bucket", 0)); /* uniform, where L2-sized ranges pay: buckets */
  CHECK(picks(64, 0.023, 0.562, out, l2, 1, "part", 1));  /* zipf 1.1: its head in one range */
  CHECK(picks(64, 0.875, 0.000, out, l2, 1, "run", 0));   /* sorted */
  CHECK(picks(64, 0.969, 0.000, out, l2, 1, "run", 0));   /* clustered */
  CHECK(picks(64, 1.000, 1.000, out, l2, 1, "part", 1));  /* hot: the head before the runs */
  /* a thin head (zipf 0.8) beyond half the L2: swept with the rest; within it, part in one range */
  CHECK(picks(64, 0.01, 0.092, out, l2, 1, "sweep", 0));
  CHECK(picks(64, 0.01, 0.187, l2 / 4, l2, 1, "part", 1));
  CHECK(picks(64, 0.01, 0.299, out, l2, 1, "sweep", 0));
  CHECK(picks(64, 0.01, 0.300, out, l2, 1, "part", 1));
  /* the ranges pay while a range's pass over the keys costs no more than the row it saves: 16M targets at D 64
   * (4 GiB, 205 ranges of 20 MiB: 820 key bytes a row against 256) take atomic, a head part, at D 256 too */
  CHECK(picks(64, 0.0, 0.0, 4ull << 30, l2, 1, "atomic", 0));
  CHECK(picks(64, 0.0, 0.04, 4ull << 30, l2, 1, "atomic", 0)); /* a head under 5%: none */
  CHECK(picks(64, 0.0, 0.518, 4ull << 30, l2, 1, "part", 1));
  CHECK(picks(256, 0.0, 0.0, 1ull << 30, l2, 1, "bucket", 0));  /* 52 ranges: 208 bytes against 1024 */
  CHECK(picks(256, 0.0, 0.0, 16ull << 30, l2, 1, "atomic", 0)); /* 820 ranges */
  /* 64 ranges: 256 bytes, the row's; 5 M targets, 1.6 rows a target (fewer than bucket takes): the sweep */
  CHECK(picks(64, 0.0, 0.0, 1280ull << 20, l2, 1, "sweep", 0));
  CHECK(picks(64, 0.0, 0.0, 1024ull << 20, l2, 1, "bucket", 0)); /* 4 M targets: 2 rows a target */
  CHECK(picks(64, 0.0, 0.0, 1300ull << 20, l2, 1, "atomic", 0));
  /* an output within half the L2: bucket too; where its rows are narrow (64 bytes) or its buckets fewer than 4 a
   * compute unit (128 for 132), part in one range for uniform keys, atomic without the warp path */
  CHECK(picks(64, 0.0, 0.0, l2 / 2, l2, 1, "bucket", 0));
  CHECK(picks(64, 0.0, 0.0, l2 / 2 + 1, l2, 1, "bucket", 0)); /* 82 rows a target */
  CHECK(picks(16, 0.0, 0.0, l2 / 2, l2, 1, "part", 0));
  CHECK(picks(32, 0.0, 0.0, l2 / 2, l2, 1, "bucket", 0));
  CHECK(picks(64, 0.0, 0.0, 4ull << 20, l2, 1, "part", 0));
  CHECK(picks(64, 0.0, 0.0, out, 0, 1, "bucket", 0)); /* the L2 unknown */
  CHECK(picks(16, 0.0, 0.0, out, 0, 1, "part", 0));   /* the L2 unknown: part in one range */
  /* no warp path: block for a head, atomic for uniform keys where bucket does not pay */
  CHECK(picks(64, 0.023, 0.562, out, l2, 0, "block", 0));
  CHECK(picks(64, 1.0, 1.0, out, l2, 0, "block", 0));
  CHECK(picks(64, 0.0, 0.0, out, l2, 0, "bucket", 0));
  CHECK(picks(16, 0.0, 0.0, out, l2, 0, "atomic", 0));
  CHECK(picks(16, 0.0, 0.0, l2 / 4, l2, 0, "atomic", 0));
  CHECK(picks(64, 0.9, 0.0, out, l2, 0, "run", 0));
  /* the thresholds: a head from 5% of the rows, runs from a tenth (sorted into 16M targets: 0.213) */
  CHECK(picks(64, 0.0, 0.049, out, l2, 1, "bucket", 0));
  CHECK(picks(64, 0.0, 0.05, l2 / 4, l2, 1, "part", 1));
  CHECK(picks(64, 0.099, 0.0, l2 / 4, l2, 1, "part", 0));
  CHECK(picks(64, 0.1, 0.0, l2 / 4, l2, 1, "run", 0));
  CHECK(picks(64, 0.213, 0.0, 4ull << 30, l2, 1, "run", 0));
  CHECK(picks(64, 0.099, 0.0, 4ull << 30, l2, 1, "atomic", 0));
  /* dim 1: bins for a head (from 2% of the rows) or long runs (from 95%); keys in order with shorter runs (from
   * 10%): atomic; uniform keys: the sweep into counters beyond half the L2 (2^24 bins, 64 MiB: 4 ranges, 16 key bytes
   * a row against a sector's 32), atomic within it (2^20 bins, 4 MiB) or without part's warp path */
  CHECK(picks(1, 0.0, 0.562, 64ull << 20, l2, 1, "bins", 0));
  CHECK(picks(1, 0.0, 0.041, 64ull << 20, l2, 1, "bins", 0)); /* zipf 0.8 into 16M bins */
  CHECK(picks(1, 0.0, 0.019, 64ull << 20, l2, 1, "sweep", 0));
  CHECK(picks(1, 1.0, 1.0, out, l2, 1, "bins", 0));
  CHECK(picks(1, 0.988, 0.0, 400000, l2, 1, "bins", 0));       /* sorted into 100K bins */
  CHECK(picks(1, 0.875, 0.0, 4ull << 20, l2, 1, "atomic", 0)); /* sorted into 1M */
  CHECK(picks(1, 0.213, 0.0, 64ull << 20, l2, 1, "atomic", 0)); /* sorted into 16M */
  CHECK(picks(1, 0.099, 0.0, 64ull << 20, l2, 1, "sweep", 0));
  CHECK(picks(1, 0.0, 0.0, 64ull << 20, l2, 1, "sweep", 0));
  CHECK(picks(1, 0.0, 0.0, 160ull << 20, l2, 1, "sweep", 0));  /* 8 ranges: 32 key bytes, a sector's */
  CHECK(picks(1, 0.0, 0.0, 400ull << 20, l2, 1, "atomic", 0)); /* 20 ranges: 80 key bytes against 32 */
  CHECK(picks(1, 0.0, 0.0, 4ull << 20, l2, 1, "atomic", 0));
  CHECK(picks(1, 0.0, 0.0, 64ull << 20, l2, 0, "atomic", 0));
  /* dim 1 with clusters (sm_90, integer weights): dsm's table beside the L2 for uniform keys into 2^20 bins
   * on sm_90; the head still bins, beyond half the L2 still the sweep */
  CHECK(picks_dsm(1, 0.0, 0.0, 4ull << 20, l2, 1, 1, "dsm", 0));   /* 8 rows a bin: the tuning's auto_dsm_load */
  CHECK(picks_dsm(1, 0.0, 0.0, 16ull << 20, l2, 1, 1, "atomic", 0)); /* 2 rows a bin: the tables cost more */
  CHECK(picks_dsm(1, 0.0, 0.562, 4ull << 20, l2, 1, 1, "bins", 0));
  CHECK(picks_dsm(1, 0.0, 0.0, 64ull << 20, l2, 1, 1, "sweep", 0));
  return check_exit("test_scatter_auto");
}
