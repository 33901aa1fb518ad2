/* One row model, three views of any kind of rows: a readable table, CSV and JSON. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomlab.h"
#include "output_internal.h"

int atl_format_parse(const char *s)
{
  if (strcmp(s, "table") == 0)
    return ATL_FORMAT_TABLE;
  if (strcmp(s, "csv") == 0)
    return ATL_FORMAT_CSV;
  if (strcmp(s, "json") == 0)
    return ATL_FORMAT_JSON;
  return -1;
}

int atl_format_from_path(const char *path, int fallback)
{
  static const char *const ext[][2] = {{".json", "json"}, {".csv", "csv"}, {".txt", "table"}};
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  const char *dot = strrchr(base, '.');
  if (dot == NULL || dot == base)
    return fallback; /* /dev/null, /dev/stdout, a FIFO: the caller's choice */
  for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
    if (strcmp(dot, ext[i][0]) == 0)
      return atl_format_parse(ext[i][1]);
  return -1;
}

/* Table labels and widths of the configuration fields (others: their name, 10 wide). */
static const struct {
  const char *name, *label;
  int width;
} table_fields[] = {
    {"pattern", "pattern", 12}, {"op", "op", 9},          {"type", "type", 6},       {"space", "space", 6},
    {"result", "result", 6},    {"scope", "scope", 6},    {"order", "order", 7},     {"contention", "cont", 6},
    {"padding", "pad", 5},      {"strategy", "strategy", 11}, {"divergent", "div", 4}, {"app", "app", 12},
    {"variant", "variant", 18}, {"device", "device", 12},
};

static void table_field(const char *name, const char **label, int *width)
{
  *label = name;
  *width = 10;
  for (size_t i = 0; i < sizeof table_fields / sizeof table_fields[0]; i++)
    if (strcmp(table_fields[i].name, name) == 0) {
      *label = table_fields[i].label;
      *width = table_fields[i].width;
    }
}

/* A column metric's header: its unit where it has one ("Gop/s"), else its name. */
static const char *column_label(const char *metric)
{
  const struct atl_metric_info *info = atl_metric_info(metric);
  return info && info->unit[0] && strcmp(info->unit, "x") != 0 ? info->unit : metric;
}

int atl_write_table_header(FILE *f, const struct atl_row_kind *kind)
{
  for (const char *const *c = kind->table; *c; c++) {
    const char *label;
    int width;
    table_field(*c, &label, &width);
    fprintf(f, "%-*s ", width, label);
  }
  fprintf(f, "%10s %7s", "median_ms", "noise");
  for (const char *const *m = kind->columns; *m; m++)
    fprintf(f, " %10s", column_label(*m));
  return fprintf(f, " %-8s %s\n", "verified", "status") < 0;
}

/* A column metric as the table shows it: a strategy's winner as "W", its margin as "1.23x". */
static void column_text(const struct atl_row *r, const char *metric, char *out, size_t len)
{
  double v = atl_row_metric(r, metric, NAN);
  if (strcmp(metric, "winner") == 0)
    snprintf(out, len, "%s", v == 1 ? "W" : "-");
  else if (strcmp(metric, "margin") == 0)
    snprintf(out, len, v > 0 ? "%.2fx" : "-", v);
  else if (isnan(v))
    snprintf(out, len, "-");
  else
    snprintf(out, len, "%.6g", v);
}

int atl_write_table_row(FILE *f, const struct atl_row_kind *kind, const struct atl_row *r)
{
  for (const char *const *c = kind->table; *c; c++) {
    const char *label, *v = atl_row_config(r, *c);
    int width;
    table_field(*c, &label, &width);
    fprintf(f, "%-*s ", width, v ? v : "-");
  }
  const int measured = r->status == ATL_STATUS_OK && r->time_ms.samples > 0;
  if (measured)
    fprintf(f, "%10.4f %5.1f%%%c", r->time_ms.median, r->time_ms.noise * 100, r->time_ms.noisy ? '!' : ' ');
  else
    fprintf(f, "%10s %7s", "-", "-");
  for (const char *const *m = kind->columns; *m; m++) {
    char cell[32];
    column_text(r, *m, cell, sizeof cell);
    fprintf(f, " %10s", r->status == ATL_STATUS_OK ? cell : "-");
  }
  fprintf(f, " %-8s %s", r->status == ATL_STATUS_OK ? (r->verified ? "yes" : "NO") : "-", atl_status_name(r->status));
  for (unsigned i = 0; kind->list_metrics && i < r->nmetrics; i++)
    fprintf(f, " %s=%.4g", r->metrics[i].name, r->metrics[i].value);
  if (r->reason[0])
    fprintf(f, " (%s)", r->reason);
  if (r->instructions[0])
    fprintf(f, " [%s]", r->instructions);
  return fputc('\n', f) == EOF || ferror(f);
}

