/* Reading result files back, every kind and both format versions: what a
 * resumed sweep, compare, plot and report stand on. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "input_cap.h"

static char *read_file(const char *path, char *why, size_t why_len)
{
  /* Only a regular file: a FIFO would block the read, a folder's "size" is no size. */
  char detail[200];
  FILE *f = atl_file_open_input(path, detail, sizeof detail);
  if (f == NULL) {
    snprintf(why, why_len, "'%s': %s", path, detail);
    return NULL;
  }
  char *text = NULL;
  long size = -1;
  if (atl__input_check(f, ATL_MAX_INPUT_DEFAULT, detail, sizeof detail) != 0) {
    snprintf(why, why_len, "'%s': %s", path, detail);
    fclose(f);
    return NULL;
  }
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (text = malloc((size_t)size + 1)) != NULL && fread(text, 1, (size_t)size, f) == (size_t)size) {
    text[size] = '\0';
  } else {
    free(text);
    text = NULL;
    snprintf(why, why_len, "unable to read '%s'", path);
  }
  fclose(f);
  return text;
}

static const char *str(const cJSON *o, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *key, double fallback)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

/* A count field: its value if a whole number from 0 to below @p limit, else 0. */
static double whole(const cJSON *o, const char *key, double limit)
{
  double v = num(o, key, 0);
  return v >= 0 && v < limit && v == floor(v) ? v : 0;
}

/* What field @p key of @p o holds, for a message: "missing", "'frob'", "0", "an array". */
static void field_text(const cJSON *o, const char *key, char *buf, size_t len)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (v == NULL)
    snprintf(buf, len, "missing");
  else if (cJSON_IsString(v))
    snprintf(buf, len, "'%.40s'", v->valuestring);
  else if (cJSON_IsNumber(v))
    snprintf(buf, len, "%.17g", v->valuedouble);
  else
    snprintf(buf, len, "%s", cJSON_IsBool(v) ? "a boolean" : cJSON_IsNull(v) ? "null" : cJSON_IsArray(v) ? "an array" : "an object");
}

static void copy_str(char *dst, size_t len, const char *src)
{
  snprintf(dst, len, "%s", src ? src : "");
}

/* A JSON value as configuration text: strings as they are, numbers exactly,
 * booleans as yes/no (what the table prints). 0, or -1 for another type. */
static int config_text(const cJSON *v, char *out, size_t len, int *is_number)
{
  *is_number = 0;
  if (cJSON_IsString(v))
    snprintf(out, len, "%s", v->valuestring);
  else if (cJSON_IsNumber(v)) {
    snprintf(out, len, "%.15g", v->valuedouble);
    *is_number = 1;
  } else if (cJSON_IsBool(v))
    snprintf(out, len, "%s", cJSON_IsTrue(v) ? "yes" : "no");
  else
    return -1;
  return 0;
}

static int add_config(struct atl_row *r, const char *name, const cJSON *v)
{
  char text[sizeof r->config[0].text];
  int is_number;
  if (config_text(v, text, sizeof text, &is_number))
    return 0;
  return is_number ? atl_row_config_number(r, name, v->valuedouble) : atl_row_config_set(r, name, text);
}

