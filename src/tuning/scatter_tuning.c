/*
 * The scatter-add's tuning (scatter_tuning.h): data/tuning/scatter.json read with cJSON once a process, and the rule
 * for devices no row names.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "atomlab/error.h"
#include "atomlab/model.h"
#include "core/data_dir.h"
#include "scatter_tuning.h"

#ifndef ATL_INSTALL_DATA_DIR
#define ATL_INSTALL_DATA_DIR ""
#endif
#ifndef ATL_SOURCE_TUNING_DIR
#define ATL_SOURCE_TUNING_DIR ""
#endif

/* The numbers a row may set: name, place in the row, what is allowed. */
static const struct {
  const char *name;
  size_t offset;
  double lo, hi;
  const char *allowed;
} numbers[] = {
#define SHARE(f) {#f, offsetof(struct atl__tuning_row, f), 0x1p-20, 1, "a share of the L2 above 0, at most 1"}
    SHARE(part_l2_share), SHARE(sweep_l2_share), SHARE(split_l2_share), SHARE(auto_l2_share),
#undef SHARE
#define ROWS(f) {#f, offsetof(struct atl__tuning_row, f), 0, 2, "a share of the rows, 0 to 2 (above 1: never)"}
    ROWS(auto_run_share), ROWS(auto_head_share), ROWS(auto_bins_run_share), ROWS(auto_bins_head_share),
    ROWS(auto_order_share), ROWS(auto_sweep_head_share),
#undef ROWS
    {"part_batch", offsetof(struct atl__tuning_row, part_batch), 1, 8, "1 to 8 units"},
    {"min_threads", offsetof(struct atl__tuning_row, min_threads), 0, 4096, "0 (no bound) to 4096 threads"},
    {"table_bytes", offsetof(struct atl__tuning_row, table_bytes), 256, 1 << 20, "256 to 1048576 bytes"},
    {"bucket_span", offsetof(struct atl__tuning_row, bucket_span), 32, 4096, "32 to 4096 targets"},
    {"auto_bucket_load", offsetof(struct atl__tuning_row, auto_bucket_load), 0, 1 << 20, "0 to 1048576 rows a target"},
    {"auto_bucket_row", offsetof(struct atl__tuning_row, auto_bucket_row), 0, 1 << 20, "0 to 1048576 bytes"},
    {"auto_bucket_groups", offsetof(struct atl__tuning_row, auto_bucket_groups), 0, 1024,
     "0 to 1024 buckets a compute unit"},
    {"dsm_bin_share", offsetof(struct atl__tuning_row, dsm_bin_share), 0x1p-20, 1,
     "a share of the bins above 0, at most 1"},
    {"auto_dsm_load", offsetof(struct atl__tuning_row, auto_dsm_load), 0, 1 << 20, "0 to 1048576 rows a bin"},
#define RATIO(f) {#f, offsetof(struct atl__tuning_row, f), 1, 16, "a ratio of 1 to 16"}
    RATIO(f32_same_ratio_atom), RATIO(f32_same_ratio_red),
#undef RATIO
};
static const struct {
  const char *name;
  size_t offset, size;
  int required;
} texts[] = {
    {"name", offsetof(struct atl__tuning_row, name), sizeof ((struct atl__tuning_row *)0)->name, 1},
    {"source", offsetof(struct atl__tuning_row, source), sizeof ((struct atl__tuning_row *)0)->source, 1},
    {"backend", offsetof(struct atl__tuning_row, backend), sizeof ((struct atl__tuning_row *)0)->backend, 0},
    {"vendor", offsetof(struct atl__tuning_row, vendor), sizeof ((struct atl__tuning_row *)0)->vendor, 0},
    {"arch", offsetof(struct atl__tuning_row, arch), sizeof ((struct atl__tuning_row *)0)->arch, 0},
};

static int row_parse(const cJSON *o, unsigned i, struct atl__tuning_row *r, char *why, size_t len)
{
  if (!cJSON_IsObject(o))
    return snprintf(why, len, "rows[%u]: an object is needed", i), ATL_EINVAL;
  for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, texts[k].name);
    char *to = (char *)r + texts[k].offset;
    if (v == NULL && !texts[k].required)
      continue;
    if (!cJSON_IsString(v) || !*v->valuestring || strlen(v->valuestring) >= texts[k].size)
      return snprintf(why, len, "rows[%u].%s: a text of 1 to %zu characters is needed", i, texts[k].name,
                      texts[k].size - 1), ATL_EINVAL;
    memcpy(to, v->valuestring, strlen(v->valuestring) + 1);
  }
  for (size_t k = 0; k < sizeof numbers / sizeof *numbers; k++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, numbers[k].name);
    double *to = (double *)((char *)r + numbers[k].offset);
    *to = -1;
    if (v == NULL)
      continue;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= numbers[k].lo && v->valuedouble <= numbers[k].hi))
      return snprintf(why, len, "rows[%u].%s: %s is not allowed: %s", i, numbers[k].name,
                      cJSON_IsNumber(v) ? "the value" : "a non-number", numbers[k].allowed), ATL_EINVAL;
    *to = v->valuedouble;
  }
  return 0;
}