/* A CSV field (result.h): quoted when it holds a comma, quote or newline. */
void atl_csv_field(FILE *f, const char *s)
{
  if (strpbrk(s, ",\"\n") == NULL) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
  fputc('"', f);
}

static int is_column(const struct atl_row_kind *kind, const char *metric)
{
  for (const char *const *m = kind->columns; *m; m++)
    if (strcmp(*m, metric) == 0)
      return 1;
  return 0;
}

int atl_csv_header_write(FILE *f, const struct atl_row_kind *kind)
{
  for (const char *const *c = kind->config; *c; c++)
    fprintf(f, "%s,", *c);
  fputs("status,verified,wrong,median_ms,min_ms,max_ms,q1_ms,q3_ms,iqr_ms,noise,noisy,samples,", f);
  for (const char *const *m = kind->columns; *m; m++)
    fprintf(f, "%s,", *m);
  return fputs("metrics,backend,instructions,reason\n", f) < 0;
}

/* The kind of a set's rows (rmw for an empty set of no kind); its form with a device column when a row names
 * its device (a run on several devices), so a one-device file keeps its columns. */
static const struct atl_row_kind *set_kind(const struct atl_result_set *set)
{
  const char *name = set->kind[0] ? set->kind : set->count ? set->rows[0].kind : "rmw";
  for (size_t i = 0; i < set->count; i++)
    if (atl_row_config(&set->rows[i], "device"))
      return atl_row_kind_devices(name);
  return atl_row_kind_find(name);
}

int atl_write_csv(FILE *f, const struct atl_result_set *set)
{
  const struct atl_row_kind *kind = set_kind(set);
  if (kind == NULL)
    return ATL_EINVAL;
  atl_csv_header_write(f, kind);
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *r = &set->rows[i];
    const struct atl_stats *t = &r->time_ms;
    for (const char *const *c = kind->config; *c; c++) {
      const char *v = atl_row_config(r, *c);
      atl_csv_field(f, v ? v : "");
      fputc(',', f);
    }
    fprintf(f, "%s,%d,%llu,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.5f,%d,%u,", atl_status_name(r->status),
            r->verified, (unsigned long long)r->wrong, t->median, t->min, t->max, t->q1, t->q3, t->iqr, t->noise,
            t->noisy, t->samples);
    for (const char *const *m = kind->columns; *m; m++) {
      double v = atl_row_metric(r, *m, NAN);
      if (!isnan(v))
        fprintf(f, "%.9g", v);
      fputc(',', f);
    }
    for (unsigned m = 0, n = 0; m < r->nmetrics; m++)
      if (!is_column(kind, r->metrics[m].name))
        fprintf(f, "%s%s=%.9g", n++ ? ";" : "", r->metrics[m].name, r->metrics[m].value);
    fputc(',', f);
    atl_csv_field(f, set->meta.device.backend);
    fputc(',', f);
    atl_csv_field(f, r->instructions);
    fputc(',', f);
    atl_csv_field(f, r->reason); /* free text last */
    fputc('\n', f);
  }
  return ferror(f) ? ATL_EIO : 0;
}

void atl__json_add_numbers(cJSON *obj, const struct atl__json_num *nums, size_t n)
{
  for (size_t i = 0; i < n; i++)
    cJSON_AddNumberToObject(obj, nums[i].key, nums[i].value);
}