/* Statistics and samples, the same in both versions. */
static int parse_times(const cJSON *o, struct atl_row *r, char *why, size_t why_len, int index)
{
  const cJSON *samples = cJSON_GetObjectItemCaseSensitive(o, "samples_ms");
  int n = cJSON_IsArray(samples) ? cJSON_GetArraySize(samples) : 0;
  if (n > 0) {
    r->samples_ms = malloc((size_t)n * sizeof *r->samples_ms);
    if (r->samples_ms == NULL)
      return ATL_ENOMEM;
    for (int i = 0; i < n; i++) {
      const cJSON *v = cJSON_GetArrayItem(samples, i);
      if (!cJSON_IsNumber(v) || v->valuedouble < 0) {
        atl_row_release(r);
        snprintf(why, why_len, "row %d: samples_ms holds a value that is not a time", index);
        return ATL_EINVAL;
      }
      r->samples_ms[i] = v->valuedouble;
    }
    atl_stats_compute(r->samples_ms, (size_t)n, &r->time_ms);
  }
  /* The statistics as recorded (what compare and plot show, and what
   * atl_row_validate() checks against the samples); time_ms.samples stays the
   * number of samples actually read, which is what samples_ms holds. */
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "time_ms");
  if (cJSON_IsObject(t)) {
    r->time_ms.median = num(t, "median", 0);
    r->time_ms.min = num(t, "min", 0);
    r->time_ms.max = num(t, "max", 0);
    r->time_ms.mean = num(t, "mean", 0);
    r->time_ms.q1 = num(t, "q1", 0);
    r->time_ms.q3 = num(t, "q3", 0);
    r->time_ms.iqr = num(t, "iqr", 0);
    r->time_ms.noise = num(t, "noise", 0);
    r->time_ms.noisy = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "noisy"));
    if (n == 0) /* app rows of version 1 kept no samples: their count as recorded */
      r->time_ms.samples = (unsigned)whole(t, "samples", 0x1p32);
  }
  return 0;
}

/* What every row has in both versions: status, reason, verified, instructions, wall time. */
static void parse_common(const cJSON *o, struct atl_row *r)
{
  const char *status = str(o, "status");
  int s = status ? atl_status_parse(status) : -1;
  r->status = s < 0 ? ATL_STATUS_ERROR : (enum atl_status)s;
  copy_str(r->reason, sizeof r->reason, str(o, "reason"));
  copy_str(r->instructions, sizeof r->instructions, str(o, "instructions"));
  r->verified = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "verified"));
  r->row_seconds = num(o, "row_seconds", 0);
  const cJSON *visits = cJSON_GetObjectItemCaseSensitive(o, "visits_ms"), *v;
  if (!cJSON_IsArray(visits))
    return;
  cJSON_ArrayForEach(v, visits) {
    if (cJSON_IsNumber(v) && r->nvisits < 64)
      r->visits_ms[r->nvisits++] = v->valuedouble;
  }
}

/* A version 2 row: {config, status, reason, verified, wrong, time_ms, samples_ms, metrics, ...}. */
static int parse_row_v2(const cJSON *o, const char *kind, struct atl_row *r, char *why, size_t why_len, int index)
{
  atl_row_init(r, kind);
  const cJSON *config = cJSON_GetObjectItemCaseSensitive(o, "config"), *v;
  if (!cJSON_IsObject(config) || cJSON_GetArraySize(config) == 0) {
    snprintf(why, why_len, "row %d: the field 'config' is %s: allowed: an object of configuration values", index,
             config == NULL ? "missing" : "empty or not an object");
    return ATL_EINVAL;
  }
  cJSON_ArrayForEach(v, config) add_config(r, v->string, v);
  parse_common(o, r);
  r->wrong = (uint64_t)whole(o, "wrong", 0x1p64);
  const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(o, "metrics");
  cJSON_ArrayForEach(v, metrics)
  {
    const char *name = str(v, "name");
    if (name == NULL || !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(v, "value")))
      continue;
    atl_row_metric_set(r, name, num(v, "value", 0));
    struct atl_metric *m = &r->metrics[r->nmetrics - 1];
    if (strcmp(m->name, name) == 0 && str(v, "unit")) /* the file's unit stands (a metric this build does not know) */
      copy_str(m->unit, sizeof m->unit, str(v, "unit"));
  }
  return parse_times(o, r, why, why_len, index);
}

/* Version 1 numbers that are metrics in version 2, in the order the writers now set them. */
static const char *const v1_metrics[] = {"iters", "ops", "array_words", "ops_per_us", "gops", "cas_attempts_per_op",
                                         "olds_checked", "winner", "margin"};

/*
 * A version 1 row, migrated: its kind's configuration fields (rows written
 * before scope and order were recorded ran device-scope relaxed atomics, so
 * they say so), wrong_words as wrong, the numbers of v1_metrics and an app
 * row's "metrics" object as metrics.
 */