const cJSON *atl__tuning_rows_of(const char *text, int max_rows, cJSON **root, char *why, size_t len)
{
  *root = cJSON_Parse(text);
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(*root, "format_version");
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(*root, "rows");
  if (*root == NULL)
    snprintf(why, len, "not JSON (near character %zu)", (size_t)(cJSON_GetErrorPtr() - text));
  else if (!cJSON_IsNumber(version) || version->valuedouble != 1)
    snprintf(why, len, "format_version: 1 is needed");
  else if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) > max_rows)
    snprintf(why, len, "rows: an array of at most %d rows is needed", max_rows);
  else
    return list;
  return NULL;
}

int atl__scatter_tuning_parse(const char *text, struct atl__tuning_rows *rows, char *why, size_t len)
{
  cJSON *root;
  const cJSON *list = atl__tuning_rows_of(text, ATL__TUNING_ROWS, &root, why, len);
  int err = list ? 0 : ATL_EINVAL;
  memset(rows, 0, sizeof *rows);
  for (const cJSON *o = list ? list->child : NULL; !err && o; o = o->next, rows->n++)
    err = row_parse(o, rows->n, &rows->row[rows->n], why, len);
  cJSON_Delete(root);
  if (err)
    rows->n = 0;
  return err;
}

/* A fact of the row (backend, vendor, architecture) the device's matches: the row's text is in the device's. */
static int fact_matches(const char *want, const char *have)
{
  if (!*want)
    return 1;
  for (size_t n = strlen(want); *have; have++)
    if (strncasecmp(have, want, n) == 0)
      return 1;
  return 0;
}

/* The rule for a device no row names: the L2 shares part's, the sweep's and the split's measured ranges took on the
 * H100 as fractions of its L2 (so a larger or smaller L2 scales the ranges), auto's thresholds (the H100's and the
 * H200 grid's: docs/design/scatter.md, "`auto`"), two units in flight,
 * the split sweep bound to five eighths of the resident threads (the H100's 1280 of 2048: its registers), a table
 * of at most two thirds of the local memory (the rest for its keys and the kernel's own words), buckets of 128
 * targets and auto's bucket bounds (the H200's: the one device measured), dsm's tables holding a quarter of the bins
 * and auto's dsm from 8 rows a bin (the H200's: a quarter was fastest at every load measured there, and as fast as a
 * half on the H100). */
static void derived(const struct atl_device_info *d, struct atl__scatter_tuning *t)
{
  *t = (struct atl__scatter_tuning){.part_l2_share = 0.5, .sweep_l2_share = 0.4, .split_l2_share = 0.3125,
                                    .auto_run_share = 0.1, .auto_head_share = 0.05, .auto_l2_share = 0.5,
                                    .auto_bins_run_share = 0.95, .auto_bins_head_share = 0.02, .auto_order_share = 0.1,
                                    .auto_sweep_head_share = 0.3,
                                    .part_batch = 2, .min_threads = d->max_threads_per_cu * 5 / 8,
                                    .table_bytes = 32768, .bucket_span = 128, .auto_bucket_load = 2,
                                    .auto_bucket_row = 128, .auto_bucket_groups = 4, .dsm_bin_share = 0.25,
                                    .auto_dsm_load = 8, .derived = 1};
  snprintf(t->row, sizeof t->row, "derived");
}

const struct atl__tuning_row *atl__tuning_row_for(const struct atl__tuning_rows *rows, const struct atl_device_info *dev)
{
  for (unsigned i = 0; rows && i < rows->n; i++) {
    const struct atl__tuning_row *r = &rows->row[i];
    if (fact_matches(r->backend, dev->backend) && fact_matches(r->vendor, dev->vendor) &&
        fact_matches(r->arch, dev->lang_version))
      return r;
  }
  return NULL;
}