cJSON *atl__device_json(const struct atl_device_info *d)
{
  cJSON *o = cJSON_CreateObject();
  static const char *const types[] = {"other", "cpu", "gpu", "accelerator"};
  cJSON_AddStringToObject(o, "id", d->id);
  cJSON_AddStringToObject(o, "backend", d->backend);
  cJSON_AddStringToObject(o, "platform", d->platform);
  cJSON_AddStringToObject(o, "name", d->name);
  cJSON_AddStringToObject(o, "vendor", d->vendor);
  cJSON_AddStringToObject(o, "driver", d->driver);
  cJSON_AddStringToObject(o, "version", d->version);
  cJSON_AddStringToObject(o, "language_version", d->lang_version);
  cJSON_AddStringToObject(o, "type", types[d->type < 4 ? d->type : 0]);
  cJSON *lim = cJSON_AddObjectToObject(o, "limits");
  cJSON_AddNumberToObject(lim, "compute_units", d->compute_units);
  cJSON_AddNumberToObject(lim, "clock_mhz", d->clock_mhz);
  cJSON_AddNumberToObject(lim, "max_work_group_size", (double)d->max_wg_size);
  cJSON_AddNumberToObject(lim, "max_alloc_bytes", (double)d->max_alloc);
  cJSON_AddNumberToObject(lim, "global_mem_bytes", (double)d->global_mem);
  cJSON_AddNumberToObject(lim, "local_mem_bytes", (double)d->local_mem);
  cJSON_AddNumberToObject(lim, "local_mem_optin_bytes", (double)d->local_mem_optin);
  cJSON_AddNumberToObject(lim, "l2_cache_bytes", (double)d->l2_cache);
  cJSON_AddNumberToObject(lim, "warp_size", d->warp_size);
  cJSON_AddNumberToObject(lim, "max_threads_per_compute_unit", d->max_threads_per_cu);
  cJSON_AddBoolToObject(lim, "int64_atomics", d->has_int64_atomics);
  cJSON_AddBoolToObject(lim, "f32_atomic_add", d->has_f32_atomic_add);
  cJSON_AddBoolToObject(lim, "f64_atomic_add", d->has_f64_atomic_add);
  cJSON_AddBoolToObject(lim, "f16x2_atomic_add", d->has_f16x2_atomic_add);
  cJSON_AddBoolToObject(lim, "bf16x2_atomic_add", d->has_bf16x2_atomic_add);
  cJSON_AddBoolToObject(lim, "scopes", d->has_scopes);
  cJSON_AddBoolToObject(lim, "memory_orders", d->has_orders);
  cJSON_AddBoolToObject(lim, "local_atomics", d->has_local_atomics);
  if (d->max_loop_passes) /* only where a driver has the limit: every other device's file stays as it was */
    cJSON_AddNumberToObject(lim, "max_loop_passes", d->max_loop_passes);
  return o;
}

static const char *const hint_names[] = {"", "higher", "lower"};

cJSON *atl__row_json(const struct atl_row *r)
{
  const struct atl_stats *t = &r->time_ms;
  cJSON *o = cJSON_CreateObject();
  cJSON *config = cJSON_AddObjectToObject(o, "config");
  for (unsigned i = 0; i < r->nconfig; i++) {
    const struct atl_value *v = &r->config[i];
    if (v->is_number)
      cJSON_AddNumberToObject(config, v->name, strtod(v->text, NULL));
    else
      cJSON_AddStringToObject(config, v->name, v->text);
  }
  cJSON_AddStringToObject(o, "status", atl_status_name(r->status));
  cJSON_AddStringToObject(o, "reason", r->reason);
  cJSON_AddBoolToObject(o, "verified", r->verified);
  cJSON_AddNumberToObject(o, "wrong", (double)r->wrong);
  cJSON *tj = cJSON_AddObjectToObject(o, "time_ms");
  const struct atl__json_num stats[] = {{"median", t->median}, {"min", t->min}, {"max", t->max},
                                        {"mean", t->mean},     {"q1", t->q1},   {"q3", t->q3},
                                        {"iqr", t->iqr},       {"noise", t->noise}};
  atl__json_add_numbers(tj, stats, sizeof stats / sizeof stats[0]);
  cJSON_AddBoolToObject(tj, "noisy", t->noisy);
  cJSON_AddNumberToObject(tj, "samples", t->samples);
  cJSON *samples = cJSON_AddArrayToObject(o, "samples_ms");
  for (unsigned i = 0; r->samples_ms && i < t->samples; i++)
    cJSON_AddItemToArray(samples, cJSON_CreateNumber(r->samples_ms[i]));
  if (r->nvisits) {
    cJSON *visits = cJSON_AddArrayToObject(o, "visits_ms");
    for (unsigned i = 0; i < r->nvisits && i < 64; i++)
      cJSON_AddItemToArray(visits, cJSON_CreateNumber(r->visits_ms[i]));
  }
  cJSON *metrics = cJSON_AddArrayToObject(o, "metrics");
  for (unsigned i = 0; i < r->nmetrics; i++) {
    const struct atl_metric *m = &r->metrics[i];
    cJSON *mj = cJSON_CreateObject();
    cJSON_AddStringToObject(mj, "name", m->name);
    cJSON_AddStringToObject(mj, "unit", m->unit);
    cJSON_AddNumberToObject(mj, "value", m->value);
    cJSON_AddStringToObject(mj, "hint", hint_names[m->hint <= ATL_HINT_LOWER ? m->hint : 0]);
    cJSON_AddItemToArray(metrics, mj);
  }
  cJSON_AddNumberToObject(o, "row_seconds", r->row_seconds);
  if (r->instructions[0])
    cJSON_AddStringToObject(o, "instructions", r->instructions);
  return o;
}

