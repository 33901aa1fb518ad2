/* App rows in three views: a readable table, CSV and JSON (one row struct feeds all three). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomlab.h"
#include "atomlab/app.h"
#include "core/output_internal.h"

void atl_app_metric_set(struct atl_app_row *row, const char *name, double value)
{
  for (unsigned i = 0; i < row->nmetrics; i++)
    if (strcmp(row->metrics[i].name, name) == 0) {
      row->metrics[i].value = value;
      return;
    }
  if (row->nmetrics == ATL_APP_MAX_METRICS)
    return;
  snprintf(row->metrics[row->nmetrics].name, sizeof row->metrics[0].name, "%s", name);
  row->metrics[row->nmetrics++].value = value;
}

double atl_app_metric_get(const struct atl_app_row *row, const char *name, double fallback)
{
  for (unsigned i = 0; i < row->nmetrics; i++)
    if (strcmp(row->metrics[i].name, name) == 0)
      return row->metrics[i].value;
  return fallback;
}

int atl_app_set_add(struct atl_app_set *set, const struct atl_app_row *row)
{
  void *rows = atl__grow_rows(set->rows, &set->cap, set->count, sizeof *set->rows, 16);
  if (rows == NULL)
    return ATL_ENOMEM;
  set->rows = rows;
  set->rows[set->count++] = *row;
  return 0;
}

void atl_app_set_release(struct atl_app_set *set)
{
  free(set->rows);
  set->rows = NULL;
  set->count = set->cap = 0;
}

int atl_app_write_table(FILE *f, const struct atl_app_set *set)
{
  fprintf(f, "%-12s %-16s %-11s %-8s %10s %6s  %s\n", "app", "variant", "status", "verified", "median_ms", "noise",
          "metrics");
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_app_row *r = &set->rows[i];
    fprintf(f, "%-12s %-16s %-11s %-8s ", r->app, r->variant, atl_status_name(r->status),
            r->status == ATL_STATUS_OK ? (r->verified ? "yes" : "NO") : "-");
    if (r->time_ms.samples)
      fprintf(f, "%10.4f %5.1f%% ", r->time_ms.median, r->time_ms.noise * 100);
    else
      fprintf(f, "%10s %6s ", "-", "-");
    for (unsigned m = 0; m < r->nmetrics; m++)
      fprintf(f, " %s=%.4g", r->metrics[m].name, r->metrics[m].value);
    if (r->reason[0])
      fprintf(f, " (%s)", r->reason);
    if (r->instructions[0])
      fprintf(f, " [%s]", r->instructions);
    fputc('\n', f);
  }
  return ferror(f) ? ATL_EIO : 0;
}

int atl_app_write_csv(FILE *f, const struct atl_app_set *set)
{
  fprintf(f, "app,variant,status,verified,median_ms,min_ms,max_ms,noise,samples,backend,metrics,instructions,reason\n");
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_app_row *r = &set->rows[i];
    const struct atl_stats *t = &r->time_ms;
    fprintf(f, "%s,%s,%s,%d,%.6f,%.6f,%.6f,%.5f,%u,%s,", r->app, r->variant, atl_status_name(r->status), r->verified,
            t->median, t->min, t->max, t->noise, t->samples, set->meta.device.backend);
    for (unsigned m = 0; m < r->nmetrics; m++)
      fprintf(f, "%s%s=%.9g", m ? ";" : "", r->metrics[m].name, r->metrics[m].value);
    fputc(',', f);
    atl_csv_field(f, r->instructions);
    fputc(',', f);
    atl_csv_field(f, r->reason);
    fputc('\n', f);
  }
  return ferror(f) ? ATL_EIO : 0;
}

static cJSON *row_json(const struct atl_app_row *r)
{
  const struct atl_stats *t = &r->time_ms;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "app", r->app);
  cJSON_AddStringToObject(o, "variant", r->variant);
  cJSON_AddStringToObject(o, "status", atl_status_name(r->status));
  cJSON_AddStringToObject(o, "reason", r->reason);
  cJSON_AddBoolToObject(o, "verified", r->verified);
  cJSON *tj = cJSON_AddObjectToObject(o, "time_ms");
  cJSON_AddNumberToObject(tj, "median", t->median);
  cJSON_AddNumberToObject(tj, "min", t->min);
  cJSON_AddNumberToObject(tj, "max", t->max);
  cJSON_AddNumberToObject(tj, "q1", t->q1);
  cJSON_AddNumberToObject(tj, "q3", t->q3);
  cJSON_AddNumberToObject(tj, "noise", t->noise);
  cJSON_AddNumberToObject(tj, "samples", t->samples);
  cJSON *m = cJSON_AddObjectToObject(o, "metrics");
  for (unsigned i = 0; i < r->nmetrics; i++)
    cJSON_AddNumberToObject(m, r->metrics[i].name, r->metrics[i].value);
  if (r->instructions[0])
    cJSON_AddStringToObject(o, "instructions", r->instructions);
  return o;
}

int atl_app_write_json(FILE *f, const struct atl_app_set *set)
{
  const struct atl_run_meta *m = &set->meta;
  cJSON *root = atl__json_provenance(m);
  cJSON_AddStringToObject(root, "kind", "app");
  cJSON_AddBoolToObject(root, "complete", m->complete);
  cJSON_AddItemToObject(root, "device", atl__device_json(&m->device));
  cJSON_AddStringToObject(root, "cache", "hot: inputs stay in device memory between launches, L2 not flushed");
  cJSON *rows = cJSON_AddArrayToObject(root, "rows");
  for (size_t i = 0; i < set->count; i++)
    cJSON_AddItemToArray(rows, row_json(&set->rows[i]));
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  if (text == NULL)
    return ATL_ENOMEM;
  int err = fputs(text, f) < 0 || fputc('\n', f) == EOF ? ATL_EIO : 0;
  free(text);
  return err;
}

int atl_app_write_set(FILE *f, const void *arg)
{
  const struct atl_app_writer *w = arg;
  return w->fmt == ATL_FORMAT_JSON  ? atl_app_write_json(f, w->set)
         : w->fmt == ATL_FORMAT_CSV ? atl_app_write_csv(f, w->set)
                                    : atl_app_write_table(f, w->set);
}

int atl_app_write_file(const char *path, enum atl_format fmt, const struct atl_app_set *set)
{
  struct atl_app_writer w = {fmt, set};
  return atl_file_write(path, atl_app_write_set, &w, NULL, 0);
}