static int parse_row_v1(const cJSON *o, const struct atl_row_kind *kind, struct atl_row *r, char *why,
                        size_t why_len, int index)
{
  atl_row_init(r, kind->name);
  for (const char *const *c = kind->config; *c; c++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, *c);
    if (v == NULL && strcmp(kind->name, "rmw") == 0 && str(o, "op") &&
        (strcmp(*c, "scope") == 0 || strcmp(*c, "order") == 0))
      atl_row_config_set(r, *c, strcmp(*c, "scope") == 0 ? "device" : "relaxed");
    else if (v != NULL)
      add_config(r, *c, v);
  }
  if (r->nconfig == 0) {
    snprintf(why, why_len, "row %d is not an object with a configuration (%s, ...)", index, kind->config[0]);
    return ATL_EINVAL;
  }
  parse_common(o, r);
  r->wrong = (uint64_t)whole(o, "wrong_words", 0x1p64);
  for (size_t i = 0; i < sizeof v1_metrics / sizeof v1_metrics[0]; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, v1_metrics[i]);
    if (cJSON_IsNumber(v) || cJSON_IsBool(v))
      atl_row_metric_set(r, v1_metrics[i], cJSON_IsBool(v) ? cJSON_IsTrue(v) : v->valuedouble);
  }
  const cJSON *v, *metrics = cJSON_GetObjectItemCaseSensitive(o, "metrics");
  cJSON_ArrayForEach(v, metrics)
  {
    if (cJSON_IsNumber(v))
      atl_row_metric_set(r, v->string, v->valuedouble);
  }
  return parse_times(o, r, why, why_len, index);
}

static void parse_device(const cJSON *d, struct atl_device_info *info)
{
  copy_str(info->id, sizeof info->id, str(d, "id"));
  copy_str(info->backend, sizeof info->backend, str(d, "backend"));
  copy_str(info->platform, sizeof info->platform, str(d, "platform"));
  copy_str(info->name, sizeof info->name, str(d, "name"));
  copy_str(info->vendor, sizeof info->vendor, str(d, "vendor"));
  copy_str(info->driver, sizeof info->driver, str(d, "driver"));
  copy_str(info->version, sizeof info->version, str(d, "version"));
  copy_str(info->lang_version, sizeof info->lang_version, str(d, "language_version"));
  /* The limits every file records (the report's device section); absent ones stay 0. */
  const cJSON *lim = cJSON_GetObjectItemCaseSensitive(d, "limits");
  info->compute_units = (unsigned)whole(lim, "compute_units", 0x1p32);
  info->clock_mhz = (unsigned)whole(lim, "clock_mhz", 0x1p32);
  info->max_wg_size = (size_t)whole(lim, "max_work_group_size", 0x1p32);
  info->global_mem = (uint64_t)whole(lim, "global_mem_bytes", 0x1p63);
  info->local_mem = (uint64_t)whole(lim, "local_mem_bytes", 0x1p63);
  info->local_mem_optin = (uint64_t)whole(lim, "local_mem_optin_bytes", 0x1p63);
  info->l2_cache = (uint64_t)whole(lim, "l2_cache_bytes", 0x1p63);
  info->warp_size = (unsigned)whole(lim, "warp_size", 0x1p32);
  info->max_threads_per_cu = (unsigned)whole(lim, "max_threads_per_compute_unit", 0x1p32);
  const char *type = str(d, "type");
  info->type = type && strcmp(type, "cpu") == 0 ? ATL_DEVICE_CPU : type && strcmp(type, "gpu") == 0 ? ATL_DEVICE_GPU
               : type && strcmp(type, "accelerator") == 0                                            ? ATL_DEVICE_ACCELERATOR
                                                                                                     : ATL_DEVICE_OTHER;
}

int atl_read_json(const char *path, struct atl_result_set *set, char *why, size_t why_len)
{
  memset(set, 0, sizeof *set);
  char *text = read_file(path, why, why_len);
  if (text == NULL)
    return ATL_EIO;
  int err = atl_parse_json(text, path, set, why, why_len);
  free(text);
  return err;
}