static int compare_doubles(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The figures a benchmark target is stated in: how long the sweep took and
 * how noisy its rows were (median over measured rows of IQR / median). */
static cJSON *summary_json(const struct atl_result_set *set)
{
  cJSON *o = cJSON_CreateObject();
  size_t ok = 0, verified = 0, noisy = 0;
  double row_seconds = 0;
  double *noise = malloc((set->count ? set->count : 1) * sizeof *noise);
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *r = &set->rows[i];
    row_seconds += r->row_seconds;
    verified += r->verified != 0;
    noisy += r->status == ATL_STATUS_OK && r->time_ms.noisy;
    if (r->status == ATL_STATUS_OK && noise)
      noise[ok++] = r->time_ms.noise;
  }
  cJSON_AddNumberToObject(o, "rows", (double)set->count);
  cJSON_AddNumberToObject(o, "rows_ok", (double)ok);
  cJSON_AddNumberToObject(o, "rows_verified", (double)verified);
  cJSON_AddNumberToObject(o, "rows_noisy", (double)noisy); /* ok rows whose noise stayed above the target */
  cJSON_AddNumberToObject(o, "elapsed_s", set->meta.elapsed_s);
  cJSON_AddNumberToObject(o, "row_seconds_total", row_seconds);
  if (set->meta.nrepeat_s > 1 || set->meta.timing.rounds > 1) {
    cJSON *rs = cJSON_AddArrayToObject(o, "repeat_seconds");
    for (unsigned k = 0; k < set->meta.nrepeat_s && k < 64; k++)
      cJSON_AddItemToArray(rs, cJSON_CreateNumber(set->meta.repeat_s[k]));
  }
  if (ok) {
    qsort(noise, ok, sizeof *noise, compare_doubles);
    cJSON_AddNumberToObject(o, "noise_median", ok % 2 ? noise[ok / 2] : (noise[ok / 2 - 1] + noise[ok / 2]) / 2);
    cJSON_AddNumberToObject(o, "noise_max", noise[ok - 1]);
  }
  free(noise);
  return o;
}

cJSON *atl__json_provenance(const struct atl_run_meta *m)
{
  cJSON *root = cJSON_CreateObject();
  cJSON_AddNumberToObject(root, "format_version", ATL_FORMAT_VERSION);
  cJSON *tool = cJSON_AddObjectToObject(root, "tool");
  cJSON_AddStringToObject(tool, "name", "atomlab");
  cJSON_AddStringToObject(tool, "version", m->tool_version);
  cJSON_AddStringToObject(tool, "commit", m->git_commit);
  cJSON_AddStringToObject(root, "date", m->date);
  cJSON_AddStringToObject(root, "command", m->command);
  return root;
}