void atl__scatter_tuning_resolve(const struct atl__tuning_rows *rows, const struct atl_device_info *dev,
                                 struct atl__scatter_tuning *t)
{
  derived(dev, t);
  const struct atl__tuning_row *r = atl__tuning_row_for(rows, dev);
  if (r) {
    double *const to[] = {&t->part_l2_share,       &t->sweep_l2_share,        &t->split_l2_share,
                          &t->auto_l2_share,       &t->auto_run_share,        &t->auto_head_share,
                          &t->auto_bins_run_share, &t->auto_bins_head_share,  &t->auto_order_share,
                          &t->auto_sweep_head_share, &t->auto_bucket_load,    &t->dsm_bin_share,
                          &t->auto_dsm_load};
    const double from[] = {r->part_l2_share,       r->sweep_l2_share,        r->split_l2_share,
                           r->auto_l2_share,       r->auto_run_share,        r->auto_head_share,
                           r->auto_bins_run_share, r->auto_bins_head_share,  r->auto_order_share,
                           r->auto_sweep_head_share, r->auto_bucket_load,    r->dsm_bin_share,
                           r->auto_dsm_load};
    for (size_t k = 0; k < sizeof to / sizeof *to; k++)
      *to[k] = from[k] >= 0 ? from[k] : *to[k];
    t->part_batch = r->part_batch >= 0 ? (unsigned)r->part_batch : t->part_batch;
    t->min_threads = r->min_threads >= 0 ? (unsigned)r->min_threads : t->min_threads;
    t->table_bytes = r->table_bytes >= 0 ? (unsigned)r->table_bytes : t->table_bytes;
    t->bucket_span = r->bucket_span >= 0 ? (unsigned)r->bucket_span : t->bucket_span;
    t->auto_bucket_row = r->auto_bucket_row >= 0 ? (unsigned)r->auto_bucket_row : t->auto_bucket_row;
    t->auto_bucket_groups = r->auto_bucket_groups >= 0 ? (unsigned)r->auto_bucket_groups : t->auto_bucket_groups;
    snprintf(t->row, sizeof t->row, "%s", r->name);
    t->derived = 0;
    snprintf(t->note, sizeof t->note, "%s", r->source);
  }
  const uint64_t most = dev->local_mem * 2 / 3; /* 0: unknown */
  if (most && t->table_bytes > most)
    t->table_bytes = (unsigned)most;
}

static struct tuning_file {
  const char *name;
  pthread_once_t once;
  struct atl__tuning_rows rows;
  char note[320];
} files[ATL__TUNING_FILES] = {{.name = "scatter.json", .once = PTHREAD_ONCE_INIT},
                               {.name = "l2.json", .once = PTHREAD_ONCE_INIT}};

int atl__tuning_file_find(const char *name, char *path, size_t len)
{
  char cache[3800] = "";
  const char *env = getenv("ATL_DATA_DIR");
  if (atl_cache_dir("tuning", cache, sizeof cache) != 0)
    *cache = '\0';
  char source[4096];
  const char *const dirs[][2] = {{cache, ""}, {env ? env : "", "/tuning"}, {ATL_INSTALL_DATA_DIR, "/tuning"},
                                 {atl__source_data_dir(ATL_SOURCE_TUNING_DIR, "tuning", source, sizeof source), ""}};
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
    struct stat st;
    const int n = snprintf(path, len, "%s%s/%s", dirs[i][0], dirs[i][1], name);
    if (*dirs[i][0] && n > 0 && (size_t)n < len && stat(path, &st) == 0 && S_ISREG(st.st_mode))
      return 0;
  }
  return ATL_EINVAL;
}

static void file_load(struct tuning_file *file)
{
  char path[4096], why[240] = "";
  if (atl__tuning_file_find(file->name, path, sizeof path) != 0) {
    snprintf(file->note, sizeof file->note, "no tuning file (data/tuning/%s)", file->name);
    return;
  }
  FILE *f = fopen(path, "rb");
  char *text = NULL;
  long n = -1;
  if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && n < (1L << 20) && fseek(f, 0, SEEK_SET) == 0 &&
      (text = calloc(1, (size_t)n + 1)) != NULL && fread(text, 1, (size_t)n, f) == (size_t)n) {
    if (atl__scatter_tuning_parse(text, &file->rows, why, sizeof why) != 0)
      snprintf(file->note, sizeof file->note, "%.120s: %.190s", path, why);
  } else
    snprintf(file->note, sizeof file->note, "%.200s: unable to read it (at most 1 MiB)", path);
  free(text);
  if (f)
    fclose(f);
}

/* pthread_once takes no argument: one loader a file */
static void load_scatter(void) { file_load(&files[ATL__TUNING_SCATTER]); }
static void load_l2(void) { file_load(&files[ATL__TUNING_L2]); }

const struct atl__tuning_rows *atl__tuning_file_rows(enum atl__tuning_file which, const char **note)
{
  static void (*const load[ATL__TUNING_FILES])(void) = {load_scatter, load_l2};
  pthread_once(&files[which].once, load[which]);
  *note = files[which].note;
  return &files[which].rows;
}

void atl__scatter_tuning_for(const struct atl_device_info *dev, struct atl__scatter_tuning *t)
{
  const char *note;
  atl__scatter_tuning_resolve(atl__tuning_file_rows(ATL__TUNING_SCATTER, &note), dev, t);
  if (t->derived)
    snprintf(t->note, sizeof t->note, "%s", *note ? note : "no row for this device");
}