int atl_parse_json(const char *text, const char *path, struct atl_result_set *set, char *why, size_t why_len)
{
  memset(set, 0, sizeof *set);
  cJSON *root = cJSON_Parse(text);
  int err = 0;
  if (!cJSON_IsObject(root)) {
    snprintf(why, why_len, "'%s' is not JSON (expected an atomlab result file)", path);
    err = ATL_EINVAL;
    goto out;
  }
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "format_version");
  if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "rows")) && version == NULL) {
    snprintf(why, why_len, "'%s' is not an atomlab result file (no rows array)", path);
    err = ATL_EINVAL;
    goto out;
  }
  const double fv = num(root, "format_version", -1);
  if (cJSON_IsNumber(version) && fv != 1 && fv != ATL_FORMAT_VERSION) {
    snprintf(why, why_len, "'%s' has format_version %g: this atomlab reads 1 to %d", path, fv, ATL_FORMAT_VERSION);
    err = ATL_EINVAL;
    goto out;
  }
  if (!cJSON_IsNumber(version)) { /* name the field and what it holds, e.g. the string "1" */
    char found[64];
    field_text(root, "format_version", found, sizeof found);
    snprintf(why, why_len, "'%s': the field 'format_version' is %s%s: this atomlab reads the numbers 1 to %d", path,
             cJSON_IsString(version) ? "the string " : "", found, ATL_FORMAT_VERSION);
    err = ATL_EINVAL;
    goto out;
  }
  set->format_version = (int)fv;
  /* The kind: version 2 names it; version 1 said "benchmark": "strategy" or "kind": "app" (or only its rows
   * did, by a strategy or app field), and rmw said nothing. */
  const char *kind_name = str(root, "kind");
  if (fv == 1) {
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "rows"), 0);
    kind_name = str(root, "benchmark")  ? str(root, "benchmark")
                : kind_name             ? kind_name
                : str(first, "strategy") ? "strategy"
                : str(first, "app")      ? "app"
                                         : "rmw";
  }
  const struct atl_row_kind *kind = atl_row_kind_find(kind_name);
  if (kind == NULL) {
    snprintf(why, why_len, "'%s': the field 'kind' is '%s': this atomlab reads rmw, strategy and app rows", path,
             kind_name ? kind_name : "missing");
    err = ATL_EINVAL;
    goto out;
  }
  snprintf(set->kind, sizeof set->kind, "%s", kind->name);
  struct atl_run_meta *m = &set->meta;
  const cJSON *tool = cJSON_GetObjectItemCaseSensitive(root, "tool");
  copy_str(m->tool_version, sizeof m->tool_version, str(tool, "version"));
  copy_str(m->git_commit, sizeof m->git_commit, str(tool, "commit"));
  copy_str(m->date, sizeof m->date, str(root, "date"));
  copy_str(m->command, sizeof m->command, str(root, "command"));
  m->complete = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(root, "complete"));
  m->rows_planned = (size_t)whole(root, "rows_planned", 0x1p52);
  /* The timing settings, which --resume compares with the new run's. */
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "settings");
  atl_timing_defaults(&m->timing);
  m->timing_recorded = cJSON_IsObject(st);
  if (m->timing_recorded) {
    m->timing.target_ms = num(st, "target_ms", -1);
    m->timing.noise = num(st, "noise_threshold", -1);
    m->timing.min_samples = (unsigned)whole(st, "min_samples", 0x1p32);
    m->timing.max_samples = (unsigned)whole(st, "max_samples", 0x1p32);
    m->timing.budget_s = num(st, "budget_s", -1);
    m->timing.fixed_iters = (uint32_t)whole(st, "fixed_iters", 0x1p32);
    /* Files before max_iters was recorded ran at the default cap. */
    if (cJSON_GetObjectItemCaseSensitive(st, "max_iters"))
      m->timing.max_iters = (uint32_t)whole(st, "max_iters", 0x1p32);
    if (cJSON_GetObjectItemCaseSensitive(st, "repeats")) /* files before --repeat measured once */
      m->timing.repeats = (unsigned)whole(st, "repeats", 0x1p32);
    if (cJSON_GetObjectItemCaseSensitive(st, "rounds")) /* files before --rounds measured one round a repeat */
      m->timing.rounds = (unsigned)whole(st, "rounds", 0x1p32);
    if (cJSON_GetObjectItemCaseSensitive(st, "placements")) /* files before --placements used one */
      m->timing.placements = (unsigned)whole(st, "placements", 0x1p32);
    m->timing.discard_throttled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "discard_throttled"));
    m->timing.rotate = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "rotate")); /* absent before --rotate */
    copy_str(m->clocks, sizeof m->clocks, str(st, "clocks"));
  }
  const cJSON *device = cJSON_GetObjectItemCaseSensitive(root, "device");
  if (!cJSON_IsObject(device) || str(device, "name") == NULL) {
    snprintf(why, why_len, "'%s' has no device", path);
    err = ATL_EINVAL;
    goto out;
  }
  parse_device(device, &m->device);
  const cJSON *grid = cJSON_GetObjectItemCaseSensitive(root, "grid");
  if (cJSON_IsObject(grid)) { /* the shape and what was tried: the report states the peak shape */
    const char *mode = str(grid, "mode");
    m->grid.mode = mode && atl_grid_mode_parse(mode) > 0 ? ATL_GRID_OCCUPANCY : ATL_GRID_AUTO;
    m->grid.wg_size = (unsigned)whole(grid, "wg_size", 0x1p32);
    m->grid.workgroups = (unsigned)whole(grid, "workgroups", 0x1p32);
    copy_str(m->grid.note, sizeof m->grid.note, str(grid, "note"));
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(grid, "tried"))
    {
      if (m->grid.ntried == ATL_GRID_MAX_TRIED || !cJSON_IsObject(t))
        break;
      m->grid.tried[m->grid.ntried].wg_size = (unsigned)whole(t, "wg_size", 0x1p32);
      m->grid.tried[m->grid.ntried].workgroups = (unsigned)whole(t, "workgroups", 0x1p32);
      m->grid.tried[m->grid.ntried++].gops = num(t, "gops", 0);
    }
  }
  const cJSON *occ = cJSON_GetObjectItemCaseSensitive(root, "occupancy");
  m->occupancy.wg_size = (unsigned)whole(occ, "wg_size", 0x1p32);
  m->occupancy.discovered = (unsigned)whole(occ, "discovered_workgroups", 0x1p32);
  m->occupancy.estimated = (unsigned)whole(occ, "estimated_workgroups", 0x1p32);
  m->occupancy.launched = (unsigned)whole(occ, "probe_workgroups", 0x1p32);
  copy_str(m->occupancy.estimate_method, sizeof m->occupancy.estimate_method, str(occ, "estimate_method"));
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
  if (!cJSON_IsArray(rows)) {
    snprintf(why, why_len, "'%s' has no rows array", path);
    err = ATL_EINVAL;
    goto out;
  }
  int index = 0;
  const cJSON *o;
  cJSON_ArrayForEach(o, rows)
  {
    struct atl_row row;
    char detail[200];
    if (!cJSON_IsObject(o)) {
      snprintf(why, why_len, "'%s': row %d is not an object", path, index);
      err = ATL_EINVAL;
      goto out;
    }
    err = fv == 1 ? parse_row_v1(o, kind, &row, detail, sizeof detail, index)
                  : parse_row_v2(o, kind->name, &row, detail, sizeof detail, index);
    index++;
    if (err) {
      snprintf(why, why_len, "'%s': %s", path, detail);
      goto out;
    }
    /* Files from before the flag: judged against the target their run recorded, as a new run would be. */
    if (!cJSON_HasObjectItem(cJSON_GetObjectItemCaseSensitive(o, "time_ms"), "noisy"))
      row.time_ms.noisy = row.status == ATL_STATUS_OK && row.time_ms.samples > 0 && m->timing_recorded &&
                          m->timing.noise >= 0 && row.time_ms.noise > m->timing.noise;
    if ((err = atl_result_set_add(set, &row))) {
      atl_row_release(&row);
      goto out;
    }
  }
out:
  cJSON_Delete(root);
  if (err)
    atl_result_set_release(set);
  return err;
}