cJSON *atl__json_meta(const struct atl_run_meta *m)
{
  cJSON *root = atl__json_provenance(m);
  cJSON_AddBoolToObject(root, "complete", m->complete);
  cJSON_AddNumberToObject(root, "rows_planned", (double)m->rows_planned);
  cJSON_AddItemToObject(root, "device", atl__device_json(&m->device));
  if (m->grid.wg_size) {
    cJSON *g = cJSON_AddObjectToObject(root, "grid");
    cJSON_AddStringToObject(g, "mode", atl_grid_mode_name(m->grid.mode));
    cJSON_AddNumberToObject(g, "wg_size", m->grid.wg_size);
    cJSON_AddNumberToObject(g, "workgroups", m->grid.workgroups);
    cJSON_AddStringToObject(g, "note", m->grid.note);
    cJSON *tried = cJSON_AddArrayToObject(g, "tried");
    for (unsigned i = 0; i < m->grid.ntried; i++) {
      cJSON *t = cJSON_CreateObject();
      cJSON_AddNumberToObject(t, "wg_size", m->grid.tried[i].wg_size);
      cJSON_AddNumberToObject(t, "workgroups", m->grid.tried[i].workgroups);
      cJSON_AddNumberToObject(t, "gops", m->grid.tried[i].gops);
      cJSON_AddItemToArray(tried, t);
    }
  }
  cJSON *occ = cJSON_AddObjectToObject(root, "occupancy");
  const struct atl__json_num occupancy[] = {{"wg_size", m->occupancy.wg_size},
                                            {"discovered_workgroups", m->occupancy.discovered},
                                            {"estimated_workgroups", m->occupancy.estimated}};
  atl__json_add_numbers(occ, occupancy, sizeof occupancy / sizeof occupancy[0]);
  cJSON_AddStringToObject(occ, "estimate_method", m->occupancy.estimate_method);
  cJSON_AddNumberToObject(occ, "probe_workgroups", m->occupancy.launched);
  cJSON *st = cJSON_AddObjectToObject(root, "settings");
  const struct atl_timing *tm = &m->timing;
  const struct atl__json_num settings[] = {
      {"target_ms", tm->target_ms},     {"noise_threshold", tm->noise}, {"min_samples", tm->min_samples},
      {"max_samples", tm->max_samples}, {"budget_s", tm->budget_s},     {"fixed_iters", tm->fixed_iters},
      {"max_iters", tm->max_iters},     {"repeats", tm->repeats},       {"rounds", tm->rounds},
      {"placements", tm->placements}};
  atl__json_add_numbers(st, settings, sizeof settings / sizeof settings[0]);
  cJSON_AddBoolToObject(st, "discard_throttled", m->timing.discard_throttled);
  cJSON_AddBoolToObject(st, "rotate", m->timing.rotate);
  if (m->clocks[0])
    cJSON_AddStringToObject(st, "clocks", m->clocks);
  cJSON_AddStringToObject(st, "cache", "hot: the array is re-initialised by a fill before each launch, L2 not flushed");
  return root;
}

int atl__json_print(FILE *f, cJSON *root)
{
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  if (text == NULL)
    return ATL_ENOMEM;
  int err = fputs(text, f) < 0 || fputc('\n', f) == EOF ? ATL_EIO : 0;
  free(text);
  return err;
}

int atl_write_json(FILE *f, const struct atl_result_set *set)
{
  cJSON *root = atl__json_meta(&set->meta);
  cJSON_AddStringToObject(root, "kind", set_kind(set) ? set_kind(set)->name : "rmw");
  cJSON_AddItemToObject(root, "summary", summary_json(set));
  cJSON *rows = cJSON_AddArrayToObject(root, "rows");
  for (size_t i = 0; i < set->count; i++)
    cJSON_AddItemToArray(rows, atl__row_json(&set->rows[i]));
  return atl__json_print(f, root);
}

int atl_write_set(FILE *f, const void *arg)
{
  const struct atl_set_writer *w = arg;
  int err = 0;
  if (w->fmt == ATL_FORMAT_JSON)
    return atl_write_json(f, w->set);
  if (w->fmt == ATL_FORMAT_CSV)
    return atl_write_csv(f, w->set);
  const struct atl_row_kind *kind = set_kind(w->set);
  if (kind == NULL)
    return ATL_EINVAL;
  err = atl_write_table_header(f, kind) ? ATL_EIO : 0;
  for (size_t i = 0; !err && i < w->set->count; i++)
    err = atl_write_table_row(f, kind, &w->set->rows[i]) ? ATL_EIO : 0;
  return err;
}

int atl_write_file(const char *path, enum atl_format fmt, const struct atl_result_set *set)
{
  struct atl_set_writer w = {fmt, set};
  return atl_file_write(path, atl_write_set, &w, NULL, 0);
}
